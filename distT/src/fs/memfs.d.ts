import type { FsDirent, FsStats } from '../core/types.js';
/** A filesystem error shaped like Node's: `code`, `errno`, `syscall`, `path` (and `dest` for rename). */
export interface MemoryFsError extends Error {
    code: string;
    errno: number;
    syscall: string;
    path?: string;
    dest?: string;
}
interface NodeBase {
    readonly ino: number;
    mode: number;
    mtimeMs: number;
    ctimeMs: number;
    readonly birthtimeMs: number;
}
interface FileNode extends NodeBase {
    readonly kind: 'file';
    data: Uint8Array;
}
interface DirNode extends NodeBase {
    readonly kind: 'dir';
    readonly entries: Map<string, FsNode>;
}
interface LinkNode extends NodeBase {
    readonly kind: 'symlink';
    readonly target: string;
}
type FsNode = FileNode | DirNode | LinkNode;
/** The device and pipe predicates of Node's `fs.Stats` and `fs.Dirent`: nothing here is one. */
declare class NotADevice {
    isBlockDevice(): boolean;
    isCharacterDevice(): boolean;
    isFIFO(): boolean;
    isSocket(): boolean;
}
/** `stat`/`lstat` result with the fields and type predicates of Node's `fs.Stats`. */
declare class MemoryStats extends NotADevice implements FsStats {
    readonly dev = 0;
    readonly ino: number;
    readonly mode: number;
    readonly nlink: number;
    readonly uid = 0;
    readonly gid = 0;
    readonly rdev = 0;
    readonly size: number;
    readonly blksize = 4096;
    readonly blocks: number;
    readonly atimeMs: number;
    readonly mtimeMs: number;
    readonly ctimeMs: number;
    readonly birthtimeMs: number;
    constructor(node: FsNode);
    get atime(): Date;
    get mtime(): Date;
    get ctime(): Date;
    get birthtime(): Date;
    isFile(): boolean;
    isDirectory(): boolean;
    isSymbolicLink(): boolean;
}
/**
 * A purpose-built in-memory POSIX filesystem with the synchronous calls of `node:fs` that toolhost's
 * platforms use (`readFileSync`, `writeFileSync`, `mkdirSync`, `readdirSync`, `statSync`, `lstatSync`,
 * `readlinkSync`, `symlinkSync`, `renameSync`, `rmSync`, `unlinkSync`, `realpathSync`, `existsSync`).
 *
 * A folder is a `Map` from name to node, so creating, finding or removing an entry costs the same in a
 * folder of ten entries or of a hundred thousand (ZenFS's InMemory store rewrote a folder's whole
 * listing on every create: measured 1.0–1.6 s for 1,000 `create_file` calls on Node, and its bundle
 * was 80 KiB min+gzip). Semantics follow Linux as Node 20 reports it, and are pinned against real
 * `node:fs` by a differential test (memfs.test.ts): paths are absolute (a relative path is taken from
 * `/`); `..` is resolved physically (after symlinks, as the kernel does) and stays at `/` on `/`;
 * symlinks are followed in every component and, except for `lstat`/`readlink`/`rm`/`unlink`/`rename`/
 * `symlink`/`mkdir`, in the last one, with `ELOOP` after 40; a trailing `/` or `/.` requires a folder
 * (and makes `lstat`/`readlink` follow); a last component `.`/`..`/`/` cannot be created, renamed or
 * removed (`EEXIST`, `EBUSY`, `EISDIR`, as the kernel says). `mkdirSync` with `recursive` and `rmSync`
 * run Node's own algorithms (its mkdirp: lexical parents, the first folder created returned as
 * written; its rimraf: `lstat`, then `unlink` or `rmdir`). Errors are `Error`s with Node's `code`
 * (`ENOENT`, also for an empty path; `EEXIST`, `ENOTDIR`, `EISDIR`, `ENOTEMPTY`, `EINVAL`, `ELOOP`,
 * `EBUSY`; `ENAMETOOLONG` for a component over 255 UTF-8 bytes or a path of 4,096 or more, Linux's
 * limits, which also bound how deep a tree can get; and `ERR_FS_EISDIR` for `rm` of a folder
 * without `recursive`), `errno`, `syscall`, `path` (`dest` for
 * `rename` and `symlink`) and the message Node would give. Each call completes synchronously, so no
 * reader ever sees half a write. Data written is copied in; data read is copied out (but for
 * `storedFileSync`, which gives readers that only look the stored bytes). Times are
 * `Date.now()` milliseconds; modes are 0644 for files, 0755 for folders, 0777 for symlinks; there is
 * no permission checking.
 */
export declare class MemoryFs {
    #private;
    /** Bytes of the file at `path` (a copy). Errors: `ENOENT`, `EISDIR` (syscall `read`, no path, as Node), `ENOTDIR`, `ELOOP`. */
    readFileSync(path: string): Uint8Array;
    /**
     * At most `length` bytes of the file at `path` from byte `position` (a copy of just those; fewer
     * past its end). Errors as {@link MemoryFs.readFileSync}.
     */
    readRangeSync(path: string, position: number, length: number): Uint8Array;
    /**
     * The regular file at `path` as stored, for readers that only look (the search tools): its bytes
     * themselves, not a copy, with its `ino` and `mtimeMs`. Never modify the bytes: a write gives a file
     * new bytes instead of changing the old ones, so bytes once returned stay as they were. A final
     * symlink is not followed. Undefined (never an error) when nothing is there, it is no regular file,
     * or the path cannot be walked.
     */
    storedFileSync(path: string): {
        data: Uint8Array;
        ino: number;
        mtimeMs: number;
    } | undefined;
    /**
     * Replaces or creates the file at `path` (following a final symlink, even a dangling one: its target
     * is created) with `data` (a string is UTF-8 encoded), as open(2) with `O_CREAT`. Errors: `ENOENT`
     * (no parent folder), `EISDIR` (a folder, or a path ending in `/`, `.` or `..`), `ENOTDIR`, `ELOOP`.
     */
    writeFileSync(path: string, data: Uint8Array | string): void;
    /**
     * Creates a folder (a final symlink is not followed: it exists). With `recursive`, creates missing
     * parents too (Node's algorithm: it climbs the path as written, `..` included), returns the first
     * folder it created as written in `path` (undefined when none) and accepts an existing folder or
     * symlink to one. Errors: `EEXIST`, `ENOENT` (no parent without `recursive`; a dangling symlink with
     * it), `ENOTDIR`, `ELOOP`.
     */
    mkdirSync(path: string, options?: {
        recursive?: boolean;
    }): string | undefined;
    /**
     * Names in the folder at `path` (insertion order), or {@link FsDirent}s with `withFileTypes` (their
     * `parentPath` is `path` as given, as Node's). Errors: `ENOENT`, `ENOTDIR`, `ELOOP`.
     */
    readdirSync(path: string): string[];
    readdirSync(path: string, options: {
        withFileTypes: true;
    }): FsDirent[];
    /** Metadata of what `path` names, following symlinks. Errors: `ENOENT`, `ENOTDIR`, `ELOOP`. */
    statSync(path: string): MemoryStats;
    /**
     * Sets the access and modification times of what `path` names (following symlinks), as
     * `fs.utimesSync`: a number is seconds since the epoch, a Date its own time. Only the modification
     * time is kept (access times are not tracked: `atimeMs` reports it too). Errors: `ENOENT`,
     * `ENOTDIR`, `ELOOP`.
     */
    utimesSync(path: string, atime: number | Date, mtime: number | Date): void;
    /** Metadata of `path` itself (a final symlink is not followed, unless a `/` follows it). Errors: `ENOENT`, `ENOTDIR`, `ELOOP`. */
    lstatSync(path: string): MemoryStats;
    /** Whether `path` names something (following symlinks); never throws. */
    existsSync(path: string): boolean;
    /** The target text of the symlink at `path`. Errors: `ENOENT`, `EINVAL` (not a symlink), `ENOTDIR`, `ELOOP`. */
    readlinkSync(path: string): string;
    /**
     * Creates a symlink at `path` whose target text is `target` (not checked, except that it may not be
     * empty). Errors (with Node's `path` = target and `dest` = path): `EEXIST` (anything there, or a last
     * component `.`/`..`), `ENOENT` (no parent, an empty target, or a trailing `/` on a missing name),
     * `ENOTDIR`, `ELOOP`.
     */
    symlinkSync(target: string, path: string): void;
    /** The path with every symlink and `..` resolved, as realpath(3). Errors: `ENOENT`, `ENOTDIR`, `ELOOP`. */
    realpathSync(path: string): string;
    /**
     * Moves `from` (a final symlink is not followed) to `to`, replacing a file there, or an empty folder
     * when `from` is a folder, as rename(2). Errors: `ENOENT`, `ENOTDIR`, `EISDIR`, `ENOTEMPTY` (also:
     * `to` holds `from`), `EINVAL` (a folder into itself), `EBUSY` (a last component `.`, `..` or `/`).
     */
    renameSync(from: string, to: string): void;
    /**
     * Removes what `path` names (a symlink itself, never its target; with a trailing `/` a symlink to a
     * folder fails `ENOTDIR`, as Node's); a folder needs `recursive`. `force` ignores a missing path.
     * Runs Node 20's algorithm (lstat to validate, then unlink, or rmdir for a folder), so errors carry
     * its syscalls: `ENOENT`/`ENOTDIR`/`ELOOP` from `lstat` (or `unlink` with `force` and `recursive`),
     * `ERR_FS_EISDIR` (a folder without `recursive`), `EINVAL` (a path ending in `.`), `EBUSY` (`/`)
     * from `rmdir`. Deliberately not Node: a recursive rm of a path ending in `..` fails `ENOTEMPTY`
     * (rmdir(2)'s answer) and removes nothing; Node empties part of that folder, in disk order.
     */
    rmSync(path: string, options?: {
        recursive?: boolean;
        force?: boolean;
    }): void;
    /**
     * Removes a file or symlink (never following it), as unlink(2). Errors: `ENOENT`, `EISDIR` (a folder,
     * or a last component `.`, `..` or `/`), `ENOTDIR` (a trailing `/` on a non-folder), `ELOOP`.
     */
    unlinkSync(path: string): void;
}
export {};
