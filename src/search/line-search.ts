import { errorCode, ToolError } from '../core/errors.js';
import type { SearchContext } from '../core/types.js';
import { basename, resolveWorkspacePath } from '../fs/paths.js';
import { clipForMessage } from '../fs/text.js';
import { throwIfAborted, yieldToEventLoop } from '../fs/abort.js';
import { fsReadsOf, type FsReads } from './fs-reads.js';
import { compareCodeUnits, walkWorkspace, type WalkFile } from './walk.js';
import { countSkippedUnder, skipKindOf } from './walk-report.js';
import type { SearchPattern } from './dialect.js';
import { compileGlob } from './glob.js';
import { MatchFormatter, type SearchMatch } from './line-output.js';
import type { GrepSearchResult, SearchCounters } from '../core/search-engine.js';
import { scanText, YIELD_EVERY_MS } from './line-scan.js';
import { scanStream } from './line-stream.js';
import { BlockLiteralCount, blockReaderOf, type BlockReader } from './block-count.js';
import { cacheOf, countText, countTextNow, FILE_BINARY, knownCount, MAX_SEARCH_FILE_BYTES, needleOf, rememberCount, skipKindOfCode, type SourceCache, type SourceFile, type TextCount } from './source-cache.js';
import type { SearchFileStat, SearchHelper, SearchSource, SharedWork } from './source-port.js';
import { searchSourceOf } from './engine-source.js';
import { searchIndexEngine, type IndexForSearch, type SearchIndexEngine, type SiftedCountMemo } from './index-engine.js';

export { MAX_LINE_CHARS, type SearchMatch } from './line-output.js';

/** Characters of `line`/`before`/`after` text one search returns before it stops adding matches. */
export const MAX_OUTPUT_CHARS = 200_000;
/** Largest `context_lines`. */
export const MAX_CONTEXT_LINES = 20;
/** Largest `max_results` of search_dir and grep_search. */
export const MAX_SEARCH_RESULTS = 2000;
/** Time a search spends before it returns what it found so far (ms), unless told otherwise. */
export const DEFAULT_SEARCH_TIME_MS = 10_000;
/** Largest `max_time_ms`. */
export const MAX_SEARCH_TIME_MS = 120_000;
/**
 * Share of what is left of the call's deadline (`ctx.deadline`) a search may spend, so that it stops
 * and answers with what it found, instead of the deadline ending it with a bare `timeout`.
 */
export const DEADLINE_SHARE = 0.8;
/**
 * Largest file searched on a platform whose `fs` has no `readRange` (it is read whole, then searched
 * window by window); bigger ones are counted in `large_files_skipped`.
 */
export const MAX_WHOLE_READ_BYTES = 256 * 1024 * 1024;
/**
 * Largest file the helper thread searches (16 MiB); bigger ones of its share are searched here, so the
 * helper's heap (its decoded texts) stays small.
 */
const HELPED_MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Files read (and held) at a time. */
const BATCH_FILES = 64;

/** The content search's result shapes (declared with the search engine's answers in src/core/search-engine.ts). */
export type { GrepSearchResult, SearchContentResult, SearchCountResult, SearchCounters, SearchFilesResult } from '../core/search-engine.js';

/** What the shared engine of search_dir and grep_search needs. */
export interface LineSearchOptions {
  pattern: SearchPattern;
  dirPath?: string;
  include?: string;
  exclude?: string;
  contextLines?: number;
  outputMode?: 'content' | 'files_with_matches' | 'count';
  maxResults: number;
  /**
   * Time budget in ms (default {@link DEFAULT_SEARCH_TIME_MS}); past it the search returns what it
   * found. With a call deadline, at most {@link DEADLINE_SHARE} of what is left of it.
   */
  maxTimeMs?: number;
  /**
   * Internal (tests): files over this many bytes (default {@link MAX_SEARCH_FILE_BYTES}) are searched
   * window by window, with windows of `streamWindow` bytes and long-line overlaps of `streamOverlap`
   * characters (see {@link scanStream}).
   */
  streamOver?: number;
  streamWindow?: number;
  streamOverlap?: number;
  /**
   * The search source to list and read through (its engine's, see `createSearchEngine`); given as
   * undefined: none, through `ctx.fs`. Absent: the source of `ctx.platform`'s engine.
   */
  source?: SearchSource | undefined;
}

/** The time budget of a search starting at `now`: `maxTimeMs`, or a share of what is left of the call's deadline when that is less. */
export function searchBudget(maxTimeMs: number, callDeadline: number | undefined, now: number): { ms: number; byDeadline: boolean } {
  if (callDeadline === undefined) return { ms: maxTimeMs, byDeadline: false };
  const share = Math.max(0, Math.floor((callDeadline - now) * DEADLINE_SHARE));
  return share < maxTimeMs ? { ms: share, byDeadline: true } : { ms: maxTimeMs, byDeadline: false };
}

/**
 * Resolves `dir_path` (default: the working directory) and lists the files to search, filtered by the
 * `include` / `exclude` globs (compiled relative to it, so absolute globs work).
 */
export async function filesToSearch(
  ctx: SearchContext,
  options: { dirPath?: string; include?: string; exclude?: string; deadline?: number; onFiles?: (files: readonly WalkFile[], added: number) => void; reuse?: boolean; source?: SearchSource | undefined },
): Promise<{ files: WalkFile[]; capped: boolean; stopped?: boolean; sorted?: boolean }> {
  const scope = { fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd };
  const start = await resolveWorkspacePath(scope, options.dirPath ?? ctx.cwd, { argName: 'dir_path' });
  let stats;
  try {
    stats = await ctx.fs.stat(start);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      throw new ToolError('not_found', `dir_path ${clipForMessage(start)} does not exist; check the path with list_dir or find_file`);
    }
    throw error;
  }
  // A file as dir_path: search just that file (the globs are still checked).
  const base = stats.isDirectory() ? { root: ctx.platform.root, dir: start } : undefined;
  const include = options.include ? compileGlob(options.include, { argName: 'include', base }) : undefined;
  // `dist/` (as in .gitignore) names folders only: it prunes them and leaves files of that name alone.
  const foldersOnly = options.exclude !== undefined && options.exclude.length > 1 && options.exclude.endsWith('/');
  const excludeGlob = foldersOnly ? (options.exclude as string).replace(/\/+$/, '') : options.exclude;
  const exclude = excludeGlob ? compileGlob(excludeGlob, { argName: 'exclude', base }) : undefined;
  const excludeFiles = foldersOnly ? undefined : exclude;
  if (!base) return { files: [{ path: start, rel: basename(start), symlink: false }], capped: false };
  // Kept listings are the search index's (a search with an index in use asks for reuse), while the
  // platform's change count or its tree watch vouches that nothing changed.
  const engine: SearchIndexEngine | undefined = options.reuse === true ? searchIndexEngine(ctx.platform) : undefined;
  const reuse = engine !== undefined && options.onFiles === undefined && engine.treeGeneration(ctx.platform) !== undefined;
  const key = reuse ? engine.listingKey(start, options.include, options.exclude) : '';
  if (reuse) {
    const known = engine.reusedListing(ctx.platform, key);
    // Shared, sorted, never changed by the search (see KeptListing).
    if (known) return { files: known.files as WalkFile[], capped: known.capped, sorted: true };
  }
  const generation = reuse ? engine.treeGeneration(ctx.platform) : undefined;
  const walked = await walkWorkspace({
    fs: ctx.fs,
    root: ctx.platform.root,
    dir: start,
    changeCount: ctx.platform.changeCount,
    source: 'source' in options ? options.source : searchSourceOf(ctx.platform),
    signal: ctx.signal,
    fileFilter: include || excludeFiles ? (rel) => (!include || include.matches(rel)) && !excludeFiles?.matches(rel) : undefined,
    pruneDir: exclude ? (rel) => exclude.matches(rel) : undefined,
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    ...(options.onFiles === undefined ? {} : { onFiles: options.onFiles }),
  });
  // A walk that stopped, skipped entries or dropped ignore rules reported it to this call: walked again next time.
  if (!reuse || walked.stopped || walked.skipped.count > 0 || walked.ignoreDropped.length > 0) return walked;
  walked.files.sort((a, b) => compareCodeUnits(a.path, b.path));
  engine.rememberListing(ctx.platform, key, generation, walked);
  return { files: walked.files, capped: walked.capped, sorted: true };
}

interface Tally {
  matches: SearchMatch[];
  files: Array<{ path: string; count: number }>;
  totalMatches: number;
  outputChars: number;
  /** Content output full (max_results or the character budget). */
  contentFull: boolean;
}

/**
 * The engine of search_dir and grep_search. Walks like find_file (skips `.git/`, `node_modules/`,
 * `.gitignore`d paths, symlinks), then reads the files in path order, a batch at a time, through the
 * content cache (`SourceCache`: bytes from the engine's search source, or fetched from `fs` a batch at
 * a time, see fs-reads.ts), counts on bytes where it can and scans the rest with {@link scanText} (the
 * pattern's engine, linear in the text); a file's matches are formatted while its text is at hand, so
 * a search holds one text at a time beyond the cache. Lines are 1-based, columns 1-based code points, files sorted by path.
 * At its time budget ({@link searchBudget}: `maxTimeMs`, or {@link DEADLINE_SHARE} of what is left of
 * the call's deadline when that is less) it stops, the walk included, and returns what it found, with
 * `truncated` and a `note`; the call's signal (its deadline, a cancel) still ends it with `timeout` /
 * `cancelled` if anything else overruns.
 */
export async function runLineSearch(ctx: SearchContext, options: LineSearchOptions): Promise<GrepSearchResult> {
  const started = Date.now();
  const budget = searchBudget(options.maxTimeMs ?? DEFAULT_SEARCH_TIME_MS, ctx.deadline, started);
  const search = new LineSearch(ctx, options, started + budget.ms);
  const listed = await search.list();
  if (search.shared) await search.countShared(search.shared, listed.files.length);
  else {
    const scan = await search.sifted(listed.files);
    // What the index and the remembered counts leave of a large count is shared with the helper thread as a walk's files are.
    const shared = search.shareSifted(scan);
    if (shared) await search.countShared(shared, listed.files.length);
    else await search.searchFiles(scan);
    search.keepCounts(shared);
  }
  return search.result(listed, budget);
}

/** A file ready to search on this thread: read through the source's cache, with its bytes. */
type LoadedSource = SourceFile & { bytes: Uint8Array };

/** What one {@link runLineSearch} call knows as it goes: its options, its tally and its counters. */
class LineSearch {
  readonly pattern: SearchPattern;
  readonly maxResults: number;
  readonly contextLines: number;
  readonly outputMode: 'content' | 'files_with_matches' | 'count';
  /** What the files are read through: the engine's search source, else the reads of the platform's `fs` ({@link fsReads}). */
  readonly source: SearchSource | undefined;
  /** What the walk lists through: the engine's search source, or none (`fs`). */
  readonly listSource: SearchSource | undefined;
  /** Without a search source: the platform's `fs`, fetched a batch at a time for the same content cache. */
  readonly fsReads: FsReads | undefined;
  readonly cache: SourceCache | undefined;
  readonly helper: SearchHelper | undefined;
  readonly streamOver: number;
  readonly literal: string | undefined;
  readonly needle: ReturnType<typeof needleOf> | undefined;
  readonly decode: (bytes: Uint8Array) => string | null;
  /**
   * A literal counted over a source whose cache keeps nothing (a one-search process's) and that reads
   * a block at a time: each file is counted as its blocks are read (see `BlockLiteralCount`), never
   * held whole.
   */
  readonly blocks: BlockReader | undefined;
  /** The workspace's search index, when it leaves few enough of the files to scan (see `worthSifting`). */
  index: IndexForSearch | undefined;
  /** The platform's search index engine, if it has one (read when used: `source.begin()` may attach the index). */
  get engine(): SearchIndexEngine | undefined {
    return searchIndexEngine(this.ctx.platform);
  }
  /** The helper thread's share of a count, once the walk has handed it every file. */
  shared: SharedWork | undefined;
  readonly tally: Tally = { matches: [], files: [], totalMatches: 0, outputChars: 0, contentFull: false };
  searched = 0;
  binary = 0;
  large = 0;
  stopped = false;
  /** Listed files reached (searched, skipped, or left out as gone). */
  done = 0;
  lastPause = Date.now();
  /** The listed files are a kept listing (see `reusedListing`): their sift verdicts may be kept too. */
  listedSorted = false;
  /** The line counts the sift remembered for its trusted files (see `SiftedCountMemo`), and the whole counts found this search, noted there once it ends unstopped. */
  memo: SiftedCountMemo | undefined;
  readonly notedPaths: string[] = [];
  readonly notedCounts: number[] = [];
  /** Files whose remembered counts were tallied before the rest were counted (the tally is then sorted at the end). */
  remembered = 0;
  /** Files with a match tallied by {@link tallyKnown} past `max_results`: counted, not listed. */
  filesUnlisted = 0;

  constructor(
    readonly ctx: SearchContext,
    readonly options: LineSearchOptions,
    readonly deadline: number,
  ) {
    this.pattern = options.pattern;
    this.maxResults = options.maxResults;
    this.contextLines = options.contextLines ?? 0;
    this.outputMode = options.outputMode ?? 'content';
    this.listSource = 'source' in options ? options.source : searchSourceOf(ctx.platform);
    this.fsReads = this.listSource ? undefined : fsReadsOf(ctx.platform);
    this.source = this.listSource ?? this.fsReads;
    this.source?.begin?.();
    this.cache = this.source ? cacheOf(this.source) : undefined;
    this.helper = this.source?.helper;
    this.streamOver = options.streamOver ?? MAX_SEARCH_FILE_BYTES;
    this.literal = this.pattern.mode === 'literal' ? this.pattern.literal : this.pattern.required;
    this.needle = this.source ? needleOf(this.pattern) : undefined;
    // A file streamed window by window is decoded as `fs` reads are without a source (a BOM dropped).
    this.decode = decoderFor(this.listSource);
    this.blocks = this.cache?.budget === 0 && this.pattern.mode === 'literal' && this.needle !== undefined ? blockReaderOf(this.source) : undefined;
  }

  /**
   * Lists the files to search, sorted by path; a count of a large tree with a helper thread hands them
   * to the helper in batches as the walk lists them (then {@link shared} is its share).
   */
  async list(): Promise<Awaited<ReturnType<typeof filesToSearch>>> {
    const { ctx, options, pattern, cache, helper, deadline } = this;
    const mayShare = helper !== undefined && cache !== undefined && this.outputMode !== 'content' && pattern.compiledWith !== undefined;
    // With a search index in use, the count is shared with the helper thread only after the sift (see
    // shareSifted), and only what it leaves; an index being read from storage is waited for (milliseconds).
    // Where no count could be shared anyway and only the read is waited for (no tree watch to settle),
    // the walk runs meanwhile: the read is on the thread pool (Node) or IndexedDB (a browser).
    const opening = this.engine?.opening(ctx.platform);
    const walk = { dirPath: options.dirPath, include: options.include, exclude: options.exclude, deadline, source: this.listSource };
    const early = opening && !mayShare && this.engine?.onlyReading(ctx.platform) === true ? filesToSearch(ctx, walk) : undefined;
    // Its error is thrown below, once the read is over (not reported unhandled meanwhile).
    early?.catch(() => undefined);
    if (opening) await opening;
    this.index = this.engine?.indexFor(ctx.platform, pattern);
    const sharing = mayShare && !this.index ? (helper as NonNullable<typeof helper>).sharedFiles((path) => (cache as NonNullable<typeof cache>).holds(path)) : undefined;
    const limit = Math.min(this.streamOver, HELPED_MAX_FILE_BYTES);
    const onFiles = sharing
      ? (files: readonly WalkFile[], added: number): void =>
          sharing.add(files, added, () => ({ pattern: pattern.pattern, ...(pattern.compiledWith as { literal: boolean; caseSensitive: boolean }), deadline, limit }), ctx.signal)
      : undefined;
    let listed: Awaited<ReturnType<typeof filesToSearch>>;
    try {
      // With an index in use, a repeated search over an unchanged workspace reuses the last walk (see reusedListing).
      const reuse = this.index !== undefined;
      listed = await (early ?? filesToSearch(ctx, { ...walk, reuse, ...(onFiles ? { onFiles } : {}) }));
    } catch (error) {
      sharing?.cancel();
      throw error;
    }
    this.shared = sharing?.end();
    // A shared count sorts only the files that matched, once merged.
    if (!this.shared && !listed.sorted) listed.files.sort((a, b) => compareCodeUnits(a.path, b.path));
    this.listedSorted = listed.sorted === true;
    this.stopped = listed.stopped === true;
    return listed;
  }

  /**
   * The listed files less those the workspace's search index shows cannot match, which are tallied
   * unread (searched with no match, or binary); all of them without an index worth using.
   */
  async sifted(files: WalkFile[]): Promise<WalkFile[]> {
    const { index, engine } = this;
    if (!index || !engine) return files;
    const sifted = await engine.sift(this.ctx.platform, index, this.pattern, files, this.streamOver, this.ctx.signal, this.listedSorted);
    this.searched += sifted.text;
    this.binary += sifted.binary;
    this.done += sifted.text + sifted.binary;
    this.memo = sifted.memo;
    if (!sifted.memo || this.outputMode === 'content') return sifted.scan;
    // A count takes the remembered counts as they are and reads only the files it does not know.
    const { known } = sifted.memo;
    if (known.indexOf(-1) === -1) {
      this.tallyKnown(sifted.scan, known);
      return [];
    }
    const rest: WalkFile[] = [];
    for (let j = 0; j < sifted.scan.length; j += 1) {
      const file = sifted.scan[j] as WalkFile;
      const count = known[j] as number;
      if (count < 0) {
        rest.push(file);
        continue;
      }
      this.searched += 1;
      this.done += 1;
      this.addCount(file.path, count);
      this.remembered += 1;
    }
    return rest;
  }

  /**
   * Tallies `files` (sorted by path, every one with its count remembered in `known`) without a list
   * entry past `max_results` for the files with a match: only their number is shown beyond it.
   */
  tallyKnown(files: readonly WalkFile[], known: Int32Array): void {
    const { tally } = this;
    for (let j = 0; j < known.length; j += 1) {
      const count = known[j] as number;
      if (count === 0) continue;
      tally.totalMatches += count;
      if (tally.files.length < this.maxResults) tally.files.push({ path: (files[j] as WalkFile).path, count });
      else this.filesUnlisted += 1;
    }
    this.searched += known.length;
    this.done += known.length;
  }

  /**
   * The helper thread's share of counting the sifted `files`, handed over as a walk hands its files
   * (see {@link list}); undefined when this thread counts them alone (content, too few files, no helper).
   */
  shareSifted(files: readonly WalkFile[]): SharedWork | undefined {
    const { helper, cache, pattern, deadline } = this;
    if (!helper || !cache || this.outputMode === 'content' || pattern.compiledWith === undefined || files.length === 0) return undefined;
    const sharing = helper.sharedFiles((path) => cache.holds(path));
    const limit = Math.min(this.streamOver, HELPED_MAX_FILE_BYTES);
    sharing.add(files, files.length, () => ({ pattern: pattern.pattern, ...(pattern.compiledWith as { literal: boolean; caseSensitive: boolean }), deadline, limit }), this.ctx.signal);
    const shared = sharing.end();
    this.shared = shared;
    return shared;
  }

  /** Notes a whole count of `path` (as read by this search) for the memo, if the sift gave one. */
  noteCount(path: string, count: number): void {
    if (!this.memo) return;
    this.notedPaths.push(path);
    this.notedCounts.push(count);
  }

  /**
   * After the files are counted: the counts noted go into the memo when the search ran to its end
   * (a stopped one may hold partial counts), and a tally that began with remembered counts is sorted.
   */
  keepCounts(shared: SharedWork | undefined): void {
    if (this.remembered > 0 && this.tally.files.length > this.remembered && !shared) this.tally.files.sort((a, b) => compareCodeUnits(a.path, b.path));
    const { memo } = this;
    if (!memo || this.stopped || shared?.stopped) return;
    for (let i = 0; i < this.notedPaths.length; i += 1) memo.note(this.notedPaths[i] as string, this.notedCounts[i] as number);
  }

  /** Turns the event loop, then throws when the call's signal fired. */
  readonly pause = async (): Promise<void> => {
    await yieldToEventLoop();
    this.lastPause = Date.now();
    throwIfAborted(this.ctx.signal);
  };

  /** How many more matches with line, column and excerpt are wanted now (0: only count). */
  wantOffsets(): number {
    return this.outputMode === 'content' && !this.tally.contentFull ? this.maxResults - this.tally.matches.length : 0;
  }

  /** Adds a file's count to the tally. */
  addCount(path: string, count: number): void {
    if (count > 0) {
      this.tally.totalMatches += count;
      this.tally.files.push({ path, count });
    }
  }

  /** The helper thread's counts merged with the files it handed back to this thread ({@link countHere}). */
  async countShared(shared: SharedWork, listedCount: number): Promise<void> {
    await (this.helper as SearchHelper).countShared(shared, this.countHere, () => this.stopped || Date.now() >= this.deadline, (path, code) => {
      this.done += 1;
      const skipped = skipKindOfCode(code);
      if (skipped) countSkippedUnder(this.ctx.signal, skipped, path);
      else if (code === FILE_BINARY) this.binary += 1;
      else if (code >= 0) {
        this.searched += 1;
        this.noteCount(path, code);
        this.addCount(path, code);
      }
    });
    // Past the deadline with every file counted left nothing out: not a stop.
    if (shared.stopped || (Date.now() >= this.deadline && this.done < listedCount)) this.stopped = true;
    this.tally.files.sort((a, b) => compareCodeUnits(a.path, b.path));
  }

  /** Searches `files` in order, a batch at a time, until the time limit. */
  async searchFiles(files: readonly WalkFile[]): Promise<void> {
    for (let i = 0; i < files.length && !this.stopped; i += BATCH_FILES) {
      throwIfAborted(this.ctx.signal);
      if (Date.now() >= this.deadline) {
        this.stopped = true;
        break;
      }
      const batch = files.slice(i, i + BATCH_FILES);
      if (this.fsReads) await this.searchFetched(batch, this.fsReads);
      else if (this.source) await this.searchCached(batch, this.source);
    }
  }

  /** One batch through the source's cache: bytes first, so a file that cannot hold the literal is never decoded (a literal count never decodes). */
  async searchCached(batch: readonly WalkFile[], source: SearchSource): Promise<void> {
    const { helper, needle, literal } = this;
    for (const walked of batch) {
      const wantOffsets = this.wantOffsets();
      if (wantOffsets === 0) {
        // A file the helper thread caches is read here without being cached twice.
        const counted = this.countHere(walked.path, !helper?.owns(walked.path));
        if (typeof counted === 'boolean' ? counted : await counted) break;
        continue;
      }
      const file = await this.readyHere(walked.path, !helper?.owns(walked.path));
      if (file === true) break;
      if (file === false) continue;
      if (needle && literal) {
        // A file remembered or found without the literal cannot match.
        if (knownCount(file, literal) === 0) {
          this.noteCount(walked.path, 0);
          continue;
        }
        if (source.indexOf(file.bytes, needle, file.skip) === -1) {
          rememberCount(file, literal, 0);
          this.noteCount(walked.path, 0);
          continue;
        }
      }
      if (await this.scanOne(walked.path, (this.cache as SourceCache).text(file), wantOffsets)) break;
    }
  }

  /**
   * One batch read through the platform's `fs` (no search source): fetched first (stat'ed, and read
   * where the cache does not hold it unchanged; files gone, unreadable or no longer regular left out),
   * then searched through the cache as a source's batch is.
   */
  async searchFetched(batch: readonly WalkFile[], reads: FsReads): Promise<void> {
    const fetched = await reads.fetch(batch, this.streamOver, this.ctx.signal);
    try {
      await this.searchCached(fetched.files, reads);
    } finally {
      fetched.release();
    }
  }

  /** Scans one decoded text and tallies it; true when the time limit stopped the search. */
  async scanOne(path: string, text: string, wantOffsets: number): Promise<boolean> {
    const result = await scanText(text, this.pattern, { deadline: this.deadline, wantOffsets, maxHits: Infinity, pause: this.pause });
    if (!result.stopped) this.noteCount(path, result.count);
    if (result.count > 0) {
      this.addCount(path, result.count);
      if (wantOffsets > 0) addMatches(this.tally, path, text, result.hits, this.contextLines, this.maxResults);
    }
    if (result.stopped) this.stopped = true;
    return result.stopped;
  }

  /**
   * Searches a file too large to hold whole, window by window (ranged reads where `fs` has them);
   * 'binary', 'large' (no ranged reads and over {@link MAX_WHOLE_READ_BYTES}), 'gone', or whether the
   * time limit stopped the search.
   */
  async streamOne(path: string): Promise<'binary' | 'large' | 'gone' | boolean> {
    const { fs } = this.ctx;
    const { tally, options } = this;
    const mark = { matches: tally.matches.length, outputChars: tally.outputChars, contentFull: tally.contentFull };
    const rollBack = (): void => {
      tally.matches.length = mark.matches;
      tally.outputChars = mark.outputChars;
      tally.contentFull = mark.contentFull;
    };
    try {
      let size = (await fs.stat(path)).size;
      let read: (position: number, length: number) => Promise<Uint8Array> | Uint8Array;
      if (fs.readRange) {
        const readRange = fs.readRange.bind(fs);
        read = (position, length) => readRange(path, position, length);
      } else {
        if (size > MAX_WHOLE_READ_BYTES) return 'large';
        const all = await fs.readFile(path);
        size = all.length;
        read = (position, length) => all.subarray(position, position + length);
      }
      const result = await scanStream(path, { size, read, decode: this.decode }, this.pattern, {
        deadline: this.deadline,
        pause: this.pause,
        contextLines: this.contextLines,
        wanted: () => this.wantOffsets(),
        emit: (match) => addMatch(tally, match, this.maxResults),
        ...(options.streamWindow === undefined ? {} : { window: options.streamWindow }),
        ...(options.streamOverlap === undefined ? {} : { overlap: options.streamOverlap }),
      });
      if (result.binary) {
        rollBack();
        return 'binary';
      }
      this.addCount(path, result.count);
      return result.stopped;
    } catch (error) {
      // Removed, replaced or made unreadable while the search ran: left out and counted, as the walk does.
      const kind = skipKindOf(error);
      if (kind === undefined) throw error;
      countSkippedUnder(this.ctx.signal, kind, path);
      rollBack();
      return 'gone';
    }
  }

  /** Tallies a streamed file's answer; true when the time limit stopped the search. */
  async streamed(path: string): Promise<boolean> {
    const outcome = await this.streamOne(path);
    if (outcome === 'gone') return false;
    if (outcome === 'large') this.large += 1;
    else if (outcome === 'binary') this.binary += 1;
    else {
      this.searched += 1;
      if (outcome) this.stopped = true;
      return outcome;
    }
    return false;
  }

  /**
   * A listed file through this thread's cache (see `SourceCache.load`); one that is gone or cannot be
   * read any more is left out and counted in `skipped_entries`, as the walk counts the entries it could
   * not list.
   */
  loadHere(path: string, keep: boolean, stat?: SearchFileStat | null): ReturnType<SourceCache['load']> {
    let file;
    try {
      file = (this.cache as SourceCache).load(path, this.streamOver, keep, stat);
    } catch (error) {
      const kind = skipKindOf(error);
      if (kind === undefined) throw error;
      countSkippedUnder(this.ctx.signal, kind, path);
      return undefined;
    }
    if (file === undefined) countSkippedUnder(this.ctx.signal, 'vanished', path);
    return file;
  }

  /**
   * A listed file ready to search on this thread (through {@link loadHere}), counted as reached and
   * searched; or, when there is nothing more to do with it here: a file gone, skipped or binary is
   * tallied (false), one over the whole-read limit is streamed (whether the time limit stopped that).
   */
  loadedHere(path: string, keep: boolean, stat: SearchFileStat | null | undefined): LoadedSource | boolean | Promise<boolean> {
    const file = this.loadHere(path, keep, stat);
    this.done += 1;
    if (file === undefined) return false;
    if (file === 'large') return this.streamed(path);
    if (!file.bytes) {
      this.binary += 1;
      return false;
    }
    this.searched += 1;
    return file as LoadedSource;
  }

  /** {@link loadedHere}, after turning the event loop when it is due (bytes-only work takes no pause). */
  async readyHere(path: string, keep: boolean, stat?: SearchFileStat | null): Promise<LoadedSource | boolean> {
    if (Date.now() - this.lastPause >= YIELD_EVERY_MS) await this.pause();
    return this.loadedHere(path, keep, stat);
  }

  /**
   * Counts one file on this thread (read through its cache, kept there when `keep`; `stat`: its
   * `lstat` as the helper took it) and tallies it; whether the time limit stopped the search. A file
   * counted on its bytes alone, when no pause is due, is answered synchronously: no promise per file.
   */
  readonly countHere = (path: string, keep: boolean, stat?: SearchFileStat | null): boolean | Promise<boolean> => {
    if (Date.now() - this.lastPause >= YIELD_EVERY_MS) return this.pause().then(() => this.countLoaded(path, keep, stat));
    return this.countLoaded(path, keep, stat);
  };

  countLoaded(path: string, keep: boolean, stat: SearchFileStat | null | undefined): boolean | Promise<boolean> {
    if (this.blocks) return this.countInBlocks(this.blocks, path);
    const file = this.loadedHere(path, keep, stat);
    if (typeof file === 'boolean' || file instanceof Promise) return file;
    const cache = this.cache as SourceCache;
    const now = countTextNow(cache, file, this.pattern, this.needle, this.deadline);
    // countText pauses (setting lastPause) only when it decodes and scans a text; bytes-only counts
    // take no pause, so countHere turns the event loop for them.
    return typeof now === 'number' ? countText(cache, file, this.pattern, this.needle, this.deadline, this.pause, now).then((counted) => this.tallied(path, counted)) : this.tallied(path, now);
  }

  /**
   * Counts a literal in one file read a block at a time (see {@link blocks}), tallied as
   * {@link countLoaded} tallies it; whether the time limit stopped the search (or the promise of
   * streaming a file over the whole-read limit).
   */
  countInBlocks(reader: BlockReader, path: string): boolean | Promise<boolean> {
    const counter = new BlockLiteralCount(this.source as SearchSource, this.needle as Uint8Array, this.deadline);
    let read;
    try {
      read = reader.readBlocks(path, this.streamOver, (block) => counter.add(block));
    } catch (error) {
      const kind = skipKindOf(error);
      if (kind === undefined) throw error;
      countSkippedUnder(this.ctx.signal, kind, path);
      this.done += 1;
      return false;
    }
    this.done += 1;
    if (read === undefined) {
      countSkippedUnder(this.ctx.signal, 'vanished', path);
      return false;
    }
    if (read === 'large') return this.streamed(path);
    if (!counter.stopped && !counter.finish()) {
      this.binary += 1;
      return false;
    }
    this.searched += 1;
    return this.tallied(path, { count: counter.count, stopped: counter.stopped });
  }

  /** Tallies a file's count; whether the time limit stopped the search. */
  tallied(path: string, counted: TextCount): boolean {
    if (!counted.stopped) this.noteCount(path, counted.count);
    this.addCount(path, counted.count);
    if (counted.stopped) this.stopped = true;
    return counted.stopped;
  }

  /** The tool's answer in the call's output mode, with the counters and, when it stopped, the note. */
  result(listed: Awaited<ReturnType<typeof filesToSearch>>, budget: { ms: number; byDeadline: boolean }): GrepSearchResult {
    const { tally, maxResults, stopped } = this;
    const counters: SearchCounters = {
      total_matches: tally.totalMatches,
      truncated: listed.capped || stopped,
      files_searched: this.searched,
      binary_files_skipped: this.binary,
    };
    if (this.large > 0) counters.large_files_skipped = this.large;
    if (stopped) counters.note = stopNote(budget, listed, this.done);
    if (this.outputMode === 'files_with_matches') {
      const files = tally.files.slice(0, maxResults).map((file) => file.path);
      const total = tally.files.length + this.filesUnlisted;
      return { files, total_files: total, ...counters, truncated: counters.truncated || files.length < total };
    }
    if (this.outputMode === 'count') {
      const counts = tally.files.slice(0, maxResults).map((file) => ({ file_path: file.path, count: file.count }));
      const total = tally.files.length + this.filesUnlisted;
      return { counts, total_files: total, ...counters, truncated: counters.truncated || counts.length < total };
    }
    return { matches: tally.matches, ...counters, truncated: counters.truncated || tally.matches.length < tally.totalMatches };
  }
}

/** UTF-8 text of bytes, or null when they are not UTF-8: the source's own decoder where there is one. */
function decoderFor(source: SearchSource | undefined): (bytes: Uint8Array) => string | null {
  if (source) return (bytes) => (source.isUtf8(bytes) ? source.decode(bytes) : null);
  const fatal = new TextDecoder('utf-8', { fatal: true });
  return (bytes) => {
    try {
      return fatal.decode(bytes);
    } catch {
      return null;
    }
  };
}

/** The note of a search the time limit stopped: the limit, how far it got, and what to do next. */
function stopNote(budget: { ms: number; byDeadline: boolean }, listed: { files: readonly WalkFile[]; stopped?: boolean }, done: number): string {
  const limit = budget.byDeadline ? `${budget.ms} ms, ${DEADLINE_SHARE * 100} % of what was left of the call's deadline` : `${budget.ms} ms`;
  const covered = !listed.stopped
    ? `after ${done} of ${listed.files.length} files; the results cover those files only`
    : listed.files.length === 0
      ? 'while listing files, before it had listed any; no file was searched'
      : `while listing files, after ${done} of the ${listed.files.length} files listed so far; the results cover those files only`;
  const next = budget.byDeadline ? 'narrow dir_path or include, or use a simpler pattern' : 'narrow dir_path or include, use a simpler pattern, or raise max_time_ms';
  return `the search stopped at its time limit (${limit}) ${covered}: ${next}.`;
}

function addMatches(
  tally: Tally,
  path: string,
  text: string,
  hits: ReadonlyArray<{ start: number; end: number; lineStart: number; lineEnd: number }>,
  contextLines: number,
  maxResults: number,
): void {
  const formatter = new MatchFormatter(text);
  for (const hit of hits) {
    if (tally.matches.length >= maxResults || hit.start < 0) {
      tally.contentFull = true;
      return;
    }
    if (!addMatch(tally, formatter.format(path, hit, contextLines), maxResults)) return;
  }
  if (tally.matches.length >= maxResults) tally.contentFull = true;
}

/** Adds one formatted match within the output budget; false (and the content full) once it is spent. */
function addMatch(tally: Tally, match: SearchMatch, maxResults: number): boolean {
  if (tally.contentFull || tally.matches.length >= maxResults) {
    tally.contentFull = true;
    return false;
  }
  let size = match.line.length;
  for (const part of match.before ?? []) size += part.length;
  for (const part of match.after ?? []) size += part.length;
  if (tally.outputChars + size > MAX_OUTPUT_CHARS && tally.matches.length > 0) {
    tally.contentFull = true;
    return false;
  }
  tally.outputChars += size;
  tally.matches.push(match);
  if (tally.matches.length >= maxResults) tally.contentFull = true;
  return true;
}
