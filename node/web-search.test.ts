import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { ToolRunner } from '../src/runner.js';
import { ToolError } from '../src/core/errors.js';
import { createNodePlatform } from './platform.js';
import type { Platform } from '../src/core/types.js';
import { createDuckDuckGoSearch, parseDuckDuckGoResults, unwrapDuckDuckGoUrl } from './web-search.js';

const FIXTURE = readFileSync(join(import.meta.dirname, '..', 'test', 'fixtures', 'node', 'duckduckgo-results.html'), 'utf8');

/** What the fixture page must parse to: the ad, the URL-less entry and the 11th organic result are gone. */
const EXPECTED = [
  {
    title: 'Learn Rust & Cargo',
    url: 'https://www.rust-lang.org/learn?a=1&b=%E2%98%83',
    snippet: 'Get started with Rust: the book, rustlings and async examples.',
  },
  {
    title: 'The Rust Programming Language — The Book',
    url: 'https://doc.rust-lang.org/book/',
    snippet: 'by Steve Klabnik and Carol Nichols, with contributions from the Rust Community.',
  },
  {
    title: 'Tutorial | Tokio',
    url: 'https://tokio.rs/tokio/tutorial',
    snippet: 'Tokio is an asynchronous runtime for the Rust programming language.',
  },
  {
    title: '非同期処理 – Wikipedia',
    url: 'https://ja.wikipedia.org/wiki/%E9%9D%9E%E5%90%8C%E6%9C%9F%E5%87%A6%E7%90%86',
    snippet: '非同期処理とは、タスクの完了を待たずに…',
  },
  {
    title: `What <async> "fn" in traits means 'today'`,
    url: 'https://blog.example.com/posts/async-fn#traits',
    snippet: 'Entities: <T> && © 2024 …',
  },
  {
    title: 'Link only in the shown URL',
    url: 'https://crates.io/crates/futures',
    snippet: 'An implementation of futures and streams.',
  },
  { title: 'async-std', url: 'https://async.rs/', snippet: 'Async version of the Rust standard library.' },
  { title: 'Plain HTTP result', url: 'http://example.org/plain-http', snippet: '' },
  {
    title: 'rust-lang/futures-rs: Zero-cost asynchronous programming in Rust',
    url: 'https://github.com/rust-lang/futures-rs',
    snippet: 'Zero-cost asynchronous programming in Rust.',
  },
  { title: 'Asynchronous Programming in Rust', url: 'https://rust-lang.github.io/async-book/', snippet: 'The async book.' },
];

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

describe('createDuckDuckGoSearch', () => {
  let server: Server;
  let base = '';
  const seen: Seen[] = [];
  const hanging = new Set<ServerResponse>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/html/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
        res.end(FIXTURE);
      } else if (path === '/status/500/') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('internal error');
      } else if (path === '/status/403/') {
        res.writeHead(403, { 'content-type': 'text/html' });
        res.end('<html><body>Forbidden</body></html>');
      } else if (path === '/hang/') {
        hanging.add(res); // never answers
      } else if (path === '/stall-body/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body><div class="result">'); // headers and a first chunk, then nothing
        hanging.add(res);
      } else if (path === '/challenge/') {
        res.writeHead(202, { 'content-type': 'text/html' });
        res.end('<html><body><div class="anomaly-modal__modal">Unfortunately, bots use DuckDuckGo too.</div></body></html>');
      } else if (path === '/empty/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body><div class="no-results">No results.</div></body></html>');
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    seen.length = 0;
  });

  afterAll(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('parses at most 10 results with unwrapped URLs, decoded entities and collapsed whitespace, skipping the ad and the entry without a URL', async () => {
    const search = createDuckDuckGoSearch({ baseUrl: `${base}/html/` });
    const found = await search('rust async');
    expect(found).toEqual({ results: EXPECTED });
    expect(seen).toHaveLength(1);
  });

  it('sends the query as the q parameter of a GET, form-encoded (spaces as +, unicode as UTF-8 escapes)', async () => {
    const search = createDuckDuckGoSearch({ baseUrl: `${base}/html/?kl=wt-wt` });
    await search('  naïve café & 東京 "quotes" +plus  ');
    expect(seen).toHaveLength(1);
    const request = seen[0]!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe(
      '/html/?kl=wt-wt&q=na%C3%AFve+caf%C3%A9+%26+%E6%9D%B1%E4%BA%AC+%22quotes%22+%2Bplus',
    );
    expect(new URL(request.url, 'http://x').searchParams.get('q')).toBe('naïve café & 東京 "quotes" +plus');
    expect(request.headers['user-agent']).toMatch(/Mozilla/);
    expect(request.headers.accept).toBe('text/html');
  });

  it('rejects with unavailable (timed out) when the server never answers', async () => {
    const search = createDuckDuckGoSearch({ baseUrl: `${base}/hang/`, timeoutMs: 300 });
    const started = Date.now();
    await expect(search('rust')).rejects.toEqual(new ToolError('unavailable', 'Search timed out after 300 ms; try again later, or go on without web results'));
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('rejects with unavailable (timed out) when the body stalls after the headers', async () => {
    const search = createDuckDuckGoSearch({ baseUrl: `${base}/stall-body/`, timeoutMs: 300 });
    await expect(search('rust')).rejects.toMatchObject({ code: 'unavailable', message: 'Search timed out after 300 ms; try again later, or go on without web results' });
  });

  it('defaults the deadline to 10000 ms', async () => {
    // Not waiting 10 s: AbortSignal.timeout is observed, and answered with a deadline already passed.
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => AbortSignal.abort(new DOMException('late', 'TimeoutError')));
    try {
      const search = createDuckDuckGoSearch({ baseUrl: `${base}/hang/` });
      await expect(search('rust')).rejects.toMatchObject({ code: 'unavailable', message: 'Search timed out after 10000 ms; try again later, or go on without web results' });
      expect(timeout).toHaveBeenCalledWith(10_000);
    } finally {
      timeout.mockRestore();
    }
  });

  it.each([
    [500, '/status/500/'],
    [403, '/status/403/'],
    [404, '/missing/'],
  ])('rejects with unavailable naming the HTTP status %i', async (status, path) => {
    const search = createDuckDuckGoSearch({ baseUrl: `${base}${path}` });
    await expect(search('rust')).rejects.toMatchObject({ code: 'unavailable', message: `Search failed: DuckDuckGo answered HTTP ${status}; try again later, or go on without web results` });
  });

  it('rejects with unavailable naming the cause when the connection is refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const search = createDuckDuckGoSearch({ baseUrl: `http://127.0.0.1:${port}/html/` });
    await expect(search('rust')).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/^Search failed: .*ECONNREFUSED.*; check that this host can reach the network, or go on without web results$/),
    });
  });

  it.each(['', '   ', '\n\t '])('returns the empty-query note for %j without contacting the server', async (query) => {
    const search = createDuckDuckGoSearch({ baseUrl: `${base}/html/` });
    await expect(search(query)).resolves.toEqual({ results: [], note: 'Empty query' });
    expect(seen).toHaveLength(0);
  });

  it('rejects with the caller’s reason when the caller aborts mid-request', async () => {
    const search = createDuckDuckGoSearch({ baseUrl: `${base}/hang/`, timeoutMs: 5_000 });
    const controller = new AbortController();
    const reason = new Error('stop');
    setTimeout(() => controller.abort(reason), 50);
    const started = Date.now();
    await expect(search('rust', controller.signal)).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('rejects at once, without fetching, when the signal is already aborted', async () => {
    const search = createDuckDuckGoSearch({ baseUrl: `${base}/html/` });
    await expect(search('rust', AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(seen).toHaveLength(0);
  });

  it('rejects a bot-challenge page with unavailable, and answers a page without results with no results', async () => {
    const challenge = createDuckDuckGoSearch({ baseUrl: `${base}/challenge/` });
    await expect(challenge('rust')).rejects.toMatchObject({
      code: 'unavailable',
      message: 'Search blocked: DuckDuckGo answered with a bot challenge instead of results; try again later, or go on without web results',
    });
    const empty = createDuckDuckGoSearch({ baseUrl: `${base}/empty/` });
    await expect(empty('zzzz')).resolves.toEqual({ results: [] });
  });

  it('uses the injected fetch', async () => {
    const calls: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      calls.push(String(input));
      return new Response(FIXTURE, { status: 200, headers: { 'content-type': 'text/html' } });
    };
    const search = createDuckDuckGoSearch({ baseUrl: 'https://search.invalid/html/', fetch });
    const found = await search('a b');
    expect(calls).toEqual(['https://search.invalid/html/?q=a+b']);
    expect(found.results).toEqual(EXPECTED);
  });

  describe('through the runner’s web_search fallback', () => {
    const platformWith = (search: ReturnType<typeof createDuckDuckGoSearch>): Platform => {
      const memory = createMemoryPlatform();
      return { ...memory, capabilities: { ...memory.capabilities, webSearch: true }, webSearch: search };
    };

    it('returns the parsed results for web_search and google_search', async () => {
      const runner = new ToolRunner({ platform: platformWith(createDuckDuckGoSearch({ baseUrl: `${base}/html/` })) });
      const results = await runner.processToolCalls([
        { id: 'a', name: 'web_search', args: { query: 'rust async' } },
        { id: 'b', name: 'google_search', args: { query: 'rust async' } },
      ]);
      expect(results).toEqual([
        { id: 'a', name: 'web_search', result: { results: EXPECTED } },
        { id: 'b', name: 'google_search', result: { results: EXPECTED } },
      ]);
    });

    it('reports a caller abort as cancelled and an HTTP error as a coded failure (unavailable), never a success', async () => {
      const runner = new ToolRunner({ platform: platformWith(createDuckDuckGoSearch({ baseUrl: `${base}/hang/` })) });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const [aborted] = await runner.processToolCalls([{ name: 'web_search', args: { query: 'rust' } }], { signal: controller.signal });
      expect(aborted).toMatchObject({ name: 'web_search', code: 'cancelled' });

      const failing = new ToolRunner({ platform: platformWith(createDuckDuckGoSearch({ baseUrl: `${base}/status/500/` })) });
      await expect(failing.execute('web_search', { query: 'rust' })).rejects.toMatchObject({ code: 'unavailable', message: 'Search failed: DuckDuckGo answered HTTP 500; try again later, or go on without web results' });
      expect(await failing.processToolCalls([{ id: 's', name: 'web_search', args: { query: 'rust' } }])).toEqual([
        { id: 's', name: 'web_search', code: 'unavailable', error: 'Search failed: DuckDuckGo answered HTTP 500; try again later, or go on without web results' },
      ]);
      // Through the Node platform itself, as a user gets it.
      const node = new ToolRunner({ platform: createNodePlatform({ inMemory: true, webSearch: { baseUrl: `${base}/status/403/` } }) });
      await expect(node.execute('google_search', { query: 'rust' })).rejects.toMatchObject({ code: 'unavailable', message: 'Search failed: DuckDuckGo answered HTTP 403; try again later, or go on without web results' });
    });
  });
});

describe('parseDuckDuckGoResults', () => {
  it('honours a smaller cap and never throws on malformed HTML', () => {
    expect(parseDuckDuckGoResults(FIXTURE, 2)).toEqual(EXPECTED.slice(0, 2));
    expect(parseDuckDuckGoResults('<div class="result"><a class="result__a" href="https://a.example/">unclosed <b>bold')).toEqual([
      { title: 'unclosed bold', url: 'https://a.example/', snippet: '' },
    ]);
    expect(parseDuckDuckGoResults('')).toEqual([]);
    expect(parseDuckDuckGoResults('<<<>>> not html at all &&&')).toEqual([]);
  });

  it('uses the URL as the title when the title is empty, and skips ad links outside ad blocks', () => {
    const html =
      '<div class="result"><a class="result__a" href="https://x.example/"> <b></b> </a></div>' +
      '<div class="result"><a class="result__a" href="//duckduckgo.com/y.js?ad_domain=z.example">Sneaky ad</a></div>';
    expect(parseDuckDuckGoResults(html)).toEqual([{ title: 'https://x.example/', url: 'https://x.example/', snippet: '' }]);
  });
});

describe('unwrapDuckDuckGoUrl', () => {
  it.each([
    ['//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fp%3Fq%3D1&rut=abc', 'https://a.example/p?q=1'],
    ['https://duckduckgo.com/l/?uddg=http%3A%2F%2Fb.example%2F', 'http://b.example/'],
    ['//html.duckduckgo.com/l/?rut=1&uddg=https%3A%2F%2Fc.example%2F', 'https://c.example/'],
    ['//duckduckgo.com/l/?uddg=%2F%2Fd.example%2Fx', 'https://d.example/x'],
    ['//e.example/path', 'https://e.example/path'],
    ['https://f.example/a b', 'https://f.example/a%20b'],
  ])('unwraps %s', (href, expected) => {
    expect(unwrapDuckDuckGoUrl(href)).toBe(expected);
  });

  it.each([
    ['//duckduckgo.com/l/?rut=abc'],
    ['//duckduckgo.com/l/?uddg=javascript%3Aalert(1)'],
    ['javascript:alert(1)'],
    ['/relative/path'],
    ['#'],
    ['mailto:a@b.example'],
  ])('rejects %s', (href) => {
    expect(unwrapDuckDuckGoUrl(href)).toBeUndefined();
  });
});
