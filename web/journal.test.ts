import { describe, expect, it } from 'vitest';
import type { CommitBatch, FsRecord, StoredSubtree } from './idb.js';
import { JournaledWorkspace, type JournalStore } from './journal.js';

/** A JournalStore over a sorted Map, with the commit semantics of WorkspaceDb (deleteTrees, puts, state). */
class MapStore implements JournalStore {
  files = new Map<string, FsRecord>();
  state = new Map<string, unknown>();
  commits = 0;
  failNext: Error | undefined;

  async commit(batch: CommitBatch): Promise<void> {
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = undefined;
      throw error;
    }
    this.commits += 1;
    for (const path of batch.deleteTrees) {
      for (const key of [...this.files.keys()]) if (key === path || key.startsWith(`${path}/`)) this.files.delete(key);
    }
    for (const [path, record] of batch.puts) this.files.set(path, record);
    for (const [c, k, v] of batch.state) {
      if (v === undefined) this.state.delete(`${c}/${k}`);
      else this.state.set(`${c}/${k}`, v);
    }
  }

  async readSubtrees(paths: readonly string[]): Promise<Map<string, StoredSubtree>> {
    return new Map(
      paths.map((path) => [
        path,
        { self: this.files.get(path), descendants: this.sorted().filter(([key]) => key.startsWith(`${path}/`)) },
      ]),
    );
  }

  sorted(): Array<[string, FsRecord]> {
    return [...this.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  view(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [path, record] of this.sorted()) {
      out[path] = record.kind === 'file' ? new TextDecoder().decode(record.data) : record.kind === 'dir' ? '<dir>' : `-> ${record.target}`;
    }
    return out;
  }
}

async function tree(ws: JournaledWorkspace, dir = ws.root): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await ws.fs.readdir(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isSymbolicLink()) out[path] = `-> ${await ws.fs.readlink(path)}`;
    else if (entry.isDirectory()) {
      out[path] = '<dir>';
      Object.assign(out, await tree(ws, path));
    } else out[path] = new TextDecoder().decode(await ws.fs.readFile(path));
  }
  return out;
}

describe('JournaledWorkspace', () => {
  it('commits files, directories, symlinks, renames and recursive removals, and remounts to the same tree', async () => {
    const store = new MapStore();
    const ws = await JournaledWorkspace.mount('/workspace', [], store);
    const { fs } = ws;
    await fs.mkdir('/workspace/a/b/c', { recursive: true });
    await fs.writeFile('/workspace/a/b/c/x.txt', 'x');
    await fs.writeFile('/workspace/a/b/y.txt', 'y');
    await fs.writeFile('/workspace/top (1) ü.txt', 'top');
    await fs.symlink('/workspace/top (1) ü.txt', '/workspace/link');
    await ws.commit();
    expect(store.view()).toEqual(await tree(ws));
    await fs.rename('/workspace/a/b', '/workspace/moved');
    await fs.rm('/workspace/a', { recursive: true });
    await fs.writeFile('/workspace/link', 'through the link');
    await ws.commit([['c', 'k', 1]]);
    expect(store.commits).toBe(2);
    expect(store.view()).toEqual(await tree(ws));
    expect(store.view()['/workspace/top (1) ü.txt']).toBe('through the link');
    expect(store.state.get('c/k')).toBe(1);
    const again = await JournaledWorkspace.mount('/workspace', store.sorted(), new MapStore());
    expect(await tree(again)).toEqual(await tree(ws));
    await ws.commit();
    expect(store.commits).toBe(2);
  });

  it('stores writes through a symlinked directory under the real path', async () => {
    const store = new MapStore();
    const ws = await JournaledWorkspace.mount('/workspace', [], store);
    await ws.fs.mkdir('/workspace/real');
    await ws.fs.symlink('/workspace/real', '/workspace/alias');
    await ws.fs.writeFile('/workspace/alias/f.txt', 'f');
    await ws.commit();
    expect(store.view()).toEqual({ '/workspace/alias': '-> /workspace/real', '/workspace/real': '<dir>', '/workspace/real/f.txt': 'f' });
  });

  it('reloads the changed paths from storage when a commit fails', async () => {
    const store = new MapStore();
    const ws = await JournaledWorkspace.mount('/workspace', [], store);
    await ws.fs.mkdir('/workspace/d', { recursive: true });
    await ws.fs.writeFile('/workspace/d/keep.txt', 'v1');
    await ws.fs.writeFile('/workspace/other.txt', 'o');
    await ws.commit();
    const before = await tree(ws);
    await ws.fs.writeFile('/workspace/d/keep.txt', 'v2');
    await ws.fs.writeFile('/workspace/d/new.txt', 'new');
    await ws.fs.mkdir('/workspace/e/f', { recursive: true });
    await ws.fs.rm('/workspace/other.txt');
    store.failNext = Object.assign(new Error('full'), { name: 'QuotaExceededError' });
    await expect(ws.commit()).rejects.toThrow('full');
    expect(await tree(ws)).toEqual(before);
    expect(store.view()).toEqual(before);
    await ws.fs.rename('/workspace/d', '/workspace/d2');
    store.failNext = new Error('gone');
    await expect(ws.commit()).rejects.toThrow('gone');
    expect(await tree(ws)).toEqual(before);
    expect(ws.pending).toBe(0);
  });

  it('defers every commit of a batch to one commit at its end, and undoes the whole batch when that fails', async () => {
    const store = new MapStore();
    const ws = await JournaledWorkspace.mount('/workspace', [], store);
    await ws.fs.writeFile('/workspace/a.txt', 'a1');
    await ws.commit([['c', 'k', 1]]);
    const value = await ws.batch(async () => {
      await ws.fs.writeFile('/workspace/b.txt', 'b');
      await ws.commit();
      await ws.commit([['c', 'k', 2]]);
      await ws.fs.writeFile('/workspace/a.txt', 'a2');
      await ws.commit();
      expect(store.commits).toBe(1);
      return 'done';
    });
    expect(value).toBe('done');
    expect(store.commits).toBe(2);
    expect(store.view()).toEqual({ '/workspace/a.txt': 'a2', '/workspace/b.txt': 'b' });
    expect(store.state.get('c/k')).toBe(2);
    const before = await tree(ws);
    store.failNext = Object.assign(new Error('full'), { name: 'QuotaExceededError' });
    await expect(
      ws.batch(async () => {
        await ws.fs.writeFile('/workspace/a.txt', 'a3');
        await ws.commit([['c', 'k', 3]]);
        await ws.fs.mkdir('/workspace/new/dir', { recursive: true });
        await ws.commit();
      }),
    ).rejects.toThrow('full');
    expect(await tree(ws)).toEqual(before);
    expect(store.state.get('c/k')).toBe(2);
  });

  it('counts every change and every rollback, and nothing else, in `changes`', async () => {
    const store = new MapStore();
    store.files.set('/workspace/a.txt', { kind: 'file', data: new TextEncoder().encode('a'), mtimeMs: 1 });
    const ws = await JournaledWorkspace.mount('/workspace', store.sorted(), store);
    const start = ws.changes;
    await ws.fs.readFile('/workspace/a.txt');
    await ws.fs.readdir('/workspace');
    await ws.fs.stat('/workspace/a.txt');
    expect(ws.changes).toBe(start);
    await ws.fs.writeFile('/workspace/b.txt', 'b');
    const afterWrite = ws.changes;
    expect(afterWrite).not.toBe(start);
    await expect(ws.fs.writeFile('/workspace/missing/c.txt', 'c')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(ws.changes).not.toBe(afterWrite);
    await ws.commit();
    const committed = ws.changes;
    expect(committed).toBe(ws.changes);
    await ws.fs.writeFile('/workspace/a.txt', 'changed');
    const beforeRollback = ws.changes;
    store.failNext = new Error('gone');
    await expect(ws.commit()).rejects.toThrow('gone');
    // The rollback put a.txt back: a reader that cached "changed" must see a new count.
    expect(ws.changes).not.toBe(beforeRollback);
    expect(new TextDecoder().decode(await ws.fs.readFile('/workspace/a.txt'))).toBe('a');
  });

  it('keeps the stored modification times of files and folders when it mounts', async () => {
    const store = new MapStore();
    store.files.set('/workspace/d', { kind: 'dir', mtimeMs: 1_000_000 });
    store.files.set('/workspace/d/a.txt', { kind: 'file', data: new TextEncoder().encode('a'), mtimeMs: 2_000_000 });
    const ws = await JournaledWorkspace.mount('/workspace', store.sorted(), store);
    expect((await ws.fs.stat('/workspace/d')).mtimeMs).toBe(1_000_000);
    expect((await ws.fs.stat('/workspace/d/a.txt')).mtimeMs).toBe(2_000_000);
  });
});
