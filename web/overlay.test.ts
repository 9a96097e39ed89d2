import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FsPromises } from '../src/core/types.js';
import { MemoryFs } from '../src/fs/memfs.js';
import { fsFromSync } from '../src/platform/memory.js';
import { ToolRunner } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { fsMount } from './folders.js';
import { overlayFs } from './overlay.js';
import { createWebPlatform } from './platform.js';

// The overlay workspace is review mode's staging kept by the platform: its changes are listed,
// applied and discarded as a whole (changes / apply / discard), or per file and hunk through a
// runner's pendingChanges / accept / reject; the staged layer is kept in the workspace's own store.

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function memoryFs(files: Record<string, string>): FsPromises {
  const memory = new MemoryFs();
  memory.mkdirSync('/', { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    memory.mkdirSync(path.slice(0, path.lastIndexOf('/')) || '/', { recursive: true });
    memory.writeFileSync(path, text);
  }
  return fsFromSync(memory);
}

/** Twelve numbered lines, `l1` to `l12`, with the lines in `changed` replaced. */
function lines(changed: Record<number, string> = {}): string {
  return Array.from({ length: 12 }, (_, i) => `${changed[i + 1] ?? `l${i + 1}`}\n`).join('');
}

function overlayPlatform(base: FsPromises, workspace = 'ov') {
  const platform = createWebPlatform({ workspace, backend: 'memory', overlay: { base: fsMount(base) } });
  const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
  return { platform, runner };
}

describe('overlay workspace reviewed per hunk through the runner', () => {
  it('accepting one of two hunks writes exactly that hunk to the base; the other stays staged, and rejecting it tells the model', async () => {
    const base = memoryFs({ '/a.txt': lines() });
    const { platform, runner } = overlayPlatform(base);
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'l2\n', new_string: 'TWO\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'l11\n', new_string: 'ELEVEN\nand more\n' });
    const [file] = (await runner.pendingChanges('default')).files;
    expect(file?.path).toBe('/workspace/a.txt');
    expect(file?.kind).toBe('modify');
    expect(file?.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [1, 5, 1, 5],
      [8, 5, 8, 6],
    ]);

    const accepted = await runner.accept('default', { hunks: [file!.hunks[0]!.id] });
    expect(accepted).toEqual({ written: ['/workspace/a.txt'], hunks: [file!.hunks[0]!.id], conflicts: [] });
    expect(decode(await base.readFile('/a.txt'))).toBe(lines({ 2: 'TWO' }));
    // The workspace still shows both changes; the overlay now differs from the base by the second only.
    expect(decode(await platform.fs.readFile('/workspace/a.txt'))).toBe(lines({ 2: 'TWO', 11: 'ELEVEN\nand more' }));
    expect(await platform.changes?.()).toEqual([
      { path: 'a.txt', kind: 'modified', diff: '--- a.txt\n+++ a.txt\n@@ -8,5 +8,6 @@\n l8\n l9\n l10\n-l11\n+ELEVEN\n+and more\n l12\n' },
    ]);

    const [rest] = (await runner.pendingChanges('default')).files;
    expect(rest?.hunks).toHaveLength(1);
    expect(await runner.reject('default', { hunks: [rest!.hunks[0]!.id], reason: 'keep l11' })).toEqual({ reverted: ['/workspace/a.txt'], hunks: [rest!.hunks[0]!.id] });
    expect(await platform.changes?.()).toEqual([]);
    expect((await runner.pendingChanges('default')).files).toEqual([]);
    const seen = (await runner.execute('view_file', { file_path: 'a.txt' })) as { content: string; note?: string };
    expect(seen.content).toBe(lines({ 2: 'TWO' }).slice(0, -1));
    expect(seen.note).toContain('/workspace/a.txt: all your pending changes to it were rejected; it now holds what the workspace holds.');
    expect(seen.note).toContain("The user's reason: keep l11");
    expect(decode(await base.readFile('/a.txt'))).toBe(lines({ 2: 'TWO' }));
  });

  it('accepts whole files by path, a created file and a removal alike, and apply() then has nothing left to write', async () => {
    const base = memoryFs({ '/keep.txt': 'keep\n', '/gone.txt': 'bye\n' });
    const { platform, runner } = overlayPlatform(base, 'ov-paths');
    await runner.execute('create_file', { file_path: 'new/b.txt', content: 'bee\n' });
    await platform.fs.rm('/workspace/gone.txt');
    expect((await runner.pendingChanges('default')).files.map((f) => [f.path, f.kind])).toEqual([
      ['/workspace/gone.txt', 'delete'],
      ['/workspace/new/b.txt', 'create'],
    ]);
    expect((await runner.accept('default', { paths: ['/workspace/new/b.txt', '/workspace/gone.txt'] })).written).toEqual(['/workspace/gone.txt', '/workspace/new/b.txt']);
    expect(decode(await base.readFile('/new/b.txt'))).toBe('bee\n');
    await expect(base.readFile('/gone.txt')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await platform.changes?.()).toEqual([]);
    expect(await platform.apply?.()).toEqual({ applied: [], conflicts: [] });
  });

  it('a conversation the runner reviews itself keeps its own staging over the overlay: its pendingChanges are its own, an unreviewed one sees the overlay', async () => {
    const base = memoryFs({ '/a.txt': 'base\n' });
    const platform = createWebPlatform({ workspace: 'ov-both', backend: 'memory', overlay: { base: fsMount(base) } });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), review: (id) => id === 'reviewed' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'base', new_string: 'mine' }, { conversationId: 'reviewed' });
    await runner.execute('create_file', { file_path: 'plain.txt', content: 'plain\n' }, { conversationId: 'plain' });
    expect((await runner.pendingChanges('reviewed')).files.map((f) => f.path)).toEqual(['/workspace/a.txt']);
    expect((await runner.pendingChanges('plain')).files.map((f) => f.path)).toEqual(['/workspace/plain.txt']);
    await runner.accept('reviewed', {});
    expect((await runner.pendingChanges('plain')).files.map((f) => f.path)).toEqual(['/workspace/a.txt', '/workspace/plain.txt']);
    expect(decode(await base.readFile('/a.txt'))).toBe('base\n');
  });
});

describe('overlay conflicts', () => {
  it('a base file changed outside after staging is a conflict: apply() and accept write nothing, and the base keeps the outside change', async () => {
    const base = memoryFs({ '/a.txt': 'one\n', '/b.txt': 'bee\n' });
    const { platform, runner } = overlayPlatform(base, 'ov-conflict');
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'uno' });
    await runner.execute('edit_file', { file_path: 'b.txt', old_string: 'bee', new_string: 'BEE' });
    await base.writeFile('/a.txt', 'changed underneath\n');

    const changes = await platform.changes?.();
    expect(changes?.map((c) => [c.path, c.kind, c.conflict])).toEqual([
      ['a.txt', 'modified', 'the base file changed since the overlay changed it'],
      ['b.txt', 'modified', undefined],
    ]);
    expect(await platform.apply?.()).toEqual({ applied: [], conflicts: [{ path: 'a.txt', reason: 'the base file changed since the overlay changed it' }] });
    expect(decode(await base.readFile('/a.txt'))).toBe('changed underneath\n');
    expect(decode(await base.readFile('/b.txt'))).toBe('bee\n');

    const pending = (await runner.pendingChanges('default')).files;
    expect(pending.find((f) => f.path === '/workspace/a.txt')?.conflict).toBe('--- /workspace/a.txt\n+++ /workspace/a.txt\n@@ -1,1 +1,1 @@\n-one\n+changed underneath\n');
    const accepted = await runner.accept('default', {});
    expect(accepted.written).toEqual(['/workspace/b.txt']);
    expect(accepted.conflicts.map((c) => c.path)).toEqual(['/workspace/a.txt']);
    expect(decode(await base.readFile('/a.txt'))).toBe('changed underneath\n');
    expect(decode(await base.readFile('/b.txt'))).toBe('BEE\n');
    // Still staged and still a conflict, until rejected or discarded.
    expect((await platform.changes?.())?.map((c) => [c.path, c.conflict])).toEqual([['a.txt', 'the base file changed since the overlay changed it']]);
    await runner.reject('default', { paths: ['/workspace/a.txt'] });
    expect(decode(await platform.fs.readFile('/workspace/a.txt'))).toBe('changed underneath\n');
  });

  it('reports a file the base gained under a created one, and a file the base lost under a removed one', async () => {
    const base = memoryFs({ '/gone.txt': 'bye\n' });
    const { platform } = overlayPlatform(base, 'ov-conflict-2');
    await platform.fs.writeFile('/workspace/new.txt', 'mine\n');
    await platform.fs.rm('/workspace/gone.txt');
    await base.writeFile('/new.txt', 'theirs\n');
    await base.rm('/gone.txt');
    expect((await platform.changes?.())?.map((c) => [c.path, c.kind, c.conflict])).toEqual([
      ['gone.txt', 'deleted', 'the file was deleted from the base since'],
      ['new.txt', 'modified', 'the base has a file here now that it did not have'],
    ]);
    expect((await platform.apply?.())?.applied).toEqual([]);
    expect(decode(await base.readFile('/new.txt'))).toBe('theirs\n');
  });
});

describe('overlay persistence', () => {
  it('the staged layer is kept in the store: reopened over it, the overlay shows the same files, changes and folders', async () => {
    const base = memoryFs({ '/a.txt': lines(), '/dir/x.txt': 'x\n', '/dir/y.txt': 'y\n' });
    const store = memoryFs({ '/workspace/.keep': '' });
    await store.rm('/workspace/.keep');
    const flushes: string[] = [];
    const open = () => overlayFs({ upper: store, base, root: '/workspace', flush: async () => void flushes.push('flush') });
    const first = await open();
    await first.fs.writeFile('/workspace/a.txt', lines({ 3: 'THREE' }));
    await first.fs.mkdir('/workspace/empty/deeper', { recursive: true });
    await first.fs.writeFile('/workspace/bin.dat', new Uint8Array([0, 1, 2]));
    await first.fs.rm('/workspace/dir', { recursive: true });
    const before = await first.control.changes();

    const again = await open();
    expect(await again.control.changes()).toEqual(before);
    expect(before.map((c) => [c.path, c.kind])).toEqual([
      ['a.txt', 'modified'],
      ['bin.dat', 'created'],
      ['dir/x.txt', 'deleted'],
      ['dir/y.txt', 'deleted'],
    ]);
    expect(decode(await again.fs.readFile('/workspace/a.txt'))).toBe(lines({ 3: 'THREE' }));
    expect(Array.from(await again.fs.readFile('/workspace/bin.dat'))).toEqual([0, 1, 2]);
    expect((await again.fs.readdir('/workspace')).sort()).toEqual(['a.txt', 'bin.dat', 'empty']);
    expect(await again.fs.readdir('/workspace/empty')).toEqual(['deeper']);
    await expect(again.fs.stat('/workspace/dir')).rejects.toMatchObject({ code: 'ENOENT' });

    // A partial accept moves the staged file's base; reopened, only the rest is pending.
    const review = again.control.review({ withPathLock: (_path, fn) => fn(), journal: undefined });
    await review.accept('any', { paths: ['/workspace/dir/x.txt'] });
    const third = await open();
    expect((await third.control.changes()).map((c) => c.path)).toEqual(['a.txt', 'bin.dat', 'dir/y.txt']);
    expect((await third.control.apply()).applied).toEqual(['a.txt', 'bin.dat', 'dir/y.txt']);
    expect(decode(await base.readFile('/a.txt'))).toBe(lines({ 3: 'THREE' }));
    await expect(base.stat('/dir')).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await base.stat('/empty/deeper')).isDirectory()).toBe(true);
    // Applied: the store holds nothing of the overlay any more.
    expect(await store.readdir('/workspace')).toEqual([]);
    expect(await (await open()).control.changes()).toEqual([]);
    expect(flushes.length).toBeGreaterThan(0);
  });

  it('takes up the record of an earlier release (the overlay files at their own paths, the base hashed): unchanged bases stage cleanly, a changed one is a conflict', async () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const base = memoryFs({ '/a.txt': 'base a\n', '/b.txt': 'base b now\n', '/gone/x.txt': 'x\n' });
    const record = { deleted: ['gone'], originals: { 'a.txt': sha('base a\n'), 'b.txt': sha('base b then\n'), 'c.txt': null, 'gone/x.txt': sha('x\n') } };
    const platform = createWebPlatform({
      workspace: 'ov-v1',
      backend: 'memory',
      overlay: { base: fsMount(base) },
      files: { '.toolhost-overlay.json': JSON.stringify(record), 'a.txt': 'overlay a\n', 'b.txt': 'overlay b\n', 'c.txt': 'new c\n' },
    });
    expect((await platform.changes?.())?.map((c) => [c.path, c.kind, c.conflict])).toEqual([
      ['a.txt', 'modified', undefined],
      ['b.txt', 'modified', 'the base file changed since the overlay changed it'],
      ['c.txt', 'created', undefined],
      ['gone/x.txt', 'deleted', undefined],
    ]);
    expect(decode(await platform.fs.readFile('/workspace/a.txt'))).toBe('overlay a\n');
    await expect(platform.fs.stat('/workspace/gone')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await platform.fs.readdir('/workspace')).not.toContain('.toolhost-overlay.json');
  });

  it('stages the files a new overlay workspace is seeded with as created over the base', async () => {
    const base = memoryFs({ '/a.txt': 'a\n' });
    const platform = createWebPlatform({ workspace: 'ov-seed', backend: 'memory', overlay: { base: fsMount(base) }, files: { 'docs/seed.txt': 'seeded\n' } });
    expect(await platform.changes?.()).toEqual([{ path: 'docs/seed.txt', kind: 'created', diff: '--- docs/seed.txt\n+++ docs/seed.txt\n@@ -0,0 +1,1 @@\n+seeded\n' }]);
    expect((await platform.fs.readdir('/workspace')).sort()).toEqual(['a.txt', 'docs']);
    expect(await platform.apply?.()).toEqual({ applied: ['docs/seed.txt'], conflicts: [] });
    expect(decode(await base.readFile('/docs/seed.txt'))).toBe('seeded\n');
  });
});
