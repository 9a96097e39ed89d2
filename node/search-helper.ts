import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { toToolError, ToolError } from '../src/core/errors.js';
import type { SearchHelper, SearchHelperAnswer, SearchHelperJob, SearchSource, SharedBatchKind, SharedCount } from '../src/core/types.js';
import { compileSearchPattern, prepareSearchPattern, type SearchPattern } from '../src/search/dialect.js';
import { countText, countTextNow, FILE_BINARY, FILE_GONE, FILE_LARGE, FILE_NOT_REACHED, FILE_SKIPPED, needleOf, type SourceCache } from '../src/search/source-cache.js';
import { skipKindOf } from '../src/fs/walk.js';
import { countShared, objectArray, SharedFiles, STAT_NUMBERS } from './search-shared.js';

/**
 * The shared control words of one count (an `Int32Array` over a `SharedArrayBuffer`): the cancel flag,
 * the count's state, then one claim word per batch.
 */
export const CONTROL_CANCEL = 0;
export const CONTROL_STATE = 1;
export const CONTROL_FIRST_BATCH = 2;
/** {@link CONTROL_STATE}: the helper has not started on the count yet. */
export const STATE_WAITING = 0;
/** {@link CONTROL_STATE}: the helper is on it (it answers). */
export const STATE_STARTED = 1;
/** {@link CONTROL_STATE}: the caller took it back before the helper started (it never will). */
export const STATE_TAKEN_BACK = 2;
/** A batch's claim word: open. */
export const BATCH_OPEN = 0;
/** A batch's claim word: the calling thread counts it. */
export const BATCH_CALLER = 1;
/** A batch's claim word: the helper counts it (claimed, or its own from the start). */
export const BATCH_HELPER = 2;
/** Batches of one count the helper takes part in; later ones are the caller's. */
export const MAX_SHARED_BATCHES = 16_384;

/** Messages to the worker: a platform's root (`open`) or its end (`close`), and a shared count's start, batches, end and cancel. */
export type WorkerMessage =
  | { type: 'open'; platform: number; root: string; cacheBytes: number }
  | { type: 'close'; platform: number }
  | ({ type: 'count'; platform: number; id: number; control: Int32Array } & SearchHelperJob)
  | { type: 'batch'; id: number; index: number; paths: string[]; kind: SharedBatchKind }
  | { type: 'end'; id: number }
  | { type: 'cancel'; id: number };

/** The worker's answer to a count. */
export interface WorkerAnswer {
  id: number;
  /** Indexes of the count batches it did, with their codes. */
  batches?: number[];
  codes?: Int32Array[];
  /** Indexes of the stat batches it did, with their stats. */
  statBatches?: number[];
  stats?: Float64Array[];
  stopped?: boolean;
  error?: { code: string; message: string };
}

/** A count's pattern as the helper runs it. */
export async function helperPattern(job: SearchHelperJob): Promise<{ pattern: SearchPattern; needle: Uint8Array | undefined }> {
  const pattern = await prepareSearchPattern(compileSearchPattern(job.pattern, { literal: job.literal, caseSensitive: job.caseSensitive }));
  return { pattern, needle: needleOf(pattern) };
}

/**
 * Counts `paths` over `cache` (the helper's loop, per batch): per path the same steps as the search
 * tools' own count. Codes as in {@link SearchHelperAnswer} (a file that could not be read: its
 * `FILE_SKIPPED` code); `stopped`: the deadline came first.
 * Throws what `pause` throws (the helper's cancel check).
 */
export async function countPaths(
  cache: SourceCache,
  compiled: { pattern: SearchPattern; needle: Uint8Array | undefined },
  paths: readonly string[],
  job: SearchHelperJob,
  pause: () => Promise<void>,
): Promise<{ codes: Int32Array; stopped: boolean }> {
  const codes = new Int32Array(paths.length).fill(FILE_NOT_REACHED);
  for (let i = 0; i < paths.length; i += 1) {
    if (Date.now() >= job.deadline) return { codes, stopped: true };
    let file;
    try {
      file = cache.load(paths[i] as string, job.limit);
    } catch (error) {
      // Unreadable or replaced by a link since it was listed: the caller counts it as skipped.
      const kind = skipKindOf(error);
      if (kind === undefined) throw error;
      codes[i] = FILE_SKIPPED[kind];
      continue;
    }
    if (file === undefined) codes[i] = FILE_GONE;
    else if (file === 'large') codes[i] = FILE_LARGE;
    else if (!file.bytes) codes[i] = FILE_BINARY;
    else {
      // Counted on bytes alone when it can be: no promise per file.
      const now = countTextNow(cache, file, compiled.pattern, compiled.needle, job.deadline);
      const counted = typeof now === 'number' ? await countText(cache, file, compiled.pattern, compiled.needle, job.deadline, pause, now) : now;
      codes[i] = counted.count;
      if (counted.stopped) return { codes, stopped: true };
    }
  }
  return { codes, stopped: false };
}

/**
 * The `lstat` of each of `paths` (a `stat` batch), {@link STAT_NUMBERS} numbers a path: size, mtimeMs, ctimeMs, ino; size NaN
 * when it is gone or not a regular file, -1 for the paths after the deadline came.
 */
export function statPaths(source: SearchSource, paths: readonly string[], deadline: number): { stats: Float64Array; stopped: boolean } {
  const stats = new Float64Array(STAT_NUMBERS * paths.length).fill(-1);
  for (let i = 0; i < paths.length; i += 1) {
    if ((i & 15) === 0 && Date.now() >= deadline) return { stats, stopped: true };
    let stat;
    try {
      stat = source.stat(paths[i] as string);
    } catch {
      stat = undefined;
    }
    const at = STAT_NUMBERS * i;
    stats[at] = stat ? stat.size : Number.NaN;
    stats[at + 1] = stat ? stat.mtimeMs : Number.NaN;
    stats[at + 2] = stat ? stat.ctimeMs : Number.NaN;
    stats[at + 3] = stat ? stat.ino : Number.NaN;
  }
  return { stats, stopped: false };
}

/** An answer with no batch done by the helper: the caller counts them all. */
function answeredNothing(stopped: boolean): SearchHelperAnswer {
  return { codes: new Map(), stats: new Map(), stopped };
}

interface Pending {
  resolve: (answer: SearchHelperAnswer) => void;
}

/** How long past a count's deadline the helper's answer is waited for before its batches count as not reached (ms). */
const LATE_MS = 100;
/** Old-generation heap of the helper thread, in MiB. */
const WORKER_HEAP_MB = 96;
/**
 * Young-generation heap of the helper thread, in MiB. At 8 the objects of a count (batches, stats,
 * answers) outlived two scavenges and filled the small old generation, which then took a full
 * collection every other search (5-15 ms on the helper thread each); 32 added up to 25 MiB to the
 * search bench's peak RSS.
 */
const WORKER_YOUNG_MB = 16;
/** Paths one platform remembers as held by the helper's cache, at most (then it forgets them all). */
const MAX_OWNED_PATHS = 200_000;

/** The process's one helper thread, shared by every Node platform so its code stays compiled. */
let shared: { worker: Worker; pending: Map<number, Pending> } | undefined;
let nextId = 1;

function sharedWorker(url: URL): { worker: Worker; pending: Map<number, Pending> } | undefined {
  if (shared) return shared;
  let worker: Worker;
  try {
    // A small heap, so V8 collects the decoded texts of its files sooner (it gets files of 16 MiB at most):
    // over the search bench's Node searches the process peaked at 407 MiB with the default heap, 350 MiB so.
    worker = new Worker(url, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
  } catch {
    return undefined;
  }
  const pending = new Map<number, Pending>();
  const current = { worker, pending };
  /** The worker is gone: its counts answer nothing (their callers count those batches), and the next platform starts another. */
  const lose = (): void => {
    if (shared === current) shared = undefined;
    const counts = [...pending.values()];
    pending.clear();
    for (const { resolve } of counts) resolve(answeredNothing(false));
  };
  worker.on('message', (message: WorkerAnswer) => {
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    const codes = new Map<number, Int32Array>();
    const stats = new Map<number, Float64Array>();
    // An error in the helper (it cannot read the root, say) leaves its batches to the caller, which meets the same error itself.
    if (!message.error) {
      (message.batches ?? []).forEach((index, k) => codes.set(index, (message.codes as Int32Array[])[k] as Int32Array));
      (message.statBatches ?? []).forEach((index, k) => stats.set(index, (message.stats as Float64Array[])[k] as Float64Array));
    }
    entry.resolve({ codes, stats, stopped: message.stopped === true });
  });
  worker.on('error', lose);
  worker.on('exit', lose);
  // After the listeners (a 'message' listener refs the worker's port again).
  worker.unref();
  shared = current;
  return current;
}

function abortError(signal: AbortSignal | undefined): ToolError {
  const reason = toToolError(signal?.reason);
  return reason.code === 'execution_failed' ? new ToolError('cancelled', reason.message) : reason;
}

/** A shared count with no helper thread: every batch is the caller's. */
class CountAlone implements SharedCount {
  posted = 0;
  readonly started = false;

  post(): number {
    return this.posted++;
  }

  end(): void {}

  claim(): boolean {
    return true;
  }

  finish(): Promise<SearchHelperAnswer> {
    return Promise.resolve(answeredNothing(false));
  }

  cancel(): void {}
}

/**
 * One count shared with the process's helper thread (see {@link startSearchHelper}). A class, not an
 * object literal: one map for every count, so the walk's hot path that posts batches stays optimized
 * from one search to the next (a literal with getters gets a map of its own each time).
 */
class HelperCount implements SharedCount {
  readonly #worker: Worker;
  readonly #pending: Map<number, Pending>;
  readonly #id: number;
  readonly #control: Int32Array;
  readonly #job: SearchHelperJob;
  readonly #signal: AbortSignal | undefined;
  readonly #owned: Set<string>;
  /** Paths of the batches posted, by index. */
  readonly #batches = objectArray<string[]>();
  #settled = false;
  #answer: ((value: SearchHelperAnswer) => void) | undefined = undefined;
  readonly #answered: Promise<SearchHelperAnswer>;

  constructor(current: { worker: Worker; pending: Map<number, Pending> }, platform: number, job: SearchHelperJob, signal: AbortSignal | undefined, owned: Set<string>) {
    this.#worker = current.worker;
    this.#pending = current.pending;
    this.#id = nextId++;
    this.#control = new Int32Array(new SharedArrayBuffer(4 * (CONTROL_FIRST_BATCH + MAX_SHARED_BATCHES)));
    this.#job = job;
    this.#signal = signal;
    this.#owned = owned;
    this.#answered = new Promise<SearchHelperAnswer>((resolve) => (this.#answer = resolve));
    // Referenced while a count is out, so a process awaiting it does not exit meanwhile.
    this.#worker.ref();
    this.#pending.set(this.#id, { resolve: (value) => this.#settle(value) });
    this.#worker.postMessage({ type: 'count', platform, id: this.#id, control: this.#control, ...job } satisfies WorkerMessage);
  }

  get posted(): number {
    return this.#batches.length;
  }

  get started(): boolean {
    return Atomics.load(this.#control, CONTROL_STATE) === STATE_STARTED;
  }

  post(paths: string[], kind: SharedBatchKind): number {
    const index = this.#batches.length;
    this.#batches.push(paths);
    if (index >= MAX_SHARED_BATCHES || this.#settled) return index;
    if (kind === 'helpers') Atomics.store(this.#control, CONTROL_FIRST_BATCH + index, BATCH_HELPER);
    this.#worker.postMessage({ type: 'batch', id: this.#id, index, paths, kind } satisfies WorkerMessage);
    return index;
  }

  end(): void {
    if (!this.#settled) this.#worker.postMessage({ type: 'end', id: this.#id } satisfies WorkerMessage);
  }

  claim(index: number): boolean {
    if (index >= MAX_SHARED_BATCHES) return true;
    return Atomics.compareExchange(this.#control, CONTROL_FIRST_BATCH + index, BATCH_OPEN, BATCH_CALLER) === BATCH_OPEN;
  }

  async finish(): Promise<SearchHelperAnswer> {
    const control = this.#control;
    const signal = this.#signal;
    // Not started yet (busy with another platform's count): it never will, its batches are the caller's.
    if (Atomics.compareExchange(control, CONTROL_STATE, STATE_WAITING, STATE_TAKEN_BACK) === STATE_WAITING) this.cancel();
    // The worker stops at the deadline itself; this covers one that is stuck past it.
    const late = setTimeout(() => {
      Atomics.store(control, CONTROL_CANCEL, 1);
      this.#settle(answeredNothing(true));
    }, Math.max(0, this.#job.deadline - Date.now()) + LATE_MS);
    const onAbort = (): void => this.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) this.cancel();
    try {
      const result = await this.#answered;
      throwIfAbortedBy(signal);
      const owned = this.#owned;
      for (const [index, codes] of result.codes) {
        const paths = this.#batches[index] as string[];
        for (let i = 0; i < paths.length; i += 1) {
          const code = codes[i] as number;
          if (code >= 0 || code === FILE_BINARY) owned.add(paths[i] as string);
        }
      }
      if (owned.size > MAX_OWNED_PATHS) owned.clear();
      return result;
    } finally {
      clearTimeout(late);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  cancel(): void {
    Atomics.store(this.#control, CONTROL_CANCEL, 1);
    if (!this.#settled) this.#worker.postMessage({ type: 'cancel', id: this.#id } satisfies WorkerMessage);
    this.#settle(answeredNothing(false));
  }

  #settle(value: SearchHelperAnswer): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#pending.delete(this.#id);
    if (this.#pending.size === 0) this.#worker.unref();
    (this.#answer as (value: SearchHelperAnswer) => void)(value);
  }
}

/**
 * The search helper of a Node search source over `root` (see {@link SearchHelper}): it shares large
 * counts with the process's one `worker_threads` Worker (started by the first such count, so a process
 * that never counts a large tree starts no thread; unreferenced while idle so it never keeps the
 * process alive; kept for the next platforms so its code stays compiled), which reads this root
 * through its own descriptors into a cache of its own of `cacheBytes` (half the platform's budget),
 * dropped by `close`. Batches are handed over with `postMessage` as the walk lists them and claimed
 * through a `SharedArrayBuffer` (`Atomics.compareExchange`), so neither thread waits for the other
 * while there is work. The files of the batches the worker counted are remembered as its own (`owns`)
 * for the next counts, until its cache or the worker is gone. Where the worker cannot start, or dies,
 * its batches come back uncounted and the calling thread counts them. Undefined where the built
 * worker module is missing (running from TypeScript sources).
 */
export function startSearchHelper(root: string, cacheBytes: number): (SearchHelper & { close(): void }) | undefined {
  const url = new URL('./search-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url))) return undefined;
  const platform = nextId++;
  let opened: Worker | undefined;
  /** Files the worker's cache holds for this platform (it counted them). */
  const owned = new Set<string>();
  const open = (): { worker: Worker; pending: Map<number, Pending> } | undefined => {
    const current = sharedWorker(url);
    if (current && opened !== current.worker) {
      // A new worker: nothing of this platform is cached there yet.
      owned.clear();
      current.worker.postMessage({ type: 'open', platform, root, cacheBytes } satisfies WorkerMessage);
      opened = current.worker;
    }
    return current;
  };
  const helper: SearchHelper & { close(): void } = {
    owns: (path) => owned.has(path),
    sharedFiles: (holds) => new SharedFiles(helper, holds),
    countShared,
    share(job: SearchHelperJob, signal: AbortSignal | undefined): SharedCount {
      const current = open();
      return current ? new HelperCount(current, platform, job, signal, owned) : new CountAlone();
    },
    close(): void {
      owned.clear();
      if (opened && shared?.worker === opened) opened.postMessage({ type: 'close', platform } satisfies WorkerMessage);
      opened = undefined;
    },
  };
  return helper;
}

function throwIfAbortedBy(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/**
 * Stops the process's search helper thread, if one runs: counts it had come back uncounted and are
 * finished on their calling threads, and the next count starts another. Returns whether there was one.
 */
export function stopSearchWorker(): boolean {
  const current = shared;
  if (!current) return false;
  void current.worker.terminate();
  return true;
}
