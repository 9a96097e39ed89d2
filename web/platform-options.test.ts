import { describe, expect, it } from 'vitest';
import { MemoryFs } from '../src/fs/memfs.js';
import { fsFromSync } from '../src/platform/memory.js';
import { fsMount, opfsWorkspace, workspaceMount } from './folders.js';
import { createWebPlatform, type WebPlatformOptions } from './platform.js';

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
    ['searchIndex that is not a boolean', { workspace: 'w', searchIndex: 'yes' }, 'searchIndex must be true, false or { maxIndexBytes?, maxBuildBytes? }, not "yes"'],
    ['a negative searchIndex.maxIndexBytes', { workspace: 'w', searchIndex: { maxIndexBytes: -1 } }, 'searchIndex.maxIndexBytes must be a number of bytes above 0 (such as 268435456, the default), not -1'],
    ['a searchIndex.maxBuildBytes that is not a number', { workspace: 'w', searchIndex: { maxBuildBytes: '1GB' } }, 'searchIndex.maxBuildBytes must be a number of bytes above 0 (such as 469762048, the default), not "1GB"'],
    ['an unknown searchIndex option', { workspace: 'w', searchIndex: { cacheDir: '/tmp' } }, 'searchIndex.cacheDir is not an option; searchIndex takes { maxIndexBytes?, maxBuildBytes? }'],
    ['searchIndex on a memory workspace', { workspace: 'w', backend: 'memory', searchIndex: true }, "searchIndex keeps the index in IndexedDB beside an IndexedDB workspace; use backend 'indexeddb' (the default) or leave searchIndex out with backend 'memory'"],
    ['an overlay on a folder backend', { workspace: 'w', backend: opfsWorkspace(), overlay: { base: fsMount(emptyFs()) } }, "an overlay keeps its changes in IndexedDB or memory: use backend 'indexeddb' (default) or 'memory' with overlay"],
  ])('refuses %s with a TypeError (the host\'s mistake, never a tool error) naming the option', (_name, options, message) => {
    const thrown = thrownBy(options);
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as { code?: unknown }).code).toBeUndefined();
    expect((thrown as TypeError).message).toBe(`createWebPlatform: ${message}`);
  });

  it('accepts good options without I/O', () => {
    const platform = createWebPlatform({ workspace: 'w', backend: 'memory', files: { 'a.txt': 'a' }, mounts: { '/workspace/m': fsMount(emptyFs()) } });
    expect([platform.name, platform.workspace, platform.backend, platform.root]).toEqual(['web', 'w', 'memory', '/workspace']);
  });
});
