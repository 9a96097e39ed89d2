import type { FsPromises, FsStats, JsonValue, Platform, StateStore } from '../core/types.js';
/** Options of {@link createMemoryPlatform}. */
export interface MemoryPlatformOptions {
    /** Workspace root inside the in-memory filesystem: absolute, normalised (default `/workspace`). */
    root?: string;
    /**
     * Files to create before the first call: workspace-relative path, or absolute path under `root`, →
     * string or bytes. A key that leads outside `root` (`../x`, `/etc/x`: no tool could reach it), names
     * a folder, or collides with another key's folder throws a TypeError naming the key.
     */
    files?: Record<string, string | Uint8Array>;
    /** State store to use (default: a fresh {@link MemoryStateStore}). */
    state?: StateStore;
}
/**
 * Tool state kept in memory, as JSON text per conversation and key (so stored values never alias the
 * tool's objects). Lost with the process; for tests and quick starts.
 */
export declare class MemoryStateStore implements StateStore {
    #private;
    get(conversationId: string, key: string): Promise<JsonValue | undefined>;
    set(conversationId: string, key: string, value: JsonValue): Promise<void>;
    delete(conversationId: string, key: string): Promise<void>;
    keys(conversationId: string): Promise<string[]>;
    getAll(conversationId: string): Promise<Record<string, JsonValue>>;
    setMany(conversationId: string, entries: ReadonlyArray<readonly [string, JsonValue | undefined]>): Promise<void>;
}
/**
 * An {@link FsPromises} whose methods first await `load()` (called once, on the first use), so creating
 * a platform does no work and loads no filesystem code until a tool touches a file. Once loaded, calls
 * go straight to the loaded filesystem. A failed load rejects that call and is retried on the next.
 */
export declare function lazyFs(load: () => Promise<FsPromises>): FsPromises;
/** The synchronous calls {@link fsFromSync} needs (a subset of `node:fs`, as {@link MemoryFs} has them). */
export interface SyncFsLike {
    readFileSync(path: string): Uint8Array;
    writeFileSync(path: string, data: Uint8Array | string): void;
    mkdirSync(path: string, options?: {
        recursive?: boolean;
    }): unknown;
    readdirSync(path: string, options?: {
        withFileTypes: true;
    }): unknown[];
    statSync(path: string): FsStats;
    lstatSync(path: string): FsStats;
    readlinkSync(path: string): string;
    symlinkSync(target: string, path: string): void;
    renameSync(oldPath: string, newPath: string): void;
    rmSync(path: string, options?: {
        recursive?: boolean;
        force?: boolean;
    }): void;
    unlinkSync(path: string): void;
    /** Optional: at most `length` bytes of the file from `position`, as {@link FsPromises.readRange}. */
    readRangeSync?(path: string, position: number, length: number): Uint8Array;
}
/**
 * An {@link FsPromises} over an in-memory filesystem's synchronous calls ({@link MemoryFs}): each
 * operation, `writeFile` included, completes in one synchronous step that no other call can observe
 * halfway (what {@link Platform.atomicWrites} means). Errors reject the returned promise, with the
 * same Node-style `code` as `node:fs/promises` would give, their messages tidied by `tidyFsError`
 * (an `ENAMETOOLONG` names its path shortened).
 */
export declare function fsFromSync(sync: SyncFsLike): FsPromises;
/**
 * A platform with an in-memory workspace (its own {@link MemoryFs}) and in-memory tool state.
 * Capabilities: no commands, no web search, not persistent; `run_command` and `web_search`
 * return their empty results. Creating it only builds the tree of `options.files`. Every operation
 * completes in one synchronous step ({@link fsFromSync}), so `writeFile` is atomic for readers and
 * `atomicWrites` is true; `changeCount()` counts the changes made through `fs`. The search tools read
 * the tree through its `searchSource` ({@link createMemorySearchSource}): bytes as stored, searched
 * and validated as bytes, decoded only where a match is reported.
 *
 * Errors (thrown at creation, the host's mistakes): a TypeError naming the option for a `root` that is
 * not an absolute path (it is normalised: `/a/../ws/` becomes `/ws`), a bad `files` key or content, or
 * a `state` that is not a StateStore.
 *
 * Not ZenFS's InMemory backend: the tree is toolhost's own {@link MemoryFs}, because
 * ZenFS's InMemory store rewrote a folder's listing on every create (1,000 `create_file` calls took
 * 1.0–1.6 s on Node; the same now take a few ms) and weighed 80 KiB min+gzip in the browser worker.
 * ZenFS remains the filesystem of the web platform's OPFS backend.
 */
export declare function createMemoryPlatform(options?: MemoryPlatformOptions): Platform;
