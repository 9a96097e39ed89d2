// The wire types: what a host sends a runner (calls, per-call options) and gets back (results,
// declarations, messages). Every runner-like object (the local runner, the page side of a worker's
// runner, the shared workspace runner) and every adapter speaks them.
import type { ToolErrorCode } from './errors.js';
import type { JsonSchema, JsonValue } from './json.js';

/** A message a tool sent with `ctx.send`, as the host's `onMessage` receives it. */
export interface ToolMessage {
  conversationId: string;
  callId: string;
  tool: string;
  message: JsonValue;
}

/**
 * One tool call as a model makes it: `args` the parsed arguments object (`JSON.parse` a model API's
 * `arguments` text first); `null`/`undefined` count as `{}`, anything else that is not an object is
 * the model's `invalid_arguments`. Ids, where given, differ within a batch.
 */
export interface ToolCall {
  id?: string;
  name: string;
  args: unknown;
}

/** A successful call: the tool's output, with the call's id echoed. */
export interface ToolCallSuccess {
  id?: string;
  name: string;
  result: unknown;
}

/** A failed call: a message for the model and a {@link ToolErrorCode}, with the call's id echoed. */
export interface ToolCallFailure {
  id?: string;
  name: string;
  error: string;
  code: ToolErrorCode;
}

/** The outcome of one call in `processToolCalls`. */
export type ToolCallResult = ToolCallSuccess | ToolCallFailure;

/**
 * Per-call options of `execute` and `processToolCalls`. A bad one (a `timeoutMs` that is not a number
 * > 0, a `signal` that is not an AbortSignal, ...) is the host's mistake: the call rejects with a
 * TypeError naming the option, the value and what is accepted, and no tool runs.
 */
export interface CallOptions {
  /** The conversation whose state and file cache the call uses (default: the runner's). */
  conversationId?: string;
  /** Aborting it ends the call with `cancelled`. */
  signal?: AbortSignal;
  /**
   * Deadline in ms; the call ends with `timeout` then, even if the tool ignores its signal. A tool
   * that blocks the thread so the timer cannot fire is judged when it returns: a read-only tool's late
   * answer becomes `timeout`; a mutating tool's result is returned, since its change was made.
   * `Infinity` = no deadline; anything but a number > 0 makes the call reject with a TypeError.
   */
  timeoutMs?: number;
  /** Receives this call's `ctx.send` messages, besides the runner's `onMessage` (MCP progress, say). */
  onMessage?: (message: ToolMessage) => void | Promise<void>;
}

/** A model-facing function declaration: name, description and the parameters schema as an object. */
export interface FunctionDeclaration {
  name: string;
  description: string;
  parameters: JsonSchema;
}
