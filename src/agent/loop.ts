import { invalidArgumentsResult, isFailure } from './models/common.js';
import { isModelError, type Model, type ModelMessage, type ModelResponse, type ModelToolCall } from './models/types.js';
import type { PermissionRequest } from '../core/permissions.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult } from '../core/runner.js';
import { withDistinctIds, withId } from '../core/distinct-ids.js';

/** Why a run ended: the `finish` tool ran, the model answered without tool calls, the turn limit, an abort, or an error. */
export type AgentDoneReason = 'finished' | 'no_tool_calls' | 'max_turns' | 'cancelled' | 'error';

/**
 * What `agent.run()` yields, in order of happening. A run always ends with exactly one `done`;
 * `turns` counts model requests that returned.
 * - `text`: the model's text of one turn.
 * - `tool_call`: a call the model made (before it runs; calls with unreadable arguments too).
 * - `permission_request`: the runner asked `onPermissionRequest` about a call of this run.
 * - `tool_result`: a call's result (after the whole batch of its turn has run), in call order.
 * - `finish`: the `finish` tool ran; `result` is its `result` argument.
 * - `error`: the model request failed (`code` is a {@link ModelErrorCode}, or `busy` / `no_model` /
 *   `invalid_arguments` / `internal`); `done` with reason `error` follows.
 */
export type AgentEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'tool_result'; result: ToolCallResult }
  | { type: 'permission_request'; request: PermissionRequest }
  | { type: 'finish'; result?: string }
  | { type: 'error'; error: AgentErrorInfo }
  | { type: 'done'; reason: AgentDoneReason; turns: number };

/** The `error` of an `error` event: a code, a message, and for HTTP failures the status and provider. */
export interface AgentErrorInfo {
  code: string;
  message: string;
  status?: number;
  provider?: string;
}

/** Options of `agent.run()`. */
export interface AgentRunOptions {
  /** The conversation whose history the run continues and whose tool state it uses (default: the runner's). */
  conversationId?: string;
  /** Aborting it stops the run: no model request or tool call starts after that; `done` reason `cancelled`. */
  signal?: AbortSignal;
  /** Most model requests in this run (default 20); reaching it ends the run with reason `max_turns`. */
  maxTurns?: number;
  /** System instruction for this run (default: the agent's). */
  system?: string;
}

/**
 * Where the agent loop's tools live: what it declares to the model and what runs a turn's calls. A
 * {@link ToolRunner} is one; so is a `RemoteToolRunner` (toolhost/web, toolhost/node), whose tools run
 * in a worker while the loop and the model client stay on the page: pass it to
 * {@link AgentOptions.toolHost}. `declarations()` is read (and awaited) before every model request;
 * `processToolCalls` gets one turn's calls as one batch with the run's `conversationId` and `signal`,
 * and must resolve with one result per call, in order (never reject).
 */
export interface AgentToolHost {
  declarations(): FunctionDeclaration[] | Promise<FunctionDeclaration[]>;
  processToolCalls(calls: readonly ToolCall[], options: CallOptions): Promise<ToolCallResult[]>;
}

/** Everything {@link runAgentLoop} needs. */
export interface AgentLoopOptions {
  model: Model;
  /** The tools: the agent's {@link ToolRunner}, or a remote one (see {@link AgentToolHost}). */
  runner: AgentToolHost;
  /** The conversation's history; the loop appends to it in place. */
  history: ModelMessage[];
  prompt: string;
  conversationId: string;
  maxTurns: number;
  signal: AbortSignal;
  system?: string;
  emit(event: AgentEvent): void;
}

/**
 * The agent loop: appends the prompt, then asks the model (with `await runner.declarations()`), runs all
 * of one turn's tool calls through `runner.processToolCalls` in one batch (calls with unreadable arguments are answered with
 * `invalid_arguments` without running), appends the results, and repeats until the `finish` tool runs,
 * the model makes no tool call, `maxTurns` requests were made, the signal fires or the model fails.
 * Emits {@link AgentEvent}s through `emit`, ending with one `done`; never rejects.
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentDoneReason> {
  const { model, runner, history, conversationId, signal, emit } = options;
  let turns = 0;
  const done = (reason: AgentDoneReason): AgentDoneReason => {
    emit({ type: 'done', reason, turns });
    return reason;
  };
  try {
    history.push({ role: 'user', text: options.prompt });
    while (true) {
      if (signal.aborted) return done('cancelled');
      if (turns >= options.maxTurns) return done('max_turns');
      let response: ModelResponse;
      try {
        // Awaited inside this try: a remote runner's unreachable worker ends the run with an error event.
        const tools = await runner.declarations();
        if (signal.aborted) return done('cancelled');
        const request: Parameters<Model['generate']>[0] = { messages: history.slice(), tools, signal };
        if (options.system !== undefined) request.system = options.system;
        response = await model.generate(request);
      } catch (error) {
        if (signal.aborted || (isModelError(error) && error.code === 'cancelled')) return done('cancelled');
        emit({ type: 'error', error: errorInfo(error) });
        return done('error');
      }
      turns += 1;
      const toolCalls: ModelToolCall[] = Array.isArray(response.toolCalls) ? response.toolCalls : [];
      const assistant: ModelMessage = { role: 'assistant', toolCalls };
      if (response.text) assistant.text = response.text;
      if (response.replay) assistant.replay = response.replay;
      history.push(assistant);
      if (response.text) emit({ type: 'text', text: response.text });
      if (toolCalls.length === 0) return done(signal.aborted ? 'cancelled' : 'no_tool_calls');
      for (const call of toolCalls) emit({ type: 'tool_call', call: publicCall(call) });

      let results: ToolCallResult[];
      if (signal.aborted) {
        // Keep the history well-formed for the next run: every call gets a result, none runs.
        results = toolCalls.map((call) => ({ id: call.id, name: call.name, code: 'cancelled', error: `${call.name} was not run: the run was cancelled` }));
      } else {
        const runnable = toolCalls.filter((call) => call.argumentsError === undefined);
        const ran = runnable.length > 0
          ? await runner.processToolCalls(withDistinctIds(runnable.map(publicCall)), { conversationId, signal })
          : [];
        let next = 0;
        // Each result carries its call's own id again (a repeated one was made distinct for the runner).
        results = toolCalls.map((call) => (call.argumentsError !== undefined ? invalidArgumentsResult(call) : withId(ran[next++] as ToolCallResult, call.id)));
      }
      history.push({ role: 'tool', results });
      for (const result of results) emit({ type: 'tool_result', result });
      if (signal.aborted) return done('cancelled');
      const finished = results.findIndex((result) => result.name === 'finish' && !isFailure(result));
      if (finished !== -1) {
        const call = toolCalls[finished];
        const value = (call?.args as { result?: unknown } | undefined)?.result;
        emit(typeof value === 'string' ? { type: 'finish', result: value } : { type: 'finish' });
        return done('finished');
      }
    }
  } catch (error) {
    emit({ type: 'error', error: { code: 'internal', message: `agent loop failed: ${error instanceof Error ? error.message : String(error)}` } });
    return done('error');
  }
}

function publicCall(call: ModelToolCall): ToolCall {
  return { id: call.id, name: call.name, args: call.args };
}

function errorInfo(error: unknown): AgentErrorInfo {
  if (isModelError(error)) {
    const info: AgentErrorInfo = { code: error.code, message: error.message, provider: error.provider };
    if (typeof error.status === 'number') info.status = error.status;
    return info;
  }
  const code = (error as { code?: unknown } | null)?.code;
  return {
    code: typeof code === 'string' ? code : 'internal',
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * A push-to-pull queue: `push` never blocks, iteration waits for the next value, `close` ends it.
 * Lets an async generator yield events produced by callbacks (permission prompts) while the loop awaits.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  readonly #values: T[] = [];
  readonly #waiting: ((result: IteratorResult<T>) => void)[] = [];
  #closed = false;

  /** Queues a value (ignored after `close`). */
  push(value: T): void {
    if (this.#closed) return;
    const waiter = this.#waiting.shift();
    if (waiter) waiter({ value, done: false });
    else this.#values.push(value);
  }

  /** Ends iteration once the queued values are read. */
  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiting.splice(0)) waiter({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: (): Promise<IteratorResult<T>> => {
        if (this.#values.length > 0) return Promise.resolve({ value: this.#values.shift() as T, done: false });
        if (this.#closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.#waiting.push(resolve));
      },
    };
  }
}
