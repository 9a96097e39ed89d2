// Keeping a platform's search index in storage between processes or pages, whatever the storage is
// (a file on Node, an IndexedDB record in browsers): read it before the first search, else build it
// in the background and save it, and save it again on close when searches changed it since.
import type { Platform } from '../../core/types.js';
import { budgetNote, defaultBudget, IndexOverBudget, type SearchIndexBudget } from './budget.js';
import { IndexRejected, openIndex, serializeIndex } from './format.js';
import type { SearchIndex } from './search-index.js';
import { buildWorkspaceIndex, limitSearchIndex, noteSearchIndexUnsaved, searchIndexOf, searchIndexStatus, setSearchIndexStatus, stopSearchIndexRefresh } from './workspace.js';
import { setSearchIndex, whileSearchIndexOpens } from './engine.js';

/** Where a workspace's saved index lives: the bytes of {@link serializeIndex}, whole. */
export interface SearchIndexStorage {
  /**
   * The saved bytes, or undefined when nothing is saved. A rejection counts as an unreadable index
   * (rebuilt); an `IndexRejected` one (a header that is not an index's, found before the rest was read) gives its reason as it is.
   */
  read(): Promise<Uint8Array | undefined>;
  /**
   * Replaces the saved bytes with `bytes`, whole (a reader never sees part of a write, or else the
   * checksum rejects it). A rejection may carry `advice` (a string): what the user should do about it,
   * told with the note that the index was not saved (else: make its folder writable).
   */
  write(bytes: Uint8Array): Promise<void>;
  /** Removes the saved bytes when they are still `bytes` (a newer save is kept): a saved index over its budget is not read again. */
  remove?(bytes: Uint8Array): Promise<void>;
}

/**
 * How an attached index came into use: read from storage, or built (with why the saved one was not
 * used), or not at all: its build failed (`error`), or it would pass its budget (`off`: the note
 * `capabilities.searchIndex` carries).
 */
export type SearchIndexReady = { from: 'disk' } | { from: 'built'; rejected?: string; offThread?: boolean } | { error: string } | { off: string };

/**
 * Builds a workspace's index somewhere else than the calling thread (a worker thread on Node) and
 * saves it there: gives the index to `onIndex` once built, then resolves `'saved'`; `'lost'` when it
 * ended before it had an index (the index is then built on the calling thread); rejects with the
 * build's or the save's error. Undefined where it cannot run (the index is then built here).
 */
export type IndexBuilder = (onIndex: (index: SearchIndex) => void) => Promise<'saved' | 'lost'> | undefined;

/** The index kept for a platform in a {@link SearchIndexStorage} (see {@link attachStoredSearchIndex}). */
export interface AttachedSearchIndex {
  /** Settles once the index is opened or built and in use, or its build failed (never rejects). */
  readonly ready: Promise<SearchIndexReady>;
  /**
   * Waits for a build under way, stops refreshing the index (the file being re-read is finished, the
   * re-reads still queued are dropped: see `stopSearchIndexRefresh`), and saves the index when it
   * changed since it was read or saved. A file left unrefreshed keeps the entry it had, which its
   * identity check refuses, so the next process scans it and its searches re-read it.
   */
  close(): Promise<void>;
}

/** The index saved in `storage` for `platform`'s root when there is one and it is intact; else why not (`rejected`; absent when nothing was saved). */
export async function readSavedIndex(platform: Platform, storage: SearchIndexStorage, budget?: SearchIndexBudget): Promise<{ index?: SearchIndex; rejected?: string; over?: IndexOverBudget }> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await storage.read();
  } catch (error) {
    // A storage may check the header before it reads the rest (a file that is not an index is not read whole).
    if (error instanceof IndexRejected) return { rejected: error.message };
    return { rejected: `unreadable (${error instanceof Error ? error.message : String(error)})` };
  }
  if (bytes === undefined) return {};
  // A saved index over the budget (lowered since) is not opened, and removed so that the next start
  // does not read it again; rebuilt, it would pass the budget too (a build measures its saved size).
  if (budget && bytes.length > budget.maxIndexBytes) {
    await storage.remove?.(bytes).catch(() => undefined);
    return { over: new IndexOverBudget({ budget: 'maxIndexBytes', limit: budget.maxIndexBytes, reached: bytes.length, saved: true }) };
  }
  try {
    return { index: openIndex(bytes, platform.root) };
  } catch (error) {
    if (error instanceof IndexRejected) return { rejected: error.message };
    return { rejected: `unreadable (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * Gives `platform`'s searches a search index kept in `storage`: opened from it when intact (the
 * searches that start meanwhile wait for the read), else built through the platform in the
 * background (the event loop turns between reads; searches until then scan every listed file, as
 * without an index) and saved. Saved bytes that are corrupt, truncated, of another format version or
 * for another root are never trusted: rebuilt and overwritten. `close()` waits for a build under way,
 * stops the re-reads of files searches found stale (the one under way finishes, so it waits for no
 * backlog) and, when the index changed since it was read or saved, saves it again, so the next process
 * or page opens it without a rebuild. A build that fails leaves the platform scanning.
 * `beforeBuild` is awaited before a build (a platform that loads its files on first use loads them);
 * `buildElsewhere`, where given, builds and saves off this thread first (`ready` then tells `offThread`).
 * `budget` (default {@link defaultBudget}) bounds the index and its build: a build that would pass it
 * stops early and sets no index, an index that outgrows it through updates is dropped, and the
 * platform scans; `platform.capabilities.searchIndex` tells the state (`building`, `ready`, `off` with a note).
 */
export function attachStoredSearchIndex(
  platform: Platform,
  storage: SearchIndexStorage,
  options: { beforeBuild?: () => Promise<unknown>; buildElsewhere?: IndexBuilder; budget?: SearchIndexBudget } = {},
): AttachedSearchIndex {
  const budget = options.budget ?? defaultBudget();
  limitSearchIndex(platform, budget);
  setSearchIndexStatus(platform, { state: 'building' });
  reportStatus(platform);
  // What was last saved (or read): close() writes the index only when it changed since.
  let saved: { index: SearchIndex; version: number } | undefined;
  const save = async (index: SearchIndex): Promise<void> => {
    const version = index.version;
    await storage.write(serializeIndex(index, platform.root));
    saved = { index, version };
    noteSearchIndexUnsaved(platform, undefined);
  };
  const opened = readSavedIndex(platform, storage, budget).then((stored) => {
    if (stored.index) {
      setSearchIndex(platform, stored.index);
      saved = { index: stored.index, version: stored.index.version };
    }
    return stored;
  });
  // Reading a saved index takes milliseconds: searches wait for it (a scan without it takes longer),
  // but not for a build, which runs in the background while they scan.
  whileSearchIndexOpens(platform, opened);
  const ready = (async (): Promise<SearchIndexReady> => {
    const stored = await opened;
    if (stored.index) return { from: 'disk' };
    if (stored.over) throw stored.over;
    await options.beforeBuild?.();
    const rejected = stored.rejected === undefined ? {} : { rejected: stored.rejected };
    const elsewhere = options.buildElsewhere?.((index) => {
      setSearchIndex(platform, index);
      // What the builder saves is the index as built, before any change since.
      saved = { index, version: 0 };
    });
    if (elsewhere) {
      const outcome = await elsewhere.catch((error: unknown) => {
        // Not saved: close() saves what the searches have.
        saved = undefined;
        throw error;
      });
      if (outcome === 'saved') return { from: 'built', ...rejected, offThread: true };
      saved = undefined;
    }
    const index = await buildWorkspaceIndex(platform, { budget });
    setSearchIndex(platform, index);
    await save(index);
    return { from: 'built', ...rejected, ...(options.buildElsewhere ? { offThread: false } : {}) };
  })().catch((error: unknown): SearchIndexReady => {
    if (error instanceof IndexOverBudget) {
      const note = budgetNote(error.passed, budget.names);
      setSearchIndexStatus(platform, { state: 'off', note });
      return { off: note };
    }
    const message = error instanceof Error ? error.message : String(error);
    // With an index in use, what failed is its save.
    // The storage may say what to do about its failure (`advice`: the Node one looks at the cause on disk).
    const advice = (error as { advice?: unknown } | null)?.advice;
    if (searchIndexOf(platform)) noteSearchIndexUnsaved(platform, `search index in use, but it could not be saved (${message}): the next start builds it again; ${typeof advice === 'string' ? advice : 'make its folder writable'}`);
    else setSearchIndexStatus(platform, { state: 'off', note: `search index off, searches scan every file: its build failed (${message})` });
    return { error: message };
  });
  return {
    ready,
    async close() {
      await ready;
      if (!searchIndexOf(platform)) return;
      await stopSearchIndexRefresh(platform);
      const index = searchIndexOf(platform);
      if (!index || (saved?.index === index && saved.version === index.version)) return;
      await save(index).catch(() => undefined);
    },
  };
}

/** Makes `platform.capabilities.searchIndex` tell its index state, read when asked (see `searchIndexStatus`). */
function reportStatus(platform: Platform): void {
  const capabilities = platform.capabilities as object;
  if (Object.prototype.hasOwnProperty.call(capabilities, 'searchIndex') || !Object.isExtensible(capabilities)) return;
  Object.defineProperty(capabilities, 'searchIndex', { get: () => searchIndexStatus(platform), enumerable: true, configurable: true });
}
