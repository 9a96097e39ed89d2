/**
 * toolhost/node: the Node adapter. `createNodePlatform` (a real directory, confined, or memory),
 * `spawnToolWorker` / `exposeToolRunnerInWorker` (a runner in a `worker_threads` worker, replaced when
 * it hangs), `createToolWorkerPool` (several such workers), and the disk and Redis state stores. Uses
 * `node:*`; importing it does no work. The `toolhost` command ships with the package as its `bin`.
 */
export { createNodePlatform, type NodePlatformOptions } from './platform.js';
export { FileStateStore } from './state-store.js';
export { createFileLocks } from './file-lock.js';
export { createRedisStateStore, type RedisStateStoreOptions } from './redis-state-store.js';
export { spawnToolWorker, exposeToolRunnerInWorker, type SpawnToolWorkerOptions } from './worker.js';
export { createToolWorkerPool, type ToolWorkerPool, type ToolWorkerPoolOptions } from './worker-pool.js';
export { precompileValidators } from './precompile.js';
