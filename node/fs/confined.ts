import { Buffer } from 'node:buffer';
import * as fs from 'node:fs';
import { posix } from 'node:path';
import { errorCode, ToolError } from '../../src/core/errors.js';
import { quoteForMessage } from '../../src/fs/text.js';
import { temporaryFileName } from '../../src/fs/paths.js';
import { withTidyFsErrors } from '../../src/fs/fs-errors.js';
import type { FsDirent, FsPromises, FsStats } from '../../src/core/types.js';
import { canonicalPath, escapeBytes, unescapePath } from './names.js';
import { createPathCheckedNodeFs, isInside, lexicalChecks } from './path-checked.js';
import { fsError, readOpenFile, readOpenRange, READ_FLAGS, specialFileError, specialType } from './read.js';

/**
 * `O_PATH` (Linux): a descriptor that names a file without opening it for I/O, so opening a FIFO or
 * device this way never blocks and has no side effect. Its value where Node runs on Linux
 * (x86, Arm, RISC-V, POWER, s390x, LoongArch: the generic value); elsewhere the descriptor port is off.
 */
const O_PATH = 0o10000000;
const O_PATH_ARCHES = new Set(['x64', 'ia32', 'arm', 'arm64', 'riscv64', 'ppc64', 's390x', 'loong64']);
const { O_DIRECTORY, O_NOFOLLOW, O_WRONLY, O_CREAT, O_EXCL, O_NONBLOCK, O_NOCTTY } = fs.constants;

/** Most symlinks followed while resolving one write target (Linux's MAXSYMLINKS). */
const MAX_HOPS = 40;

type HostPath = string | Buffer;

const call = <T>(run: (done: (error: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))));
const open = (path: HostPath, flags: number, mode = 0o666): Promise<number> => call((done) => fs.open(path, flags, mode, done));
const fstat = (fd: number): Promise<fs.Stats> => call((done) => fs.fstat(fd, done));
const lstat = (path: HostPath): Promise<fs.Stats> => call((done) => fs.lstat(path, done));
const closeAsync = (fd: number): Promise<void> => new Promise((resolve) => fs.close(fd, () => resolve()));
const unit = (run: (done: (error: NodeJS.ErrnoException | null) => void) => void): Promise<void> =>
  new Promise((resolve, reject) => run((error) => (error ? reject(error) : resolve())));

/** `/proc/self/fd/<fd>`, the directory (or file) an `O_PATH` descriptor holds. */
const fdPath = (fd: number): string => `/proc/self/fd/${fd}`;
/** `/proc/self/fd/<dirfd>/<name>`: `name` inside the directory the descriptor holds, whatever happens to its path. */
function childPath(dirfd: number, name: HostPath): HostPath {
  return typeof name === 'string' ? `/proc/self/fd/${dirfd}/${name}` : Buffer.concat([Buffer.from(`/proc/self/fd/${dirfd}/`), name]);
}

/** Whether this process can use the descriptor port: Linux with `/proc/self/fd` and `O_PATH`. */
function descriptorsWork(root: string): boolean {
  if (process.platform !== 'linux' || !O_PATH_ARCHES.has(process.arch)) return false;
  try {
    const fd = fs.openSync(root, O_PATH | O_DIRECTORY);
    try {
      return fs.readlinkSync(fdPath(fd)) === root && fs.fstatSync(fd).isDirectory();
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Options of {@link createConfinedNodeFs}. */
export interface ConfinedNodeFsOptions {
  /**
   * `'descriptors'` (default where Linux has `/proc/self/fd`): race-free, see {@link createConfinedNodeFs};
   * `'paths'`: the path-checked port (`createPathCheckedNodeFs`), which the race described there defeats.
   */
  mode?: 'descriptors' | 'paths';
}

/**
 * The FsPromises port over `node:fs`, confined to the real directory `root` on its own, whatever the
 * caller resolved (the tools also resolve with `resolveWorkspacePath`; this is the second wall), and
 * safe against a second process that swaps a directory for a symlink to outside while tools run.
 *
 * How: what is checked is what is used. Every operation first opens the object it reads, or the
 * directory it changes, with `O_PATH` (symlinks followed: those that stay inside keep working), then
 * reads where that descriptor really is (`/proc/self/fd/<fd>`, a link the kernel keeps current) and
 * refuses with ToolError `outside_workspace` unless it is `root` or under it. It then acts through the
 * descriptor only: `fstat` of it, a reopen of `/proc/self/fd/<fd>` to read the very file checked, and
 * names inside a held directory as `/proc/self/fd/<dirfd>/<name>` with `O_NOFOLLOW` where a file is
 * created, so a swap after the check changes nothing. Temporary files of atomic writes are created
 * inside the held directory. A directory moved out of the root while a descriptor holds it is the one
 * case left: the next operation's check sees it outside.
 *
 * Only regular files are read or written as files: `fstat` on the `O_PATH` descriptor gives the type
 * before any open that could block, so a FIFO, socket or device is refused with ToolError
 * `invalid_arguments` (details `{ file_type: 'fifo' | 'socket' | 'device' }`); a read stops at the size
 * `fstat` gave, and files over 64 MiB are `too_large`. No call waits on a pipe, so none keeps a thread of
 * libuv's pool.
 *
 * Names that are not UTF-8 are listed and accepted in the lossless `\xNN` form of `escapeBytes`
 * (`node/fs/names.ts`): every path given to the port is first made canonical (`canonicalPath`: an
 * escape that spells valid UTF-8 is its characters, so `\x2e\x2e` is a `..` checked like one), then
 * unescaped. The port's `canonicalPath` is that function, which `resolveWorkspacePath` applies to
 * every path argument, so each file has one spelling in results, messages and `stale_file` checks.
 *
 * `writeFileAtomic(path, data)` replaces a file so readers see the whole old or whole new content: a
 * temporary file (`.toolhost-<random>.tmp`, a short name walks skip) in the same directory, given the
 * old file's mode and (as root) owner, renamed over it. A file with other hard links, or one owned by
 * another user that this (non-root) process may write, is written in place instead, so the link and
 * the owner are kept. A file this process may not write → `permission_denied`, unchanged.
 *
 * Every path must be absolute and NUL-free (`invalid_arguments`) and lexically inside `root`. Removing
 * or renaming the root itself → `permission_denied`. Errors keep Node's `code`; their messages name the
 * path given, shortened (`withTidyFsErrors`): a path too long for the system (`ENAMETOOLONG`) says so
 * in one sentence instead of repeating all of it. Where `/proc/self/fd` or `O_PATH` is missing (not
 * Linux), this is the path-checked port, with its race.
 */
export function createConfinedNodeFs(root: string, options: ConfinedNodeFsOptions = {}): FsPromises {
  if (options.mode === 'paths' || !descriptorsWork(root)) return createPathCheckedNodeFs(root);
  const confined = new DescriptorConfinement(root);
  const port = {
    canonicalPath,
    readFile: (path: unknown) => confined.readFile(path),
    readRange: (path: unknown, position: number, length: number) => confined.readRange(path, position, length),
    writeFile: (path: string, data: Uint8Array | string) => confined.writeFile(path, data),
    writeFileAtomic: (path: string, data: Uint8Array | string) => confined.writeFileAtomic(path, data),
    mkdir: (path: unknown, options?: { recursive?: boolean }) => confined.mkdir(path, options),
    readdir: (path: unknown, options?: { withFileTypes: true }) => confined.readdir(path, options),
    stat: (path: string) => confined.stat(path),
    lstat: (path: string) => confined.lstat(path),
    readlink: (path: string) => confined.readlink(path),
    symlink: (target: string, path: string) => confined.symlink(target, path),
    rename: (oldPath: string, newPath: string) => confined.rename(oldPath, newPath),
    rm: (path: string, options?: { recursive?: boolean; force?: boolean }) => confined.rm(path, options),
    unlink: (path: string) => confined.unlink(path),
  };
  return withTidyFsErrors(port as FsPromises);
}

const toBytes = (data: Uint8Array | string): Uint8Array => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data);

async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    done += await call<number>((cb) => fs.write(fd, bytes, done, bytes.length - done, null, cb));
  }
}

/** Truncates the open file `fd` and writes `bytes` into it, then closes it. */
async function overwriteOpenFile(fd: number, bytes: Uint8Array): Promise<void> {
  try {
    await unit((cb) => fs.ftruncate(fd, 0, cb));
    await writeAll(fd, bytes);
  } finally {
    await closeAsync(fd);
  }
}

/** Opens `name` in the held directory for writing without following a symlink or waiting on a FIFO; checks it is a regular file. */
async function openForWrite(dirfd: number, name: HostPath, normal: string, extra: number): Promise<number> {
  let fd: number;
  try {
    fd = await open(childPath(dirfd, name), O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | extra);
  } catch (error) {
    // ENXIO: a FIFO without a reader; EOPNOTSUPP/ENXIO: a socket.
    const code = errorCode(error);
    if (code === 'ENXIO' || code === 'EOPNOTSUPP') {
      const stats = await lstat(childPath(dirfd, name)).catch(() => null);
      const special = stats ? specialType(stats) : null;
      if (special) throw specialFileError(special, normal);
    }
    throw error;
  }
  try {
    const stats = await fstat(fd);
    const special = specialType(stats);
    if (special !== null) throw specialFileError(special, normal);
    if (!stats.isFile()) throw fsError('EISDIR', 'illegal operation on a directory, open', normal);
  } catch (error) {
    await closeAsync(fd);
    throw error;
  }
  return fd;
}

/** The existing entry `name` in the held directory as lstat sees it, or null when there is none. */
async function existingEntry(dirfd: number, name: HostPath): Promise<fs.Stats | null> {
  try {
    return await lstat(childPath(dirfd, name));
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    return null;
  }
}

/** Refuses (permission_denied, file unchanged) when this process may not write the existing file `old`. */
async function checkWritable(target: HostPath, old: fs.Stats, normal: string): Promise<void> {
  try {
    await unit((cb) => fs.access(target, fs.constants.W_OK, cb));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new ToolError('permission_denied', `${quoteForMessage(normal)} is not writable by this host (mode ${(old.mode & 0o7777).toString(8)}); it was left unchanged`);
    }
    throw error;
  }
}

/**
 * Writes `bytes` to a new temporary file in the held directory, gives it the old file's mode and (as
 * root, `uid` 0) owner, and renames it over `name`; the temporary file is removed on failure.
 */
async function replaceThroughTemp(dirfd: number, name: HostPath, bytes: Uint8Array, old: fs.Stats | null, uid: number): Promise<void> {
  const temp = childPath(dirfd, temporaryFileName());
  const mode = old ? old.mode & 0o7777 : 0o666;
  const fd = await open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    try {
      await writeAll(fd, bytes);
      if (old) {
        await unit((cb) => fs.fchmod(fd, mode, cb));
        if (uid === 0 && (old.uid !== 0 || old.gid !== 0)) await unit((cb) => fs.fchown(fd, old.uid, old.gid, cb));
      }
    } finally {
      await closeAsync(fd);
    }
    await unit((cb) => fs.rename(temp, childPath(dirfd, name), cb));
  } catch (error) {
    await unit((cb) => fs.unlink(temp, cb)).catch(() => undefined);
    throw error;
  }
}

/** Removes directory `name` in the held `dirfd` and everything in it, never following a link. */
async function removeTree(dirfd: number, name: HostPath): Promise<void> {
  const host = childPath(dirfd, name);
  let fd: number;
  try {
    fd = await open(host, O_PATH | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    const code = errorCode(error);
    // Replaced by a link or file meanwhile: remove that.
    if (code === 'ENOTDIR' || code === 'ELOOP') return unit((cb) => fs.unlink(host, cb));
    throw error;
  }
  try {
    const entries = await call<fs.Dirent<Buffer>[]>((cb) => fs.readdir(fdPath(fd), { withFileTypes: true, encoding: 'buffer' }, cb));
    for (const entry of entries) {
      if (entry.isDirectory()) await removeTree(fd, entry.name);
      else {
        await unit((cb) => fs.unlink(childPath(fd, entry.name), cb)).catch(async (error: unknown) => {
          if (errorCode(error) === 'EISDIR') await removeTree(fd, entry.name);
          else if (errorCode(error) !== 'ENOENT') throw error;
        });
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  await unit((cb) => fs.rmdir(host, cb));
}

/**
 * The descriptor port's operations over one root: each checks what it uses (see
 * {@link createConfinedNodeFs}) through an `O_PATH` descriptor held for the operation.
 */
class DescriptorConfinement {
  readonly #root: string;
  readonly #rootBytes: Buffer;
  readonly #rootSlash: Buffer;
  readonly #uid: number;
  readonly #checks: ReturnType<typeof lexicalChecks>;

  constructor(root: string) {
    this.#root = root;
    this.#rootBytes = Buffer.from(root);
    this.#rootSlash = Buffer.from(root === '/' ? '/' : `${root}/`);
    this.#uid = typeof process.getuid === 'function' ? process.getuid() : -1;
    this.#checks = lexicalChecks(root);
  }

  readFile(path: unknown): Promise<Uint8Array> {
    return this.#readPinned(path, (fd, size, normal) => readOpenFile(fd, size, normal));
  }

  readRange(path: unknown, position: number, length: number): Promise<Uint8Array> {
    return this.#readPinned(path, (fd, size) => readOpenRange(fd, size, position, length));
  }

  async writeFile(path: unknown, data: Uint8Array | string, hops = 0): Promise<void> {
    const normal = this.#lexical(path);
    const next = await this.#withParent(normal, async (dirfd, name) => {
      let fd: number;
      try {
        fd = await openForWrite(dirfd, name, normal, O_CREAT);
      } catch (error) {
        if (errorCode(error) !== 'ELOOP') throw error;
        // The last component is a symlink: write where it leads, if that is inside.
        return this.#linkTarget(dirfd, name, normal, hops);
      }
      await overwriteOpenFile(fd, toBytes(data));
      return null;
    });
    if (next !== null) await this.writeFile(next, data, hops + 1);
  }

  async writeFileAtomic(path: unknown, data: Uint8Array | string, hops = 0): Promise<void> {
    const normal = this.#lexical(path);
    const bytes = toBytes(data);
    const next = await this.#withParent(normal, async (dirfd, name) => {
      const old = await existingEntry(dirfd, name);
      if (old?.isSymbolicLink()) return this.#linkTarget(dirfd, name, normal, hops);
      if (old?.isDirectory()) throw fsError('EISDIR', 'illegal operation on a directory, open', normal);
      if (old) {
        const special = specialType(old);
        if (special !== null) throw specialFileError(special, normal);
        await checkWritable(childPath(dirfd, name), old, normal);
        // A rename would split a hard link, or give the file this process's owner.
        if (old.nlink > 1 || (this.#uid !== 0 && old.uid !== this.#uid)) {
          await overwriteOpenFile(await openForWrite(dirfd, name, normal, 0), bytes);
          return null;
        }
      }
      await replaceThroughTemp(dirfd, name, bytes, old, this.#uid);
      return null;
    });
    if (next !== null) await this.writeFileAtomic(next, data, hops + 1);
  }

  async readdir(path: unknown, options?: { withFileTypes: true }): Promise<string[] | FsDirent[]> {
    const normal = this.#lexical(path);
    return this.#withPinned(normal, O_DIRECTORY, async (fd) => {
      if (options?.withFileTypes) {
        const dirents = await call<fs.Dirent<Buffer>[]>((cb) => fs.readdir(fdPath(fd), { withFileTypes: true, encoding: 'buffer' }, cb));
        return dirents.map((dirent) => new NamedDirent(escapeBytes(dirent.name), dirent));
      }
      const names = await call<Buffer[]>((cb) => fs.readdir(fdPath(fd), { encoding: 'buffer' }, cb));
      return names.map(escapeBytes);
    });
  }

  async mkdir(path: unknown, options?: { recursive?: boolean }): Promise<unknown> {
    const normal = this.#lexical(path);
    if (options?.recursive !== true) {
      await this.#withParent(normal, (dirfd, name) => unit((cb) => fs.mkdir(childPath(dirfd, name), cb)));
      return undefined;
    }
    return this.#makeDirs(normal);
  }

  /**
   * `mkdir -p` from the root down, holding each directory: a component swapped for a link to outside
   * is refused by the check of the descriptor, never created through. Answers the first directory made.
   */
  async #makeDirs(normal: string): Promise<string | undefined> {
    const root = this.#root;
    let current = await this.#pin(root, root, O_DIRECTORY);
    let created: string | undefined;
    let at = root;
    try {
      for (const part of normal.slice(root.length).split('/').filter((p) => p.length > 0)) {
        at = at === '/' ? `/${part}` : `${at}/${part}`;
        const host = childPath(current, unescapePath(part));
        let next: number;
        try {
          next = await this.#pin(host, at, O_DIRECTORY);
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
          try {
            await unit((cb) => fs.mkdir(host, cb));
            created ??= at;
          } catch (made) {
            if (errorCode(made) !== 'EEXIST') throw made;
          }
          next = await this.#pin(host, at, O_DIRECTORY | O_NOFOLLOW);
        }
        fs.closeSync(current);
        current = next;
      }
    } finally {
      fs.closeSync(current);
    }
    return created;
  }

  async stat(path: string): Promise<FsStats> {
    return this.#withPinned(this.#lexical(path), 0, fstat);
  }

  async lstat(path: string): Promise<FsStats> {
    // An O_PATH | O_NOFOLLOW descriptor holds a symlink itself; fstat of it is the link's lstat.
    return this.#withPinned(this.#lexical(path), O_NOFOLLOW, fstat);
  }

  async readlink(path: string): Promise<string> {
    const normal = this.#lexical(path);
    return this.#withParent(normal, async (dirfd, name) =>
      escapeBytes(await call<Buffer>((cb) => fs.readlink(childPath(dirfd, name), { encoding: 'buffer' }, cb))),
    );
  }

  async symlink(target: string, path: string): Promise<void> {
    // The link may point anywhere: every operation that follows it is checked.
    const host = unescapePath(target);
    await this.#withParent(this.#lexical(path), (dirfd, name) => unit((cb) => fs.symlink(host, childPath(dirfd, name), cb)));
  }

  async rename(oldPath: string, newPath: string): Promise<void> {
    const from = this.#lexical(oldPath);
    const to = this.#lexical(newPath);
    this.#notRoot(from, 'rename');
    this.#notRoot(to, 'replace');
    await this.#withParent(from, (fromDir, fromName) =>
      this.#withParent(to, (toDir, toName) => unit((cb) => fs.rename(childPath(fromDir, fromName), childPath(toDir, toName), cb))),
    );
  }

  async rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void> {
    const normal = this.#lexical(path);
    this.#notRoot(normal, 'remove');
    try {
      await this.#withParent(normal, async (dirfd, name) => {
        const stats = await lstat(childPath(dirfd, name));
        if (!stats.isDirectory()) return unit((cb) => fs.unlink(childPath(dirfd, name), cb));
        if (options?.recursive !== true) {
          throw Object.assign(new Error(`Path is a directory: rm returned EISDIR (is a directory) ${normal}`), { code: 'ERR_FS_EISDIR' });
        }
        return removeTree(dirfd, name);
      });
    } catch (error) {
      if (options?.force === true && errorCode(error) === 'ENOENT') return;
      throw error;
    }
  }

  async unlink(path: string): Promise<void> {
    const normal = this.#lexical(path);
    this.#notRoot(normal, 'remove');
    await this.#withParent(normal, (dirfd, name) => unit((cb) => fs.unlink(childPath(dirfd, name), cb)));
  }

  #lexical(path: unknown): string {
    return this.#checks.lexical(typeof path === 'string' ? canonicalPath(path) : path);
  }

  /** Whether the descriptor's real path is the root or under it. */
  #holdsInside(fd: number): boolean {
    // procfs answers from memory: never blocks.
    const real = fs.readlinkSync(fdPath(fd), { encoding: 'buffer' });
    if (this.#root === '/') return true;
    const rootSlash = this.#rootSlash;
    return real.equals(this.#rootBytes) || (real.length > rootSlash.length && real.subarray(0, rootSlash.length).equals(rootSlash));
  }

  /**
   * An `O_PATH` descriptor of `host` (symlinks followed unless `flags` has O_NOFOLLOW), checked to be
   * inside the root. The caller closes it (`fs.closeSync`: an O_PATH close never blocks).
   */
  async #pin(host: HostPath, shown: string, flags = 0): Promise<number> {
    const fd = await open(host, O_PATH | flags);
    let inside: boolean;
    try {
      inside = this.#holdsInside(fd);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    if (!inside) {
      fs.closeSync(fd);
      throw this.#checks.outside(shown);
    }
    return fd;
  }

  /** Runs `use` with the held parent directory of `normal` and the last component's host name. */
  async #withParent<T>(normal: string, use: (dirfd: number, name: HostPath) => Promise<T>): Promise<T> {
    const dirfd = await this.#pin(unescapePath(posix.dirname(normal)), normal, O_DIRECTORY);
    try {
      return await use(dirfd, unescapePath(posix.basename(normal)));
    } finally {
      fs.closeSync(dirfd);
    }
  }

  async #withPinned<T>(normal: string, flags: number, use: (fd: number) => Promise<T>): Promise<T> {
    const fd = await this.#pin(unescapePath(normal), normal, flags);
    try {
      return await use(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  #notRoot(path: string, what: string): void {
    if (path === this.#root) throw new ToolError('permission_denied', `refusing to ${what} the workspace root ${this.#root}`);
  }

  /** Where a symlink `name` in the held directory of `normal` leads, as a workspace path (checked lexically). */
  async #linkTarget(dirfd: number, name: HostPath, normal: string, hops: number): Promise<string> {
    if (hops >= MAX_HOPS) throw fsError('ELOOP', 'too many symbolic links encountered', normal);
    const target = escapeBytes(fs.readlinkSync(childPath(dirfd, name), { encoding: 'buffer' }));
    const next = posix.resolve(posix.dirname(normal), target);
    if (!isInside(this.#root, next)) throw this.#checks.outside(normal);
    return next;
  }

  /** Pins the regular file at `path`, refuses a directory or special file, and runs `read` on a fresh read descriptor of exactly that file with its size. */
  async #readPinned(path: unknown, read: (fd: number, size: number, normal: string) => Promise<Uint8Array>): Promise<Uint8Array> {
    const normal = this.#lexical(path);
    return this.#withPinned(normal, 0, async (fd) => {
      const stats = await fstat(fd);
      if (stats.isDirectory()) throw fsError('EISDIR', 'illegal operation on a directory, read', normal);
      const special = specialType(stats);
      if (special !== null) throw specialFileError(special, normal);
      // Reopening the descriptor's /proc link opens exactly the file checked.
      const readFd = await open(fdPath(fd), READ_FLAGS);
      try {
        return await read(readFd, stats.size, normal);
      } finally {
        // Closing a descriptor opened only for reading flushes nothing: it never waits.
        fs.closeSync(readFd);
      }
    });
  }
}

/** A directory entry with its escaped name and the type predicates of the host's entry. */
class NamedDirent implements FsDirent {
  readonly name: string;
  readonly #dirent: fs.Dirent<Buffer>;

  constructor(name: string, dirent: fs.Dirent<Buffer>) {
    this.name = name;
    this.#dirent = dirent;
  }
  isFile(): boolean {
    return this.#dirent.isFile();
  }
  isDirectory(): boolean {
    return this.#dirent.isDirectory();
  }
  isSymbolicLink(): boolean {
    return this.#dirent.isSymbolicLink();
  }
  isFIFO(): boolean {
    return this.#dirent.isFIFO();
  }
  isSocket(): boolean {
    return this.#dirent.isSocket();
  }
  isCharacterDevice(): boolean {
    return this.#dirent.isCharacterDevice();
  }
  isBlockDevice(): boolean {
    return this.#dirent.isBlockDevice();
  }
}
