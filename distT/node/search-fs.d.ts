import type { SearchSource } from '../src/core/types.js';
/** Options of {@link createNodeSearchSource}. */
export interface NodeSearchSourceOptions {
    /** Bytes of file content the search cache keeps (default 256 MiB; with a helper, half on each thread). */
    cacheBytes?: number;
    /**
     * Share each large count with a helper thread (see `startSearchHelper`), from the
     * built package only (default true).
     */
    helper?: boolean;
}
/**
 * The search tools' reader for a real directory `root` (see `SearchSource`): synchronous `node:fs`
 * calls, which cost a few microseconds each instead of a thread-pool round trip, and no `realpath`.
 * The walk stays inside the root by construction, race-free: every directory is held open as a
 * descriptor, each one opened inside its (held) parent with `O_NOFOLLOW | O_DIRECTORY` through
 * `/proc/self/fd/<parent>/<name>`, and files are opened the same way with `O_NOFOLLOW`, so a folder
 * swapped for a link out by another process is refused, never followed. Symbolic links are listed as
 * such and never entered. At most 64 directory descriptors are held (least recently used closed).
 * Names that are not UTF-8 come and go in the lossless `\xNN` form (`node/fs/names.ts`). Each path
 * must lie lexically inside `root` (else ToolError `outside_workspace`). Bytes are searched with
 * `Buffer.indexOf` (memchr-fast) and validated with `isUtf8` (SIMD). Linux only (`/proc/self/fd`);
 * elsewhere the platform keeps using its `fs`.
 */
export declare function createNodeSearchSource(root: string, options?: NodeSearchSourceOptions): SearchSource;
