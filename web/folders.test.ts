import { describe, expect, it } from 'vitest';
import { MemoryFs } from '../src/fs/memfs.js';
import { fsFromSync } from '../src/platform/memory.js';
import { createWebPlatform } from './platform.js';

const HINT = "import { useFolders } from 'toolhost/web/folders' and call useFolders() before createWebPlatform";
const handle = { kind: 'directory', name: 'project', getDirectoryHandle: () => undefined } as unknown as FileSystemDirectoryHandle;

function memoryFs(files: Record<string, string>) {
  const memory = new MemoryFs();
  for (const [path, text] of Object.entries(files)) {
    memory.mkdirSync(path.slice(0, path.lastIndexOf('/')) || '/', { recursive: true });
    memory.writeFileSync(path, text);
  }
  return fsFromSync(memory);
}

// This file's module registry starts without useFolders(): the first block runs before it is called.
describe('createWebPlatform without useFolders()', () => {
  it.each([
    ['the folder backend { directory }', { backend: { directory: handle } }, 'folder workspaces (backend { directory })'],
    ["the remembered folder 'directory'", { backend: 'directory' as const }, "folder workspaces (backend 'directory')"],
    ["the OPFS backend 'opfs'", { backend: 'opfs' as const }, "folder workspaces (backend 'opfs')"],
    ['mounts', { backend: 'memory' as const, mounts: { '/workspace/m': { fs: memoryFs({}) } } }, 'mounts'],
    ['an overlay', { backend: 'memory' as const, overlay: { base: { fs: memoryFs({}) } } }, 'overlays'],
  ])('throws a TypeError naming toolhost/web/folders for %s', (_name, options, what) => {
    let thrown: unknown;
    try {
      createWebPlatform({ workspace: 'w', ...options });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as TypeError).message).toBe(`createWebPlatform: ${what} come from their own entry, so that only their users bundle them: ${HINT}`);
  });

  it('creates the default and memory workspaces, which need none of it', () => {
    expect(createWebPlatform({ workspace: 'w' }).backend).toBe('indexeddb');
    expect(createWebPlatform({ workspace: 'w', backend: 'memory' }).backend).toBe('memory');
  });
});

describe('useFolders', () => {
  it('makes mounts and overlays work: a read-only mount refuses writes, an overlay keeps writes until apply', async () => {
    const { useFolders } = await import('./folders.js');
    useFolders();
    const mounted = createWebPlatform({ workspace: 'w', backend: 'memory', files: { 'a.txt': 'own\n' }, mounts: { '/workspace/docs': { fs: memoryFs({ '/guide.md': 'guide\n' }), readOnly: true, label: 'the docs' } } });
    expect(new TextDecoder().decode(await mounted.fs.readFile('/workspace/docs/guide.md'))).toBe('guide\n');
    expect(new TextDecoder().decode(await mounted.fs.readFile('/workspace/a.txt'))).toBe('own\n');
    await expect(mounted.fs.writeFile('/workspace/docs/guide.md', 'x')).rejects.toMatchObject({ code: 'EACCES', message: expect.stringContaining('the docs is mounted read-only; nothing was changed') });
    expect(new TextDecoder().decode(await mounted.fs.readFile('/workspace/docs/guide.md'))).toBe('guide\n');

    const base = memoryFs({ '/b.txt': 'base\n' });
    const layered = createWebPlatform({ workspace: 'w', backend: 'memory', overlay: { base: { fs: base } } });
    await layered.fs.writeFile('/workspace/b.txt', 'changed\n');
    expect(new TextDecoder().decode(await base.readFile('/b.txt'))).toBe('base\n');
    expect((await layered.changes?.())?.map((c) => [c.path, c.kind])).toEqual([['b.txt', 'modified']]);
    expect(await layered.apply?.()).toMatchObject({ applied: ['b.txt'] });
    expect(new TextDecoder().decode(await base.readFile('/b.txt'))).toBe('changed\n');
  });
});
