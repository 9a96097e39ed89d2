import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';

// A Node journal (journalDir) with a byte budget: what the budget dropped is still known to a new
// process (droppedThrough, turn numbers), and one runner's small budget never removes another
// runner's turns from the folder.

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-journal-budget-')));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const write = (runner: ToolRunner, conversationId: string, file: string, content: string): Promise<unknown> =>
  runner.processToolCalls([{ id: `${conversationId}-${content.length}-${content.slice(0, 3)}`, name: 'create_file', args: { file_path: file, content, overwrite: true } }], { conversationId });

async function folders(name: string): Promise<{ root: string; journalDir: string }> {
  const root = join(base, name, 'ws');
  await mkdir(root, { recursive: true });
  return { root, journalDir: join(base, name, 'journal') };
}

describe('a Node journal whose budget dropped every turn of a conversation', () => {
  it('a new process still reports them dropped and numbers the next turn after them', async () => {
    const { root, journalDir } = await folders('all-dropped');
    const platform = createNodePlatform({ root, journalDir });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), journal: { maxBytes: 2000 } });
    for (const content of ['P\n', 'Q\n', 'S\n']) await write(runner, 'b', 'b.txt', content);
    // Conversation a pushes b's three turns out of the budget.
    for (let i = 0; i < 30; i += 1) await write(runner, 'a', 'a.txt', String(i % 10).repeat(100) + `${i}\n`);
    expect(await runner.changes('b')).toEqual({ conversationId: 'b', turns: [], droppedThrough: 3 });
    await platform.dispose();
    const b = (await readdir(join(journalDir, 'turns'))).filter((name) => !name.includes('.tmp')).map((name) => name.split('.')).filter(([, turn]) => Number(turn) <= 3);
    // One small mark stands for b's dropped turns (no record per dropped turn is left).
    expect(b.length).toBe(1);

    const again = createNodePlatform({ root, journalDir });
    const reopened = new ToolRunner({ platform: again, tools: BuiltinTools.all(), journal: { maxBytes: 2000 } });
    expect(await reopened.changes('b')).toEqual({ conversationId: 'b', turns: [], droppedThrough: 3 });
    // The host's fourth batch of b is turn 4, and a rewind to turn 2 is refused as dropped, not a host mistake.
    await write(reopened, 'b', 'b.txt', 'T\n');
    expect((await reopened.changes('b')).turns.map((turn) => turn.turn)).toEqual([4]);
    expect((await reopened.rewind('b', { toTurn: 2 })).unreachable).toMatchObject({ droppedThrough: 3, note: expect.stringContaining('byte budget') });
    expect((await reopened.rewind('b', { toTurn: 3 })).restored).toEqual([join(root, 'b.txt')]);
    expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('S\n');
    await again.dispose();

    // A third process: the mark is still there, the turns after it too.
    const third = createNodePlatform({ root, journalDir });
    const listed = await new ToolRunner({ platform: third, tools: BuiltinTools.all() }).changes('b');
    expect([listed.turns.map((turn) => turn.turn), listed.droppedThrough]).toEqual([[4, 5], 3]);
    await third.dispose();
  });
});

describe('two runners with different budgets on one platform with journalDir', () => {
  it("the small budget lets go of the other runner's turns without removing them: that runner and a new process still list and rewind them", async () => {
    const { root, journalDir } = await folders('two-budgets');
    const platform = createNodePlatform({ root, journalDir });
    const small = new ToolRunner({ platform, tools: BuiltinTools.all(), journal: { maxBytes: 2000 } });
    const large = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const shared = 'shared content X\n';
    for (const content of ['P unique\n', shared, 'Q unique\n']) await write(large, 'b', 'b.txt', content);
    // The small runner writes the same content once (one blob for both), then pushes everything out.
    await write(small, 'a', 'a.txt', shared);
    for (let i = 0; i < 30; i += 1) await write(small, 'a', 'a.txt', String(i % 10).repeat(100) + `${i}\n`);
    // Its own view: b's turns dropped by its budget.
    expect((await small.changes('b')).droppedThrough).toBe(3);
    // The large runner still lists them, and so does a new process.
    expect((await large.changes('b')).turns.map((turn) => turn.turn)).toEqual([1, 2, 3]);
    const ownView = await small.changes('a');
    expect(ownView.droppedThrough).toBeGreaterThan(1);
    await platform.dispose();
    const again = createNodePlatform({ root, journalDir });
    const reopened = new ToolRunner({ platform: again, tools: BuiltinTools.all() });
    const listed = await reopened.changes('b');
    expect([listed.turns.map((turn) => turn.turn), listed.droppedThrough]).toEqual([[1, 2, 3], undefined]);
    // Turn 2's content is the blob the small runner shared and dropped: still there, intact.
    expect((await reopened.rewind('b', { toTurn: 2 })).restored).toEqual([join(root, 'b.txt')]);
    expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe(shared);
    expect((await reopened.rewind('b', { toTurn: 1 })).restored).toEqual([join(root, 'b.txt')]);
    expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('P unique\n');
    // The small runner's own turns went by its budget, from the folder too: only its newest remain.
    const a = await reopened.changes('a');
    expect([a.turns.map((turn) => turn.turn), a.droppedThrough]).toEqual([ownView.turns.map((turn) => turn.turn), ownView.droppedThrough]);
    await again.dispose();
  });
});
