// A results page written to exhaust the host: links wrapped in redirects many times over, elements
// nested tens of thousands deep, titles of megabytes, and a body that never ends. Each search answers
// within its deadline with a small result, and the thread keeps running timers meanwhile.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTimerWatch } from '../test/support/timer-watch.js';
import { createDuckDuckGoSearch, parseDuckDuckGoResults, unwrapDuckDuckGoUrl, WEB_SEARCH_MAX_TEXT_CHARS } from './web-search.js';

const TIMEOUT_MS = 3000;
/** Ten results of at most 500 + 500 + 4096 characters, with JSON punctuation. */
const MAX_RESULT_CHARS = 60_000;

function wrapped(target: string, times: number): string {
  let url = target;
  for (let i = 0; i < times; i += 1) url = `https://duckduckgo.com/l/?uddg=${encodeURIComponent(url)}`;
  return url;
}

const result = (href: string, title: string, snippet = ''): string =>
  `<div class="result"><a class="result__a" href="${href}">${title}</a><div class="result__snippet">${snippet}</div></div>`;

const PAGES: Record<string, () => string> = {
  // Each link wrapped 11 times (about 350 KB of escapes), repeated to 2 MB.
  '/nested-redirects/': () => result(wrapped('https://deep.example/', 11), 'deep').repeat(8) + result('https://ok.example/', 'ok'),
  '/deep-nesting/': () => '<div class="result"><a class="result__a" href="https://a.example/">'.repeat(50_000) + 'x',
  '/huge-titles/': () => Array.from({ length: 12 }, (_, i) => result(`https://t${i}.example/`, 'T'.repeat(38_000), 'S'.repeat(38_000))).join(''),
};

describe('createDuckDuckGoSearch on a hostile page', () => {
  let server: Server;
  let base = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
      if (path === '/endless/') {
        // Writes as fast as the socket takes it until the client goes away.
        const chunk = Buffer.from(result('https://loop.example/', 'loop').repeat(2000));
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => res.destroy());
        pump();
        return;
      }
      res.end(PAGES[path]?.() ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function timed(path: string) {
    const search = createDuckDuckGoSearch({ baseUrl: `${base}${path}`, timeoutMs: TIMEOUT_MS });
    const { value, ms, waited, gap } = await withTimerWatch(() => search('anything'));
    // How long the code took: the wall clock less the time a busy machine kept the process waiting.
    return { result: value, elapsed: ms - waited, longestGap: gap };
  }

  it('gives up links wrapped in redirects over and over and keeps the plain one', async () => {
    const { result, elapsed } = await timed('/nested-redirects/');
    expect(result).toEqual({ results: [{ title: 'ok', url: 'https://ok.example/', snippet: '' }] });
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 250);
  });

  it('parses elements nested 50,000 deep without a stack overflow', async () => {
    const { result, elapsed } = await timed('/deep-nesting/');
    // An <a> opening inside an <a> closes it, as in HTML: the first link has no text, so its URL is the title.
    expect(result.results).toEqual([{ title: 'https://a.example/', url: 'https://a.example/', snippet: '' }]);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 250);
  });

  it('cuts huge titles and snippets, keeping the result small', async () => {
    const { result, elapsed } = await timed('/huge-titles/');
    expect(result.results).toHaveLength(10);
    for (const hit of result.results) {
      expect(hit.title).toHaveLength(WEB_SEARCH_MAX_TEXT_CHARS);
      expect(hit.title.endsWith('…')).toBe(true);
      expect(hit.snippet).toHaveLength(WEB_SEARCH_MAX_TEXT_CHARS);
    }
    expect(JSON.stringify(result).length).toBeLessThan(MAX_RESULT_CHARS);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 250);
  });

  it('reads at most 1 MiB of an endless body, then answers from it', async () => {
    const rss = process.memoryUsage().rss;
    const { result, elapsed, longestGap } = await timed('/endless/');
    expect(result.results).toHaveLength(10);
    expect(result.results[0]).toEqual({ title: 'loop', url: 'https://loop.example/', snippet: '' });
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 250);
    expect(longestGap).toBeLessThan(1000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
  });
});

describe('parseDuckDuckGoResults and unwrapDuckDuckGoUrl bounds', () => {
  it('unwraps a link wrapped four times and refuses one wrapped five times', () => {
    expect(unwrapDuckDuckGoUrl(wrapped('https://a.example/', 4))).toBe('https://a.example/');
    expect(unwrapDuckDuckGoUrl(wrapped('https://a.example/', 5))).toBeUndefined();
  });

  it('skips a result whose URL is over 4096 characters', () => {
    const long = `https://long.example/${'p'.repeat(5000)}`;
    expect(parseDuckDuckGoResults(result(long, 'long') + result('https://short.example/', 'short'))).toEqual([
      { title: 'short', url: 'https://short.example/', snippet: '' },
    ]);
  });
});
