import { availableParallelism } from 'node:os';
import { ToolError } from '../src/core/errors.js';
import { checkCallOptions, checkOptions, checkToolCalls, rule } from '../src/core/options.js';
import { SPAWN_WORKER_RULES, spawnToolWorker } from './worker.js';
/** The checks of {@link ToolWorkerPoolOptions}: the spawn options and `size`. */
const POOL_RULES = {
    ...SPAWN_WORKER_RULES,
    size: rule('a whole number from 1 to 256', (v) => Number.isInteger(v) && v >= 1 && v <= 256),
};
/** FNV-1a over the UTF-16 code units: a fast, stable spread of conversation ids over the workers. */
function hash(text) {
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
export function createToolWorkerPool(options) {
    checkOptions('createToolWorkerPool', options, POOL_RULES);
    if (options === undefined)
        throw new TypeError('createToolWorkerPool: options must be an object with module (the path or URL of the worker module), not undefined');
    const { size: requested, onRestart, onMessage, ...spawnOptions } = options;
    const size = requested ?? availableParallelism();
    const counts = new Array(size).fill(0);
    const pending = new Set();
    let closing;
    const workers = Array.from({ length: size }, (_, index) => spawnToolWorker({
        ...spawnOptions,
        ...(onMessage ? { onMessage } : {}),
        onRestart: ({ reason, restarts }) => onRestart?.({ worker: index, reason, restarts }),
    }));
    const workerFor = (conversationId) => hash(conversationId) % size;
    const track = (index, work) => {
        if (closing)
            return Promise.reject(new ToolError('unavailable', 'the tool worker pool is shutting down; send the call to another host'));
        counts[index] += 1;
        const running = work();
        const settled = running.then(() => undefined, () => undefined);
        pending.add(settled);
        void settled.then(() => {
            counts[index] -= 1;
            pending.delete(settled);
        });
        return running;
    };
    const conversationOf = (callOptions) => callOptions?.conversationId ?? 'default';
    return {
        size,
        get restarts() {
            return workers.reduce((sum, worker) => sum + worker.restarts, 0);
        },
        workerFor,
        inFlight: () => [...counts],
        tools: () => track(0, () => workers[0].tools()),
        declarations: () => track(0, () => workers[0].declarations()),
        async execute(name, args, callOptions) {
            checkCallOptions('ToolWorkerPool.execute', callOptions);
            const index = workerFor(conversationOf(callOptions));
            return track(index, () => workers[index].execute(name, args, callOptions));
        },
        async processToolCalls(calls, callOptions) {
            checkCallOptions('ToolWorkerPool.processToolCalls', callOptions);
            checkToolCalls('ToolWorkerPool.processToolCalls', calls);
            const index = workerFor(conversationOf(callOptions));
            try {
                return await track(index, () => workers[index].processToolCalls(calls, callOptions));
            }
            catch (error) {
                const failure = error;
                return (Array.isArray(calls) ? calls : [undefined]).map((call) => {
                    const name = typeof call?.name === 'string' ? call.name : '';
                    const result = { name, error: failure.message, code: failure.code };
                    return typeof call?.id === 'string' ? { id: call.id, ...result } : result;
                });
            }
        },
        close(closeOptions = {}) {
            closing ??= (async () => {
                const timeoutMs = closeOptions.timeoutMs ?? 30_000;
                let timer;
                await Promise.race([
                    Promise.all([...pending]),
                    new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
                ]);
                clearTimeout(timer);
                await Promise.all(workers.map((worker) => worker.terminate()));
            })();
            return closing;
        },
    };
}
//# sourceMappingURL=worker-pool.js.map