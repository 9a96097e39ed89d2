import type { FunctionDeclaration, ToolCallResult } from '../../core/runner.js';
import type { JsonSchema } from '../../core/types.js';
import { type SchemaConversionNote } from './schema-convert.js';
import { type HttpModelOptions, type Model, type ModelMessage, type ModelToolCall } from './types.js';
/** An OpenAI chat completions tool: `{ type: 'function', function: { name, description, parameters, strict } }`. */
export interface OpenAITool {
    type: 'function';
    function: {
        name: string;
        description: string;
        parameters: JsonSchema;
        strict: boolean;
    };
}
/** An OpenAI `tool_calls[]` entry: `arguments` is a JSON string as the model wrote it. */
export interface OpenAIToolCall {
    id: string;
    type: 'function';
    function: {
        name: string;
        arguments: string;
    };
}
/** An OpenAI chat completions message (the roles and members toolhost writes). */
export type OpenAIMessage = {
    role: 'system';
    content: string;
} | {
    role: 'user';
    content: string;
} | {
    role: 'assistant';
    content: string | null;
    tool_calls?: OpenAIToolCall[];
} | {
    role: 'tool';
    tool_call_id: string;
    content: string;
};
/**
 * Runner declarations → OpenAI chat completions `tools`. `strict` is true only when the parameters
 * schema qualifies for strict mode ({@link openAIStrictCompatibility}: every property required and
 * `additionalProperties: false` at every level, supported keywords only); the schema is sent unchanged.
 * `notes` says, per tool, why strict is off, and flags names OpenAI refuses (`unsupported`).
 */
export declare function toOpenAITools(declarations: readonly FunctionDeclaration[]): {
    tools: OpenAITool[];
    notes: SchemaConversionNote[];
};
/**
 * OpenAI `tool_calls` → {@link ModelToolCall}s, in order. `arguments` is parsed as JSON; bad JSON (or JSON
 * that is not an object) is kept as a parse failure (`argumentsError`, `rawArguments`) for the agent to
 * answer with `invalid_arguments`. A missing id is generated.
 */
export declare function fromOpenAIToolCalls(toolCalls: readonly OpenAIToolCall[] | undefined | null): ModelToolCall[];
/**
 * {@link ToolCallResult}s → OpenAI `tool` messages, one per result in order:
 * `{ role: 'tool', tool_call_id, content }` with the output as JSON text (a string output as is), or
 * `{"error":...,"code":...}` for a failure.
 */
export declare function toOpenAIToolMessages(results: readonly ToolCallResult[]): Extract<OpenAIMessage, {
    role: 'tool';
}>[];
/** A provider-neutral history (and system text) → OpenAI chat completions `messages`. */
export declare function toOpenAIMessages(messages: readonly ModelMessage[], system?: string): OpenAIMessage[];
/** Options of {@link openAICompatibleModel}. */
export interface OpenAICompatibleModelOptions extends HttpModelOptions {
    /** Sent as `Authorization: Bearer <apiKey>` when given (local servers often need none). */
    apiKey?: string;
    /** Up to and including the version path: default `https://api.openai.com/v1`; Ollama `http://127.0.0.1:11434/v1`. */
    baseUrl?: string;
}
/**
 * A {@link Model} over the chat completions API (OpenAI, and the servers that speak it: Ollama,
 * llama.cpp, vLLM...): POST `{baseUrl}/chat/completions` with `model`, `messages` ({@link toOpenAIMessages})
 * and `tools` ({@link toOpenAITools}). Reads `choices[0].message` (`content`, `tool_calls`) and `usage`.
 * Retries and errors as {@link postJson} (`OpenAI API error 401: Incorrect API key provided...`); a
 * response without choices is `invalid_response`.
 */
export declare function openAICompatibleModel(options: OpenAICompatibleModelOptions): Model;
