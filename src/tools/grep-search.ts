import { compileSearchPattern, loadSearchPatternParser, prepareSearchPattern } from '../search/dialect.js';
import { loadGlobMatcher } from '../search/glob.js';
import {
  DEFAULT_SEARCH_TIME_MS,
  MAX_CONTEXT_LINES,
  MAX_SEARCH_RESULTS,
  MAX_SEARCH_TIME_MS,
  type GrepSearchResult,
} from '../search/line-search.js';
import { askLines } from '../search/engine.js';
import type { LineSearchRequest } from '../core/types.js';
import { defineTool, type ExecuteTool } from '../core/tool.js';
import { reportWalk, walkReportUnder } from '../search/walk-report.js';
import { fitSearchResult } from './search-note.js';
import { refuseSlashOnSearchedFile } from '../fs/paths.js';

export {
  MAX_CONTEXT_LINES,
  MAX_LINE_CHARS,
  MAX_OUTPUT_CHARS,
  MAX_SEARCH_RESULTS,
  runLineSearch,
  type GrepSearchResult,
  type LineSearchOptions,
  type SearchContentResult,
  type SearchCountResult,
  type SearchCounters,
  type SearchFilesResult,
  type SearchMatch,
} from '../search/line-search.js';

/** The dialect as the model reads it, in the tool description and the pattern parameter. */
const DIALECT =
  'RE2 regex syntax, as ripgrep\'s default: Unicode-aware, so \\d \\w \\s \\b and case-insensitive matching follow ' +
  'Unicode (^\\w+$ matches café, case-insensitive привет matches Привет); (?-u) or (?-u:...) makes them ASCII. One ' +
  'difference: a lone \\r ends a line as \\n and \\r\\n do (ripgrep ends lines at \\n only). Syntax: . (any character but a line ending), [a-z] [^...] [[:alpha:]], \\pL \\p{Greek} ' +
  'Unicode classes, groups (...) (?:...) (?P<name>...) (?<name>...), alternation a|b, * + ? {n} {n,m} and lazy *? +?, ' +
  'inline flags (?i) (?s) (?U) (?-u) and (?i:...), ^ $ \\A \\z, escapes \\x{263A} \\u263A \\t \\Q...\\E. No lookahead/lookbehind ' +
  'and no backreferences (they are refused), and at most 1000 levels of nesting. Matched against each line separately ' +
  '(^ and $ are the ends of the line; a line ending never matches). Matching takes time linear in the text for every pattern.';

const inputSchema = {
  type: 'object',
  properties: {
    pattern: {
      type: 'string',
      description: `Regular expression in ${DIALECT}`,
    },
    dir_path: {
      type: 'string',
      description: 'Directory to search (absolute workspace path or relative to the working directory); default: the working directory. A file searches just that file.',
    },
    include: {
      type: 'string',
      description:
        'Only search files matching this glob, e.g. "*.ts" or "*.{ts,tsx}" (name at any depth) or "src/**/*.ts" (path relative to dir_path). ' +
        'Letter case is ignored ("*.TS" also matches a.ts), whatever case_sensitive says.',
    },
    exclude: {
      type: 'string',
      description:
        'Skip files (and directories) matching this glob, e.g. "*.min.js" or "dist"; a trailing / ("dist/") skips folders only. Letter case is ignored, as in include.',
    },
    case_sensitive: { type: 'boolean', description: 'Match the pattern\'s letter case exactly (default true); include and exclude ignore case either way.' },
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
    max_time_ms: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_SEARCH_TIME_MS,
      description: `Time limit in ms (default ${DEFAULT_SEARCH_TIME_MS}, and at most 80 % of what is left of the call's deadline); at the limit the search returns what it found so far with truncated and a note.`,
    },
  },
  required: ['pattern'],
  additionalProperties: false,
} as const;

/** Arguments of grep_search. */
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
  max_time_ms?: number;
}

/**
 * `grep_search` (as gemini-cli's `grep`): regular-expression search over
 * the workspace. One dialect everywhere: RE2 syntax as ripgrep's default, Unicode-aware as ripgrep is
 * (`\w \d \s \b` and case-insensitive matching follow Unicode; `(?-u)` makes them ASCII), except that a
 * lone `\r` ends a line (ripgrep's lines end at `\n` only), plus the JavaScript escapes with the same meaning, matched per line (`\n`, `\r\n`, `\r` end
 * lines); `include` / `exclude` globs ignore letter case whatever `case_sensitive` says; see
 * `compileSearchPattern`. Matching is linear in the text for every pattern on every platform: V8's
 * RegExp runs only patterns whose shape bounds its backtracking, re2js the others (loaded on first
 * use: in browsers a separate file, so a program that never sends such a pattern never fetches it). Returns
 * {@link SearchContentResult} (`matches` of `{ file_path, line_number, column, line }`, plus
 * `before`/`after` with `context_lines`), {@link SearchFilesResult} or {@link SearchCountResult} by
 * `output_mode`; one entry per matching line, column of its first match in code points. Binary files
 * are skipped and counted, never decoded. At `max_time_ms` (default 10 s), or at 80 % of what is left
 * of the call's deadline (`ctx.deadline`) when that comes first, it returns what it found so far with
 * `truncated: true` and a `note`. A directory or file that cannot be read is skipped and counted in
 * `skipped_entries`, with a `note` naming the kinds. When `max_results` or the result budget leaves
 * lines (or files) out, `note` says how many of `total_matches` (or `total_files`) are shown and how to
 * see the rest ({@link fitSearchResult}). The search itself is the platform's search engine's (a `lines`
 * request to `ctx.platform.search`; without one, toolhost's default engine over `ctx.fs`).
 *
 * Errors: `invalid_pattern` (bad regex or glob; lookaround and backreferences are named, with a way
 * around them), `invalid_arguments` (a `dir_path` ending in `/` that names a file, or one of 4,096 bytes or
 * more), `timeout` (the call's own deadline), `not_found`, `outside_workspace` (`dir_path`, or an `include`
 * / `exclude` glob that points outside: absolute, `../`, or a `..` after a wildcard), `cancelled`,
 * `unavailable` (re2js could not be loaded).
 */
export const grepSearchTool: ExecuteTool<GrepSearchArgs, GrepSearchResult> = defineTool({
  name: 'grep_search',
  annotations: { title: 'Search file contents', readOnlyHint: true, openWorldHint: false },
  description:
    'Search file contents with a regular expression and return the matching lines with file path, 1-based line ' +
    `number and column. The pattern is ${DIALECT} ` +
    'Examples: "function\\s+\\w+", "TODO|FIXME", "^import .* from", "(?i)error". Set fixed_strings for literal text. ' +
    'Case-sensitive by default. Skips .git/, node_modules/, .gitignore\'d paths and binary files. output_mode ' +
    '"files_with_matches" lists matching files, "count" counts matching lines per file.',
  inputSchema,
  execute: async (args, ctx): Promise<GrepSearchResult> => {
    // The parser (in browsers fetched on the first search), and for a pattern V8 cannot run safely
    // re2js, are loaded (once) before any file is read.
    await loadSearchPatternParser();
    const pattern = await prepareSearchPattern(
      compileSearchPattern(args.pattern, {
        literal: args.fixed_strings === true,
        caseSensitive: args.case_sensitive !== false,
      }),
    );
    await refuseSlashOnSearchedFile({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, args.dir_path);
    // The include and exclude globs' compiler (in browsers fetched on the first search that has one).
    if (args.include || args.exclude) await loadGlobMatcher();
    const request: LineSearchRequest = {
      kind: 'lines',
      pattern: args.pattern,
      literal: args.fixed_strings === true,
      caseSensitive: args.case_sensitive !== false,
      ...(args.dir_path === undefined ? {} : { dirPath: args.dir_path }),
      ...(args.include === undefined ? {} : { include: args.include }),
      ...(args.exclude === undefined ? {} : { exclude: args.exclude }),
      contextLines: args.context_lines ?? 0,
      outputMode: args.output_mode ?? 'content',
      maxResults: args.max_results ?? 100,
      maxTimeMs: args.max_time_ms ?? DEFAULT_SEARCH_TIME_MS,
    };
    const result = await askLines(ctx, request, pattern);
    reportWalk(result, walkReportUnder(ctx.signal));
    const mode = args.output_mode ?? 'content';
    return fitSearchResult(result, {
      maxResults: args.max_results ?? 100,
      narrow: 'narrow the pattern, dir_path or include',
      ...(mode === 'count' ? {} : { summary: 'use output_mode "count" for the number of matching lines per file' }),
    });
  },
}) as ExecuteTool<GrepSearchArgs, GrepSearchResult>;
