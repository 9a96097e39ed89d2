import { describe, expect, it } from 'vitest';
import { MemoryFs } from '../src/fs/memfs.js';
import { fsFromSync } from '../src/platform/memory.js';
import { folderMount, folderWorkspace, fsMount, workspaceMount } from './folders.js';
import { zenfsMount } from './zenfs.js';

const handle = { kind: 'directory', name: 'project', getDirectoryHandle: () => undefined } as unknown as FileSystemDirectoryHandle;

/** What `make()` throws, or undefined. */
function thrownBy(make: () => unknown): unknown {
  try {
    make();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('the mount and workspace factories of toolhost/web/folders and toolhost/web/zenfs', () => {
  it.each([
    ['folderMount without a handle', () => folderMount(undefined as never), 'folderMount: directory must be a FileSystemDirectoryHandle (from showDirectoryPicker() or an OPFS directory), not undefined'],
    ['folderMount given a path string', () => folderMount('/home/me' as never), 'folderMount: directory must be a FileSystemDirectoryHandle (from showDirectoryPicker() or an OPFS directory), not "/home/me"'],
    ['folderMount with a readOnly that is not a boolean', () => folderMount(handle, { readOnly: 'yes' as never }), 'folderMount: options.readOnly must be true or false, not "yes"'],
    ['folderWorkspace given a file handle', () => folderWorkspace({ kind: 'file' } as never), 'folderWorkspace: directory must be a FileSystemDirectoryHandle (from showDirectoryPicker()), or nothing to reopen the remembered folder, not {"kind":"file"}'],
    ['workspaceMount with an empty name', () => workspaceMount(''), 'workspaceMount: workspace must be the name of a workspace, 1 to 200 characters, not ""'],
    ['workspaceMount with options that are not an object', () => workspaceMount('docs', null as never), 'workspaceMount: options must be an object such as { readOnly: true }, not null'],
    ['fsMount without a filesystem', () => fsMount(null as never), 'fsMount: fs must be a filesystem with the shape of node:fs/promises, or a function that opens one, not null'],
    ['fsMount with a label that is not a string', () => fsMount(fsFromSync(new MemoryFs()), { label: 7 as never }), 'fsMount: options.label must be a string, not 7'],
    ['zenfsMount given a backend instead of a configuration', () => zenfsMount('Zip' as never), 'zenfsMount: config must be a ZenFS mount configuration such as { backend: Zip, data }, or a function resolving to one, not "Zip"'],
  ])('%s throws a TypeError (the host\'s mistake), never a tool error', (_name, make, message) => {
    const thrown = thrownBy(make);
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as { code?: unknown }).code).toBeUndefined();
    expect((thrown as TypeError).message).toBe(message);
  });

  it('accepts good arguments and returns a source for createWebPlatform', () => {
    expect(folderMount(handle, { readOnly: true })).toMatchObject({ directory: handle, readOnly: true });
    expect(workspaceMount('docs')).toMatchObject({ workspace: 'docs' });
    expect(fsMount(async () => fsFromSync(new MemoryFs()), { label: 'mine' })).toMatchObject({ label: 'mine' });
    expect(folderWorkspace()).toMatchObject({ kind: 'directory' });
    expect(zenfsMount({ backend: { name: 'Zip' } })).toMatchObject({ readOnly: true, open: expect.any(Function) });
  });
});
