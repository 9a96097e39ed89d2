import type { FsPromises, FsStats } from '../core/types.js';
/** Most symlinks followed while resolving one path (Linux's MAXSYMLINKS). */
export declare const MAX_SYMLINK_HOPS = 40;
/** Where a path is resolved: the platform filesystem, the workspace root and the directory relative paths start from. */
export interface WorkspaceScope {
    fs: FsPromises;
    root: string;
    cwd: string;
}
/** Options of {@link resolveWorkspacePath}. */
export interface ResolveOptions {
    /** Follow a symlink in the last component (default true); false resolves the link itself (lstat semantics). */
    followFinal?: boolean;
    /** Argument name used in error messages (default `file_path`). */
    argName?: string;
}
/** Splits a POSIX path into its non-empty components. */
export declare function splitPath(path: string): string[];
/** Joins POSIX path parts and normalises `.` and `..` lexically (`..` never climbs above `/`). */
export declare function joinPath(...parts: string[]): string;
/** The parent directory of an absolute POSIX path (`/` for `/`). */
export declare function dirname(path: string): string;
/** The last component of a POSIX path (`''` for `/`). */
export declare function basename(path: string): string;
/** True when `path` is `root` or lies under it (both absolute and normalised). */
export declare function isInside(root: string, path: string): boolean;
/** `path` relative to `base` (`''` when equal); `path` must be inside `base`. */
export declare function relativePath(base: string, path: string): string;
/**
 * Resolves a model-given path to a real absolute path inside the workspace, following symlinks one
 * component at a time with its own hop count, so a symlink loop fails fast instead of reaching the
 * filesystem's own resolver (ZenFS, used for OPFS, loops forever on one). Components that do not exist yet are kept
 * as written, so the result also names files about to be created. The path is first put in the
 * filesystem's one spelling (`fs.canonicalPath`, where the port has it: on Node `\x61.txt` is `a.txt`),
 * so the result and every message name a file the same way however the argument wrote it.
 *
 * Errors: `invalid_arguments` for an empty path, a NUL byte or a URL (`file://...`), or a spelling
 * `canonicalPath` refuses (an escaped `/` or NUL);
 * `outside_workspace` when the path, a `..` or a symlink target leaves the root;
 * `execution_failed` for more than {@link MAX_SYMLINK_HOPS} symlinks (a loop);
 * `not_a_directory` when a middle component is a file.
 */
export declare function resolveWorkspacePath(scope: WorkspaceScope, input: string, options?: ResolveOptions): Promise<string>;
/**
 * A fresh temporary file name for an atomic write: `.toolhost-<12 base-36 characters>.tmp`, 26 bytes
 * whatever the target's name, so it always fits the filesystem's name limit (255 bytes on Linux).
 */
export declare function temporaryFileName(): string;
/**
 * True for a name {@link temporaryFileName} makes. Walks (find_file, search_dir, grep_search) skip such
 * files, so one left behind by a crash mid-write never shows up in results.
 */
export declare function isTemporaryFileName(name: string): boolean;
/**
 * Writes `data` to `path` so that readers see the whole old or the whole new content, never a mix.
 * When the platform's port has its own `writeFileAtomic` (Node: keeps the file's mode, owner and hard
 * links, refuses a file the host may not write with `permission_denied`), that does it. Otherwise the
 * bytes go to a temporary sibling ({@link temporaryFileName}) that is then renamed over the target; the
 * temporary file is removed when any step fails. With `inPlace` (pass `platform.atomicWrites`: the
 * platform's `writeFile` is already atomic for readers) it is one `writeFile` of `path`.
 */
export declare function writeFileAtomic(fs: FsPromises, path: string, data: Uint8Array | string, inPlace?: boolean): Promise<void>;
/** `fs.stat(path)`, or null when nothing is there (`ENOENT`); other errors are thrown. */
export declare function statOrNull(fs: FsPromises, path: string): Promise<FsStats | null>;
/**
 * Refuses a path argument that ends in `/` when it names something that is not a directory, as
 * `create_file` and `edit_file` refuse a trailing `/`: `a.txt/` names a directory (the system calls
 * answer ENOTDIR), so reading the file anyway would let the slip pass. Call it with the model's
 * `given` text once the resolved path is known not to be a directory. Throws `invalid_arguments`:
 * `file_path "a.txt/" ends with "/"; give a file name, e.g. a.txt`; `next` replaces what follows the `;`.
 */
export declare function refuseSlashOnFile(argName: string, given: string, next?: string): void;
/** {@link refuseSlashOnFile} for a search's `dir_path`, which may name one file to search: resolves and stats it only when it ends in `/`. */
export declare function refuseSlashOnSearchedFile(scope: WorkspaceScope, dirPath: string | undefined): Promise<void>;
