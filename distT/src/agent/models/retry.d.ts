import { type ModelErrorCode, type RetryOptions } from './types.js';
/** What {@link postJson} takes: one JSON POST to a model API. */
export interface PostJsonOptions {
    /** Provider id for errors (`gemini`, `openai`, `anthropic`). */
    provider: string;
    /** Human name used in messages (`Gemini`, `OpenAI`, `Anthropic`). */
    label: string;
    url: string;
    headers: Record<string, string>;
    body: unknown;
    signal?: AbortSignal;
    fetch?: typeof fetch;
    retry?: RetryOptions;
}
/**
 * POSTs `body` as JSON and returns the parsed JSON answer of a 2xx response. Retries 429, 5xx and network
 * errors with exponential backoff and jitter, honouring `Retry-After` / `retry-after-ms` (see
 * {@link RetryOptions}); never retries other statuses. Rejects with a {@link ModelError}: `cancelled`
 * when `signal` fires (no request is made after that), `network_error`, `invalid_response` for a 2xx
 * body that is not JSON, or the status's code with the API's own message
 * (`{ error: { message } }`, the shape Gemini, OpenAI and Anthropic share).
 */
export declare function postJson(options: PostJsonOptions): Promise<unknown>;
/** The {@link ModelErrorCode} of a failed HTTP status. */
export declare function statusCode(status: number): ModelErrorCode;
/**
 * The wait a response asks for, in ms: `retry-after-ms` (OpenAI), else `Retry-After` as seconds or as an
 * HTTP date; undefined when absent or unreadable.
 */
export declare function retryAfterMs(headers: Headers, now?: number): number | undefined;
