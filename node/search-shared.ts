import type { SearchFileStat, SearchHelper, SearchHelperJob, SharedBatchKind, SharedCount, SharedFilesSorter, SharedWork as SharedWorkView } from '../src/search/source-port.js';
import type { WalkFile } from '../src/search/walk.js';
import { FILE_LARGE, FILE_NOT_REACHED } from '../src/search/source-cache.js';

/** Fewest files a count shares with the source's helper thread (below, the thread costs more than it saves). */
export const HELPED_MIN_FILES = 256;
/** Numbers a `stat` batch's answer holds per path: size, mtimeMs, ctimeMs, ino (see `statPaths`). */
export const STAT_NUMBERS = 4;
/** Files of one batch handed to the helper thread: the grain at which the two threads meet. */
export const SHARED_BATCH_FILES = 32;

/**
 * An empty array whose elements V8 keeps as objects from the start. `[]` starts as an array of small
 * integers, which the first push of a string or object turns into another kind, and optimized code
 * that pushes went back to the interpreter over it every search or so.
 */
export function objectArray<T>(): T[] {
  const array: T[] = [undefined as T];
  array.pop();
  return array;
}

/** A shared count once the walk is done, and its batches. */
export interface SharedWork extends SharedWorkView {
  count: SharedCount;
  /** The batches posted, by index. */
  batches: Array<{ paths: string[]; kind: SharedBatchKind }>;
  /** Whether the helper's cache holds a file (see {@link SearchHelper.owns}). */
  owns: (path: string) => boolean;
  /** Set by {@link countShared}: the helper stopped at the deadline. */
  stopped: boolean;
}

/**
 * The calling thread's side of a count shared with a {@link SearchHelper}, fed by the walk
 * (`walkWorkspace`'s `onFiles`): once the walk has listed {@link HELPED_MIN_FILES} files it starts
 * the {@link SharedCount}, and from then on sorts each listed file into `stat` batches (files this
 * thread's cache holds), the helper's batches (files its cache holds) and open batches.
 */
export class SharedFiles implements SharedFilesSorter {
  #count: SharedCount | undefined;
  readonly #batches = objectArray<{ paths: string[]; kind: SharedBatchKind }>();
  /**
   * The batch being filled, per kind: always an array of objects (see {@link objectArray}), so these
   * fields keep one type whichever kinds a search meets (the first repeated search fills `stat` and
   * `helpers` for the first time).
   */
  #helpers = objectArray<string>();
  #open = objectArray<string>();
  #stat = objectArray<string>();

  constructor(
    readonly helper: SearchHelper,
    /** Whether the calling thread's cache holds a file. */
    readonly holds: (path: string) => boolean,
  ) {}

  /** Takes the walk's files (the last `added` are new); `job` describes the count, asked for once. */
  add(files: ReadonlyArray<Pick<WalkFile, 'path'>>, added: number, job: () => SearchHelperJob, signal: AbortSignal | undefined): void {
    let from = files.length - added;
    if (!this.#count) {
      if (files.length < HELPED_MIN_FILES) return;
      this.#count = this.helper.share(job(), signal);
      from = 0;
    }
    for (let i = from; i < files.length; i += 1) {
      const path = (files[i] as Pick<WalkFile, 'path'>).path;
      if (this.holds(path)) {
        if (this.#stat.push(path) === SHARED_BATCH_FILES) this.#post('stat');
      } else if (this.helper.owns(path)) {
        if (this.#helpers.push(path) === SHARED_BATCH_FILES) this.#post('helpers');
      } else if (this.#open.push(path) === SHARED_BATCH_FILES) {
        this.#post('open');
      }
    }
  }

  /** The walk is done: the rest is posted and the count told so. Undefined when the walk found too few files to share. */
  end(): SharedWork | undefined {
    const count = this.#count;
    if (!count) return undefined;
    for (const kind of ['helpers', 'open', 'stat'] as const) this.#post(kind);
    count.end();
    return { count, batches: this.#batches, owns: (path) => this.helper.owns(path), stopped: false };
  }

  /** The walk failed: the helper drops the count. */
  cancel(): void {
    this.#count?.cancel();
  }

  /** Posts the batch of `kind` being filled, if it has any file. */
  #post(kind: SharedBatchKind): void {
    const paths = kind === 'stat' ? this.#stat : kind === 'helpers' ? this.#helpers : this.#open;
    if (paths.length === 0) return;
    if (kind === 'stat') this.#stat = objectArray();
    else if (kind === 'helpers') this.#helpers = objectArray();
    else this.#open = objectArray();
    (this.#count as SharedCount).post(paths, kind);
    this.#batches.push({ paths, kind });
  }
}

/**
 * Runs `step(i)` for each `i` from `from` below `end` while each answers false, synchronously as long
 * as each answers a boolean; true as soon as one answers true. A step that answers a promise is
 * awaited and the rest run after it. So the per-file loops of a shared count are plain loops (quick
 * for V8 to optimize, no promise per file), and `countShared` itself awaits once a batch at most.
 */
function eachUntil(end: number, step: (i: number) => boolean | Promise<boolean>, from = 0): boolean | Promise<boolean> {
  for (let i = from; i < end; i += 1) {
    const result = step(i);
    if (typeof result !== 'boolean') return result.then((done) => done || eachUntil(end, step, i + 1));
    if (result) return true;
  }
  return false;
}

/**
 * Counts `work` on this thread beside the helper: `open` and `stat` batches from the last one down
 * until it meets a batch the helper took; then it takes the helper's codes (`tally`), counts the files
 * of the `stat` batches the helper took (from this thread's cache, with the helper's `lstat`), and
 * counts here what the helper left (files over its size limit, batches it never reached because it
 * was busy, gone, or stopped). `countHere(path, keep, stat)` counts one file on this thread (`stat`:
 * its `lstat` as the helper took it, null when it was gone; undefined: take it now) and answers
 * whether the time limit stopped the search; `stop()` tells whether it has.
 */
export async function countShared(
  work: SharedWorkView,
  countHere: (path: string, keep: boolean, stat?: SearchFileStat | null) => boolean | Promise<boolean>,
  stop: () => boolean,
  tally: (path: string, code: number) => void,
): Promise<void> {
  const shared = work as SharedWork;
  const { count, batches } = shared;
  const here = new Uint8Array(batches.length);
  try {
    let stopped = false;
    for (let k = batches.length - 1; k >= 0 && !stopped; k -= 1) {
      const batch = batches[k] as { paths: string[]; kind: SharedBatchKind };
      if (batch.kind === 'helpers') continue;
      if (!count.claim(k)) break;
      here[k] = 1;
      const { paths } = batch;
      const own = eachUntil(paths.length, (i) => countHere(paths[i] as string, true));
      stopped = typeof own === 'boolean' ? own : await own;
    }
    const answer = await count.finish();
    shared.stopped = answer.stopped;
    for (let k = 0; k < batches.length; k += 1) {
      if (here[k] === 1) continue;
      const { paths, kind } = batches[k] as { paths: string[]; kind: SharedBatchKind };
      let merged: boolean | Promise<boolean>;
      if (kind === 'stat') {
        // This thread's cached files; the helper may have taken their lstat.
        const stats = answer.stats.get(k);
        merged = eachUntil(paths.length, (i) => {
          if (stop()) return true;
          const size = stats?.[STAT_NUMBERS * i];
          // -1: not reached (the deadline came first), NaN: gone or not a regular file.
          const stat =
            stats === undefined || size === -1
              ? undefined
              : Number.isNaN(size)
                ? null
                : { size: size as number, mtimeMs: stats[STAT_NUMBERS * i + 1] as number, ctimeMs: stats[STAT_NUMBERS * i + 2] as number, ino: stats[STAT_NUMBERS * i + 3] as number };
          return countHere(paths[i] as string, true, stat);
        });
      } else {
        const codes = answer.codes.get(k);
        merged = eachUntil(paths.length, (i) => {
          const path = paths[i] as string;
          const code = codes ? (codes[i] as number) : FILE_NOT_REACHED;
          if (codes && code !== FILE_LARGE) {
            if (code !== FILE_NOT_REACHED) tally(path, code);
            return false;
          }
          // Left to this thread: over the helper's size limit, or a batch it never counted.
          if (stop()) return true;
          // A file the helper's cache holds is read here without being cached twice.
          return countHere(path, code === FILE_LARGE || !shared.owns(path));
        });
      }
      if (typeof merged === 'boolean' ? merged : await merged) return;
    }
  } catch (error) {
    count.cancel();
    throw error;
  }
}
