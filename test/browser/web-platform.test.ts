import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newProfile, removeProfile, requireChromium, startServer, type BrowserSession, type TestServer } from './harness.js';
import type { Page } from 'playwright-core';

type Result = { id?: string; name: string; result?: any; error?: string; code?: string };

declare const th: {
  start(config: Record<string, unknown>, options?: { graceMs?: number }): Promise<number>;
  call(calls: unknown[], options?: unknown): Promise<Result[]>;
  execute(name: string, args: unknown, options?: unknown): Promise<{ ok: boolean; value?: any; code?: string; message?: string }>;
  stored(workspace: string): Promise<{ ok: boolean; value?: any; code?: string }>;
  list(): Promise<{ ok: boolean; value?: any }>;
  remove(workspace: string): Promise<{ ok: boolean; code?: string }>;
  stop(): Promise<void>;
};

let server: TestServer;
/**
 * The file's browser, launched beside the server's start on a profile of the file's: the first test
 * restarts it (closes it and launches it again on the same profile); the others open a page of their
 * own in it, each on a workspace of its own.
 */
let browser: BrowserSession | undefined;
let profile: string | undefined;

beforeAll(async () => {
  requireChromium();
  profile = newProfile();
  [server, browser] = await Promise.all([startServer(), launch(profile)]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (profile) removeProfile(profile);
});

function launched(): BrowserSession {
  if (!browser) throw new Error('the browser is not running (beforeAll launches it, the first test restarts it)');
  return browser;
}

/** A new page of the file's browser. */
function newPage(): Promise<Page> {
  return launched().context.newPage();
}

async function open(page: Page, config: Record<string, unknown>): Promise<void> {
  await page.goto(server.page('index.html'));
  await page.waitForFunction(() => document.title === 'toolhost test page ready');
  await page.evaluate((c) => th.start(c), config);
}

describe('web platform in Chromium', () => {
  it('creates, edits and views files through the worker; they and tool state survive a reload and a browser restart', async () => {
    let session = launched();
    await open(session.page, { workspace: 'main' });
    const results = await session.page.evaluate(() =>
      th.call([
        { id: 'c1', name: 'create_file', args: { file_path: 'notes/hello (1) ü.txt', content: 'hello\nworld\n' } },
        { id: 'e1', name: 'edit_file', args: { file_path: 'notes/hello (1) ü.txt', old_string: 'world', new_string: 'there' } },
        { id: 'r1', name: 'remember', args: { key: 'plan', value: { step: 2, items: ['a', 'b'] } } },
        { id: 'v1', name: 'view_file', args: { file_path: '/workspace/notes/hello (1) ü.txt' } },
        { id: 'l1', name: 'list_dir', args: { dir_path: '/workspace/notes' } },
      ]),
    );
    expect(results.map((r) => r.error ?? r.code ?? "ok")).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(results[3]?.result.content).toBe('hello\nthere');
    expect(results[4]?.result.entries.map((e: { name: string }) => e.name)).toEqual(['hello (1) ü.txt']);

    const check = async (page: Page) => {
      const after = await page.evaluate(() =>
        th.call([
          { name: 'view_file', args: { file_path: 'notes/hello (1) ü.txt' } },
          { name: 'recall', args: { keys: ['plan'] } },
        ]),
      );
      expect(after[0]?.result.content).toBe('hello\nthere');
      expect(after[1]?.result).toEqual({ plan: { step: 2, items: ['a', 'b'] } });
    };
    await session.page.reload();
    await session.page.waitForFunction(() => document.title === 'toolhost test page ready');
    await session.page.evaluate(() => th.start({ workspace: 'main' }));
    await check(session.page);

    // The restart: the same profile in a new browser process.
    browser = undefined;
    await session.close();
    browser = session = await launch(profile as string);
    await open(session.page, { workspace: 'main' });
    await check(session.page);
    const stored = await session.page.evaluate(() => th.stored('main'));
    expect(stored.value.files).toEqual({ '/workspace/notes/hello (1) ü.txt': 'hello\nthere\n' });
    expect(stored.value.state).toEqual({ default: { plan: { step: 2, items: ['a', 'b'] } } });
  }, 60_000); // a bound for a hang: a browser restart, 5 to 30 s on two busy cores

  it('reports no commands and no search in capabilities, and run_command / web_search return empty results with notes', async () => {
    const page = await newPage();
    try {
      await open(page, { workspace: 'caps' });
      const [info, run, search, google] = await page.evaluate(() =>
        th.call([
          { name: 'platform_info', args: {} },
          { name: 'run_command', args: { command: 'ls' } },
          { name: 'web_search', args: { query: 'toolhost' } },
          { name: 'google_search', args: { query: 'toolhost' } },
        ]),
      );
      expect(info?.result).toEqual({
        name: 'web',
        root: '/workspace',
        backend: 'indexeddb',
        capabilities: { runCommand: false, webSearch: false, persistent: true },
        hasRunCommand: false,
        hasWebSearch: false,
      });
      expect(run?.result).toEqual({
        stdout: '',
        stderr: '',
        exit_code: null,
        signal: null,
        timed_out: false,
        truncated: false,
        note: 'run_command is not available in the browser',
      });
      expect(search?.result).toEqual({ results: [], note: 'Search is not available in the browser' });
      expect(google?.result).toEqual({ results: [], note: 'Search is not available in the browser' });
    } finally {
      await page.close();
    }
  });

  it('keeps error codes and messages across the worker boundary', async () => {
    const page = await newPage();
    try {
      await open(page, { workspace: 'codes' });
      const out = await page.evaluate(async () => {
        await th.call([{ name: 'create_file', args: { file_path: 'a.txt', content: 'x x\n' } }]);
        return {
          missing: await th.execute('view_file', { file_path: 'nope.txt' }),
          ambiguous: await th.execute('edit_file', { file_path: 'a.txt', old_string: 'x', new_string: 'y' }),
          outside: await th.execute('view_file', { file_path: '../etc/passwd' }),
          unknown: await th.execute('no_such_tool', {}),
        };
      });
      expect(out.missing).toMatchObject({ ok: false, code: 'not_found' });
      expect(out.ambiguous).toMatchObject({ ok: false, code: 'ambiguous_match' });
      expect(out.ambiguous.message).toMatch(/2/);
      expect(out.outside).toMatchObject({ ok: false, code: 'outside_workspace' });
      expect(out.unknown).toMatchObject({ ok: false, code: 'unknown_tool' });
    } finally {
      await page.close();
    }
  });
});
