// The search index of a platform's workspace: building it through the platform's own reads, keeping
// it per platform, and bringing files a search found changed up to date after that search.
import type { Platform } from '../../core/types.js';
import type { SearchFileStat, SearchSource } from '../source-port.js';
import { walkWorkspace, type WalkOptions } from '../walk.js';
import { throwIfAborted, yieldToEventLoop, YIELD_INTERVAL_MS } from '../../fs/abort.js';
import { watchToolWrites } from '../../core/write-watch.js';
import { commitWorkOf, indexingFs, type CommitTarget, type CommitWork } from './commit.js';
import { budgetNote, IndexOverBudget, type SearchIndexBudget } from './budget.js';
import { savedIndexBytes } from './format.js';
import { treeWatchOf } from './reuse.js';
import { MAX_INDEXED_FILE_BYTES, SearchIndex, SearchIndexBuilder, type BuildAlongside, type IndexPart, type ReadFile } from './search-index.js';
import { searchSourceOf } from '../engine-source.js';
import { sameIdentity } from '../../fs/racy-clock.js';

/** Files read at once while building. */
const READ_CONCURRENCY = 16;
/** Changed files kept beside the postings before they are folded in (at least; or an eighth of the index). */
const MIN_PENDING = 256;

/**
 * A file's identity as the index records and checks it: the platform's search source's `stat` (size,
 * times, inode; a final symlink not followed) where it has one, else `fs.lstat`'s size and mtime (-1
 * for the status-change time and inode it lacks). Undefined when it is not a regular file any more.
 */
export async function identityOf(platform: Platform, path: string): Promise<SearchFileStat | undefined> {
  const source = searchSourceOf(platform);
  if (source) return source.stat(path);
  try {
    const stats = await platform.fs.lstat(path);
    if (!stats.isFile()) return undefined;
    const withMore = stats as typeof stats & { ctimeMs?: number; ino?: number };
    return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: withMore.ctimeMs ?? -1, ino: withMore.ino ?? -1 };
  } catch {
    return undefined;
  }
}

/**
 * Reads one file for the index through `platform.fs`: its identity before and after the read (a file
 * that changed in between is marked unsteady, so it is always scanned). Undefined when it is gone or
 * not a regular file.
 */
export async function readForIndex(platform: Platform, path: string): Promise<ReadFile | undefined> {
  const readAt = Date.now();
  const stat = await identityOf(platform, path);
  if (!stat) return undefined;
  let bytes: Uint8Array | undefined;
  if (stat.size <= MAX_INDEXED_FILE_BYTES) {
    try {
      bytes = await platform.fs.readFile(path);
    } catch {
      bytes = undefined;
    }
  }
  const after = await identityOf(platform, path);
  return { path, stat, readAt, bytes, steady: after !== undefined && sameIdentity(stat, after) && (bytes === undefined || bytes.length === stat.size) };
}

/**
 * Reads `given`'s paths (see {@link PathFeed}) a few at a time, in order, handing each read to `each`; turns the event loop between
 * rounds. `holding(bytes)` is told the bytes of each round before they are handed on (it throws to stop).
 */
async function readAll(platform: Platform, given: readonly string[] | PathFeed, each: (file: ReadFile) => void, signal?: AbortSignal, holding?: (bytes: number) => void): Promise<void> {
  const source = searchSourceOf(platform);
  if (source) return readAllFromSource(source, given, each, signal, holding);
  const paths = typeof given === 'function' ? await drain(given) : given;
  let lastYield = Date.now();
  for (let i = 0; i < paths.length; i += READ_CONCURRENCY) {
    throwIfAborted(signal);
    if (Date.now() - lastYield >= YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      lastYield = Date.now();
    }
    const reads = await Promise.all(paths.slice(i, i + READ_CONCURRENCY).map((path) => readForIndex(platform, path)));
    holding?.(reads.reduce((sum, file) => sum + (file?.bytes?.length ?? 0), 0));
    for (const file of reads) if (file) each(file);
  }
}

/** The buffer {@link readFromSource} reads into (grown to the largest file, kept for the build). */
let scratch = new Uint8Array(1 << 20);

/** What {@link readFromSource}'s `into` throws for a file over the size the index reads (nothing is read). */
const OVER_LIMIT = Symbol('over the indexed size');

/** The buffer {@link readFromSource} reads `size` bytes into; throws {@link OVER_LIMIT} past the size the index reads. */
function intoScratch(size: number): Uint8Array {
  if (size > MAX_INDEXED_FILE_BYTES) throw OVER_LIMIT;
  if (scratch.length < size) scratch = new Uint8Array(size);
  return scratch.subarray(0, size);
}

/**
 * Reads one file for the index through a search source (synchronous, no thread-pool round trip) in
 * one open: the identity recorded is the opened file's own (`fstat` of its descriptor, taken after
 * `readAt`), so no path `stat` is needed before or after. A write after that `fstat` moves the file's
 * times away from the recorded ones (a later identity check then fails and the file is scanned), and
 * one in the same clock tick is within the racy window of `readAt`, so the file is marked racy. A
 * file over the size the index reads is not read (its identity is its path's `stat`). The bytes are
 * a view of a buffer the next read overwrites: `each` must be done with them when it returns.
 */
function readFromSource(source: SearchSource, path: string): ReadFile | undefined {
  const readAt = Date.now();
  let read: { bytes: Uint8Array; stat: SearchFileStat } | undefined;
  try {
    // One more than the limit: a file of the limit is read whole, a larger one is refused by `into`.
    read = source.read(path, MAX_INDEXED_FILE_BYTES + 1, intoScratch);
  } catch {
    // Over the limit, or unreadable (a search counts it as skipped): unindexed, so always scanned.
    const stat = source.stat(path);
    return stat && { path, stat, readAt, bytes: undefined, steady: true };
  }
  if (!read) return undefined;
  const { bytes, stat } = read;
  // A source that does not ask `into` for its buffer (the memory one) hands over a prefix instead.
  if (bytes.length > MAX_INDEXED_FILE_BYTES) return { path, stat, readAt, bytes: undefined, steady: true };
  // A source returns only the first 8 KiB of a large file they show binary (a NUL byte): whole enough.
  const whole = bytes.length === stat.size || (bytes.length < stat.size && bytes.includes(0));
  return { path, stat, readAt, bytes, steady: whole };
}

/** {@link readAll} through a search source: one file at a time, synchronously, the event loop turning every {@link YIELD_INTERVAL_MS}. */
async function readAllFromSource(source: SearchSource, paths: readonly string[] | PathFeed, each: (file: ReadFile) => void, signal?: AbortSignal, holding?: (bytes: number) => void): Promise<void> {
  throwIfAborted(signal);
  const next: PathFeed = typeof paths === 'function' ? paths : (i) => paths[i];
  let lastYield = Date.now();
  for (let i = 0; ; i += 1) {
    let path = next(i);
    if (typeof path === 'object') {
      path = await path;
      lastYield = Date.now();
    }
    if (path === undefined) break;
    if (Date.now() - lastYield >= YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      throwIfAborted(signal);
      lastYield = Date.now();
    }
    const file = readFromSource(source, path);
    holding?.(file?.bytes?.length ?? 0);
    if (file) each(file);
  }
  throwIfAborted(signal);
}

/**
 * The paths of a part's files as they come (see {@link buildIndexPart}): the path of its `i`-th file
 * (asked for in order, each once), undefined once the part has no more, or a promise of either while
 * it is yet to come.
 */
export type PathFeed = (i: number) => string | undefined | Promise<string | undefined>;

/** Every path `feed` gives, once it has given them all. */
async function drain(feed: PathFeed): Promise<string[]> {
  const paths: string[] = [];
  for (let path = await feed(0); path !== undefined; path = await feed(paths.length)) paths.push(path);
  return paths;
}

/**
 * The files a build indexes by default: every file a search of the whole workspace lists (ignore rules
 * applied), in the walk's order. `onFiles` is told of them as the walk lists them (see `WalkOptions`).
 */
export async function workspaceFilePaths(platform: Platform, signal?: AbortSignal, onFiles?: WalkOptions['onFiles']): Promise<string[]> {
  const walked = await walkWorkspace({ fs: platform.fs, root: platform.root, dir: platform.root, source: searchSourceOf(platform), changeCount: platform.changeCount, signal, ...(onFiles ? { onFiles } : {}) });
  return walked.files.map((file) => file.path);
}

/**
 * Builds the index of `paths` (absolute workspace paths; default: {@link workspaceFilePaths}) through
 * the platform's async `fs`. `racyMs`: see `DEFAULT_RACY_MS`. Rejects with the signal's reason when it
 * aborts, and with an `IndexOverBudget` as soon as what it counted passes `budget` (the files left
 * are not read).
 */
export async function buildWorkspaceIndex(platform: Platform, options: { paths?: readonly string[]; racyMs?: number; signal?: AbortSignal; budget?: SearchIndexBudget } = {}): Promise<SearchIndex> {
  const paths = options.paths ?? (await workspaceFilePaths(platform, options.signal));
  const builder = new SearchIndexBuilder({ ...(options.racyMs === undefined ? {} : { racyMs: options.racyMs }), ...(options.budget ? { budget: options.budget, total: paths.length } : {}) });
  await readAll(platform, paths, (file) => builder.add(file), options.signal, (bytes) => builder.holding(bytes));
  const index = builder.finish();
  if (options.budget) checkBuiltSize(index, platform.root, options.budget);
  return index;
}

/**
 * Throws an `IndexOverBudget` when `index`, built whole for the workspace at `root`, is larger saved
 * than `budget.maxIndexBytes`: the measure a load of it would take, so a build and a load of the same
 * tree keep it or refuse it alike (what a build counts as it goes is below it by its pending lists).
 */
export function checkBuiltSize(index: SearchIndex, root: string, budget: SearchIndexBudget): void {
  const bytes = savedIndexBytes(index, root);
  if (bytes > budget.maxIndexBytes) throw new IndexOverBudget({ budget: 'maxIndexBytes', limit: budget.maxIndexBytes, reached: bytes, done: index.size, total: index.size });
}

/**
 * Builds one part of an index (see `joinIndexParts`): `paths` (or the paths a {@link PathFeed} gives
 * as they come) under ids from `firstId` on, the budget counted together with the other parts'
 * through `alongside` (`total`: the files of all parts, or what it answers: undefined while unknown).
 */
export async function buildIndexPart(
  platform: Platform,
  options: { paths: readonly string[] | PathFeed; firstId: number; total: number | (() => number | undefined); racyMs?: number; signal?: AbortSignal; budget?: SearchIndexBudget; alongside?: BuildAlongside; batchPairs?: number },
): Promise<IndexPart> {
  const builder = new SearchIndexBuilder({
    firstId: options.firstId,
    ...(options.racyMs === undefined ? {} : { racyMs: options.racyMs }),
    ...(options.budget ? { budget: options.budget, total: options.total } : {}),
    ...(options.alongside ? { alongside: options.alongside } : {}),
    ...(options.batchPairs === undefined ? {} : { batchPairs: options.batchPairs }),
  });
  await readAll(platform, options.paths, (file) => builder.add(file), options.signal, (bytes) => builder.holding(bytes));
  return builder.finishPart();
}

/** What `capabilities.searchIndex` says: opening or building, in use, or off (and why). */
export interface SearchIndexStatus {
  state: 'building' | 'ready' | 'off';
  note?: string;
}

// Per platform with an index attached: its budget, and its state while it has no index in use.
const budgets = new WeakMap<Platform, SearchIndexBudget>();
const statuses = new WeakMap<Platform, SearchIndexStatus>();

/**
 * Keeps `platform`'s index within `budget` from now on: an index that grows past `maxIndexBytes`
 * through updates is dropped (searches scan) and {@link searchIndexStatus} says so.
 */
export function limitSearchIndex(platform: Platform, budget: SearchIndexBudget): void {
  budgets.set(platform, budget);
}

// Per platform, what is told each time its index turns off (see whenSearchIndexOff).
const offListeners = new WeakMap<Platform, (note: string) => void>();

/** Records `platform`'s index state while it has none in use (`building`, or `off` with why). */
export function setSearchIndexStatus(platform: Platform, status: SearchIndexStatus): void {
  statuses.set(platform, status);
  if (status.state === 'off' && status.note !== undefined) tell(platform, status.note);
}

// Per platform, a note on the index in use (it could not be saved).
const readyNotes = new WeakMap<Platform, string>();

/**
 * Records why `platform`'s index in use could not be saved (`capabilities.searchIndex` then says
 * `ready` with this note, and the next process builds it again); undefined: it was saved since.
 */
export function noteSearchIndexUnsaved(platform: Platform, note: string | undefined): void {
  if (note === undefined) {
    readyNotes.delete(platform);
    return;
  }
  readyNotes.set(platform, note);
  tell(platform, note);
}

/** Tells `platform`'s listener (see whenSearchIndexOff) `note`. */
function tell(platform: Platform, note: string): void {
  try {
    offListeners.get(platform)?.(note);
  } catch {
    // The host's listener: its failure is not the index's.
  }
}

/**
 * Calls `listener` with the note of `capabilities.searchIndex` each time `platform`'s index turns
 * off from now on (its build passed its budget or failed, or it outgrew its size through updates and
 * was dropped), or is in use but could not be saved (the next process builds it again), so a host
 * can tell its user at once; one listener per platform, undefined removes it.
 */
export function whenSearchIndexOff(platform: Platform, listener: ((note: string) => void) | undefined): void {
  if (listener) offListeners.set(platform, listener);
  else offListeners.delete(platform);
}

/** `platform`'s index state: `ready` while one is in use (with a note when it could not be saved), else what was recorded (undefined: no index attached). */
export function searchIndexStatus(platform: Platform): SearchIndexStatus | undefined {
  if (holders.has(platform)) {
    const note = readyNotes.get(platform);
    return note === undefined ? { state: 'ready' } : { state: 'ready', note };
  }
  const status = statuses.get(platform);
  return status && { ...status };
}

/** Drops `platform`'s index when it has grown past its budget; true when it did. */
function dropOverBudget(platform: Platform, index: SearchIndex): boolean {
  const budget = budgets.get(platform);
  if (!budget || holders.get(platform)?.index !== index) return false;
  const bytes = index.bytes;
  if (bytes <= budget.maxIndexBytes) return false;
  holdSearchIndex(platform, undefined);
  setSearchIndexStatus(platform, { state: 'off', note: budgetNote({ budget: 'maxIndexBytes', limit: budget.maxIndexBytes, reached: bytes }, budget.names) });
  return true;
}

/**
 * A platform's index, and the background work on it after searches and tool writes, one piece after
 * another on `refresh`: the re-reads of files searches found new, changed, racy or gone (each path
 * queued once, however many searches find it), compactions, and the indexing of large writes.
 */
interface Holder {
  index: SearchIndex;
  refresh: Promise<void>;
  /** Paths waiting to be re-read, in the order searches found them; none is also {@link Holder.reading}. */
  queued: Set<string>;
  /** The path being re-read now. */
  reading: string | undefined;
  /** Whether a re-read of `queued` is on `refresh` and not done: paths queued now are read by it. */
  draining: boolean;
  /** Set when the index stops being refreshed (see {@link stopSearchIndexRefresh}): nothing more is queued, and nothing read from then (`performance.now()`). */
  stopAt?: number;
}

// Per platform, so two workspaces never share an index, and dropped with the platform.
const holders = new WeakMap<Platform, Holder>();

// Per platform, the reading of a saved index under way (see whileSearchIndexOpens).
const opening = new WeakMap<Platform, Promise<unknown>>();

/**
 * Notes that `platform`'s index is being read from storage until `read` settles (see
 * `whileSearchIndexOpens` in engine.ts, which also gives the platform's searches the index engine).
 */
export function noteSearchIndexOpening(platform: Platform, read: Promise<unknown>): void {
  const settled = read.then(
    () => undefined,
    () => undefined,
  );
  opening.set(platform, settled);
  void settled.then(() => {
    if (opening.get(platform) === settled) opening.delete(platform);
  });
}

/** Whether `platform`'s saved index is being read and its tree is not watched (a search then waits for the read alone). */
export function searchIndexOnlyReading(platform: Platform): boolean {
  return opening.has(platform) && !(holders.has(platform) && treeWatchOf(platform));
}

/**
 * What a search of `platform` waits for before it looks at the index: the reading of its saved index
 * under way, and, when its tree is watched, the watch's `settled` (every change completed before the
 * search started counted); a promise that never rejects, or undefined when there is nothing to wait for.
 */
export function searchIndexOpening(platform: Platform): Promise<unknown> | undefined {
  const read = opening.get(platform);
  const watch = holders.has(platform) ? treeWatchOf(platform) : undefined;
  if (!watch) return read;
  const settled = watch.settled().catch(() => undefined);
  return read ? Promise.all([read, settled]) : settled;
}

/** The search index searches of `platform` use (undefined: none; they scan every listed file). */
export function searchIndexOf(platform: Platform): SearchIndex | undefined {
  return holders.get(platform)?.index;
}

/**
 * Holds `index` as `platform`'s (undefined: none from now on); `setSearchIndex` in engine.ts, which
 * also gives the platform's searches the index engine, is the call for code outside this folder. While
 * it has one, the files tools write, remove and move through a runner on `platform` are updated in it
 * as each change is made (see `indexingFs`), so the next search needs no read of them to be exact.
 */
export function holdSearchIndex(platform: Platform, index: SearchIndex | undefined): void {
  if (index) {
    const holder = holders.get(platform);
    // The same index held again keeps its queue; another starts with none (the paths were found for the old one).
    if (holder?.index !== index) holders.set(platform, { index, refresh: holder?.refresh ?? Promise.resolve(), queued: new Set(), reading: undefined, draining: false });
    watchToolWrites(platform, (fs) => indexingFs(fs, platform, commitTarget(platform)));
  } else {
    holders.delete(platform);
    watchToolWrites(platform, undefined);
  }
}

/** Where a platform's tool writes go: its index now, and its compaction once the changes pile up. */
function commitTarget(platform: Platform): CommitTarget {
  return {
    index: () => holders.get(platform)?.index,
    changed: (index) => {
      const holder = holders.get(platform);
      if (!holder || holder.index !== index || dropOverBudget(platform, index) || !overdue(index)) return;
      // Folded in after the call, with the refreshes: never inside the write that grew it.
      const fold = async (): Promise<void> => {
        if (holder.index === index && holders.get(platform) === holder && overdue(index)) holder.index = index.compact();
      };
      holder.refresh = holder.refresh.then(fold, fold).catch(() => undefined);
    },
    later: (work) => {
      const holder = holders.get(platform);
      if (!holder) return;
      const run = async (): Promise<void> => {
        // The call that wrote goes on first.
        await yieldToEventLoop();
        work();
      };
      holder.refresh = holder.refresh.then(run, run).catch(() => undefined);
    },
  };
}

/** Whether `index`'s changes kept beside its postings have outgrown them (an eighth of the index, at least MIN_PENDING). */
function overdue(index: SearchIndex): boolean {
  return index.pending > Math.max(MIN_PENDING, index.size / 8);
}

/** The index work done at the commits of tools' writes on `platform` so far (files changed in it, and milliseconds). */
export function searchIndexCommitWork(platform: Platform): CommitWork {
  return commitWorkOf(platform);
}

/** Resolves once the refreshes started so far are done, the paths queued since included (tests; a host saving the index). */
export async function searchIndexIdle(platform: Platform): Promise<void> {
  for (let holder = holders.get(platform); holder; ) {
    const pending = holder.refresh;
    await pending;
    holder = holders.get(platform);
    if (!holder || holder.refresh === pending) return;
  }
}

/** How long {@link stopSearchIndexRefresh} goes on re-reading the files queued, by default. */
export const CLOSING_REFRESH_MS = 1000;

/**
 * Stops refreshing `platform`'s current index (a host about to save it and end): no path is queued
 * from now on, the paths queued are re-read for `withinMs` more (the newly listed files of a tree a
 * saved index missed are then saved indexed) and the rest dropped; resolves once the work started is
 * done (the file being re-read, the compactions and the large tool writes queued). A file left keeps
 * the entry it had, with the identity of the bytes it was indexed from, which an identity check
 * refuses: it is scanned, and re-read by a later process's searches. Searches stay exact.
 */
export async function stopSearchIndexRefresh(platform: Platform, withinMs = CLOSING_REFRESH_MS): Promise<void> {
  const holder = holders.get(platform);
  if (!holder) return;
  holder.stopAt = Math.min(holder.stopAt ?? Infinity, performance.now() + withinMs);
  if (withinMs <= 0) holder.queued.clear();
  await searchIndexIdle(platform);
}

/** Re-reads of a queue done between checks of the index's size and pending changes. */
const DRAIN_CHECK_EVERY = MIN_PENDING;
/** Milliseconds the re-reads through a search source (synchronous) run before the event loop turns. */
const DRAIN_SLICE_MS = 10;

/**
 * Re-reads `paths` into `platform`'s index after a search found them new, changed, racy or gone
 * (updated, or removed when gone), in the background; a failed read leaves the file out, so it is
 * scanned. A path already waiting or being read is not queued again: N searches that find the same
 * M files stale read each once, not N times (each search scans what it cannot trust meanwhile, so
 * its answers are exact either way). Once the changes pending outgrow an eighth of the index, it is
 * compacted.
 */
export function refreshIndexed(platform: Platform, paths: readonly string[]): void {
  const holder = holders.get(platform);
  if (!holder || holder.stopAt !== undefined || paths.length === 0) return;
  for (const path of paths) if (path !== holder.reading) holder.queued.add(path);
  if (holder.draining || holder.queued.size === 0) return;
  holder.draining = true;
  const work = (): Promise<void> => drainRefreshes(platform, holder);
  holder.refresh = holder.refresh.then(work, work).catch(() => undefined);
}

/**
 * Re-reads `holder`'s queued paths, the oldest first, those queued meanwhile included, until none is
 * left, the holder is no longer `platform`'s or its time to stop has come (the rest are dropped);
 * through the platform's search source where it has one (one open a file, see {@link readFromSource};
 * the event loop turns every {@link DRAIN_SLICE_MS}), else through its `fs` ({@link readForIndex}).
 * Checks the index's budget and its pending changes every {@link DRAIN_CHECK_EVERY} files and at the end.
 */
async function drainRefreshes(platform: Platform, holder: Holder): Promise<void> {
  const source = searchSourceOf(platform);
  let sliced = performance.now();
  try {
    for (let done = 0; holder.queued.size > 0 && holders.get(platform) === holder; ) {
      if (holder.stopAt !== undefined && performance.now() >= holder.stopAt) break;
      if (source && performance.now() - sliced >= DRAIN_SLICE_MS) {
        await yieldToEventLoop();
        sliced = performance.now();
        continue;
      }
      const path = holder.queued.values().next().value as string;
      holder.queued.delete(path);
      holder.reading = path;
      // A search that found it stale before an earlier re-read of it was done queues it again: read once.
      const fresh = await indexedAsItIs(platform, source, holder.index, path);
      const file = fresh ? undefined : source ? readSafely(source, path) : await readForIndex(platform, path).catch(() => undefined);
      holder.reading = undefined;
      // Dropped or replaced meanwhile: what was read is not this index's any more.
      if (holders.get(platform) !== holder) return;
      if (fresh) continue;
      if (file) holder.index.update(file);
      else holder.index.remove(path);
      done += 1;
      if (done % DRAIN_CHECK_EVERY === 0 && !settleDrained(platform, holder)) return;
    }
    settleDrained(platform, holder);
  } finally {
    holder.reading = undefined;
    holder.draining = false;
    if (holders.get(platform) !== holder || holder.stopAt !== undefined) holder.queued.clear();
  }
}

/** Whether `index` has `path` as it is now: not racy, and its identity now the one recorded (a re-read would change nothing). */
async function indexedAsItIs(platform: Platform, source: SearchSource | undefined, index: SearchIndex, path: string): Promise<boolean> {
  const entry = index.file(path);
  if (!entry || entry.racy) return false;
  let now: SearchFileStat | undefined;
  try {
    now = source ? source.stat(path) : await identityOf(platform, path);
  } catch {
    return false;
  }
  return now !== undefined && sameIdentity(entry.stat, now);
}

/** {@link readFromSource}, undefined when it throws (the file is then dropped from the index, so it is scanned). */
function readSafely(source: SearchSource, path: string): ReadFile | undefined {
  try {
    return readFromSource(source, path);
  } catch {
    return undefined;
  }
}

/** After re-reads into `holder`'s index: drops it when over its budget (false), else compacts it when its pending changes are overdue. */
function settleDrained(platform: Platform, holder: Holder): boolean {
  const index = holder.index;
  if (dropOverBudget(platform, index)) return false;
  if (overdue(index) && holders.get(platform) === holder) holder.index = index.compact();
  return true;
}
