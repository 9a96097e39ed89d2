import type { JsonValue, StateStore } from '../src/core/types.js';
import type { WorkspaceDb } from './idb.js';
import type { JournaledWorkspace } from './journal.js';
/**
 * Tool state in the workspace's IndexedDB `state` object store, keyed `[conversationId, key]`, read
 * through idb-keyval's store shape. Every write goes through the workspace's commit path, so a call's
 * state and its file changes land in ONE transaction (`setMany` is that transaction) and a resolved
 * write is durable. Errors: `quota_exceeded`, `unavailable`.
 */
export declare class WebStateStore implements StateStore {
    #private;
    constructor(open: () => Promise<{
        db: WorkspaceDb;
        workspace: JournaledWorkspace;
    }>);
    get(conversationId: string, key: string): Promise<JsonValue | undefined>;
    set(conversationId: string, key: string, value: JsonValue): Promise<void>;
    delete(conversationId: string, key: string): Promise<void>;
    keys(conversationId: string): Promise<string[]>;
    getAll(conversationId: string): Promise<Record<string, JsonValue>>;
    setMany(conversationId: string, entries: ReadonlyArray<readonly [string, JsonValue | undefined]>): Promise<void>;
}
