import type { SearchFileStat, SearchHelper, SearchHelperJob, SharedBatchKind, SharedCount, SharedFilesSorter, SharedWork as SharedWorkView } from '../src/core/types.js';
import type { WalkFile } from '../src/fs/walk.js';
/** Fewest files a count shares with the source's helper thread (below, the thread costs more than it saves). */
export declare const HELPED_MIN_FILES = 256;
/** Files of one batch handed to the helper thread: the grain at which the two threads meet. */
export declare const SHARED_BATCH_FILES = 32;
/**
 * An empty array whose elements V8 keeps as objects from the start. `[]` starts as an array of small
 * integers, which the first push of a string or object turns into another kind, and optimized code
 * that pushes went back to the interpreter over it every search or so.
 */
export declare function objectArray<T>(): T[];
/** A shared count once the walk is done, and its batches. */
export interface SharedWork extends SharedWorkView {
    count: SharedCount;
    /** The batches posted, by index. */
    batches: Array<{
        paths: string[];
        kind: SharedBatchKind;
    }>;
    /** Whether the helper's cache holds a file (see {@link SearchHelper.owns}). */
    owns: (path: string) => boolean;
    /** Set by {@link countShared}: the helper stopped at the deadline. */
    stopped: boolean;
}
/**
 * The calling thread's side of a count shared with a {@link SearchHelper}, fed by the walk
 * (`walkWorkspace`'s `onFiles`): once the walk has listed {@link HELPED_MIN_FILES} files it starts
 * the {@link SharedCount}, and from then on sorts each listed file into `stat` batches (files this
 * thread's cache holds), the helper's batches (files its cache holds) and open batches.
 */
export declare class SharedFiles implements SharedFilesSorter {
    #private;
    readonly helper: SearchHelper;
    /** Whether the calling thread's cache holds a file. */
    readonly holds: (path: string) => boolean;
    constructor(helper: SearchHelper, 
    /** Whether the calling thread's cache holds a file. */
    holds: (path: string) => boolean);
    /** Takes the walk's files (the last `added` are new); `job` describes the count, asked for once. */
    add(files: ReadonlyArray<Pick<WalkFile, 'path'>>, added: number, job: () => SearchHelperJob, signal: AbortSignal | undefined): void;
    /** The walk is done: the rest is posted and the count told so. Undefined when the walk found too few files to share. */
    end(): SharedWork | undefined;
    /** The walk failed: the helper drops the count. */
    cancel(): void;
}
/**
 * Counts `work` on this thread beside the helper: `open` and `stat` batches from the last one down
 * until it meets a batch the helper took; then it takes the helper's codes (`tally`), counts the files
 * of the `stat` batches the helper took (from this thread's cache, with the helper's `lstat`), and
 * counts here what the helper left (files over its size limit, batches it never reached because it
 * was busy, gone, or stopped). `countHere(path, keep, stat)` counts one file on this thread (`stat`:
 * its `lstat` as the helper took it, null when it was gone; undefined: take it now) and answers
 * whether the time limit stopped the search; `stop()` tells whether it has.
 */
export declare function countShared(work: SharedWorkView, countHere: (path: string, keep: boolean, stat?: SearchFileStat | null) => Promise<boolean>, stop: () => boolean, tally: (path: string, code: number) => void): Promise<void>;
