/** Stores `handle` as the folder of `workspace` (IndexedDB database `toolhost-directories`). */
export declare function rememberDirectory(workspace: string, handle: FileSystemDirectoryHandle, idbFactory?: IDBFactory): Promise<void>;
/**
 * The folder handle a workspace was opened on (`createWebPlatform({ workspace, backend: { directory } })`
 * remembers it), or `undefined`. On the page, call its `requestPermission({ mode: 'readwrite' })` from a
 * click when reopening the workspace asks for permission again. Errors: `unavailable` (no IndexedDB).
 */
export declare function rememberedDirectory(workspace: string, options?: {
    idbFactory?: IDBFactory;
}): Promise<FileSystemDirectoryHandle | undefined>;
/**
 * Checks that `handle` may be read and written: `queryPermission`, then `requestPermission` where the
 * context has it (a page, during a click), and that the folder still exists.
 * Errors: `permission_denied` (not granted: the message says how to grant it), `unavailable` (gone).
 */
export declare function checkDirectory(handle: FileSystemDirectoryHandle, workspace: string): Promise<void>;
