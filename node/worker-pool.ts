import { availableParallelism } from 'node:os';
import { ToolError } from '../src/core/errors.js';
import type { ToolHost, ToolInfo } from '../src/core/host.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult, ToolMessage } from '../src/core/runner.js';
import type { RemoteToolRunner } from '../src/remote/remote.js';
import { checkCallOptions, checkOptions, checkToolCalls, rule, type OptionRules } from '../src/core/options.js';
import { SPAWN_WORKER_RULES, spawnToolWorker, type SpawnToolWorkerOptions } from './worker.js';

/** The checks of {@link ToolWorkerPoolOptions}: the spawn options and `size`. */
const POOL_RULES: OptionRules = {
  ...SPAWN_WORKER_RULES,
  size: rule('a whole number from 1 to 256', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 256),
};

/** Options of {@link createToolWorkerPool}: those of `spawnToolWorker` for every worker, plus `size`. */
export interface ToolWorkerPoolOptions extends Omit<SpawnToolWorkerOptions, 'onRestart' | 'onMessage'> {
  /** Number of workers, 1–256 (default: `os.availableParallelism()`). */
  size?: number;
  /** Receives `ctx.send` messages of every worker. */
  onMessage?: (message: ToolMessage) => void | Promise<void>;
  /** Told after worker `worker` (its index) hung or crashed and was replaced. */
  onRestart?: (event: { worker: number; reason: string; restarts: number }) => void;
}

/** Options of {@link ToolWorkerPool.close}. */
export interface ToolWorkerPoolCloseOptions {
  /** Longest wait for calls in flight, in ms (default 30,000); then the workers are terminated regardless. */
  timeoutMs?: number;
}

/**
 * Several tool runners, each in its own worker thread, behind the runner's calls. Every call of a
 * conversation goes to the same worker, so one worker at a time holds a conversation's state cache.
 */
export interface ToolWorkerPool extends ToolHost {
  readonly size: number;
  /** Replacements of hung or crashed workers so far, over all workers. */
  readonly restarts: number;
  /** The index (0 … size − 1) of the worker serving `conversationId`. */
  workerFor(conversationId: string): number;
  /** Calls in flight per worker, by index. */
  inFlight(): number[];
  /** The workers' tools with annotations (worker 0 answers; every worker loads the same module). Rejects with a ToolError (`unavailable`, `timeout`). */
  tools(): Promise<ToolInfo[]>;
  /** The workers' declarations (worker 0 answers; every worker loads the same module). */
  declarations(): Promise<FunctionDeclaration[]>;
  /** Runs one call on the conversation's worker (`options.conversationId`, else `default`). Rejects with a ToolError. */
  execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
  /** Runs a batch on the conversation's worker; never rejects. */
  processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]>;
  /**
   * Drains: new calls get `unavailable` at once, calls in flight finish (up to `timeoutMs`), then every
   * worker is terminated. Resolves when they have exited; calling it again waits for the same drain.
   */
  close(options?: ToolWorkerPoolCloseOptions): Promise<void>;
}

/** FNV-1a over the UTF-16 code units: a fast, stable spread of conversation ids over the workers. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Starts `size` workers of `module` (each as `spawnToolWorker` starts one: the module builds its runner
 * and calls `exposeToolRunnerInWorker`) and spreads conversations over them by a hash of the
 * conversation id, so a conversation runs on one worker — while it has calls in flight and after —
 * and no two workers ever hold diverging caches of its state. The module should build its runner on
 * storage every worker shares (`createNodePlatform({ root, stateDir })` or a Redis state store): a
 * worker that hangs past a call's deadline is terminated and replaced as `spawnToolWorker` does (the
 * call gets `timeout`, others in flight on that worker `unavailable`), the new one reloads the
 * acknowledged state, and the other workers keep serving meanwhile.
 *
 * Errors: bad options (a `size` that is not a whole number from 1 to 256, a missing module, an unknown
 * option) throw a TypeError naming the option, as `spawnToolWorker`'s do; calls after `close()` → `unavailable`.
 */
export function createToolWorkerPool(options: ToolWorkerPoolOptions): ToolWorkerPool {
  checkOptions('createToolWorkerPool', options, POOL_RULES);
  if (options === undefined) throw new TypeError('createToolWorkerPool: options must be an object with module (the path or URL of the worker module), not undefined');
  const { size: requested, onRestart, onMessage, ...spawnOptions } = options;
  const size = requested ?? availableParallelism();
  const counts = new Array<number>(size).fill(0);
  const pending = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;
  const workers: RemoteToolRunner[] = Array.from({ length: size }, (_, index) =>
    spawnToolWorker({
      ...spawnOptions,
      ...(onMessage ? { onMessage } : {}),
      onRestart: ({ reason, restarts }) => onRestart?.({ worker: index, reason, restarts }),
    }),
  );

  const workerFor = (conversationId: string): number => hash(conversationId) % size;

  const track = <T>(index: number, work: () => Promise<T>): Promise<T> => {
    if (closing) return Promise.reject(new ToolError('unavailable', 'the tool worker pool is shutting down; send the call to another host'));
    counts[index]! += 1;
    const running = work();
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    pending.add(settled);
    void settled.then(() => {
      counts[index]! -= 1;
      pending.delete(settled);
    });
    return running;
  };

  const conversationOf = (callOptions: CallOptions | undefined): string => callOptions?.conversationId ?? 'default';

  return {
    size,
    get restarts() {
      return workers.reduce((sum, worker) => sum + worker.restarts, 0);
    },
    workerFor,
    inFlight: () => [...counts],
    tools: () => track(0, () => workers[0]!.tools()),
    declarations: () => track(0, () => workers[0]!.declarations()),
    async execute(name, args, callOptions) {
      checkCallOptions('ToolWorkerPool.execute', callOptions);
      const index = workerFor(conversationOf(callOptions));
      return track(index, () => workers[index]!.execute(name, args, callOptions));
    },
    async processToolCalls(calls, callOptions) {
      checkCallOptions('ToolWorkerPool.processToolCalls', callOptions);
      checkToolCalls('ToolWorkerPool.processToolCalls', calls);
      const index = workerFor(conversationOf(callOptions));
      try {
        return await track(index, () => workers[index]!.processToolCalls(calls, callOptions));
      } catch (error) {
        const failure = error as ToolError;
        return (Array.isArray(calls) ? calls : [undefined]).map((call: ToolCall | undefined) => {
          const name = typeof call?.name === 'string' ? call.name : '';
          const result = { name, error: failure.message, code: failure.code };
          return typeof call?.id === 'string' ? { id: call.id, ...result } : result;
        });
      }
    },
    close(closeOptions = {}) {
      closing ??= (async () => {
        const timeoutMs = closeOptions.timeoutMs ?? 30_000;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.all([...pending]),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
        ]);
        clearTimeout(timer);
        await Promise.all(workers.map((worker) => worker.terminate()));
      })();
      return closing;
    },
  };
}
