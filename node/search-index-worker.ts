// The thread that builds a Node workspace's search index (see `buildSearchIndexOffThread` in
// search-index-store.ts): it walks and reads the root through a confined fs and search source of its
// own, as the platform's build would, posts the index's parts back (their buffers moved, not copied),
// then saves the index under the cache directory, so the main thread only wraps the parts. Given
// `splitFiles`, a tree of that many files or more is split in two: this thread builds the first half
// of the files while a second thread (this module again, given `part`) builds the second, and the two
// parts' postings are merged into what one thread would have built. Off by default: on two busy
// cores the split build took more CPU and more time than one thread, and more memory.
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { Platform } from '../src/core/types.js';
import type { IndexParts, IndexPart, BuildAlongside } from '../src/search/index/search-index.js';
import { joinIndexParts } from '../src/search/index/search-index.js';
import { IndexOverBudget, type BudgetPassed, type SearchIndexBudget } from '../src/search/index/budget.js';
import { serializeIndexChunks } from '../src/search/index/format.js';
import { buildIndexPart, buildWorkspaceIndex, checkBuiltSize, workspaceFilePaths } from '../src/search/index/workspace.js';
import { createConfinedNodeFs } from './fs/confined.js';
import { createNodeSearchSource } from './search-fs.js';
import { createSearchEngine } from '../src/search/engine.js';
import { writeSearchIndexFile, type IndexWorkerData, type IndexWorkerMessage } from './search-index-store.js';

/** Pending pairs per part's posting builder when split: half the default, so two hold what one did. */
const PART_BATCH_PAIRS = 1 << 21;

/** What the thread building the second part is given. */
interface PartData {
  part: {
    root: string;
    paths: string[];
    firstId: number;
    total: number;
    budget?: SearchIndexBudget;
    confinement?: IndexWorkerData['confinement'];
    /** Four numbers both threads see: the first part's index and build bytes, then the second's. */
    counts: SharedArrayBuffer;
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
  // No helper thread (a build counts nothing) and no file cache (it reads each file once).
  const searchSource = process.platform === 'linux' ? createNodeSearchSource(root, { helper: false, cacheBytes: 0 }) : undefined;
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

/** Builds the second part on this thread and posts it (or why not). */
async function buildSecondPart(data: PartData['part'], port: NonNullable<typeof parentPort>): Promise<void> {
  let close: (() => void) | undefined;
  try {
    const made = buildPlatform(data.root, data.confinement);
    close = made.close;
    const platform = made.platform;
    const part = await buildIndexPart(platform, { paths: data.paths, firstId: data.firstId, total: data.total, batchPairs: PART_BATCH_PAIRS, alongside: alongsideOf(data.counts, 1), ...(data.budget ? { budget: data.budget } : {}) });
    port.postMessage({ type: 'part', part } satisfies PartMessage, buffersOf(part));
  } catch (error) {
    if (error instanceof IndexOverBudget) port.postMessage({ type: 'over', passed: error.passed } satisfies PartMessage);
    else port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies PartMessage);
  } finally {
    close?.();
  }
}

/**
 * The index of `paths` built in two parts: the second half on a thread of its own, the first here,
 * their budgets counted together; a part that fails or passes the budget ends the other.
 */
async function buildSplit(data: IndexWorkerData, platform: Platform, paths: string[]): Promise<ReturnType<typeof joinIndexParts>> {
  const half = Math.ceil(paths.length / 2);
  const counts = new SharedArrayBuffer(4 * Float64Array.BYTES_PER_ELEMENT);
  const partData: PartData = { part: { root: data.root, paths: paths.slice(half), firstId: half, total: paths.length, counts, ...(data.budget ? { budget: data.budget } : {}), ...(data.confinement === undefined ? {} : { confinement: data.confinement }) } };
  const stop = new AbortController();
  const worker = new Worker(new URL(import.meta.url), { workerData: partData });
  const second = new Promise<IndexPart>((resolve, reject) => {
    worker.once('message', (message: PartMessage) => {
      if (message.type === 'part') resolve(message.part);
      else reject(message.type === 'over' ? new IndexOverBudget(message.passed) : new Error(message.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the index build's second thread exited (code ${code}) before it reported`)));
  });
  // The first failure ends the other part: a failed second part stops this one's reads.
  second.catch(() => stop.abort());
  try {
    const first = await buildIndexPart(platform, { paths: paths.slice(0, half), firstId: 0, total: paths.length, batchPairs: PART_BATCH_PAIRS, alongside: alongsideOf(counts, 0), signal: stop.signal, ...(data.budget ? { budget: data.budget } : {}) }).catch(async (error: unknown) => {
      // The second part's own failure, when it ended this one.
      if (stop.signal.aborted) await second;
      throw error;
    });
    const index = joinIndexParts(first, await second);
    if (data.budget) checkBuiltSize(index, data.root, data.budget);
    return index;
  } finally {
    void worker.terminate();
  }
}

async function main(data: IndexWorkerData, port: NonNullable<typeof parentPort>): Promise<void> {
  let close: (() => void) | undefined;
  let built = false;
  try {
    const made = buildPlatform(data.root, data.confinement);
    close = made.close;
    const platform = made.platform;
    const paths = await workspaceFilePaths(platform);
    const index = data.splitFiles !== undefined && paths.length >= data.splitFiles ? await buildSplit(data, platform, paths) : await buildWorkspaceIndex(platform, { paths, ...(data.budget ? { budget: data.budget } : {}) });
    // Written before the parts' buffers move to the main thread: the file's posting lists are the
    // index's own bytes (no copy of the largest part at the build's peak), which the move detaches.
    let saveError: { error: unknown } | undefined;
    try {
      await writeSearchIndexFile(data.root, serializeIndexChunks(index, data.root), data.cacheDir);
    } catch (error) {
      saveError = { error };
    }
    const parts = index.parts();
    port.postMessage({ type: 'parts', parts } satisfies IndexWorkerMessage, buffersOf(parts));
    built = true;
    if (saveError) throw saveError.error;
    port.postMessage({ type: 'saved' } satisfies IndexWorkerMessage);
  } catch (error) {
    if (error instanceof IndexOverBudget) {
      port.postMessage({ type: 'over', passed: error.passed } satisfies IndexWorkerMessage);
      return;
    }
    port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error), built } satisfies IndexWorkerMessage);
  } finally {
    close?.();
  }
}

if (parentPort) {
  const data = workerData as IndexWorkerData | PartData;
  if ('part' in data) await buildSecondPart(data.part, parentPort);
  else await main(data, parentPort);
}
