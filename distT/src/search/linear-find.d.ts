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
export declare const NATIVE_NEEDLE_LIMIT = 16;
/** `text.indexOf(needle, from)` in linear time (same answer, -1 when absent). */
export declare function indexOfText(text: string, needle: string, from?: number): number;
/**
 * `native(haystack, needle, from)` made linear for needles over {@link NATIVE_NEEDLE_LIMIT} bytes:
 * the same answers (start of the first occurrence at or after `from`, or -1).
 */
export declare function linearByteSearch(native: (haystack: Uint8Array, needle: Uint8Array, from: number) => number): (haystack: Uint8Array, needle: Uint8Array, from: number) => number;
