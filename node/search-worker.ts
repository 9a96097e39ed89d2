// The search helper's thread (see startSearchHelper): takes part in large counts, one at a time, over
// a Node search source and cache of its own per platform. A count's batches arrive while the caller's
// walk runs; each open or stat batch is claimed with a compare-and-swap on the count's shared control
// words before it is counted (or, for a stat batch of the caller's cached files, its lstat taken), so
// the caller (which takes such batches from the last one down) never does one twice.
import { parentPort } from 'node:worker_threads';
import { isToolError } from '../src/core/errors.js';
import type { SearchSource, SharedBatchKind } from '../src/core/types.js';
import { cacheOf, type SourceCache } from '../src/search/source-cache.js';
import {
  BATCH_HELPER,
  BATCH_OPEN,
  CONTROL_CANCEL,
  CONTROL_FIRST_BATCH,
  CONTROL_STATE,
  countPaths,
  helperPattern,
  MAX_SHARED_BATCHES,
  statPaths,
  STATE_STARTED,
  STATE_WAITING,
  type WorkerAnswer,
  type WorkerMessage,
} from './search-helper.js';
import { createNodeSearchSource } from './search-fs.js';
import { objectArray } from './search-shared.js';

const platforms = new Map<number, { root: string; cacheBytes: number; open?: { source: SearchSource; cache: SourceCache } }>();

/** A count as it arrives: its batches so far, whether the last has come, and a waiting run to wake. */
interface Count {
  message: Extract<WorkerMessage, { type: 'count' }>;
  batches: Array<{ paths: string[]; kind: SharedBatchKind }>;
  ended: boolean;
  wake: (() => void) | undefined;
}
const counts = new Map<number, Count>();
let queue: Promise<void> = Promise.resolve();

/** Stops a count whose cancel flag was set (nothing is answered). */
class Cancelled extends Error {}

function post(answer: WorkerAnswer, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(answer, transfer);
}

async function run(count: Count): Promise<void> {
  const { message } = count;
  const { control, id } = message;
  const cancelled = (): boolean => Atomics.load(control, CONTROL_CANCEL) !== 0;
  // Taken back by the caller while this thread was busy with another count: it counts everything itself.
  if (Atomics.compareExchange(control, CONTROL_STATE, STATE_WAITING, STATE_STARTED) !== STATE_WAITING) return;
  const batches: number[] = [];
  const codes = objectArray<Int32Array>();
  const statBatches: number[] = [];
  const stats = objectArray<Float64Array>();
  try {
    const platform = platforms.get(message.platform);
    if (!platform) throw new Error('the search helper has no root for this platform');
    if (!platform.open) {
      // Opened on the first count: a platform that never counts a large tree costs nothing here.
      const source = createNodeSearchSource(platform.root, { cacheBytes: platform.cacheBytes, helper: false });
      platform.open = { source, cache: cacheOf(source) };
    }
    const { cache, source } = platform.open;
    // Directories held from an earlier count are checked against their paths again before use.
    source.begin?.();
    const compiled = await helperPattern(message);
    const pause = async (): Promise<void> => {
      if (cancelled()) throw new Cancelled();
    };
    let stopped = false;
    for (let index = 0; !stopped; index += 1) {
      while (index >= count.batches.length && !count.ended && !cancelled()) await new Promise<void>((resolve) => (count.wake = resolve));
      if (cancelled()) throw new Cancelled();
      if (index >= count.batches.length) break;
      // A batch past the shared words is the caller's; an open one is counted here only if claimed first.
      if (index >= MAX_SHARED_BATCHES) break;
      const word = CONTROL_FIRST_BATCH + index;
      if (Atomics.load(control, word) !== BATCH_HELPER && Atomics.compareExchange(control, word, BATCH_OPEN, BATCH_HELPER) !== BATCH_OPEN) continue;
      if (Date.now() >= message.deadline) {
        stopped = true;
        break;
      }
      const batch = count.batches[index] as { paths: string[]; kind: SharedBatchKind };
      if (batch.kind === 'stat') {
        // Files the caller's cache holds: only their lstat is taken here.
        const stated = statPaths(source, batch.paths, message.deadline);
        statBatches.push(index);
        stats.push(stated.stats);
        stopped = stated.stopped;
        continue;
      }
      const counted = await countPaths(cache, compiled, batch.paths, message, pause);
      batches.push(index);
      codes.push(counted.codes);
      stopped = counted.stopped;
    }
    const transfer = objectArray<ArrayBuffer>();
    for (const array of codes) transfer.push(array.buffer as ArrayBuffer);
    for (const array of stats) transfer.push(array.buffer as ArrayBuffer);
    post({ id, batches, codes, statBatches, stats, stopped }, transfer);
  } catch (error) {
    if (error instanceof Cancelled || cancelled()) return;
    const code = isToolError(error) ? error.code : 'execution_failed';
    post({ id, error: { code, message: (error as Error).message } });
  }
}

parentPort?.on('message', (message: WorkerMessage) => {
  switch (message.type) {
    case 'batch': {
      const count = counts.get(message.id);
      if (!count) return;
      count.batches[message.index] = { paths: message.paths, kind: message.kind };
      count.wake?.();
      count.wake = undefined;
      return;
    }
    case 'end':
    case 'cancel': {
      const count = counts.get(message.id);
      if (!count) return;
      count.ended = true;
      count.wake?.();
      count.wake = undefined;
      return;
    }
    case 'count': {
      const count: Count = { message, batches: [], ended: false, wake: undefined };
      counts.set(message.id, count);
      queue = queue.then(() => run(count)).finally(() => counts.delete(message.id));
      return;
    }
    case 'open':
      queue = queue.then(() => {
        platforms.set(message.platform, { root: message.root, cacheBytes: message.cacheBytes });
      });
      return;
    case 'close':
      queue = queue.then(() => {
        platforms.get(message.platform)?.open?.source.close?.();
        platforms.delete(message.platform);
      });
      return;
  }
});
