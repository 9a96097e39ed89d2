/**
 * A mutex per key: `run(key, fn)` waits for earlier holders of the same key, then runs `fn`.
 * Used for per-path write serialisation (writes to one path never interleave). FIFO per key.
 */
export class KeyedMutex {
    #tails = new Map();
    /** Runs `fn` once every earlier `run` on `key` has settled; resolves or rejects as `fn` does. */
    async run(key, fn) {
        const previous = this.#tails.get(key) ?? Promise.resolve();
        const current = previous.then(fn, fn);
        const tail = current.catch(() => undefined);
        this.#tails.set(key, tail);
        try {
            return await current;
        }
        finally {
            if (this.#tails.get(key) === tail)
                this.#tails.delete(key);
        }
    }
}
//# sourceMappingURL=locks.js.map