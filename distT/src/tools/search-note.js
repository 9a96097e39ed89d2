import { MAX_OUTPUT_CHARS, MAX_SEARCH_RESULTS } from '../search/line-search.js';
import { fitResult, joinNotes, RESULT_MAX_CHARS } from './result-budget.js';
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
export function fitSearchResult(result, hints) {
    const content = 'matches' in result;
    const key = content ? 'matches' : 'files' in result ? 'files' : 'counts';
    const what = content ? 'matching lines' : 'files';
    const total = content ? result.total_matches : result.total_files;
    const list = result[key];
    const shown = list.length;
    const budgetHint = hints.summary === undefined ? hints.narrow : `${hints.narrow}, or ${hints.summary}`;
    fitResult(result, key, what, budgetHint, RESULT_MAX_CHARS, total);
    const fitted = result[key].length;
    if (fitted < shown || shown >= total)
        return result;
    let said;
    if (shown >= hints.maxResults) {
        const steps = [...(hints.maxResults < MAX_SEARCH_RESULTS ? [`raise max_results (at most ${MAX_SEARCH_RESULTS})`] : []), hints.narrow, ...(hints.summary === undefined ? [] : [hints.summary])];
        const next = steps.length === 1 ? steps[0] : `${steps.slice(0, -1).join(', ')}, or ${steps[steps.length - 1]}`;
        said = `Showing ${shown} of ${total} ${what} (max_results is ${hints.maxResults}): ${next}.`;
    }
    else {
        said = `Showing ${shown} of ${total} ${what}: the matching lines' text is capped at ${MAX_OUTPUT_CHARS} characters; ${budgetHint}.`;
    }
    result.truncated = true;
    result.note = joinNotes(result.note, said);
    return result;
}
//# sourceMappingURL=search-note.js.map