import type { SearchHelper, SearchHelperJob, SearchSource, SharedBatchKind } from '../src/core/types.js';
import { type SearchPattern } from '../src/search/dialect.js';
import { type SourceCache } from '../src/search/source-cache.js';
/**
 * The shared control words of one count (an `Int32Array` over a `SharedArrayBuffer`): the cancel flag,
 * the count's state, then one claim word per batch.
 */
export declare const CONTROL_CANCEL = 0;
export declare const CONTROL_STATE = 1;
export declare const CONTROL_FIRST_BATCH = 2;
/** {@link CONTROL_STATE}: the helper has not started on the count yet. */
export declare const STATE_WAITING = 0;
/** {@link CONTROL_STATE}: the helper is on it (it answers). */
export declare const STATE_STARTED = 1;
/** {@link CONTROL_STATE}: the caller took it back before the helper started (it never will). */
export declare const STATE_TAKEN_BACK = 2;
/** A batch's claim word: open. */
export declare const BATCH_OPEN = 0;
/** A batch's claim word: the calling thread counts it. */
export declare const BATCH_CALLER = 1;
/** A batch's claim word: the helper counts it (claimed, or its own from the start). */
export declare const BATCH_HELPER = 2;
/** Batches of one count the helper takes part in; later ones are the caller's. */
export declare const MAX_SHARED_BATCHES = 16384;
/** Messages to the worker: a platform's root (`open`) or its end (`close`), and a shared count's start, batches, end and cancel. */
export type WorkerMessage = {
    type: 'open';
    platform: number;
    root: string;
    cacheBytes: number;
} | {
    type: 'close';
    platform: number;
} | ({
    type: 'count';
    platform: number;
    id: number;
    control: Int32Array;
} & SearchHelperJob) | {
    type: 'batch';
    id: number;
    index: number;
    paths: string[];
    kind: SharedBatchKind;
} | {
    type: 'end';
    id: number;
} | {
    type: 'cancel';
    id: number;
};
/** The worker's answer to a count. */
export interface WorkerAnswer {
    id: number;
    /** Indexes of the count batches it did, with their codes. */
    batches?: number[];
    codes?: Int32Array[];
    /** Indexes of the stat batches it did, with their stats. */
    statBatches?: number[];
    stats?: Float64Array[];
    stopped?: boolean;
    error?: {
        code: string;
        message: string;
    };
}
/** A count's pattern as the helper runs it. */
export declare function helperPattern(job: SearchHelperJob): Promise<{
    pattern: SearchPattern;
    needle: Uint8Array | undefined;
}>;
/**
 * Counts `paths` over `cache` (the helper's loop, per batch): per path the same steps as the search
 * tools' own count. Codes as in {@link SearchHelperAnswer} (a file that could not be read: its
 * `FILE_SKIPPED` code); `stopped`: the deadline came first.
 * Throws what `pause` throws (the helper's cancel check).
 */
export declare function countPaths(cache: SourceCache, compiled: {
    pattern: SearchPattern;
    needle: Uint8Array | undefined;
}, paths: readonly string[], job: SearchHelperJob, pause: () => Promise<void>): Promise<{
    codes: Int32Array;
    stopped: boolean;
}>;
/**
 * The `lstat` of each of `paths` (a `stat` batch), three numbers a path: size, mtimeMs, ino; size NaN
 * when it is gone or not a regular file, -1 for the paths after the deadline came.
 */
export declare function statPaths(source: SearchSource, paths: readonly string[], deadline: number): {
    stats: Float64Array;
    stopped: boolean;
};
/**
 * The search helper of a Node search source over `root` (see {@link SearchHelper}): it shares large
 * counts with the process's one `worker_threads` Worker (started by the first such count, so a process
 * that never counts a large tree starts no thread; unreferenced while idle so it never keeps the
 * process alive; kept for the next platforms so its code stays compiled), which reads this root
 * through its own descriptors into a cache of its own of `cacheBytes` (half the platform's budget),
 * dropped by `close`. Batches are handed over with `postMessage` as the walk lists them and claimed
 * through a `SharedArrayBuffer` (`Atomics.compareExchange`), so neither thread waits for the other
 * while there is work. The files of the batches the worker counted are remembered as its own (`owns`)
 * for the next counts, until its cache or the worker is gone. Where the worker cannot start, or dies,
 * its batches come back uncounted and the calling thread counts them. Undefined where the built
 * worker module is missing (running from TypeScript sources).
 */
export declare function startSearchHelper(root: string, cacheBytes: number): (SearchHelper & {
    close(): void;
}) | undefined;
/**
 * Stops the process's search helper thread, if one runs: counts it had come back uncounted and are
 * finished on their calling threads, and the next count starts another. Returns whether there was one.
 */
export declare function stopSearchWorker(): boolean;
