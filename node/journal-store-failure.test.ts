import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalStore } from '../src/journal/store.js';
import { ToolRunner } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';

// A Node journal (journalDir) whose disk fails while a turn is stored (full: ENOSPC; failing: EIO).
// The call's change was made, so its answer stays a success, with a note that the journal could not
// record it; the turn then counts as lost, in this process and in a new one.

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-journal-failure-')));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const failure = (code: string, text: string): Error => Object.assign(new Error(`${code}: ${text}, open '/somewhere/journal/turns/x.json'`), { code });

describe('a Node journal whose store fails to keep a turn', () => {
  it.each([
    ['its record (disk full)', 'ENOSPC: no space left on device', (store: JournalStore) => {
      const create = (store.createTurn as NonNullable<JournalStore['createTurn']>).bind(store);
      store.createTurn = async (turn, listed) => (turn.turn === 2 ? Promise.reject(failure('ENOSPC', 'no space left on device')) : create(turn, listed));
    }],
    ['a file content of it (I/O error)', 'EIO: i/o error', (store: JournalStore) => {
      const put = store.putBlob.bind(store);
      let failed = false;
      store.putBlob = async (hash, bytes) => (new TextDecoder().decode(bytes) === 'v2\n' && !failed ? ((failed = true), Promise.reject(failure('EIO', 'i/o error'))) : put(hash, bytes));
    }],
  ])('%s: the call answers ok with a note, and the turn is lost, never listed as recorded', async (name, reason, fail) => {
    const root = join(base, name.replace(/\W+/g, '-'), 'ws');
    const journalDir = join(base, name.replace(/\W+/g, '-'), 'journal');
    await mkdir(root, { recursive: true });
    const platform = createNodePlatform({ root, journalDir });
    // The platform's one store of journalDir, which its runners' journals share.
    fail((platform as { journalStore?: () => JournalStore }).journalStore!());
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), conversationId: 'c' });
    const results = [];
    for (const version of ['v1', 'v2', 'v3']) {
      results.push(await runner.processToolCalls([{ id: version, name: 'create_file', args: { file_path: 'f.txt', content: `${version}\n`, overwrite: true } }]));
    }
    const [second] = results[1]!;
    // The write happened: not a failure, but the model is told the journal could not record it.
    expect(second).not.toHaveProperty('error');
    expect((second as { result: { note?: string } }).result.note).toBe(
      `the change journal could not store this turn (${reason}): its file changes were made, but a rewind cannot undo them, nor go back to before them`,
    );
    expect(results[0]![0]).not.toHaveProperty('result.note');
    expect(results[2]![0]).not.toHaveProperty('result.note');
    // The cassette holds what the caller received.
    expect((await runner.cassette('c')).calls[1]).toMatchObject({ id: 'v2', result: { note: expect.stringContaining('could not store this turn') } });
    const changes = await runner.changes('c');
    expect([changes.turns.map((turn) => turn.turn), changes.droppedThrough]).toEqual([[3], 2]);
    const refused = await runner.rewind('c', { toTurn: 1, dryRun: true });
    expect(refused.unreachable).toEqual({
      note: `turn 2 of this conversation could not be stored (${reason}), so what it changed cannot be undone; it and every turn before it count as dropped; rewind to turn 2 or later`,
      droppedThrough: 2,
    });
    await platform.dispose();

    // A new process: turn 3 names turn 2, which is not there; lost, so a rewind to 1 is refused.
    const again = createNodePlatform({ root, journalDir });
    const reopened = new ToolRunner({ platform: again, tools: BuiltinTools.all(), conversationId: 'c' });
    const listed = await reopened.changes('c');
    expect([listed.turns.map((turn) => turn.turn), listed.droppedThrough]).toEqual([[3], 2]);
    expect((await reopened.rewind('c', { toTurn: 1 })).unreachable?.droppedThrough).toBe(2);
    expect(await readFile(join(root, 'f.txt'), 'utf8')).toBe('v3\n');
    expect((await reopened.rewind('c', { toTurn: 2 })).restored).toEqual([join(root, 'f.txt')]);
    expect(await readFile(join(root, 'f.txt'), 'utf8')).toBe('v2\n');
    await again.dispose();
  });

  it('an execute whose turn cannot be stored resolves with its result and the note', async () => {
    const root = join(base, 'execute', 'ws');
    const journalDir = join(base, 'execute', 'journal');
    await mkdir(root, { recursive: true });
    const platform = createNodePlatform({ root, journalDir });
    const store = (platform as { journalStore?: () => JournalStore }).journalStore!();
    store.createTurn = async () => Promise.reject(failure('ENOSPC', 'no space left on device'));
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const result = (await runner.execute('create_file', { file_path: 'e.txt', content: 'e\n' })) as { note?: string };
    expect(result.note).toMatch(/^the change journal could not store this turn \(ENOSPC: no space left on device\)/);
    expect(await readFile(join(root, 'e.txt'), 'utf8')).toBe('e\n');
    expect(await runner.changes()).toEqual({ conversationId: 'default', turns: [], droppedThrough: 1 });
    await platform.dispose();
  });
});
