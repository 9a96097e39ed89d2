// The search index of a Node workspace kept on disk between processes: one file per workspace root
// under the user's cache directory, written whole and renamed into place, and read back only when
// its header, checksum, version and root say it is intact (anything else is rebuilt).
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Platform } from '../src/core/types.js';
import { IndexRejected, openIndex, provideCrc32, serializeIndex } from '../src/search/index/format.js';
import { SearchIndex, type IndexParts } from '../src/search/index/search-index.js';
import type { ConfinedNodeFsOptions } from './fs/confined.js';
import { buildWorkspaceIndex, searchIndexIdle, searchIndexOf, setSearchIndex, whileSearchIndexOpens } from '../src/search/index/workspace.js';

// The saved index's checksum with zlib's native CRC-32 (Node 22.2 and later) rather than a JavaScript loop.
if (typeof zlibCrc32 === 'function') provideCrc32((bytes) => zlibCrc32(bytes));

/**
 * Where search indexes are kept: `$XDG_CACHE_HOME/toolhost/search-index`, else
 * `~/.cache/toolhost/search-index`, else (no home) under the system's temporary directory.
 */
export function searchIndexCacheDir(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg && xdg.startsWith('/')) return join(xdg, 'toolhost', 'search-index');
  let home = '';
  try {
    home = homedir();
  } catch {
    home = '';
  }
  return home ? join(home, '.cache', 'toolhost', 'search-index') : join(tmpdir(), 'toolhost-search-index');
}

/** The index file of the workspace at `root` in `dir`: named by a hash of the root, so each workspace has its own. */
export function searchIndexFile(root: string, dir = searchIndexCacheDir()): string {
  return join(dir, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.thsi`);
}

/** What {@link openOrBuildSearchIndex} did: read the index from disk, or built it (and why the stored one was not used). */
export interface StoredIndex {
  index: SearchIndex;
  from: 'disk' | 'built';
  /** Why the stored file was rejected (absent when there was none, or it was used). */
  rejected?: string;
}

/**
 * The search index of `platform`'s workspace from its file under `cacheDir` when that is intact, else
 * built afresh through the platform (and saved). A file that is corrupt, truncated, of another version
 * or for another root is never trusted: it is rebuilt and overwritten. The files it lists are still
 * checked by their identity on every search, so a file changed while no process ran is scanned.
 */
export async function openOrBuildSearchIndex(platform: Platform, options: { cacheDir?: string; signal?: AbortSignal } = {}): Promise<StoredIndex> {
  const stored = await readStoredIndex(platform, options.cacheDir);
  if (stored.index) return { index: stored.index, from: 'disk' };
  const index = await buildWorkspaceIndex(platform, options.signal ? { signal: options.signal } : {});
  await saveSearchIndex(platform, index, options.cacheDir);
  return { index, from: 'built', ...(stored.rejected === undefined ? {} : { rejected: stored.rejected }) };
}

/** The index kept for `platform`'s root under `cacheDir` when its file is there and intact; else why not (`rejected`; absent when there was no file). */
async function readStoredIndex(platform: Platform, cacheDir: string | undefined): Promise<{ index?: SearchIndex; rejected?: string }> {
  try {
    const bytes = await readFile(searchIndexFile(platform.root, cacheDir));
    return { index: openIndex(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), platform.root) };
  } catch (error) {
    if (error instanceof IndexRejected) return { rejected: error.message };
    if ((error as { code?: string }).code !== 'ENOENT') return { rejected: `unreadable (${(error as Error).message})` };
    return {};
  }
}

/** Writes `index` (compacted) for `platform`'s workspace under `cacheDir`: to a temporary file, then renamed over the old one. */
export async function saveSearchIndex(platform: Platform, index: SearchIndex, cacheDir?: string): Promise<void> {
  await writeSearchIndexFile(platform.root, serializeIndex(index, platform.root), cacheDir);
}

/** Writes an index serialized for the workspace at `root` under `cacheDir`: to a temporary file, then renamed over the old one. */
export async function writeSearchIndexFile(root: string, bytes: Uint8Array, cacheDir?: string): Promise<void> {
  const file = searchIndexFile(root, cacheDir);
  await mkdir(join(file, '..'), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** What the build thread (node/search-index-worker.ts) is given. */
export interface IndexWorkerData {
  root: string;
  cacheDir?: string;
  confinement?: ConfinedNodeFsOptions['mode'];
}

/** What the build thread posts: the parts once built, then `saved` (or an error at either step). */
export type IndexWorkerMessage = { type: 'parts'; parts: IndexParts } | { type: 'saved' } | { type: 'error'; message: string; built: boolean };

/** The build thread ended (failed to start, crashed or exited) before it reported. */
class ThreadLost extends Error {}

/**
 * Builds the index of `platform`'s workspace on a worker thread (node/search-index-worker.js): the
 * walk, the reads and the trigrams all happen there, `onIndex` gets the index as soon as it is built
 * (its tables moved over, not copied), and the thread then saves it under `cacheDir`. Resolves with
 * `'saved'`; rejects with the build's or the save's error, or a {@link ThreadLost}. Undefined where
 * the built thread module is missing (running from TypeScript sources) or a thread cannot start.
 */
export function buildSearchIndexOffThread(
  platform: Platform,
  options: { cacheDir?: string; confinement?: ConfinedNodeFsOptions['mode'] },
  onIndex: (index: SearchIndex) => void,
): Promise<'saved'> | undefined {
  const url = new URL('./search-index-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url))) return undefined;
  const data: IndexWorkerData = { root: platform.root, ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }), ...(options.confinement === undefined ? {} : { confinement: options.confinement }) };
  let worker: Worker;
  try {
    worker = new Worker(url, { workerData: data });
  } catch {
    return undefined;
  }
  return new Promise<'saved'>((resolve, reject) => {
    let settled = false;
    const settle = (done: () => void): void => {
      if (settled) return;
      settled = true;
      worker.unref();
      done();
    };
    worker.on('message', (message: IndexWorkerMessage) => {
      if (message.type === 'parts') onIndex(new SearchIndex(message.parts));
      else if (message.type === 'saved') settle(() => resolve('saved'));
      else settle(() => reject(new Error(message.message)));
    });
    worker.on('error', (error) => settle(() => reject(new ThreadLost(`the index build thread failed: ${error.message}`))));
    worker.on('exit', (code) => settle(() => reject(new ThreadLost(`the index build thread exited (code ${code}) before it reported`))));
  });
}

/** The index kept for a Node platform created with `searchIndex` (see {@link attachSearchIndex}). */
export interface AttachedSearchIndex {
  /** Settles once the index is opened or built and in use, or its build failed or was stopped (never rejects). */
  readonly ready: Promise<{ from: 'disk' } | { from: 'built'; offThread: boolean } | { error: string }>;
  /** Waits for a build under way and the refreshes started, and saves the index (compacted) when there is one. */
  close(): Promise<void>;
}

/**
 * Gives `platform`'s searches a search index: opened from its file under `cacheDir` when intact (the
 * searches that start meanwhile wait for it), else built and saved on a worker thread (see
 * {@link buildSearchIndexOffThread}; from the TypeScript sources, or when no thread can start, through
 * the platform on this thread, the event loop turning between reads). Searches until then scan every
 * listed file, as without an index. `close()` waits for a build under way and, when searches refreshed the index since it
 * was read or saved, saves it again, so the next process opens it without a rebuild. A build that fails leaves
 * the platform scanning, as without the option.
 */
export function attachSearchIndex(platform: Platform, options: { cacheDir?: string; confinement?: ConfinedNodeFsOptions['mode'] } = {}): AttachedSearchIndex {
  // Reading a saved index takes tens of milliseconds: searches wait for it (a scan without it takes
  // longer) but not for a build, which runs in the background while they scan.
  // What was last saved (or read): close() writes the index only when it changed since.
  let saved: { index: SearchIndex; version: number } | undefined;
  const opened = readStoredIndex(platform, options.cacheDir).then((stored) => {
    if (stored.index) {
      setSearchIndex(platform, stored.index);
      saved = { index: stored.index, version: stored.index.version };
    }
    return stored;
  });
  whileSearchIndexOpens(platform, opened);
  const ready = (async (): Promise<{ from: 'disk' } | { from: 'built'; offThread: boolean }> => {
    const stored = await opened;
    if (stored.index) return { from: 'disk' };
    const offThread = buildSearchIndexOffThread(platform, options, (index) => {
      setSearchIndex(platform, index);
      // What the thread saves is the index as built, before any change since.
      saved = { index, version: 0 };
    });
    if (offThread) {
      const outcome = await offThread.catch((error: unknown) => {
        // Not saved: close() saves what the searches have.
        saved = undefined;
        if (error instanceof ThreadLost && !searchIndexOf(platform)) return 'lost';
        throw error;
      });
      if (outcome === 'saved') return { from: 'built', offThread: true };
    }
    // No build thread (running from the TypeScript sources), or it was lost before it had an index.
    const index = await buildWorkspaceIndex(platform);
    setSearchIndex(platform, index);
    await saveSearchIndex(platform, index, options.cacheDir);
    saved = { index, version: index.version };
    return { from: 'built', offThread: false };
  })().catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
  return {
    ready,
    async close() {
      // A build under way is finished and saved, so a process that ran one search (`toolhost call`)
      // leaves the index for the next.
      await ready;
      if (!searchIndexOf(platform)) return;
      await searchIndexIdle(platform);
      const index = searchIndexOf(platform);
      if (!index || (saved?.index === index && saved.version === index.version)) return;
      await saveSearchIndex(platform, index, options.cacheDir).catch(() => undefined);
    },
  };
}
