import { Worker, type WorkerOptions } from 'node:worker_threads';
import { type OptionRules } from '../src/core/options.js';
import { type ConnectToolRunnerOptions, type ExposedToolRunner, type RemoteToolRunner, type ToolRunnerSetup } from '../src/remote/remote.js';
import type { ToolRunner } from '../src/core/runner.js';
/** Options of {@link spawnToolWorker}. */
export interface SpawnToolWorkerOptions extends Omit<ConnectToolRunnerOptions, 'terminate' | 'watch'> {
    /**
     * The worker module: an ES module (`.mjs`, or `.js` in a `"type": "module"` package; Node 20 workers
     * cannot load `.ts`) that builds its runner and calls {@link exposeToolRunnerInWorker}. A path
     * (relative paths resolve against `process.cwd()`) or a `file:`/`data:` URL. It is loaded again for
     * every replacement worker, so it should build its runner from persistent storage (e.g.
     * `createNodePlatform({ root, stateDir })` with paths from `workerData`).
     */
    module: string | URL;
    /** Given to every worker (also replacements) as `workerData`; structured-clone safe. */
    workerData?: unknown;
    /** Passed to the Worker constructor. */
    env?: WorkerOptions['env'];
    execArgv?: string[];
    resourceLimits?: WorkerOptions['resourceLimits'];
    /** Lets the host process exit while the worker is idle (`worker.unref()`); default false. */
    unref?: boolean;
    /** Told of every Worker started (the first and each replacement), e.g. to pipe its stderr. */
    onSpawn?: (worker: Worker) => void;
    /** Told of a worker's uncaught errors (the worker then exits and in-flight calls get `unavailable`). */
    onError?: (error: Error) => void;
}
/**
 * Runs a {@link ToolRunner} in a `worker_threads` Worker and returns the same {@link RemoteToolRunner}
 * the browser gets from `connectToolRunner`, over comlink's node adapter.
 * The factory spawns a new Worker for `options.module`, so a worker whose thread is stuck past a call's
 * deadline (`while (true) {}`, a catastrophic regex) is terminated with `worker.terminate()` and
 * replaced: the call resolves with `timeout` within `timeoutMs + 2 × graceMs` (graceMs default 250),
 * other calls in flight on it with `unavailable`, page-side tools are registered again, and later calls
 * run in the new worker (details: `connectToolRunner`). A worker that exits or throws an uncaught error
 * fails its in-flight calls with `unavailable` and the next call starts a new one.
 * Call `terminate()` when done: a live worker keeps the process running (unless `unref`).
 *
 * Bad options (the host's mistakes) throw a TypeError naming the option, the value and what is
 * accepted, before any worker starts: no `module`, a module path or `file:` URL with no file there
 * (`spawnToolWorker: module must be a path or file: URL of an existing module; there is no file at
 * /nonexistent.mjs`), an unknown option.
 */
export declare function spawnToolWorker(options: SpawnToolWorkerOptions): RemoteToolRunner;
/** The checks of {@link SpawnToolWorkerOptions}; `module` is required. */
export declare const SPAWN_WORKER_RULES: OptionRules;
/**
 * Inside a worker_threads Worker: serves `target` (a runner, or a setup building one) to the host that
 * spawned it with {@link spawnToolWorker}; `exposeToolRunner(target, nodeEndpoint(parentPort))`.
 * Call it at the module's top level. Throws ToolError `unavailable` outside a worker thread.
 */
export declare function exposeToolRunnerInWorker(target: ToolRunner | ToolRunnerSetup): ExposedToolRunner;
