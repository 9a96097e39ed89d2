// Review mode's staged view: a conversation's writes go to a layer of its own, over the platform's fs,
// and its reads see that layer first. The workspace (the platform's fs as everyone else sees it) is
// not changed until the host accepts.
import { sameBytes as sameContent } from '../core/bytes.js';
import { ToolError } from '../core/errors.js';
import type { FsDirent, FsPromises, FsStats } from '../core/fs-port.js';
import type { Platform } from '../core/platform.js';
import { joinPath } from '../core/posix-path.js';

/** One staged file: what the workspace held when the conversation first changed it, and what it holds for the conversation now. */
export interface StagedFile {
  /** The workspace's bytes when the file was first staged (or last accepted); null: no file was there. */
  base: Uint8Array | null;
  /** The conversation's bytes; null: it removed the file. */
  content: Uint8Array | null;
  /** Modification time the view reports (moves on every staged change). */
  mtimeMs: number;
  /** Names the file in hunk ids (per layer). */
  readonly tag: number;
  /** Counts the file's changes (hunk ids name it, so an id listed before a change is refused after it). */
  version: number;
}

/** One conversation's staged changes. */
export class StagedLayer {
  /** Staged files by absolute path. */
  readonly files = new Map<string, StagedFile>();
  /** Folders the conversation made (they exist in its view only). */
  readonly dirs = new Set<string>();
  /** Folders the conversation removed: hidden from its view, with every file beneath them staged as removed. */
  readonly removed = new Set<string>();
  /** When the layer was made: the modification time of folders only the view has. */
  readonly madeAt = Date.now();
  #tags = 0;
  #clock = 0;

  /** A modification time later than every one this layer gave before. */
  tick(): number {
    this.#clock = Math.max(Date.now(), this.#clock + 1);
    return this.#clock;
  }

  /** Sets `path`'s staged content (its base given, when first staged); drops the entry when it equals its base. */
  put(path: string, base: Uint8Array | null, content: Uint8Array | null): void {
    let file = this.files.get(path);
    if (!file) {
      file = { base, content, mtimeMs: 0, tag: (this.#tags += 1), version: 0 };
      this.files.set(path, file);
    }
    file.content = content;
    file.mtimeMs = this.tick();
    file.version += 1;
    if (sameBytes(file.base, file.content)) this.files.delete(path);
  }

  /** True when `path` is staged with content, or a folder the view shows because of the layer. */
  liveBelow(path: string): boolean {
    const prefix = path === '/' ? '/' : `${path}/`;
    for (const [file, staged] of this.files) if (staged.content !== null && file.startsWith(prefix)) return true;
    for (const dir of this.dirs) if (dir.startsWith(prefix)) return true;
    return false;
  }

  /** Whether `path` or a folder above it was removed in the view. */
  hidden(path: string): boolean {
    for (let at = path; at !== '/'; at = parentOf(at)) if (this.removed.has(at)) return true;
    return false;
  }

  /** Nothing staged: the view is the workspace. */
  get empty(): boolean {
    return this.files.size === 0 && this.dirs.size === 0 && this.removed.size === 0;
  }
}

/** Whether two contents are the same (null: no file). */
export function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return sameContent(a, b);
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

/** A Node-style filesystem error (`code`, `syscall`, `path`). */
function fsError(code: string, syscall: string, path: string, what: string): Error {
  return Object.assign(new Error(`${code}: ${what}, ${syscall} '${path}'`), { code, syscall, path });
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** Stats of a file or folder only the view has. */
function madeStats(kind: 'file' | 'dir', size: number, mtimeMs: number): FsStats {
  const file = kind === 'file';
  return {
    size,
    mtimeMs,
    mode: file ? 0o100644 : 0o40755,
    nlink: 1,
    isFile: () => file,
    isDirectory: () => !file,
    isSymbolicLink: () => false,
    isFIFO: () => false,
    isSocket: () => false,
    isCharacterDevice: () => false,
    isBlockDevice: () => false,
  };
}

function dirent(name: string, kind: 'file' | 'dir'): FsDirent {
  return { name, isFile: () => kind === 'file', isDirectory: () => kind === 'dir', isSymbolicLink: () => false };
}

/** What the view has at a path. */
type Found = { kind: 'file'; staged: StagedFile } | { kind: 'dir' } | { kind: 'none' } | { kind: 'base'; stats: FsStats };

const NOT_STAGED_LINK = 'review mode stages files and folders only, not symbolic links';

/**
 * The staged view of `base` for one conversation: reads see `layer` first, every change goes to it.
 * Folders the layer's files need exist in the view; a removed file or folder is hidden. Symbolic
 * links cannot be made, removed or renamed in it (EPERM).
 */
export class StagedFs {
  readonly #base: FsPromises;
  readonly layer: StagedLayer;
  readonly #root: string;

  constructor(base: FsPromises, layer: StagedLayer, root: string) {
    this.#base = base;
    this.layer = layer;
    this.#root = joinPath(root);
  }

  /** The view as an fs port (with `readRange` and `canonicalPath` where the platform's has them). */
  port(): FsPromises {
    const port: FsPromises = {
      readFile: (path) => this.readFile(path),
      writeFile: (path, data) => this.writeFile(path, data),
      writeFileAtomic: (path, data) => this.writeFile(path, data),
      mkdir: (path, options) => this.mkdir(path, options),
      readdir: ((path: string, options?: { withFileTypes: true }) => this.readdir(path, options)) as FsPromises['readdir'],
      stat: (path) => this.stat(path, true),
      lstat: (path) => this.stat(path, false),
      readlink: (path) => this.readlink(path),
      symlink: (_target, path) => Promise.reject(fsError('EPERM', 'symlink', path, NOT_STAGED_LINK)),
      rename: (from, to) => this.rename(from, to),
      rm: (path, options) => this.rm(path, options?.recursive === true, options?.force === true, 'rm'),
      unlink: (path) => this.rm(path, false, false, 'unlink'),
    };
    const base = this.#base;
    if (typeof base.readRange === 'function') port.readRange = (path, position, length) => this.readRange(path, position, length);
    if (typeof base.canonicalPath === 'function') port.canonicalPath = (path) => (base.canonicalPath as (p: string) => string).call(base, path);
    return port;
  }

  async #baseStat(path: string, follow: boolean): Promise<FsStats | undefined> {
    try {
      return await (follow ? this.#base.stat(path) : this.#base.lstat(path));
    } catch (error) {
      if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return undefined;
      throw error;
    }
  }

  async #find(raw: string, follow = false): Promise<Found> {
    const path = joinPath(raw);
    const layer = this.layer;
    const staged = layer.files.get(path);
    if (staged?.content) return { kind: 'file', staged };
    if (layer.dirs.has(path) || layer.liveBelow(path)) return { kind: 'dir' };
    if (staged || layer.hidden(path)) return { kind: 'none' };
    const stats = await this.#baseStat(path, follow);
    return stats ? { kind: 'base', stats } : { kind: 'none' };
  }

  async #isDir(path: string): Promise<boolean | undefined> {
    const found = await this.#find(path, true);
    if (found.kind === 'none') return undefined;
    return found.kind === 'dir' || (found.kind === 'base' && found.stats.isDirectory());
  }

  /** The workspace's bytes at `path` for a first staging: null when no file is there. */
  async #baseBytes(path: string, syscall: string): Promise<Uint8Array | null> {
    const stats = await this.#baseStat(path, false);
    if (!stats) return null;
    if (stats.isSymbolicLink()) throw fsError('EPERM', syscall, path, NOT_STAGED_LINK);
    if (stats.isDirectory()) throw fsError('EISDIR', syscall, path, 'illegal operation on a directory');
    return await this.#base.readFile(path);
  }

  /** Stages `content` at `path` (null: removed), keeping the workspace's bytes as its base the first time. */
  async #stage(path: string, content: Uint8Array | null, syscall: string): Promise<void> {
    // The base is read once, when the path is first staged (put keeps an existing entry's base).
    const base = this.layer.files.has(path) ? null : await this.#baseBytes(path, syscall);
    this.layer.put(path, base, content);
  }

  async stat(raw: string, follow: boolean): Promise<FsStats> {
    const found = await this.#find(raw, follow);
    if (found.kind === 'file') return madeStats('file', (found.staged.content as Uint8Array).byteLength, found.staged.mtimeMs);
    if (found.kind === 'dir') {
      const real = await this.#baseStat(joinPath(raw), follow).catch(() => undefined);
      return real?.isDirectory() ? real : madeStats('dir', 0, this.layer.madeAt);
    }
    if (found.kind === 'none') throw fsError('ENOENT', follow ? 'stat' : 'lstat', raw, 'no such file or directory');
    return found.stats;
  }

  async readFile(raw: string): Promise<Uint8Array> {
    const found = await this.#find(raw, true);
    if (found.kind === 'file') return (found.staged.content as Uint8Array).slice();
    if (found.kind === 'dir') throw fsError('EISDIR', 'read', raw, 'illegal operation on a directory');
    if (found.kind === 'none') throw fsError('ENOENT', 'open', raw, 'no such file or directory');
    return this.#base.readFile(joinPath(raw));
  }

  async readRange(raw: string, position: number, length: number): Promise<Uint8Array> {
    const found = await this.#find(raw, true);
    if (found.kind === 'file') return (found.staged.content as Uint8Array).slice(position, position + length);
    if (found.kind === 'dir') throw fsError('EISDIR', 'read', raw, 'illegal operation on a directory');
    if (found.kind === 'none') throw fsError('ENOENT', 'open', raw, 'no such file or directory');
    return (this.#base.readRange as NonNullable<FsPromises['readRange']>).call(this.#base, joinPath(raw), position, length);
  }

  async readlink(raw: string): Promise<string> {
    const found = await this.#find(raw);
    if (found.kind === 'none') throw fsError('ENOENT', 'readlink', raw, 'no such file or directory');
    if (found.kind !== 'base') throw fsError('EINVAL', 'readlink', raw, 'invalid argument');
    return this.#base.readlink(joinPath(raw));
  }

  async writeFile(raw: string, data: Uint8Array | string): Promise<void> {
    const path = joinPath(raw);
    if (path === this.#root) throw fsError('EISDIR', 'open', raw, 'illegal operation on a directory');
    const found = await this.#find(path, true);
    if (found.kind === 'dir' || (found.kind === 'base' && found.stats.isDirectory())) throw fsError('EISDIR', 'open', raw, 'illegal operation on a directory');
    const parent = await this.#isDir(parentOf(path));
    if (parent === undefined) throw fsError('ENOENT', 'open', raw, 'no such file or directory');
    if (!parent) throw fsError('ENOTDIR', 'open', raw, 'not a directory');
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data.slice();
    await this.#stage(path, bytes, 'open');
  }

  async mkdir(raw: string, options?: { recursive?: boolean }): Promise<unknown> {
    const path = joinPath(raw);
    const found = await this.#isDir(path);
    if (found === true && options?.recursive === true) return undefined;
    if (found !== undefined) throw fsError('EEXIST', 'mkdir', raw, 'file already exists');
    const chain: string[] = [];
    for (let at = path; ; at = parentOf(at)) {
      const isDir = at === path ? undefined : await this.#isDir(at);
      if (isDir === true) break;
      if (isDir === false) throw fsError('ENOTDIR', 'mkdir', raw, 'not a directory');
      if (at !== path && options?.recursive !== true) throw fsError('ENOENT', 'mkdir', raw, 'no such file or directory');
      chain.push(at);
      if (at === '/') break;
    }
    for (const dir of chain) {
      this.layer.dirs.add(dir);
      this.layer.removed.delete(dir);
    }
    return options?.recursive === true ? chain[chain.length - 1] : undefined;
  }

  async readdir(raw: string, options?: { withFileTypes: true }): Promise<string[] | FsDirent[]> {
    const path = joinPath(raw);
    const isDir = await this.#isDir(path);
    if (isDir === undefined) throw fsError('ENOENT', 'scandir', raw, 'no such file or directory');
    if (!isDir) throw fsError('ENOTDIR', 'scandir', raw, 'not a directory');
    const layer = this.layer;
    const entries = new Map<string, FsDirent>();
    if (!layer.hidden(path)) {
      let listed: FsDirent[] = [];
      try {
        listed = await this.#base.readdir(path, { withFileTypes: true });
      } catch (error) {
        if (codeOf(error) !== 'ENOENT' && codeOf(error) !== 'ENOTDIR') throw error;
      }
      for (const entry of listed) {
        const child = joinPath(path, entry.name);
        const staged = layer.files.get(child);
        const shown = layer.dirs.has(child) || layer.liveBelow(child);
        if (staged?.content) entries.set(entry.name, dirent(entry.name, 'file'));
        else if (shown) entries.set(entry.name, entry.isDirectory() ? entry : dirent(entry.name, 'dir'));
        else if (!staged && !layer.removed.has(child)) entries.set(entry.name, entry);
      }
    }
    const prefix = path === '/' ? '/' : `${path}/`;
    const add = (below: string, kind: 'file' | 'dir'): void => {
      const rest = below.slice(prefix.length);
      const cut = rest.indexOf('/');
      const name = cut < 0 ? rest : rest.slice(0, cut);
      if (!entries.has(name)) entries.set(name, dirent(name, cut < 0 ? kind : 'dir'));
    };
    for (const [file, staged] of layer.files) if (staged.content !== null && file.startsWith(prefix)) add(file, 'file');
    for (const dir of layer.dirs) if (dir.startsWith(prefix)) add(dir, 'dir');
    const list = [...entries.values()];
    return options?.withFileTypes === true ? list : list.map((entry) => entry.name);
  }

  /** Every file beneath `dir` in the view (refusing symbolic links), folders listed in `dirs`. */
  async #filesUnder(dir: string, syscall: string, dirs: string[]): Promise<string[]> {
    const out: string[] = [];
    const queue = [dir];
    while (queue.length > 0) {
      const at = queue.shift() as string;
      dirs.push(at);
      for (const entry of (await this.readdir(at, { withFileTypes: true })) as FsDirent[]) {
        const child = joinPath(at, entry.name);
        if (entry.isSymbolicLink()) throw fsError('EPERM', syscall, child, NOT_STAGED_LINK);
        if (entry.isDirectory()) queue.push(child);
        else out.push(child);
      }
    }
    return out;
  }

  async rm(raw: string, recursive: boolean, force: boolean, syscall: string): Promise<void> {
    const path = joinPath(raw);
    const found = await this.#find(path);
    if (found.kind === 'none') {
      if (force) return;
      throw fsError('ENOENT', syscall, raw, 'no such file or directory');
    }
    if (found.kind === 'base' && found.stats.isSymbolicLink()) throw fsError('EPERM', syscall, raw, NOT_STAGED_LINK);
    const isDir = found.kind === 'dir' || (found.kind === 'base' && found.stats.isDirectory());
    if (!isDir) return this.#stage(path, null, syscall);
    if (path === this.#root) throw fsError('EPERM', syscall, raw, 'the workspace root cannot be removed');
    if (!recursive) throw fsError(syscall === 'unlink' ? 'EISDIR' : 'ERR_FS_EISDIR', syscall, raw, 'is a directory');
    const dirs: string[] = [];
    const files = await this.#filesUnder(path, syscall, dirs);
    for (const file of files) await this.#stage(file, null, syscall);
    for (const dir of dirs) (this.layer.dirs.delete(dir), this.layer.removed.add(dir));
  }

  async rename(rawFrom: string, rawTo: string): Promise<void> {
    const from = joinPath(rawFrom);
    const to = joinPath(rawTo);
    const found = await this.#find(from);
    if (found.kind === 'none') throw fsError('ENOENT', 'rename', rawFrom, 'no such file or directory');
    if (found.kind === 'base' && found.stats.isSymbolicLink()) throw fsError('EPERM', 'rename', rawFrom, NOT_STAGED_LINK);
    if (from === to) return;
    const target = await this.#isDir(to);
    const parent = await this.#isDir(parentOf(to));
    if (parent !== true) throw fsError(parent === undefined ? 'ENOENT' : 'ENOTDIR', 'rename', rawTo, parent === undefined ? 'no such file or directory' : 'not a directory');
    const isDir = found.kind === 'dir' || (found.kind === 'base' && found.stats.isDirectory());
    if (!isDir) {
      if (target === true) throw fsError('EISDIR', 'rename', rawTo, 'illegal operation on a directory');
      const bytes = await this.readFile(from);
      await this.#stage(to, bytes, 'rename');
      await this.#stage(from, null, 'rename');
      return;
    }
    if (to.startsWith(`${from}/`)) throw fsError('EINVAL', 'rename', rawTo, 'invalid argument');
    if (target === false) throw fsError('ENOTDIR', 'rename', rawTo, 'not a directory');
    if (target === true && ((await this.readdir(to)) as string[]).length > 0) throw fsError('ENOTEMPTY', 'rename', rawTo, 'directory not empty');
    const dirs: string[] = [];
    const files = await this.#filesUnder(from, 'rename', dirs);
    const moved = new Map<string, Uint8Array>();
    for (const file of files) moved.set(file, await this.readFile(file));
    for (const dir of dirs) this.layer.dirs.add(to + dir.slice(from.length));
    for (const [file, bytes] of moved) await this.#stage(to + file.slice(from.length), bytes, 'rename');
    for (const file of files) await this.#stage(file, null, 'rename');
    for (const dir of dirs) (this.layer.dirs.delete(dir), this.layer.removed.add(dir));
    for (const dir of dirs) this.layer.removed.delete(to + dir.slice(from.length));
  }
}

/** The error a command gets in a reviewed conversation: it would neither see the staged files nor have its changes reviewed. */
function commandsStaged(): ToolError {
  return new ToolError(
    'unavailable',
    'commands cannot run while this conversation works in review mode: a command would not see your pending changes, and its own changes would skip review; use the file tools, or ask the user to accept or reject the pending changes first',
  );
}

/**
 * `platform` as a reviewed conversation's tools see it: `fs` is the staged view, writes are in place
 * (`atomicWrites`), search tools read through `fs` (no `search` engine of the platform's: the default one over the staged `fs`; no `changeCount`), and
 * commands are refused (`unavailable`). Everything else is the platform's own, bound to it.
 */
export function stagedPlatform(platform: Platform, fs: FsPromises): Platform {
  const refuse = (): Promise<never> => Promise.reject(commandsStaged());
  const overrides: Record<PropertyKey, unknown> = {
    fs,
    atomicWrites: true,
    search: undefined,
    changeCount: undefined,
    runCommand: refuse,
    shellSession: typeof platform.shellSession === 'function' ? () => ({ run: refuse, restart: () => Promise.resolve() }) : undefined,
    backgroundCommands: platform.backgroundCommands ? { start: refuse, output: refuse, list: () => Promise.resolve([]), stop: refuse } : undefined,
  };
  return new Proxy(platform, {
    get(target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    has(target, property) {
      return Object.hasOwn(overrides, property) ? overrides[property] !== undefined : Reflect.has(target, property);
    },
  });
}
