import type { FsDirent, FsPromises, FsStats } from '../src/core/types.js';
/** Options of {@link HandleFs}. */
export interface HandleFsOptions {
    /** Every write fails with `EACCES` (→ `permission_denied`) naming this mount. */
    readOnly?: boolean;
    /** How messages name this folder, e.g. `the folder "src"` (default: the handle's name in quotes). */
    label?: string;
}
/** The async-iterable half of the handle (in lib `DOM.AsyncIterable`, which this project does not load). */
export type IterableDirectory = FileSystemDirectoryHandle & {
    entries(): AsyncIterableIterator<[string, FileSystemDirectoryHandle | FileSystemFileHandle]>;
    keys(): AsyncIterableIterator<string>;
};
/** A Node-style filesystem error (`code` is what the tools and toToolError read). */
export declare function fsError(code: string, syscall: string, path: string, detail: string): Error;
/** The components of `path`, with `.` dropped and `..` applied (never above the root). */
export declare function split(path: string): string[];
/**
 * The File System Access API's `FileSystemDirectoryHandle` (a folder from `showDirectoryPicker`, or the
 * Origin Private File System's `navigator.storage.getDirectory()`) as toolhost's {@link FsPromises},
 * addressed from `/` (the handle itself). Used directly rather than through ZenFS's WebAccess backend:
 * measured several times faster per created file, and every call reaches the folder, so changes made
 * by another app are seen by the next call.
 *
 * - A write goes through `createWritable()`: the browser writes a swap file and moves it into place on
 *   `close()`, which this awaits, so a resolved `writeFile` is on disk and no reader sees half a file.
 * - No symbolic links (the API has none): `symlink` fails with `EPERM`, `readlink` with `EINVAL`.
 * - A folder that disappeared (moved or deleted outside) answers ToolError `unavailable`; a withdrawn
 *   permission answers `permission_denied`; both say how to reopen it.
 * - Directory handles are cached by path and dropped on `rm`/`rename`. Chromium's handles name a path,
 *   not a node (measured: a handle to a folder removed and made again outside reads the new one), so a
 *   cached handle never serves a stale folder; one removed outside answers `ENOENT`.
 * - Whether the folder itself is gone is checked on a `NotFoundError`, trusting a successful check for
 *   250 ms.
 */
export declare class HandleFs implements FsPromises {
    #private;
    readonly root: FileSystemDirectoryHandle;
    readonly readOnly: boolean;
    constructor(root: FileSystemDirectoryHandle, options?: HandleFsOptions);
    readFile(path: string): Promise<Uint8Array>;
    writeFile(path: string, data: Uint8Array | string): Promise<void>;
    mkdir(path: string, options?: {
        recursive?: boolean;
    }): Promise<unknown>;
    readdir(path: string): Promise<string[]>;
    readdir(path: string, options: {
        withFileTypes: true;
    }): Promise<FsDirent[]>;
    stat(path: string): Promise<FsStats>;
    lstat(path: string): Promise<FsStats>;
    readlink(path: string): Promise<string>;
    symlink(_target: string, path: string): Promise<void>;
    rename(oldPath: string, newPath: string): Promise<void>;
    rm(path: string, options?: {
        recursive?: boolean;
        force?: boolean;
    }): Promise<void>;
    unlink(path: string): Promise<void>;
}
