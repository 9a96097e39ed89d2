// Reading the files toolhost keeps for itself (state, journal, lock and cache files): opened without
// waiting (a FIFO planted at such a name would never end a read), checked on the descriptor to be a
// regular file of a bounded size, and only then read.
import { Buffer } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { READ_FLAGS, specialType } from './read.js';

/** What `fstat` tells of a file, as the refusals below read it. */
export type StoreFileStats = Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'uid' | 'mode' | 'size'>;

/** Why a file may not be read, and whether only its size is the reason (`tooLarge`). */
export interface Refusal {
  reason: string;
  tooLarge: boolean;
}

/** What kind of file `stats` tells of, for messages: `a FIFO (named pipe)`, `a directory`, `a regular file`, ... */
export function describeFileType(stats: Pick<StoreFileStats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  const special = specialType(stats);
  if (special === 'fifo') return 'a FIFO (named pipe)';
  if (special === 'socket') return 'a socket';
  if (special === 'device') return 'a device file';
  return 'not a regular file';
}

/**
 * Why a store file (state, journal, lock) whose `fstat` is `stats` is not read (undefined: it may
 * be): not a regular file (a FIFO would never end a read, a device never end a file), or larger than
 * `maxBytes`. A symbolic link to a regular file is read (it was opened through it).
 */
export function storeFileRefusal(stats: StoreFileStats, maxBytes: number): Refusal | undefined {
  if (!stats.isFile()) return { reason: `it is ${describeFileType(stats)}, not a regular file`, tooLarge: false };
  if (stats.size > maxBytes) return { reason: `it is larger than ${maxBytes} bytes (${stats.size})`, tooLarge: true };
  return undefined;
}

/**
 * Why this process does not read the cache file whose `fstat` is `stats` (undefined: it may): not a
 * regular file (a FIFO would never end a read, a device never end a file), larger than `maxBytes`,
 * owned by another user (whose listings would show names this user may not list, and whose index
 * this user cannot vouch for), or writable by anyone but its owner.
 */
export function cacheFileRefusal(stats: { isFile(): boolean; uid: number; mode: number; size: number }, maxBytes: number): string | undefined {
  if (!stats.isFile()) return 'it is not a regular file';
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) return `it belongs to another user (uid ${stats.uid})`;
  if ((stats.mode & 0o022) !== 0) return 'other users may write it';
  if (stats.size > maxBytes) return `it is larger than ${maxBytes} bytes`;
  return undefined;
}

/** How {@link readStoreFile} refuses a file: the error to throw for `path` and its {@link Refusal}. */
export type RefusalError = (path: string, refusal: Refusal) => Error;

/**
 * The bytes of the store file `path` (a link to one is followed): opened with `O_NONBLOCK` (no wait
 * on a FIFO), refused by {@link storeFileRefusal} on its descriptor before any byte is read (the
 * error `refused` makes), then read up to the size it had when opened. The filesystem's errors
 * (`ENOENT`, `EACCES`, ...) are thrown as they are.
 */
export async function readStoreFile(path: string, maxBytes: number, refused: RefusalError): Promise<Buffer> {
  const handle = await open(path, READ_FLAGS);
  try {
    const stats = await handle.stat();
    const refusal = storeFileRefusal(stats, maxBytes);
    if (refusal !== undefined) throw refused(path, refusal);
    // Its own memory (not a slice of Buffer's shared pool): a caller may keep the bytes.
    const bytes = Buffer.allocUnsafeSlow(stats.size);
    let got = 0;
    while (got < bytes.length) {
      const { bytesRead } = await handle.read(bytes, got, bytes.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return bytes.subarray(0, got);
  } finally {
    await handle.close();
  }
}

/**
 * {@link readStoreFile}'s synchronous twin, reading at most `maxBytes` (a longer regular file gives
 * its first `maxBytes`: a lock file's content is all at its start). Only a file that is not a
 * regular file is refused.
 */
export function readStoreFileHeadSync(path: string, maxBytes: number, refused: RefusalError): Buffer {
  const fd = openSync(path, READ_FLAGS);
  try {
    const stats = fstatSync(fd);
    const refusal = storeFileRefusal(stats, Number.POSITIVE_INFINITY);
    if (refusal !== undefined) throw refused(path, refusal);
    const bytes = Buffer.alloc(Math.min(stats.size, maxBytes));
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return bytes.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
