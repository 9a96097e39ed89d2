// The thread that builds a Node workspace's search index (see `buildSearchIndexOffThread` in
// search-index-store.ts): it walks and reads the root through a confined fs and search source of its
// own, as the platform's build would, posts the index's parts back (their buffers moved, not copied),
// then saves the index under the cache directory, so the main thread only wraps the parts.
import { parentPort, workerData } from 'node:worker_threads';
import type { Platform } from '../src/core/types.js';
import type { IndexParts } from '../src/search/index/search-index.js';
import { IndexOverBudget } from '../src/search/index/budget.js';
import { serializeIndexChunks } from '../src/search/index/format.js';
import { buildWorkspaceIndex } from '../src/search/index/workspace.js';
import { createConfinedNodeFs } from './fs/confined.js';
import { createNodeSearchSource } from './search-fs.js';
import { writeSearchIndexFile, type IndexWorkerData, type IndexWorkerMessage } from './search-index-store.js';

/** The buffers of `parts`, each once (a buffer listed twice cannot be moved). */
function buffersOf(parts: IndexParts): ArrayBuffer[] {
  const views = [parts.stats, parts.flags, parts.postings.keys, parts.postings.offsets, parts.postings.bytes];
  return [...new Set(views.map((view) => view.buffer as ArrayBuffer))];
}

async function main(data: IndexWorkerData, port: NonNullable<typeof parentPort>): Promise<void> {
  let searchSource: ReturnType<typeof createNodeSearchSource> | undefined;
  let built = false;
  try {
    // No helper thread (a build counts nothing) and no file cache (it reads each file once).
    searchSource = process.platform === 'linux' ? createNodeSearchSource(data.root, { helper: false, cacheBytes: 0 }) : undefined;
    // Only what a build reads: the root, its fs and its search source.
    const platform = { name: 'node', root: data.root, fs: createConfinedNodeFs(data.root, { mode: data.confinement }), ...(searchSource ? { searchSource } : {}) } as unknown as Platform;
    const index = await buildWorkspaceIndex(platform, data.budget ? { budget: data.budget } : {});
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
    searchSource?.close?.();
  }
}

if (parentPort) await main(workerData as IndexWorkerData, parentPort);
