// Around the save of a search index (or listings) file in the cache folder: the temporaries that
// writers killed mid-write left behind, and what to tell the user when the file cannot be saved.
import { lstatSync, statSync } from 'node:fs';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join, parse, sep } from 'node:path';
import { describeFileType } from './fs/store-file.js';

/** Age (ms since its last write) past which a temporary of a cache file is removed whoever wrote it. */
export const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/** Whether the process `pid` is gone from this host (`kill(pid, 0)` says ESRCH); never this process. */
function writerGone(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: unknown }).code === 'ESRCH';
  }
}

/**
 * Removes the temporaries of the cache file `file` that no process will finish: files named
 * `<name of file>.<pid>.<ms>.tmp` beside it (as the index and listings writers name theirs) whose
 * writer process is gone or that nothing wrote for an hour ({@link STALE_TEMPORARY_MS}). Only regular
 * files of this user are removed (never through a link), never another file's temporaries, never
 * `keep` (a temporary being written). Errors are ignored: the files are only a cache.
 */
export async function removeStaleTemporaries(file: string, keep?: string): Promise<void> {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const uid = process.getuid?.();
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const writer = /^(\d+)\.\d+\.tmp$/.exec(name.slice(prefix.length));
    const path = join(dir, name);
    if (!writer || path === keep) continue;
    try {
      const stats = await lstat(path);
      if (!stats.isFile() || (uid !== undefined && stats.uid !== uid)) continue;
      if (now - stats.mtimeMs > STALE_TEMPORARY_MS || writerGone(Number(writer[1]))) await unlink(path);
    } catch {
      // removed meanwhile (by its writer, or another process's sweep)
    }
  }
}

/** The options that move the cache, as the advice names them. */
const ELSEWHERE = 'set XDG_CACHE_HOME (or the searchIndex cacheDir option) to a folder of your own';

/** The first path in `dir` (from the top) that is there but not a folder, with what it is; undefined when there is none. */
function notAFolderOn(dir: string): { path: string; kind: string } | undefined {
  const { root } = parse(dir);
  let at = root;
  for (const part of dir.slice(root.length).split(sep).filter((name) => name.length > 0)) {
    at = join(at, part);
    let stats;
    try {
      stats = statSync(at);
    } catch {
      return undefined; // missing (it can be made) or not searchable: not this cause
    }
    if (!stats.isDirectory()) return { path: at, kind: describeFileType(stats) };
  }
  return undefined;
}

/** The nearest folder above `dir` (or `dir` itself) that is there. */
function nearestFolder(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    try {
      if (statSync(at).isDirectory() || dirname(at) === at) return at;
    } catch {
      if (dirname(at) === at) return at;
    }
  }
}

/**
 * What to do when the cache file `file` could not be saved (the save failed with `error`), said
 * from the cause found on disk: a path above it that is not a folder (a file, a FIFO: remove it), a
 * directory at its own name, another user's file at its name in a shared (sticky) folder, where
 * this user may not replace it (set the cache elsewhere), a read-only or full filesystem; else the
 * folder to make writable.
 */
export function saveAdvice(file: string, error: unknown): string {
  const dir = dirname(file);
  const code = (error as { code?: unknown } | null)?.code;
  const blocker = notAFolderOn(dir);
  if (blocker) return `${blocker.path} is ${blocker.kind}, not a folder: remove it, or ${ELSEWHERE}`;
  let there;
  try {
    there = lstatSync(file);
  } catch {
    there = undefined;
  }
  if (there?.isDirectory()) return `${file} is a directory, where the file should be: remove it, or ${ELSEWHERE}`;
  const uid = process.getuid?.();
  if (there && uid !== undefined && there.uid !== uid && (code === 'EPERM' || code === 'EACCES') && isSticky(dir)) {
    return `the file ${file} belongs to another user (uid ${there.uid}) in a shared folder, where it cannot be replaced: ${ELSEWHERE}`;
  }
  if (code === 'EROFS') return `${nearestFolder(dir)} is on a read-only filesystem: ${ELSEWHERE}`;
  if (code === 'ENOSPC' || code === 'EDQUOT') return `the disk holding ${nearestFolder(dir)} is full (or this user's quota is): free some space, or ${ELSEWHERE}`;
  const folder = nearestFolder(dir);
  if (folder !== dir) return `the folder ${dir} could not be made: make ${folder} writable, or ${ELSEWHERE}`;
  return `make its folder ${dir} writable, or ${ELSEWHERE}`;
}

/** Whether `dir` has the sticky bit (a shared folder such as /tmp, where only a file's owner may replace it). */
function isSticky(dir: string): boolean {
  try {
    return (statSync(dir).mode & 0o1000) !== 0;
  } catch {
    return false;
  }
}

/** `error` with the {@link saveAdvice} for `file` as its `advice` (an Error; anything else is wrapped in one). */
export function withSaveAdvice(file: string, error: unknown): Error {
  const failed = error instanceof Error ? error : new Error(String(error));
  try {
    Object.defineProperty(failed, 'advice', { value: saveAdvice(file, error), enumerable: false, configurable: true, writable: true });
  } catch {
    // a frozen error keeps its message alone
  }
  return failed;
}
