import type { SearchPattern } from './dialect.js';
import { type SearchMatch } from './line-output.js';
/** Bytes of a file read (and decoded) at a time by {@link scanStream}. */
export declare const STREAM_WINDOW_BYTES: number;
/**
 * Characters of a line longer than a window that each window also sees of its neighbours: a regular
 * expression's match in such a line is found when it is at most this long.
 */
export declare const STREAM_OVERLAP_CHARS: number;
/** One file as {@link scanStream} reads it. */
export interface StreamInput {
    /** The file's size in bytes. */
    size: number;
    /** At most `length` bytes from byte `position` (fewer at the end). */
    read(position: number, length: number): Promise<Uint8Array> | Uint8Array;
    /** The text of valid UTF-8 bytes, or null when they are not valid UTF-8. */
    decode(bytes: Uint8Array): string | null;
}
/** What {@link scanStream} may spend and where its matches go. */
export interface StreamOptions {
    /** `Date.now()` value at which the scan stops and reports `stopped`. */
    deadline: number;
    /** Lets the event loop turn (and throws when the call's signal fired). */
    pause: () => Promise<void>;
    /** `context_lines`. */
    contextLines: number;
    /** How many more matches with line, column and excerpt are wanted now (0: only count). */
    wanted: () => number;
    /** A finished match (with its context lines), in file order. */
    emit: (match: SearchMatch) => void;
    /** Window size in bytes (default {@link STREAM_WINDOW_BYTES}); tests lower it. */
    window?: number;
    /** Overlap of long-line windows in characters (default {@link STREAM_OVERLAP_CHARS}). */
    overlap?: number;
}
/** What {@link scanStream} found. */
export interface StreamResult {
    /** Matching lines. */
    count: number;
    /** True when the deadline stopped the scan. */
    stopped: boolean;
    /** True when the file turned out binary (NUL in its first 8 KiB, or not UTF-8): its matches are void. */
    binary: boolean;
}
/**
 * Searches one file of any size window by window, holding at most a window of bytes and about two of
 * text, with the same lines, columns, excerpts and context lines as a whole-file scan: the file is
 * read {@link STREAM_WINDOW_BYTES} at a time and cut after its last line break (the rest is carried
 * into the next window), each run of whole lines is scanned with {@link scanText}, and line numbers
 * and context lines carry over between runs. A line longer than a window is searched in windows that
 * each see {@link STREAM_OVERLAP_CHARS} of their neighbours: literal text is found wherever it is; a
 * regular expression's first match is found when it is at most that long (`^`, `$` and `\b` keep their
 * meaning at window edges); its excerpt and `[... N characters before/after]` counts are exact. NUL in
 * the first 8 KiB or bytes that are not UTF-8 make the file binary (`binary`; its matches are void).
 * Checks the deadline between windows and inside each scan.
 */
export declare function scanStream(path: string, input: StreamInput, pattern: SearchPattern, options: StreamOptions): Promise<StreamResult>;
