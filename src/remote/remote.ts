/**
 * The platform-free bridge between a {@link ToolRunner} living in a worker and the page (or Node host)
 * that uses it (SPEC §7 "web" and "node"). Web-standard APIs only: an endpoint is anything comlink
 * accepts (a Worker, a MessagePort, a worker's global scope, or comlink's node adapter around a
 * worker_threads Worker / parentPort).
 *
 * Protocol. Requests go through comlink (`wrap` on the host, `expose` in the worker) and always resolve
 * to an envelope `{ ok: true, value } | { ok: false, code, message, details? }`: comlink carries only
 * name, message and stack of a thrown error (FACTS.md), so the bridge never throws across the boundary
 * and rebuilds a {@link ToolError} with its `code` on the other side. One-way notices (worker ready,
 * `ctx.send` messages, calls of page-side tools, cancellation) travel as plain `postMessage`s tagged
 * `toolhost` on the same endpoint; comlink ignores them (they carry no comlink `id`/`type`), and they
 * keep their order relative to results, so a `ctx.send` message reaches `onMessage` before the result
 * of the call that sent it. Page-side tools are called through such notices rather than through a
 * `comlink.proxy` callback: no extra MessagePort is opened per tool, so nothing is left to keep a Node
 * host alive or leak after a worker restart.
 */
import { expose, wrap, type Endpoint, type Remote } from 'comlink';
import { ToolError, isToolErrorCode, toToolError, type ToolErrorCode } from '../core/errors.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult, ToolMessage, ToolRunner } from '../core/runner.js';
import type { Tool, ToolContext } from '../core/tool.js';
import type { JsonSchema, JsonValue } from '../core/types.js';

export type { Endpoint } from 'comlink';

/**
 * What crosses the worker boundary instead of a thrown error: a value, or a {@link ToolErrorCode} with
 * its message (and the ToolError's JSON `details`, when it had some).
 */
export type RemoteEnvelope<T> =
  | { ok: true; value: T }
  | { ok: false; code: ToolErrorCode; message: string; details?: Record<string, unknown> };

/**
 * Per-call options as they cross the boundary, inside the call's one request (see
 * {@link ToolRunnerWorkerApi}): the AbortSignal is replaced by `requestId` and, when the signal fires,
 * a cancel notice naming it.
 */
export interface WireCallOptions {
  conversationId?: string;
  /** Deadline in ms, enforced by the worker's runner (and watched by the host, see {@link connectToolRunner}). */
  timeoutMs?: number;
  /**
   * Names the request so that a later cancel notice can find it. Sent only for calls that can be
   * cancelled (the caller passed a signal); without it the worker sets up no cancellation for the call.
   */
  requestId?: string;
}

/** A page-side tool as the worker sees it: everything but the functions, which stay on the page. */
export interface PageToolDescriptor {
  name: string;
  description: string;
  parameters: JsonSchema | string;
  readOnly?: boolean;
  concurrencySafe?: boolean;
}

/**
 * The comlink surface that {@link exposeToolRunner} serves. Internal protocol, exported for hosts that
 * write their own client; every method resolves (never rejects) with an envelope. A call is one
 * comlink request with one argument (the call and its options) and one answer; a cancellable call
 * carries `requestId`, and the host cancels it with a `{ toolhost: 'cancel', requestId }` notice on the
 * same endpoint.
 */
export interface ToolRunnerWorkerApi {
  /** Answers at once, even while the runner is being set up: a liveness probe. */
  ping(): Promise<'pong'>;
  /** Resolves once the runner is set up; a failed setup is an `unavailable` envelope. */
  hello(): Promise<RemoteEnvelope<{ tools: number }>>;
  declarations(): Promise<RemoteEnvelope<FunctionDeclaration[]>>;
  execute(request: WireCallOptions & { name: string; args: unknown }): Promise<RemoteEnvelope<unknown>>;
  processToolCalls(request: WireCallOptions & { calls: readonly ToolCall[] }): Promise<RemoteEnvelope<ToolCallResult[]>>;
  register(tool: PageToolDescriptor): Promise<RemoteEnvelope<null>>;
  unregister(name: string): Promise<RemoteEnvelope<boolean>>;
}

/** What a page-side tool learns about the call it serves (the worker-side context's plain fields). */
export interface PageCallInfo {
  conversationId: string;
  callId: string;
  cwd: string;
  planMode: boolean;
  verbose: boolean;
  idle: boolean;
}

type WorkerNotice =
  | { toolhost: 'ready' }
  | { toolhost: 'message'; message: ToolMessage }
  | { toolhost: 'page_call'; pageCallId: string; name: string; args: unknown; info: PageCallInfo }
  | { toolhost: 'page_cancel'; pageCallId: string; code: ToolErrorCode; message: string };

type HostNotice =
  | { toolhost: 'cancel'; requestId: string }
  | { toolhost: 'page_result'; pageCallId: string; envelope: RemoteEnvelope<unknown> };

const NOTICE_KINDS = new Set(['ready', 'message', 'page_call', 'page_cancel', 'cancel', 'page_result']);

function isNotice(data: unknown): data is WorkerNotice | HostNotice {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { toolhost?: unknown }).toolhost === 'string' &&
    NOTICE_KINDS.has((data as { toolhost: string }).toolhost)
  );
}

/** Turns anything thrown into a failure envelope (code kept for ToolErrors and rebuilt ones). */
function failure(error: unknown): { ok: false; code: ToolErrorCode; message: string; details?: Record<string, unknown> } {
  const toolError = toToolError(error);
  const envelope: { ok: false; code: ToolErrorCode; message: string; details?: Record<string, unknown> } = {
    ok: false,
    code: toolError.code,
    message: toolError.message,
  };
  if (toolError.details !== undefined) envelope.details = toolError.details;
  return envelope;
}

function fail(code: ToolErrorCode, message: string): { ok: false; code: ToolErrorCode; message: string } {
  return { ok: false, code, message };
}

/** Rebuilds the {@link ToolError} a failure envelope describes (an unknown code becomes `execution_failed`). */
function toError(envelope: { code: unknown; message: unknown; details?: Record<string, unknown> }): ToolError {
  const code = isToolErrorCode(envelope.code) ? envelope.code : 'execution_failed';
  const message = typeof envelope.message === 'string' ? envelope.message : 'the tool worker failed without a message';
  return new ToolError(code, message, envelope.details);
}

function newIdSource(): () => string {
  const prefix = Math.random().toString(36).slice(2, 10);
  let n = 0;
  return () => `${prefix}-${(n += 1)}`;
}

// ---------------------------------------------------------------------------------------------------
// Worker side
// ---------------------------------------------------------------------------------------------------

/** What a {@link ToolRunnerSetup} is given: the sink for `ctx.send` messages bound to this connection. */
export interface WorkerBridge {
  /** Pass it as the runner's `onMessage` so `ctx.send` messages reach the host's `onMessage`. */
  onMessage(message: ToolMessage): void;
}

/**
 * Builds the worker's runner (sync or async), typically from a persistent platform so that a restarted
 * worker finds every acknowledged file and state value: `({ onMessage }) => new ToolRunner({ platform,
 * tools: BuiltinTools.all(), onMessage })`. It runs once per exposure, i.e. once per worker start.
 */
export type ToolRunnerSetup = (bridge: WorkerBridge) => ToolRunner | Promise<ToolRunner>;

/** The handle {@link exposeToolRunner} returns. */
export interface ExposedToolRunner {
  /** The served runner, once set up (rejects when the setup threw). */
  readonly runner: Promise<ToolRunner>;
  /** Forwards a {@link ToolMessage} to the host; give it as `onMessage` to a runner built before exposing. */
  relay(message: ToolMessage): void;
}

/**
 * Serves a {@link ToolRunner} over a comlink endpoint (SPEC §7): declarations, execute,
 * processToolCalls, register (page-side tools: the worker registers a Tool whose calls are forwarded to
 * the page), unregister, cancellation, and `ctx.send` messages to the host's `onMessage`.
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
export function exposeToolRunner(target: ToolRunner | ToolRunnerSetup, endpoint?: Endpoint): ExposedToolRunner {
  const ep: Endpoint = endpoint ?? (globalThis as unknown as Endpoint);
  // Throws (DataCloneError) for a message that cannot be cloned: the tool's `send` then rejects.
  const post = (notice: WorkerNotice): void => ep.postMessage(notice);
  const relay = (message: ToolMessage): void => post({ toolhost: 'message', message });
  const runner: Promise<ToolRunner> =
    typeof target === 'function' ? Promise.resolve().then(() => target({ onMessage: relay })) : Promise.resolve(target);
  runner.catch(() => undefined);
  // The runner once set up: requests then run at once instead of after an `await` of the setup.
  let served: ToolRunner | undefined;
  void runner.then(
    (ready) => (served = ready),
    () => undefined,
  );

  const controllers = new Map<string, AbortController>();
  const pageCalls = new Map<string, (envelope: RemoteEnvelope<unknown>) => void>();
  const nextId = newIdSource();

  /** Runs `fn` on the runner (waiting for the setup while it runs); never rejects. */
  const withRunner = <T>(fn: (runner: ToolRunner) => Promise<RemoteEnvelope<T>>): Promise<RemoteEnvelope<T>> => {
    const run = (ready: ToolRunner): Promise<RemoteEnvelope<T>> => {
      try {
        return fn(ready).catch(failure);
      } catch (error) {
        return Promise.resolve(failure(error));
      }
    };
    if (served) return run(served);
    return runner.then(run, (error: unknown) =>
      fail('unavailable', `the tool worker could not set up its runner: ${toToolError(error).message}`),
    );
  };
  const succeed = <T>(value: T): RemoteEnvelope<T> => ({ ok: true, value });

  /**
   * Runs a call with the runner's per-call options. Only a call that carries a `requestId` (the host
   * can cancel it) gets an AbortController, registered before any await so that a cancel notice
   * following the request always finds it; the others run without a signal (the runner's fast path).
   */
  const call = <T>(options: WireCallOptions | undefined, fn: (runner: ToolRunner, callOptions: CallOptions) => Promise<T>): Promise<RemoteEnvelope<T>> => {
    const callOptions = wireToCall(options);
    const requestId = options?.requestId;
    if (typeof requestId !== 'string') return withRunner((r) => fn(r, callOptions).then(succeed));
    const controller = new AbortController();
    controllers.set(requestId, controller);
    callOptions.signal = controller.signal;
    return withRunner((r) => fn(r, callOptions).then(succeed)).finally(() => controllers.delete(requestId));
  };

  const pageTool = (descriptor: PageToolDescriptor): Tool => ({
    name: descriptor.name,
    description: descriptor.description,
    parameters: descriptor.parameters,
    readOnly: descriptor.readOnly ?? false,
    concurrencySafe: descriptor.concurrencySafe ?? descriptor.readOnly ?? false,
    // Always with a context: the call needs its id and signal to reach and cancel the page side.
    needsContext: true,
    call: async () => {
      throw new ToolError('execution_failed', `${descriptor.name} runs on the page; call it through the runner`);
    },
    callWithContext: (args: unknown, ctx: ToolContext) =>
      new Promise<unknown>((resolve, reject) => {
        const pageCallId = nextId();
        const onAbort = (): void => {
          pageCalls.delete(pageCallId);
          const reason = toToolError(ctx.signal.reason);
          post({ toolhost: 'page_cancel', pageCallId, code: reason.code, message: reason.message });
          reject(reason);
        };
        pageCalls.set(pageCallId, (envelope) => {
          pageCalls.delete(pageCallId);
          ctx.signal.removeEventListener('abort', onAbort);
          if (envelope.ok) resolve(envelope.value);
          else reject(toError(envelope));
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
          },
        });
      }),
  });

  ep.addEventListener('message', (event) => {
    const data: unknown = (event as MessageEvent).data;
    if (!isNotice(data)) return;
    if (data.toolhost === 'cancel') {
      controllers.get(data.requestId)?.abort(new ToolError('cancelled', 'the host cancelled the call'));
    } else if (data.toolhost === 'page_result') {
      pageCalls.get(data.pageCallId)?.(data.envelope);
    }
  });

  const api: ToolRunnerWorkerApi = {
    ping: async () => 'pong',
    hello: () => withRunner(async (r) => ({ ok: true, value: { tools: r.declarations().length } })),
    declarations: () => withRunner(async (r) => ({ ok: true, value: r.declarations() })),
    execute: (request) => call(request, (r, callOptions) => r.execute(request?.name, request?.args, callOptions)),
    processToolCalls: (request) => call(request, (r, callOptions) => r.processToolCalls(request?.calls, callOptions)),
    register: (descriptor) =>
      withRunner(async (r) => {
        if (typeof descriptor !== 'object' || descriptor === null || typeof descriptor.name !== 'string') {
          return fail('invalid_arguments', 'register takes a tool with name, description and parameters');
        }
        await r.register(pageTool(descriptor));
        return { ok: true, value: null };
      }),
    unregister: (name) => withRunner(async (r) => ({ ok: true, value: r.unregister(name) })),
  };
  expose(api, ep);
  // Also after a failed setup: the host's hello then reports the failure.
  const announce = (): void => {
    try {
      post({ toolhost: 'ready' });
    } catch {
      // the endpoint is closed: nobody to tell
    }
  };
  void runner.then(announce, announce);
  return { runner, relay };
}

function wireToCall(options: WireCallOptions | undefined): CallOptions {
  const out: CallOptions = {};
  if (typeof options?.conversationId === 'string') out.conversationId = options.conversationId;
  if (typeof options?.timeoutMs === 'number') out.timeoutMs = options.timeoutMs;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Host (page) side
// ---------------------------------------------------------------------------------------------------

/** Host-side grace after a deadline before the worker is probed, in ms (also the probe's own budget). */
export const REMOTE_GRACE_MS = 250;

/** Options of {@link connectToolRunner}; all optional. */
export interface ConnectToolRunnerOptions {
  /** Deadline in ms for calls that give no `timeoutMs` (default: none; the worker's runner may have its own). */
  defaultTimeoutMs?: number;
  /**
   * Grace in ms (default {@link REMOTE_GRACE_MS} = 250). A call still unanswered `timeoutMs + graceMs`
   * after it was sent makes the host probe the worker; a probe unanswered for `graceMs` more means the
   * worker is hung: it is terminated and (with a factory) replaced. Worst case for a hung worker:
   * `timeoutMs + 2 × graceMs` until the call resolves with `timeout`.
   */
  graceMs?: number;
  /** How long a new worker may take to set up its runner, in ms (default 30000); then `unavailable`. */
  startupTimeoutMs?: number;
  /**
   * Deadline in ms of `declarations`, `register` and `unregister` (default 10000). A live but busy
   * worker is never killed for it; only one that does not answer the probe.
   */
  controlTimeoutMs?: number;
  /**
   * Ends a worker (default: `endpoint.terminate()` where it exists, as on a browser Worker, else
   * `endpoint.close()`, as on a MessagePort: a SharedWorker cannot be ended from a page, only left).
   */
  terminate?: (endpoint: Endpoint) => void | Promise<void>;
  /**
   * Watches a worker for an unexpected end (Node: the Worker's `exit`; browser: its `error` event):
   * call `onExit(reason)` then; in-flight calls get `unavailable` and the worker is replaced. Returns
   * an optional unsubscribe.
   */
  watch?: (endpoint: Endpoint, onExit: (reason: string) => void) => (() => void) | void;
  /** Receives `ctx.send` messages of worker-side and page-side tools (as {@link RemoteToolRunner.onMessage}). */
  onMessage?: (message: ToolMessage) => void | Promise<void>;
  /** Told after a hung or crashed worker was replaced; `restarts` counts replacements so far. */
  onRestart?: (event: { reason: string; restarts: number }) => void;
}

/** Lifecycle of a {@link RemoteToolRunner}. */
export type RemoteToolRunnerStatus = 'starting' | 'ready' | 'unavailable' | 'terminated';

/**
 * A {@link ToolRunner} in a worker, used from the page or a Node host (SPEC §7). Same result shapes as
 * the runner: `execute` resolves with the tool's output or rejects with a {@link ToolError} whose
 * `code` survived the boundary; `processToolCalls` never rejects. Host-side failures use the same codes:
 * `timeout` (the worker hung past the deadline and was replaced), `cancelled` (the signal fired),
 * `unavailable` (the worker died or was replaced while the call was in flight, could not start, the
 * runner was terminated, or a hung worker given as a plain endpoint could not be replaced).
 */
export interface RemoteToolRunner {
  /** The worker runner's declarations, page-side tools included; rejects with a ToolError (`unavailable`, `timeout`). */
  declarations(): Promise<FunctionDeclaration[]>;
  /** Runs one call in the worker; the output, or rejects with a ToolError (codes as {@link ToolRunner.execute}). */
  execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
  /** Runs a batch in the worker (ordering and concurrency as {@link ToolRunner.processToolCalls}); never rejects. */
  processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]>;
  /**
   * Registers a tool that runs here, on the page: the worker validates its arguments and applies
   * permissions, then forwards the call. Kept across worker restarts. A `needsContext` tool gets a
   * page-side context: `conversationId`, `callId`, `signal`, `cwd`, `planMode`, `verbose`, `isIdle()`
   * and `send`; `fs`, `platform`, state and the caches live in the worker and throw `unavailable`.
   * Rejects with `invalid_arguments` for a bad name or schema.
   */
  register(tool: Tool<never, unknown> | Tool): Promise<void>;
  /** Removes a tool (worker-side or page-side) by name; true when one was registered. */
  unregister(name: string): Promise<boolean>;
  /** Adds a receiver of `ctx.send` messages; returns its unsubscribe. */
  onMessage(handler: (message: ToolMessage) => void | Promise<void>): () => void;
  /** Ends the worker; later calls resolve with `unavailable`. */
  terminate(): Promise<void>;
  /** Current lifecycle state. */
  readonly status: RemoteToolRunnerStatus;
  /** How many times a hung or crashed worker (one that had been serving) was replaced. */
  readonly restarts: number;
}

interface PendingRequest {
  started: boolean;
  startedAt: number;
  deadlineMs: number | undefined;
  settle(envelope: RemoteEnvelope<never>): void;
}

/** The worker's methods as comlink proxies, each read once per worker (see `start`). */
type WorkerMethods = Pick<Remote<ToolRunnerWorkerApi>, keyof ToolRunnerWorkerApi>;

interface Session {
  endpoint: Endpoint;
  api: WorkerMethods;
  ready: Promise<void>;
  isReady: boolean;
  dead: boolean;
  died: Promise<void>;
  markDead(): void;
  requests: Set<PendingRequest>;
  pageRuns: Map<string, AbortController>;
  probe: Promise<boolean> | undefined;
  dispose(): void;
}

type KillKind = 'hung' | 'exit' | 'startup' | 'terminated';

/**
 * Connects to a worker that called {@link exposeToolRunner} and returns a {@link RemoteToolRunner}
 * (SPEC §7). `workerOrFactory` is a comlink endpoint (a Worker, a MessagePort) or a factory that
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
export function connectToolRunner(
  workerOrFactory: Endpoint | (() => Endpoint),
  options: ConnectToolRunnerOptions = {},
): RemoteToolRunner {
  const factory = typeof workerOrFactory === 'function' ? workerOrFactory : undefined;
  const graceMs = options.graceMs ?? REMOTE_GRACE_MS;
  const startupTimeoutMs = options.startupTimeoutMs ?? 30_000;
  const controlTimeoutMs = options.controlTimeoutMs ?? 10_000;
  const terminateHook =
    options.terminate ??
    ((endpoint: Endpoint): void => {
      const ending = endpoint as Endpoint & { terminate?: () => void; close?: () => void };
      if (typeof ending.terminate === 'function') ending.terminate();
      else if (typeof ending.close === 'function') ending.close();
    });
  const handlers = new Set<(message: ToolMessage) => void | Promise<void>>();
  if (options.onMessage) handlers.add(options.onMessage);
  const pageTools = new Map<string, { tool: Tool; descriptor: PageToolDescriptor }>();
  const nextId = newIdSource();

  let current: Session | undefined;
  let unavailableReason: string | undefined;
  let terminated = false;
  let restarts = 0;
  let firstEndpoint: Endpoint | undefined = factory ? undefined : (workerOrFactory as Endpoint);

  const deliver = (message: ToolMessage): void => {
    for (const handler of [...handlers]) {
      try {
        void Promise.resolve(handler(message)).catch(() => undefined);
      } catch {
        // A throwing handler must not break the channel or other handlers.
      }
    }
  };

  const runPageTool = (session: Session, notice: Extract<WorkerNotice, { toolhost: 'page_call' }>): void => {
    const reply = (envelope: RemoteEnvelope<unknown>): void => {
      session.pageRuns.delete(notice.pageCallId);
      if (session.dead) return;
      const message: HostNotice = { toolhost: 'page_result', pageCallId: notice.pageCallId, envelope };
      try {
        session.endpoint.postMessage(message);
      } catch (error) {
        session.endpoint.postMessage({
          toolhost: 'page_result',
          pageCallId: notice.pageCallId,
          envelope: fail('execution_failed', `${notice.name} returned a value that cannot cross to the worker: ${toToolError(error).message}`),
        } satisfies HostNotice);
      }
    };
    const entry = pageTools.get(notice.name);
    if (!entry) {
      reply(fail('unknown_tool', `page-side tool "${notice.name}" is no longer registered on the page`));
      return;
    }
    const controller = new AbortController();
    session.pageRuns.set(notice.pageCallId, controller);
    const { tool } = entry;
    const useContext = tool.needsContext === true && typeof tool.callWithContext === 'function';
    Promise.resolve()
      .then(() =>
        useContext
          ? (tool.callWithContext as NonNullable<Tool['callWithContext']>)(notice.args, pageContext(notice.info, controller.signal, notice.name, deliver))
          : tool.call(notice.args),
      )
      .then(
        (value): RemoteEnvelope<unknown> => ({ ok: true, value: value === undefined ? null : value }),
        (error: unknown) => failure(error),
      )
      .then(reply);
  };

  /** Ends a session: settles its calls, terminates its worker (the returned promise), maybe starts the next. */
  const kill = (session: Session, kind: KillKind, message: string): Promise<void> => {
    if (session.dead) return Promise.resolve();
    const wasReady = session.isReady;
    session.markDead();
    session.dispose();
    for (const controller of session.pageRuns.values()) controller.abort(new ToolError('cancelled', message));
    session.pageRuns.clear();
    const now = Date.now();
    for (const request of [...session.requests]) {
      const overdue =
        kind === 'hung' && request.started && request.deadlineMs !== undefined && now - request.startedAt >= request.deadlineMs;
      request.settle(overdue ? fail('timeout', message) : fail('unavailable', message));
    }
    session.requests.clear();
    const ended = Promise.resolve()
      .then(() => terminateHook(session.endpoint))
      .catch(() => undefined);
    if (current === session) current = undefined;
    if (terminated || kind === 'terminated') return ended;
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
      } catch {
        current = undefined;
      }
      try {
        options.onRestart?.({ reason: message, restarts });
      } catch {
        // observer errors are not ours to handle
      }
    }
    return ended;
  };

  const start = (endpoint: Endpoint): Session => {
    const proxy = wrap<ToolRunnerWorkerApi>(endpoint);
    // Every property read of a comlink proxy makes a new proxy and registers it for finalization: read
    // each method once here, not once per call.
    const api: WorkerMethods = {
      ping: proxy.ping,
      hello: proxy.hello,
      declarations: proxy.declarations,
      execute: proxy.execute,
      processToolCalls: proxy.processToolCalls,
      register: proxy.register,
      unregister: proxy.unregister,
    };
    let markDead!: () => void;
    const died = new Promise<void>((resolve) => (markDead = resolve));
    let readyNotice!: () => void;
    const noticed = new Promise<void>((resolve) => (readyNotice = resolve));
    const session: Session = {
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
    const listener = (event: Event): void => {
      const data: unknown = (event as MessageEvent).data;
      if (!isNotice(data) || session.dead) return;
      if (data.toolhost === 'ready') readyNotice();
      else if (data.toolhost === 'message') deliver(data.message);
      else if (data.toolhost === 'page_call') runPageTool(session, data);
      else if (data.toolhost === 'page_cancel') {
        session.pageRuns.get(data.pageCallId)?.abort(new ToolError(isToolErrorCode(data.code) ? data.code : 'cancelled', data.message));
      }
    };
    endpoint.addEventListener('message', listener as EventListener);
    // A MessagePort (a SharedWorker's port) delivers nothing to addEventListener until started.
    endpoint.start?.();
    let unwatch: (() => void) | void = undefined;
    try {
      unwatch = options.watch?.(endpoint, (reason) => kill(session, 'exit', `the tool worker exited (${reason}); retry the call`));
    } catch {
      unwatch = undefined;
    }
    session.dispose = () => {
      endpoint.removeEventListener('message', listener as EventListener);
      try {
        unwatch?.();
      } catch {
        // ignore
      }
    };
    const startupTimer = setTimeout(
      () => kill(session, 'startup', `the tool worker did not start within ${startupTimeoutMs} ms`),
      startupTimeoutMs,
    );
    const deadError = (): ToolError => new ToolError('unavailable', 'the tool worker ended before it was ready; retry the call');
    session.ready = (async () => {
      try {
        // Either the worker's hello answers (messages were queued until it listened), or its ready
        // notice arrives first (a browser worker may drop messages sent before its module ran): then ask again.
        const hello = (): Promise<RemoteEnvelope<{ tools: number }>> => api.hello();
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
        for (const { descriptor } of [...pageTools.values()]) {
          const registered = await Promise.race([
            api.register(descriptor),
            died.then(() => {
              throw deadError();
            }),
          ]);
          // A page tool the new worker refuses stays listed here; its calls fail in the worker.
          void registered;
        }
        if (session.dead) throw deadError();
        session.isReady = true;
      } finally {
        clearTimeout(startupTimer);
      }
    })();
    session.ready.catch(() => undefined);
    return session;
  };

  const acquire = (): Session => {
    if (terminated) throw new ToolError('unavailable', 'the remote tool runner was terminated');
    if (unavailableReason !== undefined) {
      throw new ToolError(
        'unavailable',
        `the tool worker is unavailable: ${unavailableReason}. It was given as a plain endpoint and cannot be replaced; pass a factory (() => new Worker(...)) to connectToolRunner so a hung worker is restarted`,
      );
    }
    if (current && !current.dead) return current;
    if (firstEndpoint) {
      const endpoint = firstEndpoint;
      firstEndpoint = undefined;
      current = start(endpoint);
      return current;
    }
    if (!factory) throw new ToolError('unavailable', 'the tool worker has ended');
    current = start(factory());
    return current;
  };

  const probe = (session: Session): Promise<boolean> => {
    if (!session.probe) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      session.probe = Promise.race([
        session.api.ping().then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
        session.died.then(() => false),
      ]).finally(() => {
        clearTimeout(timer);
        session.probe = undefined;
      });
    }
    return session.probe;
  };

  /** Sends one request; resolves with its envelope, never rejects. */
  const request = <T>(spec: {
    label: string;
    deadlineMs: number | undefined;
    signal: AbortSignal | undefined;
    /** Sends the request; `requestId` is set only when `signal` is (the call can be cancelled). */
    invoke: (api: WorkerMethods, requestId: string | undefined) => Promise<RemoteEnvelope<T>>;
  }): Promise<RemoteEnvelope<T>> => {
    const { label, deadlineMs, signal } = spec;
    if (signal?.aborted) return Promise.resolve(fail('cancelled', `${label} was cancelled before it started`));
    let session: Session;
    try {
      session = acquire();
    } catch (error) {
      return Promise.resolve(failure(error));
    }
    return new Promise<RemoteEnvelope<T>>((resolve) => {
      let done = false;
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      let abortTimer: ReturnType<typeof setTimeout> | undefined;
      let requestId: string | undefined;
      const pending: PendingRequest = {
        started: false,
        startedAt: 0,
        deadlineMs,
        settle: (envelope) => finish(envelope),
      };
      const onAbort = (): void => {
        if (done) return;
        if (!pending.started || requestId === undefined || session.dead) {
          finish(fail('cancelled', `${label} was cancelled`));
          return;
        }
        try {
          session.endpoint.postMessage({ toolhost: 'cancel', requestId } satisfies HostNotice);
        } catch {
          // the worker is gone; the timer below answers
        }
        abortTimer = setTimeout(() => finish(fail('cancelled', `${label} was cancelled`)), graceMs);
      };
      function finish(envelope: RemoteEnvelope<T> | RemoteEnvelope<never>): void {
        if (done) return;
        done = true;
        clearTimeout(watchdog);
        clearTimeout(abortTimer);
        signal?.removeEventListener('abort', onAbort);
        session.requests.delete(pending);
        resolve(envelope as RemoteEnvelope<T>);
      }
      session.requests.add(pending);
      signal?.addEventListener('abort', onAbort, { once: true });
      const send = (): void => {
        if (done) return;
        if (session.dead) {
          finish(fail('unavailable', 'the tool worker ended; retry the call'));
          return;
        }
        if (signal) requestId = nextId();
        pending.started = true;
        pending.startedAt = Date.now();
        let sent: Promise<RemoteEnvelope<T>>;
        try {
          sent = spec.invoke(session.api, requestId);
        } catch (error) {
          sent = Promise.reject(error);
        }
        sent.then(
          (envelope) => finish(isEnvelope(envelope) ? envelope : fail('execution_failed', 'the tool worker answered with something that is not a toolhost envelope')),
          (error: unknown) => finish(sendFailure(error, label)),
        );
        if (deadlineMs !== undefined) {
          const check = (): void => {
            if (done || session.dead) return;
            void probe(session).then((alive) => {
              if (done || session.dead) return;
              if (alive) {
                watchdog = setTimeout(check, deadlineMs + graceMs);
                return;
              }
              kill(
                session,
                'hung',
                factory
                  ? `${label} did not finish within ${deadlineMs} ms and the tool worker stopped responding; it was terminated and restarted (acknowledged files and state are kept). Narrow the request or raise timeoutMs`
                  : `${label} did not finish within ${deadlineMs} ms and the tool worker stopped responding; it was terminated`,
              );
            });
          };
          watchdog = setTimeout(check, deadlineMs + graceMs);
        }
      };
      // A ready worker gets the request now; a starting one once its runner is set up.
      if (session.isReady) send();
      else session.ready.then(send, (error: unknown) => finish(failure(error)));
    });
  };

  const control = <T>(label: string, invoke: (api: WorkerMethods) => Promise<RemoteEnvelope<T>>): Promise<RemoteEnvelope<T>> =>
    request({ label, deadlineMs: controlTimeoutMs, signal: undefined, invoke: (api) => invoke(api) });

  const deadlineOf = (callOptions: CallOptions | undefined): number | undefined => {
    const ms = callOptions?.timeoutMs ?? options.defaultTimeoutMs;
    return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
  };

  /** Adds the wire options to a request (only those that are set: the request is cloned across). */
  const wire = <R extends object>(request: R, callOptions: CallOptions | undefined, deadlineMs: number | undefined, requestId: string | undefined): R & WireCallOptions => {
    const out: R & WireCallOptions = request;
    if (typeof callOptions?.conversationId === 'string') out.conversationId = callOptions.conversationId;
    if (deadlineMs !== undefined) out.timeoutMs = deadlineMs;
    if (requestId !== undefined) out.requestId = requestId;
    return out;
  };

  // Start the worker now, so that it sets up while the host does other work.
  if (factory) {
    try {
      current = start(factory());
    } catch {
      current = undefined; // the first call retries and reports the factory's error
    }
  } else {
    acquire();
  }

  const remote: RemoteToolRunner = {
    get status(): RemoteToolRunnerStatus {
      if (terminated) return 'terminated';
      if (unavailableReason !== undefined) return 'unavailable';
      return current?.isReady ? 'ready' : 'starting';
    },
    get restarts(): number {
      return restarts;
    },

    async declarations() {
      const envelope = await control('declarations', (api) => api.declarations());
      if (envelope.ok) return envelope.value;
      throw toError(envelope);
    },

    async execute(name, args, callOptions) {
      const deadlineMs = deadlineOf(callOptions);
      const envelope = await request({
        label: typeof name === 'string' ? name : 'execute',
        deadlineMs,
        signal: callOptions?.signal,
        invoke: (api, requestId) => api.execute(wire({ name, args }, callOptions, deadlineMs, requestId)),
      });
      if (envelope.ok) return envelope.value;
      throw toError(envelope);
    },

    async processToolCalls(calls, callOptions) {
      if (!Array.isArray(calls)) {
        return [{ name: '', error: 'processToolCalls takes an array of { id?, name, args }', code: 'invalid_arguments' }];
      }
      const deadlineMs = deadlineOf(callOptions);
      const envelope = await request({
        label: calls.length === 1 ? String((calls[0] as ToolCall | undefined)?.name) : `a batch of ${calls.length} tool calls`,
        deadlineMs,
        signal: callOptions?.signal,
        invoke: (api, requestId) => api.processToolCalls(wire({ calls }, callOptions, deadlineMs, requestId)),
      });
      if (envelope.ok) return envelope.value;
      return calls.map((call): ToolCallResult => {
        const id = typeof call === 'object' && call !== null && typeof call.id === 'string' ? call.id : undefined;
        const name = typeof call === 'object' && call !== null && typeof call.name === 'string' ? call.name : '';
        const result = { name, error: envelope.message, code: envelope.code };
        return id === undefined ? result : { id, ...result };
      });
    },

    async register(tool) {
      const candidate = tool as Tool;
      if (typeof candidate !== 'object' || candidate === null || typeof candidate.name !== 'string') {
        throw new ToolError('invalid_arguments', 'register takes a Tool: an object with name, description, parameters and call');
      }
      if (typeof candidate.call !== 'function' && typeof candidate.callWithContext !== 'function') {
        throw new ToolError('invalid_arguments', `tool ${candidate.name} has neither call nor callWithContext`);
      }
      const descriptor: PageToolDescriptor = {
        name: candidate.name,
        description: candidate.description,
        parameters: candidate.parameters,
        readOnly: candidate.readOnly ?? false,
        concurrencySafe: candidate.concurrencySafe ?? candidate.readOnly ?? false,
      };
      const envelope = await control(`register(${candidate.name})`, (api) => api.register(descriptor));
      if (!envelope.ok) throw toError(envelope);
      pageTools.set(candidate.name, { tool: candidate, descriptor });
    },

    async unregister(name) {
      pageTools.delete(name);
      const envelope = await control(`unregister(${name})`, (api) => api.unregister(name));
      if (envelope.ok) return envelope.value;
      throw toError(envelope);
    },

    onMessage(handler) {
      handlers.add(handler);
      return () => {
        handlers.delete(handler);
      };
    },

    async terminate() {
      if (terminated) return;
      terminated = true;
      const session = current;
      current = undefined;
      const endpoint = firstEndpoint;
      firstEndpoint = undefined;
      if (session) await kill(session, 'terminated', 'the remote tool runner was terminated');
      if (endpoint) await Promise.resolve(terminateHook(endpoint)).catch(() => undefined);
    },
  };
  return remote;
}

function isEnvelope(value: unknown): value is RemoteEnvelope<never> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/** A request that could not be sent: arguments that cannot be cloned are the caller's mistake. */
function sendFailure(error: unknown, label: string): RemoteEnvelope<never> {
  if ((error as { name?: unknown } | null)?.name === 'DataCloneError') {
    return fail('invalid_arguments', `${label}: the arguments cannot be sent to the tool worker (${toToolError(error).message}); pass JSON values`);
  }
  return failure(error);
}

/** The context a page-side `needsContext` tool receives: the call's plain fields, plus `send`. */
function pageContext(
  info: PageCallInfo,
  signal: AbortSignal,
  tool: string,
  deliver: (message: ToolMessage) => void,
): ToolContext {
  const inWorker = (member: string): never => {
    throw new ToolError(
      'unavailable',
      `ctx.${member} lives in the tool worker; page-side tool ${tool} cannot use it (register the tool in the worker instead)`,
    );
  };
  return {
    conversationId: info.conversationId,
    callId: info.callId,
    signal,
    cwd: info.cwd,
    planMode: info.planMode,
    verbose: info.verbose,
    isIdle: () => info.idle,
    async send(message: JsonValue) {
      deliver({ conversationId: info.conversationId, callId: info.callId, tool, message });
    },
    get fs() {
      return inWorker('fs');
    },
    get platform() {
      return inWorker('platform');
    },
    get permissions() {
      return inWorker('permissions');
    },
    get fileCache() {
      return inWorker('fileCache');
    },
    get denialTracker() {
      return inWorker('denialTracker');
    },
    get hooks() {
      return inWorker('hooks');
    },
    getState: () => inWorker('getState'),
    setState: () => inWorker('setState'),
    withPathLock: () => inWorker('withPathLock'),
  };
}
