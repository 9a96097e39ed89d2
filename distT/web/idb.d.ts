import { type UseStore } from 'idb-keyval';
import { ToolError } from '../src/core/errors.js';
import type { JsonValue } from '../src/core/types.js';
/** Prefix of every workspace database name: `toolhost-ws:<workspace>`. */
export declare const WORKSPACE_DB_PREFIX = "toolhost-ws:";
/** Object store of the workspace filesystem: workspace path → {@link FsRecord}. */
export declare const FILES_STORE = "files";
/** Object store of tool state: `[conversationId, key]` → JSON value. */
export declare const STATE_STORE = "state";
/** One persisted filesystem node, keyed by its absolute canonical path. Times in ms since the epoch. */
export type FsRecord = {
    kind: 'file';
    data: Uint8Array;
    mtimeMs: number;
} | {
    kind: 'dir';
    mtimeMs: number;
} | {
    kind: 'symlink';
    target: string;
    mtimeMs: number;
};
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
export declare function workspaceDbName(workspace: string): string;
/** Key range of every path strictly under `path` ('0' is the code unit after '/'). */
export declare function subtreeRange(path: string): IDBKeyRange;
/** Resolves the IndexedDB factory to use, or throws `unavailable` (private modes and some contexts have none). */
export declare function resolveIdbFactory(idbFactory: IDBFactory | undefined): IDBFactory;
/**
 * Maps an IndexedDB failure to a ToolError: `QuotaExceededError` → `quota_exceeded`, anything else →
 * `unavailable`, with what to do next.
 */
export declare function storageError(error: unknown, doing: string): ToolError;
/**
 * An open workspace database: the IndexedDB connection plus the operations the web platform needs.
 * Every write is one transaction with `durability: 'strict'` by default (where supported) whose
 * `complete` event is awaited, so a resolved commit is on disk (strict: flushed to the disk, surviving
 * an OS crash; relaxed: handed to the browser's storage process, surviving a tab or browser crash).
 */
export declare class WorkspaceDb {
    #private;
    constructor(db: IDBDatabase, durability?: IDBTransactionDurability);
    /** Opens (creating if needed) the database of `workspace`; `unavailable` when blocked or refused. */
    static open(factory: IDBFactory, workspace: string, durability?: IDBTransactionDurability): Promise<WorkspaceDb>;
    /** Every filesystem record, in key order (parents before children). */
    loadAll(): Promise<Array<[string, FsRecord]>>;
    /** The stored subtrees of several paths, read in one transaction (for rolling back a failed commit). */
    readSubtrees(paths: readonly string[]): Promise<Map<string, StoredSubtree>>;
    /**
     * Writes a {@link CommitBatch} in one readwrite transaction and resolves on its `complete` event.
     * Rejects with `quota_exceeded` (storage full) or `unavailable`; then nothing of the batch is stored.
     */
    commit(batch: CommitBatch): Promise<void>;
    /** The {@link UseStore} of the state store (idb-keyval's store shape), for reads. */
    readonly stateStore: UseStore;
    /** One conversation's state, keys and values read in one transaction. */
    conversationEntries(conversationId: string): Promise<Array<[string, JsonValue]>>;
    /** Every state entry of every conversation, in key order. */
    allState(): Promise<Array<[string, string, JsonValue]>>;
    /** Closes the connection; later operations fail with `unavailable`. */
    close(): void;
}
