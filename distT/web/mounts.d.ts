import type { FsPromises } from '../src/core/types.js';
/** One filesystem mounted at an absolute path; it addresses its own content from `/`. */
export interface Mount {
    /** Absolute canonical path, e.g. `/workspace/docs`. */
    path: string;
    fs: FsPromises;
}
/**
 * One {@link FsPromises} over a base filesystem (absolute paths) and filesystems mounted at paths under
 * it, as a Unix mount table: the deepest mount containing a path serves it; a folder above a mount point
 * lists the mount point (and exists even where the base has no such folder), so walks and searches
 * cross mounts. A rename between two mounts fails with `EXDEV`; a symlink's target is stored as given.
 */
export declare function mountTable(base: FsPromises, mounts: readonly Mount[]): FsPromises;
/** The part of `fs` under `prefix`, addressed from `/` (so it can be mounted elsewhere). */
export declare function subtreeFs(fs: FsPromises, prefix: string): FsPromises;
/** `fs` with every write refused: `EACCES` (→ `permission_denied`) naming `label` and the path (under `prefix`, where it is mounted), and nothing changed. */
export declare function readOnlyFs(fs: FsPromises, label: string, prefix?: string): FsPromises;
