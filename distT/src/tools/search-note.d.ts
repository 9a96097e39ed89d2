import { type GrepSearchResult } from '../search/line-search.js';
/** How {@link fitSearchResult} tells the model to see what was left out. */
export interface SearchNoteHints {
    /** The call's `max_results`. */
    maxResults: number;
    /** How to narrow the search, in the tool's parameter names: `narrow the pattern, dir_path or include`. */
    narrow: string;
    /** A mode that sums up instead of listing (grep_search's `count`), when the tool has one. */
    summary?: string;
}
/**
 * Fits a line search's result (grep_search, search_dir) into the result budget ({@link fitResult})
 * and says in `note` what was left out, with numbers that match the result's fields: shown matching
 * lines of `total_matches` (content mode) or shown files of `total_files`. Cut at `max_results`:
 * "Showing 20 of 400 matching lines (max_results is 20): raise max_results (at most 2000), narrow the
 * pattern, dir_path or include, or use output_mode "count" for the number of matching lines per file."
 * Cut at the budget: "Showing 47 of 400 matching lines: the result is capped at 100000 characters;
 * narrow the pattern, dir_path or include, or use output_mode "count" for the number of matching lines
 * per file." A time-limit note already there is kept in front, as a sentence of its own ({@link joinNotes}).
 * Returns `result`, changed in place.
 */
export declare function fitSearchResult<R extends GrepSearchResult>(result: R, hints: SearchNoteHints): R;
