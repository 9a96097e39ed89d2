/**
 * toolhost/ai-sdk: a ToolHost's tools as a Vercel AI SDK `ToolSet` (one `processToolCalls` per model
 * step), and an AI SDK tool as a toolhost tool. The `ai` package is an optional peer dependency.
 */
import { type ModelMessage, type Tool as AiTool, type ToolApprovalStatus, type ToolSet } from 'ai';
import type { ToolHost } from '../../src/core/host.js';
import type { Tool } from '../../src/core/tool.js';
/** Options of {@link aiSdkTools}; all optional. */
export interface AiSdkToolsOptions {
    /** The conversation (tool state, file cache) of every call (default: the host's). */
    conversationId?: string;
    /** Deadline of each call in ms, as the host's `timeoutMs` (default: the host's). */
    timeoutMs?: number;
    /** Only these tools (names or `prefix*` patterns; default all). */
    include?: readonly string[];
}
/** The `toolhost` entry of each tool's AI SDK `metadata` (copied onto its calls' `toolMetadata`). */
export interface ToolhostToolMetadata {
    readOnly: boolean;
    concurrencySafe: boolean;
}
/** Sizes of the `processToolCalls` batches a ToolSet from {@link aiSdkTools} ran (newest last), or undefined for another ToolSet. */
export declare function aiSdkBatchSizes(tools: ToolSet): readonly number[] | undefined;
/**
 * A host's tools as an AI SDK `ToolSet` for `generateText`, `streamText` and the AI SDK's agents.
 *
 * The AI SDK starts one step's tool calls together (concurrently, in the model's order, all before
 * its next macrotask), so each `execute` only queues its call: the calls that arrive together run as
 * ONE `host.processToolCalls` batch in arrival order — the model's order — with toolhost's rules
 * (mutating calls alone and in order, neighbouring read-only calls together), and batches run one
 * after another. `toolCallId` becomes the call's `id`; the calls' `abortSignal`s abort the batch.
 * `toolCallConcurrency: 1` in the AI SDK gives one call per batch, still in order.
 *
 * A failed call throws a `ToolError` whose message is `code: message`, which the AI SDK hands the
 * model as the tool's error. `view_file`'s inline images reach the model as image parts
 * (`toModelOutput`). Input schemas are the host's JSON Schemas (`jsonSchema`), validated by the host.
 * For the permission `ask` rule, pass {@link aiSdkToolApproval} as `toolApproval`.
 * A `host` that is not a ToolHost or a bad option (the host's mistakes) rejects with a TypeError naming
 * it: `aiSdkTools: host must be a ToolHost such as new ToolRunner({ tools }), not null`.
 */
export declare function aiSdkTools(host: ToolHost, options?: AiSdkToolsOptions): Promise<ToolSet>;
/** Which calls need the user's approval in {@link aiSdkToolApproval}. */
export interface AiSdkApprovalOptions {
    /**
     * `'mutating'` (the default, as toolhost's permission rules ask for a tool that is not read-only):
     * every tool of the set whose `readOnly` is false; or tool names / `prefix*` patterns.
     */
    ask?: 'mutating' | readonly string[];
    /** Tools (names or patterns) never run: answered `denied` without asking. */
    deny?: readonly string[];
}
/** What {@link aiSdkToolApproval}'s function reads of the AI SDK's approval event. */
export interface AiSdkApprovalEvent {
    toolCall: {
        toolName: string;
        toolCallId: string;
    };
    /** The messages the step's model call was given (one array per step, shared by its calls). */
    messages: readonly ModelMessage[];
}
/**
 * The permission `ask` rule as the AI SDK's tool approval: pass the result as `toolApproval` of
 * `generateText` / `streamText`. A call that needs approval ends the step with a
 * `tool-approval-request`; answer it with a `tool-approval-response` message and call again, and the
 * approved call runs (denied ones reach the model as denied). Works on any ToolSet; `'mutating'`
 * reads the `readOnly` that {@link aiSdkTools} records in each tool's metadata (a tool without it
 * counts as mutating).
 *
 * A step's calls take effect in the model's order. The AI SDK runs the calls of a step that need no
 * approval at once and the approved ones only on the next `generateText`, so a call that comes after
 * one waiting for approval would run first and, say, view a file before the edit the model made just
 * before it. So every later call of that step is held back: it is not run, and reaches the model as
 * `execution-denied` with the reason "not run: it comes after edit_file (call e1) in the same step,
 * which waits for the user's approval, and the calls of a step take effect in the order they were
 * given; call it again after edit_file's result, to see its effect" (the SDK's automatic denial, a
 * `tool-approval-request` with `isAutomatic: true`, so the user is not asked). Later calls that need
 * approval themselves are asked as usual; the approved calls of a step run together in the model's
 * order. Calls before the first waiting one run at once, and calls denied by `deny` hold nothing back.
 */
export declare function aiSdkToolApproval(tools: ToolSet, options?: AiSdkApprovalOptions): (event: AiSdkApprovalEvent) => ToolApprovalStatus;
/** Options of {@link fromAiSdkTool}. */
export interface FromAiSdkToolOptions {
    /** The toolhost name (the AI SDK keeps names as ToolSet keys). */
    name: string;
    /** The tool changes nothing (default false): permissions and plan mode read it. */
    readOnly?: boolean;
    /** Description when the AI SDK tool has none, or a function one. */
    description?: string;
}
/**
 * An AI SDK tool (`tool({ description, inputSchema, execute })`, zod or `jsonSchema` input) as a
 * toolhost {@link Tool}, so it runs inside a `ToolRunner` — in a browser worker too — with toolhost's
 * permissions, timeouts and batching. Its input schema's JSON Schema becomes `parameters`; the
 * schema's own validation (zod) runs before `execute` and its failure is `invalid_arguments`.
 * `execute` receives `{ toolCallId, messages: [], abortSignal, context: {} }`; a throw is
 * `execution_failed` with its message. Rejects with a TypeError (the host's mistake) for a tool without
 * `execute` or a bad option.
 */
export declare function fromAiSdkTool(tool: AiTool, options: FromAiSdkToolOptions): Promise<Tool>;
