import { describe, expect, it } from 'vitest';
import { postJson, retryAfterMs, statusCode } from './retry.js';
import { stopwatch } from '../../../test/support/starvation.js';

type Answer = Response | Error | ((init: RequestInit) => Promise<Response>);

function fakeFetch(answers: Answer[]): typeof fetch & { calls: { url: string; init: RequestInit; at: number }[] } {
  const calls: { url: string; init: RequestInit; at: number }[] = [];
  const fn = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {}, at: Date.now() });
    const answer = answers.shift();
    if (answer === undefined) throw new Error('fakeFetch: no answer left');
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return answer(init ?? {});
    return answer;
  }) as typeof fetch & { calls: typeof calls };
  fn.calls = calls;
  return fn;
}

const ok = (body: unknown): Response => new Response(JSON.stringify(body), { status: 200 });
const fail = (status: number, message: string, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify({ error: { message } }), { status, headers });
const base = { provider: 'test', label: 'Test', url: 'http://127.0.0.1:1/x', headers: { 'x-k': 'v' }, body: { a: 1 } };

describe('postJson', () => {
  it('posts JSON with the given headers and returns the parsed body', async () => {
    const fetch = fakeFetch([ok({ hello: 'world' })]);
    expect(await postJson({ ...base, fetch })).toEqual({ hello: 'world' });
    expect(fetch.calls[0]?.init).toMatchObject({ method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json', 'x-k': 'v' } });
  });

  it('retries 429 and 5xx with exponential backoff and jitter, then succeeds', async () => {
    const fetch = fakeFetch([fail(503, 'busy'), fail(429, 'slow down'), fail(500, 'oops'), ok({ done: true })]);
    const started = stopwatch();
    expect(await postJson({ ...base, fetch, retry: { baseDelayMs: 20, random: () => 0 } })).toEqual({ done: true });
    // random 0 waits half of 20, 40, 80 ms.
    const gaps = fetch.calls.slice(1).map((c, i) => c.at - (fetch.calls[i]?.at ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(9);
    expect(gaps[1]).toBeGreaterThanOrEqual(19);
    expect(gaps[2]).toBeGreaterThanOrEqual(39);
    expect(started.net()).toBeLessThan(1000);
  });

  it('gives up after maxRetries (default 3) with the status, the API message and the retry count', async () => {
    const fetch = fakeFetch([fail(500, 'boom'), fail(500, 'boom'), fail(500, 'boom'), fail(500, 'boom'), ok({})]);
    await expect(postJson({ ...base, fetch, retry: { baseDelayMs: 1 } })).rejects.toMatchObject({
      name: 'ModelError',
      code: 'server_error',
      status: 500,
      provider: 'test',
      apiMessage: 'boom',
      retries: 3,
      message: 'Test API error 500: boom (after 3 retries)',
    });
    expect(fetch.calls).toHaveLength(4);
  });

  it('does not retry other statuses', async () => {
    for (const [status, code] of [[400, 'bad_request'], [401, 'unauthorized'], [403, 'unauthorized'], [404, 'not_found'], [422, 'bad_request']] as const) {
      const fetch = fakeFetch([fail(status, 'API key not valid. Please pass a valid API key.'), ok({})]);
      await expect(postJson({ ...base, fetch })).rejects.toMatchObject({ code, status, message: `Test API error ${status}: API key not valid. Please pass a valid API key.` });
      expect(fetch.calls).toHaveLength(1);
    }
  });

  it('waits exactly what Retry-After asks, and fails at once when it asks too much', async () => {
    const fetch = fakeFetch([fail(429, 'later', { 'retry-after-ms': '60' }), ok({ fine: 1 })]);
    expect(await postJson({ ...base, fetch, retry: { baseDelayMs: 1 } })).toEqual({ fine: 1 });
    expect((fetch.calls[1]?.at ?? 0) - (fetch.calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(55);
    const slow = fakeFetch([fail(429, 'later', { 'retry-after': '3600' }), ok({})]);
    await expect(postJson({ ...base, fetch: slow })).rejects.toMatchObject({
      code: 'rate_limited',
      message: 'Test API error 429: later (the API asks to retry after 3600 s, longer than maxRetryAfterMs)',
    });
    expect(slow.calls).toHaveLength(1);
  });

  it('retries network errors and names the cause when it gives up', async () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    const recovered = fakeFetch([refused, ok({ back: true })]);
    expect(await postJson({ ...base, fetch: recovered, retry: { baseDelayMs: 1 } })).toEqual({ back: true });
    const down = fakeFetch([refused, refused, refused]);
    await expect(postJson({ ...base, fetch: down, retry: { baseDelayMs: 1, maxRetries: 2 } })).rejects.toMatchObject({
      code: 'network_error',
      message: 'Test API request to http://127.0.0.1:1/x failed: fetch failed (connect ECONNREFUSED 127.0.0.1:1) (after 2 retries)',
    });
  });

  it('makes no request after the signal fires, even while waiting to retry', async () => {
    const before = fakeFetch([ok({})]);
    await expect(postJson({ ...base, fetch: before, signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'cancelled' });
    expect(before.calls).toHaveLength(0);
    const controller = new AbortController();
    const waiting = fakeFetch([fail(503, 'busy'), ok({})]);
    const pending = postJson({ ...base, fetch: waiting, signal: controller.signal, retry: { baseDelayMs: 10_000 } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled', message: 'Test API request was cancelled while waiting to retry' });
    expect(waiting.calls).toHaveLength(1);
  });

  it('turns an aborted fetch into cancelled, not a retried network error', async () => {
    const controller = new AbortController();
    const fetch = fakeFetch([
      (init) =>
        new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
      ok({}),
    ]);
    const pending = postJson({ ...base, fetch, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(fetch.calls).toHaveLength(1);
  });

  it('reports a 2xx body that is not JSON as invalid_response, and a non-JSON error body by its text', async () => {
    await expect(postJson({ ...base, fetch: fakeFetch([new Response('<html>', { status: 200 })]) })).rejects.toMatchObject({
      code: 'invalid_response',
      message: 'Test API answered 200 with a body that is not JSON: <html>',
    });
    await expect(postJson({ ...base, fetch: fakeFetch([new Response('Bad gateway', { status: 400 })]) })).rejects.toMatchObject({
      message: 'Test API error 400: Bad gateway',
    });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150', 'retry-after': '9' }), now)).toBe(150);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('maps statuses to codes', () => {
    expect([400, 401, 403, 404, 429, 500, 529].map(statusCode)).toEqual([
      'bad_request', 'unauthorized', 'unauthorized', 'not_found', 'rate_limited', 'server_error', 'server_error',
    ]);
  });
});
