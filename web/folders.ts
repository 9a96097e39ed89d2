/**
 * toolhost/web/folders: folder workspaces, mounts and overlays of `createWebPlatform`, as values passed
 * where they are used: `backend: folderWorkspace(handle)` / `folderWorkspace()` / `opfsWorkspace()`,
 * `mounts: { '/workspace/docs': folderMount(handle) }` (also `workspaceMount(name)`, `fsMount(fs)`),
 * `overlay: { base: folderMount(handle) }`. Each value carries the code that opens it, so the default
 * IndexedDB (or memory) workspace bundles none of it, and nothing is registered globally: two
 * workspaces in one worker, or two tests, share no state through this entry. A wrong argument to any
 * of them (the host's mistake) throws a TypeError naming the function and what to pass.
 */
import { MemoryFs } from '../src/fs/memfs.js';
import { ToolError } from '../src/core/errors.js';
import { describeValue } from '../src/core/options.js';
import type { FsPromises } from '../src/core/types.js';
import { fsFromSync } from '../src/platform/memory.js';
import { checkDirectory, rememberDirectory, rememberedDirectory } from './directory.js';
import { HandleFs } from './handle-fs.js';
import { resolveIdbFactory, WorkspaceDb } from './idb.js';
import { JournaledWorkspace } from './journal.js';
import { mountTable, readOnlyFs, subtreeFs, type Mount } from './mounts.js';
import { overlayFs, type OverlayControl } from './overlay.js';
import { FOLDERS, type FolderSupport, type SourceContext, type WebFolderBackend, type WebMountSource } from './platform.js';

/** Opens a mount or overlay source: its filesystem from `/`, read-only where asked. */
async function openSource(source: WebMountSource, label: string, context: SourceContext, root: string, prefix = ''): Promise<{ fs: FsPromises; raw: FsPromises }> {
  const workspace = context.workspace;
  let raw: FsPromises;
  let name = label;
  if ('workspace' in source) {
    if (source.workspace === workspace) throw new TypeError(`createWebPlatform: workspace "${workspace}" cannot be mounted in itself; mount another workspace`);
    const db = await WorkspaceDb.open(resolveIdbFactory(context.idbFactory), source.workspace, context.durability);
    const journal = await JournaledWorkspace.mount(root, await db.loadAll(), db);
    context.opened.push({ db, journal });
    name = `the workspace "${source.workspace}" (${label})`;
    raw = subtreeFs(journal.fs, root);
  } else if ('directory' in source) {
    await checkDirectory(source.directory, workspace);
    name = `the folder "${source.directory.name}" (${label})`;
    raw = new HandleFs(source.directory, { label: name });
  } else if ('fs' in source) {
    raw = source.fs;
    name = source.label ?? label;
  } else {
    raw = await source.open();
    name = source.label ?? label;
  }
  return { fs: source.readOnly ? readOnlyFs(raw, name, prefix) : raw, raw };
}

const support: FolderSupport = {
  async openFolder(backend, workspace, root, idbFactory) {
    let handle: FileSystemDirectoryHandle;
    if (backend === 'opfs') {
      const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
      if (!storage?.getDirectory) throw new ToolError('unavailable', 'the Origin Private File System is not available here; use backend "indexeddb"');
      handle = await (await storage.getDirectory()).getDirectoryHandle(`toolhost-ws-${encodeURIComponent(workspace)}`, { create: true });
    } else if (typeof backend === 'object') {
      handle = backend.directory;
      await checkDirectory(handle, workspace);
      await rememberDirectory(workspace, handle, idbFactory);
    } else {
      const remembered = await rememberedDirectory(workspace, idbFactory ? { idbFactory } : {});
      if (!remembered) {
        throw new ToolError('unavailable', `workspace "${workspace}" has no remembered folder; open it once with createWebPlatform({ workspace: "${workspace}", backend: folderWorkspace(handle) })`);
      }
      handle = remembered;
      await checkDirectory(handle, workspace);
    }
    const scratch = new MemoryFs();
    scratch.mkdirSync(root, { recursive: true });
    return mountTable(fsFromSync(scratch), [{ path: root, fs: new HandleFs(handle) }]);
  },

  async layer({ own, root, overlayBase, mounts, context, flush }) {
    let fs = own;
    let control: OverlayControl | undefined;
    if (overlayBase) {
      const { raw } = await openSource(overlayBase, 'the overlay base', context, root);
      // A folder's writable stream and another workspace's commit replace a file whole; a filesystem given as such may not.
      const layered = await overlayFs({ upper: fs, base: raw, root, flush, atomicWrites: 'directory' in overlayBase || 'workspace' in overlayBase });
      fs = layered.fs;
      control = layered.control;
    }
    if (mounts.length > 0) {
      const opened: Mount[] = [];
      for (const { path, source } of mounts) opened.push({ path, fs: (await openSource(source, `the mount ${path}`, context, root, path)).fs });
      fs = mountTable(fs, opened);
    }
    return control ? { fs, control } : { fs };
  },
};

/** True for a FileSystemDirectoryHandle (or an object with its shape). */
function isDirectoryHandle(value: unknown): value is FileSystemDirectoryHandle {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'directory' && typeof (value as { getDirectoryHandle?: unknown }).getDirectoryHandle === 'function';
}

/** The host's mistakes in a factory's arguments, as TypeErrors naming the factory and what to pass. */
function checkArgument(ok: boolean, factory: string, what: string, value: unknown): void {
  if (!ok) throw new TypeError(`${factory}: ${what}, not ${describeValue(value)}`);
}

/** Checks `options` of a mount factory: an object whose `readOnly` is a boolean when given. */
function checkMountOptions(factory: string, options: unknown): void {
  checkArgument(typeof options === 'object' && options !== null, factory, 'options must be an object such as { readOnly: true }', options);
  const readOnly = (options as { readOnly?: unknown }).readOnly;
  checkArgument(readOnly === undefined || typeof readOnly === 'boolean', factory, 'options.readOnly must be true or false', readOnly);
}

/** Options of a mount source: `readOnly` refuses every write through the workspace with `permission_denied`. */
export interface MountOptions {
  readOnly?: boolean;
}

/**
 * The folder backend of a real folder: `folderWorkspace(handle)` edits the folder of `handle` (from
 * `showDirectoryPicker()`, or any FileSystemDirectoryHandle) in place and remembers it for the
 * workspace; `folderWorkspace()` reopens the folder remembered for the workspace, checking permission
 * (`queryPermission`, and `requestPermission` where the context can ask). Opening answers
 * `permission_denied` (not granted) or `unavailable` (folder gone, or none remembered), saying how to
 * reopen it. For `createWebPlatform({ backend })`; `platform.backend` is then `'directory'`.
 */
export function folderWorkspace(directory?: FileSystemDirectoryHandle): WebFolderBackend {
  checkArgument(directory === undefined || isDirectoryHandle(directory), 'folderWorkspace', 'directory must be a FileSystemDirectoryHandle (from showDirectoryPicker()), or nothing to reopen the remembered folder', directory);
  return { kind: 'directory', ...(directory === undefined ? {} : { directory }), [FOLDERS]: support };
}

/**
 * The folder backend of the Origin Private File System: the workspace's files in the OPFS folder
 * `toolhost-ws-<workspace>` (created on first use), its state in IndexedDB. `unavailable` where there
 * is no OPFS. For `createWebPlatform({ backend })`; `platform.backend` is then `'opfs'`.
 */
export function opfsWorkspace(): WebFolderBackend {
  return { kind: 'opfs', [FOLDERS]: support };
}

/** A real folder (`showDirectoryPicker()`, an OPFS directory) as a mount or overlay base. */
export function folderMount(directory: FileSystemDirectoryHandle, options: MountOptions = {}): WebMountSource {
  checkArgument(isDirectoryHandle(directory), 'folderMount', 'directory must be a FileSystemDirectoryHandle (from showDirectoryPicker() or an OPFS directory)', directory);
  checkMountOptions('folderMount', options);
  return { directory, ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }), [FOLDERS]: support };
}

/**
 * Another IndexedDB workspace as a mount or overlay base: its files, committed with this workspace's
 * calls. Mount it writable only where no other worker has it open.
 */
export function workspaceMount(workspace: string, options: MountOptions = {}): WebMountSource {
  checkArgument(typeof workspace === 'string' && workspace.length > 0 && workspace.length <= 200, 'workspaceMount', 'workspace must be the name of a workspace, 1 to 200 characters', workspace);
  checkMountOptions('workspaceMount', options);
  return { workspace, ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }), [FOLDERS]: support };
}

/**
 * A filesystem with the shape of `node:fs/promises` ({@link FsPromises}, addressed from `/`) as a
 * mount or overlay base, or a function that opens one on the workspace's first use. `label` names it
 * in messages (default: its path in the workspace).
 */
export function fsMount(fs: FsPromises | (() => Promise<FsPromises>), options: MountOptions & { label?: string } = {}): WebMountSource {
  checkArgument(typeof fs === 'function' || (typeof fs === 'object' && fs !== null), 'fsMount', 'fs must be a filesystem with the shape of node:fs/promises, or a function that opens one', fs);
  checkMountOptions('fsMount', options);
  checkArgument(options.label === undefined || typeof options.label === 'string', 'fsMount', 'options.label must be a string', options.label);
  const extra = { ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }), ...(options.label === undefined ? {} : { label: options.label }) };
  return typeof fs === 'function' ? { open: fs, ...extra, [FOLDERS]: support } : { fs, ...extra, [FOLDERS]: support };
}
