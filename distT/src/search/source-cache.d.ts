import type { SearchFileStat, SearchSource } from '../core/types.js';
import { type SkipKind } from '../fs/walk.js';
import type { SearchPattern } from './dialect.js';
/** Bytes of file content a source's cache keeps, unless the source says otherwise. */
export declare const DEFAULT_CACHE_BYTES: number;
/** Bytes of one slab: cached file contents are packed into slabs of this size. */
export declare const SLAB_BYTES: number;
/** One file as {@link SourceCache.load} gives it. */
export interface SourceFile {
    /**
     * null: binary (NUL in the first 8 KiB, or not UTF-8); never decoded. The bytes of a file the
     * cache does not keep are only valid until the next {@link SourceCache.load}.
     */
    bytes: Uint8Array | null;
    /** Bytes to skip at the start (a UTF-8 BOM). */
    skip: number;
    /**
     * The literal counted last in these bytes (see {@link rememberCount}), and how many lines hold it
     * (0: absent); earlier ones in `moreCounts`. Kept in the file's own fields, not a map per file: a
     * cache of thousands of files is then that many objects fewer for the garbage collector to move.
     */
    literal: string | undefined;
    literalCount: number;
    moreCounts: Map<string, number> | undefined;
}
/**
 * Notes in `file` that `count` of its lines hold `literal`, so a repeated search for it while the
 * file is unchanged (the cache keeps the same entry only then) answers without scanning.
 */
export declare function rememberCount(file: SourceFile, literal: string, count: number): void;
/** How many lines of `file` hold `literal`, when {@link rememberCount} noted it (undefined: not known). */
export declare function knownCount(file: SourceFile, literal: string): number | undefined;
/** How long slabs of a released cache stay held for the next cache (ms), as an allocator keeps freed pages a while. */
export declare const SPARE_SLAB_MS = 10000;
/** Spare slabs held (not only weakly) right now: for tests and diagnostics. */
export declare function spareSlabCount(): number;
/**
 * The search tools' cache over a {@link SearchSource}: file bytes validated by each file's (size, mtime,
 * inode), within a byte budget (default {@link DEFAULT_CACHE_BYTES}) that counts whole slabs and a
 * per-file overhead. Contents are packed into 16 MiB slabs (a file over 4 MiB gets
 * one of its own), read straight into place: no allocation per file, nothing for the garbage collector
 * to trace. A changed or vanished file's entry is dropped (its slab is freed once empty); once the
 * budget is full new files are read into one reused buffer and not kept (so a tree larger than the
 * budget keeps its first part cached: least-recently-used eviction would keep nothing a sequential
 * scan reuses). Files changed within a second of being read are read again. A repeated search costs
 * one `stat` per cached file.
 */
export declare class SourceCache {
    #private;
    readonly source: SearchSource;
    readonly budget: number;
    constructor(source: SearchSource, budget?: number);
    /** Whether an entry for `path` is kept (whether or not the file changed since). */
    holds(path: string): boolean;
    /** Budget bytes in use (slabs and per-file overheads). */
    get used(): number;
    /**
     * The file at `path`: undefined when it is gone or not a regular file, 'large' over `limit` bytes
     * (default: the search limit). `keep: false` reads a file not cached yet into the reused buffer and
     * does not keep it (a file another thread's cache holds). `stated`: the file's `lstat` taken just
     * before (by another thread; null: it was gone), used instead of taking it here to validate a cached
     * entry.
     */
    load(path: string, limit?: number, keep?: boolean, stated?: SearchFileStat | null): SourceFile | 'large' | undefined;
    /**
     * The decoded text of a loaded text file. Not kept: decoding costs about as much as V8's regex over
     * the text (UTF-8 to UTF-16 for non-ASCII files), but keeping texts doubled the memory a cache holds, and each fresh cache's texts stayed on the heap as
     * garbage until a full collection (a peak of 580 MiB over the search bench's Node searches, 276 MiB
     * without them).
     */
    text(file: SourceFile): string;
    /** Empties the cache and gives its slabs back for the next cache to reuse. */
    release(): void;
}
/** The cache of `source` (one per source, dropped with it). */
export declare function cacheOf(source: SearchSource): SourceCache;
/** Empties the cache of `source` (if it has one) and gives its memory back for other caches to reuse. */
export declare function releaseCache(source: SearchSource): void;
/**
 * Counts the lines of `bytes` holding `needle` (bytes, no line break in it), on bytes only:
 * `indexOf` to each occurrence, then to the end of its line (a `\r` is looked for within that line
 * only, so a file without one is not read twice). Stops at `deadline` (`stopped`).
 */
export declare function countLiteralLines(source: SearchSource, bytes: Uint8Array, from: number, needle: Uint8Array, deadline: number): {
    count: number;
    stopped: boolean;
};
/** {@link SearchHelperAnswer} codes: the file was not reached (the deadline came first). */
export declare const FILE_NOT_REACHED = -1;
/** The file was gone or not a regular file. */
export declare const FILE_GONE = -2;
/** The file was over the search's size limit. */
export declare const FILE_LARGE = -3;
/** The file was binary. */
export declare const FILE_BINARY = -4;
/** Codes of files skipped because they could not be read, by why (`FILE_GONE` is `vanished`). */
export declare const FILE_SKIPPED: Readonly<Record<SkipKind, number>>;
/** The {@link SkipKind} of a helper's code, or undefined for a code that is not a skip. */
export declare function skipKindOfCode(code: number): SkipKind | undefined;
/** The bytes a search finds first on bytes: the literal, or the pattern's required text; none when it holds a line break. */
export declare function needleOf(pattern: SearchPattern): Uint8Array | undefined;
/**
 * Matching lines of one loaded text file, counted only: bytes first (a file without the needle is
 * never decoded, a literal is counted on bytes and the count remembered with the file, see
 * {@link rememberCount}), else {@link scanText} over its decoded text. `stopped`: the deadline came
 * first (`count` is what was found until then).
 */
export declare function countText(cache: SourceCache, file: SourceFile, pattern: SearchPattern, needle: Uint8Array | undefined, deadline: number, pause: () => Promise<void>): Promise<{
    count: number;
    stopped: boolean;
}>;
/** Bytes of a text decoded at once for a count (then cut after the next `\n`: whole lines, whole characters). */
export declare const COUNT_CHUNK_BYTES: number;
