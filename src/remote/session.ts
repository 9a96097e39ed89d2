/**
 * The page side's worker sessions and their watchdog: starts a worker (through the factory, or the
 * one endpoint given), waits for its runner, sends requests with their deadlines, probes a worker that
 * is late, and terminates and replaces one that is hung or has exited. Every request resolves with an
 * envelope; nothing here rejects.
 */
import type { Endpoint } from 'comlink';
import { ToolError, isToolErrorCode } from '../core/errors.js';
import type { ToolMessage } from '../core/runner.js';
import { workerCaller, type WorkerCaller, type WorkerMethods } from './caller.js';
import {
  fail,
  failure,
  isEnvelope,
  isNotice,
  newIdSource,
  sendFailure,
  toError,
  type HostNotice,
  type RemoteEnvelope,
  type WorkerNotice,
} from './protocol.js';

export type { WorkerMethods } from './caller.js';

/** Lifecycle of a remote runner. */
export type RemoteToolRunnerStatus = 'starting' | 'ready' | 'unavailable' | 'terminated';

interface PendingRequest {
  started: boolean;
  startedAt: number;
  deadlineMs: number | undefined;
  settle(envelope: RemoteEnvelope<never>): void;
}

/** One worker: its endpoint, methods, readiness and the requests in flight on it. */
export interface Session {
  endpoint: Endpoint;
  /** Sends the worker's requests; answers come through the session's listener. */
  caller: WorkerCaller;
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

/** How the sessions are run: the timing options of connectToolRunner and its hooks. */
export interface SessionSettings {
  graceMs: number;
  startupTimeoutMs: number;
  controlTimeoutMs: number;
  terminate(endpoint: Endpoint): void | Promise<void>;
  watch?: ((endpoint: Endpoint, onExit: (reason: string) => void) => (() => void) | void) | undefined;
  onRestart?: ((event: { reason: string; restarts: number }) => void) | undefined;
}

/** What the page side does with a worker's notices, and what it restores on a new worker. */
export interface SessionHooks {
  deliver(message: ToolMessage): void;
  runPageTool(session: Session, notice: Extract<WorkerNotice, { toolhost: 'page_call' }>): void;
  /** Sends the page's state (page-side tools, permissions, plan mode) to a worker that just started. */
  restore(api: WorkerMethods): Promise<void>;
}

/** A request as the runner methods describe it to {@link WorkerSessions.request}. */
export interface RequestSpec<T> {
  label: string;
  deadlineMs: number | undefined;
  signal: AbortSignal | undefined;
  /** Sends the request; `requestId` is set only when `signal` is (the call can be cancelled). */
  invoke: (api: WorkerMethods, requestId: string | undefined) => Promise<RemoteEnvelope<T>>;
}

/** The sessions of one remote runner. */
export interface WorkerSessions {
  request<T>(spec: RequestSpec<T>): Promise<RemoteEnvelope<T>>;
  /** A control request (tools, declarations, register, ...) with the control deadline. */
  control<T>(label: string, invoke: (api: WorkerMethods) => Promise<RemoteEnvelope<T>>): Promise<RemoteEnvelope<T>>;
  readonly status: RemoteToolRunnerStatus;
  readonly restarts: number;
  terminate(): Promise<void>;
}

/**
 * Starts the sessions of a remote runner on `workerOrFactory` (a factory's first worker at once, so it
 * sets up while the host does other work). See connectToolRunner for the timeout and restart rules.
 */
export function startWorkerSessions(workerOrFactory: Endpoint | (() => Endpoint), settings: SessionSettings, hooks: SessionHooks): WorkerSessions {
  return new SessionPool(workerOrFactory, settings, hooks);
}

/** A session of `endpoint` not yet listening: not ready, not dead, no requests. */
function newSession(endpoint: Endpoint): Session {
  let markDead!: () => void;
  const died = new Promise<void>((resolve) => (markDead = resolve));
  const caller = workerCaller(endpoint);
  const session: Session = {
    endpoint,
    caller,
    api: caller.methods,
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
  return session;
}

/** Rejects once `session` has died (a race partner of each start-up step). */
function diedBeforeReady(session: Session): Promise<never> {
  return session.died.then(() => {
    throw new ToolError('unavailable', 'the tool worker ended before it was ready; retry the call');
  });
}

/** Settles every request of a dead session: `timeout` for one past its own deadline when the worker hung, else `unavailable`. */
function settleRequests(session: Session, kind: KillKind, message: string): void {
  const now = Date.now();
  for (const request of [...session.requests]) {
    const overdue = kind === 'hung' && request.started && request.deadlineMs !== undefined && now - request.startedAt >= request.deadlineMs;
    request.settle(overdue ? fail('timeout', message) : fail('unavailable', message));
  }
  session.requests.clear();
}

/** The sessions of one remote runner: the current worker, its replacement rules and the requests sent to it. */
class SessionPool implements WorkerSessions {
  readonly factory: (() => Endpoint) | undefined;
  readonly settings: SessionSettings;
  readonly nextId = newIdSource();
  readonly #hooks: SessionHooks;
  #current: Session | undefined;
  #unavailableReason: string | undefined;
  #terminated = false;
  #restarts = 0;
  #firstEndpoint: Endpoint | undefined;

  constructor(workerOrFactory: Endpoint | (() => Endpoint), settings: SessionSettings, hooks: SessionHooks) {
    this.factory = typeof workerOrFactory === 'function' ? workerOrFactory : undefined;
    this.settings = settings;
    this.#hooks = hooks;
    this.#firstEndpoint = this.factory ? undefined : (workerOrFactory as Endpoint);
    // Start the worker now, so that it sets up while the host does other work.
    if (this.factory) {
      try {
        this.#current = this.#start(this.factory());
      } catch {
        this.#current = undefined; // the first call retries and reports the factory's error
      }
    } else {
      this.#acquire();
    }
  }

  get status(): RemoteToolRunnerStatus {
    if (this.#terminated) return 'terminated';
    if (this.#unavailableReason !== undefined) return 'unavailable';
    return this.#current?.isReady ? 'ready' : 'starting';
  }

  get restarts(): number {
    return this.#restarts;
  }

  /** Sends one request; resolves with its envelope, never rejects. */
  request<T>(spec: RequestSpec<T>): Promise<RemoteEnvelope<T>> {
    if (spec.signal?.aborted) return Promise.resolve(fail('cancelled', `${spec.label} was cancelled before it started`));
    let session: Session;
    try {
      session = this.#acquire();
    } catch (error) {
      return Promise.resolve(failure(error));
    }
    return new Promise<RemoteEnvelope<T>>((resolve) => new InFlightRequest(this, session, spec, resolve).begin());
  }

  control<T>(label: string, invoke: (api: WorkerMethods) => Promise<RemoteEnvelope<T>>): Promise<RemoteEnvelope<T>> {
    return this.request({ label, deadlineMs: this.settings.controlTimeoutMs, signal: undefined, invoke: (api) => invoke(api) });
  }

  async terminate(): Promise<void> {
    if (this.#terminated) return;
    this.#terminated = true;
    const session = this.#current;
    this.#current = undefined;
    const endpoint = this.#firstEndpoint;
    this.#firstEndpoint = undefined;
    if (session) {
      // Tell the worker this page is leaving (a SharedWorker then forgets the connection).
      try {
        session.endpoint.postMessage({ toolhost: 'bye' } satisfies HostNotice);
      } catch {
        // already closed
      }
      await this.kill(session, 'terminated', 'the remote tool runner was terminated');
    }
    if (endpoint) await Promise.resolve(this.settings.terminate(endpoint)).catch(() => undefined);
  }

  /** Ends a session: settles its calls, terminates its worker (the returned promise), maybe starts the next. */
  kill(session: Session, kind: KillKind, message: string): Promise<void> {
    if (session.dead) return Promise.resolve();
    const wasReady = session.isReady;
    session.markDead();
    session.dispose();
    for (const controller of session.pageRuns.values()) controller.abort(new ToolError('cancelled', message));
    session.pageRuns.clear();
    settleRequests(session, kind, message);
    const ended = Promise.resolve()
      .then(() => this.settings.terminate(session.endpoint))
      .catch(() => undefined);
    if (this.#current === session) this.#current = undefined;
    if (this.#terminated || kind === 'terminated') return ended;
    if (!this.factory) {
      this.#unavailableReason = message;
      return ended;
    }
    // Replace at once a worker that had been serving; one that never got ready is retried lazily (by
    // the next call), so a module that cannot start does not spin.
    if (wasReady && (kind === 'hung' || kind === 'exit')) this.#replace(this.factory, message);
    return ended;
  }

  /** Whether the session's worker answers a ping within the grace period (one probe at a time per session). */
  probe(session: Session): Promise<boolean> {
    if (!session.probe) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      session.probe = Promise.race([
        session.api.ping().then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.settings.graceMs))),
        session.died.then(() => false),
      ]).finally(() => {
        clearTimeout(timer);
        session.probe = undefined;
      });
    }
    return session.probe;
  }

  /** Starts a new worker in place of one that hung or exited, and tells the `onRestart` observer. */
  #replace(factory: () => Endpoint, reason: string): void {
    this.#restarts += 1;
    try {
      this.#current = this.#start(factory());
    } catch {
      this.#current = undefined;
    }
    try {
      this.settings.onRestart?.({ reason, restarts: this.#restarts });
    } catch {
      // observer errors are not ours to handle
    }
  }

  /** The session to send a request to: the current one, else a new one (or `unavailable`). */
  #acquire(): Session {
    if (this.#terminated) throw new ToolError('unavailable', 'the remote tool runner was terminated');
    if (this.#unavailableReason !== undefined) {
      throw new ToolError(
        'unavailable',
        `the tool worker is unavailable: ${this.#unavailableReason}. It was given as a plain endpoint and cannot be replaced; pass a factory (() => new Worker(...)) to connectToolRunner so a hung worker is restarted`,
      );
    }
    if (this.#current && !this.#current.dead) return this.#current;
    if (this.#firstEndpoint) {
      const endpoint = this.#firstEndpoint;
      this.#firstEndpoint = undefined;
      this.#current = this.#start(endpoint);
      return this.#current;
    }
    if (!this.factory) throw new ToolError('unavailable', 'the tool worker has ended');
    this.#current = this.#start(this.factory());
    return this.#current;
  }

  /** A session on `endpoint`: listening for its notices, watched for its exit, and setting up (`ready`). */
  #start(endpoint: Endpoint): Session {
    const session = newSession(endpoint);
    let readyNotice!: () => void;
    const noticed = new Promise<void>((resolve) => (readyNotice = resolve));
    // One listener for the worker's answers (to the session's caller) and its notices, in arrival order.
    const listener = (event: Event): void => {
      const data: unknown = (event as MessageEvent).data;
      if (!session.caller.receive(data)) this.#onNotice(session, data, readyNotice);
    };
    endpoint.addEventListener('message', listener as EventListener);
    // A MessagePort (a SharedWorker's port) delivers nothing to addEventListener until started.
    endpoint.start?.();
    let unwatch: (() => void) | void = undefined;
    try {
      unwatch = this.settings.watch?.(endpoint, (reason) => this.kill(session, 'exit', `the tool worker exited (${reason}); retry the call`));
    } catch {
      unwatch = undefined;
    }
    session.dispose = () => {
      endpoint.removeEventListener('message', listener as EventListener);
      session.caller.clear();
      try {
        unwatch?.();
      } catch {
        // ignore
      }
    };
    session.ready = this.#setUp(session, noticed);
    session.ready.catch(() => undefined);
    return session;
  }

  /** Handles a notice from the session's worker: ready, a message for the page, a page-tool call or its cancel. */
  #onNotice(session: Session, data: unknown, readyNotice: () => void): void {
    if (!isNotice(data) || session.dead) return;
    if (data.toolhost === 'ready') readyNotice();
    else if (data.toolhost === 'message') this.#hooks.deliver(data.message);
    else if (data.toolhost === 'page_call') this.#hooks.runPageTool(session, data);
    else if (data.toolhost === 'page_cancel') {
      session.pageRuns.get(data.pageCallId)?.abort(new ToolError(isToolErrorCode(data.code) ? data.code : 'cancelled', data.message));
    }
  }

  /**
   * Waits for the worker's runner (its hello), restores the page's state on it and marks the session
   * ready; kills it when it does not start within `startupTimeoutMs` or answers hello with an error.
   */
  async #setUp(session: Session, noticed: Promise<void>): Promise<void> {
    const { startupTimeoutMs } = this.settings;
    const startupTimer = setTimeout(() => this.kill(session, 'startup', `the tool worker did not start within ${startupTimeoutMs} ms`), startupTimeoutMs);
    try {
      // Either the worker's hello answers (messages were queued until it listened), or its ready
      // notice arrives first (a browser worker may drop messages sent before its module ran): then ask again.
      const hello = (): Promise<RemoteEnvelope<{ tools: number }>> => session.api.hello();
      const answer = await Promise.race([hello(), noticed.then(hello), diedBeforeReady(session)]);
      if (!answer.ok) {
        this.kill(session, 'startup', answer.message);
        throw toError(answer);
      }
      // A new worker gets what the page set on the last one: its page-side tools, permissions, plan mode.
      await Promise.race([this.#hooks.restore(session.api), diedBeforeReady(session)]);
      if (session.dead) throw new ToolError('unavailable', 'the tool worker ended before it was ready; retry the call');
      session.isReady = true;
    } finally {
      clearTimeout(startupTimer);
    }
  }
}

/**
 * One request on one session, from sending to its answer: settles exactly once, with the worker's
 * envelope, `cancelled` (its signal, after a grace period for the worker's own answer), or the
 * session's end; a request past its deadline has its worker probed, and a worker that does not answer
 * the probe is killed as hung.
 */
class InFlightRequest<T> implements PendingRequest {
  started = false;
  startedAt = 0;
  readonly deadlineMs: number | undefined;
  readonly #pool: SessionPool;
  readonly #session: Session;
  readonly #spec: RequestSpec<T>;
  readonly #resolve: (envelope: RemoteEnvelope<T>) => void;
  #done = false;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #abortTimer: ReturnType<typeof setTimeout> | undefined;
  #requestId: string | undefined;
  /** The signal's listener, made only for a call that has a signal. */
  #onAbort: (() => void) | undefined;

  constructor(pool: SessionPool, session: Session, spec: RequestSpec<T>, resolve: (envelope: RemoteEnvelope<T>) => void) {
    this.#pool = pool;
    this.#session = session;
    this.#spec = spec;
    this.#resolve = resolve;
    this.deadlineMs = spec.deadlineMs;
  }

  /** Settles the request as its session ends (see settleRequests). */
  settle(envelope: RemoteEnvelope<never>): void {
    this.#finish(envelope);
  }

  /** Registers the request on its session and sends it: now to a ready worker, a starting one once its runner is set up. */
  begin(): void {
    this.#session.requests.add(this);
    if (this.#spec.signal) {
      this.#onAbort = () => this.#abort();
      this.#spec.signal.addEventListener('abort', this.#onAbort, { once: true });
    }
    if (this.#session.isReady) this.#send();
    else this.#session.ready.then(() => this.#send(), (error: unknown) => this.#finish(failure(error)));
  }

  #abort(): void {
    if (this.#done) return;
    const { label } = this.#spec;
    if (!this.started || this.#requestId === undefined || this.#session.dead) {
      this.#finish(fail('cancelled', `${label} was cancelled`));
      return;
    }
    try {
      this.#session.endpoint.postMessage({ toolhost: 'cancel', requestId: this.#requestId } satisfies HostNotice);
    } catch {
      // the worker is gone; the timer below answers
    }
    this.#abortTimer = setTimeout(() => this.#finish(fail('cancelled', `${label} was cancelled`)), this.#pool.settings.graceMs);
  }

  #finish(envelope: RemoteEnvelope<T> | RemoteEnvelope<never>): void {
    if (this.#done) return;
    this.#done = true;
    if (this.#watchdog !== undefined) clearTimeout(this.#watchdog);
    if (this.#abortTimer !== undefined) clearTimeout(this.#abortTimer);
    if (this.#onAbort) this.#spec.signal?.removeEventListener('abort', this.#onAbort);
    this.#session.requests.delete(this);
    this.#resolve(envelope as RemoteEnvelope<T>);
  }

  #send(): void {
    if (this.#done) return;
    const spec = this.#spec;
    if (this.#session.dead) {
      this.#finish(fail('unavailable', 'the tool worker ended; retry the call'));
      return;
    }
    if (spec.signal) this.#requestId = this.#pool.nextId();
    this.started = true;
    this.startedAt = Date.now();
    let sent: Promise<RemoteEnvelope<T>>;
    try {
      sent = spec.invoke(this.#session.api, this.#requestId);
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(
      (envelope) => this.#finish(isEnvelope(envelope) ? envelope : fail('execution_failed', 'the tool worker answered with something that is not a toolhost envelope')),
      (error: unknown) => this.#finish(sendFailure(error, spec.label)),
    );
    if (spec.deadlineMs !== undefined) this.#watchdog = setTimeout(() => this.#check(), spec.deadlineMs + this.#pool.settings.graceMs);
  }

  /** Past the deadline (plus grace): probes the worker; one that answers gets another period, one that does not is killed as hung. */
  #check(): void {
    const session = this.#session;
    if (this.#done || session.dead) return;
    const { label, deadlineMs } = this.#spec;
    void this.#pool.probe(session).then((alive) => {
      if (this.#done || session.dead) return;
      if (alive) {
        this.#watchdog = setTimeout(() => this.#check(), (deadlineMs as number) + this.#pool.settings.graceMs);
        return;
      }
      this.#pool.kill(
        session,
        'hung',
        this.#pool.factory
          ? `${label} did not finish within ${deadlineMs} ms and the tool worker stopped responding; it was terminated and restarted (acknowledged files and state are kept). Narrow the request or split the work into smaller steps`
          : `${label} did not finish within ${deadlineMs} ms and the tool worker stopped responding; it was terminated`,
      );
    });
  }
}
