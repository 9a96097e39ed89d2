import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner, type ToolCallResult } from '../src/runner.js';
import type { NetworkPolicy } from '../src/core/types.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from './platform.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/docs/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>T</title><script>alert(1)</script></head><body><h1>Guide</h1><p>Read the <a href="/docs/next">next part</a> and <strong>enjoy</strong>.</p><ul><li>one</li><li>two</li></ul></body></html>');
    } else if (url === '/docs/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(3 * 1024 * 1024));
    } else if (url === '/docs/moved') {
      res.writeHead(302, { location: '/docs/page' });
      res.end();
    } else if (url.startsWith('/loop')) {
      const n = Number(url.slice(5) || '0');
      res.writeHead(302, { location: `/loop${n + 1}` });
      res.end();
    } else if (url === '/private/secret') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('secret');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function runner(policy?: NetworkPolicy): ToolRunner {
  return new ToolRunner({ platform: createNodePlatform(policy ? { network: policy } : {}), tools: toolProfiles.toolhost() });
}

async function fetchCall(r: ToolRunner, args: Record<string, unknown>): Promise<ToolCallResult> {
  const [result] = (await r.processToolCalls([{ name: 'web_fetch', args }])) as [ToolCallResult];
  return result;
}

describe('web_fetch on Node', () => {
  it('converts an HTML page to Markdown', async () => {
    const r = runner({ allowAddresses: ['127.0.0.1'] });
    expect(await r.execute('web_fetch', { url: `${base}/docs/page` })).toEqual({
      url: `${base}/docs/page`,
      final_url: `${base}/docs/page`,
      status: 200,
      content_type: 'text/html; charset=utf-8',
      content: '# Guide\n\nRead the [next part](/docs/next) and **enjoy**.\n\n* one\n* two\n',
      truncated: false,
      redirects: 0,
    });
  });

  it('follows redirects, checking each hop, up to the limit', async () => {
    const r = runner({ allowAddresses: ['127.0.0.1'] });
    expect(await r.execute('web_fetch', { url: `${base}/docs/moved` })).toMatchObject({ final_url: `${base}/docs/page`, redirects: 1, status: 200 });
    expect(await fetchCall(r, { url: `${base}/loop` })).toMatchObject({
      code: 'execution_failed',
      error: `"${base}/loop" redirected more than 5 times (last to "/loop6"); fetch the final URL directly`,
    });
  });

  it('caps the bytes read and the characters returned', async () => {
    const r = runner({ allowAddresses: ['127.0.0.1'] });
    const big = (await r.execute('web_fetch', { url: `${base}/docs/big`, max_chars: 1_000_000 })) as { content: string; truncated: boolean; note: string };
    expect(big.content.length).toBe(1_000_000);
    expect(big.truncated).toBe(true);
    expect(big.note).toBe('the body was longer than 2097152 bytes; only the start was read');
    const small = (await r.execute('web_fetch', { url: `${base}/docs/page`, max_chars: 7 })) as { content: string; note: string };
    expect(small.content).toBe('# Guide');
    expect(small.note).toBe('the content was cut at 7 characters (63 more); pass a larger max_chars to see more');
  });

  it('refuses loopback addresses unless the policy allows them, naming the rule', async () => {
    const r = runner();
    expect(await fetchCall(r, { url: `${base}/docs/page` })).toEqual({
      name: 'web_fetch',
      code: 'permission_denied',
      error: 'the network policy refuses "127.0.0.1": it is a loopback address (127.0.0.1), and only addresses the host allows may be fetched from that range (allowAddresses of its network policy; the toolhost command\'s --allow-address); fetch a public URL instead',
    });
    const port = new URL(base).port;
    expect(await fetchCall(r, { url: `http://localhost:${port}/docs/page` })).toMatchObject({ code: 'permission_denied' });
    expect(await fetchCall(r, { url: 'http://10.1.2.3/' })).toMatchObject({ code: 'permission_denied', error: expect.stringContaining('it is a private address (10.1.2.3)') });
    expect(await fetchCall(r, { url: 'http://169.254.169.254/latest/meta-data' })).toMatchObject({ code: 'permission_denied', error: expect.stringContaining('it is a link-local address') });
    expect(await fetchCall(r, { url: 'http://[::1]/' })).toMatchObject({ code: 'permission_denied', error: expect.stringContaining('it is a loopback address (::1)') });
  });

  it('fetches only under the allowed URL prefixes, redirect targets included', async () => {
    const r = runner({ allow: [`${base}/docs/`], allowAddresses: ['127.0.0.1'] });
    expect(await r.execute('web_fetch', { url: `${base}/docs/page` })).toMatchObject({ status: 200 });
    expect(await fetchCall(r, { url: `${base}/private/secret` })).toMatchObject({
      code: 'permission_denied',
      error: `the network policy refuses "${base}/private/secret": it is under none of the allowed URL prefixes ("${base}/docs/")`,
    });
    const post = runner({ allow: [{ prefix: `${base}/docs/`, methods: ['POST'] }], allowAddresses: ['127.0.0.1'] });
    expect(await fetchCall(post, { url: `${base}/docs/page` })).toMatchObject({
      code: 'permission_denied',
      error: `the network policy refuses GET "${base}/docs/page": the rule for prefix "${base}/docs/" allows only POST`,
    });
  });

  it('refuses what is not an http(s) URL', async () => {
    const r = runner();
    expect(await fetchCall(r, { url: 'file:///etc/passwd' })).toMatchObject({ code: 'invalid_arguments', error: '"file:///etc/passwd" is not an http or https URL; only those can be fetched' });
    expect(await fetchCall(r, { url: 'not a url' })).toMatchObject({ code: 'invalid_arguments' });
  });
});

describe('web_fetch (Gemini profile)', () => {
  it('fetches the URLs named in the prompt', async () => {
    const r = new ToolRunner({ platform: createNodePlatform({ network: { allowAddresses: ['127.0.0.1'] } }), tools: toolProfiles.gemini() });
    const out = (await r.execute('web_fetch', { prompt: `Summarise ${base}/docs/page and ${base}/private/secret.` })) as { results: Array<{ content: string }> };
    expect(out.results.map((x) => x.content)).toEqual(['# Guide\n\nRead the [next part](/docs/next) and **enjoy**.\n\n* one\n* two\n', 'secret']);
  });
});
