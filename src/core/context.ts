/**
 * The {@link ToolContext} a tool receives for one call, built lazily: creating one is a single small
 * object, and what costs something (the call's id, its AbortSignal) is made only when read. The runner
 * owns the call; this object carries its per-call state changes and ends with it.
 */
import { ToolError } from './errors.js';
import type { FileCache } from './file-cache.js';
import { findNonJson } from './json.js';
import type { DenialTracker, PermissionChecker } from './permissions.js';
import { withoutStackTrace } from './stack.js';
import type { HostHooks, ToolContext } from './tool.js';
import type { FsPromises } from './fs-port.js';
import type { JsonValue } from './json.js';
import type { Platform } from './platform.js';
import type { ToolMessage } from './wire.js';
import { wrapFsMethods } from './fs-proxy.js';

export type { ToolMessage } from './wire.js';


/** A handler of {@link ToolMessage}s. */
export type MessageHandler = (message: ToolMessage) => void | Promise<void>;

/** One conversation's tool state as the runner caches it. */
export interface ConversationState {
  /** JSON text per key: reads parse a fresh copy, so tools cannot change the cache by mutation. */
  values: Map<string, string>;
  fileCache: FileCache;
  /** On a shared store (one with `lock` and `snapshot`): the store's version these values are. */
  version?: string | undefined;
}

/** What every context of one runner shares (the runner's live settings are read at each access). */
export interface ContextHost {
  readonly platform: Platform;
  readonly cwd: string;
  readonly verbose: boolean;
  readonly hooks: HostHooks;
  readonly denialTracker: DenialTracker;
  permissions(): PermissionChecker;
  planMode(): boolean;
  isIdle(): boolean;
  readonly onMessage: MessageHandler | undefined;
  /** Runs `fn` holding `path`'s write lock; `signal` gives up waiting for it (`cancelled` / `timeout`). */
  withPathLock<T>(path: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/** One call's identity and wiring, as the runner hands it to {@link CallContext}. */
export interface CallInfo {
  tool: string;
  conversationId: string;
  callId: string | undefined;
  /** The caller's signal (lazily linked to the context's own), when the runner does not own a controller. */
  callerSignal: AbortSignal | undefined;
  /** The runner's controller for this call (deadline and cancel), when it made one. */
  controller: AbortController | undefined;
  /** When the call's deadline fires (`Date.now()` ms); undefined without one. */
  deadline?: number | undefined;
  onMessage: MessageHandler | undefined;
  /** The call's view of the platform's fs (a change journal's), when it is not the platform's own. */
  fs?: FsPromises | undefined;
  /** The platform the call's tool sees (review mode's staged one), when it is not the runner's. */
  platform?: Platform | undefined;
}

/** The call's state changes, to persist before its result is returned. */
export interface StateChanges {
  dirty: Map<string, string | undefined>;
  previous: Map<string, string | undefined>;
}

/**
 * The `cancelled` (or, for a deadline, `timeout`) error of a call whose signal fired: "before it
 * finished" once the tool runs, "before it started" (`started: false`) when the tool never ran (the
 * signal was already aborted, or fired while the call waited for its turn, its state or a permission).
 * A signal aborted with a ToolError `timeout` keeps that code and message.
 */
export function cancelled(name: string, signal: AbortSignal, started = true): ToolError {
  const reason = signal.reason as { code?: unknown; message?: unknown } | undefined;
  if (reason && reason.code === 'timeout' && typeof reason.message === 'string') return new ToolError('timeout', reason.message);
  if (!started) return new ToolError('cancelled', `${name} was cancelled before it started; it did not run, so nothing changed`);
  return new ToolError('cancelled', `${name} was cancelled before it finished`);
}

/**
 * The reason a call's own signal is aborted with once the call is over (so work the tool left behind
 * stops). Built without a stack: it is made for many calls and a stack would only point here.
 */
export function endedReason(name: string): ToolError {
  return withoutStackTrace(() => new ToolError('cancelled', `${name} has ended`));
}

/** The lazily built {@link ToolContext} of one call. */
export class CallContext implements ToolContext {
  readonly conversationId: string;
  readonly #host: ContextHost;
  readonly #info: CallInfo;
  readonly #state: ConversationState;
  #callId: string | undefined;
  #controller: AbortController | undefined;
  #unlink: (() => void) | undefined;
  #changes: StateChanges | undefined;
  #open = true;
  #fs: FsPromises | undefined;
  #changedFiles = false;
  /** Paths the call's fs changed (or began changing), in order, each once. */
  readonly #changedPaths = new Set<string>();
  /** Changes through ctx.fs not yet settled. */
  #inFlight = 0;
  #onSettled: Array<() => void> = [];

  constructor(host: ContextHost, info: CallInfo, state: ConversationState) {
    this.#host = host;
    this.#info = info;
    this.#state = state;
    this.conversationId = info.conversationId;
    this.#callId = info.callId;
    this.#controller = info.controller;
  }

  get callId(): string {
    return (this.#callId ??= crypto.randomUUID());
  }

  get signal(): AbortSignal {
    let controller = this.#controller;
    if (!controller) {
      controller = this.#controller = new AbortController();
      const caller = this.#info.callerSignal;
      if (!this.#open) controller.abort(endedReason(this.#info.tool));
      else if (caller?.aborted) controller.abort(cancelled(this.#info.tool, caller));
      else if (caller) {
        const onAbort = (): void => (controller as AbortController).abort(cancelled(this.#info.tool, caller));
        caller.addEventListener('abort', onAbort, { once: true });
        this.#unlink = () => caller.removeEventListener('abort', onAbort);
      }
    }
    return controller.signal;
  }

  get deadline(): number | undefined {
    return this.#info.deadline;
  }

  get cwd(): string {
    return this.#host.cwd;
  }

  get fs(): FsPromises {
    // Only a call the runner can interrupt (it owns a controller) needs to know whether it changed a
    // file: the others see the platform's own object.
    const fs = this.#info.fs ?? this.#host.platform.fs;
    if (!this.#info.controller) return fs;
    return (this.#fs ??= guardedFs(fs, this.#info.controller.signal, {
      started: () => this.#changedFiles,
      begin: (paths) => {
        this.#changedFiles = true;
        for (const path of paths) if (this.#changedPaths.size < MAX_CHANGED_PATHS) this.#changedPaths.add(path);
        this.#inFlight += 1;
      },
      end: () => {
        this.#inFlight -= 1;
        if (this.#inFlight === 0) for (const wake of this.#onSettled.splice(0)) wake();
      },
    }));
  }

  /** The paths the call changed (or began changing) through `ctx.fs`, in order, at most 1,000. */
  get changedPaths(): readonly string[] {
    return [...this.#changedPaths];
  }

  /** True while a change the call started through `ctx.fs` is still running. */
  get changing(): boolean {
    return this.#inFlight > 0;
  }

  /** Resolves once no change the call started through `ctx.fs` is still running (at once when none is). */
  changesSettled(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#onSettled.push(resolve));
  }

  /**
   * True once the call started changing a file through `ctx.fs` (a write, rename, removal, mkdir...):
   * the runner then waits for the tool's own answer instead of answering `timeout` or `cancelled`.
   */
  get changedFiles(): boolean {
    return this.#changedFiles;
  }

  get platform(): Platform {
    return this.#info.platform ?? this.#host.platform;
  }

  get planMode(): boolean {
    return this.#host.planMode();
  }

  get permissions(): PermissionChecker {
    return this.#host.permissions();
  }

  get fileCache(): FileCache {
    return this.#state.fileCache;
  }

  get denialTracker(): DenialTracker {
    return this.#host.denialTracker;
  }

  get verbose(): boolean {
    return this.#host.verbose;
  }

  get hooks(): HostHooks {
    return this.#host.hooks;
  }

  isIdle(): boolean {
    return this.#host.isIdle();
  }

  send(message: JsonValue): Promise<void> {
    // Checked synchronously, so a tool that does not await send still sees the throw.
    // A TypeError: the tool's author's mistake (the call answers `execution_failed`), never the model's.
    const problem = findNonJson(message);
    if (problem) {
      throw new TypeError(
        `ctx.send: the message (${kindOf(message)}) is not JSON (${problem}); messages must be JSON: send plain objects, arrays, strings, finite numbers, booleans or null, converting the rest first`,
      );
    }
    // A failing host handler is the host's problem: it must neither fail the tool nor surface as an
    // unhandled rejection from a send the tool did not await.
    const delivered: ToolMessage = { conversationId: this.conversationId, callId: this.callId, tool: this.#info.tool, message };
    const deliver = (handler: MessageHandler | undefined): Promise<void> => {
      try {
        return Promise.resolve(handler?.(delivered)).then(
          () => undefined,
          () => undefined,
        );
      } catch {
        return Promise.resolve();
      }
    };
    return Promise.all([deliver(this.#host.onMessage), deliver(this.#info.onMessage)]).then(() => undefined);
  }

  getState<T extends JsonValue = JsonValue>(key: string): T | undefined {
    const text = this.#state.values.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  setState<T extends JsonValue = JsonValue>(key: string, value: T | undefined): void {
    // Both mistakes are the tool's author's: TypeErrors (the call answers `execution_failed`), never `invalid_arguments`.
    if (typeof key !== 'string') throw new TypeError(`ctx.setState: the key must be a string, not ${kindOf(key)}; name each state value with a string`);
    if (!this.#open) {
      throw new ToolError('cancelled', `setState("${key}") after ${this.#info.tool} ended (cancelled or timed out); the value was not kept`);
    }
    const values = this.#state.values;
    let text: string | undefined;
    if (value !== undefined) {
      const problem = findNonJson(value);
      if (problem) {
        throw new TypeError(
          `ctx.setState(${JSON.stringify(key)}): the value (${kindOf(value)}) is not JSON (${problem}); state values must be JSON: ` +
            'store plain objects, arrays, strings, finite numbers, booleans or null, converting the rest first (a Date with toISOString(), a bigint with String())',
        );
      }
      text = JSON.stringify(value);
    }
    const changes = (this.#changes ??= { dirty: new Map(), previous: new Map() });
    if (!changes.previous.has(key)) changes.previous.set(key, values.get(key));
    if (text === undefined) values.delete(key);
    else values.set(key, text);
    changes.dirty.set(key, text);
  }

  withPathLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
    return this.#host.withPathLock(path, fn, this.#controller || this.#info.callerSignal ? this.signal : undefined);
  }

  /**
   * Ends the call: later `setState` calls throw, and a signal the tool read (or the runner's) is
   * aborted with "has ended" so work left behind stops. Returns the state changes to persist.
   */
  end(): StateChanges | undefined {
    this.#open = false;
    this.#unlink?.();
    const controller = this.#controller;
    if (controller && !controller.signal.aborted) controller.abort(endedReason(this.#info.tool));
    return this.#changes;
  }
}

/** What a value is, for a message: `a Date`, `a bigint`, `a function`, `an array`, `an object`, `undefined`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    const name = proto === Object.prototype || proto === null ? 'object' : ((value as { constructor?: { name?: unknown } }).constructor?.name ?? 'object');
    return `${/^[aeiou]/i.test(String(name)) ? 'an' : 'a'} ${String(name) || 'object'}`;
  }
  return `${/^[aeiou]/i.test(typeof value) ? 'an' : 'a'} ${typeof value}`;
}

/** Methods of the filesystem port that change something. */
const MUTATING = new Set(['writeFile', 'writeFileAtomic', 'mkdir', 'symlink', 'rename', 'rm', 'unlink', 'rmdir', 'appendFile', 'copyFile', 'truncate', 'chmod', 'utimes', 'link']);

/** Most changed paths a call keeps for its answer. */
const MAX_CHANGED_PATHS = 1000;

/** What {@link guardedFs} reports: whether a change has started, and each change's start (with its paths) and end. */
interface ChangeWatch {
  started(): boolean;
  begin(paths: readonly string[]): void;
  end(): void;
}

/**
 * `fs` as one interruptible call sees it: each change it starts is reported (`begin` with the paths it
 * touches, `end` once it settles) and, once `signal` has fired (deadline or cancel) before any change
 * started, refused with the signal's `timeout` / `cancelled`, so a call answered as stopped has changed
 * nothing. Once a change has started (`started()` true), the rest of it goes through, so a temporary
 * file is still renamed or removed.
 */
function guardedFs(fs: FsPromises, signal: AbortSignal, watch: ChangeWatch): FsPromises {
  return wrapFsMethods(fs, (property, method, target) =>
    MUTATING.has(property)
      ? (...args: unknown[]): unknown => {
          if (signal.aborted && !watch.started()) {
            const reason = signal.reason as { code?: unknown } | undefined;
            return Promise.reject(reason && typeof reason.code === 'string' ? reason : new ToolError('cancelled', 'the call was cancelled before it changed anything'));
          }
          // rename changes both its paths; symlink, link and copyFile their second one; the others their first.
          const paths = (property === 'rename' ? args.slice(0, 2) : property === 'symlink' || property === 'copyFile' || property === 'link' ? args.slice(1, 2) : args.slice(0, 1)).filter(
            (arg): arg is string => typeof arg === 'string',
          );
          watch.begin(paths);
          let settled: unknown;
          try {
            settled = method.apply(target, args);
          } catch (error) {
            watch.end();
            throw error;
          }
          return Promise.resolve(settled).finally(() => watch.end());
        }
      : undefined,
  );
}
