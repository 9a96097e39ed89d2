import type { FunctionDeclaration, ToolCallResult } from '../../core/runner.js';
import type { JsonSchema } from '../../core/types.js';
import { type SchemaConversionNote } from './schema-convert.js';
import { type HttpModelOptions, type Model, type ModelMessage, type ModelToolCall } from './types.js';
/**
 * An Anthropic Messages API tool: a JSON-Schema function `{ name, description, input_schema }`, or one of
 * Anthropic's built-in tool types (`{ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }`,
 * `{ type: 'bash_20250124', name: 'bash' }`), which the model knows without a schema.
 */
export type AnthropicTool = {
    name: string;
    description: string;
    input_schema: JsonSchema;
} | {
    type: string;
    name: string;
    max_characters?: number;
};
/**
 * The Anthropic built-in tool type a declaration stands for: toolProfiles.anthropic()'s
 * `str_replace_based_edit_tool` (with `max_characters` when the profile was built with `maxCharacters`)
 * and `bash`, recognised by name and parameters (so a look-alike of your own stays a function), else null.
 */
export declare function anthropicBuiltinToolType(declaration: FunctionDeclaration): {
    type: string;
    name: string;
    max_characters?: number;
} | null;
/** An Anthropic content block (the types toolhost reads or writes; others are replayed as they came). */
export type AnthropicBlock = {
    type: 'text';
    text: string;
} | {
    type: 'tool_use';
    id: string;
    name: string;
    input: unknown;
} | {
    type: 'tool_result';
    tool_use_id: string;
    content: string;
    is_error?: boolean;
} | {
    type: string;
    [key: string]: unknown;
};
/** An Anthropic message: a role and its content. */
export interface AnthropicMessage {
    role: 'user' | 'assistant';
    content: string | AnthropicBlock[];
}
/**
 * Runner declarations → Anthropic `tools` (`{ name, description, input_schema }`; the Anthropic profile's
 * text editor and bash as Anthropic's built-in tool types, see {@link anthropicBuiltinToolType}). The schema is sent as
 * is (Anthropic takes JSON Schema); one without `type` gets `type: 'object'` (noted), which
 * `input_schema` requires. Names Anthropic refuses (a dot, say) are flagged `unsupported`.
 */
export declare function toAnthropicTools(declarations: readonly FunctionDeclaration[]): {
    tools: AnthropicTool[];
    notes: SchemaConversionNote[];
};
/**
 * Anthropic `tool_use` blocks → {@link ModelToolCall}s, in order. An `input` that is not an object is a
 * parse failure (`argumentsError`), answered with `invalid_arguments`.
 */
export declare function fromAnthropicToolUses(content: readonly AnthropicBlock[]): ModelToolCall[];
/**
 * {@link ToolCallResult}s → Anthropic `tool_result` blocks, in order: `{ type: 'tool_result', tool_use_id,
 * content }` with the output as JSON text (a string output as is); failures carry `{"error":...,"code":...}`
 * and `is_error: true`. Send them first in one `user` message.
 */
export declare function toAnthropicToolResults(results: readonly ToolCallResult[]): Extract<AnthropicBlock, {
    type: 'tool_result';
}>[];
/**
 * A provider-neutral history → Anthropic `messages`. Model turns replay their original content blocks
 * when they came from Anthropic; consecutive messages of one role are merged (tool results first in a
 * user message, as the API requires); empty assistant turns are left out.
 */
export declare function toAnthropicMessages(messages: readonly ModelMessage[]): AnthropicMessage[];
/** Options of {@link anthropicModel}. */
export interface AnthropicModelOptions extends HttpModelOptions {
    /** Sent as `x-api-key`. */
    apiKey: string;
    /** Default `https://api.anthropic.com`. */
    baseUrl?: string;
    /** `max_tokens` of each request (default 4096). */
    maxTokens?: number;
    /** `anthropic-version` header (default `2023-06-01`). */
    version?: string;
}
/**
 * A {@link Model} over Anthropic's Messages API: POST `{baseUrl}/v1/messages` with `x-api-key`,
 * `anthropic-version: 2023-06-01`, `max_tokens`, `system`, `messages` ({@link toAnthropicMessages}) and
 * `tools` ({@link toAnthropicTools}). Reads `content` (text and `tool_use` blocks), `stop_reason` and
 * `usage`. Retries and errors as {@link postJson} (`Anthropic API error 401: invalid x-api-key`); a
 * response without `content` is `invalid_response`. From a browser page, also pass
 * `headers: { 'anthropic-dangerous-direct-browser-access': 'true' }`.
 */
export declare function anthropicModel(options: AnthropicModelOptions): Model;
