import { type Tool } from '../core/tool.js';
/** Largest `max_results` of find_file. */
export declare const MAX_FIND_RESULTS = 10000;
/** Arguments of find_file. */
export interface FindFileArgs {
    pattern: string;
    dir_path?: string;
    case_sensitive?: boolean;
    include_ignored?: boolean;
    max_results?: number;
}
/** Result of find_file. */
export interface FindFileResult {
    /** Absolute workspace paths, sorted by UTF-16 code units; at most `max_results`. */
    files: string[];
    /** How many files matched. */
    total: number;
    /** True when `files` holds fewer than `total` (or the walk stopped at its 200,000-entry cap or its time limit). */
    truncated: boolean;
    /** Entries the walk could not read and left out (a path too long, unreadable, removed while walking); only when there were some. */
    skipped_entries?: number;
    /** What was left out and how to see it: shown of `total` when `max_results` or the character budget cut the list, the time limit, the walk's entry cap, skipped entries; only when something was. */
    note?: string;
}
/**
 * `find_file` (as gemini-cli's `glob`): finds files by glob under
 * `dir_path` (see `compileGlob`: a pattern without `/` matches names at any depth, one with `/` the
 * path relative to `dir_path`; an absolute pattern is taken relative to `dir_path`; a leading `!`
 * negates; case-insensitive by default; matching takes linear time, so no glob can stall the thread).
 * Skips `.git/`, `node_modules/` and `.gitignore`d paths unless `include_ignored`; never follows
 * symlinks (a symlink whose name matches is listed). A directory that cannot be listed is skipped and
 * counted in `skipped_entries`, with a `note` naming the kinds. At 80 % of what is left of the call's
 * deadline (`ctx.deadline`) the walk stops and it returns what it found, `truncated` with a `note`.
 * A list cut by `max_results` (or by the walk's 200,000-entry cap) is `truncated` with a `note` as well,
 * as grep_search's is: "Showing 500 of 1200 paths (max_results is 500): raise max_results (at most
 * 10000), or narrow the pattern or dir_path."
 * Returns {@link FindFileResult}.
 * Errors: `invalid_pattern` (empty, over 1000 characters, unbalanced brace or bracket, invalid class, a
 * range over 1000 names, an absolute pattern inside the workspace but not under `dir_path`),
 * `not_found`, `not_a_directory`, `outside_workspace` (`dir_path`, or an absolute or `../` pattern,
 * outside the workspace), `timeout`/`cancelled`.
 */
export declare const findFileTool: Tool<FindFileArgs, FindFileResult>;
