// The filesystem port: the subset of `node:fs/promises` the tools use, which every platform implements.

/** What kind of file an entry is, as both {@link FsStats} and {@link FsDirent} tell it. */
export interface FsFileKind {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  /** A named pipe; absent where the platform has none (as the three below). */
  isFIFO?(): boolean;
  isSocket?(): boolean;
  isCharacterDevice?(): boolean;
  isBlockDevice?(): boolean;
}

/** File metadata as returned by `stat`/`lstat` (sizes in bytes, times in ms since the epoch). */
export interface FsStats extends FsFileKind {
  size: number;
  mtimeMs: number;
  mode?: number;
  /** Hard links to the file, where the platform has them. */
  nlink?: number;
}

/** A directory entry with its type, as `readdir(path, { withFileTypes: true })` gives it. */
export interface FsDirent extends FsFileKind {
  name: string;
}

/**
 * The filesystem port: the subset of `node:fs/promises` that the tools use, supplied by each platform
 * (toolhost's in-memory MemoryFs, node:fs/promises, or ZenFS for OPFS). Paths are absolute POSIX paths; errors carry Node-style `code`s (`ENOENT`, ...).
 */
export interface FsPromises {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown>;
  readdir(path: string): Promise<string[]>;
  readdir(path: string, options: { withFileTypes: true }): Promise<FsDirent[]>;
  stat(path: string): Promise<FsStats>;
  lstat(path: string): Promise<FsStats>;
  readlink(path: string): Promise<string>;
  symlink(target: string, path: string): Promise<void>;
  rename(oldPath: string, newPath: string): Promise<void>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  unlink(path: string): Promise<void>;
  /**
   * Optional: replaces `path`'s content so that readers see the whole old or the whole new content,
   * keeping what `writeFile` to a temporary file plus `rename` would lose (the file's mode, owner and
   * hard links), and refusing a file the host may not write (`permission_denied`) instead of replacing
   * it. `writeFileAtomic` uses it when present.
   */
  writeFileAtomic?(path: string, data: Uint8Array | string): Promise<void>;
  /**
   * Optional: at most `length` bytes of the file at `path` from byte `position` (fewer past its end,
   * none from its end on), reading only those, so a tool can take a window of a file of any size.
   * Errors as `readFile`'s. Where it is absent, tools read the whole file (and refuse one over their cap).
   */
  readRange?(path: string, position: number, length: number): Promise<Uint8Array>;
  /**
   * Optional: the one spelling of `path` on a filesystem where one name can be written several ways
   * (synchronous, no disk access). Node's port takes names that are not UTF-8 in a `\xNN` form and
   * answers its canonical form there (an escape that spells valid UTF-8 becomes its characters:
   * `\x61.txt` is `a.txt`). `resolveWorkspacePath` applies it to every path argument first, so results,
   * messages and per-file state (`stale_file` fingerprints) see one path per file. Where it is absent
   * a path is its own spelling (memory, browser: a backslash is an ordinary character). Throws
   * ToolError `invalid_arguments` for a spelling that names nothing (an escaped `/` or NUL).
   */
  canonicalPath?(path: string): string;
}
