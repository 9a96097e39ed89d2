/**
 * The worker protocol shared by the worker side ({@link exposeToolRunner}) and the page side
 * ({@link connectToolRunner}). Requests are comlink requests, served by comlink's `expose` in the worker;
 * the page posts them itself (caller.ts: the same messages as comlink's `wrap` proxy, so any comlink
 * client can call the worker too). They always resolve to an envelope
 * `{ ok: true, value } | { ok: false, code, message, details? }`: comlink carries only name, message and stack of a thrown error, so the bridge never throws across
 * the boundary and rebuilds a {@link ToolError} with its `code` on the other side. One-way notices
 * (worker ready, `ctx.send` messages, calls of page-side tools, cancellation, a page leaving) travel as
 * plain `postMessage`s tagged `toolhost` on the same endpoint; comlink ignores them (they carry no
 * comlink `id`/`type`), and they keep their order relative to results, so a `ctx.send` message
 * reaches `onMessage` before the result of the call that sent it. Page-side tools are called through
 * such notices rather than through a `comlink.proxy` callback: no extra MessagePort is opened per
 * tool, so nothing is left to keep a Node host alive or leak after a worker restart.
 */
import { ToolError, isToolErrorCode, toToolError, type ToolErrorCode } from '../core/errors.js';
import type { ToolAnnotations, ToolInfo } from '../core/host.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult, ToolMessage } from '../core/runner.js';
import type { JsonSchema } from '../core/types.js';

export type { Endpoint } from 'comlink';

/**
 * What crosses the worker boundary instead of a thrown error: a value, or a {@link ToolErrorCode} with
 * its message (and the ToolError's JSON `details`, when it had some).
 */
export type RemoteEnvelope<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      code: ToolErrorCode;
      message: string;
      details?: Record<string, unknown>;
      /** The worker's runner refused a host's mistake with a TypeError (a tool it cannot register): rethrown as one. */
      typeError?: true;
    };

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
  /** The model-facing JSON Schema (derived on the page for a Standard Schema); the worker validates with it. */
  parameters: JsonSchema | string;
  readOnly?: boolean;
  concurrencySafe?: boolean;
  annotations?: ToolAnnotations;
  outputSchema?: JsonSchema;
}

/** A permission policy as it crosses the boundary: no `ask` function (a function cannot be cloned). */
export type WirePermissionPolicy = 'allow_all' | { allow?: string[]; deny?: string[] };

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
  tools(): Promise<RemoteEnvelope<ToolInfo[]>>;
  setPermissions(policy: WirePermissionPolicy): Promise<RemoteEnvelope<null>>;
  setPlanMode(on: boolean): Promise<RemoteEnvelope<null>>;
  execute(request: WireCallOptions & { name: string; args: unknown }): Promise<RemoteEnvelope<unknown>>;
  processToolCalls(request: WireCallOptions & { calls: readonly ToolCall[] }): Promise<RemoteEnvelope<ToolCallResult[]>>;
  register(tool: PageToolDescriptor): Promise<RemoteEnvelope<null>>;
  unregister(name: string): Promise<RemoteEnvelope<boolean>>;
  /**
   * One of the runner's journal, review and replay methods (`changes`, `rewind`, `cassette`, `replay`,
   * `pendingChanges`, `accept`, `reject`) with its arguments; a TypeError of the runner (the host's
   * mistake) answers an envelope with `typeError: true`.
   */
  journal(request: { method: JournalMethod; args: unknown[] }): Promise<RemoteEnvelope<unknown>>;
}

/** The runner methods {@link ToolRunnerWorkerApi.journal} forwards. */
export type JournalMethod = 'changes' | 'rewind' | 'cassette' | 'replay' | 'pendingChanges' | 'accept' | 'reject';

/** The methods {@link ToolRunnerWorkerApi.journal} accepts (anything else is refused). */
export const JOURNAL_METHODS: ReadonlySet<string> = new Set<JournalMethod>(['changes', 'rewind', 'cassette', 'replay', 'pendingChanges', 'accept', 'reject']);

/** What a page-side tool learns about the call it serves (the worker-side context's plain fields). */
export interface PageCallInfo {
  conversationId: string;
  callId: string;
  cwd: string;
  planMode: boolean;
  verbose: boolean;
  idle: boolean;
  /** The call's deadline (`Date.now()` ms), when it has one. */
  deadline?: number;
}

/** One-way notices from the worker. */
export type WorkerNotice =
  | { toolhost: 'ready' }
  | { toolhost: 'message'; message: ToolMessage }
  | { toolhost: 'page_call'; pageCallId: string; name: string; args: unknown; info: PageCallInfo }
  | { toolhost: 'page_cancel'; pageCallId: string; code: ToolErrorCode; message: string };

/** One-way notices from the page; `bye` says the page is leaving (the worker forgets the connection). */
export type HostNotice =
  | { toolhost: 'cancel'; requestId: string }
  | { toolhost: 'bye' }
  | { toolhost: 'page_result'; pageCallId: string; envelope: RemoteEnvelope<unknown> };

const NOTICE_KINDS = new Set(['ready', 'message', 'page_call', 'page_cancel', 'cancel', 'page_result', 'bye']);

/** True for a toolhost notice (anything else on the endpoint is comlink's). */
export function isNotice(data: unknown): data is WorkerNotice | HostNotice {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { toolhost?: unknown }).toolhost === 'string' &&
    NOTICE_KINDS.has((data as { toolhost: string }).toolhost)
  );
}

/** Turns anything thrown into a failure envelope (code kept for ToolErrors and rebuilt ones). */
export function failure(error: unknown): { ok: false; code: ToolErrorCode; message: string; details?: Record<string, unknown> } {
  const toolError = toToolError(error);
  const envelope: { ok: false; code: ToolErrorCode; message: string; details?: Record<string, unknown> } = {
    ok: false,
    code: toolError.code,
    message: toolError.message,
  };
  if (toolError.details !== undefined) envelope.details = toolError.details;
  return envelope;
}

/** A failure envelope. */
export function fail(code: ToolErrorCode, message: string): { ok: false; code: ToolErrorCode; message: string } {
  return { ok: false, code, message };
}

/** Rebuilds the {@link ToolError} a failure envelope describes (an unknown code becomes `execution_failed`). */
export function toError(envelope: { code: unknown; message: unknown; details?: Record<string, unknown> }): ToolError {
  const code = isToolErrorCode(envelope.code) ? envelope.code : 'execution_failed';
  const message = typeof envelope.message === 'string' ? envelope.message : 'the tool worker failed without a message';
  return new ToolError(code, message, envelope.details);
}

/** Ids unique to this side of one connection: a random prefix and a counter. */
export function newIdSource(): () => string {
  const prefix = Math.random().toString(36).slice(2, 10);
  let n = 0;
  return () => `${prefix}-${(n += 1)}`;
}

/** True for a toolhost envelope. */
export function isEnvelope(value: unknown): value is RemoteEnvelope<never> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/** A request that could not be sent: arguments that cannot be cloned are the caller's mistake. */
export function sendFailure(error: unknown, label: string): RemoteEnvelope<never> {
  if ((error as { name?: unknown } | null)?.name === 'DataCloneError') {
    return fail('invalid_arguments', `${label}: the arguments cannot be sent to the tool worker (${toToolError(error).message}); pass JSON values`);
  }
  return failure(error);
}

/** The runner's call options for a request's wire options. */
export function wireToCall(options: WireCallOptions | undefined): CallOptions {
  const out: CallOptions = {};
  if (typeof options?.conversationId === 'string') out.conversationId = options.conversationId;
  if (typeof options?.timeoutMs === 'number') out.timeoutMs = options.timeoutMs;
  return out;
}
