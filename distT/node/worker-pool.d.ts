import type { ToolHost, ToolInfo } from '../src/core/host.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult, ToolMessage } from '../src/core/runner.js';
import { type SpawnToolWorkerOptions } from './worker.js';
/** Options of {@link createToolWorkerPool}: those of `spawnToolWorker` for every worker, plus `size`. */
export interface ToolWorkerPoolOptions extends Omit<SpawnToolWorkerOptions, 'onRestart' | 'onMessage'> {
    /** Number of workers, 1–256 (default: `os.availableParallelism()`). */
    size?: number;
    /** Receives `ctx.send` messages of every worker. */
    onMessage?: (message: ToolMessage) => void | Promise<void>;
    /** Told after worker `worker` (its index) hung or crashed and was replaced. */
    onRestart?: (event: {
        worker: number;
        reason: string;
        restarts: number;
    }) => void;
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
export declare function createToolWorkerPool(options: ToolWorkerPoolOptions): ToolWorkerPool;
