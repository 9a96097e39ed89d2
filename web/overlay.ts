import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff/lib/patch/create.js';
import { toToolError, ToolError } from '../src/core/errors.js';
import type { FsDirent, FsPromises, FsStats } from '../src/core/types.js';
import { fsError, split } from './handle-fs.js';

/** One difference between an overlay workspace and its base; `path` is relative to the workspace root. */
export interface OverlayChange {
  path: string;
  kind: 'created' | 'modified' | 'deleted';
  /** Unified diff from the base's current text to the overlay's (`--- path` / `+++ path` headers, 3 lines of context, as edit_file's); a note for binary files. */
  diff: string;
  /** Set when the base's file changed since the overlay first changed it (or appeared since it was created): {@link OverlayControl.apply} refuses it. */
  conflict?: string;
}

/** What {@link OverlayControl.apply} did: every path written to the base, or nothing and the conflicts. */
export interface OverlayApplyResult {
  applied: string[];
  conflicts: Array<{ path: string; reason: string }>;
}

/** The review members of an overlay workspace. */
export interface OverlayControl {
  /** What differs from the base: created, modified and deleted files, sorted by path, each with its diff. */
  changes(): Promise<OverlayChange[]>;
  /**
   * Writes every change to the base, then empties the overlay. All or nothing: with any conflict nothing
   * is written (the result lists them); when a write fails, the files already written are restored and
   * the call rejects with that write's code.
   */
  apply(): Promise<OverlayApplyResult>;
  /** Drops every change: the workspace shows the base again. */
  discard(): Promise<void>;
}

interface Meta {
  /** Relative paths deleted in the overlay (a folder hides the base's whole subtree). */
  deleted: string[];
  /** SHA-256 (hex) of the base's file when the overlay first changed it; `null` when the base had none. */
  originals: Record<string, string | null>;
}

const META = '.toolhost-overlay.json';

const code = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
function asText(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return '';
  if (bytes.includes(0)) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A copy-on-write workspace: reads fall through to `base` (addressed from `/`) until the overlay
 * (`upper`, absolute paths under `root`) has its own copy; every write goes to the overlay; deletions are
 * recorded so the base's files stay hidden. The record (deletions, the base's hash of each changed file)
 * lives in a hidden file of the overlay, so it is committed with the call's own changes.
 */
export function overlayFs(options: { upper: FsPromises; base: FsPromises; root: string; flush: () => Promise<void> }): { fs: FsPromises; control: OverlayControl } {
  const overlay = new Overlay(options);
  const fs: FsPromises = {
    readFile: (path) => overlay.readFile(path),
    writeFile: (path, data) => overlay.writeFile(path, data),
    mkdir: (path, opts) => overlay.mkdir(path, opts),
    readdir: ((path: string, opts?: { withFileTypes: true }) => overlay.readdir(path, opts)) as FsPromises['readdir'],
    stat: (path) => overlay.stat(path),
    lstat: (path) => overlay.lstat(path),
    readlink: (path) => overlay.readlink(path),
    symlink: (target, path) => overlay.symlink(target, path),
    rename: (oldPath, newPath) => overlay.rename(oldPath, newPath),
    rm: (path, opts) => overlay.rm(path, opts),
    unlink: (path) => overlay.removeMerged(path, false, 'unlink'),
  };
  const control: OverlayControl = {
    changes: () => overlay.changes(),
    apply: () => overlay.apply(),
    discard: () => overlay.discard(),
  };
  return { fs, control };
}

/** Where a path lives now: the overlay, the base, or nowhere. */
type Located = { where: 'upper' | 'lower'; stats: FsStats; rel: string[] } | { where: 'none'; rel: string[] | undefined };

/** A file an apply wrote to the base, with its content before (undefined: it did not exist), to restore on failure. */
interface Applied {
  rel: string[];
  before: Uint8Array | undefined;
}

/** The merged view of {@link overlayFs} and its review operations (changes, apply, discard). */
class Overlay {
  readonly #upper: FsPromises;
  readonly #base: FsPromises;
  readonly #flush: () => Promise<void>;
  readonly #rootParts: string[];
  readonly #metaPath: string;
  #meta: Meta | undefined;

  constructor(options: { upper: FsPromises; base: FsPromises; root: string; flush: () => Promise<void> }) {
    this.#upper = options.upper;
    this.#base = options.base;
    this.#flush = options.flush;
    this.#rootParts = split(options.root);
    this.#metaPath = `/${[...this.#rootParts, META].join('/')}`;
  }

  // --- paths -------------------------------------------------------------------------------------

  /** Relative parts of an absolute path inside the workspace, or undefined outside it. */
  #relParts(path: string): string[] | undefined {
    const parts = split(path);
    const rootParts = this.#rootParts;
    if (parts.length < rootParts.length || rootParts.some((p, i) => parts[i] !== p)) return undefined;
    return parts.slice(rootParts.length);
  }

  #up(rel: string[]): string {
    return `/${[...this.#rootParts, ...rel].join('/')}`;
  }

  #isMeta(path: string): boolean {
    const rel = this.#relParts(path);
    return rel !== undefined && rel.length === 1 && rel[0] === META;
  }

  // --- the record --------------------------------------------------------------------------------

  async #loadMeta(): Promise<Meta> {
    if (this.#meta) return this.#meta;
    try {
      this.#meta = JSON.parse(new TextDecoder().decode(await this.#upper.readFile(this.#metaPath))) as Meta;
    } catch (error) {
      if (code(error) !== 'ENOENT') throw error;
      this.#meta = { deleted: [], originals: {} };
    }
    return this.#meta;
  }

  async #saveMeta(): Promise<void> {
    const m = await this.#loadMeta();
    if (m.deleted.length === 0 && Object.keys(m.originals).length === 0) await this.#upper.rm(this.#metaPath, { force: true });
    else await this.#upper.writeFile(this.#metaPath, JSON.stringify(m));
  }

  /** Records the base's hash of `rel` (and, for a folder, of every file under it) before the first change. */
  async #remember(rel: string[]): Promise<void> {
    const m = await this.#loadMeta();
    const visible = !hidden(m, rel);
    const files = visible ? await this.#lowerFiles(rel) : [];
    if (files.length === 0 && !(key(rel) in m.originals)) {
      const stats = visible ? await this.#lowerStat(rel) : undefined;
      if (!stats?.isDirectory()) m.originals[key(rel)] = null;
    }
    for (const file of files) {
      if (key(file) in m.originals) continue;
      m.originals[key(file)] = await sha256(await this.#base.readFile(low(file)));
    }
  }

  // --- lookups -----------------------------------------------------------------------------------

  async #inUpper(path: string): Promise<FsStats | undefined> {
    return statOrNothing(() => this.#upper.lstat(path));
  }

  async #lowerStat(rel: string[]): Promise<FsStats | undefined> {
    return statOrNothing(() => this.#base.lstat(low(rel)));
  }

  /** Where `path` lives now: the overlay, the base, or nowhere. */
  async #locate(path: string): Promise<Located> {
    if (this.#isMeta(path)) return { where: 'none', rel: undefined };
    const rel = this.#relParts(path);
    const own = await this.#inUpper(path);
    if (own) return { where: 'upper', stats: own, rel: rel ?? [] };
    if (rel === undefined) return { where: 'none', rel };
    const m = await this.#loadMeta();
    if (hidden(m, rel)) return { where: 'none', rel };
    const stats = await this.#lowerStat(rel);
    return stats ? { where: 'lower', stats, rel } : { where: 'none', rel };
  }

  async #lowerFiles(rel: string[]): Promise<string[][]> {
    const stats = await this.#lowerStat(rel);
    if (!stats) return [];
    if (!stats.isDirectory()) return [rel];
    const out: string[][] = [];
    for (const d of await this.#base.readdir(low(rel), { withFileTypes: true })) out.push(...(await this.#lowerFiles([...rel, d.name])));
    return out;
  }

  async #upperFiles(rel: string[]): Promise<string[][]> {
    const path = this.#up(rel);
    const stats = await this.#inUpper(path);
    if (!stats) return [];
    if (!stats.isDirectory()) return rel.length === 1 && rel[0] === META ? [] : [rel];
    const out: string[][] = [];
    for (const name of await this.#upper.readdir(path)) out.push(...(await this.#upperFiles([...rel, name])));
    return out;
  }

  async #readLower(rel: string[]): Promise<Uint8Array | undefined> {
    const stats = await this.#lowerStat(rel);
    return stats && !stats.isDirectory() ? this.#base.readFile(low(rel)) : undefined;
  }

  /** Makes the overlay hold `rel`'s parent folders (which exist in the merged view). */
  async #ensureParent(path: string): Promise<void> {
    const rel = this.#relParts(path);
    if (!rel || rel.length <= 1) return;
    const parent = rel.slice(0, -1);
    const found = await this.#locate(this.#up(parent));
    if (found.where === 'none') throw fsError('ENOENT', 'open', path, 'no such file or directory');
    if (!found.stats.isDirectory()) throw fsError('ENOTDIR', 'open', path, 'not a directory');
    if (found.where === 'lower') await this.#upper.mkdir(this.#up(parent), { recursive: true });
  }

  // --- the merged filesystem ---------------------------------------------------------------------

  async readFile(path: string): Promise<Uint8Array> {
    const found = await this.#locate(path);
    if (found.where === 'upper') return this.#upper.readFile(path);
    if (found.where === 'lower') return this.#base.readFile(low(found.rel));
    throw fsError('ENOENT', 'open', path, 'no such file or directory');
  }

  async writeFile(path: string, data: Uint8Array | string): Promise<void> {
    if (this.#isMeta(path)) throw fsError('EACCES', 'open', path, 'reserved for the overlay');
    const rel = this.#relParts(path);
    if (rel === undefined) return this.#upper.writeFile(path, data);
    const found = await this.#locate(path);
    if (found.where !== 'none' && found.stats.isDirectory()) throw fsError('EISDIR', 'open', path, 'illegal operation on a directory');
    await this.#ensureParent(path);
    await this.#remember(rel);
    await this.#upper.writeFile(path, data);
    await this.#saveMeta();
  }

  async mkdir(path: string, opts?: { recursive?: boolean }): Promise<unknown> {
    const found = await this.#locate(path);
    if (found.where !== 'none') {
      if (opts?.recursive && found.stats.isDirectory()) return undefined;
      throw fsError('EEXIST', 'mkdir', path, 'file already exists');
    }
    if (!opts?.recursive) await this.#ensureParent(path);
    return this.#upper.mkdir(path, { recursive: true });
  }

  async readdir(path: string, options?: { withFileTypes: true }): Promise<string[] | FsDirent[]> {
    const found = await this.#locate(path);
    if (found.where === 'none') throw fsError('ENOENT', 'scandir', path, 'no such file or directory');
    if (!found.stats.isDirectory()) throw fsError('ENOTDIR', 'scandir', path, 'not a directory');
    const m = await this.#loadMeta();
    const byName = new Map<string, FsDirent>();
    const rel = found.rel;
    if (rel && !hidden(m, rel) && (await this.#lowerStat(rel))?.isDirectory()) {
      for (const d of await this.#base.readdir(low(rel), { withFileTypes: true })) if (!m.deleted.includes(key([...rel, d.name]))) byName.set(d.name, d);
    }
    if (found.where === 'upper') {
      for (const d of await this.#upper.readdir(path, { withFileTypes: true })) if (!(rel?.length === 0 && d.name === META)) byName.set(d.name, d);
    }
    const list = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return options ? list : list.map((d) => d.name);
  }

  async stat(path: string): Promise<FsStats> {
    const found = await this.#locate(path);
    if (found.where === 'upper') return this.#upper.stat(path);
    if (found.where === 'lower') return this.#base.stat(low(found.rel));
    throw fsError('ENOENT', 'stat', path, 'no such file or directory');
  }

  async lstat(path: string): Promise<FsStats> {
    const found = await this.#locate(path);
    if (found.where === 'none') throw fsError('ENOENT', 'lstat', path, 'no such file or directory');
    return found.stats;
  }

  async readlink(path: string): Promise<string> {
    const found = await this.#locate(path);
    if (found.where === 'upper') return this.#upper.readlink(path);
    if (found.where === 'lower') return this.#base.readlink(low(found.rel));
    throw fsError('ENOENT', 'readlink', path, 'no such file or directory');
  }

  async symlink(target: string, path: string): Promise<void> {
    await this.#ensureParent(path);
    const rel = this.#relParts(path);
    if (rel) await this.#remember(rel);
    await this.#upper.symlink(target, path);
    await this.#saveMeta();
  }

  async rename(oldPath: string, newPath: string): Promise<void> {
    const found = await this.#locate(oldPath);
    if (found.where === 'none') throw fsError('ENOENT', 'rename', oldPath, 'no such file or directory');
    const target = await this.#locate(newPath);
    if (target.where !== 'none') await this.removeMerged(newPath, true, 'rename');
    await this.#copy(oldPath, newPath);
    await this.removeMerged(oldPath, true, 'rename');
  }

  /** Copies `from` (a file, link or folder tree) to `to` in the merged view. */
  async #copy(from: string, to: string): Promise<void> {
    const stats = await this.lstat(from);
    if (stats.isDirectory()) {
      await this.mkdir(to, { recursive: true });
      for (const name of (await this.readdir(from)) as string[]) await this.#copy(`${from}/${name}`, `${to}/${name}`);
    } else if (stats.isSymbolicLink()) {
      await this.symlink(await this.readlink(from), to);
    } else {
      await this.writeFile(to, await this.readFile(from));
    }
  }

  async rm(path: string, opts?: { recursive?: boolean; force?: boolean }): Promise<void> {
    try {
      await this.removeMerged(path, opts?.recursive === true, 'rm');
    } catch (error) {
      if (!(opts?.force && code(error) === 'ENOENT')) throw error;
    }
  }

  async removeMerged(path: string, recursive: boolean, syscall: string): Promise<void> {
    const found = await this.#locate(path);
    if (found.where === 'none') throw fsError('ENOENT', syscall, path, 'no such file or directory');
    if (found.stats.isDirectory() && !recursive) throw fsError('EISDIR', syscall, path, 'is a directory');
    const rel = found.rel;
    if (!rel || rel.length === 0) throw fsError('EPERM', syscall, path, 'cannot remove the workspace root');
    await this.#remember(rel);
    if (found.where === 'upper') await this.#upper.rm(path, { recursive: true });
    const m = await this.#loadMeta();
    if ((await this.#lowerStat(rel)) && !m.deleted.includes(key(rel))) m.deleted.push(key(rel));
    await this.#saveMeta();
  }

  // --- review ------------------------------------------------------------------------------------

  async changes(): Promise<OverlayChange[]> {
    const m = await this.#loadMeta();
    const out: OverlayChange[] = [];
    const own = await this.#upperFiles([]);
    const ownKeys = new Set(own.map(key));
    for (const rel of own) {
      const after = await this.#upper.readFile(this.#up(rel));
      const before = await this.#readLower(rel);
      if (before && equalBytes(before, after)) continue;
      const conflict = await conflictOf(m, rel, before);
      out.push({ path: key(rel), kind: before ? 'modified' : 'created', diff: diffOf(key(rel), before, after), ...(conflict ? { conflict } : {}) });
    }
    const seen = new Set<string>();
    for (const d of m.deleted) {
      for (const rel of await this.#lowerFiles(split(d))) {
        const k = key(rel);
        if (ownKeys.has(k) || seen.has(k)) continue;
        seen.add(k);
        const before = await this.#base.readFile(low(rel));
        const conflict = await conflictOf(m, rel, before);
        out.push({ path: k, kind: 'deleted', diff: diffOf(k, before, undefined), ...(conflict ? { conflict } : {}) });
      }
    }
    // A file deleted in the overlay that the base has lost since: a conflict too.
    for (const [k, was] of Object.entries(m.originals)) {
      if (was === null || ownKeys.has(k) || seen.has(k) || out.some((c) => c.path === k)) continue;
      const rel = split(k);
      if ((await this.#lowerStat(rel)) === undefined && hidden(m, rel)) {
        out.push({ path: k, kind: 'deleted', diff: '', conflict: 'the file was deleted from the base since' });
      }
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async apply(): Promise<OverlayApplyResult> {
    const list = await this.changes();
    const conflicts = list.filter((c) => c.conflict !== undefined).map((c) => ({ path: c.path, reason: c.conflict as string }));
    if (conflicts.length > 0) return { applied: [], conflicts };
    const done: Applied[] = [];
    try {
      await this.#writeToBase(list, done);
    } catch (error) {
      await this.#restoreBase(done);
      const failure = toToolError(error);
      throw new ToolError(failure.code, `applying the overlay failed (${failure.message}); the files already written to the base were restored and the overlay is unchanged`);
    }
    await this.discard();
    return { applied: list.map((c) => c.path), conflicts: [] };
  }

  /** Writes each change to the base (recording in `done` what it replaced), then removes the folders the overlay deleted. */
  async #writeToBase(list: readonly OverlayChange[], done: Applied[]): Promise<void> {
    const base = this.#base;
    for (const change of list) {
      const rel = split(change.path);
      const before = await this.#readLower(rel);
      if (change.kind === 'deleted') {
        await base.rm(low(rel), { force: true });
      } else {
        if (rel.length > 1) await base.mkdir(low(rel.slice(0, -1)), { recursive: true });
        await base.writeFile(low(rel), await this.#upper.readFile(this.#up(rel)));
      }
      done.push({ rel, before });
    }
    const m = await this.#loadMeta();
    for (const d of m.deleted) {
      const rel = split(d);
      if ((await this.#lowerStat(rel))?.isDirectory() && !(await this.#inUpper(this.#up(rel)))) await base.rm(low(rel), { recursive: true, force: true });
    }
  }

  /** Puts back what an apply that failed had written to the base, newest first. */
  async #restoreBase(done: Applied[]): Promise<void> {
    for (const { rel, before } of done.reverse()) {
      if (before === undefined) await this.#base.rm(low(rel), { force: true }).catch(() => undefined);
      else await this.#base.writeFile(low(rel), before).catch(() => undefined);
    }
  }

  async discard(): Promise<void> {
    for (const name of await this.#upper.readdir(this.#up([]))) await this.#upper.rm(this.#up([name]), { recursive: true, force: true });
    this.#meta = { deleted: [], originals: {} };
    await this.#flush();
  }
}

/** The base path of workspace-relative parts (the base is addressed from `/`). */
function low(rel: string[]): string {
  return `/${rel.join('/')}`;
}

/** The record's key of workspace-relative parts. */
function key(rel: string[]): string {
  return rel.join('/');
}

/** Whether `rel` or a folder above it was deleted in the overlay. */
function hidden(m: Meta, rel: string[]): boolean {
  for (let i = 1; i <= rel.length; i += 1) if (m.deleted.includes(key(rel.slice(0, i)))) return true;
  return false;
}

/** An lstat, or undefined when the path does not exist (ENOENT, ENOTDIR). */
async function statOrNothing(lstat: () => Promise<FsStats>): Promise<FsStats | undefined> {
  try {
    return await lstat();
  } catch (error) {
    if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Why the base's `rel` (now `current`) no longer matches the hash recorded before the overlay changed it, or undefined. */
async function conflictOf(m: Meta, rel: string[], current: Uint8Array | undefined): Promise<string | undefined> {
  const k = key(rel);
  if (!(k in m.originals)) return undefined;
  const was = m.originals[k];
  const now = current === undefined ? null : await sha256(current);
  if (was === now) return undefined;
  return was === null ? 'the base has a file here now that it did not have' : now === null ? 'the file was deleted from the base since' : 'the base file changed since the overlay changed it';
}

/** The unified diff of one change (a line for a binary file). */
function diffOf(path: string, before: Uint8Array | undefined, after: Uint8Array | undefined): string {
  const a = asText(before);
  const b = asText(after);
  if (a === undefined || b === undefined) return `Binary file ${path} ${after === undefined ? 'deleted' : before === undefined ? 'created' : 'changed'}\n`;
  return formatPatch(structuredPatch(path, path, a, b, '', '', { context: 3 }), FILE_HEADERS_ONLY);
}
