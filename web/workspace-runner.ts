import { ToolError, isToolErrorCode, toToolError } from '../src/core/errors.js';
import { connectToolRunner, type ConnectToolRunnerOptions, type Endpoint, type RemoteToolRunner } from '../src/remote/remote.js';
import { CONNECT_OPTION_RULES } from '../src/remote/connect.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult } from '../src/core/runner.js';
import type { ToolHost, ToolInfo } from '../src/core/host.js';

/** Options of {@link connectWorkspaceRunner}. */
export interface WorkspaceRunnerOptions extends ConnectToolRunnerOptions {
  /** The workspace all tabs share; names the lock and the channel (`toolhost:<workspace>`). */
  workspace: string;
  /**
   * Creates the shared worker that serves this workspace (its module calls `exposeSharedToolRunner`).
   * Used when the browser has SharedWorker; all tabs then talk to one runtime directly.
   */
  sharedWorker?: () => { port: MessagePort };
  /** Creates a dedicated worker (its module calls `exposeToolRunner`): run by the elected leader tab only. */
  worker: () => Endpoint;
  /** Use Web Locks leader election even where SharedWorker exists (tests, or a worker module that is dedicated-only). */
  preferLocks?: boolean;
  /** Web Locks (default `navigator.locks`, read when called). */
  locks?: LockManager;
  /** Channel factory (default `new BroadcastChannel(name)`). */
  channel?: (name: string) => BroadcastChannel;
}

/** How this tab reaches the workspace's one runtime. */
export type WorkspaceRole = 'shared' | 'leader' | 'follower';

/**
 * One workspace's runtime as a tab sees it: the runner methods of {@link RemoteToolRunner} that work
 * from any tab (page-side tools and `onMessage` only through a SharedWorker or in the leader tab).
 */
export interface WorkspaceRunner extends ToolHost {
  /** The workspace runtime's tools with annotations (as {@link RemoteToolRunner.tools}). */
  tools(): Promise<ToolInfo[]>;
  declarations(): Promise<FunctionDeclaration[]>;
  execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
  processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]>;
  /** Current role: `shared` (SharedWorker), `leader` (this tab runs the worker) or `follower`. */
  readonly role: WorkspaceRole;
  /** Leaves: a leader ends its worker and releases the lock, so another tab takes over. */
  terminate(): Promise<void>;
}

type Method = 'tools' | 'declarations' | 'execute' | 'processToolCalls';
type Wire =
  | { type: 'request'; id: string; from: string; method: Method; args: unknown[] }
  | { type: 'response'; id: string; to: string; ok: true; value: unknown }
  | { type: 'response'; id: string; to: string; ok: false; code: string; message: string }
  | { type: 'leader'; leader: string };

function wireOptions(options: CallOptions | undefined): CallOptions {
  const out: CallOptions = {};
  if (typeof options?.conversationId === 'string') out.conversationId = options.conversationId;
  if (typeof options?.timeoutMs === 'number') out.timeoutMs = options.timeoutMs;
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
export function connectWorkspaceRunner(options: WorkspaceRunnerOptions): WorkspaceRunner {
  // connectToolRunner refuses keys it does not take: give it its own options only.
  const connectOptions = Object.fromEntries(Object.entries(options).filter(([key]) => Object.hasOwn(CONNECT_OPTION_RULES, key))) as ConnectToolRunnerOptions;
  const hasShared = typeof (globalThis as { SharedWorker?: unknown }).SharedWorker === 'function';
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
  const locks = options.locks ?? (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  const makeChannel = options.channel ?? ((name: string) => new BroadcastChannel(name));
  if (!locks || (typeof BroadcastChannel !== 'function' && !options.channel)) {
    throw new ToolError('unavailable', 'this browser has neither SharedWorker nor Web Locks with BroadcastChannel: one writer per workspace cannot be ensured');
  }
  const name = `toolhost:${options.workspace}`;
  const self = crypto.randomUUID();
  const channel = makeChannel(name);
  const pending = new Map<string, { resolve(value: unknown): void; reject(error: unknown): void }>();
  let remote: RemoteToolRunner | undefined;
  let role: WorkspaceRole = 'follower';
  let ended = false;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let nextId = 0;

  const post = (message: Wire): void => channel.postMessage(message);
  const local = (method: Method, args: unknown[]): Promise<unknown> => {
    const r = remote as RemoteToolRunner;
    if (method === 'tools') return r.tools();
    if (method === 'declarations') return r.declarations();
    if (method === 'execute') return r.execute(args[0] as string, args[1], wireOptions(args[2] as CallOptions));
    return r.processToolCalls(args[0] as ToolCall[], wireOptions(args[1] as CallOptions));
  };

  channel.onmessage = (event: MessageEvent<Wire>) => {
    const message = event.data;
    if (message.type === 'request' && remote) {
      void local(message.method, message.args).then(
        (value) => post({ type: 'response', id: message.id, to: message.from, ok: true, value }),
        (error) => {
          const e = toToolError(error);
          post({ type: 'response', id: message.id, to: message.from, ok: false, code: e.code, message: e.message });
        },
      );
    } else if (message.type === 'response' && message.to === self) {
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.ok) waiter.resolve(message.value);
      else waiter.reject(new ToolError(isToolErrorCode(message.code) ? message.code : 'execution_failed', message.message));
    } else if (message.type === 'leader' && message.leader !== self) {
      failPending('the leader tab of this workspace changed while the call was in flight; its effects are unknown, retry it');
    }
  };

  const failPending = (why: string): void => {
    for (const [id, waiter] of pending) {
      pending.delete(id);
      waiter.reject(new ToolError('unavailable', why));
    }
  };

  let settle: () => void = () => undefined;
  const elected = new Promise<void>((resolve) => (settle = resolve));
  const lead = async (): Promise<void> => {
    if (ended) return;
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
      if (lock) return lead();
      settle();
      void locks.request(name, { mode: 'exclusive' }, lead).catch(() => undefined);
    })
    .catch(() => settle());

  const call = async (method: Method, args: unknown[]): Promise<unknown> => {
    await elected;
    if (ended) throw new ToolError('unavailable', 'this workspace runner was terminated');
    if (remote) return local(method, args);
    const id = `${self}:${(nextId += 1)}`;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      post({ type: 'request', id, from: self, method, args });
    });
  };

  return {
    tools: () => call('tools', []) as Promise<ToolInfo[]>,
    declarations: () => call('declarations', []) as Promise<FunctionDeclaration[]>,
    execute: (toolName, args, callOptions) => call('execute', [toolName, args, wireOptions(callOptions)]),
    async processToolCalls(calls, callOptions) {
      try {
        return (await call('processToolCalls', [calls, wireOptions(callOptions)])) as ToolCallResult[];
      } catch (error) {
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
