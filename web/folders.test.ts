import { describe, expect, it } from 'vitest';
import { MemoryFs } from '../src/fs/memfs.js';
import { fsFromSync } from '../src/platform/memory.js';
import { createWebPlatform, type WebPlatformOptions } from './platform.js';

const handle = { kind: 'directory', name: 'project', getDirectoryHandle: () => undefined } as unknown as FileSystemDirectoryHandle;

function memoryFs(files: Record<string, string>) {
  const memory = new MemoryFs();
  for (const [path, text] of Object.entries(files)) {
    memory.mkdirSync(path.slice(0, path.lastIndexOf('/')) || '/', { recursive: true });
    memory.writeFileSync(path, text);
  }
  return fsFromSync(memory);
}

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

// This file never imports toolhost/web/folders before the first block, and nothing is registered
// anywhere: a folder backend or mount source works only as the value that carries its code.
describe('createWebPlatform given plain names or objects for folders, mounts and overlays', () => {
  const hint = (fn: string, use: string): string => `needs the code of its entry: import { ${fn} } from 'toolhost/web/folders' and pass ${use}`;
  // (for a backend, `use` is the call alone: the option's name is already in the message)
  it.each([
    ['the folder backend { directory }', { backend: { directory: handle } }, `backend { directory } ${hint('folderWorkspace', 'folderWorkspace(handle)')}`],
    ["the remembered folder 'directory'", { backend: 'directory' }, `backend 'directory' ${hint('folderWorkspace', 'folderWorkspace()')}`],
    ["the OPFS backend 'opfs'", { backend: 'opfs' }, `backend 'opfs' ${hint('opfsWorkspace', 'opfsWorkspace()')}`],
    ['a mount { fs }', { backend: 'memory', mounts: { '/workspace/m': { fs: memoryFs({}) } } }, `mounts['/workspace/m'] ${hint('fsMount', 'fsMount(fs)')}`],
    ['a mount { workspace }', { mounts: { '/workspace/m': { workspace: 'other' } } }, `mounts['/workspace/m'] ${hint('workspaceMount', 'workspaceMount(name)')}`],
    ['an overlay base { directory }', { backend: 'memory', overlay: { base: { directory: handle } } }, `overlay.base ${hint('folderMount', 'folderMount(handle)')}`],
  ])('throws a TypeError naming the function of toolhost/web/folders for %s', (_name, options, message) => {
    let thrown: unknown;
    try {
      createWebPlatform({ workspace: 'w', ...(options as Partial<WebPlatformOptions>) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as TypeError).message).toBe(`createWebPlatform: ${message}`);
  });

  it('creates the default and memory workspaces, which need none of it', () => {
    expect(createWebPlatform({ workspace: 'w' }).backend).toBe('indexeddb');
    expect(createWebPlatform({ workspace: 'w', backend: 'memory' }).backend).toBe('memory');
  });
});

describe('the values of toolhost/web/folders, passed where they are used', () => {
  it('make mounts and overlays work with no set-up call: a read-only mount refuses writes, an overlay keeps writes until apply', async () => {
    const { fsMount } = await import('./folders.js');
    const mounted = createWebPlatform({
      workspace: 'w',
      backend: 'memory',
      files: { 'a.txt': 'own\n' },
      mounts: { '/workspace/docs': fsMount(memoryFs({ '/guide.md': 'guide\n' }), { readOnly: true, label: 'the docs' }) },
    });
    expect(decode(await mounted.fs.readFile('/workspace/docs/guide.md'))).toBe('guide\n');
    expect(decode(await mounted.fs.readFile('/workspace/a.txt'))).toBe('own\n');
    await expect(mounted.fs.writeFile('/workspace/docs/guide.md', 'x')).rejects.toMatchObject({ code: 'EACCES', message: expect.stringContaining('the docs is mounted read-only; nothing was changed') });
    expect(decode(await mounted.fs.readFile('/workspace/docs/guide.md'))).toBe('guide\n');

    const base = memoryFs({ '/b.txt': 'base\n' });
    const layered = createWebPlatform({ workspace: 'w', backend: 'memory', overlay: { base: fsMount(base) } });
    await layered.fs.writeFile('/workspace/b.txt', 'changed\n');
    expect(decode(await base.readFile('/b.txt'))).toBe('base\n');
    expect((await layered.changes?.())?.map((c) => [c.path, c.kind])).toEqual([['b.txt', 'modified']]);
    expect(await layered.apply?.()).toMatchObject({ applied: ['b.txt'] });
    expect(decode(await base.readFile('/b.txt'))).toBe('changed\n');
  });

  it('keep two workspaces in one worker apart: a plain object is still refused after a value was used', async () => {
    const { fsMount, folderWorkspace, opfsWorkspace } = await import('./folders.js');
    const opened = createWebPlatform({ workspace: 'one', backend: 'memory', mounts: { '/workspace/m': fsMount(async () => memoryFs({ '/x.txt': 'x\n' })) } });
    expect(decode(await opened.fs.readFile('/workspace/m/x.txt'))).toBe('x\n');
    expect(() => createWebPlatform({ workspace: 'two', backend: 'memory', mounts: { '/workspace/m': { fs: memoryFs({}) } as never } })).toThrow(TypeError);
    expect(createWebPlatform({ workspace: 'three', backend: opfsWorkspace() }).backend).toBe('opfs');
    expect(createWebPlatform({ workspace: 'four', backend: folderWorkspace(handle) }).backend).toBe('directory');
    expect(createWebPlatform({ workspace: 'five', backend: folderWorkspace() }).backend).toBe('directory');
  });
});
