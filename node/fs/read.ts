import * as fs from 'node:fs';
import { Buffer } from 'node:buffer';
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
export function specialType(stats: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): 'fifo' | 'socket' | 'device' | null {
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  return null;
}

const DESCRIBED = { fifo: 'a FIFO (named pipe)', socket: 'a socket', device: 'a device file' } as const;

/**
 * The ToolError `invalid_arguments` for reading or writing a FIFO, socket or device as a file
 * (details `{ file_type }`): such a read could wait forever or never end.
 */
export function specialFileError(type: 'fifo' | 'socket' | 'device', shown: string): ToolError {
  return new ToolError(
    'invalid_arguments',
    `${clipForMessage(shown)} is ${DESCRIBED[type]}, not a regular file; only regular files are read or written (list_dir shows its type)`,
    { file_type: type },
  );
}

/** A Node-style error with `code`, as `node:fs` throws. */
export function fsError(code: string, message: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${message}, '${path}'`), { code, path });
}

const fstat = (fd: number): Promise<fs.Stats> =>
  new Promise((resolve, reject) => fs.fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats))));
const read = (fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null = null): Promise<number> =>
  new Promise((resolve, reject) =>
    fs.read(fd, buffer, offset, length, position, (error, bytes) => (error ? reject(error) : resolve(bytes))),
  );
const open = (path: string | Buffer, flags: number): Promise<number> =>
  new Promise((resolve, reject) => fs.open(path, flags, (error, fd) => (error ? reject(error) : resolve(fd))));
const close = (fd: number): Promise<void> => new Promise((resolve) => fs.close(fd, () => resolve()));

/**
 * Reads a regular file: opened without blocking ({@link READ_FLAGS}), its type checked on the
 * descriptor (a directory → `EISDIR`; a FIFO, socket or device → {@link specialFileError}), then at
 * most the size `fstat` gave (and at most {@link MAX_READ_BYTES}) is read, so a file that grows while it
 * is read cannot make the read endless. `shown` names the file in messages.
 */
export async function readRegularFile(hostPath: string | Buffer, shown: string): Promise<Uint8Array> {
  return withRegularFile(hostPath, shown, (fd, size) => readOpenFile(fd, size, shown));
}

/**
 * Reads a window of a regular file, opened and checked as {@link readRegularFile}: at most `length`
 * bytes from byte `position` (fewer past its end), and only those, so a window of a file of any size
 * costs its own length.
 */
export async function readRegularFileRange(hostPath: string | Buffer, shown: string, position: number, length: number): Promise<Uint8Array> {
  return withRegularFile(hostPath, shown, (fd, size) => readOpenRange(fd, size, position, length));
}

/** Opens `hostPath` for reading, refuses a directory or special file (naming `shown`), runs `read` on the descriptor with its size, and closes it. */
async function withRegularFile(hostPath: string | Buffer, shown: string, read: (fd: number, size: number) => Promise<Uint8Array>): Promise<Uint8Array> {
  const fd = await open(hostPath, READ_FLAGS);
  try {
    const stats = await fstat(fd);
    if (stats.isDirectory()) throw fsError('EISDIR', 'illegal operation on a directory, read', shown);
    const special = specialType(stats);
    if (special !== null) throw specialFileError(special, shown);
    return await read(fd, stats.size);
  } finally {
    await close(fd);
  }
}

/** Bytes a read to the end of a file whose size `fstat` gives as 0 asks for at a time. */
const GENERATED_CHUNK_BYTES = 64 * 1024;

/**
 * At most `length` bytes from byte `position` of an open regular file of `size` bytes (fewer when it
 * shrank). A `size` of 0 is what `fstat` gives for the pseudo-files of /proc and /sys, whose content is
 * made when read: such a file is read on to its end (at most `length` bytes), so a real empty file still
 * reads as empty and a pseudo-file as what it holds.
 */
export async function readOpenRange(fd: number, size: number, position: number, length: number): Promise<Uint8Array> {
  if (size === 0) return readToEnd(fd, Math.max(0, position), Math.max(0, length));
  const start = Math.min(Math.max(0, position), size);
  const want = Math.min(Math.max(0, length), size - start);
  const bytes = new Uint8Array(want);
  let filled = 0;
  while (filled < want) {
    const got = await read(fd, bytes, filled, want - filled, start + filled);
    if (got === 0) break;
    filled += got;
  }
  return filled === want ? bytes : bytes.subarray(0, filled);
}

/** Reads at most `size` bytes from an open regular file (fewer when it shrank). */
export async function readOpenFile(fd: number, size: number, shown: string): Promise<Uint8Array> {
  if (size > MAX_READ_BYTES) {
    throw new ToolError('too_large', `${clipForMessage(shown)} is ${size} bytes; files are read up to ${MAX_READ_BYTES} bytes`);
  }
  const bytes = new Uint8Array(size);
  let filled = 0;
  while (filled < size) {
    const got = await read(fd, bytes, filled, size - filled);
    if (got === 0) break;
    filled += got;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
}

/** At most `length` bytes from byte `position` of an open file, read until its end, in chunks (never `length` bytes allocated up front). */
async function readToEnd(fd: number, position: number, length: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let filled = 0;
  // One scratch chunk, each read's bytes copied out: a file that answers a page per read (sysfs, FUSE)
  // would otherwise pin a whole chunk per page.
  const scratch = new Uint8Array(Math.min(GENERATED_CHUNK_BYTES, length));
  while (filled < length) {
    const got = await read(fd, scratch, 0, Math.min(scratch.length, length - filled), position + filled);
    if (got === 0) break;
    chunks.push(scratch.slice(0, got));
    filled += got;
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, filled);
}
