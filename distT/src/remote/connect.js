import { checkCallOptions, checkOptions, checkToolCalls, is } from '../core/options.js';
import { permissionPolicyRule } from '../core/permissions.js';
import { pageTool, runPageTool } from './page-tools.js';
import { toError } from './protocol.js';
import { startWorkerSessions } from './session.js';
/** Host-side grace after a deadline before the worker is probed, in ms (also the probe's own budget). */
export const REMOTE_GRACE_MS = 250;
/** The checks of {@link ConnectToolRunnerOptions}. */
/** The checks of {@link ConnectToolRunnerOptions} (also taken by the Node worker's spawn options). */
export const CONNECT_OPTION_RULES = {
    defaultTimeoutMs: is.deadlineMs,
    graceMs: is.positiveMs,
    startupTimeoutMs: is.positiveMs,
    controlTimeoutMs: is.positiveMs,
    terminate: is.function,
    watch: is.function,
    onMessage: is.function,
    onRestart: is.function,
};
/**
 * Connects to a worker that called {@link exposeToolRunner} and returns a {@link RemoteToolRunner}
 * `workerOrFactory` is a comlink endpoint (a Worker, a MessagePort) or a factory that
 * creates a fresh one (`() => new Worker(url, { type: 'module' })`): only with a factory can a hung
 * worker be replaced.
 *
 * Timeouts. Every call with a deadline (`timeoutMs`, else `defaultTimeoutMs`) sends it to the worker,
 * whose runner ends the call with `timeout` at the deadline (the tool's `ctx.signal` fires). That only
 * works while the worker's thread is free, so the host also watches: when no answer has come
 * `deadline + graceMs` after the call was sent, it probes the worker (a comlink no-op). An answered probe
 * means the worker is alive (e.g. a batch of several slow calls, whose calls each get the deadline): it
 * keeps waiting and probes again one `deadline + graceMs` later. An unanswered probe (within `graceMs`)
 * means the thread is stuck (`while (true) {}`, a catastrophic regex): the host terminates the worker
 * (`terminate` hook), the stuck call resolves with `timeout`, every other call in flight on that worker
 * with `timeout` when its own deadline has passed and `unavailable` otherwise (its effects are unknown:
 * retry it), and, given a factory, a new worker is started at once and the page-side tools are
 * registered again before it serves a call. The new worker module sets up its own runner from its
 * persistent platform, so acknowledged files and state are intact. Given a plain endpoint, the worker
 * is terminated and this runner answers `unavailable` from then on. A batch (`processToolCalls`) is one
 * request: when its worker hangs, every call of the batch reports the batch's code (`timeout`), also
 * calls that had finished, whose results died with the worker. The deadline counts from the moment the
 * call is sent to a ready worker; a worker's start is bounded by `startupTimeoutMs` instead.
 *
 * Cancellation. Aborting `signal` sends a cancel notice: the worker's runner aborts the tool's
 * `ctx.signal` and answers `cancelled`. The host waits up to `graceMs` for that answer (so a batch keeps
 * the results of calls that had finished), then resolves with `cancelled` regardless.
 *
 * A worker that exits (reported through `watch`) or does not set up within `startupTimeoutMs` fails its
 * in-flight calls with `unavailable`; with a factory, the next call starts a new worker.
 */
export function connectToolRunner(workerOrFactory, options = {}) {
    checkOptions('connectToolRunner', options, CONNECT_OPTION_RULES);
    const handlers = new Set();
    if (options.onMessage)
        handlers.add(options.onMessage);
    const pageTools = new Map();
    let permissions;
    let planMode;
    const deliver = (message) => {
        for (const handler of [...handlers]) {
            try {
                void Promise.resolve(handler(message)).catch(() => undefined);
            }
            catch {
                // A throwing handler must not break the channel or other handlers.
            }
        }
    };
    const sessions = startWorkerSessions(workerOrFactory, {
        graceMs: options.graceMs ?? REMOTE_GRACE_MS,
        startupTimeoutMs: options.startupTimeoutMs ?? 30_000,
        controlTimeoutMs: options.controlTimeoutMs ?? 10_000,
        terminate: options.terminate ??
            ((endpoint) => {
                const ending = endpoint;
                if (typeof ending.terminate === 'function')
                    ending.terminate();
                else if (typeof ending.close === 'function')
                    ending.close();
            }),
        watch: options.watch,
        onRestart: options.onRestart,
    }, {
        deliver,
        runPageTool: (session, notice) => runPageTool(session, notice, pageTools, deliver),
        async restore(api) {
            // A page tool the new worker refuses stays listed here; its calls fail in the worker.
            for (const { descriptor } of [...pageTools.values()])
                await api.register(descriptor);
            if (permissions !== undefined)
                await api.setPermissions(permissions);
            if (planMode !== undefined)
                await api.setPlanMode(planMode);
        },
    });
    const { request, control } = sessions;
    const deadlineOf = (callOptions) => {
        const ms = callOptions?.timeoutMs ?? options.defaultTimeoutMs;
        return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
    };
    /** Adds the wire options to a request (only those that are set: the request is cloned across). */
    const wire = (request, callOptions, deadlineMs, requestId) => {
        const out = request;
        if (typeof callOptions?.conversationId === 'string')
            out.conversationId = callOptions.conversationId;
        if (deadlineMs !== undefined)
            out.timeoutMs = deadlineMs;
        if (requestId !== undefined)
            out.requestId = requestId;
        return out;
    };
    const remote = {
        get status() {
            return sessions.status;
        },
        get restarts() {
            return sessions.restarts;
        },
        async tools() {
            const envelope = await control('tools', (api) => api.tools());
            if (envelope.ok)
                return envelope.value;
            throw toError(envelope);
        },
        async declarations() {
            const envelope = await control('declarations', (api) => api.declarations());
            if (envelope.ok)
                return envelope.value;
            throw toError(envelope);
        },
        async execute(name, args, callOptions) {
            checkCallOptions('RemoteToolRunner.execute', callOptions);
            const deadlineMs = deadlineOf(callOptions);
            const envelope = await request({
                label: typeof name === 'string' ? name : 'execute',
                deadlineMs,
                signal: callOptions?.signal,
                invoke: (api, requestId) => api.execute(wire({ name, args }, callOptions, deadlineMs, requestId)),
            });
            if (envelope.ok)
                return envelope.value;
            throw toError(envelope);
        },
        async processToolCalls(calls, callOptions) {
            checkCallOptions('RemoteToolRunner.processToolCalls', callOptions);
            checkToolCalls('RemoteToolRunner.processToolCalls', calls);
            const deadlineMs = deadlineOf(callOptions);
            const envelope = await request({
                label: calls.length === 1 ? String(calls[0]?.name) : `a batch of ${calls.length} tool calls`,
                deadlineMs,
                signal: callOptions?.signal,
                invoke: (api, requestId) => api.processToolCalls(wire({ calls }, callOptions, deadlineMs, requestId)),
            });
            if (envelope.ok)
                return envelope.value;
            return calls.map((call) => {
                const id = typeof call === 'object' && call !== null && typeof call.id === 'string' ? call.id : undefined;
                const name = typeof call === 'object' && call !== null && typeof call.name === 'string' ? call.name : '';
                const result = { name, error: envelope.message, code: envelope.code };
                return id === undefined ? result : { id, ...result };
            });
        },
        async register(tool) {
            const page = pageTool(tool);
            const envelope = await control(`register(${page.entry.name})`, (api) => api.register(page.descriptor));
            if (!envelope.ok)
                throw envelope.typeError ? new TypeError(envelope.message) : toError(envelope);
            pageTools.set(page.entry.name, page);
        },
        async setPermissions(policy) {
            if (typeof policy === 'object' && policy !== null && 'ask' in policy) {
                throw new TypeError("setPermissions: an ask function cannot cross to the tool worker; give it in the worker's setup (new ToolRunner({ permissions }))");
            }
            const problem = permissionPolicyRule(policy, 'policy');
            if (problem)
                throw new TypeError(`setPermissions: ${problem}`);
            const envelope = await control('setPermissions', (api) => api.setPermissions(policy));
            if (!envelope.ok)
                throw toError(envelope);
            permissions = policy;
        },
        async setPlanMode(on) {
            if (typeof on !== 'boolean')
                throw new TypeError(`setPlanMode takes a boolean, not ${JSON.stringify(on)}`);
            const envelope = await control('setPlanMode', (api) => api.setPlanMode(on));
            if (!envelope.ok)
                throw toError(envelope);
            planMode = on;
        },
        async unregister(name) {
            pageTools.delete(name);
            const envelope = await control(`unregister(${name})`, (api) => api.unregister(name));
            if (envelope.ok)
                return envelope.value;
            throw toError(envelope);
        },
        onMessage(handler) {
            handlers.add(handler);
            return () => {
                handlers.delete(handler);
            };
        },
        terminate: () => sessions.terminate(),
    };
    return remote;
}
//# sourceMappingURL=connect.js.map