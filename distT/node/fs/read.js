import * as fs from 'node:fs';
import { ToolError } from '../../src/core/errors.js';
import { clipForMessage } from '../../src/fs/text.js';
/**
 * Most bytes one `readFile` of the Node platform returns, whatever the file's size when it is read:
 * the largest file any built-in tool reads (search tools' limit). Larger → ToolError `too_large`.
 */
export const MAX_READ_BYTES = 64 * 1024 * 1024;
/** `O_RDONLY | O_NONBLOCK | O_NOCTTY`: opening a FIFO or device this way never waits for a writer. */
export const READ_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY;
/** What a non-regular, non-directory file is, for messages and `list_dir`: null for a regular file, directory or symlink. */
export function specialType(stats) {
    if (stats.isFIFO())
        return 'fifo';
    if (stats.isSocket())
        return 'socket';
    if (stats.isCharacterDevice() || stats.isBlockDevice())
        return 'device';
    return null;
}
const DESCRIBED = { fifo: 'a FIFO (named pipe)', socket: 'a socket', device: 'a device file' };
/**
 * The ToolError `invalid_arguments` for reading or writing a FIFO, socket or device as a file
 * (details `{ file_type }`): such a read could wait forever or never end.
 */
export function specialFileError(type, shown) {
    return new ToolError('invalid_arguments', `${clipForMessage(shown)} is ${DESCRIBED[type]}, not a regular file; only regular files are read or written (list_dir shows its type)`, { file_type: type });
}
/** A Node-style error with `code`, as `node:fs` throws. */
export function fsError(code, message, path) {
    return Object.assign(new Error(`${code}: ${message}, '${path}'`), { code, path });
}
const fstat = (fd) => new Promise((resolve, reject) => fs.fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats))));
const read = (fd, buffer, offset, length, position = null) => new Promise((resolve, reject) => fs.read(fd, buffer, offset, length, position, (error, bytes) => (error ? reject(error) : resolve(bytes))));
const open = (path, flags) => new Promise((resolve, reject) => fs.open(path, flags, (error, fd) => (error ? reject(error) : resolve(fd))));
const close = (fd) => new Promise((resolve) => fs.close(fd, () => resolve()));
/**
 * Reads a regular file: opened without blocking ({@link READ_FLAGS}), its type checked on the
 * descriptor (a directory → `EISDIR`; a FIFO, socket or device → {@link specialFileError}), then at
 * most the size `fstat` gave (and at most {@link MAX_READ_BYTES}) is read, so a file that grows while it
 * is read cannot make the read endless. `shown` names the file in messages.
 */
export async function readRegularFile(hostPath, shown) {
    return withRegularFile(hostPath, shown, (fd, size) => readOpenFile(fd, size, shown));
}
/**
 * Reads a window of a regular file, opened and checked as {@link readRegularFile}: at most `length`
 * bytes from byte `position` (fewer past its end), and only those, so a window of a file of any size
 * costs its own length.
 */
export async function readRegularFileRange(hostPath, shown, position, length) {
    return withRegularFile(hostPath, shown, (fd, size) => readOpenRange(fd, size, position, length));
}
/** Opens `hostPath` for reading, refuses a directory or special file (naming `shown`), runs `read` on the descriptor with its size, and closes it. */
async function withRegularFile(hostPath, shown, read) {
    const fd = await open(hostPath, READ_FLAGS);
    try {
        const stats = await fstat(fd);
        if (stats.isDirectory())
            throw fsError('EISDIR', 'illegal operation on a directory, read', shown);
        const special = specialType(stats);
        if (special !== null)
            throw specialFileError(special, shown);
        return await read(fd, stats.size);
    }
    finally {
        await close(fd);
    }
}
/** At most `length` bytes from byte `position` of an open regular file of `size` bytes (fewer when it shrank). */
export async function readOpenRange(fd, size, position, length) {
    const start = Math.min(Math.max(0, position), size);
    const want = Math.min(Math.max(0, length), size - start);
    const bytes = new Uint8Array(want);
    let filled = 0;
    while (filled < want) {
        const got = await read(fd, bytes, filled, want - filled, start + filled);
        if (got === 0)
            break;
        filled += got;
    }
    return filled === want ? bytes : bytes.subarray(0, filled);
}
/** Reads at most `size` bytes from an open regular file (fewer when it shrank). */
export async function readOpenFile(fd, size, shown) {
    if (size > MAX_READ_BYTES) {
        throw new ToolError('too_large', `${clipForMessage(shown)} is ${size} bytes; files are read up to ${MAX_READ_BYTES} bytes`);
    }
    const bytes = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
        const got = await read(fd, bytes, filled, size - filled);
        if (got === 0)
            break;
        filled += got;
    }
    return filled === size ? bytes : bytes.subarray(0, filled);
}
//# sourceMappingURL=read.js.map