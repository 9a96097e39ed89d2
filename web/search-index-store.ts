// The search index of a web workspace kept in IndexedDB beside the workspace (database
// `toolhost-search-index:<workspace>`), so a new page or worker opens it without a rebuild. The bytes
// are those of the Node file (checksummed); anything that fails the check is rebuilt, never trusted.
import { promisifyRequest } from 'idb-keyval';
import { sameBytes } from '../src/core/bytes.js';
import type { Platform } from '../src/core/types.js';
import { attachStoredSearchIndex, type AttachedSearchIndex, type SearchIndexStorage } from '../src/search/index/attach.js';
import { whenPostingsCorrupt } from '../src/search/index/format.js';
import { storageError } from './idb.js';
import type { SearchIndexBudget } from '../src/search/index/budget.js';

/** Prefix of a workspace's search index database: `toolhost-search-index:<workspace>` (beside `toolhost-ws:<workspace>`). */
export const SEARCH_INDEX_DB_PREFIX = 'toolhost-search-index:';
/** The object store of saved indexes: workspace root → the bytes of `serializeIndex`. */
export const SEARCH_INDEX_STORE = 'index';
const DB_VERSION = 1;

/** Opens (creating when new) the search index database of `workspace`. */
function openIndexDb(factory: IDBFactory, workspace: string): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    let request: IDBOpenDBRequest;
    try {
      request = factory.open(SEARCH_INDEX_DB_PREFIX + workspace, DB_VERSION);
    } catch (error) {
      reject(storageError(error, `opening the search index of workspace "${workspace}"`));
      return;
    }
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(SEARCH_INDEX_STORE)) request.result.createObjectStore(SEARCH_INDEX_STORE);
    };
    request.onerror = () => reject(storageError(request.error, `opening the search index of workspace "${workspace}"`));
    request.onblocked = () => reject(storageError(new Error('blocked by another tab'), `opening the search index of workspace "${workspace}"`));
    request.onsuccess = () => {
      const db = request.result;
      // A deleteWorkspace in another tab: let it proceed.
      db.onversionchange = () => db.close();
      resolve(db);
    };
  });
}

/** Runs `fn` on the index store of `workspace`'s database, opened for this one transaction and closed after. */
async function withIndexStore<T>(factory: () => IDBFactory, workspace: string, mode: IDBTransactionMode, fn: (store: IDBObjectStore) => Promise<T>): Promise<T> {
  const db = await openIndexDb(factory(), workspace);
  try {
    // A saved index is a cache that is checked when read: a relaxed commit is enough.
    const tx = mode === 'readwrite' ? db.transaction(SEARCH_INDEX_STORE, mode, { durability: 'relaxed' }) : db.transaction(SEARCH_INDEX_STORE, mode);
    const done = promisifyRequest(tx);
    done.catch(() => undefined);
    const value = await fn(tx.objectStore(SEARCH_INDEX_STORE));
    await done;
    return value;
  } finally {
    db.close();
  }
}

/**
 * The saved search index of the workspace `workspace` at `root`: one record (keyed by the root) in
 * the database `toolhost-search-index:<workspace>`, opened for each read or write and closed after
 * (so it never holds up a `deleteWorkspace`). A write replaces the record in one transaction.
 */
export function idbIndexStorage(factory: () => IDBFactory, workspace: string, root: string): SearchIndexStorage {
  return {
    read: () =>
      withIndexStore(factory, workspace, 'readonly', async (store) => {
        const value: unknown = await promisifyRequest(store.get(root));
        if (value === undefined) return undefined;
        const bytes = value instanceof Uint8Array ? value : value instanceof ArrayBuffer ? new Uint8Array(value) : undefined;
        if (!bytes) throw new Error(`the stored index is a ${Object.prototype.toString.call(value).slice(8, -1)}, not bytes`);
        // Its postings are checked as searches read them: a corrupt block found then deletes the
        // record (unless a newer index replaced it), so the next page or worker rebuilds it.
        whenPostingsCorrupt(bytes, () => void deleteIfUnchanged(factory, workspace, root, bytes).catch(() => undefined));
        return bytes;
      }),
    write: (bytes) =>
      withIndexStore(factory, workspace, 'readwrite', async (store) => {
        // A view into a larger buffer would store all of that buffer: store exactly the index's bytes.
        store.put(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice(), root);
      }),
    remove: (bytes) => deleteIfUnchanged(factory, workspace, root, bytes),
  };
}

/** Deletes the saved index of `root` when it still holds `bytes` (another tab may have saved a new one since). */
function deleteIfUnchanged(factory: () => IDBFactory, workspace: string, root: string, bytes: Uint8Array): Promise<void> {
  return withIndexStore(factory, workspace, 'readwrite', async (store) => {
    const now: unknown = await promisifyRequest(store.get(root));
    const stored = now instanceof Uint8Array ? now : now instanceof ArrayBuffer ? new Uint8Array(now) : undefined;
    if (stored && sameBytes(stored, bytes)) store.delete(root);
  });
}

/**
 * Gives the searches of `platform` (a web workspace named `workspace`) a search index kept in
 * IndexedDB (see {@link idbIndexStorage}): read before the first search when saved and intact, else
 * built in the background in this worker (searches scan meanwhile; `loaded` loads the workspace
 * first) and saved; `close()` saves it when searches changed it since. `budget` (default
 * `defaultBudget()`) bounds it: past it no index is set and `capabilities.searchIndex` says why.
 */
export function attachWebSearchIndex(platform: Platform, factory: () => IDBFactory, workspace: string, loaded: () => Promise<unknown>, budget?: SearchIndexBudget): AttachedSearchIndex {
  return attachStoredSearchIndex(platform, idbIndexStorage(factory, workspace, platform.root), { beforeBuild: loaded, ...(budget ? { budget } : {}) });
}
