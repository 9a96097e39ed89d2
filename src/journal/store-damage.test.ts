import { describe, expect, it } from 'vitest';
import type { Platform } from '../core/platform.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { createChangeJournal, type ChangeJournal } from './journal.js';
import { MemoryJournalStore, type StoredTurn } from './store.js';

// A durable store as the journal sees one (the IndexedDB store's shape: records under way, one writer),
// kept in memory here so a test can lose or damage what it holds between two journals, as a browser's
// storage or a disk can between two pages or processes. The journal must refuse what it cannot restore
// exactly; never restore other content.

/** A store that outlives its journal: its records under way make the journal treat it as durable. */
class DurableStore extends MemoryJournalStore {
  readonly #rewinds = new Map<string, StoredTurn>();
  /** Records to list instead of the ones held (a damaged record), by `conversation:turn`. */
  readonly replaced = new Map<string, unknown>();

  async putRewind(turn: StoredTurn): Promise<void> {
    this.#rewinds.set(`${turn.conversationId}:${turn.turn}`, turn);
  }

  async listRewinds(): Promise<StoredTurn[]> {
    return [...this.#rewinds.values()];
  }

  async deleteRewind(conversationId: string, turn: number): Promise<void> {
    this.#rewinds.delete(`${conversationId}:${turn}`);
  }

  override async listTurns(): Promise<StoredTurn[]> {
    return (await super.listTurns()).map((turn) => (this.replaced.get(`${turn.conversationId}:${turn.turn}`) ?? turn) as StoredTurn);
  }

  /** Puts `bytes` under `hash` whatever it held (a blob damaged in place). */
  async damageBlob(hash: string, bytes: Uint8Array): Promise<void> {
    await this.deleteBlob(hash);
    await this.putBlob(hash, bytes);
  }
}

const setup = { maxBytes: 1 << 20, withPathLock: <T>(_path: string, fn: () => Promise<T>): Promise<T> => fn() };
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const VERSIONS = ['first\n', 'second\n', 'third\n'];

/** Turns 1–3 of conversation `c` write /workspace/page.md: first, second, third. */
async function threeTurns(platform: Platform, store: DurableStore): Promise<ChangeJournal> {
  const journal = createChangeJournal(platform, setup, { store });
  for (const [i, text] of VERSIONS.entries()) {
    const turn = journal.beginTurn('c');
    await turn.fsFor({ callId: `w${i + 1}`, tool: 'write' }, platform.fs).writeFile('/workspace/page.md', text);
    await turn.end();
  }
  await journal.flushed();
  return journal;
}

const page = async (platform: Platform): Promise<string> => new TextDecoder().decode(await platform.fs.readFile('/workspace/page.md'));

/** A second journal on the store, loaded (a reloaded page or a new process). */
async function reload(platform: Platform, store: DurableStore): Promise<ChangeJournal> {
  const journal = createChangeJournal(platform, setup, { store });
  await journal.load();
  return journal;
}

describe('a durable store that lost or damaged part of a journal', () => {
  it('records each turn with the stored turn before it, so a turn lost from the middle is found', async () => {
    const platform = createMemoryPlatform({});
    const store = new DurableStore();
    await threeTurns(platform, store);
    expect((await store.listTurns()).map((turn) => [turn.turn, turn.prev])).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
  });

  it('a turn missing from the middle: it and every turn before it count as lost, and a rewind to before it writes nothing', async () => {
    const platform = createMemoryPlatform({});
    const store = new DurableStore();
    await threeTurns(platform, store);
    await store.deleteTurn('c', 2);
    const journal = await reload(platform, store);
    const changes = await journal.changes('c');
    expect([changes.turns.map((turn) => turn.turn), changes.droppedThrough]).toEqual([[3], 2]);
    const refused = await journal.rewind('c', { toTurn: 1 });
    expect(refused).toMatchObject({ restored: [], conflicts: [], unreachable: { droppedThrough: 2 } });
    expect(refused.unreachable?.note).toMatch(/^turn 2 of this conversation was lost: the journal's record of it, or a file content it refers to, is missing or damaged/);
    expect(await page(platform)).toBe('third\n');
    // Turn 1 was whole, but comes before the hole: as the budget would, it counts as dropped.
    expect((await journal.rewind('c', { toTurn: 0 })).unreachable?.droppedThrough).toBe(2);
    const cassette = await journal.cassette('c', { include: [] });
    expect(cassette.incomplete).toMatchObject({ droppedThrough: 3, note: expect.stringContaining('turn 2 was lost') });
    expect(cassette.incomplete?.note).not.toContain('within budget');
  });

  it.each([
    ['a record of no calls list', (turn: StoredTurn) => ({ ...turn, calls: 'lost' })],
    ['a record whose file change names no image', (turn: StoredTurn) => ({ ...turn, calls: [{ ...turn.calls[0], files: [{ path: '/workspace/page.md', before: '', after: 'x' }] }] })],
  ])('%s in the middle is damaged: counted as lost', async (_name, damage) => {
    const platform = createMemoryPlatform({});
    const store = new DurableStore();
    await threeTurns(platform, store);
    const second = (await store.listTurns()).find((turn) => turn.turn === 2)!;
    store.replaced.set('c:2', damage(second));
    const journal = await reload(platform, store);
    const changes = await journal.changes('c');
    expect([changes.turns.map((turn) => turn.turn), changes.droppedThrough]).toEqual([[3], 2]);
  });

  it('a blob whose bytes do not hash to its name is damaged: the turn that needs it is lost (the note says so), nothing is restored from it', async () => {
    const platform = createMemoryPlatform({});
    const store = new DurableStore();
    const first = await threeTurns(platform, store);
    const before = (await first.changes('c')).turns[1]!.calls[0]!.files[0]!.before;
    await store.damageBlob(before, encode('first, edited\n'));
    const journal = await reload(platform, store);
    const changes = await journal.changes('c');
    expect([changes.turns.map((turn) => turn.turn), changes.droppedThrough]).toEqual([[3], 2]);
    const refused = await journal.rewind('c', { toTurn: 1 });
    expect(refused.unreachable?.note).toContain('turn 2 of this conversation was lost');
    expect(refused.unreachable?.note).not.toContain('byte budget');
    expect(await page(platform)).toBe('third\n');
  });

  it('a blob damaged after the journal loaded: the rewind that needs it answers unreachable and writes no file, not even the intact ones', async () => {
    const platform = createMemoryPlatform({ files: { 'other.md': 'other before\n' } });
    const store = new DurableStore();
    const first = await threeTurns(platform, store);
    const turn = first.beginTurn('c');
    await turn.fsFor({ callId: 'o', tool: 'write' }, platform.fs).writeFile('/workspace/other.md', 'other after\n');
    await turn.end();
    const journal = await reload(platform, store);
    const target = (await journal.changes('c')).turns[1]!.calls[0]!.files[0]!.before;
    await store.damageBlob(target, new Uint8Array(0));
    expect(await journal.rewind('c', { toTurn: 1 })).toEqual({
      restored: [],
      conflicts: [],
      unreachable: { note: expect.stringContaining('missing or damaged') as string, paths: ['/workspace/page.md'] },
    });
    expect([await page(platform), new TextDecoder().decode(await platform.fs.readFile('/workspace/other.md'))]).toEqual(['third\n', 'other after\n']);
  });

  it('a turn whose record could not be written, followed by one that was: a reloaded journal finds it lost', async () => {
    const platform = createMemoryPlatform({});
    const store = new DurableStore();
    const journal = await threeTurns(platform, store);
    const putTurn = store.putTurn.bind(store);
    store.putTurn = () => Promise.reject(new Error('quota exceeded'));
    const write = async (id: string, text: string): Promise<void> => {
      const turn = journal.beginTurn('c');
      await turn.fsFor({ callId: id, tool: 'write' }, platform.fs).writeFile('/workspace/page.md', text);
      await turn.end();
    };
    await write('w4', 'fourth\n');
    store.putTurn = putTurn;
    await write('w5', 'fifth\n');
    await journal.flushed();
    const changes = await (await reload(platform, store)).changes('c');
    expect([changes.turns.map((t) => t.turn), changes.droppedThrough]).toEqual([[5], 4]);
  });
});

describe('a durable store that fails to keep a turn (a full or failing disk)', () => {
  const full = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

  it.each([
    ['its record', (store: DurableStore) => {
      const put = store.putTurn.bind(store);
      store.putTurn = async (turn) => (turn.turn === 2 ? Promise.reject(full()) : put(turn));
    }],
    ['a file content of it', (store: DurableStore) => {
      const put = store.putBlob.bind(store);
      let failed = false;
      // Once: turn 3 keeps the same content as its pre-image, and the disk has recovered by then.
      store.putBlob = async (hash, bytes) => (new TextDecoder().decode(bytes) === 'second\n' && !failed ? ((failed = true), Promise.reject(full())) : put(hash, bytes));
    }],
  ])('a store write of %s fails: the turn end says so, and the turn counts as lost, also after a reload', async (_name, fail) => {
    const platform = createMemoryPlatform({});
    const store = new DurableStore();
    fail(store);
    const journal = createChangeJournal(platform, setup, { store });
    const ends = [];
    for (const [i, text] of VERSIONS.entries()) {
      const turn = journal.beginTurn('c');
      await turn.fsFor({ callId: `w${i + 1}`, tool: 'write' }, platform.fs).writeFile('/workspace/page.md', text);
      ends.push(await turn.end());
    }
    expect(ends[0]).toBeUndefined();
    expect(ends[1]).toEqual({
      unrecorded: {
        note: 'the change journal could not store this turn (ENOSPC: no space left on device): its file changes were made, but a rewind cannot undo them, nor go back to before them',
        callIds: ['w2'],
      },
    });
    expect(ends[2]).toBeUndefined();
    // The change itself was made.
    expect(await page(platform)).toBe('third\n');
    const changes = await journal.changes('c');
    expect([changes.turns.map((turn) => turn.turn), changes.droppedThrough]).toEqual([[3], 2]);
    const refused = await journal.rewind('c', { toTurn: 1 });
    expect(refused).toMatchObject({ restored: [], conflicts: [], unreachable: { droppedThrough: 2 } });
    expect(refused.unreachable?.note).toBe('turn 2 of this conversation could not be stored (ENOSPC: no space left on device), so what it changed cannot be undone; it and every turn before it count as dropped; rewind to turn 2 or later');
    expect(await page(platform)).toBe('third\n');
    await journal.flushed();
    // A reload finds turn 2 missing (turn 3 names it as the turn before): lost, never restored wrong.
    const again = await reload(platform, store);
    const reloaded = await again.changes('c');
    expect([reloaded.turns.map((turn) => turn.turn), reloaded.droppedThrough]).toEqual([[3], 2]);
    expect((await again.rewind('c', { toTurn: 1 })).unreachable?.droppedThrough).toBe(2);
    expect((await again.rewind('c', { toTurn: 2 })).restored).toEqual(['/workspace/page.md']);
    expect(await page(platform)).toBe('second\n');
  });
});

describe('a durable store whose journal budget dropped every turn of a conversation', () => {
  it('leaves one mark in their place: a reload reports them dropped and numbers on after them', async () => {
    const platform = createMemoryPlatform({});
    const store = new DurableStore();
    const small = { ...setup, maxBytes: 2000 };
    const journal = createChangeJournal(platform, small, { store });
    const write = async (conversationId: string, path: string, text: string): Promise<number> => {
      const turn = journal.beginTurn(conversationId);
      await turn.fsFor({ callId: text.slice(0, 8), tool: 'write' }, platform.fs).writeFile(path, text);
      await turn.end();
      return turn.turn;
    };
    for (const text of VERSIONS) await write('c', '/workspace/page.md', text);
    for (let i = 0; i < 30; i += 1) await write('other', '/workspace/other.md', `${String(i % 10).repeat(100)}${i}\n`);
    await journal.flushed();
    expect(await journal.changes('c')).toEqual({ conversationId: 'c', turns: [], droppedThrough: 3 });
    expect((await store.listTurns()).filter((turn) => turn.conversationId === 'c')).toEqual([expect.objectContaining({ turn: 3, calls: [], dropped: true })]);
    const again = await reload(platform, store);
    expect(await again.changes('c')).toEqual({ conversationId: 'c', turns: [], droppedThrough: 3 });
    const turn = again.beginTurn('c');
    expect(turn.turn).toBe(4);
    await turn.end();
    expect((await again.rewind('c', { toTurn: 1 })).unreachable?.droppedThrough).toBe(3);
  });
});
