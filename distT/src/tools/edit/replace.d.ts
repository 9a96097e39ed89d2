/**
 * `text` with the spans of `toLf(text)` at `found` (start indexes in increasing order, each `length`
 * UTF-16 units long) replaced by `replacement`, taken literally. The replacement's line breaks take the
 * style of the span they land in (its own, else the text's dominant one), so a CRLF file stays CRLF
 * and a mixed file changes only where edited. Time and extra memory are linear in the text.
 */
export declare function replaceOccurrences(text: string, found: ArrayLike<number>, length: number, replacement: string): string;
