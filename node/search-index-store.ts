// The search index of a Node workspace kept on disk between processes: one file per workspace root
// under the user's cache directory, written whole and renamed into place, and read back only when
// its header, checksum, version and root say it is intact (anything else is rebuilt).
import { createHash } from 'node:crypto';
import { closeSync, constants, existsSync, ftruncate, openSync, unlink, write } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { makeDirectories } from './fs/make-dirs.js';
import { cacheFileRefusal, readStoreFile, readStoreFileSync, type StoreFileCheck } from './fs/store-file.js';
import { removeStaleTemporaries, withSaveAdvice } from './search-index-save.js';
import { homedir, tmpdir } from 'node:os';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Platform } from '../src/core/types.js';
import { defaultBudget, IndexOverBudget, type BudgetPassed, type SearchIndexBudget } from '../src/search/index/budget.js';
import { attachStoredSearchIndex, readSavedIndex, type AttachedSearchIndex, type SearchIndexStorage } from '../src/search/index/attach.js';
import { crc32, headerRefusal, INDEX_HEADER_BYTES, IndexRejected, provideCrc32, serializeIndex, whenPostingsCorrupt } from '../src/search/index/format.js';
import { provideUtf8Check, SearchIndex, type IndexParts } from '../src/search/index/search-index.js';
import { Buffer, isUtf8 } from 'node:buffer';
import { buildWorkspaceIndex, searchIndexOf } from '../src/search/index/workspace.js';
import type { ConfinedNodeFsOptions } from './fs/confined.js';
import { setTreeWatch } from '../src/search/index/reuse.js';
import { TreeWatch } from './search-index-watch.js';
import type { NodeSearchSource } from './search-fs.js';

export type { AttachedSearchIndex };

// The saved index's checksum with zlib's native CRC-32 (Node 22.2 and later) rather than a JavaScript loop.
if (typeof zlibCrc32 === 'function') provideCrc32((bytes) => zlibCrc32(bytes));
// A build's UTF-8 check with Node's native one rather than a fatal decode of every file.
provideUtf8Check((bytes) => isUtf8(bytes));

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

const FNV_128_OFFSET = 0x6c62272e07bb014262b821756295c58dn;
const FNV_128_PRIME = 0x0000000001000000000000000000013bn;
const MASK_128 = (1n << 128n) - 1n;

/**
 * The root's name in the cache folder: FNV-1a (128 bits) of its UTF-8 bytes, as 32 hex digits. Not
 * SHA-256 through node:crypto, which takes a new process some 4 ms to load before its first search;
 * two roots with one name would only rebuild each other's index (a file's root is checked on reading).
 */
function rootKey(root: string): string {
  let hash = FNV_128_OFFSET;
  for (const byte of new TextEncoder().encode(root)) hash = ((hash ^ BigInt(byte)) * FNV_128_PRIME) & MASK_128;
  return hash.toString(16).padStart(32, '0');
}

/** The index file of the workspace at `root` in `dir`: named by a hash of the root, so each workspace has its own. */
export function searchIndexFile(root: string, dir = searchIndexCacheDir()): string {
  return join(dir, `${rootKey(root)}.thsi`);
}

/**
 * Removes the index file an earlier version kept for `root` in `dir` (named by SHA-256 of the root),
 * when there is one: called as a new index is built and saved (on the build thread, or by
 * `saveSearchIndex`), so an upgrade leaves no stale copy behind. Not on the saves of an index in use
 * (a process answering from the index on disk does not load node:crypto for it).
 */
function removeEarlierIndexFile(root: string, dir = searchIndexCacheDir()): void {
  unlink(join(dir, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.thsi`), () => undefined);
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
function readStoredIndex(platform: Platform, cacheDir: string | undefined): Promise<{ index?: SearchIndex; rejected?: string }> {
  return readSavedIndex(platform, fileIndexStorage(platform.root, cacheDir));
}

/** Writes `index` (compacted) for `platform`'s workspace under `cacheDir`: to a temporary file, then renamed over the old one. */
export async function saveSearchIndex(platform: Platform, index: SearchIndex, cacheDir?: string): Promise<void> {
  removeEarlierIndexFile(platform.root, cacheDir);
  await fileIndexStorage(platform.root, cacheDir).write(serializeIndex(index, platform.root));
}

/** The saved index of the workspace at `root`: its file under `cacheDir`, written to a temporary file and renamed over the old one. */
export function fileIndexStorage(root: string, cacheDir?: string): SearchIndexStorage {
  const file = searchIndexFile(root, cacheDir);
  return {
    async read() {
      try {
        const bytes = await readStoreFile(file, cacheFileCheck(MAX_INDEX_FILE_BYTES, headerRefusal));
        // Its postings are checked as searches read them: a corrupt block found then removes the
        // file (unless a newer one replaced it), so the next process rebuilds it rather than trust it.
        whenPostingsCorrupt(bytes, () => void removeIfUnchanged(file, bytes).catch(() => undefined));
        return bytes;
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    write: (bytes) => replaceFile(file, bytes),
    remove: (bytes) => removeIfUnchanged(file, bytes),
  };
}

/** How a cache file is opened: never through a symbolic link, never waiting on a FIFO or a device. */
const CACHE_READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
/** Who may read and write a cache file this process writes: its user alone (it names every file of the workspace). */
const CACHE_FILE_MODE = 0o600;
/** The largest index file (its header counts its bytes in 32 bits). */
const MAX_INDEX_FILE_BYTES = 2 ** 32;

/**
 * The check of a cache file ({@link readStoreFile}): opened with {@link CACHE_READ_FLAGS} (never through
 * a link), refused when this process may not trust it ({@link cacheFileRefusal}, larger than `maxBytes`
 * among the reasons) with an error `<file>: <why>`; with `headRefusal`, the index's header is read
 * first and a file it refuses is an {@link IndexRejected} saying why, never read (nor held) whole.
 * A file that grew or shrank meanwhile gives fewer or other bytes, which the index's header and
 * checksum (or the listings' seal) then refuse.
 */
function cacheFileCheck(maxBytes: number, headRefusal?: (head: Uint8Array, size: number) => string | undefined): StoreFileCheck<string> {
  const check: StoreFileCheck<string> = {
    flags: CACHE_READ_FLAGS,
    refusal: (stats) => cacheFileRefusal(stats, maxBytes),
    refused: (file, why) => new Error(`${file}: ${why}`),
  };
  if (headRefusal === undefined) return check;
  return {
    ...check,
    head: INDEX_HEADER_BYTES,
    headRefusal: (head, size) => {
      const wrong = headRefusal(head, size);
      return wrong === undefined ? undefined : new IndexRejected(wrong);
    },
  };
}

/** Bytes of a listings file's seal: a line break, then the CRC-32 of the text before it in 8 hex digits. */
const LISTINGS_SEAL_BYTES = 9;

/**
 * The listings text as written to its file: the text, then its seal (see {@link LISTINGS_SEAL_BYTES}),
 * so a file changed since it was written (a flipped byte, a name edited in place) is refused whole
 * rather than trusted: a wrong name in a trusted listing would hide a file from every search.
 */
function sealListings(text: string): Uint8Array {
  const body = Buffer.from(text, 'utf8');
  return Buffer.concat([body, Buffer.from(`\n${crc32Hex(body)}`, 'latin1')]);
}

/** The text of a listings file's `bytes` when its seal matches it (see {@link sealListings}); else undefined. */
function unsealListings(bytes: Buffer): string | undefined {
  const at = bytes.length - LISTINGS_SEAL_BYTES;
  if (at < 0 || bytes[at] !== 0x0a) return undefined;
  const body = bytes.subarray(0, at);
  return bytes.toString('latin1', at + 1) === crc32Hex(body) ? body.toString('utf8') : undefined;
}

/** The CRC-32 of `bytes` in 8 lower-case hex digits. */
function crc32Hex(bytes: Uint8Array): string {
  return crc32(bytes).toString(16).padStart(8, '0');
}

/**
 * Writes `bytes` (whole, or pieces one after the other) to a temporary file beside `file`, then
 * renames it over `file` and removes the temporaries of `file` that killed writers left
 * (`removeStaleTemporaries`). Its error carries `advice` (see `saveAdvice`).
 */
async function replaceFile(file: string, bytes: Uint8Array | readonly Uint8Array[]): Promise<void> {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    // Not mkdir's own recursive form, which never returns under /proc (XDG_CACHE_HOME=/proc/sys).
    makeDirectories(join(file, '..'));
    // A new file (`wx`): never through a link or over a file someone else made at that name.
    await writeFile(temporary, bytes, { mode: CACHE_FILE_MODE, flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    // Its own failure (a path through a file: ENOTDIR) never hides the save's.
    await rm(temporary, { force: true }).catch(() => undefined);
    throw withSaveAdvice(file, error);
  }
  await removeStaleTemporaries(file);
}

/** Removes `file` when it still holds `bytes` (a process may have saved a new index since). */
async function removeIfUnchanged(file: string, bytes: Uint8Array): Promise<void> {
  const now = await readStoreFile(file, cacheFileCheck(bytes.length)).catch(() => undefined);
  if (now && now.length === bytes.length && Buffer.compare(now, bytes) === 0) await rm(file, { force: true });
}

/**
 * The index file of the workspace at `root` under `cacheDir` being written: a temporary file, opened
 * at once, into which the posting lists can be written while they are made ({@link IndexFileWriter.at}:
 * each write goes to the system at once, so it runs while the caller goes on, synchronous code too);
 * {@link IndexFileWriter.finish} writes the rest and renames it over the old one, or
 * {@link IndexFileWriter.abandon} removes it. A file that cannot be made fails `finish`, never the caller.
 * The file it replaces is removed at once, while the new one is written (a build writes the index
 * because the one there could not be used): the rename then frees nothing, where freeing a large old
 * file's pages took as long as writing the new one.
 */
export class IndexFileWriter {
  readonly #file: string;
  readonly #temporary: string;
  #fd: number | undefined;
  /** Whether the temporary file was made. */
  #made = false;
  #failed: { error: unknown } | undefined;
  #writing = 0;
  #idle: (() => void) | undefined;
  /** Settles once the file replaced is removed (or was not there). */
  readonly #cleared: Promise<void>;

  constructor(root: string, cacheDir?: string) {
    this.#file = searchIndexFile(root, cacheDir);
    removeEarlierIndexFile(root, cacheDir);
    this.#temporary = `${this.#file}.${process.pid}.${Date.now()}.tmp`;
    const file = this.#file;
    this.#cleared = new Promise((resolve) => unlink(file, () => resolve()));
    try {
      // Not mkdir's own recursive form, which never returns under /proc (XDG_CACHE_HOME=/proc/sys).
      makeDirectories(join(this.#file, '..'));
      this.#fd = openSync(this.#temporary, 'wx', CACHE_FILE_MODE);
      this.#made = true;
      // Those of killed builds go now, not only once this one is saved: each is as large as the index.
      void removeStaleTemporaries(this.#file, this.#temporary).catch(() => undefined);
    } catch (error) {
      this.#failed = { error };
    }
  }

  /** Writes `bytes` (left as they are until {@link finish} or {@link abandon} returns) at `position`; nothing waits for it here. */
  at(bytes: Uint8Array, position: number): void {
    const fd = this.#fd;
    if (fd === undefined || this.#failed) return;
    this.#writing += 1;
    const from = (done: number): void =>
      write(fd, bytes, done, bytes.length - done, position + done, (error, written) => {
        if (!error && written > 0 && done + written < bytes.length) return from(done + written);
        if (error || written <= 0) this.#failed ??= { error: error ?? new Error('the search index file could not be written (no byte written)') };
        this.#writing -= 1;
        if (this.#writing === 0) this.#idle?.();
      });
    from(0);
  }

  /**
   * Writes the serialized index, `tables` then `postings` (see `serializeIndexChunks`), less the
   * first `written` bytes of `postings`, which {@link at} wrote already at their place; then renames
   * the file over the old one. On a failure the temporary file is removed.
   */
  async finish(tables: Uint8Array, postings: Uint8Array, written: number): Promise<void> {
    // The writes asked for so far end first: lists written at a place that turned out wrong are
    // written again below, over the same bytes, and two writes in flight at once land in either order.
    await this.#settled();
    this.at(tables, 0);
    if (written < postings.length) this.at(postings.subarray(written), tables.length + written);
    await this.#settled();
    try {
      if (this.#failed) throw this.#failed.error;
      const fd = this.#fd as number;
      await new Promise<void>((resolve, reject) => ftruncate(fd, tables.length + postings.length, (error) => (error ? reject(error) : resolve())));
      this.#fd = undefined;
      closeSync(fd);
      // Removed before the rename, never after it (which would remove the new file).
      await this.#cleared;
      await rename(this.#temporary, this.#file);
    } catch (error) {
      await this.abandon();
      throw withSaveAdvice(this.#file, error);
    }
    await removeStaleTemporaries(this.#file);
  }

  /** Removes the temporary file (the build failed, or its file could not be written). */
  async abandon(): Promise<void> {
    await this.#settled();
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd !== undefined) closeSync(fd);
    // Never made (its folder could not be): nothing to remove, and a removal's error (ENOTDIR through
    // a file on the path) would only hide the real one. One left by a failed removal is removed by a
    // later save (`removeStaleTemporaries`).
    if (this.#made) await rm(this.#temporary, { force: true }).catch(() => undefined);
  }

  /** Resolves once no write is under way. */
  #settled(): Promise<void> {
    if (this.#writing === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#idle = resolve));
  }
}

/** What the build thread (node/search-index-worker.ts) is given. */
export interface IndexWorkerData {
  root: string;
  cacheDir?: string;
  /** The bounds the build keeps to (it stops and posts `over` at the first one passed). */
  budget?: SearchIndexBudget;
  confinement?: ConfinedNodeFsOptions['mode'];
  /** Files from which the build is split between two threads (default: `SPLIT_FILES` where there are two cores or more; 0 or less: never; see node/search-index-worker.ts). */
  splitFiles?: number;
  /** Tests only: the second thread of a split build fails (`throw`: it reports an error; `exit`: it exits before it reports). */
  secondPartFailsForTests?: 'throw' | 'exit';
}

/** What the build thread posts: the parts once built, then `saved` (or an error at either step). */
export type IndexWorkerMessage = { type: 'parts'; parts: IndexParts } | { type: 'saved' } | { type: 'error'; message: string; built: boolean; advice?: string } | { type: 'over'; passed: BudgetPassed };

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
  options: { cacheDir?: string; confinement?: ConfinedNodeFsOptions['mode']; budget?: SearchIndexBudget },
  onIndex: (index: SearchIndex) => void,
): Promise<'saved'> | undefined {
  const url = new URL('./search-index-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url))) return undefined;
  const data: IndexWorkerData = {
    root: platform.root,
    ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    ...(options.confinement === undefined ? {} : { confinement: options.confinement }),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
  };
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
      else if (message.type === 'over') settle(() => reject(new IndexOverBudget(message.passed)));
      else settle(() => reject(Object.assign(new Error(message.message), message.advice === undefined ? {} : { advice: message.advice })));
    });
    worker.on('error', (error) => settle(() => reject(new ThreadLost(`the index build thread failed: ${error.message}`))));
    worker.on('exit', (code) => settle(() => reject(new ThreadLost(`the index build thread exited (code ${code}) before it reported`))));
  });
}

/**
 * Gives `platform`'s searches a search index kept in its file under `cacheDir` (see
 * `attachStoredSearchIndex`): opened from the file when intact (searches that start meanwhile wait
 * for it), else built and saved on a worker thread (see {@link buildSearchIndexOffThread}; from the
 * TypeScript sources, or when no thread can start or it is lost before it has an index, through the
 * platform on this thread, the event loop turning between reads); `ready` says which (`offThread`).
 * Searches until then scan every listed file, as without an index. `close()` saves it again when
 * searches changed it. `budget` (default `defaultBudget()`) bounds the index and its build, on
 * either thread: past it no index is set and `capabilities.searchIndex` says why.
 */
export function attachSearchIndex(platform: Platform, options: { cacheDir?: string; confinement?: ConfinedNodeFsOptions['mode']; budget?: SearchIndexBudget; watch?: boolean } = {}): AttachedSearchIndex {
  const budget = options.budget ?? defaultBudget();
  const watch = options.watch === false ? undefined : watchSearchTree(platform);
  const attached = attachStoredSearchIndex(platform, fileIndexStorage(platform.root, options.cacheDir), {
    budget,
    buildElsewhere: (onIndex) =>
      buildSearchIndexOffThread(platform, { ...options, budget }, onIndex)?.catch((error: unknown) => {
        if (error instanceof ThreadLost && !searchIndexOf(platform)) return 'lost' as const;
        throw error;
      }),
  });
  if (!watch) return attached;
  return {
    ready: attached.ready,
    async close() {
      try {
        await attached.close();
      } finally {
        setTreeWatch(platform, undefined);
        watch.close();
      }
    },
  };
}

/**
 * Watches `platform`'s root folder tree (see `TreeWatch`) so that a repeated search over an
 * unchanged tree reuses its walk and its file checks (see `setTreeWatch`); returns the watch (close it
 * when done). Where the watch cannot vouch (not Linux, not a local filesystem, a broken watch),
 * searches walk and check every file, as without it.
 */
export function watchSearchTree(platform: Platform): TreeWatch {
  const watch = new TreeWatch(platform.root);
  setTreeWatch(platform, watch);
  return watch;
}

/**
 * Bytes of a listings file read at most: a larger one is not read. The listing cache holds 200,000
 * entries at most, some 5 MiB written out with names of 20 bytes.
 */
const MAX_LISTINGS_FILE_BYTES = 16 * 2 ** 20;

/**
 * Keeps the folder listings of `source` (the workspace's Node search source) between processes, in a
 * file beside the workspace's index file under `cacheDir` (`<hash>.listings`): fills the source's
 * listing cache from that file now, where there is one (an unreadable, foreign or damaged file is
 * ignored), so a new process's first walk costs an `lstat` per unchanged folder rather than an open,
 * a listing and a close; `save()` writes the cache back when this process listed a folder anew (a
 * temporary file renamed into place; errors are ignored, as the file is only a cache). A listing is
 * trusted on the same terms as in the process that read it (see `NodeSearchSource.exportListings`).
 * None are kept when that file would lie inside the workspace (its tools could write it).
 */
export function keepListingsOnDisk(source: NodeSearchSource, root: string, cacheDir?: string): { save(): Promise<void> } {
  const file = searchIndexFile(root, cacheDir).replace(/\.thsi$/, '.listings');
  // Not kept inside the workspace it lists (`--root ~` with the default ~/.cache): there the tools
  // could edit it, and a listing written by a tool would hide files from every later search.
  if (file.startsWith(root === '/' ? '/' : `${root}/`)) return { save: async () => undefined };
  try {
    const text = unsealListings(readStoreFileSync(file, cacheFileCheck(MAX_LISTINGS_FILE_BYTES)));
    if (text !== undefined) source.importListings(text);
  } catch {
    // No file yet, or one that cannot be read or trusted: the walk lists every folder, as without it.
  }
  return {
    async save() {
      const text = source.exportListings();
      if (text !== undefined) await replaceFile(file, sealListings(text)).catch(() => undefined);
    },
  };
}
