/**
 * Substring search in time linear in the haystack, for needles of any length. The engines' own
 * searches (`String#indexOf`, `Buffer#indexOf`: Boyer-Moore-Horspool) take time proportional to the
 * haystack times the needle in their worst case: a 5,001-character needle over lines of 5,000 equal
 * characters takes seconds per megabyte, in one native call no deadline can interrupt. Here the native
 * search only looks for the needle's first {@link NATIVE_NEEDLE_LIMIT} code units (so its worst case
 * is that many comparisons per position), and from each such candidate a Knuth-Morris-Pratt automaton
 * checks the rest, handing back to the native search as soon as no partial match is alive. Typical
 * text keeps the native speed; the worst case is linear.
 */
/** Needles up to this many code units (or bytes) go straight to the native search. */
export const NATIVE_NEEDLE_LIMIT = 16;
/** KMP failure function: `fail[q]` is the length of the longest proper border of `needle[0..q]`. */
function failureOf(length, at) {
    const fail = new Int32Array(length);
    let k = 0;
    for (let q = 1; q < length; q += 1) {
        const c = at(q);
        while (k > 0 && at(k) !== c)
            k = fail[k - 1];
        if (at(k) === c)
            k += 1;
        fail[q] = k;
    }
    return fail;
}
/**
 * The hybrid search over any sequence: `native(pos)` finds the needle's prefix of `prefix` units at or
 * after `pos` (or -1); `hay(i)` / `pin(i)` read the haystack and needle.
 */
function hybrid(n, m, prefix, from, native, hay, pin, fail) {
    let pos = from;
    for (;;) {
        const c = native(pos);
        if (c === -1 || c + m > n)
            return -1;
        let q = prefix;
        let i = c + prefix;
        while (i < n) {
            const ch = hay(i);
            while (q > 0 && pin(q) !== ch)
                q = fail[q - 1];
            if (pin(q) === ch)
                q += 1;
            i += 1;
            if (q === m)
                return i - m;
            if (q === 0)
                break;
        }
        if (i >= n)
            return -1;
        // No partial match is alive at i: the next match, if any, starts at or after i.
        pos = i;
    }
}
const textTables = new Map();
/** `text.indexOf(needle, from)` in linear time (same answer, -1 when absent). */
export function indexOfText(text, needle, from = 0) {
    const m = needle.length;
    if (m <= NATIVE_NEEDLE_LIMIT)
        return text.indexOf(needle, from);
    let fail = textTables.get(needle);
    if (!fail) {
        fail = failureOf(m, (i) => needle.charCodeAt(i));
        if (textTables.size >= 16)
            textTables.clear();
        textTables.set(needle, fail);
    }
    const head = needle.slice(0, NATIVE_NEEDLE_LIMIT);
    const start = Math.min(Math.max(0, Math.floor(from)), text.length);
    return hybrid(text.length, m, NATIVE_NEEDLE_LIMIT, start, (pos) => text.indexOf(head, pos), (i) => text.charCodeAt(i), (i) => needle.charCodeAt(i), fail);
}
const byteTables = new WeakMap();
/**
 * `native(haystack, needle, from)` made linear for needles over {@link NATIVE_NEEDLE_LIMIT} bytes:
 * the same answers (start of the first occurrence at or after `from`, or -1).
 */
export function linearByteSearch(native) {
    return (haystack, needle, from) => {
        const m = needle.length;
        if (m <= NATIVE_NEEDLE_LIMIT)
            return native(haystack, needle, from);
        let table = byteTables.get(needle);
        if (!table) {
            table = { fail: failureOf(m, (i) => needle[i]), head: needle.subarray(0, NATIVE_NEEDLE_LIMIT) };
            byteTables.set(needle, table);
        }
        const { fail, head } = table;
        const start = Math.min(Math.max(0, Math.floor(from)), haystack.length);
        return hybrid(haystack.length, m, NATIVE_NEEDLE_LIMIT, start, (pos) => native(haystack, head, pos), (i) => haystack[i], (i) => needle[i], fail);
    };
}
//# sourceMappingURL=linear-find.js.map