import type { SearchHelper, SearchHelperJob, SharedCount } from '../core/types.js';
import type { WalkFile } from '../fs/walk.js';
import { FILE_LARGE, FILE_NOT_REACHED, type SourceCache } from './source-cache.js';

/** Fewest files a count shares with the source's helper thread (below, the thread costs more than it saves). */
export const HELPED_MIN_FILES = 256;
/** Files of one batch handed to the helper thread: the grain at which the two threads meet. */
export const SHARED_BATCH_FILES = 32;

/** A shared count once the walk is done: the files this thread's cache holds, and the batches. */
export interface SharedWork {
  count: SharedCount;
  /** Files this thread's cache holds: counted here, never handed over. */
  mine: string[];
  /** The batches posted, by index (`helpers`: the helper's alone). */
  batches: Array<{ paths: string[]; helpers: boolean }>;
  /** Whether the helper's cache holds a file (see {@link SearchHelper.owns}). */
  owns: (path: string) => boolean;
  /** Set by {@link countShared}: the helper stopped at the deadline. */
  stopped: boolean;
}

/**
 * The calling thread's side of a count shared with a {@link SearchHelper}, fed by the walk
 * (`walkWorkspace`'s `onFiles`): once the walk has listed {@link HELPED_MIN_FILES} files it starts
 * the {@link SharedCount}, and from then on sorts each listed file into the files this thread's cache
 * holds (counted here), the helper's batches (files its cache holds) and open batches.
 */
export class SharedFiles {
  #count: SharedCount | undefined;
  readonly #mine: string[] = [];
  readonly #batches: Array<{ paths: string[]; helpers: boolean }> = [];
  #open: string[] = [];
  #helpers: string[] = [];

  constructor(
    readonly helper: SearchHelper,
    readonly cache: SourceCache,
  ) {}

  /** Takes the walk's files (the last `added` are new); `job` describes the count, asked for once. */
  add(files: readonly WalkFile[], added: number, job: () => SearchHelperJob, signal: AbortSignal | undefined): void {
    let from = files.length - added;
    if (!this.#count) {
      if (files.length < HELPED_MIN_FILES) return;
      this.#count = this.helper.share(job(), signal);
      from = 0;
    }
    for (let i = from; i < files.length; i += 1) {
      const path = (files[i] as WalkFile).path;
      if (this.cache.holds(path)) this.#mine.push(path);
      else if (this.helper.owns(path)) {
        this.#helpers.push(path);
        if (this.#helpers.length === SHARED_BATCH_FILES) this.#post(true);
      } else {
        this.#open.push(path);
        if (this.#open.length === SHARED_BATCH_FILES) this.#post(false);
      }
    }
  }

  /** The walk is done: the rest is posted and the count told so. Undefined when the walk found too few files to share. */
  end(): SharedWork | undefined {
    const count = this.#count;
    if (!count) return undefined;
    if (this.#helpers.length > 0) this.#post(true);
    if (this.#open.length > 0) this.#post(false);
    count.end();
    return { count, mine: this.#mine, batches: this.#batches, owns: (path) => this.helper.owns(path), stopped: false };
  }

  /** The walk failed: the helper drops the count. */
  cancel(): void {
    this.#count?.cancel();
  }

  #post(helpers: boolean): void {
    const paths = helpers ? this.#helpers : this.#open;
    if (helpers) this.#helpers = [];
    else this.#open = [];
    (this.#count as SharedCount).post(paths, helpers);
    this.#batches.push({ paths, helpers });
  }
}

/**
 * Counts `work` on this thread beside the helper: first the files this thread's cache holds, then open
 * batches from the last one down until it meets a batch the helper took; then it takes the helper's
 * codes (`tally`) and counts here what the helper left (files over its size limit, batches it never
 * reached because it was busy, gone, or stopped). `countHere(path, keep)` counts one file on this
 * thread and answers whether the time limit stopped the search; `stop()` tells whether it has.
 */
export async function countShared(
  work: SharedWork,
  countHere: (path: string, keep: boolean) => Promise<boolean>,
  stop: () => boolean,
  tally: (path: string, code: number) => void,
): Promise<void> {
  const { count, batches } = work;
  const here = new Uint8Array(batches.length);
  try {
    let stopped = false;
    for (const path of work.mine) {
      if ((stopped = await countHere(path, true))) break;
    }
    for (let k = batches.length - 1; k >= 0 && !stopped; k -= 1) {
      const batch = batches[k] as { paths: string[]; helpers: boolean };
      if (batch.helpers) continue;
      if (!count.claim(k)) break;
      here[k] = 1;
      for (const path of batch.paths) {
        if ((stopped = await countHere(path, true))) break;
      }
    }
    const answer = await count.finish();
    work.stopped = answer.stopped;
    for (let k = 0; k < batches.length; k += 1) {
      if (here[k] === 1) continue;
      const { paths } = batches[k] as { paths: string[] };
      const codes = answer.codes.get(k);
      for (let i = 0; i < paths.length; i += 1) {
        const path = paths[i] as string;
        const code = codes ? (codes[i] as number) : FILE_NOT_REACHED;
        if (codes && code !== FILE_LARGE) {
          if (code !== FILE_NOT_REACHED) tally(path, code);
          continue;
        }
        // Left to this thread: over the helper's size limit, or a batch it never counted.
        if (stop()) return;
        // A file the helper's cache holds is read here without being cached twice.
        if (await countHere(path, code === FILE_LARGE || !work.owns(path))) return;
      }
    }
  } catch (error) {
    count.cancel();
    throw error;
  }
}
