import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner as CoreToolRunner } from '../src/core/runner.js';
import { createChangeJournal, type ChangeJournal } from '../src/journal/journal.js';
import { MemoryJournalStore, type JournalStore, type StoredTurn } from '../src/journal/store.js';
import { TOOLHOST_DEFAULTS } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { FileJournalStore } from './journal-store.js';
import { createNodePlatform } from './platform.js';

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-journal-store-')));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const HASH_A = `sha256:${'a'.repeat(64)}`;
const HASH_B = `sha256:${'b'.repeat(64)}`;
const turn = (conversationId: string, number: number, seq: number): StoredTurn => ({
  conversationId,
  turn: number,
  seq,
  at: 1_700_000_000_000 + seq,
  calls: [{ callId: `call-${seq}`, tool: 'edit_file', files: [{ path: '/w/a.txt', before: 'absent', after: HASH_A }] }],
});

describe.each([
  ['MemoryJournalStore', (): JournalStore => new MemoryJournalStore()],
  ['FileJournalStore', (): JournalStore => new FileJournalStore(join(base, `contract-${Math.random().toString(36).slice(2)}`))],
])('%s', (_name, make) => {
  it('keeps one blob per hash, answers undefined for one it does not hold, and removes it', async () => {
    const store = make();
    expect(await store.getBlob(HASH_A)).toBeUndefined();
    await store.putBlob(HASH_A, new TextEncoder().encode('first'));
    await store.putBlob(HASH_A, new TextEncoder().encode('second put of one hash is a no-op'));
    await store.putBlob(HASH_B, new Uint8Array([0, 1, 2]));
    expect(new TextDecoder().decode(await store.getBlob(HASH_A))).toBe('first');
    expect([...((await store.getBlob(HASH_B)) ?? [])]).toEqual([0, 1, 2]);
    await store.deleteBlob(HASH_A);
    await store.deleteBlob(HASH_A);
    expect(await store.getBlob(HASH_A)).toBeUndefined();
  });

  it('lists turns in seq order across conversations and forgets a deleted one', async () => {
    const store = make();
    expect(await store.listTurns()).toEqual([]);
    await store.putTurn(turn('b', 1, 2));
    await store.putTurn(turn('a', 1, 1));
    await store.putTurn(turn('a', 2, 3));
    expect((await store.listTurns()).map((t) => [t.conversationId, t.turn])).toEqual([['a', 1], ['b', 1], ['a', 2]]);
    await store.deleteTurn('a', 1);
    expect(await store.listTurns()).toEqual([turn('b', 1, 2), turn('a', 2, 3)]);
  });

  it('lists a record written over after it was listed as it is now (a turn replaced by a mark of dropped turns)', async () => {
    const store = make();
    await store.putTurn(turn('a', 1, 1));
    expect((await store.listTurns())[0]?.calls.length).toBe(1);
    const mark: StoredTurn = { ...turn('a', 1, 1), calls: [], dropped: true };
    await store.putTurn(mark);
    expect(await store.listTurns()).toEqual([mark]);
  });
});

describe('FileJournalStore under a change journal', () => {
  it('lets a journal of a new process list the changes and rewind them', async () => {
    const root = join(base, 'root');
    await mkdir(root);
    await writeFile(join(root, 'a.txt'), 'one\n');
    const storeDir = join(base, 'journal');
    const open = (): { runner: CoreToolRunner; journal: () => ChangeJournal } => {
      let made: ChangeJournal | undefined;
      const runner = new CoreToolRunner(
        { platform: createNodePlatform({ root }), tools: BuiltinTools.all() },
        { ...TOOLHOST_DEFAULTS, journal: (platform, setup) => (made = createChangeJournal(platform, setup, { store: new FileJournalStore(storeDir) })) },
      );
      return { runner, journal: () => made as ChangeJournal };
    };
    const first = open();
    await first.runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'two' }, { conversationId: 'chat' });
    await first.runner.execute('create_file', { file_path: 'b/new.txt', content: 'new\n' }, { conversationId: 'chat' });
    const before = await first.runner.changes('chat');
    await first.journal().flushed();

    const second = open();
    await second.journal().load();
    expect(await second.runner.changes('chat')).toEqual(before);
    expect(await second.runner.rewind('chat', { toTurn: 0 })).toEqual({ restored: [join(root, 'a.txt'), join(root, 'b/new.txt')], conflicts: [], turn: 3 });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\n');
    await expect(readFile(join(root, 'b/new.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
