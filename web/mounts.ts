import type { FsDirent, FsPromises, FsStats } from '../src/core/types.js';
import { normalizePath } from '../src/core/posix-path.js';

/** One filesystem mounted at an absolute path; it addresses its own content from `/`. */
export interface Mount {
  /** Absolute canonical path, e.g. `/workspace/docs`. */
  path: string;
  fs: FsPromises;
}

function fsError(code: string, syscall: string, path: string, detail: string): Error {
  return Object.assign(new Error(`${code}: ${detail}, ${syscall} '${path}'`), { code, syscall, path });
}

const FOLDER: FsStats = { size: 0, mtimeMs: 0, mode: 0o40755, isFile: () => false, isDirectory: () => true, isSymbolicLink: () => false };

function folderDirent(name: string): FsDirent {
  return { name, isFile: () => false, isDirectory: () => true, isSymbolicLink: () => false };
}

/**
 * One {@link FsPromises} over a base filesystem (absolute paths) and filesystems mounted at paths under
 * it, as a Unix mount table: the deepest mount containing a path serves it; a folder above a mount point
 * lists the mount point (and exists even where the base has no such folder), so walks and searches
 * cross mounts. A rename between two mounts fails with `EXDEV`; a symlink's target is stored as given.
 */
export function mountTable(base: FsPromises, mounts: readonly Mount[]): FsPromises {
  const table = [...mounts].map((m) => ({ path: normalizePath(m.path), fs: m.fs })).sort((a, b) => b.path.length - a.path.length);
  const route = (path: string): { fs: FsPromises; path: string; mount: string | undefined } => {
    const p = normalizePath(path);
    for (const m of table) {
      if (p === m.path) return { fs: m.fs, path: '/', mount: m.path };
      if (p.startsWith(`${m.path}/`)) return { fs: m.fs, path: p.slice(m.path.length), mount: m.path };
    }
    return { fs: base, path: p, mount: undefined };
  };
  /** Names of mount points (or folders leading to them) directly inside `dir`, not served by a mount itself. */
  const childMounts = (dir: string): string[] => {
    const d = normalizePath(dir);
    const prefix = d === '/' ? '/' : `${d}/`;
    const names = new Set<string>();
    for (const m of table) if (m.path.startsWith(prefix)) names.add(m.path.slice(prefix.length).split('/')[0] as string);
    return [...names];
  };
  const isAbsent = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'ENOENT';

  async function statOf(path: string, how: 'stat' | 'lstat'): Promise<FsStats> {
    const r = route(path);
    if (r.mount !== undefined) return r.fs[how](r.path);
    try {
      return await base[how](r.path);
    } catch (error) {
      if (isAbsent(error) && childMounts(r.path).length > 0) return FOLDER;
      throw error;
    }
  }

  function readdir(path: string): Promise<string[]>;
  function readdir(path: string, options: { withFileTypes: true }): Promise<FsDirent[]>;
  async function readdir(path: string, options?: { withFileTypes: true }): Promise<string[] | FsDirent[]> {
    const r = route(path);
    if (r.mount !== undefined) return options ? r.fs.readdir(r.path, options) : r.fs.readdir(r.path);
    const extra = childMounts(r.path);
    let own: FsDirent[] = [];
    try {
      own = await base.readdir(r.path, { withFileTypes: true });
    } catch (error) {
      if (!(isAbsent(error) && extra.length > 0)) throw error;
    }
    const shadowed = new Set(extra);
    const merged = [...own.filter((d) => !shadowed.has(d.name)), ...extra.map(folderDirent)].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    return options ? merged : merged.map((d) => d.name);
  }

  return {
    readFile: (path) => {
      const r = route(path);
      return r.fs.readFile(r.path);
    },
    writeFile: (path, data) => {
      const r = route(path);
      return r.fs.writeFile(r.path, data);
    },
    mkdir: (path, options) => {
      const r = route(path);
      return r.fs.mkdir(r.path, options);
    },
    readdir,
    stat: (path) => statOf(path, 'stat'),
    lstat: (path) => statOf(path, 'lstat'),
    readlink: (path) => {
      const r = route(path);
      return r.fs.readlink(r.path);
    },
    symlink: (target, path) => {
      const r = route(path);
      return r.fs.symlink(target, r.path);
    },
    rename: async (oldPath, newPath) => {
      const from = route(oldPath);
      const to = route(newPath);
      if (from.fs !== to.fs) throw fsError('EXDEV', 'rename', oldPath, `cannot move across mounts (to ${newPath}); copy the file and delete the original`);
      if (from.mount !== undefined && from.path === '/') throw fsError('EBUSY', 'rename', oldPath, 'a mount point cannot be moved');
      return from.fs.rename(from.path, to.path);
    },
    rm: async (path, options) => {
      const r = route(path);
      if (r.mount !== undefined && r.path === '/') throw fsError('EBUSY', 'rm', path, 'a mount point cannot be removed');
      return r.fs.rm(r.path, options);
    },
    unlink: (path) => {
      const r = route(path);
      return r.fs.unlink(r.path);
    },
  };
}

/** The part of `fs` under `prefix`, addressed from `/` (so it can be mounted elsewhere). */
export function subtreeFs(fs: FsPromises, prefix: string): FsPromises {
  const root = normalizePath(prefix);
  const at = (path: string): string => {
    const p = normalizePath(path);
    return p === '/' ? root : `${root}${p}`;
  };
  function readdir(path: string): Promise<string[]>;
  function readdir(path: string, options: { withFileTypes: true }): Promise<FsDirent[]>;
  function readdir(path: string, options?: { withFileTypes: true }): Promise<string[] | FsDirent[]> {
    return options ? fs.readdir(at(path), options) : fs.readdir(at(path));
  }
  return {
    readFile: (path) => fs.readFile(at(path)),
    writeFile: (path, data) => fs.writeFile(at(path), data),
    mkdir: (path, options) => fs.mkdir(at(path), options),
    readdir,
    stat: (path) => fs.stat(at(path)),
    lstat: (path) => fs.lstat(at(path)),
    readlink: (path) => fs.readlink(at(path)),
    symlink: (target, path) => fs.symlink(target, at(path)),
    rename: (a, b) => fs.rename(at(a), at(b)),
    rm: (path, options) => fs.rm(at(path), options),
    unlink: (path) => fs.unlink(at(path)),
  };
}

const WRITES = ['writeFile', 'mkdir', 'symlink', 'rename', 'rm', 'unlink'] as const;

/** `fs` with every write refused: `EACCES` (→ `permission_denied`) naming `label` and the path (under `prefix`, where it is mounted), and nothing changed. */
export function readOnlyFs(fs: FsPromises, label: string, prefix = ''): FsPromises {
  const out = { ...bind(fs) };
  for (const name of WRITES) {
    (out as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const inner = normalizePath(String(args[name === 'symlink' || name === 'rename' ? 1 : 0]));
      const path = prefix === '' ? inner : inner === '/' ? prefix : `${prefix}${inner}`;
      throw fsError('EACCES', name, path, `${label} is mounted read-only; nothing was changed`);
    };
  }
  return out;
}

function bind(fs: FsPromises): FsPromises {
  function readdir(path: string): Promise<string[]>;
  function readdir(path: string, options: { withFileTypes: true }): Promise<FsDirent[]>;
  function readdir(path: string, options?: { withFileTypes: true }): Promise<string[] | FsDirent[]> {
    return options ? fs.readdir(path, options) : fs.readdir(path);
  }
  return {
    readFile: (p) => fs.readFile(p),
    writeFile: (p, d) => fs.writeFile(p, d),
    mkdir: (p, o) => fs.mkdir(p, o),
    readdir,
    stat: (p) => fs.stat(p),
    lstat: (p) => fs.lstat(p),
    readlink: (p) => fs.readlink(p),
    symlink: (t, p) => fs.symlink(t, p),
    rename: (a, b) => fs.rename(a, b),
    rm: (p, o) => fs.rm(p, o),
    unlink: (p) => fs.unlink(p),
  };
}
