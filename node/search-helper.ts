import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { toToolError, ToolError } from '../src/core/errors.js';
import type { FsDirent } from '../src/core/types.js';
import type { SearchHelper, SearchHelperAnswer, SearchHelperJob, SearchSource, SharedBatchKind, SharedCount, WalkDeeper, WalkIgnoreRules } from '../src/search/source-port.js';
import { compileSearchPattern, prepareSearchPattern, type SearchPattern } from '../src/search/dialect.js';
import { countText, countTextNow, FILE_BINARY, FILE_GONE, FILE_LARGE, FILE_NOT_REACHED, FILE_SKIPPED, needleOf, type SourceCache } from '../src/search/source-cache.js';
import { racyClockMemory } from '../src/fs/racy-clock.js';
import { skipKindOf } from '../src/search/walk-report.js';
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

/**
 * A listing session's claim words (see {@link ListingSession}): the cancel flag, the next free index
 * (both threads take indexes with `Atomics.add`), then one word per directory.
 */
export const LIST_CANCEL = 0;
export const LIST_NEXT = 1;
export const LIST_FIRST = 2;
/** A directory's claim word: open. */
export const LIST_OPEN = 0;
/** A directory's claim word: the calling thread lists it. */
export const LIST_CALLER = 1;
/** A directory's claim word: the helper is listing it. */
export const LIST_HELPER = 2;
/** A directory's claim word: the helper has posted its answer. */
export const LIST_DONE = 3;
/** Directories one listing session hands over, at most (later ones the calling thread lists itself). */
export const MAX_LISTED_AHEAD = 32_768;
/**
 * How long the calling thread waits for a directory the helper is listing before it lists it itself
 * and stops the session (ms): a listing takes microseconds, or milliseconds for a huge directory.
 */
const LIST_WAIT_MS = 50;

/**
 * A directory the helper listed ahead of the walk, as it answers on the listings port: the entries
 * as one string ({@link encodeEntries}: per entry its type, `f` file, `d` directory, `l` symbolic
 * link, `o` other, then its name, then NUL; names never hold NUL), undefined when it could not list it (the calling thread then
 * lists it itself and meets the error), and the directory's (inode, mtime, ctime) and the
 * `racyNow()` before it was read, for the calling thread's listing cache.
 */
export interface ListingAnswer {
  session: number;
  index: number;
  entries: string | undefined;
  /**
   * The subdirectories the helper goes on to list itself, by name: the first with index `first`, the
   * next `first + 1`, ...; undefined (and `first` -1) for none.
   */
  below: string[] | undefined;
  first: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  readAt: number;
}

/** A directory entry of a helper's answer (see {@link decodeEntries}). */
class ListedEntry implements FsDirent {
  constructor(
    readonly name: string,
    readonly type: number,
  ) {}

  isFile(): boolean {
    return this.type === 0x66; // f
  }

  isDirectory(): boolean {
    return this.type === 0x64; // d
  }

  isSymbolicLink(): boolean {
    return this.type === 0x6c; // l
  }
}

/**
 * `entries` as a {@link ListingAnswer} carries them: per entry its type (`f`, `d`, `l`, `o`), its name,
 * then `end` (NUL by default; any character no name holds, as `/`).
 */
export function encodeEntries(entries: readonly FsDirent[], end = '\0'): string {
  let encoded = '';
  for (const entry of entries) {
    const type = entry.isDirectory() ? 'd' : entry.isSymbolicLink() ? 'l' : entry.isFile() ? 'f' : 'o';
    encoded += `${type}${entry.name}${end}`;
  }
  return encoded;
}

/** The entries {@link encodeEntries} wrote with the same `end`. */
export function decodeEntries(encoded: string, endMark = '\0'): FsDirent[] {
  const entries: FsDirent[] = [];
  for (let at = 0; at < encoded.length; ) {
    const end = encoded.indexOf(endMark, at);
    entries.push(new ListedEntry(encoded.slice(at + 1, end), encoded.charCodeAt(at)));
    at = end + 1;
  }
  return entries;
}

/** Messages to the worker: a platform's root (`open`) or its end (`close`), a listing session's port, rules, folders and end (`listings`, `rules`, `list`, `unlist`), and a shared count's start, batches, end and cancel. */
export type WorkerMessage =
  | { type: 'open'; platform: number; root: string; cacheBytes: number }
  | { type: 'listings'; port: MessagePort }
  | { type: 'rules'; platform: number; session: number; id: number; dir: string; lines: readonly string[]; rank: number }
  | { type: 'list'; platform: number; session: number; claims: Int32Array; first: number; paths: string[]; deeper: 'all' | number[] | undefined }
  | { type: 'unlist'; platform: number; session: number }
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
 * when it is gone or not a regular file, -1 for the paths after the deadline came and for those whose
 * `lstat` failed for another reason (unreadable, too long: the calling thread takes it again and
 * reports the file under its own kind, never as gone).
 */
export function statPaths(source: SearchSource, paths: readonly string[], deadline: number): { stats: Float64Array; stopped: boolean } {
  const stats = new Float64Array(STAT_NUMBERS * paths.length).fill(-1);
  for (let i = 0; i < paths.length; i += 1) {
    if ((i & 15) === 0 && Date.now() >= deadline) return { stats, stopped: true };
    let stat;
    try {
      stat = source.stat(paths[i] as string);
    } catch {
      continue;
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

/**
 * The process's one helper thread, shared by every Node platform so its code stays compiled: the
 * worker, its counts out, and (once a walk first hands it directories) the port its listings come
 * back on with the listing sessions they belong to.
 */
interface HelperThread {
  worker: Worker;
  pending: Map<number, Pending>;
  listings?: { port: MessagePort; sessions: Map<number, ListingSession> };
  /** Takes the thread out of service: no new work goes to it, and what it had comes back undone. */
  lose(): void;
}
let shared: HelperThread | undefined;
let nextId = 1;

function sharedWorker(url: URL): HelperThread | undefined {
  if (shared) return shared;
  let worker: Worker;
  try {
    // A small heap, so V8 collects the decoded texts of its files sooner (it gets files of 16 MiB at most):
    // over the search bench's Node searches the process peaked at 407 MiB with the default heap, 350 MiB so.
    // The racy clock's memory: a test's pause of it holds on the helper thread too.
    worker = new Worker(url, { workerData: { racyClock: racyClockMemory() }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
  } catch {
    return undefined;
  }
  const pending = new Map<number, Pending>();
  /** The worker is gone (or going): its counts answer nothing (their callers count those batches), and the next platform starts another. */
  const lose = (): void => {
    if (shared === current) shared = undefined;
    for (const session of current.listings?.sessions.values() ?? []) session.cancel();
    const counts = [...pending.values()];
    pending.clear();
    for (const { resolve } of counts) resolve(answeredNothing(false));
  };
  const current: HelperThread = { worker, pending, lose };
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

/**
 * Directories of one walk listed ahead of it on the helper thread (see
 * {@link NodeSearchHelper.listAhead}), as in work stealing. The walk hands over the subdirectories it
 * will list (`post`) and goes on with the newest first; the helper takes the oldest handed over and,
 * unless a pruning glob decides where the walk goes, the directories below the ones it listed (deepest
 * first, as the walk would), applying the walk's `.gitignore` rules (sent once a session) and those it
 * meets; which ones it chose come with each answer, so a rule read differently on the two threads
 * costs a listing, never a wrong one. Each directory has a claim word in a
 * `SharedArrayBuffer`, set with `Atomics.compareExchange` by whichever thread lists it, so neither lists
 * one twice; `take` claims one for the calling thread or, when the helper was first, waits for its
 * answer (the helper posts it before it marks the word done).
 */
export class ListingSession {
  readonly id = nextId++;
  readonly #thread: HelperThread;
  readonly #port: MessagePort;
  readonly #sessions: Map<number, ListingSession>;
  readonly #platform: number;
  readonly #claims = new Int32Array(new SharedArrayBuffer(4 * (LIST_FIRST + MAX_LISTED_AHEAD)));
  /** Directories with an index (handed over, or to be listed by the helper below one it listed) not taken yet. */
  readonly #indexes = new Map<string, number>();
  /** The helper's answers that came before they were taken, by index. */
  readonly answers = new Map<number, ListingAnswer>();
  /** The ignore rules sent to the helper in this session, by the walk's object: their id there. */
  readonly #rules = new WeakMap<WalkIgnoreRules, number>();
  #nextRules = 0;
  #cancelled = false;

  constructor(thread: HelperThread, listings: { port: MessagePort; sessions: Map<number, ListingSession> }, platform: number) {
    this.#thread = thread;
    this.#port = listings.port;
    this.#sessions = listings.sessions;
    this.#platform = platform;
    this.#sessions.set(this.id, this);
  }

  /** Whether the helper has answered for `path` (listed it, or failed to), and it was not taken yet. */
  answered(path: string): boolean {
    const index = this.#indexes.get(path);
    return index !== undefined && Atomics.load(this.#claims, LIST_FIRST + index) === LIST_DONE;
  }

  /** Whether `path` has an index here (handed over or to be listed by the helper) and was not taken yet. */
  has(path: string): boolean {
    return this.#indexes.has(path);
  }

  /**
   * Hands `paths` to the helper, below which the walk goes on `deeper`. False (and the session ends)
   * once it cannot take them: the session was cancelled, the helper has a count to do (counts come
   * first) or is gone, or {@link MAX_LISTED_AHEAD} directories have indexes.
   */
  post(paths: readonly string[], deeper: WalkDeeper | undefined): boolean {
    if (this.#cancelled) return false;
    const thread = this.#thread;
    if (shared !== thread || thread.pending.size > 0) {
      this.cancel();
      return false;
    }
    const first = Atomics.add(this.#claims, LIST_NEXT, paths.length);
    if (first + paths.length > MAX_LISTED_AHEAD) {
      this.cancel();
      return false;
    }
    for (let k = 0; k < paths.length; k += 1) this.#indexes.set(paths[k] as string, first + k);
    thread.worker.postMessage({ type: 'list', platform: this.#platform, session: this.id, claims: this.#claims, first, paths: paths as string[], deeper: this.#sent(deeper) } satisfies WorkerMessage);
    return true;
  }

  /** `deeper` as the helper gets it: each level of rules sent once a session, then named by its id. */
  #sent(deeper: WalkDeeper | undefined): 'all' | number[] | undefined {
    if (deeper === undefined || deeper === 'all') return deeper;
    const ids: number[] = [];
    for (const level of deeper) {
      let id = this.#rules.get(level);
      if (id === undefined) {
        id = this.#nextRules++;
        this.#rules.set(level, id);
        this.#thread.worker.postMessage({ type: 'rules', platform: this.#platform, session: this.id, id, dir: level.dir, lines: level.lines, rank: level.rank ?? 0 } satisfies WorkerMessage);
      }
      ids.push(id);
    }
    return ids;
  }

  /**
   * The helper's listing of `path`, or undefined for the calling thread to list it itself: it has no
   * index, the calling thread claimed it first, or the helper could not list it (or took longer than
   * {@link LIST_WAIT_MS}, which ends the session). Give the entries of an answer to `below`.
   */
  take(path: string): ListingAnswer | undefined {
    const index = this.#indexes.get(path);
    if (index === undefined) return undefined;
    this.#indexes.delete(path);
    const claims = this.#claims;
    const word = LIST_FIRST + index;
    if (Atomics.compareExchange(claims, word, LIST_OPEN, LIST_CALLER) === LIST_OPEN) return undefined;
    for (;;) {
      // The helper posts its answer before it marks the word done: read once done, it is on the port.
      const state = Atomics.load(claims, word);
      receiveListings(this.#port, this.#sessions);
      const answer = this.answers.get(index);
      if (answer !== undefined) {
        this.answers.delete(index);
        return answer.entries === undefined ? undefined : answer;
      }
      if (state === LIST_DONE || this.#cancelled) return undefined;
      if (Atomics.wait(claims, word, LIST_HELPER, LIST_WAIT_MS) === 'timed-out') {
        this.cancel();
        return undefined;
      }
    }
  }

  /** Takes note of the directories the helper goes on to list below `path` (from its answer for `path`). */
  below(path: string, answer: ListingAnswer): void {
    const names = answer.below;
    if (names === undefined || answer.first < 0 || this.#cancelled) return;
    const prefix = path === '/' ? '/' : `${path}/`;
    for (let k = 0; k < names.length; k += 1) this.#indexes.set(prefix + (names[k] as string), answer.first + k);
  }

  /** Ends the session: the helper lists nothing more of it, and its answers are dropped. */
  cancel(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    Atomics.store(this.#claims, LIST_CANCEL, 1);
    this.#sessions.delete(this.id);
    this.#indexes.clear();
    this.answers.clear();
    // Its answers not taken are read off the port now (and dropped), not left queued until another walk reads it.
    receiveListings(this.#port, this.#sessions);
    // The helper drops the session (its paths and compiled rules) now, not when it next lists for this platform.
    this.#thread.worker.postMessage({ type: 'unlist', platform: this.#platform, session: this.id } satisfies WorkerMessage);
  }
}

/** Moves the listings waiting on `port` to their sessions (those of ended sessions are dropped). */
function receiveListings(port: MessagePort, sessions: Map<number, ListingSession>): void {
  for (let received = receiveMessageOnPort(port); received !== undefined; received = receiveMessageOnPort(port)) {
    const answer = received.message as ListingAnswer;
    sessions.get(answer.session)?.answers.set(answer.index, answer);
  }
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

  constructor(current: HelperThread, platform: number, job: SearchHelperJob, signal: AbortSignal | undefined, owned: Set<string>) {
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

/** The Node search source's helper (see {@link startSearchHelper}). */
export interface NodeSearchHelper extends SearchHelper {
  /**
   * A session for the walk starting now to hand its directories to the helper thread, to be listed
   * there ahead of it (see {@link ListingSession}); it ends the previous one. Undefined unless the
   * thread is already running and has no count to do.
   */
  listAhead(): ListingSession | undefined;
  /** Ends this platform's use of the thread (the thread drops its descriptors and cache of the root). */
  close(): void;
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
 * its batches come back uncounted and the calling thread counts them. While the worker runs and has
 * no count, a walk may hand it directories to list ahead (`listAhead`, {@link ListingSession}); it
 * never starts the worker for that. Undefined where the built worker module is missing (running from
 * TypeScript sources).
 */
export function startSearchHelper(root: string, cacheBytes: number): NodeSearchHelper | undefined {
  const url = new URL('./search-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url))) return undefined;
  const platform = nextId++;
  let opened: Worker | undefined;
  /** Files the worker's cache holds for this platform (it counted them). */
  const owned = new Set<string>();
  /** The last listing session started (a count ends it: counts come first). */
  let listing: ListingSession | undefined;
  /** The helper thread, started when `start` (else only if it runs), with this platform's root opened there. */
  const open = (start: boolean): HelperThread | undefined => {
    const current = start ? sharedWorker(url) : shared;
    if (current && opened !== current.worker) {
      // A new worker: nothing of this platform is cached there yet.
      owned.clear();
      current.worker.postMessage({ type: 'open', platform, root, cacheBytes } satisfies WorkerMessage);
      opened = current.worker;
    }
    return current;
  };
  const helper: NodeSearchHelper = {
    owns: (path) => owned.has(path),
    sharedFiles: (holds) => new SharedFiles(helper, holds),
    countShared,
    share(job: SearchHelperJob, signal: AbortSignal | undefined): SharedCount {
      listing?.cancel();
      listing = undefined;
      const current = open(true);
      // Counts come first, whichever platform's: the thread lists ahead in one go until a session ends.
      for (const session of [...(current?.listings?.sessions.values() ?? [])]) session.cancel();
      return current ? new HelperCount(current, platform, job, signal, owned) : new CountAlone();
    },
    listAhead(): ListingSession | undefined {
      listing?.cancel();
      listing = undefined;
      const current = open(false);
      // Only a thread already running and idle: starting one costs more than a walk's listings.
      if (!current || current.pending.size > 0) return undefined;
      if (!current.listings) {
        const { port1, port2 } = new MessageChannel();
        // Read only with receiveMessageOnPort, never by a listener: it must not keep the process alive.
        port1.unref();
        current.worker.postMessage({ type: 'listings', port: port2 } satisfies WorkerMessage, [port2]);
        current.listings = { port: port1, sessions: new Map() };
      }
      listing = new ListingSession(current, current.listings, platform);
      return listing;
    },
    close(): void {
      listing?.cancel();
      listing = undefined;
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
 * finished on their calling threads, and the next count starts another (at once: the stopped thread,
 * whose exit comes later, is given nothing more). Returns whether there was one.
 */
export function stopSearchWorker(): boolean {
  const current = shared;
  if (!current) return false;
  current.lose();
  void current.worker.terminate();
  return true;
}
