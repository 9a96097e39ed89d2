import { readdir, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';

// A Node journal (journalDir) whose files were lost or damaged between two processes: a turn file gone
// or emptied from the middle, a turn file whose record names another turn, a blob emptied or edited.
// Each case writes `notes.md` in three turns (draft, review, final), then a new platform and runner (as
// a new process would) lists and rewinds: what it cannot restore exactly it must refuse, never restore
// wrong content.

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-journal-damage-')));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const CONTENTS = ['draft: three lines\n', 'review: two notes\n', 'final: shipped\n'];

interface Case {
  root: string;
  journalDir: string;
  /** The turn file of `turn` (the only conversation). */
  turnFile(turn: number): Promise<string>;
}

/** Three turns of conversation `notes`, each writing notes.md whole, kept in a fresh journalDir. */
async function recordThreeTurns(name: string): Promise<Case> {
  const root = join(base, name, 'ws');
  const journalDir = join(base, name, 'journal');
  await mkdir(root, { recursive: true });
  const platform = createNodePlatform({ root, journalDir });
  const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), conversationId: 'notes' });
  for (const [i, content] of CONTENTS.entries()) {
    await runner.processToolCalls([{ id: `w${i}`, name: 'create_file', args: { file_path: 'notes.md', content, overwrite: true } }]);
  }
  await platform.dispose();
  const turnFile = async (turn: number): Promise<string> => {
    const name = (await readdir(join(journalDir, 'turns'))).find((file) => file.endsWith(`.${turn}.json`));
    if (name === undefined) throw new Error(`no file of turn ${turn}`);
    return join(journalDir, 'turns', name);
  };
  return { root, journalDir, turnFile };
}

/** A new platform and runner on the case's folders (a new process, as far as the journal knows). */
function reopen(c: Case): { runner: ToolRunner; dispose: () => Promise<void> } {
  const platform = createNodePlatform({ root: c.root, journalDir: c.journalDir });
  return { runner: new ToolRunner({ platform, tools: BuiltinTools.all(), conversationId: 'notes' }), dispose: () => platform.dispose() };
}

const notes = (c: Case): Promise<string> => readFile(join(c.root, 'notes.md'), 'utf8');

describe('a turn file lost from the middle of a Node journal', () => {
  it.each([
    ['removed', (path: string) => rm(path)],
    ['emptied', (path: string) => writeFile(path, '')],
    ['cut short', async (path: string) => writeFile(path, (await readFile(path, 'utf8')).slice(0, 40))],
  ])('%s: it and every turn before it count as dropped; a rewind to a turn before it answers unreachable and writes nothing', async (how, damage) => {
    const c = await recordThreeTurns(`hole-${how.replace(' ', '-')}`);
    await damage(await c.turnFile(2));
    const { runner, dispose } = reopen(c);
    try {
      const changes = await runner.changes('notes');
      expect(changes.turns.map((turn) => turn.turn)).toEqual([3]);
      expect(changes.droppedThrough).toBe(2);
      const refused = await runner.rewind('notes', { toTurn: 1 });
      expect(refused).toMatchObject({ restored: [], conflicts: [], unreachable: { droppedThrough: 2 } });
      expect(refused.unreachable?.note).toContain('turn 2 of this conversation was lost');
      expect(refused.unreachable?.note).not.toContain('byte budget');
      expect(await notes(c)).toBe(CONTENTS[2]);
      // The turn after the hole is whole: rewinding to the hole's turn restores what turn 3 found.
      expect(await runner.rewind('notes', { toTurn: 2 })).toMatchObject({ restored: [join(c.root, 'notes.md')], conflicts: [], turn: 4 });
      expect(await notes(c)).toBe(CONTENTS[1]);
    } finally {
      await dispose();
    }
  });

  it('refuses a turn file whose record names another turn than its file name (counted as lost), lists turns in order and numbers on after the last file', async () => {
    const c = await recordThreeTurns('renumbered');
    const path = await c.turnFile(2);
    await writeFile(path, (await readFile(path, 'utf8')).replace('"turn":2,', '"turn":7,'));
    const { runner, dispose } = reopen(c);
    try {
      const changes = await runner.changes('notes');
      expect(changes.turns.map((turn) => turn.turn)).toEqual([3]);
      expect(changes.droppedThrough).toBe(2);
      expect((await runner.rewind('notes', { toTurn: 0 })).unreachable?.droppedThrough).toBe(2);
      await runner.processToolCalls([{ id: 'w4', name: 'create_file', args: { file_path: 'later.md', content: 'later\n' } }]);
      expect((await runner.changes('notes')).turns.map((turn) => turn.turn)).toEqual([3, 4]);
      expect(await notes(c)).toBe(CONTENTS[2]);
    } finally {
      await dispose();
    }
  });
});

describe('the last turn file of a conversation damaged', () => {
  it('is found by its file name: it and every turn before it count as dropped, and the next turn is numbered after it', async () => {
    const c = await recordThreeTurns('last-damaged');
    await writeFile(await c.turnFile(3), '{"conversationId":');
    const { runner, dispose } = reopen(c);
    try {
      const changes = await runner.changes('notes');
      expect([changes.turns, changes.droppedThrough]).toEqual([[], 3]);
      const refused = await runner.rewind('notes', { toTurn: 2 });
      expect(refused).toMatchObject({ restored: [], conflicts: [], unreachable: { droppedThrough: 3 } });
      expect(refused.unreachable?.note).toContain('turn 3 of this conversation was lost');
      expect(await notes(c)).toBe(CONTENTS[2]);
      await runner.processToolCalls([{ id: 'w4', name: 'create_file', args: { file_path: 'notes.md', content: 'fourth\n', overwrite: true } }]);
      expect((await runner.changes('notes')).turns.map((turn) => turn.turn)).toEqual([4]);
    } finally {
      await dispose();
    }
  });
});

describe('a damaged blob of a Node journal', () => {
  /** The blob file of `notes.md` as turn 2 found it (CONTENTS[0]). */
  const draftBlob = async (c: Case): Promise<string> => {
    const record = JSON.parse(await readFile(await c.turnFile(2), 'utf8')) as { calls: Array<{ files: Array<{ before: string }> }> };
    return join(c.journalDir, 'blobs', record.calls[0]!.files[0]!.before.slice('sha256:'.length));
  };

  it.each([
    ['emptied', ''],
    ['edited', 'draft: TAMPERED\n'],
  ])('%s: the turn that needs it is lost, a rewind to before it answers unreachable saying so, and notes.md is left as it is', async (how, bytes) => {
    const c = await recordThreeTurns(`blob-${how}`);
    await writeFile(await draftBlob(c), bytes);
    const { runner, dispose } = reopen(c);
    try {
      const changes = await runner.changes('notes');
      expect(changes.turns.map((turn) => turn.turn)).toEqual([3]);
      expect(changes.droppedThrough).toBe(2);
      const refused = await runner.rewind('notes', { toTurn: 1 });
      expect(refused).toMatchObject({ restored: [], conflicts: [], unreachable: { droppedThrough: 2 } });
      expect(refused.unreachable?.note).toMatch(/turn 2 of this conversation was lost: .*file content it refers to, is missing or damaged/);
      expect(await notes(c)).toBe(CONTENTS[2]);
    } finally {
      await dispose();
    }
  });

  it('damaged after the journal loaded, a large blob (not held in memory) is refused by the rewind that would write it: nothing is written', async () => {
    const root = join(base, 'blob-late', 'ws');
    const journalDir = join(base, 'blob-late', 'journal');
    await mkdir(root, { recursive: true });
    // Over the store's in-memory copies (a quarter of 16 MiB), so the rewind reads it from its file.
    const big = 'x'.repeat(5 * 1024 * 1024);
    await writeFile(join(root, 'big.txt'), big);
    await writeFile(join(root, 'small.txt'), 'small\n');
    const platform = createNodePlatform({ root, journalDir });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), conversationId: 'late' });
    try {
      await runner.processToolCalls([
        { id: 'b', name: 'create_file', args: { file_path: 'big.txt', content: 'short now\n', overwrite: true } },
        { id: 's', name: 'create_file', args: { file_path: 'small.txt', content: 'changed\n', overwrite: true } },
      ]);
      const bigImage = (await runner.changes('late')).turns[0]!.calls[0]!.files[0]!.before;
      await writeFile(join(journalDir, 'blobs', bigImage.slice('sha256:'.length)), big.slice(1));
      const refused = await runner.rewind('late', { toTurn: 0 });
      expect(refused).toEqual({ restored: [], conflicts: [], unreachable: { note: expect.stringContaining('missing or damaged') as string, paths: [join(root, 'big.txt')] } });
      expect(await readFile(join(root, 'big.txt'), 'utf8')).toBe('short now\n');
      expect(await readFile(join(root, 'small.txt'), 'utf8')).toBe('changed\n');
    } finally {
      await platform.dispose();
    }
  });
});
