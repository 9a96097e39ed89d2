// web_fetch against a hostile page server (raw node:http on 127.0.0.1): pages built to make the HTML →
// Markdown conversion slow (600 KB of table rows, 2 MB of paragraphs) or deep (200,000 nested divs). The
// conversion runs on a worker thread, so the host's event loop keeps ticking the whole time; deep
// pages answer `too_large` naming their nesting; the call's deadline ends a conversion still running.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offThread } from '#lazy';
import { ToolRunner, type ToolCallResult } from '../src/runner.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { withTimerWatch } from '../test/support/timer-watch.js';
import { createNodePlatform } from './platform.js';
import { stopwatch } from '../test/support/starvation.js';

/**
 * Longest pause of the host's event loop allowed while calls run: far under the seconds a conversion on
 * it takes (2-7 s for the tables, 7-20 s for the paragraphs), and generous for a busy machine, where a thread doing nothing but
 * its timer was seen paused up to 220 ms by the scheduler alone (load 9 on 2 cores).
 */
const MAX_STALL_MS = 500;

function widePage(bytes: number): string {
  const rows: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i += 1) {
    const row = `<tr><td>cell ${i}</td><td>v${i}</td><td>x</td></tr>`;
    rows.push(row);
    size += row.length;
  }
  return `<!doctype html><html><body><table>${rows.join('')}</table></body></html>`;
}

function paragraphPage(bytes: number): string {
  const paragraphs: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i += 1) {
    const p = `<p>Paragraph ${i} with <a href="/x${i}">a link</a> and <b>bold</b> text.</p>`;
    paragraphs.push(p);
    size += p.length;
  }
  return `<!doctype html><html><body>${paragraphs.join('')}</body></html>`;
}

const PAGES: Record<string, string> = {
  // Big enough that converting it on the host's thread (about 2 s here, at least 0.7 s on a machine
  // three times faster) would hold the event loop far past MAX_STALL_MS.
  '/wide': widePage(600_000),
  '/paragraphs': paragraphPage(2_000_000),
  '/deep': `<!doctype html><html><body>${'<div>'.repeat(200_000)}x${'</div>'.repeat(200_000)}</body></html>`,
  '/deep-unclosed': `<!doctype html><html><body>${'<div>'.repeat(200_000)}x</body></html>`,
  '/small': '<!doctype html><html><body><h1>Small</h1><p>fine</p></body></html>',
  // Empty emphasis and icon fonts: 3,000 of these once took the conversion seconds, growing with their square.
  '/empties': `<!doctype html><html><body><h1>Icons</h1><p>start ${'<b></b> <i class="fa fa-star"></i><strong><em></em></strong>'.repeat(30_000)}end</p></body></html>`,
};

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const page = PAGES[req.url ?? ''];
    res.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function runner(): ToolRunner {
  return new ToolRunner({ platform: createNodePlatform({ network: { allowAddresses: ['127.0.0.1'] } }), tools: toolProfiles.toolhost() });
}

describe('web_fetch of hostile pages keeps the host responsive', () => {
  it('answers three concurrent fetches (two 600 KB tables, 200,000 nested divs) with the event loop never held', async () => {
    const r = runner();
    const calls = ['/wide', '/deep', '/wide'].map((path) => ({ name: 'web_fetch', args: { url: `${base}${path}`, max_chars: 1_000_000 } }));
    const { value, gap } = await withTimerWatch(() => r.processToolCalls(calls, { timeoutMs: 60_000 }));
    const [wide, deep, wide2] = value as [ToolCallResult, ToolCallResult, ToolCallResult];
    expect(deep).toEqual({
      name: 'web_fetch',
      code: 'too_large',
      error: 'the page nests elements more than 1000 deep, deeper than web_fetch converts; fetch another version of the page (a printable or plain-text one) or another page',
    });
    for (const result of [wide, wide2]) {
      // Converted within the fetch's own 20 s deadline, or honestly `timeout` on a very busy machine.
      if ('code' in result) expect(result.code).toBe('timeout');
      else expect((result as { result: { content: string } }).result.content.slice(0, 400)).toMatch(/\n\| cell 0 +\| v0 +\| x +\|\n\| cell 1 +\| v1 +\| x +\|\n/);
    }
    expect(gap).toBeLessThan(MAX_STALL_MS);
  }, 120_000);

  it('refuses a deep page at once while both conversion threads are busy with other pages, never after waiting for one', async () => {
    const r = runner();
    const order: string[] = [];
    const stop = new AbortController();
    const fetchPage = async (label: string, path: string): Promise<ToolCallResult> => {
      const [result] = await r.processToolCalls([{ name: 'web_fetch', args: { url: `${base}${path}`, max_chars: 1_000 } }], { timeoutMs: 60_000, signal: stop.signal });
      order.push(label);
      return result as ToolCallResult;
    };
    // Two slow conversions take both threads (each takes seconds); the deep page comes once they have.
    const slow = [fetchPage('paragraphs 1', '/paragraphs'), fetchPage('paragraphs 2', '/paragraphs')];
    while ((offThread()?.busy ?? 0) < 2 && order.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    const deep = await fetchPage('deep', '/deep');
    expect(deep).toMatchObject({ code: 'too_large', error: expect.stringMatching(/^the page nests elements more than 1000 deep/) });
    // Answered before either conversion ended: its structure was checked without waiting for a thread.
    expect(order).toEqual(['deep']);
    stop.abort();
    for (const result of await Promise.all(slow)) expect(result).toMatchObject({ code: 'cancelled' });
  }, 120_000);

  it('answers too_large for deep pages however they close, never a stack overflow', async () => {
    const r = runner();
    const { value, gap } = await withTimerWatch(() => r.processToolCalls([{ name: 'web_fetch', args: { url: `${base}/deep-unclosed` } }]));
    expect(value[0]).toMatchObject({ code: 'too_large', error: expect.stringMatching(/^the page nests elements more than 1000 deep/) });
    expect(gap).toBeLessThan(MAX_STALL_MS);
  }, 60_000);

  it('converts a page of 120,000 empty inline elements (1.9 MB of empty <b>, icon-font <i>) within the normal deadline', async () => {
    const result = await runner().execute('web_fetch', { url: `${base}/empties` });
    expect(result).toMatchObject({ status: 200, content: '# Icons\n\nstart end\n', truncated: false });
  }, 60_000);

  it("ends a conversion still running at the call's deadline with timeout, and the next fetch works", async () => {
    const r = runner();
    const started = stopwatch();
    const { value, gap } = await withTimerWatch(() => r.processToolCalls([{ name: 'web_fetch', args: { url: `${base}/paragraphs` } }], { timeoutMs: 400 }));
    const elapsed = started.net();
    expect(value[0]).toMatchObject({ code: 'timeout' });
    // The deadline plus a generous margin for a busy machine; the conversion alone takes seconds.
    expect(elapsed).toBeLessThan(400 + 1000);
    expect(gap).toBeLessThan(MAX_STALL_MS);
    // The thread the deadline stopped is gone; a new one serves the next page.
    expect(await r.execute('web_fetch', { url: `${base}/small` })).toMatchObject({ content: '# Small\n\nfine\n' });
    expect(offThread()?.threads).toBeLessThanOrEqual(2);
  }, 60_000);
});
