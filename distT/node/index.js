/**
 * toolhost/node: the Node adapter. `createNodePlatform` (a real directory, confined, or memory),
 * `spawnToolWorker` / `exposeToolRunnerInWorker` (a runner in a `worker_threads` worker, replaced when
 * it hangs), `createToolWorkerPool` (several such workers), and the disk and Redis state stores. Uses `node:*`; importing it does
 * no work. The `toolhost` command ships with the package as its `bin`.
 */
export { createNodePlatform } from './platform.js';
export { FileStateStore } from './state-store.js';
export { createFileLocks } from './file-lock.js';
export { createRedisStateStore } from './redis-state-store.js';
export { spawnToolWorker, exposeToolRunnerInWorker } from './worker.js';
export { createToolWorkerPool } from './worker-pool.js';
export { precompileValidators } from './precompile.js';
export { stopSearchWorker } from './search-helper.js';
//# sourceMappingURL=index.js.map