import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BuiltinTools, ToolRunner } from '../src/index.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { describePlatformContract } from './contract/platform-contract.js';

describePlatformContract('memory', () => createMemoryPlatform(), {
  name: 'memory',
  capabilities: { runCommand: false, webSearch: false, persistent: false },
});

describe('createMemoryPlatform', () => {
  it('seeds files relative to the root or absolute, and keeps instances apart', async () => {
    const a = createMemoryPlatform({ files: { 'src/a.ts': 'export {}', '/workspace/b.txt': 'b' } });
    const b = createMemoryPlatform();
    expect((await a.fs.readdir('/workspace')).sort()).toEqual(['b.txt', 'src']);
    expect(new TextDecoder().decode(await a.fs.readFile('/workspace/src/a.ts'))).toBe('export {}');
    expect(await b.fs.readdir('/workspace')).toEqual([]);
  });

  it('rejects a failed operation only after the caller awaits it (no promise rejected without a handler); a success resolves at once', async () => {
    const p = createMemoryPlatform({ files: { 'a.txt': 'a' } });
    const missing = p.fs.stat('/workspace/missing.txt');
    const removed = p.fs.rm('/workspace/nope', { recursive: false });
    // (Once a file before this one in the same worker has enabled async hooks, Node 22 prints a promise's async ids after its state.)
    const pending = /^Promise \{\s+<pending>[\s,}]/;
    expect([inspect(missing), inspect(removed)]).toEqual([expect.stringMatching(pending), expect.stringMatching(pending)]);
    await expect(missing).rejects.toMatchObject({ code: 'ENOENT', syscall: 'stat', path: '/workspace/missing.txt' });
    await expect(removed).rejects.toMatchObject({ code: 'ENOENT' });
    const written = p.fs.writeFile('/workspace/no-dir/b.txt', 'b');
    expect(inspect(written)).toMatch(pending);
    await expect(written).rejects.toMatchObject({ code: 'ENOENT' });
    expect(inspect(p.fs.stat('/workspace/a.txt'))).toMatch(/^Promise \{\s+MemoryStats \{/);
    expect((await p.fs.stat('/workspace/a.txt')).size).toBe(1);
  });

  it('honours a custom root', async () => {
    const p = createMemoryPlatform({ root: '/home/me/project', files: { 'x.txt': 'x' } });
    expect(p.root).toBe('/home/me/project');
    expect(await p.fs.readdir('/home/me/project')).toEqual(['x.txt']);
  });

  it('normalises the root and refuses a relative one', async () => {
    const p = createMemoryPlatform({ root: '/a/../ws/' });
    expect(p.root).toBe('/ws');
    const runner = new ToolRunner({ platform: p, tools: BuiltinTools.all() });
    expect(await runner.execute('list_dir', { dir_path: '.' })).toMatchObject({ dir_path: '/ws' });
    expect(() => createMemoryPlatform({ root: 'ws' })).toThrow(new TypeError('createMemoryPlatform: root must be an absolute path such as /workspace, not "ws"'));
    expect(() => createMemoryPlatform({ root: '' })).toThrow(new TypeError('createMemoryPlatform: root must be an absolute path such as /workspace, not ""'));
    expect(() => createMemoryPlatform({ root: 5 as unknown as string })).toThrow(new TypeError('createMemoryPlatform: root must be an absolute path such as /workspace, not 5'));
  });

  it('refuses files keys that leave the root, name a folder or collide with a TypeError naming the key', async () => {
    for (const key of ['../escape.txt', '/etc/x', '/workspace/../etc/x', '/workspaces/x']) {
      expect(() => createMemoryPlatform({ files: { [key]: 'secret' } }), key).toThrow(
        new TypeError(`createMemoryPlatform: files key ${JSON.stringify(key)} leads outside /workspace, where no tool can reach it; give a path inside it (relative, or absolute under /workspace)`),
      );
    }
    // An absolute key under the root is the same file as its relative key.
    const platform = createMemoryPlatform({ files: { '/workspace/abs.txt': 'a', 'rel.txt': 'r' } });
    expect(await platform.fs.readdir('/workspace')).toEqual(['abs.txt', 'rel.txt']);
    const bad: Array<Record<string, string>> = [{ '': 'x' }, { 'dir/': 'x' }, { a: 'x', 'a/b': 'y' }, { n: 42 as unknown as string }];
    for (const files of bad) {
      expect(() => createMemoryPlatform({ files }), JSON.stringify(files)).toThrow(TypeError);
    }
    expect(() => createMemoryPlatform({ files: { n: 42 as unknown as string } })).toThrow(/content must be a string or a Uint8Array/);
  });

  it('refuses bad options with a TypeError naming the option, the value and what is accepted', () => {
    expect(() => createMemoryPlatform({ files: 'a.txt' as never })).toThrow(new TypeError('createMemoryPlatform: files must be an object, not "a.txt"'));
    expect(() => createMemoryPlatform({ state: {} as never })).toThrow(
      new TypeError('createMemoryPlatform: state must be a StateStore such as new MemoryStateStore(); it has no getAll, setMany methods'),
    );
    expect(() => createMemoryPlatform(null as never)).toThrow(new TypeError('createMemoryPlatform: options must be an object, not null'));
  });
});
