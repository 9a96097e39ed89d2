/**
 * The worker side of the bridge: serves a {@link ToolRunner} over a comlink endpoint (see
 * protocol.ts for the wire format).
 */
import { expose, type Endpoint } from 'comlink';
import { ToolError, toToolError } from '../core/errors.js';
import type { CallOptions, ToolMessage, ToolRunner } from '../core/runner.js';
import type { ExecuteTool, ToolContext } from '../core/tool.js';
import { parseSchema } from '../core/validation.js';
import {
  JOURNAL_METHODS,
  fail,
  failure,
  isNotice,
  newIdSource,
  toError,
  wireToCall,
  type JournalMethod,
  type PageToolDescriptor,
  type RemoteEnvelope,
  type ToolRunnerWorkerApi,
  type WireCallOptions,
  type WorkerNotice,
} from './protocol.js';

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
  /**
   * Resolves when the page has left: it sent `bye` (its `terminate()`), or the endpoint reported
   * `close` (a MessagePort whose other end closed, where the browser reports it). A SharedWorker uses it
   * to forget a closed tab.
   */
  readonly closed: Promise<void>;
}

/**
 * Serves a {@link ToolRunner} over a comlink endpoint: tools, declarations, execute,
 * processToolCalls, register (page-side tools: the worker registers a Tool whose calls are forwarded to
 * the page), unregister, setPermissions, setPlanMode, the journal (changes, rewind, cassette, replay)
 * and review (pendingChanges, accept, reject), cancellation, and `ctx.send` messages to the host's `onMessage`.
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
    // One `then` from the runner's promise to the envelope comlink sends (a call is the bridge's hot path).
    const run = (ready: ToolRunner): Promise<RemoteEnvelope<T>> => {
      try {
        return fn(ready, callOptions).then(succeed, failure);
      } catch (error) {
        return Promise.resolve(failure(error));
      }
    };
    const requestId = options?.requestId;
    if (typeof requestId !== 'string') return served ? run(served) : withRunner(run);
    const controller = new AbortController();
    controllers.set(requestId, controller);
    callOptions.signal = controller.signal;
    return withRunner(run).finally(() => controllers.delete(requestId));
  };

  const pageTool = (descriptor: PageToolDescriptor): ExecuteTool => pageSideTool(descriptor, { post, pageCalls, nextId });

  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let isClosed = false;
  const close = (): void => {
    if (isClosed) return;
    isClosed = true;
    for (const controller of controllers.values()) controller.abort(new ToolError('cancelled', 'the page left'));
    markClosed();
  };
  ep.addEventListener('close' as 'message', close);
  ep.addEventListener('message', (event) => {
    const data: unknown = (event as MessageEvent).data;
    if (!isNotice(data)) return;
    if (data.toolhost === 'bye') {
      close();
    } else if (data.toolhost === 'cancel') {
      controllers.get(data.requestId)?.abort(new ToolError('cancelled', 'the host cancelled the call'));
    } else if (data.toolhost === 'page_result') {
      pageCalls.get(data.pageCallId)?.(data.envelope);
    }
  });

  const api: ToolRunnerWorkerApi = {
    ping: async () => 'pong',
    hello: () => withRunner(async (r) => ({ ok: true, value: { tools: r.declarations().length } })),
    declarations: () => withRunner(async (r) => ({ ok: true, value: r.declarations() })),
    tools: () => withRunner(async (r) => ({ ok: true, value: r.tools() })),
    setPermissions: (policy) =>
      withRunner(async (r) => {
        r.setPermissions(policy);
        return { ok: true, value: null };
      }),
    setPlanMode: (on) =>
      withRunner(async (r) => {
        r.setPlanMode(on);
        return { ok: true, value: null };
      }),
    execute: (request) => call(request, (r, callOptions) => r.execute(request?.name, request?.args, callOptions)),
    processToolCalls: (request) => call(request, (r, callOptions) => r.processToolCalls(request?.calls, callOptions)),
    register: (descriptor) =>
      withRunner(async (r) => {
        if (typeof descriptor !== 'object' || descriptor === null || typeof descriptor.name !== 'string') {
          return fail('invalid_arguments', 'register takes a tool with name, description and parameters');
        }
        try {
          await r.register(pageTool(descriptor));
        } catch (error) {
          if (error instanceof TypeError) return { ok: false, code: 'unavailable', message: error.message, typeError: true };
          throw error;
        }
        return { ok: true, value: null };
      }),
    unregister: (name) => withRunner(async (r) => ({ ok: true, value: r.unregister(name) })),
    journal: (request) => withRunner((r) => journalCall(r, request)),
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
  return { runner, relay, closed };
}

/**
 * Runs one of the runner's journal, review or replay methods for the host. The runner's TypeErrors
 * (thrown or rejected: a bad selection, no journal, no review) answer with `typeError: true`, so the
 * host throws a TypeError again; other errors keep their ToolError code.
 */
async function journalCall(runner: ToolRunner, request: { method: JournalMethod; args: unknown[] } | undefined): Promise<RemoteEnvelope<unknown>> {
  const method = request?.method;
  const args = request?.args;
  if (typeof method !== 'string' || !JOURNAL_METHODS.has(method) || !Array.isArray(args)) {
    return fail('invalid_arguments', `journal takes { method, args } with method one of ${[...JOURNAL_METHODS].join(', ')}`);
  }
  try {
    const fn = runner[method as JournalMethod] as (...values: unknown[]) => Promise<unknown>;
    return { ok: true, value: await fn.apply(runner, args) };
  } catch (error) {
    if (error instanceof TypeError) return { ok: false, code: 'invalid_arguments', message: error.message, typeError: true };
    return failure(error);
  }
}

/**
 * The worker's stand-in for a tool that runs on the page: the worker's runner validates its arguments
 * and applies permissions, then the call is posted to the page and its answer awaited; an abort of the
 * call's signal posts a `page_cancel`.
 */
function pageSideTool(
  descriptor: PageToolDescriptor,
  wiring: { post(notice: WorkerNotice): void; pageCalls: Map<string, (envelope: RemoteEnvelope<unknown>) => void>; nextId(): string },
): ExecuteTool {
  const { post, pageCalls, nextId } = wiring;
  const readOnly = descriptor.readOnly === true || descriptor.annotations?.readOnlyHint === true;
  return {
    name: descriptor.name,
    description: descriptor.description,
    inputSchema: parseSchema(descriptor.name, descriptor.parameters),
    annotations: { ...descriptor.annotations, readOnlyHint: readOnly },
    concurrencySafe: descriptor.concurrencySafe ?? readOnly,
    ...(descriptor.outputSchema ? { outputSchema: descriptor.outputSchema } : {}),
    // The call's id and signal (from its context) reach and cancel the page side.
    execute: (args: unknown, ctx: ToolContext) =>
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
            ...(ctx.deadline === undefined ? {} : { deadline: ctx.deadline }),
          },
        });
      }),
  };
}
