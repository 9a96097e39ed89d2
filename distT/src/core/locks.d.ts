/**
 * A mutex per key: `run(key, fn)` waits for earlier holders of the same key, then runs `fn`.
 * Used for per-path write serialisation (writes to one path never interleave). FIFO per key.
 */
export declare class KeyedMutex {
    #private;
    /** Runs `fn` once every earlier `run` on `key` has settled; resolves or rejects as `fn` does. */
    run<T>(key: string, fn: () => Promise<T>): Promise<T>;
}
