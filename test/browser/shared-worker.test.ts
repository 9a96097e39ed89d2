import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newProfile, removeProfile, requireChromium, startServer, type BrowserSession, type TestServer } from './harness.js';
import type { Page } from 'playwright-core';

type Result = { id?: string; name: string; result?: any; error?: string; code?: string };
declare const th: {
  startShared(config: Record<string, unknown>): Promise<number>;
  startLocked(config: Record<string, unknown>): Promise<string>;
  role(): string | undefined;
  call(calls: unknown[], options?: unknown): Promise<Result[]>;
  stored(workspace: string): Promise<{ ok: boolean; value?: any }>;
};

let server: TestServer;
let session: BrowserSession;
let profile: string;
beforeAll(async () => {
  requireChromium();
  profile = newProfile();
  // The server's start and Chromium's launch overlap.
  [server, session] = await Promise.all([startServer(), launch(profile)]);
});
afterAll(async () => {
  await session?.close();
  await server?.close();
  if (profile) removeProfile(profile);
});

async function openPage(page: Page, how: 'shared' | 'locked' = 'shared', workspace = 'shared'): Promise<string | number> {
  await page.goto(server.page('index.html'));
  await page.waitForFunction(() => document.title === 'toolhost test page ready');
  return how === 'shared'
    ? page.evaluate((w) => th.startShared({ workspace: w }), workspace)
    : page.evaluate((w) => th.startLocked({ workspace: w }), workspace);
}

/** 50 edits of the shared file and 50 files of its own, interleaved, one call at a time. */
function edits(page: Page, tab: string): Promise<string[]> {
  return page.evaluate(async (t) => {
    const codes: string[] = [];
    for (let i = 0; i < 50; i += 1) {
      const [edit] = await th.call([
        { name: 'edit_file', args: { file_path: 'shared.txt', old_string: 'END', new_string: `${t} ${i}\nEND` } },
      ]);
      const [create] = await th.call([{ name: 'create_file', args: { file_path: `${t}/${i}.txt`, content: `${t} ${i}\n` } }]);
      codes.push(edit?.code ?? 'ok', create?.code ?? 'ok');
    }
    return codes;
  }, tab);
}

describe('two pages on one workspace through a SharedWorker', () => {
  it('makes 200 interleaved edits to one file and to separate files; every edit is present and each page sees the other', async () => {
    const one = session.page;
    const two = await session.context.newPage();
    await openPage(one);
    await openPage(two);
    const [created] = await one.evaluate(() => th.call([{ name: 'create_file', args: { file_path: 'shared.txt', content: 'START\nEND\n' } }]));
    expect(created?.code).toBeUndefined();
    const [codesOne, codesTwo] = await Promise.all([edits(one, 'one'), edits(two, 'two')]);
    expect([...codesOne, ...codesTwo].filter((c) => c !== 'ok')).toEqual([]);
    // Page two reads what page one wrote, and the other way round.
    const views = await two.evaluate(() =>
      th.call([{ name: 'view_file', args: { file_path: 'shared.txt' } }, { name: 'view_file', args: { file_path: 'one/49.txt' } }]),
    );
    expect(views[1]?.result.content).toBe('one 49');
    const lines: string[] = views[0]?.result.content.split('\n');
    for (const tab of ['one', 'two']) {
      const mine = lines.filter((l) => l.startsWith(`${tab} `));
      expect(mine).toEqual(Array.from({ length: 50 }, (_, i) => `${tab} ${i}`));
    }
    expect(lines.length).toBe(102);
    expect((await one.evaluate(() => th.call([{ name: 'view_file', args: { file_path: 'two/0.txt' } }])))[0]?.result.content).toBe('two 0');
    const stored = await one.evaluate(() => th.stored('shared'));
    expect(Object.keys(stored.value.files).length).toBe(101);
    expect(stored.value.files['/workspace/shared.txt']).toBe(`${lines.join('\n')}\n`);
    await two.close();
  });
});

describe('two pages on one workspace through Web Locks leader election (the fallback without SharedWorker)', () => {
  it('serves both pages from the leader tab, loses none of 200 interleaved edits, and hands over when the leader closes', async () => {
    const one = await session.context.newPage();
    const two = await session.context.newPage();
    expect(await openPage(one, 'locked', 'elected')).toBe('leader');
    expect(await openPage(two, 'locked', 'elected')).toBe('follower');
    const [created] = await two.evaluate(() => th.call([{ name: 'create_file', args: { file_path: 'shared.txt', content: 'START\nEND\n' } }]));
    expect(created?.code).toBeUndefined();
    const [codesOne, codesTwo] = await Promise.all([edits(one, 'one'), edits(two, 'two')]);
    expect([...codesOne, ...codesTwo].filter((c) => c !== 'ok')).toEqual([]);
    const [view] = await one.evaluate(() => th.call([{ name: 'view_file', args: { file_path: 'shared.txt' } }]));
    const lines: string[] = view?.result.content.split('\n');
    for (const tab of ['one', 'two']) expect(lines.filter((l) => l.startsWith(`${tab} `))).toEqual(Array.from({ length: 50 }, (_, i) => `${tab} ${i}`));
    // The leader goes away: the follower takes over, mounting everything acknowledged from IndexedDB.
    await one.close();
    await two.waitForFunction(() => th.role() === 'leader');
    const after = await two.evaluate(() =>
      th.call([
        { name: 'view_file', args: { file_path: 'shared.txt' } },
        { name: 'view_file', args: { file_path: 'one/49.txt' } },
        { name: 'create_file', args: { file_path: 'after.txt', content: 'after\n' } },
      ]),
    );
    expect(after.map((r) => r.code ?? 'ok')).toEqual(['ok', 'ok', 'ok']);
    expect(after[0]?.result.content).toBe(lines.join('\n'));
    expect(after[1]?.result.content).toBe('one 49');
    const stored = await two.evaluate(() => th.stored('elected'));
    expect(Object.keys(stored.value.files).length).toBe(102);
    await two.close();
  });
});
