import type { FsDirent, FsStats } from '../core/types.js';

/** Symlinks followed while resolving one path before `ELOOP` (Linux's `MAXSYMLINKS`). */
const MAX_SYMLINK_HOPS = 40;

const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

const DESCRIPTIONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file already exists',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  ENOTEMPTY: 'directory not empty',
  EINVAL: 'invalid argument',
  ELOOP: 'too many symbolic links encountered',
  EPERM: 'operation not permitted',
  EBUSY: 'resource busy or locked',
  ENAMETOOLONG: 'name too long',
};

const ERRNO: Record<string, number> = { EPERM: -1, ENOENT: -2, EBUSY: -16, EEXIST: -17, ENOTDIR: -20, EISDIR: -21, EINVAL: -22, ENOTEMPTY: -39, ELOOP: -40, ENAMETOOLONG: -36 };

/** Linux's limits: bytes in one path component (`NAME_MAX`) and in a whole path with its NUL (`PATH_MAX`). */
const NAME_MAX = 255;
const PATH_MAX = 4096;

function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // 2 units, 4 bytes
        i += 1;
        continue;
      }
    }
    if (unit >= 0x800) bytes += 2;
    else if (unit >= 0x80) bytes += 1;
  }
  return bytes;
}

/** A filesystem error shaped like Node's: `code`, `errno`, `syscall`, `path` (and `dest` for rename). */
export interface MemoryFsError extends Error {
  code: string;
  errno: number;
  syscall: string;
  path?: string;
  dest?: string;
}

function fsError(code: string, syscall: string, path: string, dest?: string): MemoryFsError {
  const where = dest === undefined ? `'${path}'` : `'${path}' -> '${dest}'`;
  const error = new Error(`${code}: ${DESCRIPTIONS[code]}, ${syscall} ${where}`) as MemoryFsError;
  error.code = code;
  error.errno = ERRNO[code] ?? -1;
  error.syscall = syscall;
  error.path = path;
  if (dest !== undefined) error.dest = dest;
  return error;
}

let nextIno = 1;

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

function newNode<K extends FsNode['kind']>(kind: K, mode: number): NodeBase & { kind: K } {
  const now = Date.now();
  return { kind, ino: nextIno++, mode, mtimeMs: now, ctimeMs: now, birthtimeMs: now };
}
function newDir(): DirNode {
  return { ...newNode('dir', S_IFDIR | 0o755), entries: new Map() };
}
function newFile(data: Uint8Array): FileNode {
  return { ...newNode('file', S_IFREG | 0o644), data };
}
function newLink(target: string): LinkNode {
  return { ...newNode('symlink', S_IFLNK | 0o777), target };
}

const encoder = new TextEncoder();

/** The bytes to store for `writeFile` data: always a private copy, so later changes by the caller don't show. */
function toBytes(data: unknown): Uint8Array {
  if (typeof data === 'string') return encoder.encode(data);
  if (data instanceof Uint8Array) return data.slice();
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
  if (data instanceof ArrayBuffer) return new Uint8Array(data.slice(0));
  throw Object.assign(new TypeError('The "data" argument must be of type string or an instance of Uint8Array'), { code: 'ERR_INVALID_ARG_TYPE' });
}

/** The device and pipe predicates of Node's `fs.Stats` and `fs.Dirent`: nothing here is one. */
class NotADevice {
  isBlockDevice(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
  isFIFO(): boolean {
    return false;
  }
  isSocket(): boolean {
    return false;
  }
}

/** `stat`/`lstat` result with the fields and type predicates of Node's `fs.Stats`. */
class MemoryStats extends NotADevice implements FsStats {
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

  constructor(node: FsNode) {
    super();
    this.ino = node.ino;
    this.mode = node.mode;
    this.nlink = node.kind === 'dir' ? 2 : 1;
    this.size = node.kind === 'file' ? node.data.byteLength : node.kind === 'dir' ? 4096 : encoder.encode(node.target).byteLength;
    this.blocks = Math.ceil(this.size / 512);
    this.atimeMs = node.mtimeMs;
    this.mtimeMs = node.mtimeMs;
    this.ctimeMs = node.ctimeMs;
    this.birthtimeMs = node.birthtimeMs;
  }

  get atime(): Date {
    return new Date(this.atimeMs);
  }
  get mtime(): Date {
    return new Date(this.mtimeMs);
  }
  get ctime(): Date {
    return new Date(this.ctimeMs);
  }
  get birthtime(): Date {
    return new Date(this.birthtimeMs);
  }
  isFile(): boolean {
    return (this.mode & 0o170000) === S_IFREG;
  }
  isDirectory(): boolean {
    return (this.mode & 0o170000) === S_IFDIR;
  }
  isSymbolicLink(): boolean {
    return (this.mode & 0o170000) === S_IFLNK;
  }
}

/** A `readdir(…, { withFileTypes: true })` entry, with the predicates of Node's `fs.Dirent`. */
class MemoryDirent extends NotADevice implements FsDirent {
  readonly name: string;
  readonly parentPath: string;
  readonly #kind: FsNode['kind'];

  constructor(name: string, parentPath: string, kind: FsNode['kind']) {
    super();
    this.name = name;
    this.parentPath = parentPath;
    this.#kind = kind;
  }
  isFile(): boolean {
    return this.#kind === 'file';
  }
  isDirectory(): boolean {
    return this.#kind === 'dir';
  }
  isSymbolicLink(): boolean {
    return this.#kind === 'symlink';
  }
}

/** A walk's current folder, with the folders above it (for `..` and for "is X inside Y"). Mutated as the walk moves. */
interface Cursor {
  /** The folders from `/` down to the current one. */
  chain: DirNode[];
  /** Their names below `/` (one fewer than `chain`). */
  names: string[];
}

/** The last component of a path, once the ones before it are walked (as Linux's `last_type`). */
interface Last {
  at: Cursor;
  /** The name, for `type` 'name'; '' otherwise. */
  name: string;
  type: 'name' | 'dot' | 'dotdot' | 'root';
  /** A `/` follows it: symlinks are followed and a folder is required. */
  slash: boolean;
}

/** What a whole path names: `node` (undefined when missing) in the folder at `at` as `name`, or with `name` '' the folder at `at` itself. */
interface Found {
  node: FsNode | undefined;
  at: Cursor;
  name: string;
}

/** An error code raised inside a walk; each call turns it into a {@link MemoryFsError} with its syscall and path. */
class Fail {
  constructor(readonly code: string) {}
}

function top(at: Cursor): DirNode {
  return at.chain[at.chain.length - 1] as DirNode;
}

function up(at: Cursor): void {
  // `..` of `/` is `/`.
  if (at.chain.length > 1) {
    at.chain.pop();
    at.names.pop();
  }
}

function checkPath(path: unknown, syscall: string): string {
  if (typeof path !== 'string') {
    throw Object.assign(new TypeError(`The "path" argument must be of type string, got ${path === null ? 'null' : typeof path}`), { code: 'ERR_INVALID_ARG_TYPE' });
  }
  if (path.includes('\0')) {
    throw Object.assign(new TypeError(`The argument 'path' must be a string without null bytes (${syscall})`), { code: 'ERR_INVALID_ARG_VALUE' });
  }
  // An empty path names nothing (as in the kernel), not `/`.
  if (path === '') throw fsError('ENOENT', syscall, path);
  // A component of 85 UTF-16 units is at most 255 bytes: only longer paths need a closer look.
  if (path.length > NAME_MAX / 3) {
    if (utf8Length(path) >= PATH_MAX) throw fsError('ENAMETOOLONG', syscall, path);
    for (const part of path.split('/')) {
      if (part.length > NAME_MAX / 3 && utf8Length(part) > NAME_MAX) throw fsError('ENAMETOOLONG', syscall, path);
    }
  }
  return path.startsWith('/') ? path : `/${path}`;
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
export class MemoryFs {
  readonly #root: DirNode = newDir();
  /** Symlinks followed by the current path walk (each walk of a call's path starts at 0). */
  #hops = 0;

  /** Walks `path` from `/` up to its last component (see {@link MemoryFs.#walk}). */
  #start(path: string): Last {
    this.#hops = 0;
    return this.#walk(path, { chain: [this.#root], names: [] });
  }

  /**
   * Walks every component of `path` but the last, from `at` (or `/` for an absolute path), moving
   * `at`: symlinks are followed, `..` climbs the real folders. Fails `ENOENT` (missing component),
   * `ENOTDIR` (a component is no folder), `ELOOP` (more than 40 symlinks).
   */
  #walk(path: string, at: Cursor): Last {
    if (path.startsWith('/')) {
      // Setting an array's length is a runtime call in V8: skip it when there is nothing to cut.
      if (at.chain.length > 1) at.chain.length = 1;
      if (at.names.length > 0) at.names.length = 0;
    }
    const parts = path.split('/');
    let end = parts.length - 1;
    while (end >= 0 && parts[end] === '') end -= 1;
    if (end < 0) return { at, name: '', type: 'root', slash: false };
    for (let i = 0; i < end; i += 1) {
      const part = parts[i] as string;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        up(at);
        continue;
      }
      let node = top(at).entries.get(part);
      let name = part;
      if (node?.kind === 'symlink') {
        this.#hop();
        const found = this.#last(this.#walk(node.target, at), true);
        if (found.name === '') continue;
        node = found.node;
        name = found.name;
      }
      if (node === undefined) throw new Fail('ENOENT');
      if (node.kind !== 'dir') throw new Fail('ENOTDIR');
      at.chain.push(node);
      at.names.push(name);
    }
    const name = parts[end] as string;
    const type = name === '.' ? 'dot' : name === '..' ? 'dotdot' : 'name';
    return { at, name: type === 'name' ? name : '', type, slash: end < parts.length - 1 };
  }

  #hop(): void {
    this.#hops += 1;
    if (this.#hops > MAX_SYMLINK_HOPS) throw new Fail('ELOOP');
  }

  /**
   * Looks up a walked path's last component, following a symlink there when `follow` or a trailing
   * `/` says so (its target's own trailing `/` counts too). Fails `ENOTDIR` when a trailing `/` finds
   * no folder, and as {@link MemoryFs.#walk} while following.
   */
  #last(last: Last, follow: boolean): Found {
    const { at } = last;
    if (last.type !== 'name') {
      if (last.type === 'dotdot') up(at);
      return { node: top(at), at, name: '' };
    }
    const node = top(at).entries.get(last.name);
    if (node?.kind === 'symlink' && (follow || last.slash)) {
      this.#hop();
      const inner = this.#walk(node.target, at);
      if (last.slash) inner.slash = true;
      return this.#last(inner, true);
    }
    if (last.slash && node !== undefined && node.kind !== 'dir') throw new Fail('ENOTDIR');
    return { node, at, name: last.name };
  }

  /** What `path` names, following a final symlink when `follow`. */
  #find(path: string, follow: boolean): Found {
    return this.#last(this.#start(path), follow);
  }

  /** Runs `fn`, turning a {@link Fail} into Node's error for `syscall` on `path` (and `dest`). */
  #call<T>(syscall: string, path: string, fn: () => T, dest?: string): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof Fail) throw fsError(error.code, syscall, path, dest);
      throw error;
    }
  }

  #touch(dir: DirNode): void {
    const now = Date.now();
    dir.mtimeMs = now;
    dir.ctimeMs = now;
  }

  /** Bytes of the file at `path` (a copy). Errors: `ENOENT`, `EISDIR` (syscall `read`, no path, as Node), `ENOTDIR`, `ELOOP`. */
  readFileSync(path: string): Uint8Array {
    const p = checkPath(path, 'open');
    const { node } = this.#call('open', p, () => this.#find(p, true));
    if (!node) throw fsError('ENOENT', 'open', p);
    if (node.kind === 'dir') {
      // Node opens the folder fine and fails on read(2), whose error carries no path.
      const error = new Error(`EISDIR: ${DESCRIPTIONS.EISDIR}, read`) as MemoryFsError;
      error.code = 'EISDIR';
      error.errno = ERRNO.EISDIR as number;
      error.syscall = 'read';
      throw error;
    }
    return (node as FileNode).data.slice();
  }

  /**
   * At most `length` bytes of the file at `path` from byte `position` (a copy of just those; fewer
   * past its end). Errors as {@link MemoryFs.readFileSync}.
   */
  readRangeSync(path: string, position: number, length: number): Uint8Array {
    const p = checkPath(path, 'open');
    const { node } = this.#call('open', p, () => this.#find(p, true));
    if (!node) throw fsError('ENOENT', 'open', p);
    if (node.kind === 'dir') return this.readFileSync(path);
    const data = (node as FileNode).data;
    const start = Math.min(Math.max(0, position), data.length);
    return data.slice(start, Math.min(data.length, start + Math.max(0, length)));
  }

  /**
   * The regular file at `path` as stored, for readers that only look (the search tools): its bytes
   * themselves, not a copy, with its `ino`, `mtimeMs` and `ctimeMs`. Never modify the bytes: a write gives a file
   * new bytes instead of changing the old ones, so bytes once returned stay as they were. A final
   * symlink is not followed. Undefined (never an error) when nothing is there, it is no regular file,
   * or the path cannot be walked.
   */
  storedFileSync(path: string): { data: Uint8Array; ino: number; mtimeMs: number; ctimeMs: number } | undefined {
    let node: FsNode | undefined;
    try {
      node = this.#find(checkPath(path, 'lstat'), false).node;
    } catch {
      return undefined;
    }
    return node?.kind === 'file' ? { data: node.data, ino: node.ino, mtimeMs: node.mtimeMs, ctimeMs: node.ctimeMs } : undefined;
  }

  /**
   * Replaces or creates the file at `path` (following a final symlink, even a dangling one: its target
   * is created) with `data` (a string is UTF-8 encoded), as open(2) with `O_CREAT`. Errors: `ENOENT`
   * (no parent folder), `EISDIR` (a folder, or a path ending in `/`, `.` or `..`), `ENOTDIR`, `ELOOP`.
   */
  writeFileSync(path: string, data: Uint8Array | string): void {
    const p = checkPath(path, 'open');
    const bytes = toBytes(data);
    this.#call('open', p, () => {
      let last = this.#start(p);
      for (;;) {
        // open(2) refuses to create a folder, or anything with a trailing slash, whatever is there.
        if (last.type !== 'name' || last.slash) throw new Fail('EISDIR');
        const dir = top(last.at);
        const node = dir.entries.get(last.name);
        if (node?.kind === 'symlink') {
          this.#hop();
          last = this.#walk(node.target, last.at);
          continue;
        }
        if (node?.kind === 'dir') throw new Fail('EISDIR');
        if (node) {
          node.data = bytes;
          node.mtimeMs = node.ctimeMs = Date.now();
          return;
        }
        dir.entries.set(last.name, newFile(bytes));
        this.#touch(dir);
        return;
      }
    });
  }

  /** mkdir(2): a new folder at `path`, not following a final symlink. */
  #mkdir(path: string): void {
    const last = this.#start(path);
    const dir = top(last.at);
    if (last.type !== 'name' || dir.entries.has(last.name)) throw new Fail('EEXIST');
    dir.entries.set(last.name, newDir());
    this.#touch(dir);
  }

  /**
   * Node's mkdirp (MKDirpSync): mkdir; on `ENOENT` make the lexical parent (the text before the last
   * `/`) first, then retry; on any other failure accept what stat(2) calls a folder. Returns the first
   * path it created, as written.
   */
  #mkdirp(path: string): string | undefined {
    const todo = [path];
    let first: string | undefined;
    while (todo.length > 0) {
      const next = todo.pop() as string;
      let code: string;
      try {
        this.#mkdir(next);
        first ??= next;
        continue;
      } catch (error) {
        if (!(error instanceof Fail)) throw error;
        code = error.code;
      }
      if (code === 'ENOENT') {
        const slash = next.lastIndexOf('/');
        if (slash <= 0) throw new Fail(code);
        todo.push(next, next.slice(0, slash));
        continue;
      }
      if (code === 'ENOTDIR') throw new Fail(code);
      const { node } = this.#find(next, true);
      if (!node) throw new Fail('ENOENT');
      if (node.kind !== 'dir') throw new Fail(code === 'EEXIST' && todo.length > 0 ? 'ENOTDIR' : 'EEXIST');
    }
    return first;
  }

  /**
   * Creates a folder (a final symlink is not followed: it exists). With `recursive`, creates missing
   * parents too (Node's algorithm: it climbs the path as written, `..` included), returns the first
   * folder it created as written in `path` (undefined when none) and accepts an existing folder or
   * symlink to one. Errors: `EEXIST`, `ENOENT` (no parent without `recursive`; a dangling symlink with
   * it), `ENOTDIR`, `ELOOP`.
   */
  mkdirSync(path: string, options?: { recursive?: boolean }): string | undefined {
    const p = checkPath(path, 'mkdir');
    return this.#call('mkdir', p, () => {
      if (options?.recursive) return this.#mkdirp(p);
      this.#mkdir(p);
      return undefined;
    });
  }

  /**
   * Names in the folder at `path` (insertion order), or {@link FsDirent}s with `withFileTypes` (their
   * `parentPath` is `path` as given, as Node's). Errors: `ENOENT`, `ENOTDIR`, `ELOOP`.
   */
  readdirSync(path: string): string[];
  readdirSync(path: string, options: { withFileTypes: true }): FsDirent[];
  readdirSync(path: string, options?: { withFileTypes?: boolean }): string[] | FsDirent[] {
    const p = checkPath(path, 'scandir');
    const node = this.#call('scandir', p, () => {
      const found = this.#find(p, true).node;
      if (!found) throw new Fail('ENOENT');
      if (found.kind !== 'dir') throw new Fail('ENOTDIR');
      return found;
    });
    if (!options?.withFileTypes) return [...node.entries.keys()];
    const out: FsDirent[] = [];
    for (const [name, child] of node.entries) out.push(new MemoryDirent(name, p, child.kind));
    return out;
  }

  #stat(path: string, follow: boolean, syscall: string): MemoryStats {
    return this.#call(syscall, path, () => {
      const { node } = this.#find(path, follow);
      if (!node) throw new Fail('ENOENT');
      return new MemoryStats(node);
    });
  }

  /** Metadata of what `path` names, following symlinks. Errors: `ENOENT`, `ENOTDIR`, `ELOOP`. */
  statSync(path: string): MemoryStats {
    return this.#stat(checkPath(path, 'stat'), true, 'stat');
  }

  /**
   * Sets the access and modification times of what `path` names (following symlinks), as
   * `fs.utimesSync`: a number is seconds since the epoch, a Date its own time. Only the modification
   * time is kept (access times are not tracked: `atimeMs` reports it too). Errors: `ENOENT`,
   * `ENOTDIR`, `ELOOP`.
   */
  utimesSync(path: string, atime: number | Date, mtime: number | Date): void {
    void atime;
    const p = checkPath(path, 'utime');
    const { node } = this.#call('utime', p, () => this.#find(p, true));
    if (!node) throw fsError('ENOENT', 'utime', p);
    node.mtimeMs = typeof mtime === 'number' ? mtime * 1000 : mtime.getTime();
    // As on a real filesystem: setting the times is a change of the file's status.
    node.ctimeMs = Date.now();
  }

  /**
   * Puts back the times a file or folder was stored with (ms since the epoch), the status-change time
   * included, as a reload from storage does: unlike {@link utimesSync} this is no change of the node,
   * so a reloaded tree shows each file as it was when saved. A final symlink is not followed.
   * Errors: `ENOENT`, `ENOTDIR`, `ELOOP`.
   */
  restoreTimesSync(path: string, mtimeMs: number, ctimeMs: number): void {
    const p = checkPath(path, 'utime');
    const { node } = this.#call('utime', p, () => this.#find(p, false));
    if (!node) throw fsError('ENOENT', 'utime', p);
    node.mtimeMs = mtimeMs;
    node.ctimeMs = ctimeMs;
  }

  /** Metadata of `path` itself (a final symlink is not followed, unless a `/` follows it). Errors: `ENOENT`, `ENOTDIR`, `ELOOP`. */
  lstatSync(path: string): MemoryStats {
    return this.#stat(checkPath(path, 'lstat'), false, 'lstat');
  }

  /** Whether `path` names something (following symlinks); never throws. */
  existsSync(path: string): boolean {
    try {
      return this.#find(checkPath(path, 'access'), true).node !== undefined;
    } catch {
      return false;
    }
  }

  /** The target text of the symlink at `path`. Errors: `ENOENT`, `EINVAL` (not a symlink), `ENOTDIR`, `ELOOP`. */
  readlinkSync(path: string): string {
    const p = checkPath(path, 'readlink');
    return this.#call('readlink', p, () => {
      const { node } = this.#find(p, false);
      if (!node) throw new Fail('ENOENT');
      if (node.kind !== 'symlink') throw new Fail('EINVAL');
      return node.target;
    });
  }

  /**
   * Creates a symlink at `path` whose target text is `target` (not checked, except that it may not be
   * empty). Errors (with Node's `path` = target and `dest` = path): `EEXIST` (anything there, or a last
   * component `.`/`..`), `ENOENT` (no parent, an empty target, or a trailing `/` on a missing name),
   * `ENOTDIR`, `ELOOP`.
   */
  symlinkSync(target: string, path: string): void {
    const p = checkPath(path, 'symlink');
    if (typeof target !== 'string' || target.includes('\0')) checkPath(target, 'symlink');
    this.#call(
      'symlink',
      target,
      () => {
        if (target === '') throw new Fail('ENOENT');
        const last = this.#start(p);
        const dir = top(last.at);
        if (last.type !== 'name' || dir.entries.has(last.name)) throw new Fail('EEXIST');
        // A missing `name/` asks for a folder, which symlink(2) does not make.
        if (last.slash) throw new Fail('ENOENT');
        dir.entries.set(last.name, newLink(target));
        this.#touch(dir);
      },
      p,
    );
  }

  /** The path with every symlink and `..` resolved, as realpath(3). Errors: `ENOENT`, `ENOTDIR`, `ELOOP`. */
  realpathSync(path: string): string {
    const p = checkPath(path, 'realpath');
    return this.#call('realpath', p, () => {
      const { node, at, name } = this.#find(p, true);
      if (!node) throw new Fail('ENOENT');
      const names = name === '' ? at.names : [...at.names, name];
      return `/${names.join('/')}`;
    });
  }

  /**
   * Moves `from` (a final symlink is not followed) to `to`, replacing a file there, or an empty folder
   * when `from` is a folder, as rename(2). Errors: `ENOENT`, `ENOTDIR`, `EISDIR`, `ENOTEMPTY` (also:
   * `to` holds `from`), `EINVAL` (a folder into itself), `EBUSY` (a last component `.`, `..` or `/`).
   */
  renameSync(from: string, to: string): void {
    const a = checkPath(from, 'rename');
    const b = checkPath(to, 'rename');
    this.#call(
      'rename',
      a,
      () => {
        const src = this.#start(a);
        const dst = this.#start(b);
        if (src.type !== 'name' || dst.type !== 'name') throw new Fail('EBUSY');
        const srcDir = top(src.at);
        const dstDir = top(dst.at);
        const moving = srcDir.entries.get(src.name);
        if (!moving) throw new Fail('ENOENT');
        if (moving.kind !== 'dir' && (src.slash || dst.slash)) throw new Fail('ENOTDIR');
        const existing = dstDir.entries.get(dst.name);
        // The kernel's lock_rename traps: `from` above the new parent, `to` above the old one.
        if (dst.at.chain.includes(moving as DirNode)) throw new Fail('EINVAL');
        if (existing && src.at.chain.includes(existing as DirNode)) throw new Fail('ENOTEMPTY');
        if (moving === existing) return;
        if (existing) {
          if (moving.kind === 'dir') {
            if (existing.kind !== 'dir') throw new Fail('ENOTDIR');
            if (existing.entries.size > 0) throw new Fail('ENOTEMPTY');
          } else if (existing.kind === 'dir') {
            throw new Fail('EISDIR');
          }
        }
        srcDir.entries.delete(src.name);
        dstDir.entries.set(dst.name, moving);
        moving.ctimeMs = Date.now();
        this.#touch(srcDir);
        this.#touch(dstDir);
      },
      b,
    );
  }

  /** unlink(2). */
  #unlink(path: string): void {
    const last = this.#start(path);
    if (last.type !== 'name') throw new Fail('EISDIR');
    const dir = top(last.at);
    const node = dir.entries.get(last.name);
    if (!node) throw new Fail('ENOENT');
    if (node.kind === 'dir') throw new Fail('EISDIR');
    if (last.slash) throw new Fail('ENOTDIR');
    dir.entries.delete(last.name);
    this.#touch(dir);
  }

  /**
   * rmdir(2), except that a folder with entries is removed whole, which is what Node's rimraf ends
   * with after rmdir's `ENOTEMPTY` (it removes the entries one by one, then rmdir again).
   */
  #rmdirAll(path: string): void {
    const last = this.#start(path);
    if (last.type === 'dotdot') throw new Fail('ENOTEMPTY');
    if (last.type === 'dot') throw new Fail('EINVAL');
    if (last.type === 'root') throw new Fail('EBUSY');
    const dir = top(last.at);
    const node = dir.entries.get(last.name);
    if (!node) throw new Fail('ENOENT');
    if (node.kind !== 'dir') throw new Fail('ENOTDIR');
    dir.entries.delete(last.name);
    this.#touch(dir);
  }

  /** Node 20's `_rmdirSync`: rmdir, a missing path is fine, other errors are `original`'s when there is one. */
  #rimrafDir(path: string, original: MemoryFsError | undefined): void {
    try {
      this.#rmdirAll(path);
    } catch (error) {
      if (!(error instanceof Fail)) throw error;
      if (error.code === 'ENOENT') return;
      throw original ?? fsError(error.code, 'rmdir', path);
    }
  }

  /**
   * Removes what `path` names (a symlink itself, never its target; with a trailing `/` a symlink to a
   * folder fails `ENOTDIR`, as Node's); a folder needs `recursive`. `force` ignores a missing path.
   * Runs Node 20's algorithm (lstat to validate, then unlink, or rmdir for a folder), so errors carry
   * its syscalls: `ENOENT`/`ENOTDIR`/`ELOOP` from `lstat` (or `unlink` with `force` and `recursive`),
   * `ERR_FS_EISDIR` (a folder without `recursive`), `EINVAL` (a path ending in `.`), `EBUSY` (`/`)
   * from `rmdir`. Deliberately not Node: a recursive rm of a path ending in `..` fails `ENOTEMPTY`
   * (rmdir(2)'s answer) and removes nothing; Node empties part of that folder, in disk order.
   */
  rmSync(path: string, options?: { recursive?: boolean; force?: boolean }): void {
    const p = checkPath(path, 'rm');
    const recursive = options?.recursive === true;
    const force = options?.force === true;
    if (!force || !recursive) {
      let node: FsNode | undefined;
      try {
        node = this.#find(p, false).node;
        if (!node) throw new Fail('ENOENT');
      } catch (error) {
        if (!(error instanceof Fail)) throw error;
        if (!force || error.code !== 'ENOENT') throw fsError(error.code, 'lstat', p);
      }
      if (node?.kind === 'dir' && !recursive) {
        const error = new Error(`Path is a directory: rm returned EISDIR (is a directory) ${p}`) as MemoryFsError;
        error.code = 'ERR_FS_EISDIR';
        error.errno = 21;
        error.syscall = 'rm';
        error.path = p;
        throw error;
      }
    }
    // Node's rimrafSync: lstat (a failure other than ENOENT only means "not a folder"), then rmdir or unlink.
    let isDir = false;
    try {
      const { node } = this.#find(p, false);
      if (!node) return;
      isDir = node.kind === 'dir';
    } catch (error) {
      if (!(error instanceof Fail)) throw error;
      if (error.code === 'ENOENT') return;
    }
    if (isDir) {
      this.#rimrafDir(p, undefined);
      return;
    }
    try {
      this.#unlink(p);
    } catch (error) {
      if (!(error instanceof Fail)) throw error;
      if (error.code === 'ENOENT') return;
      const failure = fsError(error.code, 'unlink', p);
      if (error.code !== 'EISDIR') throw failure;
      this.#rimrafDir(p, failure);
    }
  }

  /**
   * Removes a file or symlink (never following it), as unlink(2). Errors: `ENOENT`, `EISDIR` (a folder,
   * or a last component `.`, `..` or `/`), `ENOTDIR` (a trailing `/` on a non-folder), `ELOOP`.
   */
  unlinkSync(path: string): void {
    const p = checkPath(path, 'unlink');
    this.#call('unlink', p, () => this.#unlink(p));
  }
}
