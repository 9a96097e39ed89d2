// Reading the files toolhost keeps for itself (state, journal, lock and cache files): opened without
// waiting (a FIFO planted at such a name would never end a read), checked on the descriptor (a regular
// file of a bounded size; a cache file also this user's alone), and only then read, all by one reader
// (`readStoreFile`, and its synchronous face) to which each caller gives its checks.
import { Buffer } from 'node:buffer';
import { closeSync, fstatSync, openSync, read, readSync, type Stats } from 'node:fs';
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

/** The error thrown for the store file at `path` that {@link storeFileRefusal} refuses for `refusal`. */
export type RefusalError = (path: string, refusal: Refusal) => Error;

/**
 * How {@link readStoreFile} opens and vets a file: `R` is the kind of reason its `refusal` gives (a
 * {@link Refusal}, a message, ...).
 */
export interface StoreFileCheck<R> {
  /**
   * The flags the file is opened with: `O_NONBLOCK` among them (a FIFO's open never waits for a
   * writer), `O_NOFOLLOW` where a symbolic link at the name is not to be followed (its open fails
   * with `ELOOP`).
   */
  flags: number;
  /** Why the file whose `fstat` (on the opened descriptor) is `stats` is not read; undefined: it is. */
  refusal(stats: StoreFileStats): R | undefined;
  /** The error thrown for the file at `path` refused for `reason`. */
  refused(path: string, reason: R): Error;
  /**
   * Bytes read first, at most (the file's size when opened caps them). Without `headRefusal` they
   * are all that is read and returned: a longer file gives its first `head` bytes.
   */
  head?: number;
  /**
   * With `head`: the error for a file whose first bytes `head` (fewer where the file was shorter, or
   * shrank) and size when opened `size` show it is not to be read whole (undefined: it is). The rest
   * is read only after it, so a refused file is never read (nor held) whole.
   */
  headRefusal?(head: Uint8Array, size: number): Error | undefined;
}

/**
 * The check of a state, journal or lock file: opened with `READ_FLAGS` (`O_NONBLOCK`; a link to a
 * file is followed), refused by {@link storeFileRefusal} when not a regular file or larger than
 * `maxBytes` (`Infinity`: of any size), with the error `refused` makes.
 */
export function storeFileCheck(maxBytes: number, refused: RefusalError): StoreFileCheck<Refusal> {
  return { flags: READ_FLAGS, refusal: (stats) => storeFileRefusal(stats, maxBytes), refused };
}

/**
 * The bytes of the file `path` (a `Buffer` of its own, not a slice of Buffer's shared pool: a caller
 * may keep them), read as `check` says: opened with `check.flags`, refused on its descriptor by
 * `check.refusal` before any byte is read (the error `check.refused` makes), then read up to the size
 * it had when opened (or its `check.head` first: see {@link StoreFileCheck}). The open, the `fstat`,
 * the close and reads under 64 KiB are made at once (microseconds each: the flags never let an open
 * wait on a FIFO or a device); a larger read goes to the thread pool in one request where the system
 * gives all its bytes. So the read of a large file needs one turn of the event loop, not one per step:
 * a new process whose first walk kept the event loop busy got its 9 MiB index only after that walk,
 * and `readFile` (512 KiB a request) took 5–9 ms more. A file that grew meanwhile gives its bytes up
 * to that size, one that shrank fewer. The filesystem's errors (`ENOENT`, `EACCES`, `ELOOP` under
 * `O_NOFOLLOW`, ...) are thrown as they are.
 */
export async function readStoreFile<R>(path: string, check: StoreFileCheck<R>): Promise<Buffer> {
  const fd = openSync(path, check.flags);
  try {
    const steps = checkedRead(path, check, fstatSync(fd));
    let step = steps.next();
    while (!step.done) {
      const { bytes, at } = step.value;
      const length = bytes.length - at;
      step = steps.next(length < POOLED_READ_BYTES ? readSync(fd, bytes, at, length, at) : await pooledRead(fd, bytes, at, length));
    }
    return step.value;
  } finally {
    closeSync(fd);
  }
}

/** Reads of at least this many bytes go to the thread pool; shorter ones are made at once (microseconds). */
const POOLED_READ_BYTES = 64 * 1024;

/** `readSync(fd, bytes, at, length, at)` on the thread pool: the count of bytes read. */
function pooledRead(fd: number, bytes: Buffer, at: number, length: number): Promise<number> {
  return new Promise((resolve, reject) => read(fd, bytes, at, length, at, (error, count) => (error ? reject(error) : resolve(count))));
}

/** {@link readStoreFile}'s synchronous face: the same checks and the same bytes. */
export function readStoreFileSync<R>(path: string, check: StoreFileCheck<R>): Buffer {
  const fd = openSync(path, check.flags);
  try {
    const steps = checkedRead(path, check, fstatSync(fd));
    let step = steps.next();
    while (!step.done) {
      const { bytes, at } = step.value;
      step = steps.next(readSync(fd, bytes, at, bytes.length - at, at));
    }
    return step.value;
  } finally {
    closeSync(fd);
  }
}

/** One read {@link checkedRead} asks for: into `bytes` from offset `at` (the file's position too) to the end of `bytes`. */
interface ReadRequest {
  bytes: Buffer;
  at: number;
}

/**
 * What {@link readStoreFile} and {@link readStoreFileSync} share, whatever reads the bytes: the checks
 * of `check` on the file at `path` whose `fstat` is `stats` (each refusal thrown), and the reads they
 * leave to make, each yielded and answered with the count of bytes it read (0: the end of the file).
 * Returns the bytes read.
 */
function* checkedRead<R>(path: string, check: StoreFileCheck<R>, stats: StoreFileStats): Generator<ReadRequest, Buffer, number> {
  const reason = check.refusal(stats);
  if (reason !== undefined) throw check.refused(path, reason);
  const size = stats.size;
  if (check.head === undefined) return yield* readUp(Buffer.allocUnsafeSlow(size), 0);
  const head = yield* readUp(Buffer.allocUnsafeSlow(Math.min(size, check.head)), 0);
  if (check.headRefusal === undefined) return head;
  const wrong = check.headRefusal(head, size);
  if (wrong !== undefined) throw wrong;
  // Not zeroed: every byte is read over, or cut off.
  const bytes = Buffer.allocUnsafeSlow(size);
  bytes.set(head);
  return yield* readUp(bytes, head.length);
}

/** Reads into `bytes` from offset `from` until it is full or the file ends; returns the bytes filled. */
function* readUp(bytes: Buffer, from: number): Generator<ReadRequest, Buffer, number> {
  let got = from;
  while (got < bytes.length) {
    const read = yield { bytes, at: got };
    if (read === 0) break;
    got += read;
  }
  return got === bytes.length ? bytes : bytes.subarray(0, got);
}
