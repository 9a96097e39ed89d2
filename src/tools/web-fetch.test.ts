import { describe, expect, it } from 'vitest';
import { createFetchNetwork } from '../core/network.js';
import { ToolRunner, type ToolCallResult } from '../runner.js';
import type { Platform } from '../core/types.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { isNode } from '../../test/support/env.js';
import { webFetchTool } from './web-fetch.js';
import { htmlToMarkdown } from './web-fetch/html.js';

const PAGE = '<!doctype html><html><head><title>T</title></head><body><h2>Tools</h2><table><tr><th>name</th><th>kind</th></tr><tr><td>view</td><td>read</td></tr></table><p>See <code>x()</code>.</p></body></html>';

/** A memory platform whose network answers with real Responses from `reply` (the platform's fetch port). */
function withNetwork(reply: (url: string) => Response, policy = {}): Platform {
  return { ...createMemoryPlatform(), network: createFetchNetwork({ policy, fetch: async (input) => reply(String(input)), redirects: 'follow' }) };
}

describe('web_fetch (platform network port)', () => {
  it('converts HTML to Markdown with GitHub tables, in Node and in the browser', async () => {
    const runner = new ToolRunner({ platform: withNetwork(() => new Response(PAGE, { headers: { 'content-type': 'text/html' } })), tools: [webFetchTool] });
    expect(await runner.execute('web_fetch', { url: 'https://docs.example.com/tools' })).toEqual({
      url: 'https://docs.example.com/tools',
      final_url: 'https://docs.example.com/tools',
      status: 200,
      content_type: 'text/html',
      content: '## Tools\n\n| name | kind |\n| ---- | ---- |\n| view | read |\n\nSee `x()`.\n',
      truncated: false,
      redirects: 0,
    });
  });

  it('checks the allow-list before fetching and an IP-literal host against the refused ranges', async () => {
    let fetched = 0;
    const platform = withNetwork(() => {
      fetched += 1;
      return new Response('x');
    }, { allow: ['https://docs.example.com/'] });
    const runner = new ToolRunner({ platform, tools: [webFetchTool] });
    const [other, local] = (await runner.processToolCalls([
      { name: 'web_fetch', args: { url: 'https://evil.example.com/' } },
      { name: 'web_fetch', args: { url: 'http://192.168.1.1/admin' } },
    ])) as [ToolCallResult, ToolCallResult];
    expect(other).toMatchObject({ code: 'permission_denied', error: 'the network policy refuses "https://evil.example.com/": it is under none of the allowed URL prefixes ("https://docs.example.com/")' });
    expect(local).toMatchObject({ code: 'permission_denied' });
    expect(fetched).toBe(0);
  });

  it('answers with a note on a platform without a network', async () => {
    const runner = new ToolRunner({ tools: [webFetchTool] });
    expect(await runner.execute('web_fetch', { url: 'https://example.com/' })).toMatchObject({ content: '', note: 'web_fetch is not available on the memory platform (it has no network)' });
  });

  // The browser's own fetch, same origin as the test page (the Vite server that serves it): Node has no page origin to fetch from.
  it.skipIf(isNode)('fetches through the browser\'s fetch under its CORS rules', async () => {
    const platform: Platform = { ...createMemoryPlatform(), network: createFetchNetwork({ policy: { allowAddresses: ['127.0.0.1'] } }) };
    const runner = new ToolRunner({ platform, tools: [webFetchTool] });
    const url = new URL('/package.json', (globalThis as unknown as { location: { href: string } }).location.href).href;
    const result = (await runner.execute('web_fetch', { url })) as { status: number; content: string };
    expect(result.status).toBe(200);
    expect(JSON.parse(result.content)).toMatchObject({ name: 'toolhost' });
  });

  it('answers too_large naming the nesting of a deep page, never a stack overflow (on Node a worker thread converts, in the browser this one)', async () => {
    const deep = `<!doctype html><html><body>${'<div>'.repeat(5000)}x${'</div>'.repeat(5000)}</body></html>`;
    const runner = new ToolRunner({ platform: withNetwork(() => new Response(deep, { headers: { 'content-type': 'text/html' } })), tools: [webFetchTool] });
    expect(await runner.processToolCalls([{ name: 'web_fetch', args: { url: 'https://docs.example.com/deep' } }])).toEqual([
      {
        name: 'web_fetch',
        code: 'too_large',
        error: 'the page nests elements more than 1000 deep, deeper than web_fetch converts; fetch another version of the page (a printable or plain-text one) or another page',
      },
    ]);
  });

  it('converts a page nested up to the cap', async () => {
    const html = `<html><body>${'<div>'.repeat(990)}deep text${'</div>'.repeat(990)}</body></html>`;
    expect(htmlToMarkdown(html)).toBe('deep text\n');
  });

  it('caps the nodes converted and checks the deadline while converting', () => {
    const rows = `<table>${'<tr><td>a</td><td>b</td></tr>'.repeat(2000)}</table>`;
    expect(() => htmlToMarkdown(rows, { maxNodes: 1000 })).toThrow(
      expect.objectContaining({ code: 'too_large', message: "the page has more than 1000 elements and text nodes, more than web_fetch converts; fetch a smaller page (a section's own URL, a printable or plain-text version)" }),
    );
    // The deadline is the host's, not the model's to lengthen: the advice is what the model can do.
    expect(() => htmlToMarkdown(rows, { deadline: Date.now() - 1 })).toThrow(
      expect.objectContaining({ code: 'timeout', message: "converting the page to Markdown took past this call's time limit; fetch a smaller page" }),
    );
    expect(htmlToMarkdown(rows, { deadline: Date.now() + 60_000 })).toMatch(/^\| {3}\| {3}\|\n\| - \| - \|\n\| a \| b \|\n/);
  });
});
