// The search index kept up with the tools' own writes as they are made: the bytes a tool writes go
// into the index with the file's identity right after the write (never read back), a file removed
// leaves it, and a file moved away is dropped (a move through a temporary file carries its bytes).
import type { FsPromises } from '../../core/fs-port.js';
import { wrapFsMethods, type FsMethod } from '../../core/fs-proxy.js';
import { isInside } from '../../core/posix-path.js';
import type { Platform } from '../../core/types.js';
import type { SearchFileStat } from '../source-port.js';
import { basename, isTemporaryFileName } from '../../fs/paths.js';
import type { SearchIndex } from './search-index.js';
import { searchSourceOf } from '../engine-source.js';

/** Index work done at commits on one platform, for hosts and the bench: files updated or dropped, and the time it took. */
export interface CommitWork {
  /** Writes, removals and moves applied to the index. */
  changes: number;
  /** Milliseconds spent in the index for them (the identity taken after a write, and the update). */
  ms: number;
}

/** Where a view finds the platform's index now, and what to do once it changed (fold its overlay in when it grew). */
export interface CommitTarget {
  index(): SearchIndex | undefined;
  changed(index: SearchIndex): void;
  /** Runs `work` in the background, after the refreshes started before it. */
  later(work: () => void): void;
}

/**
 * Bytes of a write indexed as it is committed; a bigger file (its trigrams take milliseconds per
 * 100 KiB) is indexed from the same bytes just after the call, so no write waits for that.
 */
export const INLINE_BYTES = 256 * 1024;

const work = new WeakMap<Platform, CommitWork>();
const encoder = new TextEncoder();

/** The index work done at commits on `platform` so far (zeros when none). */
export function commitWorkOf(platform: Platform): CommitWork {
  const done = work.get(platform);
  return done ? { ...done } : { changes: 0, ms: 0 };
}

/** Counts `ms` of index work for one change on `platform`. */
function account(platform: Platform, ms: number): void {
  let done = work.get(platform);
  if (!done) work.set(platform, (done = { changes: 0, ms: 0 }));
  done.changes += 1;
  done.ms += ms;
}

/** The identity of `path` right after a write: the search source's synchronous `stat` where there is one. */
function statAfter(platform: Platform, path: string): SearchFileStat | undefined | Promise<SearchFileStat | undefined> {
  const source = searchSourceOf(platform);
  if (source) {
    try {
      return source.stat(path);
    } catch {
      return undefined;
    }
  }
  return platform.fs.lstat(path).then(
    (stats) => {
      if (!stats.isFile()) return undefined;
      const more = stats as typeof stats & { ctimeMs?: number; ino?: number };
      return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: more.ctimeMs ?? -1, ino: more.ino ?? -1 };
    },
    () => undefined,
  );
}

/**
 * Puts `bytes`, just written to `path` (the write started at `startedAt`, `Date.now()`), into the
 * index with the identity the file has now. A file whose size is not the bytes' (changed by someone
 * else meanwhile) is dropped instead, so it is scanned and read again. Its entry is racy while its
 * times are within the index's racy window of the write, as any file read then is: a change in the
 * same clock tick could keep its identity.
 */
async function commitFile(platform: Platform, target: CommitTarget, path: string, bytes: Uint8Array, startedAt: number): Promise<void> {
  if (!target.index() || !isInside(platform.root, path) || path === platform.root) return;
  const began = performance.now();
  let stat = statAfter(platform, path);
  let waited = 0;
  if (stat instanceof Promise) {
    const paused = performance.now();
    stat = await stat;
    waited = performance.now() - paused;
  }
  const index = target.index();
  if (!index) return;
  const file = stat && stat.size === bytes.length ? { path, stat, readAt: startedAt, bytes, steady: true } : undefined;
  if (file && bytes.length > INLINE_BYTES) {
    // Dropped now (its old entry could not vouch for the new bytes anyway) and put in after the call.
    index.remove(path);
    target.later(() => {
      const now = target.index();
      // Unless the file was indexed again since (a later write, or a search's re-read): that is newer.
      if (!now || now.file(path)) return;
      const at = performance.now();
      now.update(file);
      account(platform, performance.now() - at);
      target.changed(now);
    });
  } else if (file) index.update(file);
  else index.remove(path);
  account(platform, performance.now() - began - waited);
  target.changed(index);
}

/** Drops `path` and everything beneath it from the index (removed, moved away, or changed in a way the view does not follow). */
function forget(platform: Platform, target: CommitTarget, path: string): void {
  const index = target.index();
  if (!index || !isInside(platform.root, path)) return;
  const began = performance.now();
  index.removeUnder(path);
  account(platform, performance.now() - began);
}

const encoded = (data: unknown): Uint8Array | undefined => (typeof data === 'string' ? encoder.encode(data) : data instanceof Uint8Array ? data : undefined);

/** Methods that change their first path in a way the view does not follow byte for byte: the file is dropped from the index. */
const DROP_FIRST = new Set(['appendFile', 'truncate', 'rm', 'unlink', 'rmdir']);
/** Methods that change their second path so. */
const DROP_SECOND = new Set(['copyFile', 'symlink', 'link']);

/**
 * `fs` as a mutating call writes through it on `platform`, keeping `target`'s index up with it: a
 * whole write (`writeFile`, `writeFileAtomic`) puts its bytes in once it resolves; a write to a
 * temporary file ({@link isTemporaryFileName}) holds them until the file is renamed into place; a
 * removal, append, truncate, copy or link drops the paths it changed; a rename of anything else drops
 * both its ends. A change that fails drops its paths. Reads go straight through.
 */
export function indexingFs(fs: FsPromises, platform: Platform, target: CommitTarget): FsPromises {
  const held = new Map<string, { bytes: Uint8Array; startedAt: number }>();
  return wrapFsMethods(fs, (property, method, fsTarget): FsMethod | undefined => {
    if (property === 'writeFile' || property === 'writeFileAtomic') {
      return async (...args: unknown[]): Promise<unknown> => {
        const [path, data] = args;
        if (typeof path !== 'string' || !target.index()) return method.apply(fsTarget, args);
        const startedAt = Date.now();
        try {
          const result = await method.apply(fsTarget, args);
          const bytes = encoded(data);
          if (bytes === undefined) forget(platform, target, path);
          else if (isTemporaryFileName(basename(path))) held.set(path, { bytes, startedAt });
          else await commitFile(platform, target, path, bytes, startedAt);
          return result;
        } catch (error) {
          forget(platform, target, path);
          throw error;
        }
      };
    }
    if (property === 'rename') {
      return async (...args: unknown[]): Promise<unknown> => {
        const [from, to] = args;
        if (typeof from !== 'string' || typeof to !== 'string') return method.apply(fsTarget, args);
        const carried = held.get(from);
        held.delete(from);
        try {
          const result = await method.apply(fsTarget, args);
          // A temporary file was never indexed: only its bytes move.
          if (carried) await commitFile(platform, target, to, carried.bytes, carried.startedAt);
          else {
            forget(platform, target, from);
            forget(platform, target, to);
          }
          return result;
        } catch (error) {
          forget(platform, target, from);
          forget(platform, target, to);
          throw error;
        }
      };
    }
    const at = DROP_FIRST.has(property) ? 0 : DROP_SECOND.has(property) ? 1 : -1;
    if (at < 0) return undefined;
    return async (...args: unknown[]): Promise<unknown> => {
      const path = args[at];
      if (typeof path !== 'string') return method.apply(fsTarget, args);
      held.delete(path);
      try {
        return await method.apply(fsTarget, args);
      } finally {
        forget(platform, target, path);
      }
    };
  });
}
