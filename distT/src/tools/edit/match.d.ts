/** `text` with every `\r\n` and `\r` turned into `\n`. */
export declare function toLf(text: string): string;
/**
 * For each UTF-16 index of `toLf(text)` (and one past its end), the matching index in `text`; null
 * when `text` has no `\r` (the indexes are equal). A `\r\n` is one character in the LF text, so
 * spans found there never split a CRLF in the original.
 */
export declare function lfToOriginal(text: string): Int32Array | null;
/**
 * Where `needleLf` occurs in `textLf` (both with LF line breaks): UTF-16 start indexes, left to right
 * and non-overlapping. Exact and literal: indexOf, no pattern. A typed array (4 bytes a match), as a
 * replace-all over a large file may find millions.
 */
export declare function findOccurrences(textLf: string, needleLf: string): Int32Array;
/**
 * Checks that `count` occurrences (at least one) may all be replaced: `expected_replacements`, when
 * given, must equal `count`; otherwise more than one needs `replace_all`. Throws `ambiguous_match` with
 * `details.count`; `where` is the path as messages show it.
 */
export declare function checkOccurrenceCount(count: number, options: {
    replace_all?: boolean;
    expected_replacements?: number;
}, where: string): void;
