import type { FsDirent, FsPromises } from '../core/types.js';
import type { SearchSource } from './source-port.js';
import { dirname, isTemporaryFileName, joinPath } from '../fs/paths.js';
import { throwIfAborted, YIELD_INTERVAL_MS, yieldToEventLoop } from '../fs/abort.js';
import {
  countSkipped,
  countSkippedUnder,
  noSkippedEntries,
  noteDroppedFor,
  skipKindOf,
  type DroppedIgnoreRules,
  type SkippedEntries,
} from './walk-report.js';
import { IGNORE_FILE_NAMES, ignoreFilesIn, isIgnored, readIgnoreFiles, type IgnoreLevel } from './ignore.js';

/** Directory names never entered unless `includeIgnored`. */
export const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Most entries (files and directories) one walk visits before it stops and reports `capped`. */
export const DEFAULT_MAX_WALK_ENTRIES = 200_000;

/** One file found by {@link walkWorkspace}. */
export interface WalkFile {
  /** Absolute workspace path. */
  path: string;
  /** Path relative to the walk's start directory (POSIX, no leading `/`). */
  rel: string;
  /** True for a symbolic link (listed only with `includeSymlinks`, never followed). */
  symlink: boolean;
}

/** Options of {@link walkWorkspace}. */
export interface WalkOptions {
  fs: FsPromises;
  /** Workspace root: `.gitignore` files from here down to `dir` apply. */
  root: string;
  /** Start directory: absolute, already resolved with `resolveWorkspacePath` (symlink-free). */
  dir: string;
  /** Also walk `.git/`, `node_modules/` and `.gitignore`d paths (default false). */
  includeIgnored?: boolean;
  /** List symbolic links as files (never followed; default false, as ripgrep does). */
  includeSymlinks?: boolean;
  /** Checked between directories; the walk rejects with the signal's reason once it fires. */
  signal?: AbortSignal;
  /** A `Date.now()` value: past it the walk stops between directories and reports `stopped` (a search's time budget). */
  deadline?: number;
  /** Stop after visiting this many entries (default {@link DEFAULT_MAX_WALK_ENTRIES}). */
  maxEntries?: number;
  /** Keep a file only when this returns true (given its path relative to `dir`). */
  fileFilter?: (rel: string) => boolean;
  /** Skip a directory (and everything under it) when this returns true. */
  pruneDir?: (rel: string) => boolean;
  /** The platform's {@link Platform.changeCount}: while it is unchanged, directory listings are reused. */
  changeCount?: () => number;
  /** The search engine's source (see `searchSourceOf`): directories are listed through it (synchronously); absent: through `fs`. */
  source?: SearchSource;
  /**
   * Called after each directory with the files listed so far and how many of them are new (the last
   * `added`), so a caller can start on them while the walk goes on. The array is the walk's own (its
   * result's `files`): read it, never change it.
   */
  onFiles?: (files: readonly WalkFile[], added: number) => void;
}

/** Directory listings per filesystem, valid while the platform's change count is `generation`. */
const listings = new WeakMap<FsPromises, { generation: number; dirs: Map<string, FsDirent[]> }>();

async function readdirCached(fs: FsPromises, path: string, changeCount: (() => number) | undefined): Promise<FsDirent[]> {
  if (!changeCount) return fs.readdir(path, { withFileTypes: true });
  const generation = changeCount();
  let cache = listings.get(fs);
  if (!cache || cache.generation !== generation) {
    cache = { generation, dirs: new Map() };
    listings.set(fs, cache);
  }
  const known = cache.dirs.get(path);
  if (known) return known;
  const dirents = await fs.readdir(path, { withFileTypes: true });
  if (changeCount() === generation) cache.dirs.set(path, dirents);
  return dirents;
}

/** What {@link walkWorkspace} found. */
export interface WalkResult {
  /** Files in no particular order. */
  files: WalkFile[];
  /** True when `maxEntries` stopped the walk early. */
  capped: boolean;
  /** True when `deadline` stopped the walk early (only with a `deadline`). */
  stopped?: boolean;
  directories: number;
  /** Entries that could not be read and were left out (see {@link SkippedEntries}). */
  skipped: SkippedEntries;
  /** `.gitignore` files some of whose rules were left out (see {@link DroppedIgnoreRules}), in the order read. */
  ignoreDropped: DroppedIgnoreRules[];
}


interface PendingDir {
  path: string;
  rel: string;
  levels: readonly IgnoreLevel[];
}

/** What one directory's listing sorted into (see {@link EntrySorter.sort}), kept with the listing. */
interface SortedListing {
  path: string;
  rel: string;
  includeIgnored: boolean;
  includeSymlinks: boolean;
  files: WalkFile[];
  dirs: Array<{ path: string; rel: string }>;
}

/**
 * Sorted listings by the listing (the array a source or `readdirCached` answered). Sources answer the
 * same array only while the directory is unchanged, so a repeated walk over unchanged directories
 * takes the files and directories found last time: no new path strings (already hashed for the
 * caches' maps) and no new file objects, which a repeated search otherwise made for every file.
 */
const sortedListings = new WeakMap<readonly FsDirent[], SortedListing>();

/**
 * The walk's inner loop: sorts one directory's entries into the files found and the directories still
 * to walk. Apart from {@link walkWorkspace} (an async function that runs for the whole walk), so the
 * loop every entry goes through is small to optimize and to optimize again.
 */
class EntrySorter {
  readonly files: WalkFile[] = [];
  /** Entries visited so far (files and directories, kept or not). */
  entries = 0;
  readonly #fileFilter: ((rel: string) => boolean) | undefined;
  readonly #pruneDir: ((rel: string) => boolean) | undefined;

  constructor(
    readonly stack: PendingDir[],
    options: Pick<WalkOptions, 'fileFilter' | 'pruneDir'>,
    readonly includeIgnored: boolean,
    readonly includeSymlinks: boolean,
    readonly maxEntries: number,
  ) {
    this.#fileFilter = options.fileFilter;
    this.#pruneDir = options.pruneDir;
  }

  /** Sorts the entries of directory `current`, under `levels` of ignore rules. False once the entry cap is passed (the rest left out). */
  sort(current: PendingDir, dirents: readonly FsDirent[], levels: readonly IgnoreLevel[]): boolean {
    const { files, stack, includeIgnored, includeSymlinks, maxEntries } = this;
    const fileFilter = this.#fileFilter;
    const pruneDir = this.#pruneDir;
    const checkIgnore = !includeIgnored && levels.length > 0;
    // Without filters or ignore rules the result depends on the listing alone.
    const reusable = !checkIgnore && fileFilter === undefined && pruneDir === undefined;
    if (reusable && this.entries + dirents.length <= maxEntries) {
      const known = sortedListings.get(dirents);
      if (known && known.path === current.path && known.rel === current.rel && known.includeIgnored === includeIgnored && known.includeSymlinks === includeSymlinks) {
        this.entries += dirents.length;
        for (const file of known.files) files.push(file);
        for (const dir of known.dirs) stack.push({ path: dir.path, rel: dir.rel, levels });
        return true;
      }
    }
    const filesBefore = files.length;
    const stackBefore = stack.length;
    const prefix = current.path === '/' ? '/' : current.path + '/';
    const relPrefix = current.rel === '' ? '' : current.rel + '/';
    for (const dirent of dirents) {
      this.entries += 1;
      if (this.entries > maxEntries) return false;
      const name = dirent.name;
      const path = prefix + name;
      const rel = relPrefix + name;
      if (dirent.isDirectory()) {
        if (!includeIgnored && ALWAYS_SKIPPED_DIRS.has(name)) continue;
        if (checkIgnore && isIgnored(levels, path, true)) continue;
        if (pruneDir?.(rel)) continue;
        stack.push({ path, rel, levels });
        continue;
      }
      const symlink = dirent.isSymbolicLink();
      // FIFOs, sockets and devices are never listed (reading one could block or never end).
      if (symlink ? !includeSymlinks : !dirent.isFile()) continue;
      if (isTemporaryFileName(name)) continue;
      if (!includeIgnored && ALWAYS_SKIPPED_DIRS.has(name)) continue;
      if (checkIgnore && isIgnored(levels, path, false)) continue;
      if (fileFilter && !fileFilter(rel)) continue;
      files.push({ path, rel, symlink });
    }
    if (reusable) {
      const dirs = stack.slice(stackBefore).map((dir) => ({ path: dir.path, rel: dir.rel }));
      sortedListings.set(dirents, { path: current.path, rel: current.rel, includeIgnored, includeSymlinks, files: files.slice(filesBefore), dirs });
    }
    return true;
  }
}

/** The paths of `stack`'s directories from `from` on. */
function pathsFrom(stack: readonly PendingDir[], from: number): string[] {
  const paths: string[] = [];
  for (let i = from; i < stack.length; i += 1) paths.push((stack[i] as PendingDir).path);
  return paths;
}


/**
 * Walks a workspace directory tree for find_file, search_dir and grep_search.
 * Iterative (no recursion limit). Skips `.git/` and `node_modules/` and respects `.gitignore` files at
 * every level — the workspace root's and those between it and `dir` too, nested ones with git's
 * precedence — unless `includeIgnored`. Dot-directories such as `.github/` are walked. Symbolic links
 * are never followed (a link can lead out of the workspace or into a loop, and ripgrep does not follow them either).
 * Only regular files are listed: FIFOs, sockets and devices are skipped, and so are the temporary
 * files of atomic writes (`isTemporaryFileName`) a crash may have left.
 * A subdirectory that cannot be listed (a path too long, unreadable, removed or replaced while the walk
 * runs: see `SkipKind` in walk-report.ts) is skipped and counted in `skipped` (and under `signal`, see
 * `countSkippedUnder` in walk-report.ts); it never fails the walk. Checks `signal` between directories and gives the
 * event loop a turn every {@link YIELD_INTERVAL_MS} ms so a deadline can fire.
 * Errors: the signal's `timeout`/`cancelled`; `not_found`/`not_a_directory` when `dir` cannot be read.
 */
export async function walkWorkspace(options: WalkOptions): Promise<WalkResult> {
  options.source?.begin?.();
  try {
    return await walkTree(options);
  } finally {
    options.source?.end?.();
  }
}

async function walkTree(options: WalkOptions): Promise<WalkResult> {
  const { fs, signal } = options;
  const root = joinPath(options.root);
  const start = joinPath(options.dir);
  const includeIgnored = options.includeIgnored === true;
  const includeSymlinks = options.includeSymlinks === true;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_WALK_ENTRIES;

  // Ignore files of the directories above the start apply to it (git and ripgrep read them all).
  const baseLevels: IgnoreLevel[] = [];
  const ignoreDropped: DroppedIgnoreRules[] = [];
  if (!includeIgnored && start !== root && start.startsWith(root === '/' ? '/' : root + '/')) {
    const ancestors: string[] = [];
    for (let dir = dirname(start); ; dir = dirname(dir)) {
      ancestors.unshift(dir);
      if (dir === root || dir === '/') break;
    }
    const found = await Promise.all(ancestors.map((dir) => readIgnoreFiles(fs, dir, IGNORE_FILE_NAMES, signal, options.source)));
    for (const { levels, dropped } of found) {
      baseLevels.push(...levels);
      ignoreDropped.push(...dropped);
    }
  }

  const stack: PendingDir[] = [{ path: start, rel: '', levels: baseLevels }];
  const sorter = new EntrySorter(stack, options, includeIgnored, includeSymlinks, maxEntries);
  const files = sorter.files;
  let directories = 0;
  let capped = false;
  let lastYield = Date.now();
  const skipped = noSkippedEntries();

  let stopped = false;
  const prefetch = options.source?.prefetch;

  while (stack.length > 0) {
    if (options.deadline !== undefined && Date.now() >= options.deadline) {
      stopped = true;
      break;
    }
    const current = stack.pop() as PendingDir;
    throwIfAborted(signal);
    if (Date.now() - lastYield > YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      lastYield = Date.now();
      throwIfAborted(signal);
    }
    let dirents: FsDirent[];
    try {
      dirents = options.source ? options.source.readdir(current.path) : await readdirCached(fs, current.path, options.changeCount);
    } catch (error) {
      if (current.rel === '') throw error;
      // outside_workspace: replaced by a link out since it was listed (the port checks every directory it reads).
      const kind = skipKindOf(error);
      if (kind === undefined) throw error;
      countSkipped(skipped, kind, current.path);
      countSkippedUnder(signal, kind, current.path);
      continue;
    }
    directories += 1;
    let levels = current.levels;
    const ignoreFiles = includeIgnored ? [] : ignoreFilesIn(dirents);
    if (ignoreFiles.length > 0) {
      const read = await readIgnoreFiles(fs, current.path, ignoreFiles, signal, options.source);
      if (read.levels.length > 0) levels = [...levels, ...read.levels];
      ignoreDropped.push(...read.dropped);
    }
    const before = files.length;
    const dirsBefore = stack.length;
    if (!sorter.sort(current, dirents, levels)) capped = true;
    else if (prefetch !== undefined && stack.length > dirsBefore) {
      const deeper = options.pruneDir !== undefined ? undefined : includeIgnored ? 'all' : levels;
      prefetch.call(options.source, pathsFrom(stack, dirsBefore), deeper);
    }
    if (options.onFiles && files.length > before) options.onFiles(files, files.length - before);
    if (capped) break;
  }
  for (const dropped of ignoreDropped) noteDroppedFor(signal, dropped);
  return stopped ? { files, capped, stopped, directories, skipped, ignoreDropped } : { files, capped, directories, skipped, ignoreDropped };
}

/** Compares strings by UTF-16 code units (the order of `list_dir` and of every sorted path list). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
