import { describe, expect, it } from 'vitest';
import { MemoryFs } from '../src/fs/memfs.js';
import { fsFromSync } from '../src/platform/memory.js';
import { fsMount, opfsWorkspace, workspaceMount } from './folders.js';
import { createWebPlatform, type WebPlatformOptions } from './platform.js';
import { webSearchIndex, type WebSearchIndexOptions } from './search-index.js';

const emptyFs = () => fsFromSync(new MemoryFs());

/** What `createWebPlatform(options)` throws, or undefined. */
function thrownBy(options: unknown): unknown {
  try {
    createWebPlatform(options as WebPlatformOptions);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('createWebPlatform options', () => {
  it.each([
    ['an empty workspace name', { workspace: '' }, 'workspace must be a name of 1 to 200 characters'],
    ['a workspace name over 200 characters', { workspace: 'w'.repeat(201) }, 'workspace must be a name of 1 to 200 characters'],
    ['an unknown backend', { workspace: 'w', backend: 'floppy' }, `backend must be 'indexeddb', 'memory', opfsWorkspace() or folderWorkspace(handle), not "floppy"`],
    ['a mount path outside /workspace', { workspace: 'w', backend: 'memory', mounts: { '/elsewhere/m': fsMount(emptyFs()) } }, `mount path "/elsewhere/m" must be an absolute path under /workspace/, e.g. '/workspace/docs'`],
    ['a mount source of no known kind', { workspace: 'w', backend: 'memory', mounts: { '/workspace/m': 42 } }, "mounts['/workspace/m'] must be folderMount(), workspaceMount() or fsMount() of toolhost/web/folders, or zenfsMount() of toolhost/web/zenfs"],
    ['a files key that leaves the workspace', { workspace: 'w', backend: 'memory', files: { '../x.txt': 'x' } }, 'files key "../x.txt" must be a relative path inside the workspace with text or bytes as its value'],
    ['a shell that is not one', { workspace: 'w', backend: 'memory', shell: 'bash' }, `shell must be a shell such as justBash() from 'toolhost/web/shell', not "bash"`],
    ['a mount of the workspace itself', { workspace: 'w', backend: 'memory', mounts: { '/workspace/m': workspaceMount('w') } }, `mounts['/workspace/m'] is workspaceMount("w"), the workspace itself; mount another workspace, or drop it`],
    ['an overlay on the workspace itself', { workspace: 'w', overlay: { base: workspaceMount('w', { readOnly: true }) } }, `overlay.base is workspaceMount("w"), the workspace itself; mount another workspace, or drop it`],
    ['searchIndex that is not a webSearchIndex() value', { workspace: 'w', searchIndex: 'yes' }, 'searchIndex must be webSearchIndex() of toolhost/web/search-index, or false, not "yes"'],
    ['searchIndex: true, the form before it had its own entry', { workspace: 'w', searchIndex: true }, "searchIndex comes from its own entry, so that only workers that keep an index bundle its code: import { webSearchIndex } from 'toolhost/web/search-index' and pass searchIndex: webSearchIndex()"],
    ['a searchIndex budget object, the form before it had its own entry', { workspace: 'w', searchIndex: { maxIndexBytes: 4096 } }, "searchIndex comes from its own entry, so that only workers that keep an index bundle its code: import { webSearchIndex } from 'toolhost/web/search-index' and pass searchIndex: webSearchIndex({ maxIndexBytes: 4096 })"],
    ['searchIndex on a memory workspace', { workspace: 'w', backend: 'memory', searchIndex: webSearchIndex() }, "searchIndex keeps the index in IndexedDB beside an IndexedDB workspace; use backend 'indexeddb' (the default) or leave searchIndex out with backend 'memory'"],
    ['an overlay on a folder backend', { workspace: 'w', backend: opfsWorkspace(), overlay: { base: fsMount(emptyFs()) } }, "an overlay keeps its changes in IndexedDB or memory: use backend 'indexeddb' (default) or 'memory' with overlay"],
  ])('refuses %s with a TypeError (the host\'s mistake, never a tool error) naming the option', (_name, options, message) => {
    const thrown = thrownBy(options);
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as { code?: unknown }).code).toBeUndefined();
    expect((thrown as TypeError).message).toBe(`createWebPlatform: ${message}`);
  });

  it.each([
    ['a negative maxIndexBytes', { maxIndexBytes: -1 }, 'maxIndexBytes must be a number of bytes above 0 (such as 268435456, the default), not -1'],
    ['a maxBuildBytes that is not a number', { maxBuildBytes: '1GB' }, 'maxBuildBytes must be a number of bytes above 0 (such as 469762048, the default), not "1GB"'],
    ['an unknown option', { cacheDir: '/tmp' }, 'cacheDir is not an option; webSearchIndex takes { maxIndexBytes?, maxBuildBytes? }'],
    ['options that are not an object', 4096, 'options must be { maxIndexBytes?, maxBuildBytes? } or left out, not 4096'],
  ])('webSearchIndex refuses %s with a TypeError naming the option', (_name, options, message) => {
    let thrown: unknown;
    try {
      webSearchIndex(options as WebSearchIndexOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as TypeError).message).toBe(`webSearchIndex: ${message}`);
  });

  it('takes searchIndex: webSearchIndex() (and false) on an IndexedDB workspace without I/O; capabilities.searchIndex says building from creation only with an index', () => {
    const indexed = createWebPlatform({ workspace: 'w', searchIndex: webSearchIndex({ maxIndexBytes: 1 << 20 }), idbFactory: {} as IDBFactory });
    expect(indexed.capabilities.searchIndex).toEqual({ state: 'building' });
    expect(typeof indexed.searchIndexReady).toBe('function');
    const plain = createWebPlatform({ workspace: 'w', searchIndex: false, idbFactory: {} as IDBFactory });
    expect(plain.capabilities.searchIndex).toBeUndefined();
    expect(plain.searchIndexReady).toBeUndefined();
  });

  it('accepts good options without I/O', () => {
    const platform = createWebPlatform({ workspace: 'w', backend: 'memory', files: { 'a.txt': 'a' }, mounts: { '/workspace/m': fsMount(emptyFs()) } });
    expect([platform.name, platform.workspace, platform.backend, platform.root]).toEqual(['web', 'w', 'memory', '/workspace']);
  });
});
