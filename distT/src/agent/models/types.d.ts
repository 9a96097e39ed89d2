import type { FunctionDeclaration, ToolCall, ToolCallResult } from '../../core/runner.js';
/** The model APIs toolhost speaks, plus the in-process scripted model for tests and demos. */
export type ModelProvider = 'gemini' | 'openai' | 'anthropic' | 'scripted';
/**
 * A tool call as a model made it, with an id always set (the provider's, or a generated one when the
 * provider gave none, as Gemini's generateContent usually does: then `generatedId` is true).
 * `argumentsError` is set when the model's arguments could not be parsed (bad JSON from a chat
 * completions model, or a non-object `input`): `args` is then `{}`, `rawArguments` keeps the model's
 * text, and the agent answers the call with an `invalid_arguments` result instead of running it.
 */
export interface ModelToolCall extends ToolCall {
    id: string;
    generatedId?: boolean;
    argumentsError?: string;
    rawArguments?: string;
}
/** The user's turn in a {@link ModelMessage} history. */
export interface UserMessage {
    role: 'user';
    text: string;
}
/**
 * A model turn in a {@link ModelMessage} history: its text and its tool calls. `replay` keeps the
 * provider's own content (Gemini parts with thought signatures, Anthropic content blocks) so the same
 * provider gets it back verbatim on the next request; another provider ignores it.
 */
export interface AssistantMessage {
    role: 'assistant';
    text?: string;
    toolCalls: ModelToolCall[];
    replay?: ProviderReplay;
}
/** The results of one model turn's tool calls, in call order, ids echoed. */
export interface ToolResultsMessage {
    role: 'tool';
    results: ToolCallResult[];
}
/** Provider-neutral conversation history: what an {@link Agent} keeps per conversation and sends to a {@link Model}. */
export type ModelMessage = UserMessage | AssistantMessage | ToolResultsMessage;
/** A provider's own content for one model turn (see {@link AssistantMessage.replay}). */
export interface ProviderReplay {
    provider: ModelProvider;
    content: unknown;
}
/** Token counts reported by the API, when it reports them. */
export interface ModelUsage {
    inputTokens?: number;
    outputTokens?: number;
    totalTokens?: number;
}
/** What {@link Model.generate} takes. */
export interface ModelRequest {
    /** System instruction (Gemini `systemInstruction`, OpenAI `system` message, Anthropic `system`). */
    system?: string;
    /** The conversation so far, oldest first; the last message is the user's prompt or tool results. */
    messages: readonly ModelMessage[];
    /** The tools the model may call, as `runner.declarations()` gives them. */
    tools: readonly FunctionDeclaration[];
    /** Aborting it ends the request (and any retry wait) with a `cancelled` {@link ModelError}. */
    signal?: AbortSignal;
}
/** What {@link Model.generate} returns: text and/or tool calls of one model turn. */
export interface ModelResponse {
    text?: string;
    toolCalls: ModelToolCall[];
    /** The API's response body as parsed JSON (absent for the scripted model). */
    raw?: unknown;
    usage?: ModelUsage;
    /** The API's stop reason as it spells it (`STOP`, `tool_calls`, `end_turn`, ...). */
    finishReason?: string;
    /** Provider content to replay on the next request (see {@link AssistantMessage.replay}). */
    replay?: ProviderReplay;
}
/**
 * A language model behind one common interface: {@link geminiModel}, {@link openAICompatibleModel},
 * {@link anthropicModel}, {@link scriptedModel}, or your own. `generate` rejects with a {@link ModelError}.
 */
export interface Model {
    readonly provider: ModelProvider | (string & {});
    /** The model name as the API knows it (`gemini-2.5-flash`, `gpt-4.1`, ...). */
    readonly model: string;
    /**
     * The tool profile this model is trained on (`toolProfiles`): the one `Agent` registers unless told
     * otherwise. Absent: `toolhost`.
     */
    readonly toolProfile?: 'anthropic' | 'openai' | 'gemini' | 'toolhost';
    generate(request: ModelRequest): Promise<ModelResponse>;
}
/**
 * Why a model request failed: `bad_request` (400 and other 4xx), `unauthorized` (401, 403), `not_found`
 * (404), `rate_limited` (429 after the retries), `server_error` (5xx after the retries), `network_error`
 * (fetch threw, after the retries), `invalid_response` (a 2xx body that is not the API's shape),
 * `cancelled` (the signal fired), `script_exhausted` (a scripted model ran out of turns).
 */
export type ModelErrorCode = 'bad_request' | 'unauthorized' | 'not_found' | 'rate_limited' | 'server_error' | 'network_error' | 'invalid_response' | 'cancelled' | 'script_exhausted';
/**
 * A failed model request, shaped like {@link ToolError}: check `code`, never `instanceof`. `status` is the
 * HTTP status (absent for network errors and aborts), `provider` the API, `apiMessage` the API's own error
 * message. The message reads like `Gemini API error 400: API key not valid` and says how many retries
 * were made when there were any.
 */
export declare class ModelError extends Error {
    readonly code: ModelErrorCode;
    readonly provider: string;
    readonly status?: number;
    readonly apiMessage?: string;
    readonly retries: number;
    constructor(code: ModelErrorCode, message: string, details: {
        provider: string;
        status?: number;
        apiMessage?: string;
        retries?: number;
    });
}
/** True for a {@link ModelError} or anything that looks like one after a worker hop (a `provider` and a string `code`). */
export declare function isModelError(value: unknown): value is ModelError;
/**
 * Retry policy of the HTTP model clients: exponential backoff with jitter on 429, 5xx and network
 * errors. Attempt `n` (0-based) waits `min(maxDelayMs, baseDelayMs * 2^n)`, jittered to between half and
 * all of it; a `Retry-After` header (seconds or an HTTP date; OpenAI's `retry-after-ms` too) is waited
 * exactly instead, up to `maxRetryAfterMs` (a longer one fails at once with the header's value in the message).
 */
export interface RetryOptions {
    /** Retries after the first attempt (default 3: at most 4 requests). 0 turns retrying off. */
    maxRetries?: number;
    /** First backoff in ms (default 500). */
    baseDelayMs?: number;
    /** Largest backoff in ms (default 8000). */
    maxDelayMs?: number;
    /** Longest `Retry-After` honoured, in ms (default 60000). */
    maxRetryAfterMs?: number;
    /** Random source in [0, 1) for the jitter (default `Math.random`). */
    random?: () => number;
}
/** Options every HTTP model client takes. */
export interface HttpModelOptions {
    /** The model name as the API knows it. */
    model: string;
    /** API origin (with `/v1` for OpenAI-compatible servers); a trailing `/` is ignored. */
    baseUrl?: string;
    /** The `fetch` to use (default: `globalThis.fetch` at call time). Tests pass their own. */
    fetch?: typeof fetch;
    /** Retry policy (see {@link RetryOptions}). */
    retry?: RetryOptions;
    /** Extra request headers (e.g. an organisation or a proxy token). */
    headers?: Record<string, string>;
    /** Extra top-level fields merged into every request body (temperature, generationConfig, ...). */
    extraBody?: Record<string, unknown>;
    /** The tool profile `Agent` picks for this model (default: the provider's own; see {@link Model.toolProfile}). */
    toolProfile?: 'anthropic' | 'openai' | 'gemini' | 'toolhost';
}
