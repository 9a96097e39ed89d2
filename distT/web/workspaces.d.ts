/** Options of the workspace management functions. */
export interface WorkspaceAdminOptions {
    /** IndexedDB factory (default: the global `indexedDB`). */
    idbFactory?: IDBFactory;
    /** How long {@link deleteWorkspace} waits for other connections to close, in ms (default 3000). */
    blockedWaitMs?: number;
}
/** A workspace's content as {@link exportWorkspace} returns it; paths are absolute (`/workspace/...`). */
export interface WorkspaceExport {
    /** File path → bytes. */
    files: Record<string, Uint8Array>;
    /** Every directory, empty ones included, sorted. */
    directories: string[];
    /** Symlink path → its target, as stored. */
    symlinks: Record<string, string>;
    /** Tool state: conversation id → key → JSON value. */
    state: Record<string, Record<string, unknown>>;
}
/**
 * Names of the workspaces stored in this origin's IndexedDB, sorted. Errors: `unavailable` (no
 * IndexedDB, or `indexedDB.databases()` missing).
 */
export declare function listWorkspaces(options?: WorkspaceAdminOptions): Promise<string[]>;
/**
 * Reads a stored workspace (files, directories, symlinks and tool state) straight from IndexedDB, as
 * last committed. Errors: `not_found` (no such workspace), `unavailable`.
 */
export declare function exportWorkspace(name: string, options?: WorkspaceAdminOptions): Promise<WorkspaceExport>;
/**
 * Deletes a workspace's database (files and tool state). Open platforms on it close their connection
 * and fail later writes with `unavailable`. Errors: `unavailable` when a connection elsewhere does not
 * close within `blockedWaitMs` (the deletion then completes once it does). Deleting a missing
 * workspace succeeds.
 */
export declare function deleteWorkspace(name: string, options?: WorkspaceAdminOptions): Promise<void>;
