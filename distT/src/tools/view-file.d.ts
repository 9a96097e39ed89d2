import { type LineEnding } from '../fs/text.js';
import { type Tool } from '../core/tool.js';
/** Lines shown when `end_line` is not given, and at most in one call. */
export declare const VIEW_MAX_LINES = 2000;
/** Longest line shown, in UTF-16 code units; longer lines are cut with a marker. */
export declare const VIEW_MAX_LINE_CHARS = 2000;
/**
 * Most characters of `content` in one call (UTF-16 code units, markers included); a window that would
 * pass it ends early, with `next_start_line`. At least one line is always shown.
 */
export declare const VIEW_MAX_CONTENT_CHARS = 500000;
/**
 * Largest file `view_file` reads whole, in bytes (32 MiB). A larger one is streamed: its window is read
 * a MiB at a time and only the window is kept (where the platform's fs has `readRange`; else `too_large`).
 */
export declare const VIEW_MAX_FILE_BYTES: number;
/** Result of `view_file` for a text file. Lines are 1-based; `content` has no line-number prefixes. */
export interface ViewFileTextResult {
    file_path: string;
    /** The lines `start_line`..`end_line`, without their endings, joined by `\n`; a BOM is never shown. */
    content: string;
    start_line: number;
    /** Last line shown (`start_line - 1` when none is, as for an empty file). */
    end_line: number;
    total_lines: number;
    /** True when the file continues after `end_line`. */
    truncated: boolean;
    line_ending: LineEnding;
    /** The `start_line` that continues reading; only when `truncated`. */
    next_start_line?: number;
    /** How many shown lines were cut at {@link VIEW_MAX_LINE_CHARS}; only when some were. */
    lines_cut?: number;
    /** What was left out and how to get it; only when something was. */
    note?: string;
}
/** Result of `view_file` for a binary file; small images also carry their bytes as base64. */
export interface ViewFileBinaryResult {
    file_path: string;
    binary: true;
    /** Size in bytes. */
    size: number;
    mime_type: string;
    /** Standard base64 of the file; png, jpeg, gif and webp up to 5 MiB only. */
    data_base64?: string;
    note?: string;
}
/** Either result of `view_file`. */
export type ViewFileResult = ViewFileTextResult | ViewFileBinaryResult;
/**
 * `view_file` (windowing as gemini-cli's `read_file`): reads
 * `{ file_path, start_line?, end_line? }` (1-based, inclusive) and returns {@link ViewFileResult}.
 * Default window: the first 2000 lines; at most 2000 lines and 500,000 characters per call; each line
 * cut at 2000 UTF-16 code units (never inside a surrogate pair) with a marker `… [N characters cut]`
 * (N in code points).
 * `\n`, `\r\n` and `\r` all end a line; a trailing ending makes no extra line; a BOM is hidden.
 * Binary files (NUL in the first 8 KiB, or invalid UTF-8) give `{ file_path, binary, size, mime_type }`,
 * plus `data_base64` for png/jpeg/gif/webp up to 5 MiB. Records the SHA-256 of the bytes in the file cache.
 *
 * A file over 32 MiB is streamed where the platform's fs has `readRange` (memory and Node): the window
 * is read a MiB at a time and only it is kept, so memory stays bounded whatever the file's size or
 * its longest line (a single enormous line comes back as an excerpt with the cut marker), with a note.
 *
 * Errors: `not_found`, `is_a_directory`, `outside_workspace`, `invalid_arguments` (start_line past the
 * end, end_line before start_line, a path ending in `/` that names a file, as `create_file` refuses it), `too_large` (over 32 MiB where the fs has no `readRange`),
 * `execution_failed` (a symlink loop).
 */
export declare const viewFileTool: Tool<{
    file_path: string;
    start_line?: number;
    end_line?: number;
}, ViewFileResult>;
