/**
 * The page side of the bridge: {@link connectToolRunner} gives a {@link RemoteToolRunner} whose calls
 * run in a worker that called exposeToolRunner. The worker sessions and their watchdog live in
 * session.ts, page-side tools in page-tools.ts, the wire format in protocol.ts.
 */
import type { Endpoint } from 'comlink';
import type { ToolHost, ToolInfo } from '../core/host.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult, ToolMessage } from '../core/runner.js';
import type { AnyTool } from '../core/tool.js';
import { checkCallOptions, checkOptions, checkToolCalls, is, type OptionRules } from '../core/options.js';
import { permissionPolicyRule } from '../core/permissions.js';
import { pageTool, runPageTool, type PageTool } from './page-tools.js';
import type {
  AcceptResult,
  Cassette,
  ConversationChanges,
  PendingChanges,
  RejectOptions,
  RejectResult,
  ReplayResult,
  ReviewSelection,
  RewindOptions,
  RewindResult,
} from '../core/journal-port.js';
import { toError, type JournalMethod, type RemoteEnvelope, type WireCallOptions, type WirePermissionPolicy } from './protocol.js';
import { startWorkerSessions, type RemoteToolRunnerStatus, type RequestSpec, type SessionSettings, type WorkerMethods } from './session.js';

export type { RemoteToolRunnerStatus } from './session.js';

/** Host-side grace after a deadline before the worker is probed, in ms (also the probe's own budget). */
export const REMOTE_GRACE_MS = 250;

/**
 * Options of {@link connectToolRunner}; all optional. A bad one (a `defaultTimeoutMs` of -1, a hook
 * that is not a function) throws a TypeError naming it, as the runner's own options do.
 */
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

/**
 * A {@link ToolRunner} in a worker, used from the page or a Node host. Same result shapes as
 * the runner: `execute` resolves with the tool's output or rejects with a {@link ToolError} whose
 * `code` survived the boundary; `processToolCalls` never rejects. Host-side failures use the same codes:
 * `timeout` (the worker hung past the deadline and was replaced), `cancelled` (the signal fired),
 * `unavailable` (the worker died or was replaced while the call was in flight, could not start, the
 * runner was terminated, or a hung worker given as a plain endpoint could not be replaced).
 */
export interface RemoteToolRunner extends ToolHost {
  /** The worker runner's tools with annotations, page-side tools included; rejects with a ToolError (`unavailable`, `timeout`). */
  tools(): Promise<ToolInfo[]>;
  /** The worker runner's declarations, page-side tools included; rejects with a ToolError (`unavailable`, `timeout`). */
  declarations(): Promise<FunctionDeclaration[]>;
  /**
   * Runs one call in the worker; the output, or rejects with a ToolError (codes as {@link ToolRunner.execute}).
   * Bad `options` (a `timeoutMs` that is not a number > 0, a `signal` that is not an AbortSignal) reject
   * with a TypeError before anything is sent, as on the runner.
   */
  execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
  /**
   * Runs a batch in the worker (ordering and concurrency as {@link ToolRunner.processToolCalls}); a call's
   * failure is its result. Bad `options`, or `calls` that are not an array, reject with a TypeError before anything is sent, as on the runner.
   */
  processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]>;
  /**
   * Registers a tool that runs here, on the page: the worker validates its arguments and applies
   * permissions, then forwards the call. Kept across worker restarts. A tool that reads its context gets a
   * page-side one: `conversationId`, `callId`, `signal`, `cwd`, `planMode`, `verbose`, `isIdle()`
   * and `send`; `fs`, `platform`, state and the caches live in the worker and throw `unavailable`.
   * Either tool shape; a Standard Schema tool is validated by its library on the page as well, so
   * transforms and refinements apply. Throws a TypeError naming the tool for a bad name or schema,
   * also when the worker cannot compile its JSON Schema (a strict CSP: see precompileValidators).
   */
  register(tool: AnyTool): Promise<void>;
  /** Removes a tool (worker-side or page-side) by name; true when one was registered. */
  unregister(name: string): Promise<boolean>;
  /**
   * Replaces the worker runner's permission policy (`'allow_all'` or `{ allow?, deny? }`:
   * an `ask` function cannot cross to the worker, so give it in the worker's setup). Kept across worker
   * restarts. Throws a TypeError for a policy with `ask`.
   */
  setPermissions(policy: WirePermissionPolicy): Promise<void>;
  /** Turns the worker runner's plan mode on or off; kept across worker restarts. */
  setPlanMode(on: boolean): Promise<void>;
  /**
   * The worker runner's change journal of a conversation (default: the worker runner's), as
   * {@link ToolRunner.changes}: turns, calls, files with their diffs. The journal lives in the worker:
   * a replaced worker starts with the journal its setup gives it (in memory: empty). Rejects with a
   * TypeError where the runner throws one (no journal), with a ToolError (`unavailable`, `timeout`) when
   * the worker cannot answer.
   */
  changes(conversationId?: string): Promise<ConversationChanges>;
  /** {@link ToolRunner.rewind} in the worker: `{ restored, conflicts, turn?, unreachable? }`; a bad `toTurn` is a TypeError, a failed write `execution_failed`. */
  rewind(conversationId: string, options: RewindOptions): Promise<RewindResult>;
  /** {@link ToolRunner.cassette} in the worker: the conversation as a JSON {@link Cassette}. */
  cassette(conversationId?: string, options?: { include?: readonly string[] }): Promise<Cassette>;
  /**
   * {@link ToolRunner.replay} in the worker (its runner must be fresh, set up as the recording one).
   * `normalize` cannot cross to the worker: a TypeError; normalise in a runner of your own, or compare
   * the answers yourself.
   */
  replay(cassette: Cassette, options?: { conversationId?: string }): Promise<ReplayResult>;
  /** {@link ToolRunner.pendingChanges} of a worker runner created with `review` (or on an overlay workspace); a TypeError without either. */
  pendingChanges(conversationId?: string): Promise<PendingChanges>;
  /** {@link ToolRunner.accept} in the worker: writes the chosen staged hunks; a bad or stale selection is a TypeError. */
  accept(conversationId: string, selection?: ReviewSelection): Promise<AcceptResult>;
  /** {@link ToolRunner.reject} in the worker: discards the chosen staged hunks; the model is told on its next call. */
  reject(conversationId: string, options?: RejectOptions): Promise<RejectResult>;
  /** Adds a receiver of `ctx.send` messages; returns its unsubscribe. */
  onMessage(handler: (message: ToolMessage) => void | Promise<void>): () => void;
  /** Ends the worker (telling it the page leaves); later calls resolve with `unavailable`. */
  terminate(): Promise<void>;
  /** Current lifecycle state. */
  readonly status: RemoteToolRunnerStatus;
  /** How many times a hung or crashed worker (one that had been serving) was replaced. */
  readonly restarts: number;
}

/** The checks of {@link ConnectToolRunnerOptions}. */
/** The checks of {@link ConnectToolRunnerOptions} (also taken by the Node worker's spawn options). */
export const CONNECT_OPTION_RULES: OptionRules = {
  defaultTimeoutMs: is.deadlineMs,
  graceMs: is.positiveMs,
  startupTimeoutMs: is.positiveMs,
  controlTimeoutMs: is.positiveMs,
  terminate: is.function,
  watch: is.function,
  onMessage: is.function,
  onRestart: is.function,
};

/** Ends a worker the default way: `terminate()` (a Worker), else `close()` (a MessagePort). */
function endWorker(endpoint: Endpoint): void {
  const ending = endpoint as Endpoint & { terminate?: () => void; close?: () => void };
  if (typeof ending.terminate === 'function') ending.terminate();
  else if (typeof ending.close === 'function') ending.close();
}

/** The session settings of `options`, with their defaults. */
function sessionSettings(options: ConnectToolRunnerOptions): SessionSettings {
  return {
    graceMs: options.graceMs ?? REMOTE_GRACE_MS,
    startupTimeoutMs: options.startupTimeoutMs ?? 30_000,
    controlTimeoutMs: options.controlTimeoutMs ?? 10_000,
    terminate: options.terminate ?? endWorker,
    watch: options.watch,
    onRestart: options.onRestart,
  };
}

/** The journal, review and replay methods of a remote runner: each one control request to the worker's runner. */
function journalMethods(control: <T>(label: string, invoke: (api: WorkerMethods) => Promise<RemoteEnvelope<T>>) => Promise<RemoteEnvelope<T>>): Pick<RemoteToolRunner, JournalMethod> {
  /** Runs one method in the worker: its value, its TypeError (the host's mistake), or its ToolError. */
  const journal = async <T>(method: JournalMethod, args: unknown[]): Promise<T> => {
    const envelope = await control(`RemoteToolRunner.${method}`, (api) =>
      api.journal({ method, args }).catch((error: unknown) => {
        // Arguments that cannot be cloned (a function, a class instance) are the host's mistake.
        if ((error as { name?: unknown } | null)?.name !== 'DataCloneError') throw error;
        return { ok: false as const, code: 'invalid_arguments' as const, typeError: true as const, message: `RemoteToolRunner.${method}: its arguments cannot be sent to the tool worker; pass JSON values` };
      }),
    );
    if (envelope.ok) return envelope.value as T;
    throw envelope.typeError ? new TypeError(envelope.message) : toError(envelope);
  };
  return {
    changes: (conversationId) => journal('changes', definedArgs(conversationId)),
    rewind: (conversationId, rewindOptions) => journal('rewind', [conversationId, rewindOptions]),
    cassette: (conversationId, cassetteOptions) => journal('cassette', definedArgs(conversationId, cassetteOptions)),
    async replay(cassette, replayOptions) {
      if (typeof replayOptions === 'object' && replayOptions !== null && 'normalize' in replayOptions) {
        throw new TypeError('RemoteToolRunner.replay: a normalize function cannot cross to the tool worker; replay on a runner of your own to normalise answers');
      }
      return journal('replay', definedArgs(cassette, replayOptions));
    },
    pendingChanges: (conversationId) => journal('pendingChanges', definedArgs(conversationId)),
    accept: (conversationId, selection) => journal('accept', definedArgs(conversationId, selection)),
    reject: (conversationId, rejectOptions) => journal('reject', definedArgs(conversationId, rejectOptions)),
  };
}

/** The arguments up to the last one given (a trailing `undefined` is left out, so the runner's default applies). */
function definedArgs(...args: unknown[]): unknown[] {
  let end = args.length;
  while (end > 0 && args[end - 1] === undefined) end -= 1;
  return args.slice(0, end);
}

/** Every call of a batch whose request failed as a whole answers the batch's error (with its own id and name). */
function batchFailure(calls: readonly ToolCall[], envelope: Extract<RemoteEnvelope<unknown>, { ok: false }>): ToolCallResult[] {
  return calls.map((call): ToolCallResult => {
    const id = typeof call === 'object' && call !== null && typeof call.id === 'string' ? call.id : undefined;
    const name = typeof call === 'object' && call !== null && typeof call.name === 'string' ? call.name : '';
    const result = { name, error: envelope.message, code: envelope.code };
    return id === undefined ? result : { id, ...result };
  });
}

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
export function connectToolRunner(
  workerOrFactory: Endpoint | (() => Endpoint),
  options: ConnectToolRunnerOptions = {},
): RemoteToolRunner {
  checkOptions('connectToolRunner', options, CONNECT_OPTION_RULES);
  const handlers = new Set<(message: ToolMessage) => void | Promise<void>>();
  if (options.onMessage) handlers.add(options.onMessage);
  const pageTools = new Map<string, PageTool>();
  let permissions: WirePermissionPolicy | undefined;
  let planMode: boolean | undefined;

  const deliver = (message: ToolMessage): void => {
    for (const handler of [...handlers]) {
      try {
        void Promise.resolve(handler(message)).catch(() => undefined);
      } catch {
        // A throwing handler must not break the channel or other handlers.
      }
    }
  };

  const sessions = startWorkerSessions(
    workerOrFactory,
    sessionSettings(options),
    {
      deliver,
      runPageTool: (session, notice) => runPageTool(session, notice, pageTools, deliver),
      async restore(api) {
        // A page tool the new worker refuses stays listed here; its calls fail in the worker.
        for (const { descriptor } of [...pageTools.values()]) await api.register(descriptor);
        if (permissions !== undefined) await api.setPermissions(permissions);
        if (planMode !== undefined) await api.setPlanMode(planMode);
      },
    },
  );
  const request = <T>(spec: RequestSpec<T>): Promise<RemoteEnvelope<T>> => sessions.request(spec);
  const control = <T>(label: string, invoke: (api: WorkerMethods) => Promise<RemoteEnvelope<T>>): Promise<RemoteEnvelope<T>> => sessions.control(label, invoke);

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

  const remote: RemoteToolRunner = {
    get status(): RemoteToolRunnerStatus {
      return sessions.status;
    },
    get restarts(): number {
      return sessions.restarts;
    },

    async tools() {
      const envelope = await control('tools', (api) => api.tools());
      if (envelope.ok) return envelope.value;
      throw toError(envelope);
    },

    async declarations() {
      const envelope = await control('declarations', (api) => api.declarations());
      if (envelope.ok) return envelope.value;
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
      if (envelope.ok) return envelope.value;
      throw toError(envelope);
    },

    async processToolCalls(calls, callOptions) {
      checkCallOptions('RemoteToolRunner.processToolCalls', callOptions);
      checkToolCalls('RemoteToolRunner.processToolCalls', calls);
      const deadlineMs = deadlineOf(callOptions);
      const envelope = await request({
        label: calls.length === 1 ? String((calls[0] as ToolCall | undefined)?.name) : `a batch of ${calls.length} tool calls`,
        deadlineMs,
        signal: callOptions?.signal,
        invoke: (api, requestId) => api.processToolCalls(wire({ calls }, callOptions, deadlineMs, requestId)),
      });
      return envelope.ok ? envelope.value : batchFailure(calls, envelope);
    },

    async register(tool) {
      const page = pageTool(tool);
      const envelope = await control(`register(${page.entry.name})`, (api) => api.register(page.descriptor));
      if (!envelope.ok) throw envelope.typeError ? new TypeError(envelope.message) : toError(envelope);
      pageTools.set(page.entry.name, page);
    },

    async setPermissions(policy) {
      if (typeof policy === 'object' && policy !== null && 'ask' in policy) {
        throw new TypeError("setPermissions: an ask function cannot cross to the tool worker; give it in the worker's setup (new ToolRunner({ permissions }))");
      }
      const problem = permissionPolicyRule(policy, 'policy');
      if (problem) throw new TypeError(`setPermissions: ${problem}`);
      const envelope = await control('setPermissions', (api) => api.setPermissions(policy));
      if (!envelope.ok) throw toError(envelope);
      permissions = policy;
    },

    async setPlanMode(on) {
      if (typeof on !== 'boolean') throw new TypeError(`setPlanMode takes a boolean, not ${JSON.stringify(on)}`);
      const envelope = await control('setPlanMode', (api) => api.setPlanMode(on));
      if (!envelope.ok) throw toError(envelope);
      planMode = on;
    },

    async unregister(name) {
      pageTools.delete(name);
      const envelope = await control(`unregister(${name})`, (api) => api.unregister(name));
      if (envelope.ok) return envelope.value;
      throw toError(envelope);
    },

    ...journalMethods(control),

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
