import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newProfile, removeProfile, requireChromium, startServer, type BrowserSession, type TestServer } from './harness.js';

type Result = { id?: string; name: string; result?: unknown; error?: string; code?: string };
interface Changes {
  conversationId: string;
  turns: Array<{ turn: number; at: number; calls: Array<{ callId: string; tool: string; files: Array<{ path: string; before: string; after: string; diff: string }> }> }>;
  droppedThrough?: number;
}
declare const tj: {
  start(workspace: string, backend?: 'indexeddb' | 'memory', options?: { maxBytes?: number; failTurn?: number }): Promise<boolean>;
  call(calls: unknown[], options?: unknown): Promise<Result[]>;
  changes(conversationId?: string): Promise<Changes>;
  rewind(conversationId: string, options: unknown): Promise<{ restored: string[]; conflicts: unknown[]; turn?: number; unreachable?: { note: string; droppedThrough?: number } }>;
  read(path: string): Promise<string | null>;
  remove(workspace: string): Promise<string[]>;
  damage(
    workspace: string,
    damage: { removeTurn?: [string, number]; renumberTurn?: [string, number, number]; garbleTurn?: [string, number]; blob?: { hash: string; text: string } },
  ): Promise<void>;
};

let server: TestServer;
/** One browser for the file, launched beside the server's start; each test opens a page of its own on a workspace of its own. */
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

/** A new page of the file's browser, as a session (its context is the shared one). */
async function newSession(): Promise<BrowserSession> {
  if (!browser) throw new Error('the browser is not launched yet (beforeAll launches it)');
  const page = await browser.context.newPage();
  return { ...browser, page, close: () => page.close() };
}

/** Loads (or reloads) the journal page and opens `workspace`; answers whether its platform offers a journal store. */
async function open(session: BrowserSession, workspace: string, backend: 'indexeddb' | 'memory' = 'indexeddb', reload = false): Promise<boolean> {
  if (reload) await session.page.reload();
  else await session.page.goto(server.page('journal.html'));
  await session.page.waitForFunction(() => document.title === 'toolhost journal page ready');
  return session.page.evaluate(([w, b]) => tj.start(w, b), [workspace, backend] as const);
}

const calls = (page: BrowserSession['page'], list: unknown[]): Promise<Result[]> => page.evaluate((c) => tj.call(c), list);
const read = (page: BrowserSession['page'], path: string): Promise<string | null> => page.evaluate((p) => tj.read(p), path);

describe('change journal in IndexedDB (web platform)', () => {
  it('keeps the turns across a page reload: the reloaded page lists the same changes, rewinds from them, a later reload sees the rewind and can undo it; deleteWorkspace removes it', async () => {
    const session = await newSession();
    try {
      expect(await open(session, 'journal')).toBe(true);
      const { page } = session;
      const answers = [
        ...(await calls(page, [{ id: 'c1', name: 'create_file', args: { file_path: 'a.txt', content: 'one\n' } }])),
        ...(await calls(page, [
          { id: 'e1', name: 'edit_file', args: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } },
          { id: 'c2', name: 'create_file', args: { file_path: 'b/c.txt', content: 'see\n' } },
        ])),
        ...(await calls(page, [{ id: 'e2', name: 'edit_file', args: { file_path: 'a.txt', old_string: 'two', new_string: 'three' } }])),
      ];
      expect(answers.map((answer) => answer.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok']);
      const before = await page.evaluate(() => tj.changes());
      expect(before.turns.map((turn) => [turn.turn, turn.calls.map((call) => call.callId)])).toEqual([
        [1, ['c1']],
        [2, ['e1', 'c2']],
        [3, ['e2']],
      ]);

      // The reloaded page has a new runner and journal: the turns come from the journal database.
      expect(await open(session, 'journal', 'indexeddb', true)).toBe(true);
      expect(await page.evaluate(() => tj.changes())).toEqual(before);
      expect(await page.evaluate(() => tj.rewind('default', { toTurn: 1 }))).toEqual({ restored: ['/workspace/a.txt', '/workspace/b/c.txt'], conflicts: [], turn: 4 });
      expect([await read(page, 'a.txt'), await read(page, 'b/c.txt')]).toEqual(['one\n', null]);

      // Reloaded again: the workspace and the journal both hold the rewind, and rewinding to the turn before it undoes it.
      expect(await open(session, 'journal', 'indexeddb', true)).toBe(true);
      expect([await read(page, 'a.txt'), await read(page, 'b/c.txt')]).toEqual(['one\n', null]);
      const rewound = await page.evaluate(() => tj.changes());
      expect(rewound.turns.map((turn) => [turn.turn, turn.calls.map((call) => call.tool)])).toEqual([
        [1, ['create_file']],
        [2, ['edit_file', 'create_file']],
        [3, ['edit_file']],
        [4, ['rewind']],
      ]);
      expect(await page.evaluate(() => tj.rewind('default', { toTurn: 3 }))).toEqual({ restored: ['/workspace/a.txt', '/workspace/b/c.txt'], conflicts: [], turn: 5 });
      expect([await read(page, 'a.txt'), await read(page, 'b/c.txt')]).toEqual(['three\n', 'see\n']);
      // Turn numbers go on after the stored ones.
      await calls(page, [{ id: 'c3', name: 'create_file', args: { file_path: 'd.txt', content: 'dee\n' } }]);
      expect((await page.evaluate(() => tj.changes())).turns.map((turn) => turn.turn)).toEqual([1, 2, 3, 4, 5, 6]);
      // deleteWorkspace removes the journal's database with the workspace's.
      expect(await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name).sort())).toEqual(['toolhost-journal:journal', 'toolhost-ws:journal']);
      expect(await page.evaluate(() => tj.remove('journal'))).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it('counts a turn whose record is missing or damaged, or whose content is damaged, as lost with every turn before it: a reloaded page refuses to rewind across it and writes nothing', async () => {
    const session = await newSession();
    const { page } = session;
    const damages = {
      'lost-record': () => ({ removeTurn: ['default', 2] as [string, number] }),
      'renumbered-record': () => ({ renumberTurn: ['default', 2, 7] as [string, number, number] }),
      'garbled-record': () => ({ garbleTurn: ['default', 2] as [string, number] }),
      'damaged-blob': (hash: string) => ({ blob: { hash, text: 'one, edited\n' } }),
    };
    try {
      for (const [workspace, damage] of Object.entries(damages)) {
        expect(await open(session, workspace)).toBe(true);
        for (const text of ['one\n', 'two\n', 'three\n']) {
          expect(await calls(page, [{ id: text, name: 'create_file', args: { file_path: 'a.txt', content: text, overwrite: true } }])).toMatchObject([{ result: {} }]);
        }
        const second = (await page.evaluate(() => tj.changes())).turns[1]!.calls[0]!.files[0]!.before;
        // A new page: the damage is done before its journal opens the database.
        await page.goto(server.page('journal.html'));
        await page.waitForFunction(() => document.title === 'toolhost journal page ready');
        await page.evaluate(([w, d]) => tj.damage(w, d), [workspace, damage(second)] as const);
        expect(await page.evaluate((w) => tj.start(w), workspace)).toBe(true);
        const changes = await page.evaluate(() => tj.changes());
        expect([workspace, changes.turns.map((turn) => turn.turn), changes.droppedThrough]).toEqual([workspace, [3], 2]);
        const refused = await page.evaluate(() => tj.rewind('default', { toTurn: 1 }));
        expect(refused).toMatchObject({ restored: [], conflicts: [], unreachable: { droppedThrough: 2, note: expect.stringContaining('turn 2 of this conversation was lost') } });
        expect(await read(page, 'a.txt')).toBe('three\n');
        expect(await page.evaluate(() => tj.rewind('default', { toTurn: 2 }))).toEqual({ restored: ['/workspace/a.txt'], conflicts: [], turn: 4 });
        expect(await read(page, 'a.txt')).toBe('two\n');
        expect(await page.evaluate((w) => tj.remove(w), workspace)).not.toContain(`toolhost-journal:${workspace}`);
      }
      // The last turn's record garbled: its key names it, so it is lost too (no later turn names it).
      expect(await open(session, 'garbled-last')).toBe(true);
      await calls(page, [{ id: 'c1', name: 'create_file', args: { file_path: 'a.txt', content: 'one\n' } }]);
      await calls(page, [{ id: 'c2', name: 'create_file', args: { file_path: 'a.txt', content: 'two\n', overwrite: true } }]);
      await page.goto(server.page('journal.html'));
      await page.waitForFunction(() => document.title === 'toolhost journal page ready');
      await page.evaluate(() => tj.damage('garbled-last', { garbleTurn: ['default', 2] }));
      expect(await page.evaluate(() => tj.start('garbled-last'))).toBe(true);
      expect(await page.evaluate(() => tj.changes())).toEqual({ conversationId: 'default', turns: [], droppedThrough: 2 });
      expect(await page.evaluate(() => tj.rewind('default', { toTurn: 1 }))).toMatchObject({ restored: [], unreachable: { droppedThrough: 2 } });
      expect(await read(page, 'a.txt')).toBe('two\n');
      await page.evaluate(() => tj.remove('garbled-last'));
    } finally {
      await session.close();
    }
  });

  it('a turn the journal database refuses (over quota): its call answers ok with a note, and the turn is lost, also after a reload', async () => {
    const session = await newSession();
    const { page } = session;
    try {
      await page.goto(server.page('journal.html'));
      await page.waitForFunction(() => document.title === 'toolhost journal page ready');
      expect(await page.evaluate(() => tj.start('unstored', 'indexeddb', { failTurn: 2 }))).toBe(true);
      const answers: Result[] = [];
      for (const text of ['one\n', 'two\n', 'three\n']) answers.push(...(await calls(page, [{ id: text, name: 'create_file', args: { file_path: 'a.txt', content: text, overwrite: true } }])));
      expect(answers.map((answer) => answer.code ?? 'ok')).toEqual(['ok', 'ok', 'ok']);
      expect((answers[1]!.result as { note?: string }).note).toBe(
        'the change journal could not store this turn (QuotaExceededError: the quota has been exceeded): its file changes were made, but a rewind cannot undo them, nor go back to before them',
      );
      expect(answers[2]!.result).not.toHaveProperty('note');
      const changes = await page.evaluate(() => tj.changes());
      expect([changes.turns.map((turn) => turn.turn), changes.droppedThrough]).toEqual([[3], 2]);
      const refused = await page.evaluate(() => tj.rewind('default', { toTurn: 1 }));
      expect(refused.unreachable).toEqual({
        droppedThrough: 2,
        note: 'turn 2 of this conversation could not be stored (QuotaExceededError: the quota has been exceeded), so what it changed cannot be undone; it and every turn before it count as dropped; rewind to turn 2 or later',
      });
      // Reloaded (the database takes records again): turn 3 names turn 2, which is not there.
      expect(await open(session, 'unstored', 'indexeddb', true)).toBe(true);
      const reloaded = await page.evaluate(() => tj.changes());
      expect([reloaded.turns.map((turn) => turn.turn), reloaded.droppedThrough]).toEqual([[3], 2]);
      expect(await read(page, 'a.txt')).toBe('three\n');
      await page.evaluate(() => tj.remove('unstored'));
    } finally {
      await session.close();
    }
  });

  it('a conversation whose turns the budget dropped: a reloaded page still says so and numbers its next turn after them', async () => {
    const session = await newSession();
    const { page } = session;
    const start = (): Promise<boolean> => page.evaluate(() => tj.start('budget', 'indexeddb', { maxBytes: 2000 }));
    try {
      await page.goto(server.page('journal.html'));
      await page.waitForFunction(() => document.title === 'toolhost journal page ready');
      expect(await start()).toBe(true);
      for (const text of ['P\n', 'Q\n', 'S\n']) await page.evaluate((t) => tj.call([{ id: t, name: 'create_file', args: { file_path: 'b.txt', content: t, overwrite: true } }], { conversationId: 'b' }), text);
      for (let i = 0; i < 30; i += 1) {
        const text = `${String(i % 10).repeat(100)}${i}\n`;
        await page.evaluate((t) => tj.call([{ id: 'a', name: 'create_file', args: { file_path: 'a.txt', content: t, overwrite: true } }], { conversationId: 'a' }), text);
      }
      expect(await page.evaluate(() => tj.changes('b'))).toEqual({ conversationId: 'b', turns: [], droppedThrough: 3 });
      await page.reload();
      await page.waitForFunction(() => document.title === 'toolhost journal page ready');
      expect(await start()).toBe(true);
      expect(await page.evaluate(() => tj.changes('b'))).toEqual({ conversationId: 'b', turns: [], droppedThrough: 3 });
      await page.evaluate(() => tj.call([{ id: 't', name: 'create_file', args: { file_path: 'b.txt', content: 'T\n', overwrite: true } }], { conversationId: 'b' }));
      expect((await page.evaluate(() => tj.changes('b'))).turns.map((turn) => turn.turn)).toEqual([4]);
      expect((await page.evaluate(() => tj.rewind('b', { toTurn: 2 }))).unreachable).toMatchObject({ droppedThrough: 3 });
      await page.evaluate(() => tj.remove('budget'));
    } finally {
      await session.close();
    }
  });

  it('keeps no journal database for a memory workspace: a reloaded page starts a journal of its own', async () => {
    const session = await newSession();
    const journals = (): Promise<Array<string | undefined>> =>
      session.page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name).filter((name) => name?.startsWith('toolhost-journal:')));
    try {
      // The browser is the file's: the journal databases of the other tests' workspaces, if any, are there before.
      await session.page.goto(server.page('journal.html'));
      const before = await journals();
      expect(await open(session, 'scratch', 'memory', true)).toBe(false);
      await calls(session.page, [{ id: 'c1', name: 'create_file', args: { file_path: 'a.txt', content: 'one\n' } }]);
      expect((await session.page.evaluate(() => tj.changes())).turns.map((turn) => turn.turn)).toEqual([1]);
      expect(await open(session, 'scratch', 'memory', true)).toBe(false);
      expect(await session.page.evaluate(() => tj.changes())).toEqual({ conversationId: 'default', turns: [] });
      expect(await journals()).toEqual(before);
    } finally {
      await session.close();
    }
  });
});
