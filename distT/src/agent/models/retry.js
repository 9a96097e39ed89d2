import { ModelError } from './types.js';
const DEFAULTS = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };
/**
 * POSTs `body` as JSON and returns the parsed JSON answer of a 2xx response. Retries 429, 5xx and network
 * errors with exponential backoff and jitter, honouring `Retry-After` / `retry-after-ms` (see
 * {@link RetryOptions}); never retries other statuses. Rejects with a {@link ModelError}: `cancelled`
 * when `signal` fires (no request is made after that), `network_error`, `invalid_response` for a 2xx
 * body that is not JSON, or the status's code with the API's own message
 * (`{ error: { message } }`, the shape Gemini, OpenAI and Anthropic share).
 */
export async function postJson(options) {
    const policy = { ...DEFAULTS, ...options.retry };
    const random = options.retry?.random ?? Math.random;
    const { provider, label, signal } = options;
    const text = JSON.stringify(options.body);
    for (let attempt = 0;; attempt += 1) {
        throwIfAborted(signal, provider, label, attempt);
        const doFetch = options.fetch ?? globalThis.fetch;
        let response;
        try {
            const init = { method: 'POST', headers: { 'content-type': 'application/json', ...options.headers }, body: text };
            if (signal)
                init.signal = signal;
            response = await doFetch(options.url, init);
        }
        catch (error) {
            throwIfAborted(signal, provider, label, attempt);
            const reason = error instanceof Error ? describeNetworkError(error) : String(error);
            if (attempt < policy.maxRetries) {
                await sleep(backoff(attempt, policy, random), signal, provider, label, attempt);
                continue;
            }
            throw new ModelError('network_error', `${label} API request to ${options.url} failed: ${reason}${retried(attempt)}`, {
                provider,
                retries: attempt,
            });
        }
        if (response.ok) {
            let raw;
            try {
                raw = await response.text();
            }
            catch (error) {
                throwIfAborted(signal, provider, label, attempt);
                throw new ModelError('network_error', `${label} API response could not be read: ${error.message}`, { provider, retries: attempt });
            }
            try {
                return JSON.parse(raw);
            }
            catch {
                throw new ModelError('invalid_response', `${label} API answered ${response.status} with a body that is not JSON: ${clip(raw)}`, {
                    provider,
                    status: response.status,
                    retries: attempt,
                });
            }
        }
        const status = response.status;
        const bodyText = await response.text().catch(() => '');
        const apiMessage = extractApiMessage(bodyText) ?? (response.statusText || 'no error message');
        const retryable = status === 429 || status >= 500;
        if (retryable && attempt < policy.maxRetries) {
            const after = retryAfterMs(response.headers);
            if (after !== undefined && after > policy.maxRetryAfterMs) {
                throw new ModelError(statusCode(status), `${label} API error ${status}: ${apiMessage} (the API asks to retry after ${Math.ceil(after / 1000)} s, longer than maxRetryAfterMs)`, { provider, status, apiMessage, retries: attempt });
            }
            await sleep(after ?? backoff(attempt, policy, random), signal, provider, label, attempt);
            continue;
        }
        throw new ModelError(statusCode(status), `${label} API error ${status}: ${apiMessage}${retried(attempt)}`, {
            provider,
            status,
            apiMessage,
            retries: attempt,
        });
    }
}
/** The {@link ModelErrorCode} of a failed HTTP status. */
export function statusCode(status) {
    if (status === 401 || status === 403)
        return 'unauthorized';
    if (status === 404)
        return 'not_found';
    if (status === 429)
        return 'rate_limited';
    if (status >= 500)
        return 'server_error';
    return 'bad_request';
}
/**
 * The wait a response asks for, in ms: `retry-after-ms` (OpenAI), else `Retry-After` as seconds or as an
 * HTTP date; undefined when absent or unreadable.
 */
export function retryAfterMs(headers, now = Date.now()) {
    const ms = headers.get('retry-after-ms');
    if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)))
        return Math.max(0, Number(ms));
    const value = headers.get('retry-after');
    if (value === null || value.trim() === '')
        return undefined;
    const seconds = Number(value);
    if (Number.isFinite(seconds))
        return Math.max(0, seconds * 1000);
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
function backoff(attempt, policy, random) {
    const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
    return full / 2 + (random() * full) / 2;
}
function retried(attempt) {
    return attempt === 0 ? '' : ` (after ${attempt} ${attempt === 1 ? 'retry' : 'retries'})`;
}
function extractApiMessage(text) {
    if (!text)
        return undefined;
    try {
        const body = JSON.parse(text);
        const candidates = [body, Array.isArray(body) ? body[0] : undefined];
        for (const item of candidates) {
            const error = item?.error;
            if (typeof error === 'string')
                return error;
            const message = error?.message;
            if (typeof message === 'string' && message)
                return message;
            const top = item?.message;
            if (typeof top === 'string' && top)
                return top;
        }
    }
    catch {
        // Not JSON: fall through to the text itself.
    }
    return clip(text.trim()) || undefined;
}
function clip(text, max = 300) {
    return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}
function describeNetworkError(error) {
    const cause = error.cause;
    const detail = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : '';
    return detail && !error.message.includes(detail) ? `${error.message} (${detail})` : error.message;
}
function throwIfAborted(signal, provider, label, attempt) {
    if (signal?.aborted) {
        throw new ModelError('cancelled', `${label} API request was cancelled`, { provider, retries: attempt });
    }
}
function sleep(ms, signal, provider, label, attempt) {
    return new Promise((resolve, reject) => {
        if (signal?.aborted) {
            reject(new ModelError('cancelled', `${label} API request was cancelled`, { provider, retries: attempt }));
            return;
        }
        const onAbort = () => {
            clearTimeout(timer);
            reject(new ModelError('cancelled', `${label} API request was cancelled while waiting to retry`, { provider, retries: attempt }));
        };
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
    });
}
//# sourceMappingURL=retry.js.map