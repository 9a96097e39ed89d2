import type { FsPromises } from '../core/types.js';
import { type LineEnding } from '../fs/text.js';
/** Bytes read at a time when a window is streamed from a file too large to read whole (1 MiB). */
export declare const WINDOW_CHUNK_BYTES: number;
/** What {@link readLineWindow} wants: 1-based lines `start`..`end`, each cut at `maxLineChars`, at most `maxChars` in all. */
export interface LineWindowRequest {
    start: number;
    end: number;
    maxLineChars: number;
    /** Characters of all shown lines with one separator each; the window ends early past it (one line is always shown). */
    maxChars: number;
    signal?: AbortSignal;
    /** Bytes read at a time (default {@link WINDOW_CHUNK_BYTES}). */
    chunkBytes?: number;
}
/** A window of a file's lines, read in chunks without holding more than one chunk and the window. */
export interface LineWindow {
    /** True when the file's first 8 KiB hold a NUL byte: nothing else was read. */
    binary: boolean;
    /** The first bytes of the file (at most 8 KiB), for a binary file's MIME type. */
    head: Uint8Array;
    /** The lines shown, each cut at `maxLineChars` (`cut` in code points, 0 when whole). */
    lines: Array<{
        text: string;
        cut: number;
    }>;
    /** Last line shown (start - 1 when none is). */
    end: number;
    /** True when the character budget ended the window before `end`. */
    capped: boolean;
    /** Lines of the whole file (a trailing line ending makes no extra line). */
    total: number;
    lineEnding: LineEnding;
}
/**
 * Streams the file at `path` (`size` bytes) through `fs.readRange`, one {@link WINDOW_CHUNK_BYTES}
 * chunk at a time, and returns the lines of `request`: from the start of the file to the window's end
 * only the window's lines are kept, and of each line only the bytes its excerpt can show (4 bytes per
 * character of `maxLineChars`, plus one), the rest counted; then the rest of the file is scanned for
 * its line count and line-ending style. Memory is one chunk plus the window, whatever the file's size
 * or its longest line. `\n`, `\r\n` and `\r` end lines, a UTF-8 BOM is skipped, bytes that are not
 * UTF-8 show as U+FFFD. Gives the event loop a turn every {@link YIELD_INTERVAL_MS} ms and rejects with
 * the signal's `timeout` / `cancelled` once it fires.
 */
export declare function readLineWindow(fs: FsPromises, path: string, size: number, request: LineWindowRequest): Promise<LineWindow>;
