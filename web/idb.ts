import { promisifyRequest, type UseStore } from 'idb-keyval';
import { ToolError } from '../src/core/errors.js';
import type { JsonValue } from '../src/core/types.js';

/** Prefix of every workspace database name: `toolhost-ws:<workspace>`. */
export const WORKSPACE_DB_PREFIX = 'toolhost-ws:';
/** Object store of the workspace filesystem: workspace path → {@link FsRecord}. */
export const FILES_STORE = 'files';
/** Object store of tool state: `[conversationId, key]` → JSON value. */
export const STATE_STORE = 'state';
const DB_VERSION = 1;

/**
 * One persisted filesystem node, keyed by its absolute canonical path. Times in ms since the epoch; a
 * file's `ctimeMs` (its last change of content or times, absent in records of older versions) is put
 * back on reload, so the search index saved beside the workspace recognizes files unchanged since.
 */
export type FsRecord =
  | { kind: 'file'; data: Uint8Array; mtimeMs: number; ctimeMs?: number }
  | { kind: 'dir'; mtimeMs: number }
  | { kind: 'symlink'; target: string; mtimeMs: number };

/**
 * What one commit writes, in ONE readwrite transaction over both stores: first `deleteTrees` (the key and
 * every key under `key/`), then `puts`, then the state entries (`undefined` value deletes the key).
 */
export interface CommitBatch {
  deleteTrees: string[];
  puts: Array<[string, FsRecord]>;
  state: Array<[conversationId: string, key: string, value: JsonValue | undefined]>;
}

/** A subtree as stored: the node itself (if any) and its descendants in key order. */
export interface StoredSubtree {
  self: FsRecord | undefined;
  descendants: Array<[string, FsRecord]>;
}

/** Name of the IndexedDB database that holds a workspace. */
export function workspaceDbName(workspace: string): string {
  return WORKSPACE_DB_PREFIX + workspace;
}

/** Key range of every path strictly under `path` ('0' is the code unit after '/'). */
export function subtreeRange(path: string): IDBKeyRange {
  return IDBKeyRange.bound(`${path}/`, `${path}0`, false, true);
}

/** Key range of every state key of one conversation (arrays sort after strings, so `[id, []]` is past every `[id, key]`). */
function conversationRange(conversationId: string): IDBKeyRange {
  return IDBKeyRange.bound([conversationId], [conversationId, []]);
}

/** Resolves the IndexedDB factory to use, or throws `unavailable` (private modes and some contexts have none). */
export function resolveIdbFactory(idbFactory: IDBFactory | undefined): IDBFactory {
  const factory = idbFactory ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory || typeof factory.open !== 'function') {
    throw new ToolError(
      'unavailable',
      'IndexedDB is not available in this context (private browsing or storage disabled); the workspace cannot persist. Use backend: "memory" for a workspace that lives only in this tab, or allow site storage.',
    );
  }
  return factory;
}

/**
 * Maps an IndexedDB failure to a ToolError: `QuotaExceededError` → `quota_exceeded`, anything else →
 * `unavailable`, with what to do next.
 */
export function storageError(error: unknown, doing: string): ToolError {
  if (error instanceof ToolError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  const message = (error as { message?: unknown } | null)?.message;
  if (name === 'QuotaExceededError') {
    return new ToolError(
      'quota_exceeded',
      `browser storage is full while ${doing}: nothing of this call was saved and its changes were undone; delete files or workspaces (deleteWorkspace) and retry`,
    );
  }
  return new ToolError(
    'unavailable',
    `IndexedDB failed while ${doing} (${String(name ?? 'Error')}: ${String(message ?? error)}); earlier content is unchanged`,
  );
}

/**
 * An open workspace database: the IndexedDB connection plus the operations the web platform needs.
 * Every write is one transaction with `durability: 'strict'` by default (where supported) whose
 * `complete` event is awaited, so a resolved commit is on disk (strict: flushed to the disk, surviving
 * an OS crash; relaxed: handed to the browser's storage process, surviving a tab or browser crash).
 */
export class WorkspaceDb {
  readonly #db: IDBDatabase;
  readonly #durability: IDBTransactionDurability;
  #closedReason: string | undefined;

  constructor(db: IDBDatabase, durability: IDBTransactionDurability = 'strict') {
    this.#db = db;
    this.#durability = durability;
    // Another tab deleting or upgrading the database: let it proceed, and fail our later writes clearly.
    db.onversionchange = () => {
      this.#closedReason = 'the workspace database was deleted or upgraded in another tab';
      db.close();
    };
    (db as IDBDatabase & { onclose: (() => void) | null }).onclose = () => {
      this.#closedReason = 'the browser closed the workspace database (storage cleared?)';
    };
  }

  /** Opens (creating if needed) the database of `workspace`; `unavailable` when blocked or refused. */
  static async open(factory: IDBFactory, workspace: string, durability: IDBTransactionDurability = 'strict'): Promise<WorkspaceDb> {
    const name = workspaceDbName(workspace);
    return new Promise<WorkspaceDb>((resolve, reject) => {
      let settled = false;
      let request: IDBOpenDBRequest;
      try {
        request = factory.open(name, DB_VERSION);
      } catch (error) {
        reject(storageError(error, `opening workspace "${workspace}"`));
        return;
      }
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains(FILES_STORE)) db.createObjectStore(FILES_STORE);
        if (!db.objectStoreNames.contains(STATE_STORE)) db.createObjectStore(STATE_STORE);
      };
      request.onblocked = () => {
        if (settled) return;
        settled = true;
        reject(
          new ToolError(
            'unavailable',
            `opening workspace "${workspace}" is blocked: another tab holds an older version of its database open; close the other tabs of this site and retry`,
          ),
        );
      };
      request.onerror = () => {
        if (settled) return;
        settled = true;
        reject(storageError(request.error, `opening workspace "${workspace}"`));
      };
      request.onsuccess = () => {
        const db = request.result;
        if (settled) {
          db.close();
          return;
        }
        settled = true;
        resolve(new WorkspaceDb(db, durability));
      };
    });
  }

  #check(): void {
    if (this.#closedReason) throw new ToolError('unavailable', `${this.#closedReason}; reopen the workspace`);
  }

  #tx(stores: string | string[], mode: IDBTransactionMode): IDBTransaction {
    this.#check();
    if (mode === 'readwrite') {
      try {
        return this.#db.transaction(stores, mode, { durability: this.#durability });
      } catch (error) {
        if ((error as { name?: unknown }).name !== 'TypeError') throw error;
      }
    }
    return this.#db.transaction(stores, mode);
  }

  /** Every filesystem record, in key order (parents before children). */
  async loadAll(): Promise<Array<[string, FsRecord]>> {
    try {
      const tx = this.#tx(FILES_STORE, 'readonly');
      const store = tx.objectStore(FILES_STORE);
      const [keys, values] = await Promise.all([
        promisifyRequest(store.getAllKeys()),
        promisifyRequest(store.getAll()),
      ]);
      return keys.map((key, i) => [key as string, values[i] as FsRecord]);
    } catch (error) {
      throw storageError(error, 'loading the workspace');
    }
  }

  /** The stored subtrees of several paths, read in one transaction (for rolling back a failed commit). */
  async readSubtrees(paths: readonly string[]): Promise<Map<string, StoredSubtree>> {
    const out = new Map<string, StoredSubtree>();
    const tx = this.#tx(FILES_STORE, 'readonly');
    const store = tx.objectStore(FILES_STORE);
    await Promise.all(
      paths.map(async (path) => {
        const range = subtreeRange(path);
        const [self, keys, values] = await Promise.all([
          promisifyRequest(store.get(path)),
          promisifyRequest(store.getAllKeys(range)),
          promisifyRequest(store.getAll(range)),
        ]);
        out.set(path, {
          self: self as FsRecord | undefined,
          descendants: keys.map((key, i) => [key as string, values[i] as FsRecord]),
        });
      }),
    );
    return out;
  }

  /**
   * Writes a {@link CommitBatch} in one readwrite transaction and resolves on its `complete` event.
   * Rejects with `quota_exceeded` (storage full) or `unavailable`; then nothing of the batch is stored.
   */
  async commit(batch: CommitBatch): Promise<void> {
    if (batch.deleteTrees.length === 0 && batch.puts.length === 0 && batch.state.length === 0) return;
    let tx: IDBTransaction;
    try {
      const stores = batch.state.length === 0 ? FILES_STORE : batch.deleteTrees.length + batch.puts.length === 0 ? STATE_STORE : [FILES_STORE, STATE_STORE];
      tx = this.#tx(stores, 'readwrite');
    } catch (error) {
      throw storageError(error, 'saving the call');
    }
    const done = promisifyRequest(tx);
    done.catch(() => undefined);
    try {
      if (batch.deleteTrees.length + batch.puts.length > 0) {
        const files = tx.objectStore(FILES_STORE);
        for (const path of batch.deleteTrees) {
          files.delete(path);
          files.delete(subtreeRange(path));
        }
        for (const [path, record] of batch.puts) files.put(record, path);
      }
      if (batch.state.length > 0) {
        const state = tx.objectStore(STATE_STORE);
        for (const [conversationId, key, value] of batch.state) {
          if (value === undefined) state.delete([conversationId, key]);
          else state.put(value, [conversationId, key]);
        }
      }
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // already finished
      }
      throw storageError(error, 'saving the call');
    }
    try {
      await done;
    } catch (error) {
      throw storageError(tx.error ?? error, 'saving the call');
    }
  }

  /** The {@link UseStore} of the state store (idb-keyval's store shape), for reads. */
  readonly stateStore: UseStore = (mode, callback) => {
    try {
      return Promise.resolve(callback(this.#tx(STATE_STORE, mode).objectStore(STATE_STORE)));
    } catch (error) {
      return Promise.reject(storageError(error, 'reading tool state'));
    }
  };

  /** One conversation's state, keys and values read in one transaction. */
  async conversationEntries(conversationId: string): Promise<Array<[string, JsonValue]>> {
    return this.stateStore('readonly', async (store) => {
      const range = conversationRange(conversationId);
      const [keys, values] = await Promise.all([promisifyRequest(store.getAllKeys(range)), promisifyRequest(store.getAll(range))]);
      return keys.map((key, i) => [(key as [string, string])[1], values[i] as JsonValue]);
    });
  }

  /** Every state entry of every conversation, in key order. */
  async allState(): Promise<Array<[string, string, JsonValue]>> {
    return this.stateStore('readonly', async (store) => {
      const [keys, values] = await Promise.all([promisifyRequest(store.getAllKeys()), promisifyRequest(store.getAll())]);
      return keys.map((key, i) => [(key as [string, string])[0], (key as [string, string])[1], values[i] as JsonValue]);
    });
  }

  /** Closes the connection; later operations fail with `unavailable`. */
  close(): void {
    this.#closedReason ??= 'the workspace platform was disposed';
    this.#db.close();
  }
}
