import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/platform.js';
import { createChangeJournal } from '../src/journal/journal.js';
import type { StoredTurn } from '../src/journal/store.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { ToolRunner } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { FileJournalStore } from './journal-store.js';
import { createNodePlatform } from './platform.js';

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-journal-durable-')));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const setup = { maxBytes: 1 << 20, withPathLock: <T>(_path: string, fn: () => Promise<T>): Promise<T> => fn() };
const rewindTurn = (conversationId: string, turn: number, seq: number): StoredTurn => ({
  conversationId,
  turn,
  seq,
  at: 1_700_000_000_000,
  calls: [{ callId: `rewind-${turn}`, tool: 'rewind', files: [{ path: '/w/a.txt', before: `sha256:${'a'.repeat(64)}`, after: 'absent' }] }],
});

describe('FileJournalStore: rewinds under way', () => {
  it('keeps a rewind under way until it is deleted, listing them in seq order, apart from the turns', async () => {
    const store = new FileJournalStore(join(base, 'contract'));
    expect(await store.listRewinds()).toEqual([]);
    await store.putRewind(rewindTurn('b', 4, 9));
    await store.putRewind(rewindTurn('a', 2, 5));
    expect((await store.listRewinds()).map((turn) => [turn.conversationId, turn.turn])).toEqual([
      ['a', 2],
      ['b', 4],
    ]);
    expect(await store.listTurns()).toEqual([]);
    await store.deleteRewind('a', 2);
    await store.deleteRewind('a', 2);
    expect(await store.listRewinds()).toEqual([rewindTurn('b', 4, 9)]);
  });
});

describe('change journal on a durable store', () => {
  it('finishes a rewind a stopped process left under way when it loads: files still as the rewind found them are written, one already done is left, one changed since by someone else is left out', async () => {
    const root = join(base, 'finish');
    await mkdir(root);
    for (const name of ['a', 'b', 'c']) await writeFile(join(root, `${name}.txt`), `${name} before\n`);
    const storeDir = join(base, 'finish-journal');
    const platform = createNodePlatform({ root });
    const first = createChangeJournal(platform, setup, { store: new FileJournalStore(storeDir) });
    const turn = first.beginTurn('chat');
    const fs = turn.fsFor({ callId: 'w', tool: 'write' }, platform.fs);
    for (const name of ['a', 'b', 'c']) await fs.writeFile(join(root, `${name}.txt`), `${name} after\n`);
    await turn.end();
    const [files] = (await first.changes('chat')).turns.map((t) => t.calls[0]!.files.map(({ path, before, after }) => ({ path, before: after, after: before })));
    // As a process stopped mid-rewind leaves it: the rewind's record, b already written back, c changed by someone else since.
    await new FileJournalStore(storeDir).putRewind({ conversationId: 'chat', turn: 2, seq: 2, at: 1_700_000_000_000, calls: [{ callId: 'rewind-2', tool: 'rewind', files: files! }] });
    await writeFile(join(root, 'b.txt'), 'b before\n');
    await writeFile(join(root, 'c.txt'), 'c by someone else\n');
    await writeFile(join(root, '.toolhost-0123456789ab.tmp'), 'half a write\n');

    const second = createChangeJournal(platform, setup, { store: new FileJournalStore(storeDir) });
    await second.load();
    expect(await Promise.all(['a', 'b', 'c'].map((name) => readFile(join(root, `${name}.txt`), 'utf8')))).toEqual(['a before\n', 'b before\n', 'c by someone else\n']);
    await expect(readFile(join(root, '.toolhost-0123456789ab.tmp'))).rejects.toMatchObject({ code: 'ENOENT' });
    const changes = await second.changes('chat');
    expect(changes.turns.map((t) => [t.turn, t.calls[0]!.tool, t.calls[0]!.files.map((file) => file.path)])).toEqual([
      [1, 'write', [join(root, 'a.txt'), join(root, 'b.txt'), join(root, 'c.txt')]],
      [2, 'rewind', [join(root, 'a.txt'), join(root, 'b.txt')]],
    ]);
    expect(await new FileJournalStore(storeDir).listRewinds()).toEqual([]);
    // The finished rewind is a turn like any other: rewinding to the turn before it undoes it (c is a conflict: someone else changed it).
    expect(await second.rewind('chat', { toTurn: 1 })).toMatchObject({ restored: [join(root, 'a.txt'), join(root, 'b.txt')], turn: 3 });
  });

  it('forgets a rewind whose write failed (every file put back): a journal loading later finds none under way', async () => {
    const root = join(base, 'failed');
    await mkdir(root);
    await writeFile(join(root, 'a.txt'), 'one\n');
    const storeDir = join(base, 'failed-journal');
    const real = createNodePlatform({ root });
    let failOn: string | undefined;
    const fs = new Proxy(real.fs, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        if (property !== 'writeFileAtomic' && property !== 'writeFile') return (value as (...args: unknown[]) => unknown).bind(target);
        return async (path: string, data: Uint8Array | string) => {
          if (path === failOn) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          return (value as (p: string, d: Uint8Array | string) => Promise<void>).call(target, path, data);
        };
      },
    });
    const platform = { ...real, fs } as Platform;
    const journal = createChangeJournal(platform, setup, { store: new FileJournalStore(storeDir) });
    const turn = journal.beginTurn('chat');
    await turn.fsFor({ callId: 'w', tool: 'write' }, platform.fs).writeFile(join(root, 'a.txt'), 'two\n');
    await turn.end();
    failOn = join(root, 'a.txt');
    await expect(journal.rewind('chat', { toTurn: 0 })).rejects.toMatchObject({ code: 'execution_failed' });
    await journal.flushed();
    expect(await new FileJournalStore(storeDir).listRewinds()).toEqual([]);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('two\n');
    // Its turn number was given back: the next rewind is turn 2.
    failOn = undefined;
    expect(await journal.rewind('chat', { toTurn: 0 })).toEqual({ restored: [join(root, 'a.txt')], conflicts: [], turn: 2 });
  });

  it("uses the platform's journal store by default and loads it on first use: a turn begun before the load is numbered after the stored ones", async () => {
    const storeDir = join(base, 'platform-store');
    const memory = createMemoryPlatform({ files: { 'a.txt': 'one\n' } });
    const platform = { ...memory, journalStore: () => new FileJournalStore(storeDir) } as Platform;
    const first = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await first.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    await first.execute('create_file', { file_path: 'b.txt', content: 'bee\n' });
    // A durable store has each turn before the call answers: a new runner right away finds both.
    const second = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await second.execute('create_file', { file_path: 'c.txt', content: 'see\n' });
    const changes = await second.changes();
    expect(changes.turns.map((t) => [t.turn, t.calls[0]!.tool, t.calls[0]!.files[0]!.path])).toEqual([
      [1, 'edit_file', '/workspace/a.txt'],
      [2, 'create_file', '/workspace/b.txt'],
      [3, 'create_file', '/workspace/c.txt'],
    ]);
    expect(await second.rewind('default', { toTurn: 0 })).toEqual({ restored: ['/workspace/a.txt', '/workspace/b.txt', '/workspace/c.txt'], conflicts: [], turn: 4 });
    expect(new TextDecoder().decode(await memory.fs.readFile('/workspace/a.txt'))).toBe('one\n');
  });
});

describe('createNodePlatform({ journalDir })', () => {
  it('keeps the journal of a real folder in journalDir: a new process (platform and runner) lists the earlier turns, numbers on after them and rewinds them', async () => {
    const root = join(base, 'journal-dir-root');
    const journalDir = join(base, 'journal-dir');
    await mkdir(root, { recursive: true });
    await writeFile(join(root, 'a.txt'), 'one\n');
    const first = createNodePlatform({ root, journalDir });
    const before = new ToolRunner({ platform: first, tools: BuiltinTools.all(), conversationId: 'chat' });
    expect(await before.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'two' })).toMatchObject({ diff: expect.stringContaining('+two') });
    await before.execute('create_file', { file_path: 'b.txt', content: 'bee\n' });
    await first.dispose();

    const second = createNodePlatform({ root, journalDir });
    const after = new ToolRunner({ platform: second, tools: BuiltinTools.all(), conversationId: 'chat' });
    await after.execute('create_file', { file_path: 'c.txt', content: 'see\n' });
    const changes = await after.changes('chat');
    expect(changes.turns.map((t) => [t.turn, t.calls[0]!.tool, t.calls[0]!.files[0]!.path])).toEqual([
      [1, 'edit_file', join(root, 'a.txt')],
      [2, 'create_file', join(root, 'b.txt')],
      [3, 'create_file', join(root, 'c.txt')],
    ]);
    expect(await after.rewind('chat', { toTurn: 0 })).toEqual({ restored: [join(root, 'a.txt'), join(root, 'b.txt'), join(root, 'c.txt')], conflicts: [], turn: 4 });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\n');
    await expect(readFile(join(root, 'b.txt'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    await second.dispose();
    // Without journalDir the journal lives with the runner: a new one starts from turn 1 and has nothing to rewind.
    const plain = new ToolRunner({ platform: createNodePlatform({ root }), tools: BuiltinTools.all(), conversationId: 'chat' });
    expect((await plain.changes('chat')).turns).toEqual([]);
  });

  it('refuses journalDir with inMemory, and a journalDir that is not a path, as TypeErrors', () => {
    expect(() => createNodePlatform({ inMemory: true, journalDir: join(base, 'j') })).toThrow(/journalDir keeps the journal of files on disk; leave it out with inMemory: true/);
    expect(() => createNodePlatform({ root: base, journalDir: '' as string })).toThrow(TypeError);
    expect(() => createNodePlatform({ root: base, journalDir: 42 as unknown as string })).toThrow(/journalDir/);
  });
});
