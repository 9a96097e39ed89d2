/**
 * toolhost/openai-agents: a ToolHost's tools as OpenAI Agents JS function tools, one
 * `processToolCalls` per model turn. `@openai/agents` is an optional peer dependency.
 */
import { type FunctionTool } from '@openai/agents';
import type { ToolHost } from '../../src/core/host.js';
/** Options of {@link openAIAgentsTools}; all optional. */
export interface OpenAIAgentsToolsOptions {
    /** The conversation (tool state, file cache) of every call (default: the host's). */
    conversationId?: string;
    /** Deadline of each call in ms, as the host's `timeoutMs` (default: the host's). */
    timeoutMs?: number;
    /** Only these tools (names or `prefix*` patterns; default all). */
    include?: readonly string[];
    /**
     * Which calls need human approval (`needsApproval`, an interruption of the run): `'mutating'`
     * (every tool that is not read-only, as toolhost's permission rules ask), tool names / `prefix*`
     * patterns, or none (the default).
     */
    ask?: 'mutating' | readonly string[];
}
/**
 * The host's JSON Schema as the Agents SDK's non-strict object schema (the host validates, so the
 * schema stays as written; `additionalProperties` is as declared, else allowed, as in JSON Schema).
 */
/** The shape of the Agents SDK's non-strict JSON object schema (its `JsonObjectSchemaNonStrict`, not exported by name). */
export interface AgentsObjectSchema {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required: string[];
    additionalProperties: true;
    description?: string;
}
/** A function tool from {@link openAIAgentsTools}: parameters are the host's JSON Schema. */
export type ToolhostFunctionTool = FunctionTool<unknown, AgentsObjectSchema, unknown>;
/** Sizes of the `processToolCalls` batches the tools from {@link openAIAgentsTools} ran, or undefined for another list. */
export declare function openAIAgentsBatchSizes(tools: readonly ToolhostFunctionTool[]): readonly number[] | undefined;
/**
 * A host's tools as OpenAI Agents JS function tools (`new Agent({ tools })`).
 *
 * The Agents runner executes one turn's function calls concurrently, all started before its next
 * macrotask and in the model's order, so each `execute` only queues its call: the calls that arrive
 * together run as ONE `host.processToolCalls` batch in that order, with toolhost's rules (mutating
 * calls alone and in order, read-only neighbours together); batches run one after another. The
 * call's `callId` becomes the call `id`; the run's signal aborts the batch.
 *
 * Parameters are the host's JSON Schemas (non-strict, `strict: false`), validated by the host. A
 * failed call reaches the model as the tool's output text `code: message`; arguments that are not
 * JSON are answered by the Agents SDK itself, before toolhost sees the call, with its fixed text
 * "An error occurred while parsing tool arguments. Please try again with valid JSON.".
 * `ask` maps the permission `ask` rule to `needsApproval`: the run stops with an interruption, and
 * `state.approve(item)` / `state.reject(item)` then `run(agent, state)` resumes it.
 *
 * A turn's calls take effect in the model's order. The Agents runner runs the calls of a turn that
 * need no approval at once and the approved ones only when the run resumes, so with `ask` the calls
 * that come after the first one waiting for approval in a turn are held back: they are not run, and
 * their output is "not run: it comes after edit_file (call e1) in the same turn, which waits for the
 * user's approval, and the calls of a turn take effect in the order they were given; call it again
 * after edit_file's result, to see its effect". Later calls that need approval are interrupted as
 * usual, and the approved calls of a turn run as one batch in the model's order. To know the turn's
 * order every tool's `needsApproval` is then a function, so the SDK, which cannot run such a policy on
 * arguments that are not a JSON object, asks the user about those calls too before answering them
 * with its parse-error text.
 *
 * A `host` that is not a ToolHost or a bad option (the host's mistakes) rejects with a TypeError naming
 * it: `openAIAgentsTools: host must be a ToolHost such as new ToolRunner({ tools }), not null`.
 */
export declare function openAIAgentsTools(host: ToolHost, options?: OpenAIAgentsToolsOptions): Promise<ToolhostFunctionTool[]>;
