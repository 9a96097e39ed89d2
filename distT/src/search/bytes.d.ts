/**
 * Byte-level helpers for searching file content without decoding it, in plain JavaScript (no
 * `Buffer`, so they run in a browser worker as on Node): UTF-8 validation and a literal search.
 * Both read the bytes four at a time through a `Uint32Array` view of the aligned middle of the array
 * (word tests that do not depend on the byte order), so text that is mostly ASCII costs about one
 * step per four bytes.
 */
/**
 * Whether `bytes` is well-formed UTF-8 (what `new TextDecoder('utf-8', { fatal: true })` accepts:
 * no overlong forms, no surrogates, nothing above U+10FFFF, no sequence cut short at the end).
 * Runs of ASCII are skipped a word at a time.
 */
export declare function isUtf8(bytes: Uint8Array): boolean;
/**
 * Finds one byte string (the needle) in others, as `Buffer.prototype.indexOf` does: the needle's
 * rarest byte (by a fixed table of how common bytes are in code and text) is looked for a word at a
 * time, and each place it occurs is checked against the whole needle. The view of the last haystack
 * is kept, so repeated calls on one haystack (each match, then the end of its line) cost no
 * allocation.
 */
export declare class ByteFinder {
    #private;
    readonly needle: Uint8Array;
    constructor(needle: Uint8Array);
    /** Whether this finder looks for exactly `needle`'s bytes. */
    matches(needle: Uint8Array): boolean;
    /** Start of the first occurrence at or after `from` (negative: 0), or -1; an empty needle is found at `from` (at most the length). */
    find(haystack: Uint8Array, from: number): number;
}
