import { ToolError } from '../src/core/errors.js';
import { JOURNAL_DB_PREFIX } from './journal-store.js';
import { SEARCH_INDEX_DB_PREFIX } from './search-index-store.js';
import { resolveIdbFactory, storageError, WORKSPACE_DB_PREFIX, WorkspaceDb, workspaceDbName } from './idb.js';

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

async function databaseNames(factory: IDBFactory): Promise<string[]> {
  if (typeof factory.databases !== 'function') {
    throw new ToolError('unavailable', 'this browser cannot list IndexedDB databases (indexedDB.databases is missing)');
  }
  try {
    return (await factory.databases()).map((info) => info.name ?? '').filter((name) => name.startsWith(WORKSPACE_DB_PREFIX));
  } catch (error) {
    throw storageError(error, 'listing workspaces');
  }
}

/**
 * Names of the workspaces stored in this origin's IndexedDB, sorted. Errors: `unavailable` (no
 * IndexedDB, or `indexedDB.databases()` missing).
 */
export async function listWorkspaces(options: WorkspaceAdminOptions = {}): Promise<string[]> {
  const factory = resolveIdbFactory(options.idbFactory);
  return (await databaseNames(factory)).map((name) => name.slice(WORKSPACE_DB_PREFIX.length)).sort();
}

/**
 * Reads a stored workspace (files, directories, symlinks and tool state) straight from IndexedDB, as
 * last committed. Errors: `not_found` (no such workspace), `unavailable`.
 */
export async function exportWorkspace(name: string, options: WorkspaceAdminOptions = {}): Promise<WorkspaceExport> {
  const factory = resolveIdbFactory(options.idbFactory);
  if (!(await databaseNames(factory)).includes(workspaceDbName(name))) {
    throw new ToolError('not_found', `no workspace named "${name}"; listWorkspaces() gives the stored ones`);
  }
  const db = await WorkspaceDb.open(factory, name);
  try {
    const out: WorkspaceExport = { files: {}, directories: [], symlinks: {}, state: {} };
    for (const [path, record] of await db.loadAll()) {
      if (record.kind === 'file') out.files[path] = record.data;
      else if (record.kind === 'dir') out.directories.push(path);
      else out.symlinks[path] = record.target;
    }
    for (const [conversationId, key, value] of await db.allState()) {
      (out.state[conversationId] ??= {})[key] = value;
    }
    return out;
  } finally {
    db.close();
  }
}

/**
 * Deletes a workspace's database (files and tool state), its change journal's and its search index's. Open platforms on it close their connection
 * and fail later writes with `unavailable`. Errors: `unavailable` when a connection elsewhere does not
 * close within `blockedWaitMs` (the deletion then completes once it does). Deleting a missing
 * workspace succeeds.
 */
export async function deleteWorkspace(name: string, options: WorkspaceAdminOptions = {}): Promise<void> {
  const factory = resolveIdbFactory(options.idbFactory);
  const waitMs = options.blockedWaitMs ?? 3000;
  for (const database of [workspaceDbName(name), JOURNAL_DB_PREFIX + name, SEARCH_INDEX_DB_PREFIX + name]) await deleteDatabase(factory, database, name, waitMs);
}

/** Deletes one database of workspace `name`: see {@link deleteWorkspace}. */
function deleteDatabase(factory: IDBFactory, database: string, name: string, waitMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const request = factory.deleteDatabase(database);
    request.onsuccess = () => {
      if (timer !== undefined) clearTimeout(timer);
      resolve();
    };
    request.onerror = () => {
      if (timer !== undefined) clearTimeout(timer);
      reject(storageError(request.error, `deleting workspace "${name}"`));
    };
    // `blocked` also fires for connections that are closing but still finishing a transaction (our
    // own platforms close on `versionchange`), so it is a reason to wait, not yet a failure.
    request.onblocked = () => {
      timer ??= setTimeout(
        () =>
          reject(
            new ToolError('unavailable', `deleting workspace "${name}" is blocked by a tab that keeps it open; it completes when that tab closes`),
          ),
        waitMs,
      );
    };
  });
}
