import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { makeDirectories } from './fs/make-dirs.js';
import { readStoreFileSync, storeFileCheck, type Refusal } from './fs/store-file.js';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '../src/core/errors.js';

/** Options of {@link createFileLocks}. */
export interface FileLocksOptions {
  /**
   * Directory holding the lock files (created with mode 0700 when missing). Processes that share a
   * workspace must use the same one. Default: `toolhost-locks-<uid>` under `/dev/shm` on Linux where it
   * is a directory (memory-backed: a lock costs no disk journal), else under `os.tmpdir()`. Processes
   * in different containers sharing a workspace volume need a `dir` on that volume.
   */
  dir?: string;
  /** A lock older than this (ms) is taken over even if its holder still runs (default 60,000). */
  staleMs?: number;
}

/** Takes `key`'s lock, waiting while another holder has it; resolves with its release. */
export type FileLock = (key: string, signal?: AbortSignal) => Promise<() => Promise<void>>;

/** Longest pause between two attempts on a busy lock, in ms. */
const MAX_BACKOFF_MS = 20;

/**
 * Cross-process locks keyed by a string (an absolute file path): each is a lock file in `dir` named by
 * the key's SHA-256, created exclusively (`O_CREAT | O_EXCL`) and holding `pid:token:time`. A busy lock
 * is retried with a short backoff (1 ms doubling to 20 ms) until it is free or `signal` fires (the
 * wait then rejects with the signal's ToolError, `cancelled` otherwise). A lock whose holder process is
 * gone (same host: `kill(pid, 0)` says ESRCH) or that is older than `staleMs` is taken over; the
 * takeover itself holds a second exclusive file so two waiters never both remove a fresh lock. A
 * release removes the lock file (after checking it still carries its own token when it was held
 * for more than half of `staleMs`, the only case where another process may have taken it over).
 *
 * The file operations are synchronous: each is one small system call on a local directory, much
 * cheaper than a hop through libuv's thread pool. Within one process callers are expected to hold
 * their own mutex per key first (the runner does), so the file only arbitrates between processes.
 *
 * Errors: a lock directory that cannot be created or written is a ToolError `unavailable` naming it.
 */
export function createFileLocks(options: FileLocksOptions = {}): FileLock {
  const dir = options.dir ?? join(defaultBase(), `toolhost-locks-${uidOf()}`);
  const staleMs = options.staleMs ?? 60_000;
  // Made on the first lock taken: node:crypto takes tens of milliseconds to load, and a process that
  // only reads (a search) never takes a lock.
  let prefix: string | undefined;
  let counter = 0;
  const ensureDir = (): void => {
    try {
      makeDirectories(dir, 0o700);
    } catch (error) {
      throw unusable(dir, error);
    }
  };

  /** One attempt: true when the lock file was created with `content` (the directory is made when missing). */
  const tryCreate = (file: string, content: string, retried = false): boolean => {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'EEXIST') return false;
      if (code === 'ENOENT' && !retried) {
        ensureDir();
        return tryCreate(file, content, true);
      }
      throw unusable(dir, error);
    }
    try {
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
    return true;
  };

  /** Removes `file` when its holder is gone or it is older than `staleMs`; true when it did (or the file vanished). */
  const breakIfStale = (file: string): boolean => {
    const seen = readOrNull(file);
    if (seen === null) return true;
    if (!isStale(file, seen, staleMs)) return false;
    const breaker = `${file}.break`;
    if (!tryCreate(breaker, String(process.pid))) {
      // Another waiter is taking it over; a takeover marker left by a crash is removed once old.
      const marker = readOrNull(breaker);
      if (marker !== null && isStale(breaker, marker, staleMs)) removeQuietly(breaker);
      return false;
    }
    try {
      if (readOrNull(file) === seen) removeQuietly(file);
    } finally {
      removeQuietly(breaker);
    }
    return true;
  };

  return async (key, signal) => {
    const file = join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.lock`);
    prefix ??= `${process.pid}:${randomBytes(6).toString('hex')}-`;
    const token = `${prefix}${(counter += 1)}`;
    let backoff = 1;
    for (;;) {
      if (signal?.aborted) throw stopped(signal);
      const taken = Date.now();
      const content = `${token}:${taken}`;
      if (tryCreate(file, content)) {
        return async () => {
          // Held for less than half the stale age, nobody can have taken it over (the holder is alive):
          // one unlink. Held longer, the file is removed only while it still carries this token.
          if (Date.now() - taken < staleMs / 2) removeQuietly(file);
          else if (readOrNull(file)?.startsWith(`${token}:`) === true) removeQuietly(file);
        };
      }
      if (breakIfStale(file)) continue;
      await pause(backoff, signal);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  };
}

function defaultBase(): string {
  if (process.platform === 'linux') {
    try {
      if (statSync('/dev/shm').isDirectory()) return '/dev/shm';
    } catch {
      // no /dev/shm here
    }
  }
  return tmpdir();
}

function uidOf(): string {
  try {
    return String(userInfo().uid);
  } catch {
    return 'user';
  }
}

/** Bytes of a lock file read at most: its content (`pid:token:time`) is far shorter. */
const LOCK_HEAD_BYTES = 256;

/**
 * The content of the lock file `file`, or null when it cannot be read (gone meanwhile). Opened without
 * waiting and read only as far as a lock's content goes; a FIFO, a directory or a device at its name
 * (which no lock can ever replace) is a ToolError `unavailable` saying to remove it, not a wait forever.
 */
function readOrNull(file: string): string | null {
  try {
    return readStoreFileSync(file, { ...storeFileCheck(Number.POSITIVE_INFINITY, notALockFile), head: LOCK_HEAD_BYTES }).toString('utf8');
  } catch (error) {
    if (error instanceof ToolError) throw error;
    return null;
  }
}

function notALockFile(file: string, refusal: Refusal): ToolError {
  return new ToolError(
    'unavailable',
    `the lock file ${file} cannot be used: ${refusal.reason}, and no lock can be taken while it is there; remove it, or keep the state (or the locks) in another directory`,
  );
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** Whether the lock `file` holding `content` (`pid:...`) is stale: its process is gone, or it is older than `staleMs`. */
function isStale(file: string, content: string, staleMs: number): boolean {
  const pid = Number.parseInt(content, 10);
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ESRCH') return true;
    }
  }
  try {
    return Date.now() - statSync(file).mtimeMs > staleMs;
  } catch {
    return true;
  }
}

function stopped(signal: AbortSignal): ToolError {
  const reason = signal.reason as { code?: unknown; message?: unknown } | undefined;
  if (reason && (reason.code === 'timeout' || reason.code === 'cancelled') && typeof reason.message === 'string') {
    return new ToolError(reason.code, reason.message);
  }
  return new ToolError('cancelled', 'stopped while waiting for a file lock another process holds');
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(stopped(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function unusable(dir: string, error: unknown): ToolError {
  const code = (error as { code?: unknown }).code;
  return new ToolError(
    'unavailable',
    `the lock directory ${dir} cannot be used (${typeof code === 'string' ? code : String(error)}); make it writable or give createNodePlatform another one (fileLocks: { dir })`,
  );
}
