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

/** `hex` as bytes. */
function bytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/** `parts` (strings as ASCII, byte arrays as they are) joined into one body. */
function body(...parts: Array<string | Uint8Array>): Uint8Array<ArrayBuffer> {
  const chunks = parts.map((part) => (typeof part === 'string' ? new TextEncoder().encode(part) : part));
  const out = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** web_fetch's answer for a page of `content` served with the header `contentType` (none when undefined). */
async function fetched(content: Uint8Array<ArrayBuffer>, contentType?: string): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
  const runner = new ToolRunner({ platform: withNetwork(() => new Response(content, { headers })), tools: [webFetchTool] });
  return (await runner.execute('web_fetch', { url: 'https://docs.example.com/page' })) as Record<string, unknown>;
}

describe('web_fetch decodes the page as browsers do', () => {
  const latin1 = bytes('636166e9206e61ef7665'); // "café naïve" in ISO-8859-1
  const shiftJis = bytes('93fa967b8cea82cc8365834c83588367'); // "日本語のテキスト" in Shift_JIS
  const cp1251 = bytes('cff0e8e2e5f220ece8f0'); // "Привет мир" in windows-1251

  it('by the Content-Type charset (iso-8859-1 meaning windows-1252, as WHATWG says)', async () => {
    expect(await fetched(body('<p>', latin1, '</p>'), 'text/html; charset=iso-8859-1')).toMatchObject({ content: 'café naïve\n', encoding: 'windows-1252' });
    expect(await fetched(body('<p>', shiftJis, '</p>'), 'text/html; charset="Shift_JIS"')).toMatchObject({ content: '日本語のテキスト\n', encoding: 'shift_jis' });
    expect(await fetched(body(latin1), 'text/plain; charset=latin1')).toMatchObject({ content: 'café naïve', encoding: 'windows-1252' });
  });

  it('by a <meta> charset in the first 1,024 bytes of an HTML page', async () => {
    expect(await fetched(body('<html><head><meta charset="windows-1251"></head><body><p>', cp1251, '</p>'), 'text/html')).toMatchObject({ content: 'Привет мир\n', encoding: 'windows-1251' });
    const httpEquiv = body('<!doctype html><html><head><meta http-equiv="Content-Type" content="text/html; charset=shift_jis"></head><body><p>', shiftJis, '</p>');
    expect(await fetched(httpEquiv)).toMatchObject({ content: '日本語のテキスト\n', encoding: 'shift_jis' });
    // Past the first 1,024 bytes a <meta> is not looked for: UTF-8, as in browsers.
    const late = body(`<html><head><!--${'x'.repeat(1100)}--><meta charset="windows-1251"></head><body><p>`, cp1251, '</p>');
    expect(await fetched(late, 'text/html')).not.toHaveProperty('encoding');
    // A charset in another <meta>'s content is not a declaration; single quotes and case do not matter.
    const other = body(`<html><head><meta name="description" content="text/html; charset=koi8-r"><META HTTP-EQUIV='content-type' CONTENT='text/html;charset=windows-1251'></head><body><p>`, cp1251, '</p>');
    expect(await fetched(other, 'text/html')).toMatchObject({ content: 'Привет мир\n', encoding: 'windows-1251' });
    // A <meta> in a text/plain body is text, not a declaration.
    expect(await fetched(body('<meta charset="windows-1251">', cp1251), 'text/plain')).not.toHaveProperty('encoding');
  });

  it('by a byte order mark first (UTF-16 either way round), over the header', async () => {
    const utf16le = body(bytes('fffe'), Uint8Array.from([...'<p>utf sixteen</p>'].flatMap((c) => [c.charCodeAt(0), 0])));
    expect(await fetched(utf16le, 'text/html; charset=utf-16')).toMatchObject({ content: 'utf sixteen\n', encoding: 'utf-16le' });
    const utf16be = body(bytes('feff'), Uint8Array.from([...'<p>big end</p>'].flatMap((c) => [0, c.charCodeAt(0)])));
    expect(await fetched(utf16be, 'text/html; charset=iso-8859-1')).toMatchObject({ content: 'big end\n', encoding: 'utf-16be' });
    const result = await fetched(body(bytes('efbbbf'), '<p>caf', bytes('c3a9'), '</p>'), 'text/html; charset=windows-1252');
    expect(result).toMatchObject({ content: 'café\n' });
    expect(result).not.toHaveProperty('encoding');
  });

  it('passes over a label it does not know, and answers UTF-8 with no encoding field', async () => {
    const page = body('<html><head><meta charset="windows-1251"></head><body><p>', cp1251, '</p>');
    expect(await fetched(page, 'text/html; charset=no-such-charset')).toMatchObject({ content: 'Привет мир\n', encoding: 'windows-1251' });
    const utf8 = await fetched(new TextEncoder().encode('<p>Привет</p>'), 'text/html; charset=utf-8');
    expect(utf8).toMatchObject({ content: 'Привет\n' });
    expect(utf8).not.toHaveProperty('encoding');
    expect(await fetched(new TextEncoder().encode('{"a":"é"}'), 'application/json')).not.toHaveProperty('encoding');
  });
});
