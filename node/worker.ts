import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, parentPort, type WorkerOptions } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { checkOptions, describeValue, is, type OptionRule, type OptionRules } from '../src/core/options.js';
import { CONNECT_OPTION_RULES } from '../src/remote/connect.js';
import {
  connectToolRunner,
  exposeToolRunner,
  type ConnectToolRunnerOptions,
  type Endpoint,
  type ExposedToolRunner,
  type RemoteToolRunner,
  type ToolRunnerSetup,
} from '../src/remote/remote.js';
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
export function spawnToolWorker(options: SpawnToolWorkerOptions): RemoteToolRunner {
  checkOptions('spawnToolWorker', options, SPAWN_WORKER_RULES);
  if (options === undefined) throw new TypeError('spawnToolWorker: options must be an object with module (the path or URL of the worker module), not undefined');
  const { module, workerData, env, execArgv, resourceLimits, unref, onSpawn, onError, ...connectOptions } = options;
  const url = moduleUrl(module);
  const workers = new WeakMap<Endpoint, Worker>();
  const factory = (): Endpoint => {
    const workerOptions: WorkerOptions = { workerData };
    if (env !== undefined) workerOptions.env = env;
    if (execArgv !== undefined) workerOptions.execArgv = execArgv;
    if (resourceLimits !== undefined) workerOptions.resourceLimits = resourceLimits;
    const worker = new Worker(url, workerOptions);
    if (unref) worker.unref();
    const endpoint = nodeEndpoint(worker);
    workers.set(endpoint, worker);
    onSpawn?.(worker);
    return endpoint;
  };
  return connectToolRunner(factory, {
    ...connectOptions,
    terminate: async (endpoint) => {
      await workers.get(endpoint)?.terminate();
    },
    watch: (endpoint, onExit) => {
      const worker = workers.get(endpoint);
      if (!worker) return undefined;
      let lastError: Error | undefined;
      const errored = (error: Error): void => {
        lastError = error;
        try {
          onError?.(error);
        } catch {
          // an observer's failure is not the worker's
        }
      };
      const exited = (code: number): void =>
        onExit(`exit code ${code}${lastError ? `: ${lastError.name}: ${lastError.message}` : ''}`);
      worker.on('error', errored);
      worker.on('exit', exited);
      return () => {
        worker.off('exit', exited);
        // Keep swallowing errors of a worker being terminated: an unhandled 'error' would crash the host.
      };
    },
  });
}

/** A module path or URL that can be loaded: a `file:` URL or path must name an existing file. */
const moduleRule: OptionRule = (value, name) => {
  const accepts = 'a path or file: URL of an existing module';
  if (!(value instanceof URL) && (typeof value !== 'string' || value.length === 0 || value.includes('\0'))) return `${name} must be ${accepts}, not ${describeValue(value)}`;
  let url: URL;
  try {
    url = moduleUrl(value);
  } catch {
    return `${name} must be ${accepts}, not ${describeValue(String(value))}`;
  }
  if (url.protocol !== 'file:') return url.protocol === 'data:' ? undefined : `${name} must be ${accepts}, not ${describeValue(String(value))}`;
  const path = fileURLToPath(url);
  return existsSync(path) ? undefined : `${name} must be ${accepts}; there is no file at ${path}`;
};

/** The checks of {@link SpawnToolWorkerOptions}; `module` is required. */
export const SPAWN_WORKER_RULES: OptionRules = {
  ...Object.fromEntries(Object.entries(CONNECT_OPTION_RULES).filter(([name]) => name !== 'terminate' && name !== 'watch')),
  module: is.required(moduleRule),
  workerData: () => undefined,
  env: (value, name) => (typeof value === 'symbol' || (typeof value === 'object' && value !== null && !Array.isArray(value)) ? undefined : `${name} must be an object of variables or SHARE_ENV, not ${describeValue(value)}`),
  execArgv: is.arrayOf(is.string, 'an array of strings'),
  resourceLimits: is.object,
  unref: is.boolean,
  onSpawn: is.function,
  onError: is.function,
};

function moduleUrl(module: string | URL): URL {
  if (module instanceof URL) return module;
  if (/^(file|data):/.test(module)) return new URL(module);
  return pathToFileURL(resolve(module));
}

/**
 * Inside a worker_threads Worker: serves `target` (a runner, or a setup building one) to the host that
 * spawned it with {@link spawnToolWorker}; `exposeToolRunner(target, nodeEndpoint(parentPort))`.
 * Call it at the module's top level. Throws a TypeError outside a worker thread (the host's mistake).
 */
export function exposeToolRunnerInWorker(target: ToolRunner | ToolRunnerSetup): ExposedToolRunner {
  if (!parentPort) {
    throw new TypeError('exposeToolRunnerInWorker runs inside a worker_threads Worker (parentPort is null); call it in the module you give spawnToolWorker, not in the main thread');
  }
  return exposeToolRunner(target, nodeEndpoint(parentPort));
}
