/** How many leading bytes are checked for a NUL byte ("first 8 KiB"). */
export declare const BINARY_SNIFF_BYTES = 8192;
/** A file's bytes decoded as text: the content without a BOM, and whether it had one. */
export interface DecodedText {
    text: string;
    bom: boolean;
}
/**
 * Decodes UTF-8 file bytes, or returns null for a binary file: a NUL byte in the first 8 KiB, or bytes
 * that are not valid UTF-8. A UTF-8 BOM is removed from `text` and reported in `bom`.
 */
export declare function decodeText(bytes: Uint8Array): DecodedText | null;
/** Encodes text as UTF-8, with a BOM in front when `bom` is true (writes keep a file's BOM). */
export declare function encodeText(text: string, bom?: boolean): Uint8Array;
/**
 * Refuses text a tool would write (or match against a file) that holds half of a surrogate pair:
 * UTF-8 has no form for it, so it would be written as U+FFFD and the file silently changed. Throws
 * `invalid_arguments` naming the argument: `<argument> contains half of a surrogate pair (a broken
 * emoji or other character outside the BMP); <next>`.
 */
export declare function refuseLoneSurrogate(argument: string, text: string, next?: string): void;
/** A file's line-ending style: `mixed` when more than one kind occurs, `none` for a single line. */
export type LineEnding = 'lf' | 'crlf' | 'cr' | 'mixed' | 'none';
/** Text split into lines, each without its ending, plus the ending of each line (`''` for a last line without one). */
export interface SplitText {
    lines: string[];
    endings: string[];
}
/**
 * Splits text at `\n`, `\r\n` and `\r` (all three end a line). A trailing line ending does
 * not make a phantom empty last line: `"a\nb\n"` is two lines; `""` is zero lines.
 */
export declare function splitLines(text: string): SplitText;
/** The dominant style of the line endings in `text` (see {@link LineEnding}). */
export declare function detectLineEnding(text: string): LineEnding;
/**
 * Cuts `text` to at most `max` UTF-16 code units without splitting a surrogate pair (an emoji at the
 * cut point is dropped whole). Returns the kept text and how many characters (code points) were cut.
 */
export declare function truncateText(text: string, max: number): {
    text: string;
    cut: number;
};
/** Number of Unicode code points in `text` from UTF-16 index `from` to the end. */
export declare function countCodePoints(text: string, from?: number, to?: number): number;
/**
 * Most UTF-16 code units of one piece of model-given input (a path, pattern or string) quoted in an
 * error message. Messages go back to the model, which already has what it sent: enough to recognise
 * it is all they need, whatever its size.
 */
export declare const MESSAGE_QUOTE_CHARS = 200;
/**
 * `text` for an error message: whole when it has at most `max` UTF-16 code units, else its first
 * `max` (never splitting a surrogate pair) followed by `… (N more characters)`, N in code points.
 */
export declare function clipForMessage(text: string, max?: number): string;
/**
 * `text` in double quotes for an error message, cut as {@link clipForMessage} with the marker after
 * the closing quote: `"src/a.ts"`, `"aaaa…" (999800 more characters)`. With `json` the text is
 * JSON-escaped, so tabs, line breaks and quotes show as `\t`, `\n`, `\"`.
 */
export declare function quoteForMessage(text: string, options?: {
    max?: number;
    json?: boolean;
}): string;
/**
 * `next` after the note a result already has, as separate sentences: `first` gets a full stop when it
 * ends without one (`…or raise max_time_ms` then `Showing 100 of 8016 …` reads `…or raise
 * max_time_ms. Showing 100 of 8016 …`). `next` alone when there is no first note.
 */
export declare function joinNotes(first: string | undefined, next: string): string;
