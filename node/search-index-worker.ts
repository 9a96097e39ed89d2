// The thread that builds a Node workspace's search index (see `buildSearchIndexOffThread` in
// search-index-store.ts): it walks and reads the root through a confined fs and search source of its
// own, as the platform's build would, posts the index's parts back (their buffers moved, not copied),
// then saves the index under the cache directory, so the main thread only wraps the parts. A tree of
// `splitFiles` files or more (by default SPLIT_FILES, where two cores or more are there) is split in
// two: a second thread (this module again, given `part`, started while a long walk runs) builds the
// first files, sent to it as the walk lists them once the tree is known to be that large, so it reads
// while this thread walks; when the walk ends, the files it has not claimed yet are split in two and
// this thread builds the last ones. The two parts' postings are merged into what one thread would
// have built, byte for byte.
import { availableParallelism } from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { Platform } from '../src/core/types.js';
import type { WalkFile } from '../src/search/walk.js';
import type { IndexParts, IndexPart, BuildAlongside } from '../src/search/index/search-index.js';
import { joinIndexParts, type SearchIndex } from '../src/search/index/search-index.js';
import type { MergeProgress } from '../src/search/index/postings.js';
import { IndexOverBudget, type BudgetPassed, type SearchIndexBudget } from '../src/search/index/budget.js';
import { serializedPostingsAt, serializeIndexChunks } from '../src/search/index/format.js';
import { buildIndexPart, buildWorkspaceIndex, checkBuiltSize, workspaceFilePaths } from '../src/search/index/workspace.js';
import { createConfinedNodeFs } from './fs/confined.js';
import { createNodeSearchSource } from './search-fs.js';
import { createSearchEngine } from '../src/search/engine.js';
import { IndexFileWriter, type IndexWorkerData, type IndexWorkerMessage } from './search-index-store.js';
import { FINAL, SentPaths, splitPoint, type PartControl } from './search-index-split.js';

/** Pending pairs per part's posting builder when split: half the default, so two hold what one did. */
const PART_BATCH_PAIRS = 1 << 19;

/**
 * Files from which a build is split between two threads by default (where there are two cores or
 * more): below it the build is short, and a thread's start and the merge cost about what the split
 * saves (more on a busy machine, where the second core is not free).
 */
export const SPLIT_FILES = 16_384;

/**
 * How long the walk may run before the second thread is started ahead of its end (a walk still
 * running by then lists a large tree; a small one is walked before, and no thread is started for it).
 */
const SPLIT_START_MS = 30;

/** Bytes of joined posting lists written to the index file at once while the merge makes them. */
const STREAM_BYTES = 4 * 1024 * 1024;

/** Files the walk lists before they are sent to the second thread (one message each so many). */
const SEND_FILES = 1024;

/** What the second thread is given when it starts (its files come later: see {@link PartControl}). */
interface PartData {
  part: {
    root: string;
    budget?: SearchIndexBudget;
    confinement?: IndexWorkerData['confinement'];
    /** Four numbers both threads see: this thread's part's index and build bytes, then the second thread's. */
    counts: SharedArrayBuffer;
    /** One word both threads see: the files the second thread claimed so far, or {@link FINAL} plus its part's files. */
    claim: SharedArrayBuffer;
    failsForTests?: IndexWorkerData['secondPartFailsForTests'];
  };
}

/** What the second part's thread posts. */
type PartMessage = { type: 'part'; part: IndexPart } | { type: 'over'; passed: BudgetPassed } | { type: 'error'; message: string };

/** The buffers of `parts`, each once (a buffer listed twice cannot be moved). */
function buffersOf(parts: Pick<IndexParts, 'stats' | 'flags' | 'postings'> & { last?: Int32Array }): ArrayBuffer[] {
  const views = [parts.stats, parts.flags, parts.postings.keys, parts.postings.offsets, parts.postings.bytes, ...(parts.last ? [parts.last] : [])];
  return [...new Set(views.map((view) => view.buffer as ArrayBuffer))];
}

/** A platform with only what a build reads: the root, a confined fs and (on Linux) a search source. */
function buildPlatform(root: string, confinement: IndexWorkerData['confinement']): { platform: Platform; close(): void } {
  // No helper thread (a build counts nothing), no file cache (it reads each file once) and no listings
  // kept (it walks once).
  const searchSource = process.platform === 'linux' ? createNodeSearchSource(root, { helper: false, cacheBytes: 0, keepListings: false }) : undefined;
  const platform = { name: 'node', root, fs: createConfinedNodeFs(root, { mode: confinement }), ...(searchSource ? { search: createSearchEngine({ source: searchSource }) } : {}) } as unknown as Platform;
  return { platform, close: () => searchSource?.close?.() };
}

/** The budget counts shared by the two parts' threads: `mine` is this part's slot (0 or 1). */
function alongsideOf(counts: SharedArrayBuffer, mine: number): BuildAlongside {
  const view = new Float64Array(counts);
  const other = 1 - mine;
  return {
    others: () => ({ index: view[other * 2] as number, build: view[other * 2 + 1] as number }),
    report(index, build) {
      view[mine * 2] = index;
      view[mine * 2 + 1] = build;
    },
  };
}

/**
 * Builds the second thread's part once its first files are sent (nothing is opened before), reading
 * each as it comes, and posts it, or why not; a `stop` ends it at its next turn of the event loop. Its
 * search source is closed before it posts, so the thread has nothing open once it has answered.
 */
async function buildSecondPart(data: PartData['part'], port: NonNullable<typeof parentPort>): Promise<void> {
  const first = await new Promise<PartControl>((resolve) => port.once('message', resolve));
  if (first.type === 'stop') return;
  const stop = new AbortController();
  const sent = new SentPaths(new Int32Array(data.claim));
  sent.take(first);
  const onMessage = (message: PartControl): void => {
    if (message.type === 'stop') stop.abort();
    sent.take(message);
  };
  port.on('message', onMessage);
  let message: PartMessage;
  let transfer: ArrayBuffer[] = [];
  let close: (() => void) | undefined;
  try {
    if (data.failsForTests === 'exit') process.exit(3);
    if (data.failsForTests === 'throw') throw new Error('the second part failed (a test asked it to)');
    const made = buildPlatform(data.root, data.confinement);
    close = made.close;
    const part = await buildIndexPart(made.platform, { paths: sent.next, firstId: 0, total: () => sent.total, batchPairs: PART_BATCH_PAIRS, alongside: alongsideOf(data.counts, 1), signal: stop.signal, ...(data.budget ? { budget: data.budget } : {}) });
    message = { type: 'part', part };
    transfer = buffersOf(part);
  } catch (error) {
    message = error instanceof IndexOverBudget ? { type: 'over', passed: error.passed } : { type: 'error', message: error instanceof Error ? error.message : String(error) };
  } finally {
    close?.();
    port.off('message', onMessage);
  }
  port.postMessage(message, transfer);
}

/** The second thread of a split build, started ahead of the walk's end (see {@link buildSplit}). */
interface SecondThread {
  worker: Worker;
  counts: SharedArrayBuffer;
  claim: Int32Array;
  /** The part it built, or why not (an `IndexOverBudget`, or its error). */
  part: Promise<IndexPart>;
  /** Sends it the files of `paths` it was not sent yet, up to `end` (see {@link PartControl}). */
  send(paths: ReadonlyArray<string | Pick<WalkFile, 'path'>>, end: number): void;
  /** Files sent so far. */
  readonly sent: number;
  /** Tells it to stop (it closes what it opened and exits; nothing when it is done already). */
  stop(): void;
}

/** Starts the thread of a split build's second part (it waits for its files); undefined when no thread can start (the build takes one). */
function startSecondThread(data: IndexWorkerData): SecondThread | undefined {
  const counts = new SharedArrayBuffer(4 * Float64Array.BYTES_PER_ELEMENT);
  const claim = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const partData: PartData = {
    part: {
      root: data.root,
      counts,
      claim,
      ...(data.budget ? { budget: data.budget } : {}),
      ...(data.confinement === undefined ? {} : { confinement: data.confinement }),
      ...(data.secondPartFailsForTests === undefined ? {} : { failsForTests: data.secondPartFailsForTests }),
    },
  };
  let worker: Worker;
  try {
    worker = new Worker(new URL(import.meta.url), { workerData: partData });
  } catch {
    return undefined;
  }
  const part = new Promise<IndexPart>((resolve, reject) => {
    worker.once('message', (message: PartMessage) => {
      if (message.type === 'part') resolve(message.part);
      else reject(message.type === 'over' ? new IndexOverBudget(message.passed) : new Error(message.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the index build's second thread exited (code ${code}) before it reported`)));
  });
  // Handled where it is awaited; a thread let go unused must not leave an unhandled rejection.
  part.catch(() => undefined);
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    worker.postMessage({ type: 'stop' } satisfies PartControl);
  };
  let sent = 0;
  const send = (paths: ReadonlyArray<string | Pick<WalkFile, 'path'>>, end: number): void => {
    if (end <= sent) return;
    const batch: string[] = [];
    for (let i = sent; i < end; i += 1) {
      const path = paths[i] as string | Pick<WalkFile, 'path'>;
      batch.push(typeof path === 'string' ? path : path.path);
    }
    sent = end;
    worker.postMessage({ type: 'paths', paths: batch } satisfies PartControl);
  };
  return {
    worker,
    counts,
    claim: new Int32Array(claim),
    part,
    send,
    get sent() {
      return sent;
    },
    stop,
  };
}

/**
 * The index of `paths` built in two parts: the first files on `second`'s thread (those it claimed
 * while the walk ran, and half of the rest), the others here, their budgets counted together; a part
 * that passes the budget ends the other, as does a failure here. When the second thread fails
 * otherwise (it crashed, or could not read), this thread builds its files too.
 */
async function buildSplit(data: IndexWorkerData, platform: Platform, paths: string[], second: SecondThread): Promise<BuiltIndex> {
  const split = splitPoint(second.claim, paths.length);
  second.send(paths, split);
  second.worker.postMessage({ type: 'end', total: paths.length } satisfies PartControl);
  const stop = new AbortController();
  // The second thread's part past the budget stops this one's reads.
  second.part.catch((error: unknown) => {
    if (error instanceof IndexOverBudget) stop.abort();
  });
  const budget = data.budget ? { budget: data.budget } : {};
  const last = await buildIndexPart(platform, { paths: paths.slice(split), firstId: split, total: paths.length, batchPairs: PART_BATCH_PAIRS, alongside: alongsideOf(second.counts, 0), signal: stop.signal, ...budget }).catch(async (error: unknown) => {
    // The second thread's own stop, when it ended this one.
    if (stop.signal.aborted) await second.part;
    throw error;
  });
  const first = await second.part.catch((error: unknown) => {
    if (error instanceof IndexOverBudget) throw error;
    // Counted with this part's last figures, still in the shared counts.
    return buildIndexPart(platform, { paths: paths.slice(0, split), firstId: 0, total: paths.length, batchPairs: PART_BATCH_PAIRS, alongside: alongsideOf(second.counts, 1), ...budget });
  });
  // The file is written while the parts' lists are joined (the paths, in id order, say where they go).
  const writer = new IndexFileWriter(data.root, data.cacheDir);
  const stream = postingsStream(writer, data.root, first.paths.concat(last.paths));
  try {
    const index = joinIndexParts(first, last, undefined, stream);
    if (data.budget) checkBuiltSize(index, data.root, data.budget);
    return { index, saving: { writer, stream } };
  } catch (error) {
    await writer.abandon();
    throw error;
  }
}

/** A {@link MergeProgress} that writes the joined lists at their place in the index file as they are made. */
interface PostingsStream extends MergeProgress {
  /** Where the lists start in the file. */
  at: number;
  /** Bytes of the lists written so far. */
  written: number;
}

/** A {@link PostingsStream} into `writer` for an index of `paths` (in id order) for `root`. */
function postingsStream(writer: IndexFileWriter, root: string, paths: readonly string[]): PostingsStream {
  const stream: PostingsStream = {
    every: STREAM_BYTES,
    at: 0,
    written: 0,
    sized(keys, bytes) {
      stream.at = serializedPostingsAt(root, paths, keys, bytes);
    },
    made(bytes, end) {
      if (end <= stream.written) return;
      writer.at(bytes.subarray(stream.written, end), stream.at + stream.written);
      stream.written = end;
    },
  };
  return stream;
}

/** An index built, and the file it is being written to when its lists were written as they were joined. */
interface BuiltIndex {
  index: SearchIndex;
  saving?: { writer: IndexFileWriter; stream: PostingsStream };
}

/** Writes `built`'s index file: the lists written while they were joined are not written again. */
async function saveIndexFile(data: IndexWorkerData, built: BuiltIndex): Promise<void> {
  const writer = built.saving?.writer ?? new IndexFileWriter(data.root, data.cacheDir);
  let chunks: [Uint8Array, Uint8Array];
  try {
    chunks = serializeIndexChunks(built.index, data.root);
  } catch (error) {
    await writer.abandon();
    throw error;
  }
  const [tables, postings] = chunks;
  const stream = built.saving?.stream;
  // Lists written where the tables end are kept (else, which their sizes rule out, all are written again).
  await writer.finish(tables, postings, stream && stream.at === tables.length ? stream.written : 0);
}

/** Files from which this build is split (see {@link SPLIT_FILES}; `splitFiles` 0 or less: never). */
function splitFrom(data: IndexWorkerData): number {
  if (data.splitFiles !== undefined) return data.splitFiles > 0 ? data.splitFiles : Infinity;
  return availableParallelism() >= 2 ? SPLIT_FILES : Infinity;
}

async function main(data: IndexWorkerData, port: NonNullable<typeof parentPort>): Promise<void> {
  let close: (() => void) | undefined;
  let posted = false;
  const splitFiles = splitFrom(data);
  let second: SecondThread | undefined;
  // Started once the walk has run a while, so its start overlaps the rest of the walk (the walk turns
  // the event loop every so often); let go when the tree turns out small.
  const early = splitFiles < Infinity ? setTimeout(() => (second = startSecondThread(data)), SPLIT_START_MS) : undefined;
  try {
    const made = buildPlatform(data.root, data.confinement);
    close = made.close;
    const platform = made.platform;
    // Once the walk has listed enough files to split the build, the second thread is sent them as they come.
    const onFiles = (files: readonly WalkFile[]): void => {
      if (second && files.length >= splitFiles && files.length - second.sent >= SEND_FILES) second.send(files, files.length);
    };
    const paths = await workspaceFilePaths(platform, undefined, splitFiles < Infinity ? onFiles : undefined);
    clearTimeout(early);
    if (paths.length >= splitFiles) second ??= startSecondThread(data);
    else if (second) {
      second.stop();
      second = undefined;
    }
    const built = second ? await buildSplit(data, platform, paths, second) : { index: await buildWorkspaceIndex(platform, { paths, ...(data.budget ? { budget: data.budget } : {}) }) };
    // Written before the parts' buffers move to the main thread: the file's posting lists are the
    // index's own bytes (no copy of the largest part at the build's peak), which the move detaches.
    let saveError: { error: unknown } | undefined;
    try {
      await saveIndexFile(data, built);
    } catch (error) {
      saveError = { error };
    }
    const parts = built.index.parts();
    port.postMessage({ type: 'parts', parts } satisfies IndexWorkerMessage, buffersOf(parts));
    posted = true;
    if (saveError) throw saveError.error;
    port.postMessage({ type: 'saved' } satisfies IndexWorkerMessage);
  } catch (error) {
    if (error instanceof IndexOverBudget) {
      port.postMessage({ type: 'over', passed: error.passed } satisfies IndexWorkerMessage);
      return;
    }
    // What to do about a save that failed (see `saveAdvice`) goes along with its message.
    const advice = (error as { advice?: unknown } | null)?.advice;
    port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error), built: posted, ...(typeof advice === 'string' ? { advice } : {}) } satisfies IndexWorkerMessage);
  } finally {
    clearTimeout(early);
    second?.stop();
    close?.();
  }
}

if (parentPort) {
  const data = workerData as IndexWorkerData | PartData;
  if ('part' in data) await buildSecondPart(data.part, parentPort);
  else await main(data, parentPort);
}
