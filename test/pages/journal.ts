// Test page: a web platform (IndexedDB workspace) and a ToolRunner in the page itself, whose change
// journal keeps its turns in the workspace's journal database; exposed as `window.tj` for
// Playwright's page.evaluate, so a test can reload the page and find the journal again.
import { ToolRunner, type CallOptions, type ToolCall, type ToolCallResult } from '../../src/runner.js';
import type { ConversationChanges, RewindOptions, RewindResult } from '../../src/core/journal-port.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { createWebPlatform, deleteWorkspace, type WebPlatform } from '../../web/index.js';
import { IdbJournalStore } from '../../web/journal-store.js';
import type { StoredTurn } from '../../src/journal/store.js';

const putTurn = IdbJournalStore.prototype.putTurn;

let platform: WebPlatform | undefined;
let runner: ToolRunner | undefined;

const tj = {
  /** Opens workspace `workspace` (IndexedDB) with a runner of the built-in tools; answers whether the platform offers a journal store. */
  async start(workspace: string, backend: 'indexeddb' | 'memory' = 'indexeddb', options: { maxBytes?: number; failTurn?: number } = {}): Promise<boolean> {
    // `failTurn`: the journal database refuses that turn's record, as a browser over its quota would.
    const { failTurn } = options;
    IdbJournalStore.prototype.putTurn =
      failTurn === undefined
        ? putTurn
        : function (this: IdbJournalStore, turn: StoredTurn): Promise<void> {
            return turn.turn === failTurn ? Promise.reject(new DOMException('the quota has been exceeded', 'QuotaExceededError')) : putTurn.call(this, turn);
          };
    platform = createWebPlatform({ workspace, backend });
    runner = new ToolRunner({ platform, tools: BuiltinTools.all(), ...(options.maxBytes === undefined ? {} : { journal: { maxBytes: options.maxBytes } }) });
    await platform.ready();
    return typeof platform.journalStore === 'function';
  },
  call(calls: ToolCall[], options?: CallOptions): Promise<ToolCallResult[]> {
    return (runner as ToolRunner).processToolCalls(calls, options);
  },
  changes(conversationId?: string): Promise<ConversationChanges> {
    return (runner as ToolRunner).changes(conversationId);
  },
  rewind(conversationId: string, options: RewindOptions): Promise<RewindResult> {
    return (runner as ToolRunner).rewind(conversationId, options);
  },
  /** Deletes `workspace` (deleteWorkspace); answers the names of the databases left. */
  async remove(workspace: string): Promise<string[]> {
    await deleteWorkspace(workspace);
    return (await indexedDB.databases()).map((db) => db.name ?? '').sort();
  },
  /**
   * Damages workspace `workspace`'s journal database as lost or corrupted storage could, before any
   * journal of this page opens it: removes a turn's record, edits the turn number inside one (its key
   * unchanged), puts something else than a turn under a turn's key, or puts other bytes under a blob's hash.
   */
  async damage(
    workspace: string,
    damage: { removeTurn?: [string, number]; renumberTurn?: [string, number, number]; garbleTurn?: [string, number]; blob?: { hash: string; text: string } },
  ): Promise<void> {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(`toolhost-journal:${workspace}`);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      const tx = db.transaction(['turns', 'blobs'], 'readwrite');
      const turns = tx.objectStore('turns');
      if (damage.removeTurn) turns.delete(damage.removeTurn);
      if (damage.garbleTurn) turns.put('not a turn', damage.garbleTurn);
      if (damage.blob) tx.objectStore('blobs').put(new TextEncoder().encode(damage.blob.text), damage.blob.hash);
      const renumber = damage.renumberTurn;
      if (renumber) {
        const key = [renumber[0], renumber[1]];
        turns.get(key).onsuccess = (event) => {
          const record = (event.target as IDBRequest<{ turn: number }>).result;
          turns.put({ ...record, turn: renumber[2] }, key);
        };
      }
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  },
  /** A workspace file's text, or null when there is none. */
  async read(path: string): Promise<string | null> {
    try {
      return new TextDecoder().decode(await (platform as WebPlatform).fs.readFile(`/workspace/${path}`));
    } catch {
      return null;
    }
  },
};

/** 4 KiB of text, different per file, with a marker line to edit. */
function content(i: number): string {
  const line = `line of file ${i}: ${'x'.repeat(40)}\n`;
  return `marker-0;\n${line.repeat(Math.ceil(4096 / line.length))}`.slice(0, 4096);
}

/** The bench's figures (bench/journal-web.bench.mjs): each in a fresh workspace, deleted after. */
const bench = {
  /** ms of `count` create_file, then of `count` edit_file, each in one processToolCalls, on a runner with or without its journal. */
  async calls(journal: boolean, count = 1000): Promise<{ create: number; edit: number; stored: number }> {
    const workspace = `bench-journal-${Math.random()}`;
    const web = createWebPlatform({ workspace });
    await web.ready();
    const run = new ToolRunner({ platform: web, tools: BuiltinTools.all(), journal });
    const creates = Array.from({ length: count }, (_, i) => ({ name: 'create_file', args: { file_path: `d${i % 10}/f${i}.txt`, content: content(i) } }));
    const edits = Array.from({ length: count }, (_, i) => ({ name: 'edit_file', args: { file_path: `d${i % 10}/f${i}.txt`, old_string: 'marker-0;', new_string: 'marker-1;' } }));
    let start = performance.now();
    const created = await run.processToolCalls(creates);
    const create = performance.now() - start;
    start = performance.now();
    const edited = await run.processToolCalls(edits);
    const edit = performance.now() - start;
    const failed = [...created, ...edited].filter((r) => 'code' in r).length;
    await web.dispose();
    await deleteWorkspace(workspace);
    return { create, edit, stored: failed === 0 ? count : -failed };
  },
  /** ms of each of `rounds` rewinds of `count` files (a rewind and its undo alternately), and of writing those files through the platform with one flush. */
  async rewinds(count = 100, rounds = 7): Promise<{ rewinds: number[]; direct: number[] }> {
    const workspace = `bench-rewind-${Math.random()}`;
    const web = createWebPlatform({ workspace });
    await web.ready();
    const run = new ToolRunner({ platform: web, tools: BuiltinTools.all() });
    await run.processToolCalls(Array.from({ length: count }, (_, i) => ({ name: 'create_file', args: { file_path: `f${i}.txt`, content: content(i) } })));
    await run.processToolCalls(Array.from({ length: count }, (_, i) => ({ name: 'edit_file', args: { file_path: `f${i}.txt`, old_string: 'marker-0;', new_string: 'marker-1;' } })));
    const rewinds: number[] = [];
    const direct: number[] = [];
    let to = 1;
    await web.fs.mkdir('/workspace/direct', { recursive: true });
    for (let round = 0; round < rounds; round += 1) {
      let start = performance.now();
      const result = await run.rewind('default', { toTurn: to });
      rewinds.push(performance.now() - start);
      if (result.restored.length !== count) throw new Error(`the rewind restored ${result.restored.length} files`);
      to = (result.turn as number) - 1;
      start = performance.now();
      for (let i = 0; i < count; i += 1) await web.fs.writeFile(`/workspace/direct/f${i}.txt`, content(i));
      await web.flush();
      direct.push(performance.now() - start);
    }
    await web.dispose();
    await deleteWorkspace(workspace);
    return { rewinds, direct };
  },
};

(globalThis as { tj?: typeof tj; tjBench?: typeof bench }).tj = tj;
(globalThis as { tjBench?: typeof bench }).tjBench = bench;
document.title = 'toolhost journal page ready';
