import { loadIgnore } from '#lazy';
import type { Ignore } from 'ignore';
import { onDemand } from '../core/on-demand.js';
import { errorCode } from '../core/errors.js';
import { decodeText } from './text.js';
import type { FsDirent, FsPromises, SearchSource, WalkIgnoreRules } from '../core/types.js';
import { dirname, isTemporaryFileName, joinPath, relativePath } from './paths.js';
import { throwIfAborted, YIELD_INTERVAL_MS, yieldToEventLoop } from './abort.js';
import {
  countSkipped,
  countSkippedUnder,
  MAX_IGNORE_FILE_BYTES,
  MAX_IGNORE_RULE_CHARS,
  MAX_IGNORE_RULE_GLOBSTARS,
  MAX_IGNORE_RULES,
  noSkippedEntries,
  noteDroppedFor,
  skipKindOf,
  type DroppedIgnoreRules,
  type SkippedEntries,
} from './walk-report.js';

// The abort helpers, the walk report and the text cache live in modules of their own; their names
// are re-exported here for the modules that import them from the walk.
export { throwIfAborted, YIELD_INTERVAL_MS, yieldToEventLoop } from './abort.js';
export {
  countSkipped,
  countSkippedUnder,
  ignoreDroppedNote,
  MAX_IGNORE_FILE_BYTES,
  MAX_IGNORE_RULE_CHARS,
  MAX_IGNORE_RULE_GLOBSTARS,
  MAX_IGNORE_RULES,
  noSkippedEntries,
  reportWalk,
  skipKindOf,
  skippedNote,
  walkReportUnder,
  type DroppedIgnoreRules,
  type SkipKind,
  type SkippedEntries,
  type WalkReport,
} from './walk-report.js';
export { loadTexts, MAX_SEARCH_FILE_BYTES, type LoadedFile, type TextEntry } from './text-cache.js';

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
  /** The platform's {@link Platform.searchSource}: directories are listed through it (synchronously). */
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


/** One `.gitignore`'s rules as the walk applies them to the paths below its directory. */
export interface IgnoreLevel extends WalkIgnoreRules {
  /** Its rules in order, a compiled chunk of at most {@link IGNORE_CHUNK_RULES} each: the last chunk with a rule for a path decides. */
  rules: Ignore[];
}

/**
 * Rules compiled in one step. The ignore library compiles each rule to a RegExp on the first test,
 * which takes tens of microseconds a rule: compiling 10,000 at once blocks the thread for up to a
 * second, so they are compiled a chunk at a time with the event loop turned in between.
 */
const IGNORE_CHUNK_RULES = 500;
/** The ignore library (in browsers a file of its own, fetched when a workspace first has a .gitignore). */
const ignoreLibrary = onDemand('the .gitignore library (ignore)', 'ignore.min.js', loadIgnore);

/** The ignore library's factory, loaded on first use (see `ignoreLibrary`). */
export type IgnoreFactory = (options: { ignorecase: boolean }) => Ignore;

/** A compiled chunk of `.gitignore` rules (every rule compiled now, while the time is counted). */
function compileChunk(ignore: IgnoreFactory, rules: readonly string[]): Ignore {
  const chunk = ignore({ ignorecase: false }).add(rules as string[]);
  chunk.test('a');
  return chunk;
}

/** The level of `lines` (bounded rules, see {@link boundIgnoreRules}) of the ignore file of `rank` ({@link IGNORE_FILE_NAMES} index) in `dir`, compiled in one go. */
export function compileIgnoreLevel(ignore: IgnoreFactory, dir: string, lines: readonly string[], rank = 0): IgnoreLevel {
  const rules: Ignore[] = [];
  for (let i = 0; i < lines.length; i += IGNORE_CHUNK_RULES) rules.push(compileChunk(ignore, lines.slice(i, i + IGNORE_CHUNK_RULES)));
  return { dir, lines, rules, ...(rank > 0 ? { rank } : {}) };
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
 * The `.gitignore` of `dir` as rules, and what of it was left out: only its first
 * {@link MAX_IGNORE_FILE_BYTES} are read (with the port's `readRange` where it has one, so a file of
 * any size costs a MiB), cut at their last line break so no rule or character is split.
 */
/**
 * The first bytes of the `.gitignore` at `path` (up to {@link MAX_IGNORE_FILE_BYTES} + 1) and the
 * file's size when over that; undefined when it cannot be read. A path longer than the filesystem
 * takes (`ENAMETOOLONG`: a folder deep in the tree) is read through the search source, which reaches
 * it through held folders, as the search helper thread reads it: its rules then apply down there too.
 */
async function readIgnoreBytes(fs: FsPromises, path: string, source: SearchSource | undefined): Promise<{ bytes: Uint8Array; fileBytes?: number } | undefined> {
  try {
    if (fs.readRange) {
      const bytes = await fs.readRange(path, 0, MAX_IGNORE_FILE_BYTES + 1);
      if (bytes.length <= MAX_IGNORE_FILE_BYTES) return { bytes };
      return { bytes, fileBytes: await fs.stat(path).then((stats) => stats.size, () => bytes.length) };
    }
    const bytes = await fs.readFile(path);
    return bytes.length > MAX_IGNORE_FILE_BYTES ? { bytes, fileBytes: bytes.length } : { bytes };
  } catch (error) {
    if (source === undefined || errorCode(error) !== 'ENAMETOOLONG') return undefined;
  }
  try {
    const read = source.read(path, MAX_IGNORE_FILE_BYTES + 1);
    if (read === undefined) return undefined;
    return read.bytes.length > MAX_IGNORE_FILE_BYTES ? { bytes: read.bytes, fileBytes: read.stat.size } : { bytes: read.bytes };
  } catch {
    return undefined;
  }
}

/**
 * The ignore files of `dir` that are there (`names`, in {@link IGNORE_FILE_NAMES} order), each a level of
 * rules: a later file's level is checked first, so `.ignore` overrides `.gitignore` and `.rgignore`
 * overrides both, as in ripgrep.
 */
async function readIgnoreFiles(
  fs: FsPromises,
  dir: string,
  names: readonly string[],
  signal: AbortSignal | undefined,
  source?: SearchSource,
): Promise<{ levels: IgnoreLevel[]; dropped: DroppedIgnoreRules[] }> {
  const levels: IgnoreLevel[] = [];
  const dropped: DroppedIgnoreRules[] = [];
  for (const name of names) {
    const read = await readIgnoreFile(fs, dir, name, signal, source);
    if (read.level) levels.push(read.level);
    if (read.dropped) dropped.push(read.dropped);
  }
  return { levels, dropped };
}

async function readIgnoreFile(fs: FsPromises, dir: string, name: string, signal: AbortSignal | undefined, source?: SearchSource): Promise<{ level?: IgnoreLevel; dropped?: DroppedIgnoreRules }> {
  const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
  const read = await readIgnoreBytes(fs, path, source);
  if (read === undefined) return {};
  const { bytes, fileBytes } = read;
  const bounded = ignoreRulesOf(bytes);
  if (!bounded) return {};
  const dropped: DroppedIgnoreRules | undefined =
    fileBytes !== undefined || bounded.pastCap + bounded.globstars + bounded.tooLong > 0
      ? { file: path, ...(fileBytes === undefined ? {} : { fileBytes }), pastCap: bounded.pastCap, globstars: bounded.globstars, tooLong: bounded.tooLong }
      : undefined;
  // Loaded when a workspace first has a .gitignore, not with the worker.
  const { default: ignore } = await ignoreLibrary.load();
  const chunks: Ignore[] = [];
  let lastYield = Date.now();
  for (let i = 0; i < bounded.rules.length; i += IGNORE_CHUNK_RULES) {
    if (Date.now() - lastYield > YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      lastYield = Date.now();
      throwIfAborted(signal);
    }
    chunks.push(compileChunk(ignore as IgnoreFactory, bounded.rules.slice(i, i + IGNORE_CHUNK_RULES)));
  }
  const rank = IGNORE_FILE_NAMES.indexOf(name);
  return { level: { dir, lines: bounded.rules, rules: chunks, ...(rank > 0 ? { rank } : {}) }, ...(dropped ? { dropped } : {}) };
}


/**
 * The rules of a `.gitignore` text that the walk applies: at most {@link MAX_IGNORE_RULES} rules, each
 * at most {@link MAX_IGNORE_RULE_CHARS} characters with at most {@link MAX_IGNORE_RULE_GLOBSTARS} `**`;
 * blank lines and comments are dropped first. The text is cut at {@link MAX_IGNORE_FILE_BYTES} before.
 */
export function boundedIgnoreRules(text: string): string[] {
  return boundIgnoreRules(text).rules;
}

/**
 * {@link boundedIgnoreRules} with the count of rules left out for each reason: `pastCap` (after the
 * first {@link MAX_IGNORE_RULES}), `globstars` (more than {@link MAX_IGNORE_RULE_GLOBSTARS} `**`) and
 * `tooLong` (over {@link MAX_IGNORE_RULE_CHARS} characters).
 */
export function boundIgnoreRules(text: string): { rules: string[]; pastCap: number; globstars: number; tooLong: number } {
  const rules: string[] = [];
  let pastCap = 0;
  let globstars = 0;
  let tooLong = 0;
  for (const line of text.split(/\r?\n|\r/)) {
    const rule = line.trim();
    if (rule === '' || rule.startsWith('#')) continue;
    if (rules.length >= MAX_IGNORE_RULES) pastCap += 1;
    else if (rule.length > MAX_IGNORE_RULE_CHARS) tooLong += 1;
    else if (rule.split('**').length - 1 > MAX_IGNORE_RULE_GLOBSTARS) globstars += 1;
    else rules.push(line);
  }
  return { rules, pastCap, globstars, tooLong };
}

/**
 * Git precedence: the deepest `.gitignore` with a rule for the path decides (a nested `!keep.log`
 * re-includes what the root file ignores).
 */
/**
 * The rules of a `.gitignore` file's first bytes (read up to {@link MAX_IGNORE_FILE_BYTES} + 1: past the
 * cap only its whole lines before it count), bounded as the walk applies them (see
 * {@link boundIgnoreRules}); undefined when it is not text.
 */
export function ignoreRulesOf(bytes: Uint8Array): ReturnType<typeof boundIgnoreRules> | undefined {
  if (bytes.length > MAX_IGNORE_FILE_BYTES) {
    const head = bytes.subarray(0, MAX_IGNORE_FILE_BYTES);
    const end = head.lastIndexOf(10);
    bytes = end >= 0 ? head.subarray(0, end + 1) : head;
  }
  const decoded = decodeText(bytes);
  return decoded ? boundIgnoreRules(decoded.text) : undefined;
}

/**
 * The ignore files ripgrep reads in every directory, lowest precedence first: `.gitignore`, `.ignore`
 * (ripgrep's own, same syntax, applied outside git repositories too) and `.rgignore`.
 */
export const IGNORE_FILE_NAMES: readonly string[] = ['.gitignore', '.ignore', '.rgignore'];

/** The ignore files among a directory's `entries` (anything but a directory of that name), in {@link IGNORE_FILE_NAMES} order. */
export function ignoreFilesIn(entries: readonly FsDirent[]): string[] {
  return IGNORE_FILE_NAMES.filter((name) => entries.some((entry) => entry.name === name && !entry.isDirectory()));
}

/** Whether a directory's `entries` hold an ignore file ({@link IGNORE_FILE_NAMES}), whose rules then apply below it. */
export function hasIgnoreFile(entries: readonly FsDirent[]): boolean {
  return ignoreFilesIn(entries).length > 0;
}

/**
 * Whether `path` (a directory when `isDir`) is ignored by `levels` (outermost first), as ripgrep decides:
 * `.rgignore` rules first, then `.ignore`, then `.gitignore` (a file's kind outranks its depth: a root
 * `.ignore` rule wins over a nested `.gitignore`'s), and among files of one kind the innermost rule that
 * speaks of the path decides, as in git.
 */
export function isIgnored(levels: readonly IgnoreLevel[], path: string, isDir: boolean): boolean {
  let top = 0;
  for (const level of levels) top = Math.max(top, level.rank ?? 0);
  for (let rank = top; rank >= 0; rank -= 1) {
    for (let i = levels.length - 1; i >= 0; i -= 1) {
      const level = levels[i] as IgnoreLevel;
      if ((level.rank ?? 0) !== rank) continue;
      const rel = relativePath(level.dir, path) + (isDir ? '/' : '');
      for (let j = level.rules.length - 1; j >= 0; j -= 1) {
        const result = (level.rules[j] as Ignore).test(rel);
        if (result.ignored) return true;
        if (result.unignored) return false;
      }
    }
  }
  return false;
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
 * runs: see {@link SkipKind}) is skipped and counted in `skipped` (and under `signal`, see
 * {@link skippedUnder}); it never fails the walk. Checks `signal` between directories and gives the
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
