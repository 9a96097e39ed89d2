/**
 * Most characters of one tool result, measured as its JSON text (UTF-16 code units): on top of each
 * tool's count caps, `find_file`, `grep_search`, `search_dir` and `list_dir` stop adding items to a
 * result before it would pass this, and say in `note` how many were left out.
 */
export declare const RESULT_MAX_CHARS = 100000;
/** Result fields {@link fitResult} reads and sets. */
interface Budgeted {
    truncated: boolean;
    note?: string;
}
/** Keys of `R` whose values are arrays. */
type ListKey<R> = {
    [K in keyof R]: R[K] extends readonly unknown[] ? K : never;
}[keyof R];
/**
 * Fits `result` into `maxChars` (default {@link RESULT_MAX_CHARS}) characters of JSON by keeping the
 * longest prefix of its list `key` that fits. When items are left out, sets `truncated` and appends to
 * `note` how many of how many `what` are shown and `hint` (what to do to see the rest): of `total`, when
 * the list is itself the first part of that many (a search's `total_matches`), else of the list's length. Measures each
 * item once, and stops at the first that does not fit, so the work is bounded by the budget and not by
 * the list. Returns `result`, changed in place.
 */
export declare function fitResult<R extends Budgeted, K extends ListKey<R>>(result: R, key: K, what: string, hint: string, maxChars?: number, total?: number): R;
import { joinNotes } from '../fs/text.js';
export { joinNotes };
