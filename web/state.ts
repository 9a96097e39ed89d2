import { promisifyRequest } from 'idb-keyval';
import type { JsonValue, StateStore } from '../src/core/types.js';
import type { WorkspaceDb } from './idb.js';
import type { JournaledWorkspace } from './journal.js';

/**
 * Tool state in the workspace's IndexedDB `state` object store, keyed `[conversationId, key]`, read
 * through idb-keyval's store shape. Every write goes through the workspace's commit path, so a call's
 * state and its file changes land in ONE transaction (`setMany` is that transaction) and a resolved
 * write is durable. Errors: `quota_exceeded`, `unavailable`.
 */
export class WebStateStore implements StateStore {
  readonly #open: () => Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }>;

  constructor(open: () => Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }>) {
    this.#open = open;
  }

  async get(conversationId: string, key: string): Promise<JsonValue | undefined> {
    const { db } = await this.#open();
    return db.stateStore('readonly', (store) => promisifyRequest(store.get([conversationId, key]) as IDBRequest<JsonValue | undefined>));
  }

  async set(conversationId: string, key: string, value: JsonValue): Promise<void> {
    await this.setMany(conversationId, [[key, value]]);
  }

  async delete(conversationId: string, key: string): Promise<void> {
    await this.setMany(conversationId, [[key, undefined]]);
  }

  async keys(conversationId: string): Promise<string[]> {
    const { db } = await this.#open();
    return (await db.conversationEntries(conversationId)).map(([key]) => key);
  }

  async getAll(conversationId: string): Promise<Record<string, JsonValue>> {
    const { db } = await this.#open();
    return Object.fromEntries(await db.conversationEntries(conversationId));
  }

  async setMany(conversationId: string, entries: ReadonlyArray<readonly [string, JsonValue | undefined]>): Promise<void> {
    const { workspace } = await this.#open();
    // JSON round trip: the stored value never aliases the caller's object, and a non-JSON value fails here.
    await workspace.commit(
      entries.map(([key, value]) => [conversationId, key, value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as JsonValue)]),
    );
  }
}
