import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from './platform.js';

// A local server whose /hang pages never finish: Gemini's web_fetch must answer them all within one deadline.
let server: Server;
let base: string;
const hanging: ServerResponse[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    if ((req.url ?? '').startsWith('/hang')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('waiting');
      hanging.push(res);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`page ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function runner(): ToolRunner {
  return new ToolRunner({ platform: createNodePlatform({ network: { allowAddresses: ['127.0.0.1'] } }), tools: toolProfiles.gemini() });
}

type Entry = { url: string; code?: string; error?: string; content?: string };

describe('web_fetch (Gemini profile): one deadline for the whole call', () => {
  it('answers hanging URLs as timeouts within the call, not one deadline per URL', async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `${base}/hang?${i}`);
    const r = runner();
    // The URLs share 80 % of the call's 2.5 s. Fetched one after another, each with its own deadline, six would
    // take 6 × that: the call itself would end with `timeout` (execute rejects), no entries.
    const out = (await r.execute('web_fetch', { prompt: `Compare ${urls.join(' and ')}.` }, { timeoutMs: 2_500 })) as { results: Entry[] };
    expect(out.results.map((x) => x.url)).toEqual(urls);
    expect(out.results.map((x) => x.code)).toEqual(Array(6).fill('timeout'));
    // Two at a time: the first two were being fetched when the time ran out, the last never started.
    expect(out.results[0]!.error).toMatch(/^fetching ".*\/hang\?0" did not finish within the \d+ ms this call has for all its 6 URLs/);
    expect(out.results[5]!.error).toMatch(/\/hang\?5" was not fetched: the \d+ ms this call has for all its 6 URLs ran out first/);
  });

  it('keeps the pages that did arrive, in the order the prompt names them', async () => {
    const urls = [`${base}/a`, `${base}/hang?x`, `${base}/b`];
    // A deadline the pages that answer meet on a busy machine: the hanging one waits it out.
    const out = (await runner().execute('web_fetch', { prompt: `Read ${urls.join(', ')}` }, { timeoutMs: 8_000 })) as { results: Entry[] };
    expect(out.results.map((x) => x.url)).toEqual(urls);
    expect(out.results[0]).toMatchObject({ content: 'page /a' });
    expect(out.results[1]).toMatchObject({ code: 'timeout' });
    expect(out.results[2]).toMatchObject({ content: 'page /b' });
  });
});
