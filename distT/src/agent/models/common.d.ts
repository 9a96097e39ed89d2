import type { ToolCallResult } from '../../core/runner.js';
import type { ModelMessage, ModelToolCall } from './types.js';
/** True when a {@link ToolCallResult} is a failure (`{ error, code }`). */
export declare function isFailure(result: ToolCallResult): result is Extract<ToolCallResult, {
    code: string;
}>;
/** A fresh call id for providers that give none: `<prefix>_<uuid without dashes, 24 chars>`. */
export declare function generateCallId(prefix: string): string;
/**
 * Parses a model's JSON-string arguments (OpenAI `function.arguments`). An empty string is `{}`. Bad JSON,
 * or JSON that is not an object, gives `{ args: {}, error }` with a message for the model.
 */
export declare function parseArguments(text: unknown): {
    args: Record<string, unknown>;
    error?: string;
};
/**
 * The `invalid_arguments` result the agent sends back for a call whose arguments could not be parsed,
 * quoting (up to 200 characters of) what the model sent.
 */
export declare function invalidArgumentsResult(call: ModelToolCall): ToolCallResult;
/** The JSON payload of a result: `{ result }` on success, `{ error, code }` on failure. */
export declare function resultPayload(result: ToolCallResult): {
    result: unknown;
} | {
    error: string;
    code: string;
};
/** A result as the text OpenAI `tool` messages and Anthropic `tool_result` blocks carry: JSON of the output, or of `{ error, code }`. */
export declare function resultText(result: ToolCallResult): string;
/** Trims trailing slashes from a base URL. */
export declare function trimBase(url: string): string;
/** Ids of the tool calls in a history, mapped to their calls (for providers that need the call's name or id kind). */
export declare function callsById(messages: readonly ModelMessage[]): Map<string, ModelToolCall>;
