/**
 * The page side's worker sessions and their watchdog: starts a worker (through the factory, or the
 * one endpoint given), waits for its runner, sends requests with their deadlines, probes a worker that
 * is late, and terminates and replaces one that is hung or has exited. Every request resolves with an
 * envelope; nothing here rejects.
 */
import { wrap } from 'comlink';
import { ToolError, isToolErrorCode } from '../core/errors.js';
import { fail, failure, isEnvelope, isNotice, newIdSource, sendFailure, toError, } from './protocol.js';
/**
 * Starts the sessions of a remote runner on `workerOrFactory` (a factory's first worker at once, so it
 * sets up while the host does other work). See connectToolRunner for the timeout and restart rules.
 */
export function startWorkerSessions(workerOrFactory, settings, hooks) {
    const factory = typeof workerOrFactory === 'function' ? workerOrFactory : undefined;
    const { graceMs, startupTimeoutMs, controlTimeoutMs } = settings;
    const terminateHook = settings.terminate;
    const nextId = newIdSource();
    let current;
    let unavailableReason;
    let terminated = false;
    let restarts = 0;
    let firstEndpoint = factory ? undefined : workerOrFactory;
    /** Ends a session: settles its calls, terminates its worker (the returned promise), maybe starts the next. */
    const kill = (session, kind, message) => {
        if (session.dead)
            return Promise.resolve();
        const wasReady = session.isReady;
        session.markDead();
        session.dispose();
        for (const controller of session.pageRuns.values())
            controller.abort(new ToolError('cancelled', message));
        session.pageRuns.clear();
        const now = Date.now();
        for (const request of [...session.requests]) {
            const overdue = kind === 'hung' && request.started && request.deadlineMs !== undefined && now - request.startedAt >= request.deadlineMs;
            request.settle(overdue ? fail('timeout', message) : fail('unavailable', message));
        }
        session.requests.clear();
        const ended = Promise.resolve()
            .then(() => terminateHook(session.endpoint))
            .catch(() => undefined);
        if (current === session)
            current = undefined;
        if (terminated || kind === 'terminated')
            return ended;
        if (!factory) {
            unavailableReason = message;
            return ended;
        }
        // Replace at once a worker that had been serving; one that never got ready is retried lazily (by
        // the next call), so a module that cannot start does not spin.
        if (wasReady && (kind === 'hung' || kind === 'exit')) {
            restarts += 1;
            try {
                current = start(factory());
            }
            catch {
                current = undefined;
            }
            try {
                settings.onRestart?.({ reason: message, restarts });
            }
            catch {
                // observer errors are not ours to handle
            }
        }
        return ended;
    };
    const start = (endpoint) => {
        const proxy = wrap(endpoint);
        // Every property read of a comlink proxy makes a new proxy and registers it for finalization: read
        // each method once here, not once per call.
        const api = {
            ping: proxy.ping,
            hello: proxy.hello,
            declarations: proxy.declarations,
            tools: proxy.tools,
            setPermissions: proxy.setPermissions,
            setPlanMode: proxy.setPlanMode,
            execute: proxy.execute,
            processToolCalls: proxy.processToolCalls,
            register: proxy.register,
            unregister: proxy.unregister,
        };
        let markDead;
        const died = new Promise((resolve) => (markDead = resolve));
        let readyNotice;
        const noticed = new Promise((resolve) => (readyNotice = resolve));
        const session = {
            endpoint,
            api,
            ready: Promise.resolve(),
            isReady: false,
            dead: false,
            died,
            markDead: () => {
                session.dead = true;
                markDead();
            },
            requests: new Set(),
            pageRuns: new Map(),
            probe: undefined,
            dispose: () => undefined,
        };
        const listener = (event) => {
            const data = event.data;
            if (!isNotice(data) || session.dead)
                return;
            if (data.toolhost === 'ready')
                readyNotice();
            else if (data.toolhost === 'message')
                hooks.deliver(data.message);
            else if (data.toolhost === 'page_call')
                hooks.runPageTool(session, data);
            else if (data.toolhost === 'page_cancel') {
                session.pageRuns.get(data.pageCallId)?.abort(new ToolError(isToolErrorCode(data.code) ? data.code : 'cancelled', data.message));
            }
        };
        endpoint.addEventListener('message', listener);
        // A MessagePort (a SharedWorker's port) delivers nothing to addEventListener until started.
        endpoint.start?.();
        let unwatch = undefined;
        try {
            unwatch = settings.watch?.(endpoint, (reason) => kill(session, 'exit', `the tool worker exited (${reason}); retry the call`));
        }
        catch {
            unwatch = undefined;
        }
        session.dispose = () => {
            endpoint.removeEventListener('message', listener);
            try {
                unwatch?.();
            }
            catch {
                // ignore
            }
        };
        const startupTimer = setTimeout(() => kill(session, 'startup', `the tool worker did not start within ${startupTimeoutMs} ms`), startupTimeoutMs);
        const deadError = () => new ToolError('unavailable', 'the tool worker ended before it was ready; retry the call');
        session.ready = (async () => {
            try {
                // Either the worker's hello answers (messages were queued until it listened), or its ready
                // notice arrives first (a browser worker may drop messages sent before its module ran): then ask again.
                const hello = () => api.hello();
                const answer = await Promise.race([
                    hello(),
                    noticed.then(hello),
                    died.then(() => {
                        throw deadError();
                    }),
                ]);
                if (!answer.ok) {
                    kill(session, 'startup', answer.message);
                    throw toError(answer);
                }
                // A new worker gets what the page set on the last one: its page-side tools, permissions, plan mode.
                await Promise.race([
                    hooks.restore(api),
                    died.then(() => {
                        throw deadError();
                    }),
                ]);
                if (session.dead)
                    throw deadError();
                session.isReady = true;
            }
            finally {
                clearTimeout(startupTimer);
            }
        })();
        session.ready.catch(() => undefined);
        return session;
    };
    const acquire = () => {
        if (terminated)
            throw new ToolError('unavailable', 'the remote tool runner was terminated');
        if (unavailableReason !== undefined) {
            throw new ToolError('unavailable', `the tool worker is unavailable: ${unavailableReason}. It was given as a plain endpoint and cannot be replaced; pass a factory (() => new Worker(...)) to connectToolRunner so a hung worker is restarted`);
        }
        if (current && !current.dead)
            return current;
        if (firstEndpoint) {
            const endpoint = firstEndpoint;
            firstEndpoint = undefined;
            current = start(endpoint);
            return current;
        }
        if (!factory)
            throw new ToolError('unavailable', 'the tool worker has ended');
        current = start(factory());
        return current;
    };
    const probe = (session) => {
        if (!session.probe) {
            let timer;
            session.probe = Promise.race([
                session.api.ping().then(() => true, () => false),
                new Promise((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
                session.died.then(() => false),
            ]).finally(() => {
                clearTimeout(timer);
                session.probe = undefined;
            });
        }
        return session.probe;
    };
    /** Sends one request; resolves with its envelope, never rejects. */
    const request = (spec) => {
        const { label, deadlineMs, signal } = spec;
        if (signal?.aborted)
            return Promise.resolve(fail('cancelled', `${label} was cancelled before it started`));
        let session;
        try {
            session = acquire();
        }
        catch (error) {
            return Promise.resolve(failure(error));
        }
        return new Promise((resolve) => {
            let done = false;
            let watchdog;
            let abortTimer;
            let requestId;
            const pending = {
                started: false,
                startedAt: 0,
                deadlineMs,
                settle: (envelope) => finish(envelope),
            };
            const onAbort = () => {
                if (done)
                    return;
                if (!pending.started || requestId === undefined || session.dead) {
                    finish(fail('cancelled', `${label} was cancelled`));
                    return;
                }
                try {
                    session.endpoint.postMessage({ toolhost: 'cancel', requestId });
                }
                catch {
                    // the worker is gone; the timer below answers
                }
                abortTimer = setTimeout(() => finish(fail('cancelled', `${label} was cancelled`)), graceMs);
            };
            function finish(envelope) {
                if (done)
                    return;
                done = true;
                clearTimeout(watchdog);
                clearTimeout(abortTimer);
                signal?.removeEventListener('abort', onAbort);
                session.requests.delete(pending);
                resolve(envelope);
            }
            session.requests.add(pending);
            signal?.addEventListener('abort', onAbort, { once: true });
            const send = () => {
                if (done)
                    return;
                if (session.dead) {
                    finish(fail('unavailable', 'the tool worker ended; retry the call'));
                    return;
                }
                if (signal)
                    requestId = nextId();
                pending.started = true;
                pending.startedAt = Date.now();
                let sent;
                try {
                    sent = spec.invoke(session.api, requestId);
                }
                catch (error) {
                    sent = Promise.reject(error);
                }
                sent.then((envelope) => finish(isEnvelope(envelope) ? envelope : fail('execution_failed', 'the tool worker answered with something that is not a toolhost envelope')), (error) => finish(sendFailure(error, label)));
                if (deadlineMs !== undefined) {
                    const check = () => {
                        if (done || session.dead)
                            return;
                        void probe(session).then((alive) => {
                            if (done || session.dead)
                                return;
                            if (alive) {
                                watchdog = setTimeout(check, deadlineMs + graceMs);
                                return;
                            }
                            kill(session, 'hung', factory
                                ? `${label} did not finish within ${deadlineMs} ms and the tool worker stopped responding; it was terminated and restarted (acknowledged files and state are kept). Narrow the request or raise timeoutMs`
                                : `${label} did not finish within ${deadlineMs} ms and the tool worker stopped responding; it was terminated`);
                        });
                    };
                    watchdog = setTimeout(check, deadlineMs + graceMs);
                }
            };
            // A ready worker gets the request now; a starting one once its runner is set up.
            if (session.isReady)
                send();
            else
                session.ready.then(send, (error) => finish(failure(error)));
        });
    };
    const control = (label, invoke) => request({ label, deadlineMs: controlTimeoutMs, signal: undefined, invoke: (api) => invoke(api) });
    // Start the worker now, so that it sets up while the host does other work.
    if (factory) {
        try {
            current = start(factory());
        }
        catch {
            current = undefined; // the first call retries and reports the factory's error
        }
    }
    else {
        acquire();
    }
    const terminate = async () => {
        if (terminated)
            return;
        terminated = true;
        const session = current;
        current = undefined;
        const endpoint = firstEndpoint;
        firstEndpoint = undefined;
        if (session) {
            // Tell the worker this page is leaving (a SharedWorker then forgets the connection).
            try {
                session.endpoint.postMessage({ toolhost: 'bye' });
            }
            catch {
                // already closed
            }
            await kill(session, 'terminated', 'the remote tool runner was terminated');
        }
        if (endpoint)
            await Promise.resolve(terminateHook(endpoint)).catch(() => undefined);
    };
    return {
        request,
        control,
        get status() {
            if (terminated)
                return 'terminated';
            if (unavailableReason !== undefined)
                return 'unavailable';
            return current?.isReady ? 'ready' : 'starting';
        },
        get restarts() {
            return restarts;
        },
        terminate,
    };
}
//# sourceMappingURL=session.js.map