import { type GrepSearchResult } from '../search/line-search.js';
import { type Tool } from '../core/tool.js';
export { MAX_CONTEXT_LINES, MAX_LINE_CHARS, MAX_OUTPUT_CHARS, MAX_SEARCH_RESULTS, runLineSearch, type GrepSearchResult, type LineSearchOptions, type SearchContentResult, type SearchCountResult, type SearchCounters, type SearchFilesResult, type SearchMatch, } from '../search/line-search.js';
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
 * the workspace. One dialect everywhere: RE2 syntax as ripgrep's default, except that `\w \d \s \b` are
 * ASCII (as in RE2 and JavaScript; ripgrep's are Unicode) and a lone `\r` ends a line (ripgrep's lines end at
 * `\n` only), plus the JavaScript escapes with the same meaning, matched per line (`\n`, `\r\n`, `\r` end
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
 * see the rest ({@link fitSearchResult}).
 *
 * Errors: `invalid_pattern` (bad regex or glob; lookaround and backreferences are named, with a way
 * around them), `invalid_arguments` (a `dir_path` ending in `/` that names a file), `timeout` (the call's own
 * deadline), `not_found`, `outside_workspace`, `cancelled`,
 * `unavailable` (re2js could not be loaded).
 */
export declare const grepSearchTool: Tool<GrepSearchArgs, GrepSearchResult>;
