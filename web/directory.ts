import { promisifyRequest } from 'idb-keyval';
import { ToolError } from '../src/core/errors.js';
import type { IterableDirectory } from './handle-fs.js';
import { resolveIdbFactory, storageError } from './idb.js';

/** The database that remembers each workspace's folder handle (a handle is structured-cloneable). */
const DIRECTORIES_DB = 'toolhost-directories';
const HANDLES_STORE = 'handles';

type PermissionHandle = FileSystemDirectoryHandle & {
  queryPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
  requestPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
};

function openHandles(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(DIRECTORIES_DB, 1);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(HANDLES_STORE)) request.result.createObjectStore(HANDLES_STORE);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(storageError(request.error, 'opening the remembered folders'));
    request.onblocked = () => reject(new ToolError('unavailable', 'the remembered folders database is blocked by another tab; close the other tabs of this site and retry'));
  });
}

async function withHandles<T>(factory: IDBFactory, mode: IDBTransactionMode, fn: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openHandles(factory);
  try {
    const tx = db.transaction(HANDLES_STORE, mode);
    const result = await promisifyRequest(fn(tx.objectStore(HANDLES_STORE)));
    if (mode === 'readwrite') await promisifyRequest(tx);
    return result;
  } catch (error) {
    throw storageError(error, 'reading or saving a remembered folder');
  } finally {
    db.close();
  }
}

/** Stores `handle` as the folder of `workspace` (IndexedDB database `toolhost-directories`). */
export async function rememberDirectory(workspace: string, handle: FileSystemDirectoryHandle, idbFactory?: IDBFactory): Promise<void> {
  await withHandles(resolveIdbFactory(idbFactory), 'readwrite', (store) => store.put(handle, workspace));
}

/**
 * The folder handle a workspace was opened on (`createWebPlatform({ workspace, backend: folderWorkspace(handle) })`
 * remembers it), or `undefined`. On the page, call its `requestPermission({ mode: 'readwrite' })` from a
 * click when reopening the workspace asks for permission again. Errors: `unavailable` (no IndexedDB).
 */
export async function rememberedDirectory(workspace: string, options: { idbFactory?: IDBFactory } = {}): Promise<FileSystemDirectoryHandle | undefined> {
  return withHandles(resolveIdbFactory(options.idbFactory), 'readonly', (store) => store.get(workspace) as IDBRequest<FileSystemDirectoryHandle | undefined>);
}

/**
 * Checks that `handle` may be read and written: `queryPermission`, then `requestPermission` where the
 * context has it (a page, during a click), and that the folder still exists.
 * Errors: `permission_denied` (not granted: the message says how to grant it), `unavailable` (gone).
 */
export async function checkDirectory(handle: FileSystemDirectoryHandle, workspace: string): Promise<void> {
  const h = handle as PermissionHandle;
  const mode = { mode: 'readwrite' } as const;
  let state: PermissionState | undefined = h.queryPermission ? await h.queryPermission(mode) : 'granted';
  if (state !== 'granted' && h.requestPermission) state = await h.requestPermission(mode).catch(() => state);
  if (state !== 'granted') {
    throw new ToolError(
      'permission_denied',
      `the browser has not granted access to the folder "${handle.name}" of workspace "${workspace}" (permission: ${state}); on the page, call (await rememberedDirectory("${workspace}")).requestPermission({ mode: 'readwrite' }) from a click, then reopen the workspace`,
    );
  }
  try {
    await (handle as IterableDirectory).keys().next();
  } catch (error) {
    if ((error as { name?: unknown }).name === 'NotFoundError') {
      throw new ToolError(
        'unavailable',
        `the folder "${handle.name}" of workspace "${workspace}" is gone (moved, renamed or deleted); pick it again with showDirectoryPicker() and reopen with createWebPlatform({ workspace: "${workspace}", backend: folderWorkspace(handle) })`,
      );
    }
    throw error;
  }
}
