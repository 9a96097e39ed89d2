import { promisifyRequest } from 'idb-keyval';
/**
 * Tool state in the workspace's IndexedDB `state` object store, keyed `[conversationId, key]`, read
 * through idb-keyval's store shape. Every write goes through the workspace's commit path, so a call's
 * state and its file changes land in ONE transaction (`setMany` is that transaction) and a resolved
 * write is durable. Errors: `quota_exceeded`, `unavailable`.
 */
export class WebStateStore {
    #open;
    constructor(open) {
        this.#open = open;
    }
    async get(conversationId, key) {
        const { db } = await this.#open();
        return db.stateStore('readonly', (store) => promisifyRequest(store.get([conversationId, key])));
    }
    async set(conversationId, key, value) {
        await this.setMany(conversationId, [[key, value]]);
    }
    async delete(conversationId, key) {
        await this.setMany(conversationId, [[key, undefined]]);
    }
    async keys(conversationId) {
        const { db } = await this.#open();
        return (await db.conversationEntries(conversationId)).map(([key]) => key);
    }
    async getAll(conversationId) {
        const { db } = await this.#open();
        return Object.fromEntries(await db.conversationEntries(conversationId));
    }
    async setMany(conversationId, entries) {
        const { workspace } = await this.#open();
        // JSON round trip: the stored value never aliases the caller's object, and a non-JSON value fails here.
        await workspace.commit(entries.map(([key, value]) => [conversationId, key, value === undefined ? undefined : JSON.parse(JSON.stringify(value))]));
    }
}
//# sourceMappingURL=state.js.map