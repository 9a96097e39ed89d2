/**
 * toolhost/node: the Node adapter. `createNodePlatform` (a real directory, confined, or memory),
 * `spawnToolWorker` / `exposeToolRunnerInWorker` (a runner in a `worker_threads` worker, replaced when
 * it hangs), `createToolWorkerPool` (several such workers), and the disk and Redis state stores. Uses `node:*`; importing it does
 * no work. The `toolhost` command ships with the package as its `bin`.
 */
export { createNodePlatform, type NodePlatformOptions } from './platform.js';
export { FileStateStore } from './state-store.js';
export { createFileLocks, type FileLock, type FileLocksOptions } from './file-lock.js';
export { createRedisStateStore, type RedisStateStore, type RedisStateStoreOptions, type RedisClient } from './redis-state-store.js';
export { spawnToolWorker, exposeToolRunnerInWorker, type SpawnToolWorkerOptions } from './worker.js';
export { createToolWorkerPool, type ToolWorkerPool, type ToolWorkerPoolOptions, type ToolWorkerPoolCloseOptions } from './worker-pool.js';
export { precompileValidators } from './precompile.js';
export { stopSearchWorker } from './search-helper.js';
export type { DuckDuckGoSearchOptions } from './web-search.js';
export type { RunShellCommandOptions } from './run-command.js';
export type { RemoteToolRunner, RemoteToolRunnerStatus, ExposedToolRunner, ToolRunnerSetup, WorkerBridge } from '../src/remote/remote.js';
