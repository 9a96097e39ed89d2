import { type Model, type ModelMessage } from './models/types.js';
import type { PermissionRequest } from '../core/permissions.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult } from '../core/runner.js';
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
export type AgentEvent = {
    type: 'text';
    text: string;
} | {
    type: 'tool_call';
    call: ToolCall;
} | {
    type: 'tool_result';
    result: ToolCallResult;
} | {
    type: 'permission_request';
    request: PermissionRequest;
} | {
    type: 'finish';
    result?: string;
} | {
    type: 'error';
    error: AgentErrorInfo;
} | {
    type: 'done';
    reason: AgentDoneReason;
    turns: number;
};
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
 * {@link AgentBuilder.toolHost}. `declarations()` is read (and awaited) before every model request;
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
export declare function runAgentLoop(options: AgentLoopOptions): Promise<AgentDoneReason>;
/**
 * A push-to-pull queue: `push` never blocks, iteration waits for the next value, `close` ends it.
 * Lets an async generator yield events produced by callbacks (permission prompts) while the loop awaits.
 */
export declare class EventChannel<T> implements AsyncIterable<T> {
    #private;
    /** Queues a value (ignored after `close`). */
    push(value: T): void;
    /** Ends iteration once the queued values are read. */
    close(): void;
    [Symbol.asyncIterator](): AsyncIterator<T>;
}
