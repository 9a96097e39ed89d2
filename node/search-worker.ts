// The search helper's thread (see startSearchHelper): counts its share of large counts, one job at a
// time, over a Node search source and cache of its own per platform.
import { parentPort } from 'node:worker_threads';
import { isToolError } from '../src/core/errors.js';
import type { SearchSource } from '../src/core/types.js';
import { cacheOf, type SourceCache } from '../src/search/source-cache.js';
import { countJob, type WorkerJob, type WorkerPlatformMessage } from './search-helper.js';
import { createNodeSearchSource } from './search-fs.js';

const platforms = new Map<number, { root: string; cacheBytes: number; open?: { source: SearchSource; cache: SourceCache } }>();
let queue: Promise<void> = Promise.resolve();

parentPort?.on('message', (message: WorkerJob | WorkerPlatformMessage) => {
  queue = queue.then(async () => {
    if (message.type === 'open') {
      platforms.set(message.platform, { root: message.root, cacheBytes: message.cacheBytes });
      return;
    }
    if (message.type === 'close') {
      platforms.get(message.platform)?.open?.source.close?.();
      platforms.delete(message.platform);
      return;
    }
    const job = message;
    const cancelled = (): boolean => Atomics.load(job.cancel, 0) !== 0;
    try {
      const platform = platforms.get(job.platform);
      if (!platform) throw new Error('the search helper has no root for this platform');
      if (!platform.open) {
        // Opened on the first count: a platform that never counts a large tree costs nothing here.
        const source = createNodeSearchSource(platform.root, { cacheBytes: platform.cacheBytes, helper: false });
        platform.open = { source, cache: cacheOf(source) };
      }
      const answer = await countJob(platform.open.cache, job, cancelled);
      parentPort?.postMessage({ id: job.id, codes: answer.codes, stopped: answer.stopped }, [answer.codes.buffer as ArrayBuffer]);
    } catch (error) {
      if (cancelled()) return;
      const code = isToolError(error) ? error.code : 'execution_failed';
      parentPort?.postMessage({ id: job.id, error: { code, message: (error as Error).message } });
    }
  });
});
