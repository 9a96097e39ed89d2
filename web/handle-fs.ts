import { ToolError } from '../src/core/errors.js';
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

const iterable = (dir: FileSystemDirectoryHandle): IterableDirectory => dir as IterableDirectory;

/** How long a successful check that the folder itself still exists is trusted, in ms. */
const ROOT_RECHECK_MS = 250;

type Entry = { kind: 'file'; handle: FileSystemFileHandle } | { kind: 'directory'; handle: FileSystemDirectoryHandle };

/** A Node-style filesystem error (`code` is what the tools and toToolError read). */
export function fsError(code: string, syscall: string, path: string, detail: string): Error {
  return Object.assign(new Error(`${code}: ${detail}, ${syscall} '${path}'`), { code, syscall, path });
}

/** The components of `path`, with `.` dropped and `..` applied (never above the root). */
export function split(path: string): string[] {
  const out: string[] = [];
  for (const part of String(path).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out;
}

function join(parts: readonly string[]): string {
  return `/${parts.join('/')}`;
}

function stats(kind: 'file' | 'directory', size: number, mtimeMs: number): FsStats {
  return {
    size,
    mtimeMs,
    mode: kind === 'file' ? 0o100644 : 0o40755,
    isFile: () => kind === 'file',
    isDirectory: () => kind === 'directory',
    isSymbolicLink: () => false,
  };
}

function dirent(name: string, kind: 'file' | 'directory'): FsDirent {
  return { name, isFile: () => kind === 'file', isDirectory: () => kind === 'directory', isSymbolicLink: () => false };
}

function domName(error: unknown): string | undefined {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

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
export class HandleFs implements FsPromises {
  readonly root: FileSystemDirectoryHandle;
  readonly readOnly: boolean;
  readonly #label: string;
  readonly #dirs = new Map<string, FileSystemDirectoryHandle>();
  #rootSeenAt = -Infinity;

  constructor(root: FileSystemDirectoryHandle, options: HandleFsOptions = {}) {
    this.root = root;
    this.readOnly = options.readOnly === true;
    this.#label = options.label ?? `the folder "${root.name}"`;
  }

  /** Maps a DOMException of the File System Access API to a Node-style error or a ToolError. */
  async #map(error: unknown, syscall: string, path: string): Promise<Error> {
    const name = domName(error);
    if ((error as { code?: unknown } | null)?.code !== undefined && !(error instanceof DOMException)) return error as Error;
    switch (name) {
      case 'NotFoundError':
        if (!(await this.#rootExists())) {
          return new ToolError(
            'unavailable',
            `${this.#label} is gone (moved, renamed or deleted outside the browser); pick it again with showDirectoryPicker() and reopen the workspace with createWebPlatform({ workspace, backend: folderWorkspace(handle) })`,
          );
        }
        return fsError('ENOENT', syscall, path, 'no such file or directory');
      case 'TypeMismatchError':
        return fsError('ENOTDIR', syscall, path, 'a file is where a folder was expected, or a folder where a file was');
      case 'InvalidModificationError':
        return fsError('ENOTEMPTY', syscall, path, 'directory not empty');
      case 'NotAllowedError':
      case 'SecurityError':
        return new ToolError(
          'permission_denied',
          `the browser does not allow access to ${this.#label} any more (permission withdrawn); call handle.requestPermission({ mode: 'readwrite' }) from a click on the page (rememberedDirectory(workspace) returns the handle) and reopen the workspace`,
        );
      case 'NoModificationAllowedError':
        return fsError('EBUSY', syscall, path, 'the file is locked by another writer');
      case 'TypeError':
        return fsError('EINVAL', syscall, path, `the browser refuses this name (${(error as Error).message})`);
      default:
        return error instanceof Error ? error : new Error(String(error));
    }
  }

  async #rootExists(): Promise<boolean> {
    // Checked on a NotFoundError, at most every ROOT_RECHECK_MS: create_file meets two on every new file,
    // and each check is a round trip to the browser's storage process (about 1 ms here).
    if (performance.now() - this.#rootSeenAt < ROOT_RECHECK_MS) return true;
    try {
      await iterable(this.root).keys().next();
      this.#rootSeenAt = performance.now();
      return true;
    } catch (error) {
      return domName(error) !== 'NotFoundError';
    }
  }

  async #run<T>(syscall: string, path: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw await this.#map(error, syscall, path);
    }
  }

  #checkWritable(syscall: string, path: string): void {
    if (this.readOnly) throw fsError('EACCES', syscall, path, `${this.#label} is mounted read-only; nothing was changed`);
  }

  async #dir(parts: readonly string[], create = false): Promise<FileSystemDirectoryHandle> {
    let dir = this.root;
    for (let i = 0; i < parts.length; i += 1) {
      const key = join(parts.slice(0, i + 1));
      const cached = this.#dirs.get(key);
      if (cached) {
        dir = cached;
        continue;
      }
      dir = await dir.getDirectoryHandle(parts[i] as string, { create });
      this.#dirs.set(key, dir);
    }
    return dir;
  }

  async #entry(parts: readonly string[]): Promise<Entry> {
    if (parts.length === 0) return { kind: 'directory', handle: this.root };
    const key = join(parts);
    const cached = this.#dirs.get(key);
    if (cached) return { kind: 'directory', handle: cached };
    const parent = await this.#dir(parts.slice(0, -1));
    const name = parts[parts.length - 1] as string;
    try {
      return { kind: 'file', handle: await parent.getFileHandle(name) };
    } catch (error) {
      if (domName(error) !== 'TypeMismatchError') throw error;
      const handle = await parent.getDirectoryHandle(name);
      this.#dirs.set(key, handle);
      return { kind: 'directory', handle };
    }
  }

  #forget(parts: readonly string[]): void {
    const key = join(parts);
    for (const cached of [...this.#dirs.keys()]) if (cached === key || cached.startsWith(`${key}/`)) this.#dirs.delete(cached);
  }

  async readFile(path: string): Promise<Uint8Array> {
    return this.#run('open', path, async () => {
      const entry = await this.#entry(split(path));
      if (entry.kind !== 'file') throw fsError('EISDIR', 'read', path, 'illegal operation on a directory');
      return new Uint8Array(await (await entry.handle.getFile()).arrayBuffer());
    });
  }

  async writeFile(path: string, data: Uint8Array | string): Promise<void> {
    this.#checkWritable('open', path);
    const parts = split(path);
    if (parts.length === 0) throw fsError('EISDIR', 'open', path, 'illegal operation on a directory');
    await this.#run('open', path, async () => {
      const parent = await this.#dir(parts.slice(0, -1));
      let handle: FileSystemFileHandle;
      try {
        handle = await parent.getFileHandle(parts[parts.length - 1] as string, { create: true });
      } catch (error) {
        if (domName(error) === 'TypeMismatchError') throw fsError('EISDIR', 'open', path, 'illegal operation on a directory');
        throw error;
      }
      const writable = await handle.createWritable({ keepExistingData: false });
      try {
        await writable.write(typeof data === 'string' ? data : (data as Uint8Array<ArrayBuffer>));
      } catch (error) {
        await writable.abort().catch(() => undefined);
        throw error;
      }
      await writable.close();
    });
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<unknown> {
    this.#checkWritable('mkdir', path);
    const parts = split(path);
    return this.#run('mkdir', path, async () => {
      if (options.recursive) {
        try {
          await this.#dir(parts, true);
        } catch (error) {
          if (domName(error) === 'TypeMismatchError') throw fsError('ENOTDIR', 'mkdir', path, 'a file is in the way');
          throw error;
        }
        return undefined;
      }
      if (parts.length === 0) throw fsError('EEXIST', 'mkdir', path, 'file already exists');
      const parent = await this.#dir(parts.slice(0, -1));
      const name = parts[parts.length - 1] as string;
      const existing = await this.#entry(parts).catch((error: unknown) => {
        if (domName(error) === 'NotFoundError') return undefined;
        throw error;
      });
      if (existing) throw fsError('EEXIST', 'mkdir', path, 'file already exists');
      this.#dirs.set(join(parts), await parent.getDirectoryHandle(name, { create: true }));
      return undefined;
    });
  }

  readdir(path: string): Promise<string[]>;
  readdir(path: string, options: { withFileTypes: true }): Promise<FsDirent[]>;
  async readdir(path: string, options?: { withFileTypes: true }): Promise<string[] | FsDirent[]> {
    return this.#run('scandir', path, async () => {
      const entry = await this.#entry(split(path));
      if (entry.kind !== 'directory') throw fsError('ENOTDIR', 'scandir', path, 'not a directory');
      const found: Array<[string, 'file' | 'directory']> = [];
      for await (const [name, handle] of iterable(entry.handle).entries()) found.push([name, handle.kind]);
      found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return options?.withFileTypes ? found.map(([name, kind]) => dirent(name, kind)) : found.map(([name]) => name);
    });
  }

  async stat(path: string): Promise<FsStats> {
    return this.#run('stat', path, async () => {
      const entry = await this.#entry(split(path));
      if (entry.kind === 'directory') return stats('directory', 0, 0);
      const file = await entry.handle.getFile();
      return stats('file', file.size, file.lastModified);
    });
  }

  lstat(path: string): Promise<FsStats> {
    return this.stat(path);
  }

  async readlink(path: string): Promise<string> {
    await this.stat(path);
    throw fsError('EINVAL', 'readlink', path, 'not a symbolic link (a browser folder has none)');
  }

  async symlink(_target: string, path: string): Promise<void> {
    this.#checkWritable('symlink', path);
    throw fsError('EPERM', 'symlink', path, 'a browser folder cannot hold symbolic links');
  }

  async rename(oldPath: string, newPath: string): Promise<void> {
    this.#checkWritable('rename', newPath);
    const from = split(oldPath);
    const to = split(newPath);
    if (join(from) === join(to)) return;
    if (join(to).startsWith(`${join(from)}/`)) throw fsError('EINVAL', 'rename', oldPath, 'cannot move a folder into itself');
    await this.#run('rename', oldPath, async () => {
      const source = await this.#entry(from);
      const target = await this.#entry(to).catch((error: unknown) => {
        if (domName(error) === 'NotFoundError') return undefined;
        throw error;
      });
      const toParent = await this.#dir(to.slice(0, -1));
      const toName = to[to.length - 1] as string;
      if (target) {
        if (target.kind === 'directory' && source.kind === 'file') throw fsError('EISDIR', 'rename', newPath, 'illegal operation on a directory');
        if (target.kind === 'file' && source.kind === 'directory') throw fsError('ENOTDIR', 'rename', newPath, 'not a directory');
        await toParent.removeEntry(toName, { recursive: false });
        this.#forget(to);
      }
      await this.#copy(source, toParent, toName);
      const fromParent = await this.#dir(from.slice(0, -1));
      await fromParent.removeEntry(from[from.length - 1] as string, { recursive: true });
      this.#forget(from);
    });
  }

  async #copy(source: Entry, parent: FileSystemDirectoryHandle, name: string): Promise<void> {
    if (source.kind === 'file') {
      const bytes = await (await source.handle.getFile()).arrayBuffer();
      const writable = await (await parent.getFileHandle(name, { create: true })).createWritable({ keepExistingData: false });
      await writable.write(bytes);
      await writable.close();
      return;
    }
    const dir = await parent.getDirectoryHandle(name, { create: true });
    for await (const [childName, child] of iterable(source.handle).entries()) {
      await this.#copy(child.kind === 'file' ? { kind: 'file', handle: child as FileSystemFileHandle } : { kind: 'directory', handle: child as FileSystemDirectoryHandle }, dir, childName);
    }
  }

  async rm(path: string, options: { recursive?: boolean; force?: boolean } = {}): Promise<void> {
    this.#checkWritable('rm', path);
    const parts = split(path);
    if (parts.length === 0) throw fsError('EPERM', 'rm', path, 'cannot remove the root of the folder');
    await this.#run('rm', path, async () => {
      let entry: Entry;
      try {
        entry = await this.#entry(parts);
      } catch (error) {
        if (options.force && domName(error) === 'NotFoundError') return;
        throw error;
      }
      if (entry.kind === 'directory' && !options.recursive) throw fsError('EISDIR', 'rm', path, 'is a directory (pass recursive)');
      const parent = await this.#dir(parts.slice(0, -1));
      await parent.removeEntry(parts[parts.length - 1] as string, { recursive: entry.kind === 'directory' });
      this.#forget(parts);
    });
  }

  async unlink(path: string): Promise<void> {
    this.#checkWritable('unlink', path);
    const parts = split(path);
    await this.#run('unlink', path, async () => {
      const entry = await this.#entry(parts);
      if (entry.kind === 'directory') throw fsError('EISDIR', 'unlink', path, 'illegal operation on a directory');
      const parent = await this.#dir(parts.slice(0, -1));
      await parent.removeEntry(parts[parts.length - 1] as string);
    });
  }
}
