import { ToolError, isToolErrorCode, toToolError } from '../src/core/errors.js';
import { connectToolRunner } from '../src/remote/remote.js';
import { CONNECT_OPTION_RULES } from '../src/remote/connect.js';
function wireOptions(options) {
    const out = {};
    if (typeof options?.conversationId === 'string')
        out.conversationId = options.conversationId;
    if (typeof options?.timeoutMs === 'number')
        out.timeoutMs = options.timeoutMs;
    return out;
}
/**
 * Connects a tab to the one runtime of a workspace (one writer per workspace; two tabs see
 * each other's writes and never lose one). With SharedWorker (and no `preferLocks`), every tab connects
 * to the same shared worker. Without it, tabs elect a leader with Web Locks (`toolhost:<workspace>`,
 * exclusive): the leader runs the dedicated worker through {@link connectToolRunner} (hung-worker
 * replacement included) and serves the other tabs' calls, which travel over a BroadcastChannel of the
 * same name. When the leader tab closes, its lock is released and the next tab becomes leader, mounting
 * the workspace from IndexedDB (every acknowledged write is there); calls that were in flight to the old
 * leader answer `unavailable` (their effects are unknown: retry them). An AbortSignal only works in the
 * shared and leader roles. Errors: as {@link RemoteToolRunner}; `unavailable` when neither SharedWorker
 * nor Web Locks + BroadcastChannel exist.
 */
export function connectWorkspaceRunner(options) {
    // connectToolRunner refuses keys it does not take: give it its own options only.
    const connectOptions = Object.fromEntries(Object.entries(options).filter(([key]) => Object.hasOwn(CONNECT_OPTION_RULES, key)));
    const hasShared = typeof globalThis.SharedWorker === 'function';
    if (options.sharedWorker && hasShared && !options.preferLocks) {
        const remote = connectToolRunner(options.sharedWorker().port, connectOptions);
        return {
            tools: () => remote.tools(),
            declarations: () => remote.declarations(),
            execute: (name, args, callOptions) => remote.execute(name, args, callOptions),
            processToolCalls: (calls, callOptions) => remote.processToolCalls(calls, callOptions),
            role: 'shared',
            terminate: () => remote.terminate(),
        };
    }
    const locks = options.locks ?? globalThis.navigator?.locks;
    const makeChannel = options.channel ?? ((name) => new BroadcastChannel(name));
    if (!locks || (typeof BroadcastChannel !== 'function' && !options.channel)) {
        throw new ToolError('unavailable', 'this browser has neither SharedWorker nor Web Locks with BroadcastChannel: one writer per workspace cannot be ensured');
    }
    const name = `toolhost:${options.workspace}`;
    const self = crypto.randomUUID();
    const channel = makeChannel(name);
    const pending = new Map();
    let remote;
    let role = 'follower';
    let ended = false;
    let release = () => undefined;
    const released = new Promise((resolve) => (release = resolve));
    let nextId = 0;
    const post = (message) => channel.postMessage(message);
    const local = (method, args) => {
        const r = remote;
        if (method === 'tools')
            return r.tools();
        if (method === 'declarations')
            return r.declarations();
        if (method === 'execute')
            return r.execute(args[0], args[1], wireOptions(args[2]));
        return r.processToolCalls(args[0], wireOptions(args[1]));
    };
    channel.onmessage = (event) => {
        const message = event.data;
        if (message.type === 'request' && remote) {
            void local(message.method, message.args).then((value) => post({ type: 'response', id: message.id, to: message.from, ok: true, value }), (error) => {
                const e = toToolError(error);
                post({ type: 'response', id: message.id, to: message.from, ok: false, code: e.code, message: e.message });
            });
        }
        else if (message.type === 'response' && message.to === self) {
            const waiter = pending.get(message.id);
            if (!waiter)
                return;
            pending.delete(message.id);
            if (message.ok)
                waiter.resolve(message.value);
            else
                waiter.reject(new ToolError(isToolErrorCode(message.code) ? message.code : 'execution_failed', message.message));
        }
        else if (message.type === 'leader' && message.leader !== self) {
            failPending('the leader tab of this workspace changed while the call was in flight; its effects are unknown, retry it');
        }
    };
    const failPending = (why) => {
        for (const [id, waiter] of pending) {
            pending.delete(id);
            waiter.reject(new ToolError('unavailable', why));
        }
    };
    let settle = () => undefined;
    const elected = new Promise((resolve) => (settle = resolve));
    const lead = async () => {
        if (ended)
            return;
        remote = connectToolRunner(options.worker, connectOptions);
        role = 'leader';
        // Calls this tab sent as a follower went to a leader that is gone.
        failPending('this tab became the workspace leader while the call was in flight; its effects are unknown, retry it');
        post({ type: 'leader', leader: self });
        settle();
        await released;
    };
    // First ask without waiting, so the role is known before the first call is routed; a follower then
    // queues for the lock to take over when the leader tab goes away.
    void locks
        .request(name, { mode: 'exclusive', ifAvailable: true }, async (lock) => {
        if (lock)
            return lead();
        settle();
        void locks.request(name, { mode: 'exclusive' }, lead).catch(() => undefined);
    })
        .catch(() => settle());
    const call = async (method, args) => {
        await elected;
        if (ended)
            throw new ToolError('unavailable', 'this workspace runner was terminated');
        if (remote)
            return local(method, args);
        const id = `${self}:${(nextId += 1)}`;
        return new Promise((resolve, reject) => {
            pending.set(id, { resolve, reject });
            post({ type: 'request', id, from: self, method, args });
        });
    };
    return {
        tools: () => call('tools', []),
        declarations: () => call('declarations', []),
        execute: (toolName, args, callOptions) => call('execute', [toolName, args, wireOptions(callOptions)]),
        async processToolCalls(calls, callOptions) {
            try {
                return (await call('processToolCalls', [calls, wireOptions(callOptions)]));
            }
            catch (error) {
                const e = toToolError(error);
                return (Array.isArray(calls) ? calls : []).map((c) => ({
                    ...(typeof c?.id === 'string' ? { id: c.id } : {}),
                    name: typeof c?.name === 'string' ? c.name : '',
                    error: e.message,
                    code: e.code,
                }));
            }
        },
        get role() {
            return role;
        },
        async terminate() {
            ended = true;
            failPending('this workspace runner was terminated');
            channel.close();
            await remote?.terminate();
            release();
        },
    };
}
//# sourceMappingURL=workspace-runner.js.map