import type { Buffer } from 'node:buffer';
import { ToolError } from '../../src/core/errors.js';
/**
 * Most bytes one `readFile` of the Node platform returns, whatever the file's size when it is read:
 * the largest file any built-in tool reads (search tools' limit). Larger → ToolError `too_large`.
 */
export declare const MAX_READ_BYTES: number;
/** `O_RDONLY | O_NONBLOCK | O_NOCTTY`: opening a FIFO or device this way never waits for a writer. */
export declare const READ_FLAGS: number;
/** What a non-regular, non-directory file is, for messages and `list_dir`: null for a regular file, directory or symlink. */
export declare function specialType(stats: {
    isFIFO(): boolean;
    isSocket(): boolean;
    isCharacterDevice(): boolean;
    isBlockDevice(): boolean;
}): 'fifo' | 'socket' | 'device' | null;
/**
 * The ToolError `invalid_arguments` for reading or writing a FIFO, socket or device as a file
 * (details `{ file_type }`): such a read could wait forever or never end.
 */
export declare function specialFileError(type: 'fifo' | 'socket' | 'device', shown: string): ToolError;
/** A Node-style error with `code`, as `node:fs` throws. */
export declare function fsError(code: string, message: string, path: string): Error;
/**
 * Reads a regular file: opened without blocking ({@link READ_FLAGS}), its type checked on the
 * descriptor (a directory → `EISDIR`; a FIFO, socket or device → {@link specialFileError}), then at
 * most the size `fstat` gave (and at most {@link MAX_READ_BYTES}) is read, so a file that grows while it
 * is read cannot make the read endless. `shown` names the file in messages.
 */
export declare function readRegularFile(hostPath: string | Buffer, shown: string): Promise<Uint8Array>;
/**
 * Reads a window of a regular file, opened and checked as {@link readRegularFile}: at most `length`
 * bytes from byte `position` (fewer past its end), and only those, so a window of a file of any size
 * costs its own length.
 */
export declare function readRegularFileRange(hostPath: string | Buffer, shown: string, position: number, length: number): Promise<Uint8Array>;
/** At most `length` bytes from byte `position` of an open regular file of `size` bytes (fewer when it shrank). */
export declare function readOpenRange(fd: number, size: number, position: number, length: number): Promise<Uint8Array>;
/** Reads at most `size` bytes from an open regular file (fewer when it shrank). */
export declare function readOpenFile(fd: number, size: number, shown: string): Promise<Uint8Array>;
