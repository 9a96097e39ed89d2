/**
 * The worker side of the bridge: serves a {@link ToolRunner} over a comlink endpoint (see
 * protocol.ts for the wire format).
 */
import { expose } from 'comlink';
import { ToolError, toToolError } from '../core/errors.js';
import { fail, failure, isNotice, newIdSource, toError, wireToCall, } from './protocol.js';
/**
 * Serves a {@link ToolRunner} over a comlink endpoint: tools, declarations, execute,
 * processToolCalls, register (page-side tools: the worker registers a Tool whose calls are forwarded to
 * the page), unregister, setPermissions, setPlanMode, cancellation, and `ctx.send` messages to the host's `onMessage`.
 *
 * `target` is a ready runner or a {@link ToolRunnerSetup}. With a setup, `ctx.send` messages reach the
 * host automatically; with a ready runner, build it with `onMessage: (m) => exposed.relay(m)`.
 * `endpoint` defaults to the worker's global scope (`globalThis` inside a dedicated worker), looked up
 * only when this function is called; pass a MessagePort for a SharedWorker connection, or comlink's
 * `nodeEndpoint(parentPort)` on Node (see `exposeToolRunnerInWorker` in `toolhost/node`).
 * The listener is attached synchronously, so call this at the top level of the worker module, before
 * any `await`; requests that arrive while an async setup runs wait for it. A failed setup answers every
 * request with `unavailable` and the setup's message.
 */
export function exposeToolRunner(target, endpoint) {
    const ep = endpoint ?? globalThis;
    // Throws (DataCloneError) for a message that cannot be cloned: the tool's `send` then rejects.
    const post = (notice) => ep.postMessage(notice);
    const relay = (message) => post({ toolhost: 'message', message });
    const runner = typeof target === 'function' ? Promise.resolve().then(() => target({ onMessage: relay })) : Promise.resolve(target);
    runner.catch(() => undefined);
    // The runner once set up: requests then run at once instead of after an `await` of the setup.
    let served;
    void runner.then((ready) => (served = ready), () => undefined);
    const controllers = new Map();
    const pageCalls = new Map();
    const nextId = newIdSource();
    /** Runs `fn` on the runner (waiting for the setup while it runs); never rejects. */
    const withRunner = (fn) => {
        const run = (ready) => {
            try {
                return fn(ready).catch(failure);
            }
            catch (error) {
                return Promise.resolve(failure(error));
            }
        };
        if (served)
            return run(served);
        return runner.then(run, (error) => fail('unavailable', `the tool worker could not set up its runner: ${toToolError(error).message}`));
    };
    const succeed = (value) => ({ ok: true, value });
    /**
     * Runs a call with the runner's per-call options. Only a call that carries a `requestId` (the host
     * can cancel it) gets an AbortController, registered before any await so that a cancel notice
     * following the request always finds it; the others run without a signal (the runner's fast path).
     */
    const call = (options, fn) => {
        const callOptions = wireToCall(options);
        const requestId = options?.requestId;
        if (typeof requestId !== 'string')
            return withRunner((r) => fn(r, callOptions).then(succeed));
        const controller = new AbortController();
        controllers.set(requestId, controller);
        callOptions.signal = controller.signal;
        return withRunner((r) => fn(r, callOptions).then(succeed)).finally(() => controllers.delete(requestId));
    };
    const pageTool = (descriptor) => pageSideTool(descriptor, { post, pageCalls, nextId });
    let markClosed;
    const closed = new Promise((resolve) => (markClosed = resolve));
    let isClosed = false;
    const close = () => {
        if (isClosed)
            return;
        isClosed = true;
        for (const controller of controllers.values())
            controller.abort(new ToolError('cancelled', 'the page left'));
        markClosed();
    };
    ep.addEventListener('close', close);
    ep.addEventListener('message', (event) => {
        const data = event.data;
        if (!isNotice(data))
            return;
        if (data.toolhost === 'bye') {
            close();
        }
        else if (data.toolhost === 'cancel') {
            controllers.get(data.requestId)?.abort(new ToolError('cancelled', 'the host cancelled the call'));
        }
        else if (data.toolhost === 'page_result') {
            pageCalls.get(data.pageCallId)?.(data.envelope);
        }
    });
    const api = {
        ping: async () => 'pong',
        hello: () => withRunner(async (r) => ({ ok: true, value: { tools: r.declarations().length } })),
        declarations: () => withRunner(async (r) => ({ ok: true, value: r.declarations() })),
        tools: () => withRunner(async (r) => ({ ok: true, value: r.tools() })),
        setPermissions: (policy) => withRunner(async (r) => {
            r.setPermissions(policy);
            return { ok: true, value: null };
        }),
        setPlanMode: (on) => withRunner(async (r) => {
            r.setPlanMode(on);
            return { ok: true, value: null };
        }),
        execute: (request) => call(request, (r, callOptions) => r.execute(request?.name, request?.args, callOptions)),
        processToolCalls: (request) => call(request, (r, callOptions) => r.processToolCalls(request?.calls, callOptions)),
        register: (descriptor) => withRunner(async (r) => {
            if (typeof descriptor !== 'object' || descriptor === null || typeof descriptor.name !== 'string') {
                return fail('invalid_arguments', 'register takes a tool with name, description and parameters');
            }
            try {
                await r.register(pageTool(descriptor));
            }
            catch (error) {
                if (error instanceof TypeError)
                    return { ok: false, code: 'unavailable', message: error.message, typeError: true };
                throw error;
            }
            return { ok: true, value: null };
        }),
        unregister: (name) => withRunner(async (r) => ({ ok: true, value: r.unregister(name) })),
    };
    expose(api, ep);
    // Also after a failed setup: the host's hello then reports the failure.
    const announce = () => {
        try {
            post({ toolhost: 'ready' });
        }
        catch {
            // the endpoint is closed: nobody to tell
        }
    };
    void runner.then(announce, announce);
    return { runner, relay, closed };
}
/**
 * The worker's stand-in for a tool that runs on the page: the worker's runner validates its arguments
 * and applies permissions, then the call is posted to the page and its answer awaited; an abort of the
 * call's signal posts a `page_cancel`.
 */
function pageSideTool(descriptor, wiring) {
    const { post, pageCalls, nextId } = wiring;
    return {
        name: descriptor.name,
        description: descriptor.description,
        parameters: descriptor.parameters,
        readOnly: descriptor.readOnly ?? false,
        concurrencySafe: descriptor.concurrencySafe ?? descriptor.readOnly ?? false,
        ...(descriptor.annotations ? { annotations: descriptor.annotations } : {}),
        ...(descriptor.outputSchema ? { outputSchema: descriptor.outputSchema } : {}),
        // Always with a context: the call needs its id and signal to reach and cancel the page side.
        needsContext: true,
        call: async () => {
            throw new ToolError('execution_failed', `${descriptor.name} runs on the page; call it through the runner`);
        },
        callWithContext: (args, ctx) => new Promise((resolve, reject) => {
            const pageCallId = nextId();
            const onAbort = () => {
                pageCalls.delete(pageCallId);
                const reason = toToolError(ctx.signal.reason);
                post({ toolhost: 'page_cancel', pageCallId, code: reason.code, message: reason.message });
                reject(reason);
            };
            pageCalls.set(pageCallId, (envelope) => {
                pageCalls.delete(pageCallId);
                ctx.signal.removeEventListener('abort', onAbort);
                if (envelope.ok)
                    resolve(envelope.value);
                else
                    reject(toError(envelope));
            });
            if (ctx.signal.aborted) {
                onAbort();
                return;
            }
            ctx.signal.addEventListener('abort', onAbort, { once: true });
            post({
                toolhost: 'page_call',
                pageCallId,
                name: descriptor.name,
                args,
                info: {
                    conversationId: ctx.conversationId,
                    callId: ctx.callId,
                    cwd: ctx.cwd,
                    planMode: ctx.planMode,
                    verbose: ctx.verbose,
                    idle: ctx.isIdle(),
                    ...(ctx.deadline === undefined ? {} : { deadline: ctx.deadline }),
                },
            });
        }),
    };
}
//# sourceMappingURL=expose.js.map