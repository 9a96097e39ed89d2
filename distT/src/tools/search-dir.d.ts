import { type Tool } from '../core/tool.js';
import { type SearchContentResult } from '../search/line-search.js';
/** Arguments of search_dir. */
export interface SearchDirArgs {
    query: string;
    dir_path?: string;
    case_sensitive?: boolean;
    include?: string;
    max_results?: number;
}
/** What `search_dir` returns: the matching lines with grep_search's counters (its `content` mode result). */
export type SearchDirResult = SearchContentResult;
/**
 * `search_dir`: literal, case-insensitive by default text search
 * over the workspace with find_file's ignore rules. Returns {@link SearchContentResult}
 * `{ matches: [{ file_path, line_number, column, line }], total_matches, truncated, files_searched,
 * binary_files_skipped }`: one entry per matching line (1-based line, 1-based code-point column of its
 * first match), files sorted by path; a line longer than 2000 characters is shown as an excerpt of at most
 * 2000 around the first match with `[... N characters before/after]` markers.
 * A directory or file that cannot be read is skipped and counted in `skipped_entries`, with a `note`.
 * Errors: `invalid_arguments` (empty query, a `dir_path` ending in `/` that names a file), `invalid_pattern` (bad include glob), `not_found`, `outside_workspace`.
 */
export declare const searchDirTool: Tool<SearchDirArgs, SearchDirResult>;
