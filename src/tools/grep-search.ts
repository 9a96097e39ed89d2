import { ToolError } from '../core/errors.js';
import { compileGlob } from '../search/glob.js';
import {
  compileLinePattern,
  createInThreadRegexSandbox,
  DEFAULT_REGEX_BUDGET_MS,
  scanWithBudget,
  type LinePattern,
} from '../search/regex.js';
import { clipForMessage, countCodePoints } from '../fs/text.js';
import { defineTool, type Tool, type ToolContext } from '../core/tool.js';
import type { RegexSandbox } from '../core/types.js';
import { compareCodeUnits, loadTexts, walkWorkspace, type TextEntry, type WalkFile } from '../fs/walk.js';
import { basename, resolveWorkspacePath } from '../fs/paths.js';

/** Longest line shown in full, in UTF-16 code units; longer ones become an excerpt around the first match. */
export const MAX_LINE_CHARS = 2000;
/** Characters of `line`/`before`/`after` text one search returns before it stops adding matches. */
export const MAX_OUTPUT_CHARS = 200_000;
/** Largest `context_lines`. */
export const MAX_CONTEXT_LINES = 20;
/** Largest `max_results` of search_dir and grep_search. */
export const MAX_SEARCH_RESULTS = 2000;

/** One matching line. `column` is the 1-based code-point column of the line's first match. */
export interface SearchMatch {
  file_path: string;
  /** 1-based. */
  line_number: number;
  /** 1-based, in Unicode code points. */
  column: number;
  /** The line without its ending; an excerpt with `[...]` markers when longer than {@link MAX_LINE_CHARS}. */
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
  /** True when results were left out: more than `max_results`, the output budget, or the walk cap. */
  truncated: boolean;
  /** Text files searched. */
  files_searched: number;
  /** Binary files (NUL in the first 8 KiB or invalid UTF-8), skipped without decoding. */
  binary_files_skipped: number;
  /** Files over 64 MiB, not searched; only present when there were some. */
  large_files_skipped?: number;
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

/** What the shared engine of search_dir and grep_search needs. */
export interface LineSearchOptions {
  pattern: LinePattern;
  dirPath?: string;
  include?: string;
  exclude?: string;
  contextLines?: number;
  outputMode?: 'content' | 'files_with_matches' | 'count';
  maxResults: number;
}

interface FileMatches {
  path: string;
  entry: TextEntry;
  /** Matched line indexes (0-based, ascending) and the UTF-16 offset of each line's first match. */
  lines: number[];
  offsets: number[];
}

/** Line start offsets: `\n`, `\r\n` and `\r` end a line; a final line ending adds no empty line. */
function lineStartsOf(entry: TextEntry): number[] {
  if (entry.lineStarts) return entry.lineStarts;
  const text = entry.text;
  const starts: number[] = [];
  if (text.length > 0) {
    starts.push(0);
    if (text.indexOf('\r') === -1) {
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
        if (i + 1 < text.length) starts.push(i + 1);
      }
    } else {
      for (let i = 0; i < text.length; i += 1) {
        const c = text.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        if (c === 13 && text.charCodeAt(i + 1) === 10) i += 1;
        if (i + 1 < text.length) starts.push(i + 1);
      }
    }
  }
  entry.lineStarts = starts;
  return starts;
}

/** UTF-16 offset where line `k` ends (its line ending excluded). */
function lineEndOf(text: string, starts: readonly number[], k: number): number {
  const start = starts[k] as number;
  let end = k + 1 < starts.length ? (starts[k + 1] as number) : text.length;
  if (end > start) {
    const c = text.charCodeAt(end - 1);
    if (c === 10) {
      end -= 1;
      if (end > start && text.charCodeAt(end - 1) === 13) end -= 1;
    } else if (c === 13) end -= 1;
  }
  return end;
}

const SEPARATOR_RE = /[\u2028\u2029]/;

/**
 * Turns whole-text matches of a `(?:p)[^\n\r]*` pattern into first-match offsets per line. A match that
 * runs over a line ending cannot be a per-line match and may hide later ones, so the lines it touches
 * are collected in `rescan` to be checked one by one; so are lines holding U+2028/U+2029 when the
 * pattern has anchors (under the `m` flag JavaScript treats those as line ends; SPEC §6 does not).
 */
function collectLines(
  entry: TextEntry,
  found: ReadonlyArray<[number, number]>,
  anchors: boolean,
): { lines: number[]; offsets: number[]; rescan: number[] } {
  const text = entry.text;
  const starts = lineStartsOf(entry);
  const lines: number[] = [];
  const offsets: number[] = [];
  const rescan = new Set<number>();
  const n = starts.length;
  let k = 0;
  for (const [s, e] of found) {
    while (k + 1 < n && (starts[k + 1] as number) <= s) k += 1;
    if (k >= n) break;
    const end = lineEndOf(text, starts, k);
    if (k === n - 1 && s === text.length && end < text.length) break; // after the final line ending
    const recorded = lines.length > 0 && lines[lines.length - 1] === k;
    if (e > end) {
      let last = k;
      while (last + 1 < n && (starts[last + 1] as number) <= e - 1) last += 1;
      for (let j = recorded ? k + 1 : k; j <= last; j += 1) rescan.add(j);
      continue;
    }
    if (recorded || rescan.has(k)) continue;
    if (anchors && SEPARATOR_RE.test(text.slice(starts[k] as number, end))) {
      rescan.add(k);
      continue;
    }
    lines.push(k);
    offsets.push(s);
  }
  return { lines, offsets, rescan: [...rescan].sort((a, b) => a - b) };
}

/** `text` cut to {@link MAX_LINE_CHARS} with a marker of how many characters were cut. */
function clipLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  let end = MAX_LINE_CHARS;
  const c = line.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  return `${line.slice(0, end)} [... ${countCodePoints(line, end)} more characters]`;
}

/** An excerpt of at most {@link MAX_LINE_CHARS} around `at` (line-relative), with markers for the cut parts. */
function excerptLine(line: string, at: number, length: number): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const span = Math.min(length, MAX_LINE_CHARS);
  let start = Math.max(0, Math.min(line.length - MAX_LINE_CHARS, at - Math.floor((MAX_LINE_CHARS - span) / 2)));
  let end = start + MAX_LINE_CHARS;
  const first = line.charCodeAt(start);
  if (start > 0 && first >= 0xdc00 && first <= 0xdfff) start += 1;
  const last = line.charCodeAt(end - 1);
  if (end < line.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  const before = start > 0 ? `[... ${countCodePoints(line, 0, start)} characters before] ` : '';
  const after = end < line.length ? ` [... ${countCodePoints(line, end)} characters after]` : '';
  return before + line.slice(start, end) + after;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Resolves `dir_path` (default: the working directory) and lists the files to search, filtered by the
 * `include` / `exclude` globs (compiled relative to it, so absolute globs work).
 */
async function filesToSearch(
  ctx: ToolContext,
  options: { dirPath?: string; include?: string; exclude?: string },
): Promise<{ files: WalkFile[]; capped: boolean }> {
  const scope = { fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd };
  const start = await resolveWorkspacePath(scope, options.dirPath ?? ctx.cwd, { argName: 'dir_path' });
  let stats;
  try {
    stats = await ctx.fs.stat(start);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') {
      throw new ToolError('not_found', `dir_path ${clipForMessage(start)} does not exist; check the path with list_dir or find_file`);
    }
    throw error;
  }
  // A file as dir_path: search just that file (the globs are still checked).
  const base = stats.isDirectory() ? { root: ctx.platform.root, dir: start } : undefined;
  const include = options.include ? compileGlob(options.include, { argName: 'include', base }) : undefined;
  // `dist/` (as in .gitignore) names folders only: it prunes them and leaves files of that name alone.
  const foldersOnly = options.exclude !== undefined && options.exclude.length > 1 && options.exclude.endsWith('/');
  const excludeGlob = foldersOnly ? (options.exclude as string).replace(/\/+$/, '') : options.exclude;
  const exclude = excludeGlob ? compileGlob(excludeGlob, { argName: 'exclude', base }) : undefined;
  const excludeFiles = foldersOnly ? undefined : exclude;
  if (!base) return { files: [{ path: start, rel: basename(start), symlink: false }], capped: false };
  const walked = await walkWorkspace({
    fs: ctx.fs,
    root: ctx.platform.root,
    dir: start,
    changeCount: ctx.platform.changeCount,
    signal: ctx.signal,
    fileFilter: include || excludeFiles ? (rel) => (!include || include.matches(rel)) && !excludeFiles?.matches(rel) : undefined,
    pruneDir: exclude ? (rel) => exclude.matches(rel) : undefined,
  });
  return walked;
}

let inThread: RegexSandbox | undefined;

/**
 * The engine of search_dir and grep_search. Walks like find_file (skips `.git/`, `node_modules/`,
 * `.gitignore`d paths, symlinks), reads files through the per-platform decoded-text cache, and runs the
 * pattern once over each whole file text as `(?:pattern)[^\n\r]*` — one match per line — computing line
 * numbers only for files that match (measured: per-line scanning is several times slower). Literal
 * searches run in the calling thread (they cannot backtrack); regexes go through `platform.regex` when
 * the platform has one (interruptible), else the in-thread default (see `createInThreadRegexSandbox`).
 * Lines are 1-based, columns 1-based code points, files sorted by path.
 */
export async function runLineSearch(ctx: ToolContext, options: LineSearchOptions): Promise<GrepSearchResult> {
  const { pattern, maxResults } = options;
  const contextLines = options.contextLines ?? 0;
  const outputMode = options.outputMode ?? 'content';
  const listed = await filesToSearch(ctx, { dirPath: options.dirPath, include: options.include, exclude: options.exclude });
  listed.files.sort((a, b) => compareCodeUnits(a.path, b.path));
  const loaded = await loadTexts(ctx.platform, listed.files, ctx.signal);

  let binary = 0;
  let large = 0;
  const searched: Array<{ path: string; entry: TextEntry }> = [];
  for (const file of loaded) {
    if (file.entry) searched.push({ path: file.path, entry: file.entry });
    else if (file.tooLarge) large += 1;
    else binary += 1;
  }

  inThread ??= createInThreadRegexSandbox();
  const sandbox = pattern.literal ? inThread : (ctx.platform.regex ?? inThread);
  const started = Date.now();
  const found = await scanWithBudget({
    sandbox,
    source: pattern.source,
    flags: pattern.flags,
    texts: searched.map((file) => file.entry.text),
    signal: ctx.signal,
    budgetMs: DEFAULT_REGEX_BUDGET_MS,
  });

  const matched: FileMatches[] = [];
  const rescanLines: Array<{ file: FileMatches; line: number; start: number; text: string }> = [];
  found.forEach((hits, i) => {
    if (hits.length === 0) return;
    const { path, entry } = searched[i] as { path: string; entry: TextEntry };
    const { lines, offsets, rescan } = collectLines(entry, hits, pattern.anchors);
    const file: FileMatches = { path, entry, lines, offsets };
    matched.push(file);
    const starts = lineStartsOf(entry);
    for (const k of rescan) {
      const start = starts[k] as number;
      rescanLines.push({ file, line: k, start, text: entry.text.slice(start, lineEndOf(entry.text, starts, k)) });
    }
  });
  if (rescanLines.length > 0) {
    const again = await scanWithBudget({
      sandbox,
      source: pattern.source,
      flags: pattern.lineFlags,
      texts: rescanLines.map((line) => line.text),
      signal: ctx.signal,
      budgetMs: Math.max(1, DEFAULT_REGEX_BUDGET_MS - (Date.now() - started)),
    });
    const touched = new Set<FileMatches>();
    rescanLines.forEach((line, i) => {
      const first = again[i]?.[0];
      if (!first) return;
      line.file.lines.push(line.line);
      line.file.offsets.push(line.start + first[0]);
      touched.add(line.file);
    });
    for (const file of touched) {
      const order = file.lines.map((_, i) => i).sort((a, b) => (file.lines[a] as number) - (file.lines[b] as number));
      file.lines = order.map((i) => file.lines[i] as number);
      file.offsets = order.map((i) => file.offsets[i] as number);
    }
  }

  const withMatches = matched.filter((file) => file.lines.length > 0);
  const totalMatches = withMatches.reduce((sum, file) => sum + file.lines.length, 0);
  const counters: SearchCounters = {
    total_matches: totalMatches,
    truncated: listed.capped,
    files_searched: searched.length,
    binary_files_skipped: binary,
  };
  if (large > 0) counters.large_files_skipped = large;

  if (outputMode === 'files_with_matches') {
    const files = withMatches.slice(0, maxResults).map((file) => file.path);
    return { files, total_files: withMatches.length, ...counters, truncated: counters.truncated || files.length < withMatches.length };
  }
  if (outputMode === 'count') {
    const counts = withMatches.slice(0, maxResults).map((file) => ({ file_path: file.path, count: file.lines.length }));
    return { counts, total_files: withMatches.length, ...counters, truncated: counters.truncated || counts.length < withMatches.length };
  }

  const matches: SearchMatch[] = [];
  let budget = MAX_OUTPUT_CHARS;
  const literalLength = pattern.literal ? pattern.pattern.length : 0;
  outer: for (const file of withMatches) {
    const text = file.entry.text;
    const starts = lineStartsOf(file.entry);
    for (let i = 0; i < file.lines.length; i += 1) {
      if (matches.length >= maxResults) break outer;
      const k = file.lines[i] as number;
      const lineStart = starts[k] as number;
      const offset = file.offsets[i] as number;
      const line = text.slice(lineStart, lineEndOf(text, starts, k));
      const match: SearchMatch = {
        file_path: file.path,
        line_number: k + 1,
        column: countCodePoints(text, lineStart, offset) + 1,
        line: excerptLine(line, offset - lineStart, literalLength),
      };
      let size = match.line.length;
      if (contextLines > 0) {
        const lineAt = (j: number): string =>
          clipLine(text.slice(starts[j] as number, lineEndOf(text, starts, j)));
        match.before = [];
        match.after = [];
        for (let j = Math.max(0, k - contextLines); j < k; j += 1) match.before.push(lineAt(j));
        for (let j = k + 1; j <= Math.min(starts.length - 1, k + contextLines); j += 1) match.after.push(lineAt(j));
        for (const part of match.before) size += part.length;
        for (const part of match.after) size += part.length;
      }
      if (size > budget && matches.length > 0) break outer;
      budget -= size;
      matches.push(match);
    }
  }
  return { matches, ...counters, truncated: counters.truncated || matches.length < totalMatches };
}

const parameters = {
  type: 'object',
  properties: {
    pattern: {
      type: 'string',
      description:
        'ECMAScript (JavaScript) regular expression, compiled with the u flag: \\d \\w \\s \\b, classes, groups, ' +
        '(?<name>...), lookaround, \\p{L} Unicode properties; no inline flags such as (?i). Matched against each ' +
        'line separately (a line ending never matches; ^ and $ are the ends of the line).',
    },
    dir_path: {
      type: 'string',
      description: 'Directory to search (absolute workspace path or relative to the working directory); default: the working directory. A file searches just that file.',
    },
    include: {
      type: 'string',
      description: 'Only search files matching this glob, e.g. "*.ts" or "*.{ts,tsx}" (name at any depth) or "src/**/*.ts" (path relative to dir_path).',
    },
    exclude: {
      type: 'string',
      description: 'Skip files (and directories) matching this glob, e.g. "*.min.js" or "dist"; a trailing / ("dist/") skips folders only.',
    },
    case_sensitive: { type: 'boolean', description: 'Match letter case exactly (default true).' },
    fixed_strings: { type: 'boolean', description: 'Treat pattern as literal text, not a regular expression (default false).' },
    context_lines: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_CONTEXT_LINES,
      description: `Lines of context before and after each match, as before/after arrays (default 0, at most ${MAX_CONTEXT_LINES}).`,
    },
    output_mode: {
      type: 'string',
      enum: ['content', 'files_with_matches', 'count'],
      description: 'content: matching lines (default); files_with_matches: just the file paths; count: matching lines per file.',
    },
    max_results: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_SEARCH_RESULTS,
      description: 'Most matches (content) or files (other modes) to return (default 100).',
    },
  },
  required: ['pattern'],
  additionalProperties: false,
} as const;

/** Arguments of grep_search (SPEC §6.7). */
export interface GrepSearchArgs {
  pattern: string;
  dir_path?: string;
  include?: string;
  exclude?: string;
  case_sensitive?: boolean;
  fixed_strings?: boolean;
  context_lines?: number;
  output_mode?: 'content' | 'files_with_matches' | 'count';
  max_results?: number;
}

/**
 * `grep_search` (SPEC §6.7; seed: the SDK's `GrepSearch`, as gemini-cli's `grep`): regular-expression
 * search over the workspace. One dialect everywhere: ECMAScript RegExp with the `u` flag, matched per
 * line (`\n`, `\r\n`, `\r` end lines). Returns {@link SearchContentResult} (`matches` of
 * `{ file_path, line_number, column, line }`, plus `before`/`after` with `context_lines`),
 * {@link SearchFilesResult} or {@link SearchCountResult} by `output_mode`; one entry per matching line,
 * column of its first match in code points. Binary files are skipped and counted, never decoded.
 *
 * Catastrophic patterns: matching goes through `ctx.platform.regex` when the platform has one
 * (`createVmRegexSandbox()` from `toolhost/node` interrupts a running RegExp), in slices budgeted from
 * the time spent so far and checked against `ctx.signal`, so `(a+)+$` over a long line ends with
 * `timeout` shortly after the call's deadline (within about 25 %), or after 10 s without one, and the next
 * call works. Without a sandbox the regex runs in the calling thread, which cannot interrupt it: run
 * the runner in a worker the host can replace (the web adapter) or pass a sandbox.
 *
 * Errors: `invalid_pattern` (bad regex or glob, with the engine's message), `timeout`, `not_found`,
 * `outside_workspace`, `cancelled`.
 */
export const grepSearchTool: Tool<GrepSearchArgs, GrepSearchResult> = defineTool({
  name: 'grep_search',
  description:
    'Search file contents with a regular expression and return the matching lines with file path, 1-based line ' +
    'number and column. The pattern is an ECMAScript (JavaScript) RegExp with the u flag, applied to each line ' +
    '(e.g. "function\\s+\\w+", "TODO|FIXME", "^import .* from"); set fixed_strings for literal text. ' +
    'Case-sensitive by default. Skips .git/, node_modules/, .gitignore\'d paths and binary files. output_mode ' +
    '"files_with_matches" lists matching files, "count" counts matching lines per file.',
  parameters,
  readOnly: true,
  callWithContext: async (args, ctx): Promise<GrepSearchResult> => {
    const pattern = compileLinePattern(args.pattern, {
      literal: args.fixed_strings === true,
      caseSensitive: args.case_sensitive !== false,
    });
    return runLineSearch(ctx, {
      pattern,
      dirPath: args.dir_path,
      include: args.include,
      exclude: args.exclude,
      contextLines: args.context_lines ?? 0,
      outputMode: args.output_mode ?? 'content',
      maxResults: args.max_results ?? 100,
    });
  },
}) as Tool<GrepSearchArgs, GrepSearchResult>;
