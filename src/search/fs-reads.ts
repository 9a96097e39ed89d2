/**
 * The content cache of a search over a platform's ordinary async `fs` (the default engine's, for a
 * platform without a search source): the same cache as a source's (`SourceCache`, bytes kept while a
 * file's `stat` says it is unchanged), fed a batch at a time. Before a batch is searched its files are
 * stat'ed through `fs` and those the cache does not hold unchanged are read, all asynchronously; the
 * cache takes each read as it comes in (synchronously, from what was fetched, as it loads a source's
 * files), and the search then loads them from the cache.
 */
import type { FsDirent, Platform } from '../core/types.js';
import { throwIfAborted, YIELD_INTERVAL_MS, yieldToEventLoop } from '../fs/abort.js';
import { racyNow, sameIdentity, timesSettled } from '../fs/racy-clock.js';
import { sourceByteHelpers } from './memory-source.js';
import { cacheOf, type SourceCache } from './source-cache.js';
import type { SearchFileStat, SearchSource } from './source-port.js';
import { countSkippedUnder, skipKindOf } from './walk-report.js';

/** Files stat'ed / read concurrently. */
const READ_CONCURRENCY = 64;

/** What the reads of one file told: its stat when read, the moment of the read, and the platform's change count then (when it did not move during the read). */
interface Known {
  stat: SearchFileStat;
  readAt: number;
  generation: number | undefined;
}

/** A batch's file, as {@link FsReads.fetch} hands it on. */
export interface FetchedFile {
  path: string;
}

/** What one {@link FsReads.fetch} stat'ed and read, held until the batch has been searched. */
interface Fetched {
  readonly stats: Map<string, SearchFileStat>;
  readonly bytes: Map<string, Uint8Array>;
}

/** A fetched batch ready to search: its files, and the release of what was read for them. */
export interface FetchedBatch<F extends FetchedFile> {
  /** The files to search, in order (see {@link FsReads.fetch}). */
  readonly files: F[];
  /** The batch has been searched: drops what was read for it, and what is known of files the cache did not keep. */
  release(): void;
}

/**
 * A {@link SearchSource} answering `stat` and `read` from the last {@link FsReads.fetch} (never
 * listing: the walk goes through `fs`), so the search reads a platform's `fs` through a `SourceCache`.
 */
export class FsReads implements SearchSource {
  /** The batches fetched and not released yet, latest last (concurrent searches of one platform each have theirs). */
  readonly #active: Fetched[] = [];
  readonly #known = new Map<string, Known>();
  readonly #helpers = sourceByteHelpers();
  readonly cache: SourceCache;

  constructor(readonly platform: Platform) {
    this.cache = cacheOf(this);
  }

  readdir(path: string): FsDirent[] {
    throw new TypeError(`a search over fs lists ${path} through fs, not its reads`);
  }

  /** The file's stat as the latest batch holding it fetched it. */
  stat(path: string): SearchFileStat | undefined {
    for (let i = this.#active.length - 1; i >= 0; i -= 1) {
      const stat = (this.#active[i] as Fetched).stats.get(path);
      if (stat) return stat;
    }
    return undefined;
  }

  /** The file's bytes as the latest batch holding them read them (a buffer `fs` made, which the cache keeps as it is). */
  read(path: string, maxBytes: number, into?: (size: number) => Uint8Array): { bytes: Uint8Array; stat: SearchFileStat } | undefined {
    for (let i = this.#active.length - 1; i >= 0; i -= 1) {
      const batch = this.#active[i] as Fetched;
      const stat = batch.stats.get(path);
      if (!stat) continue;
      // Over the caller's limit: it refuses the size (nothing was read for it).
      if (stat.size >= maxBytes && into) into(stat.size);
      const bytes = batch.bytes.get(path);
      if (bytes) return { bytes, stat };
    }
    return undefined;
  }

  indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
    return this.#helpers.indexOf(haystack, needle, from);
  }

  isUtf8(bytes: Uint8Array): boolean {
    return this.#helpers.isUtf8(bytes);
  }

  decode(bytes: Uint8Array): string {
    return this.#helpers.decode(bytes);
  }

  /**
   * Stats the files of `batch` through `fs` and reads those of at most `limit` bytes that the
   * cache does not hold unchanged (validated by size, modification and status-change times where `fs`
   * reports them, git's racy rule; while the platform's change count has not moved since a file was
   * read, without a `stat`). Answers the files to search, in order: a file that is gone or cannot be
   * read is left out and counted under `signal` (see `countSkippedUnder`), one that is no longer a
   * regular file is left out. What it read is held until the batch is released.
   */
  async fetch<F extends FetchedFile>(batch: readonly F[], limit: number, signal: AbortSignal | undefined): Promise<FetchedBatch<F>> {
    const { fs, changeCount } = this.platform;
    const fetched: Fetched = { stats: new Map(), bytes: new Map() };
    this.#active.push(fetched);
    const release = (): void => {
      const at = this.#active.indexOf(fetched);
      if (at !== -1) this.#active.splice(at, 1);
      for (const { path } of batch) if (!this.cache.holds(path)) this.#known.delete(path);
    };
    try {
      return { files: await this.#fetchAll(batch, limit, signal, fetched, fs, changeCount?.()), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  async #fetchAll<F extends FetchedFile>(
    batch: readonly F[],
    limit: number,
    signal: AbortSignal | undefined,
    fetched: Fetched,
    fs: Platform['fs'],
    generation: number | undefined,
  ): Promise<F[]> {
    const { changeCount } = this.platform;
    const kept: Array<F | undefined> = new Array(batch.length);
    let lastYield = Date.now();
    const fetchOne = async (file: F, index: number): Promise<void> => {
      const known = this.#known.get(file.path);
      const held = known !== undefined && this.cache.holds(file.path);
      if (held && generation !== undefined && known.generation === generation && known.stat.size <= limit && timesSettled(known.stat, known.readAt)) {
        // Nothing changed in the workspace since this file was read: no stat needed.
        fetched.stats.set(file.path, known.stat);
        kept[index] = file;
        return;
      }
      let stat: SearchFileStat;
      try {
        const stats = await fs.stat(file.path);
        if (!stats.isFile()) return;
        stat = { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: ctimeOf(stats), ino: -1 };
      } catch (error) {
        countSkippedUnder(signal, skipKindOf(error) ?? 'unreadable', file.path);
        return;
      }
      fetched.stats.set(file.path, stat);
      kept[index] = file;
      if (stat.size > limit) return;
      if (held && sameIdentity(known.stat, stat) && timesSettled(stat, known.readAt)) return;
      const readAt = racyNow();
      try {
        fetched.bytes.set(file.path, await fs.readFile(file.path));
      } catch (error) {
        fetched.stats.delete(file.path);
        kept[index] = undefined;
        countSkippedUnder(signal, skipKindOf(error) ?? 'unreadable', file.path);
        return;
      }
      this.#known.set(file.path, { stat, readAt, generation: generation !== undefined && changeCount?.() === generation ? generation : undefined });
      // Into the cache now, so the moment it keeps with the bytes (its racy rule's) is the read's, not the search's.
      this.cache.load(file.path, limit, true, stat);
    };
    for (let i = 0; i < batch.length; i += READ_CONCURRENCY) {
      throwIfAborted(signal);
      if (Date.now() - lastYield > YIELD_INTERVAL_MS) {
        await yieldToEventLoop();
        lastYield = Date.now();
        throwIfAborted(signal);
      }
      const round: Promise<void>[] = [];
      for (let j = i; j < Math.min(batch.length, i + READ_CONCURRENCY); j += 1) round.push(fetchOne(batch[j] as F, j));
      await Promise.all(round);
    }
    return kept.filter((file): file is F => file !== undefined);
  }
}

/** The status-change time where `fs` reports one (Node's stats do), else -1 (never changes, always settled). */
function ctimeOf(stats: object): number {
  const ctime = (stats as { ctimeMs?: unknown }).ctimeMs;
  return typeof ctime === 'number' && Number.isFinite(ctime) ? ctime : -1;
}


// Per platform (as the decoded texts were), so two workspaces never share entries, and dropped with it.
const reads = new WeakMap<Platform, FsReads>();

/** The reads (and content cache) of searches over `platform`'s `fs`. */
export function fsReadsOf(platform: Platform): FsReads {
  let known = reads.get(platform);
  if (!known) {
    known = new FsReads(platform);
    reads.set(platform, known);
  }
  return known;
}
