import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { toToolError, ToolError } from '../src/core/errors.js';
import type { SearchHelper, SearchHelperAnswer, SearchHelperJob, SearchSource } from '../src/core/types.js';
import { compileSearchPattern, prepareSearchPattern } from '../src/search/dialect.js';
import { countText, FILE_BINARY, FILE_GONE, FILE_LARGE, FILE_NOT_REACHED, needleOf, type SourceCache } from '../src/search/source-cache.js';

/** A job as the worker gets it: the count, and a shared flag set to 1 to stop it. */
export interface WorkerJob extends SearchHelperJob {
  type: 'count';
  /** The platform whose root and cache it uses. */
  platform: number;
  id: number;
  cancel: Int32Array;
}

/** A platform's root for the worker (`open`), or the end of it (`close`: its cache is dropped). */
export type WorkerPlatformMessage = { type: 'open'; platform: number; root: string; cacheBytes: number } | { type: 'close'; platform: number };

/** Stops a count whose flag was set (the worker's answer is then dropped). */
class Cancelled extends Error {}

/**
 * Counts `job` over `cache` (the loop a helper runs, on its own thread or, when that thread is gone,
 * on the caller's): per path the same steps as the search tools' own count.
 */
export async function countJob(cache: SourceCache, job: SearchHelperJob, cancelled: () => boolean): Promise<SearchHelperAnswer> {
  const pattern = await prepareSearchPattern(compileSearchPattern(job.pattern, { literal: job.literal, caseSensitive: job.caseSensitive }));
  const needle = needleOf(pattern);
  const codes = new Int32Array(job.paths.length).fill(FILE_NOT_REACHED);
  const pause = async (): Promise<void> => {
    if (cancelled()) throw new Cancelled();
  };
  for (let i = 0; i < job.paths.length; i += 1) {
    if (cancelled()) throw new Cancelled();
    if (Date.now() >= job.deadline) return { codes, stopped: true };
    const file = cache.load(job.paths[i] as string, job.limit);
    if (file === undefined) codes[i] = FILE_GONE;
    else if (file === 'large') codes[i] = FILE_LARGE;
    else if (!file.bytes) codes[i] = FILE_BINARY;
    else {
      const counted = await countText(cache, file, pattern, needle, job.deadline, pause);
      codes[i] = counted.count;
      if (counted.stopped) return { codes, stopped: true };
    }
  }
  return { codes, stopped: false };
}

/** FNV-1a of the path's code units: which thread owns a file, the same in every search. */
function ownedByHelper(path: string): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i += 1) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return (hash & 0x100) !== 0;
}

interface Pending {
  resolve: (answer: SearchHelperAnswer) => void;
  reject: (error: unknown) => void;
  job: SearchHelperJob;
  fallback: () => SourceCache;
}

/** How long past a job's deadline its answer is waited for before its files count as not reached (ms). */
const LATE_MS = 100;
/** Old-generation heap of the helper thread, in MiB. */
const WORKER_HEAP_MB = 96;

/** The process's one helper thread, shared by every Node platform so its code stays compiled. */
let shared: { worker: Worker; pending: Map<number, Pending> } | undefined;
let nextId = 1;

function sharedWorker(url: URL): { worker: Worker; pending: Map<number, Pending> } | undefined {
  if (shared) return shared;
  let worker: Worker;
  try {
    // A small heap, so V8 collects the decoded texts of its files sooner (it gets files of 16 MiB at most):
    // over the search bench's Node searches the process peaked at 407 MiB with the default heap, 350 MiB so.
    worker = new Worker(url, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 8 } });
  } catch {
    return undefined;
  }
  const pending = new Map<number, Pending>();
  const current = { worker, pending };
  /** The worker is gone: its jobs are counted on this thread instead, and the next platform starts another. */
  const lose = (): void => {
    if (shared === current) shared = undefined;
    const jobs = [...pending.values()];
    pending.clear();
    for (const { resolve, reject, job, fallback } of jobs) countJob(fallback(), job, () => false).then(resolve, reject);
  };
  worker.on('message', (message: { id: number; codes?: Int32Array; stopped?: boolean; error?: { code: string; message: string } }) => {
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    if (message.error) entry.reject(new ToolError(message.error.code as ToolError['code'], message.error.message));
    else entry.resolve({ codes: message.codes as Int32Array, stopped: message.stopped === true });
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

/**
 * The search helper of a Node search source over `root` (see {@link SearchHelper}): its share of each
 * large count goes to the process's one `worker_threads` Worker (started by the first such count,
 * so a process that never counts a large tree starts no thread; unreferenced while idle so it never
 * keeps the process alive; kept for the next platforms so its code stays compiled), which reads this root through its own descriptors into a cache of its own of `cacheBytes`
 * (half the platform's budget), dropped by `close`. When the worker cannot start or dies, jobs run on
 * the calling thread over `fallback`'s cache. Undefined where the built worker module is missing
 * (running from TypeScript sources).
 */
export function startSearchHelper(root: string, cacheBytes: number, fallback: () => SourceCache): (SearchHelper & { close(): void }) | undefined {
  const url = new URL('./search-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url))) return undefined;
  const platform = nextId++;
  let opened: Worker | undefined;
  const open = (): { worker: Worker; pending: Map<number, Pending> } | undefined => {
    const current = sharedWorker(url);
    if (current && opened !== current.worker) {
      current.worker.postMessage({ type: 'open', platform, root, cacheBytes });
      opened = current.worker;
    }
    return current;
  };
  return {
    owns: ownedByHelper,
    count(job: SearchHelperJob, signal: AbortSignal | undefined): Promise<SearchHelperAnswer> {
      const current = open();
      if (!current) {
        return countJob(fallback(), job, () => signal?.aborted === true).catch((error: unknown) => Promise.reject(error instanceof Cancelled ? abortError(signal) : error));
      }
      return new Promise<SearchHelperAnswer>((resolve, reject) => {
        const id = nextId++;
        const cancel = new Int32Array(new SharedArrayBuffer(4));
        /** Referenced while a count is out, so a process awaiting it does not exit meanwhile. */
        const forget = (): void => {
          current.pending.delete(id);
          if (current.pending.size === 0) current.worker.unref();
        };
        // The worker stops at the deadline itself; this covers a job still queued behind another
        // platform's count then: its files are answered as not reached.
        const late = setTimeout(() => {
          Atomics.store(cancel, 0, 1);
          settle(resolve)({ codes: new Int32Array(job.paths.length).fill(FILE_NOT_REACHED), stopped: true });
        }, Math.max(0, job.deadline - Date.now()) + LATE_MS);
        const onAbort = (): void => {
          clearTimeout(late);
          Atomics.store(cancel, 0, 1);
          forget();
          reject(abortError(signal));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        const settle = <T>(fn: (value: T) => void) => (value: T): void => {
          clearTimeout(late);
          signal?.removeEventListener('abort', onAbort);
          forget();
          fn(value);
        };
        current.worker.ref();
        current.pending.set(id, { resolve: settle(resolve), reject: settle(reject), job, fallback });
        const message: WorkerJob = { ...job, type: 'count', platform, id, cancel };
        current.worker.postMessage(message);
      });
    },
    close(): void {
      if (opened && shared?.worker === opened) opened.postMessage({ type: 'close', platform });
      opened = undefined;
    },
  };
}

/**
 * Stops the process's search helper thread, if one runs: counts it had are finished on the calling
 * thread, and the next count starts another. Returns whether there was one.
 */
export function stopSearchWorker(): boolean {
  const current = shared;
  if (!current) return false;
  void current.worker.terminate();
  return true;
}
