/** A library that only some calls need, loaded on the first of them ({@link onDemand}). */
export interface OnDemand<T> {
    /** The library when it has been loaded, else undefined. */
    loaded(): T | undefined;
    /**
     * Loads the library once (later calls share the first load; after a failure the next call tries
     * again). Errors: ToolError `unavailable` when it cannot be loaded.
     */
    load(): Promise<T>;
}
/**
 * A library loaded on first use through `load` (one of the package's `#lazy` loaders: in browsers a
 * file beside toolhost's code, `lazy/<file>`, fetched by URL; on Node a dynamic import). `what` names
 * it in the `unavailable` message, which says that the app must serve that file (a bundler that
 * copied the code without it breaks the load).
 */
export declare function onDemand<T>(what: string, file: string, load: () => Promise<T>): OnDemand<T>;
