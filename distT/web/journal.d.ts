import { MemoryFs } from '../src/fs/memfs.js';
import type { FsPromises, JsonValue } from '../src/core/types.js';
import type { CommitBatch, FsRecord, StoredSubtree } from './idb.js';
/** Where a {@link JournaledWorkspace} persists: one atomic commit per batch, and subtree reads for rollback. */
export interface JournalStore {
    commit(batch: CommitBatch): Promise<void>;
    readSubtrees(paths: readonly string[]): Promise<Map<string, StoredSubtree>>;
}
/**
 * The live workspace of the web platform: an in-memory {@link MemoryFs} loaded from IndexedDB at mount,
 * behind an {@link FsPromises} wrapper that journals the paths each operation changes. `commit()`
 * turns the journal into one {@link CommitBatch} (file bytes, directories, symlinks, deletions of whole
 * subtrees) written in ONE IndexedDB transaction whose `complete` event is awaited; commits are
 * serialised so an older snapshot never lands after a newer one. When a commit fails (quota, storage
 * gone) the journalled paths are reloaded from IndexedDB, so memory again equals what is stored.
 *
 * Why not @zenfs/dom's IndexedDB backend: through its promise API it does one transaction per
 * operation (≈ 7 ms per small file), and its sync API acknowledges before storing.
 * Paths outside `root` live in memory only.
 */
export declare class JournaledWorkspace {
    #private;
    readonly root: string;
    readonly fs: FsPromises;
    constructor(sync: MemoryFs, root: string, store: JournalStore);
    /** Creates a journaled workspace on a fresh {@link MemoryFs} holding `records` (key order). */
    static mount(root: string, records: ReadonlyArray<[string, FsRecord]>, store: JournalStore): Promise<JournaledWorkspace>;
    /**
     * A number that changes with every change made through {@link fs} and every rollback: while it is
     * unchanged the tree is as it was (what {@link Platform.changeCount} promises the search tools).
     */
    get changes(): number;
    /**
     * The live tree itself, for readers that never change it (the search tools' source reads its
     * stored bytes); every change goes through {@link fs}, so it is journalled and counted.
     */
    get tree(): MemoryFs;
    /** Number of paths changed since the last commit. */
    get pending(): number;
    /**
     * Makes every change so far durable, together with `state` entries, in one transaction; resolves
     * after IndexedDB reports `complete`. On failure the changed paths are reloaded from storage and the
     * error (ToolError `quota_exceeded` / `unavailable`) is rethrown.
     */
    commit(state?: CommitBatch['state']): Promise<void>;
    /**
     * Runs `fn` with commits deferred: `commit()` calls made meanwhile (file flushes, state writes) only
     * accumulate, and everything is committed in ONE transaction when the outermost batch ends. Resolves
     * with `fn`'s value after that commit; rejects with the commit's ToolError (after the rollback of every
     * change made during the batch) or with `fn`'s error. The caller must keep other writers out meanwhile:
     * their commits would be deferred too.
     */
    batch<T>(fn: () => Promise<T>): Promise<T>;
}
/** A JSON state value as `commit` takes it. */
export type StateEntry = [conversationId: string, key: string, value: JsonValue | undefined];
