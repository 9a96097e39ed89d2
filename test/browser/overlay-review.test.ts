import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launch, newProfile, removeProfile, requireChromium, startServer, type BrowserSession, type TestServer } from './harness.js';

// The overlay workspace in a real browser: IndexedDB keeps its staged layer across a page reload, an
// OPFS folder is its base, and the runner's review takes its changes per hunk.

type Envelope = { ok: boolean; value?: any; code?: string; message?: string };
type Selection = { paths?: string[]; hunks?: string[]; reason?: string };
declare const tw: {
  open(config: Record<string, unknown>): Promise<Envelope>;
  call(calls: unknown[]): Promise<Array<{ name: string; result?: any; error?: string; code?: string }>>;
  changes(): Promise<Envelope>;
  apply(): Promise<Envelope>;
  pending(conversationId: string): Promise<Envelope>;
  accept(conversationId: string, selection: Selection): Promise<Envelope>;
  writeOutside(dir: string, path: string, text: string): Promise<void>;
  readOutside(dir: string): Promise<Record<string, string>>;
};

let server: TestServer;
let session: BrowserSession;
let profile: string;
let page: Page;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  profile = newProfile();
  session = await launch(profile);
  page = session.page;
});
afterAll(async () => {
  await session?.close();
  await server?.close();
  if (profile) removeProfile(profile);
});

async function load(): Promise<void> {
  await page.goto(server.page('workspace.html'));
  await page.waitForFunction(() => document.title === 'toolhost workspace page ready');
}

const numbered = (changed: Record<number, string> = {}): string => Array.from({ length: 12 }, (_, i) => `${changed[i + 1] ?? `l${i + 1}`}\n`).join('');

describe('overlay workspace across reloads', () => {
  it('keeps staged changes through a page reload; one hunk accepted through the runner lands exactly in the base; an outside change is a conflict, not overwritten', async () => {
    await load();
    await page.evaluate(async (text) => {
      await tw.writeOutside('ov-base', 'a.txt', text);
      await tw.writeOutside('ov-base', 'b.txt', 'bee\n');
    }, numbered());
    const config = { workspace: 'overlay-reload', overlay: { opfs: 'ov-base' } };
    expect((await page.evaluate((c) => tw.open(c), config)).ok).toBe(true);
    const edits = await page.evaluate(() =>
      tw.call([
        { name: 'edit_file', args: { file_path: 'a.txt', old_string: 'l2\n', new_string: 'TWO\n' } },
        { name: 'edit_file', args: { file_path: 'a.txt', old_string: 'l11\n', new_string: 'ELEVEN\n' } },
        { name: 'edit_file', args: { file_path: 'b.txt', old_string: 'bee', new_string: 'BEE' } },
        { name: 'create_file', args: { file_path: 'new/c.txt', content: 'sea\n' } },
      ]),
    );
    expect(edits.map((r) => r.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok']);
    const before = (await page.evaluate(() => tw.changes())).value;
    expect(before.map((c: { path: string; kind: string }) => [c.path, c.kind])).toEqual([
      ['a.txt', 'modified'],
      ['b.txt', 'modified'],
      ['new/c.txt', 'created'],
    ]);

    await load();
    expect((await page.evaluate((c) => tw.open(c), config)).ok).toBe(true);
    expect((await page.evaluate(() => tw.changes())).value).toEqual(before);
    const seen = await page.evaluate(() => tw.call([{ name: 'view_file', args: { file_path: 'new/c.txt' } }]));
    expect(seen[0]?.result.content).toBe('sea');
    expect(await page.evaluate(() => tw.readOutside('ov-base'))).toEqual({ 'a.txt': numbered(), 'b.txt': 'bee\n' });

    const pending = (await page.evaluate(() => tw.pending('default'))).value;
    const a = pending.files.find((f: { path: string }) => f.path === '/workspace/a.txt');
    expect(a.hunks).toHaveLength(2);
    const accepted = await page.evaluate((id) => tw.accept('default', { hunks: [id] }), a.hunks[1].id as string);
    expect(accepted).toEqual({ ok: true, value: { written: ['/workspace/a.txt'], hunks: [a.hunks[1].id], conflicts: [] } });
    expect((await page.evaluate(() => tw.readOutside('ov-base')))['a.txt']).toBe(numbered({ 11: 'ELEVEN' }));

    await page.evaluate(() => tw.writeOutside('ov-base', 'b.txt', 'changed underneath\n'));
    await load();
    expect((await page.evaluate((c) => tw.open(c), config)).ok).toBe(true);
    const changes = (await page.evaluate(() => tw.changes())).value;
    expect(changes.map((c: { path: string; conflict?: string }) => [c.path, c.conflict ?? null])).toEqual([
      ['a.txt', null],
      ['b.txt', 'the base file changed since the overlay changed it'],
      ['new/c.txt', null],
    ]);
    expect(await page.evaluate(() => tw.apply())).toEqual({ ok: true, value: { applied: [], conflicts: [{ path: 'b.txt', reason: 'the base file changed since the overlay changed it' }] } });
    const acceptAll = (await page.evaluate(() => tw.accept('default', {}))).value;
    expect([acceptAll.written, acceptAll.conflicts.map((c: { path: string }) => c.path)]).toEqual([['/workspace/a.txt', '/workspace/new/c.txt'], ['/workspace/b.txt']]);
    expect(await page.evaluate(() => tw.readOutside('ov-base'))).toEqual({ 'a.txt': numbered({ 2: 'TWO', 11: 'ELEVEN' }), 'b.txt': 'changed underneath\n', 'new/c.txt': 'sea\n' });
  });
});
