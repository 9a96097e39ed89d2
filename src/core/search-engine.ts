// The search seam's data: what the search tools (grep_search, search_dir, find_file, and the profiles'
// grep and glob tools built on them) ask a platform's search engine (`Platform.search`), and the
// shapes it answers with. Plain data both ways: no compiled patterns, no functions.

/**
 * A content search (`kind: 'lines'`): grep_search's and search_dir's request. The tool has checked
 * the pattern (it parses in the search dialect) before it asks; the engine resolves `dirPath`, checks
 * it and compiles the globs.
 */
export interface LineSearchRequest {
  readonly kind: 'lines';
  /** The pattern as the model gave it: a regular expression in grep_search's dialect (RE2 syntax as ripgrep's default), or literal text with `literal`. */
  readonly pattern: string;
  /** Match `pattern` as literal text (grep_search's `fixed_strings`, always for search_dir). */
  readonly literal: boolean;
  /** Match letter case exactly. */
  readonly caseSensitive: boolean;
  /** Folder (or one file) to search, as the model gave it: absolute in the workspace or relative to the call's `cwd`; absent: the `cwd`. */
  readonly dirPath?: string;
  /** Only files matching this glob (name at any depth without `/`, else the path relative to the folder; letter case ignored). */
  readonly include?: string;
  /** Skip files and folders matching this glob (a trailing `/` names folders only; letter case ignored). */
  readonly exclude?: string;
  /** Lines of context before and after each match (`content` mode), 0 to 20. */
  readonly contextLines: number;
  /** `content`: the matching lines; `files_with_matches`: the files; `count`: matching lines per file. */
  readonly outputMode: 'content' | 'files_with_matches' | 'count';
  /** Most matches (`content`) or files (other modes) returned, 1 to 2000. */
  readonly maxResults: number;
  /**
   * Time budget in ms as the model asked (absent: 10,000), not yet bounded by the call: the engine
   * takes the smaller of it and 80 % of what is left of `ctx.deadline`. Past it the engine answers with
   * what it found, `truncated` and a `note`.
   */
  readonly maxTimeMs?: number;
}

/**
 * A file listing (`kind: 'files'`): find_file's request, the files under `dir` whose path matches
 * `glob`. The tool has resolved `dir` (an existing folder, absolute, symlink-free) and checked the
 * glob before it asks.
 */
export interface FileSearchRequest {
  readonly kind: 'files';
  /** Absolute workspace path of the folder to walk. */
  readonly dir: string;
  /** Glob over paths relative to `dir` (without `/`: names at any depth; a leading `!` negates; an absolute one is taken relative to `dir`). */
  readonly glob: string;
  /** Match the glob's letter case exactly. */
  readonly caseSensitive: boolean;
  /** Also walk `.git/`, `node_modules/` and ignored paths. */
  readonly includeIgnored: boolean;
  /** List symbolic links (never followed) as files. */
  readonly includeSymlinks: boolean;
  /** A `Date.now()` value past which the walk stops and answers `stopped`; absent: no time limit. */
  readonly deadline?: number;
}

/** Any request a platform's search engine (`Platform.search`) answers, told apart by `kind`. */
export type SearchRequest = LineSearchRequest | FileSearchRequest;

/** One matching line of a content search; `column` is the 1-based code-point column of the line's first match. */
export interface SearchMatch {
  /** Absolute workspace path. */
  file_path: string;
  /** 1-based. */
  line_number: number;
  /** 1-based, in Unicode code points. */
  column: number;
  /** The line without its ending; an excerpt with `[...]` markers when longer than 2000 characters. */
  line: string;
  /** grep_search with `context_lines > 0`: up to that many lines before (oldest first). */
  before?: string[];
  /** grep_search with `context_lines > 0`: up to that many lines after. */
  after?: string[];
}

/** Counters shared by every search result. */
export interface SearchCounters {
  /** Matching lines in all searched files (a line with several matches counts once). */
  total_matches: number;
  /** True when results were left out: more than `max_results`, the output budget, the walk cap or the time limit. */
  truncated: boolean;
  /** Text files searched. */
  files_searched: number;
  /** Binary files (NUL in the first 8 KiB or invalid UTF-8), skipped without decoding. */
  binary_files_skipped: number;
  /** Files over 256 MiB on a platform that cannot read part of a file, not searched; only present when there were some. */
  large_files_skipped?: number;
  /** Entries that could not be read and were left out; only present when there were some (the tools add it from the walk's report). */
  skipped_entries?: number;
  /** Present when results were left out (the time limit; in the tools' results also `max_results` and the character budget): what is shown of what, and how to go on. */
  note?: string;
}

/** `output_mode: 'content'` (and search_dir). */
export interface SearchContentResult extends SearchCounters {
  matches: SearchMatch[];
}

/** `output_mode: 'files_with_matches'`: matching files sorted by path. */
export interface SearchFilesResult extends SearchCounters {
  files: string[];
  /** Files with at least one match. */
  total_files: number;
}

/** `output_mode: 'count'`: matching lines per file, files sorted by path. */
export interface SearchCountResult extends SearchCounters {
  counts: Array<{ file_path: string; count: number }>;
  /** Files with at least one match. */
  total_files: number;
}

/** Any grep_search result. */
export type GrepSearchResult = SearchContentResult | SearchFilesResult | SearchCountResult;

/**
 * Why an entry was skipped: `too_long` (`ENAMETOOLONG`: its name or whole path is longer than the
 * system takes), `unreadable` (`EACCES` / `EPERM`), `vanished` (`ENOENT` / `ENOTDIR`: removed or
 * replaced by a file between being listed and being read), `loop` (`ELOOP`: replaced by a symbolic
 * link while the walk ran), `outside` (`outside_workspace`: replaced by a link out of the workspace).
 */
export type SkipKind = 'too_long' | 'unreadable' | 'vanished' | 'loop' | 'outside';

/** Entries one walk (or one call's walks and reads) left out because they could not be read. */
export interface SkippedEntries {
  /** How many entries were skipped. */
  count: number;
  /** How many per {@link SkipKind}. */
  kinds: Partial<Record<SkipKind, number>>;
  /** The first skipped entry's absolute workspace path. */
  first?: string;
}

/** The rules of one `.gitignore` that a walk left out, and why (each count only when there were some). */
export interface DroppedIgnoreRules {
  /** Absolute workspace path of the `.gitignore`. */
  file: string;
  /** The file's size in bytes, when over 1 MiB: only its first MiB (to its last line break) was read. */
  fileBytes?: number;
  /** Rules past the first 10,000. */
  pastCap: number;
  /** Rules with more than two `**`. */
  globstars: number;
  /** Rules over 4096 characters. */
  tooLong: number;
}

/** The answer to a {@link LineSearchRequest}: the tool's result before it fits it to its budget and notes what the walk skipped. */
export interface LineSearchResponse {
  readonly kind: 'lines';
  /** Shaped by the request's `outputMode`; files and counts sorted by path (UTF-16 code units). */
  readonly result: GrepSearchResult;
}

/** The answer to a {@link FileSearchRequest}: the walk's matching files and what it could not cover. */
export interface FileSearchResponse {
  readonly kind: 'files';
  /** Absolute workspace paths of the matching files, sorted by UTF-16 code units. */
  readonly paths: string[];
  /** True when the walk stopped at its 200,000-entry cap (`paths` are the matches among the entries seen). */
  readonly capped: boolean;
  /** True when the request's `deadline` stopped the walk. */
  readonly stopped: boolean;
  /** Folders listed. */
  readonly directories: number;
  /** Entries that could not be read and were left out. */
  readonly skipped: SkippedEntries;
  /** `.gitignore` files some of whose rules were left out, in the order read. */
  readonly ignoreDropped: readonly DroppedIgnoreRules[];
}

/** Any answer of a search engine: the same `kind` as its request. */
export type SearchResponse = LineSearchResponse | FileSearchResponse;
