/**
 * Most characters of one tool result, measured as its JSON text (UTF-16 code units): on top of each
 * tool's count caps, `find_file`, `grep_search`, `search_dir` and `list_dir` stop adding items to a
 * result before it would pass this, and say in `note` how many were left out.
 */
export const RESULT_MAX_CHARS = 100_000;
/** Characters kept free below the budget for the note {@link fitResult} adds. */
const NOTE_ROOM = 600;
/**
 * Fits `result` into `maxChars` (default {@link RESULT_MAX_CHARS}) characters of JSON by keeping the
 * longest prefix of its list `key` that fits. When items are left out, sets `truncated` and appends to
 * `note` how many of how many `what` are shown and `hint` (what to do to see the rest): of `total`, when
 * the list is itself the first part of that many (a search's `total_matches`), else of the list's length. Measures each
 * item once, and stops at the first that does not fit, so the work is bounded by the budget and not by
 * the list. Returns `result`, changed in place.
 */
export function fitResult(result, key, what, hint, maxChars = RESULT_MAX_CHARS, total) {
    const items = result[key];
    const rest = { ...result, [key]: [] };
    let size = JSON.stringify(rest).length + NOTE_ROOM;
    let kept = 0;
    for (; kept < items.length; kept += 1) {
        const itemSize = JSON.stringify(items[kept]).length + (kept > 0 ? 1 : 0);
        if (size + itemSize > maxChars)
            break;
        size += itemSize;
    }
    if (kept === items.length)
        return result;
    result[key] = items.slice(0, kept);
    result.truncated = true;
    const said = `Showing ${kept} of ${total ?? items.length} ${what}: the result is capped at ${maxChars} characters; ${hint}.`;
    result.note = joinNotes(result.note, said);
    return result;
}
import { joinNotes } from '../fs/text.js';
export { joinNotes };
//# sourceMappingURL=result-budget.js.map