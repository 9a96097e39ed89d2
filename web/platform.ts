import { promisifyRequest } from 'idb-keyval';
import { ToolError } from '../src/core/errors.js';
import { lazyFs, MemoryStateStore } from '../src/platform/memory.js';
import type { FsPromises, JsonValue, Platform, RegexSandbox, StateStore } from '../src/core/types.js';
import { resolveIdbFactory, WorkspaceDb } from './idb.js';
import { JournaledWorkspace } from './journal.js';

/** Where the web platform keeps a workspace's files. */
export type WebBackend = 'indexeddb' | 'opfs' | 'memory';

/** Options of {@link createWebPlatform}. */
export interface WebPlatformOptions {
  /** Workspace name (1–200 characters); one IndexedDB database `toolhost-ws:<workspace>` per workspace. */
  workspace: string;
  /**
   * `indexeddb` (default): files and state in the workspace's IndexedDB database, durable per call.
   * `opfs`: files in the Origin Private File System (ZenFS WebAccess), state in IndexedDB.
   * `memory`: nothing persists (capabilities.persistent is false); needs no storage at all.
   */
  backend?: WebBackend;
  /** IndexedDB factory (default: the global `indexedDB`, read only when the platform first opens). */
  idbFactory?: IDBFactory;
  /**
   * IndexedDB commit durability (default `'strict'`: each commit is flushed to disk before the call's
   * result returns, surviving a power loss). `'relaxed'` resolves once the browser's storage process
   * has the data: it survives a tab crash and a browser kill, not an OS crash; on this machine it made
   * per-call commits several times faster (see the write-path figures in docs).
   */
  durability?: 'strict' | 'relaxed';
  /** Interruptible regex runner for grep (default: none; the page replaces a hung worker instead). */
  regex?: RegexSandbox;
}

/** The web platform: a {@link Platform} plus its workspace name, backend and an eager open. */
export interface WebPlatform extends Platform {
  readonly name: 'web';
  readonly workspace: string;
  readonly backend: WebBackend;
  /**
   * Opens the storage and loads the workspace now instead of on the first use. Rejects with a
   * ToolError `unavailable` when IndexedDB is missing (private mode), refuses to open, or an upgrade
   * is blocked by another tab.
   */
  ready(): Promise<void>;
  /** Commits pending file changes (one IndexedDB transaction); the runner awaits it after each mutating call. */
  flush(): Promise<void>;
  /**
   * Runs `fn` with every commit (flushes and state writes) deferred to ONE transaction at its end;
   * resolves with `fn`'s value once that transaction is complete, or rejects with its ToolError
   * (`quota_exceeded`, `unavailable`) after undoing every change made during `fn`. Used by
   * ToolRunner for a whole `processToolCalls` batch; other writers must wait meanwhile.
   * Without persistence (backends `memory`, `opfs`) it just runs `fn`.
   */
  batch<T>(fn: () => Promise<T>): Promise<T>;
}

const WORKSPACE_ROOT = '/workspace';

/**
 * Tool state in the workspace's IndexedDB `state` object store, keyed `[conversationId, key]`, read
 * through idb-keyval's store shape. Every write goes through the workspace's commit path, so a call's
 * state and its file changes land in ONE transaction (`setMany` is that transaction) and a resolved
 * write is durable. Errors: `quota_exceeded`, `unavailable`.
 */
class WebStateStore implements StateStore {
  readonly #open: () => Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }>;

  constructor(open: () => Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }>) {
    this.#open = open;
  }

  async get(conversationId: string, key: string): Promise<JsonValue | undefined> {
    const { db } = await this.#open();
    return db.stateStore('readonly', (store) => promisifyRequest(store.get([conversationId, key]) as IDBRequest<JsonValue | undefined>));
  }

  async set(conversationId: string, key: string, value: JsonValue): Promise<void> {
    await this.setMany(conversationId, [[key, value]]);
  }

  async delete(conversationId: string, key: string): Promise<void> {
    await this.setMany(conversationId, [[key, undefined]]);
  }

  async keys(conversationId: string): Promise<string[]> {
    const { db } = await this.#open();
    return (await db.conversationEntries(conversationId)).map(([key]) => key);
  }

  async getAll(conversationId: string): Promise<Record<string, JsonValue>> {
    const { db } = await this.#open();
    return Object.fromEntries(await db.conversationEntries(conversationId));
  }

  async setMany(conversationId: string, entries: ReadonlyArray<readonly [string, JsonValue | undefined]>): Promise<void> {
    const { workspace } = await this.#open();
    // JSON round trip: the stored value never aliases the caller's object, and a non-JSON value fails here.
    await workspace.commit(
      entries.map(([key, value]) => [conversationId, key, value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as JsonValue)]),
    );
  }
}

function checkWorkspaceName(workspace: unknown): string {
  if (typeof workspace !== 'string' || workspace.length === 0 || workspace.length > 200) {
    throw new ToolError('invalid_arguments', 'createWebPlatform: workspace must be a name of 1 to 200 characters');
  }
  return workspace;
}

/**
 * Creates the browser platform (SPEC §7 "web") for use inside a dedicated or shared worker. Creating
 * it does no work and touches no global: IndexedDB is opened and the workspace loaded on first use (or
 * on `ready()`).
 *
 * - name `'web'`, root `/workspace`, capabilities `{ runCommand: false, webSearch: false, persistent }`
 *   (`persistent` is false only for backend `memory`); no `runCommand`/`webSearch` members, so the
 *   built-in `run_command` and `web_search` return SPEC §6.8's empty results with their notes.
 * - `indexeddb` backend: the live workspace is an in-memory MemoryFs tree loaded from the workspace's
 *   database at mount (SPEC §7 names ZenFS here: see `createMemoryPlatform` for why it is not); every write is journalled and `flush()` (awaited by the runner before each
 *   mutating call's result) commits the changed files, directories, symlinks and deleted subtrees in ONE
 *   IndexedDB transaction (`durability: 'strict'`), awaiting `complete`. Tool state goes through the same
 *   commit path. A failed commit (`quota_exceeded`, `unavailable`) reloads the changed paths from storage,
 *   so earlier content stays intact in memory and on disk. `changeCount()` counts the changes (as on
 *   the memory platform), so the search tools reuse listings and texts while nothing changed.
 * - One writer per workspace: run the platform in one (shared) worker per workspace; two workers on one
 *   workspace do not see each other's changes.
 * Errors at first use: `unavailable` (no IndexedDB, open refused, upgrade blocked), `invalid_arguments`
 * (bad workspace name, at creation).
 */
export function createWebPlatform(options: WebPlatformOptions): WebPlatform {
  const workspaceName = checkWorkspaceName(options?.workspace);
  const backend = options.backend ?? 'indexeddb';
  if (backend !== 'indexeddb' && backend !== 'opfs' && backend !== 'memory') {
    throw new ToolError('invalid_arguments', `createWebPlatform: backend must be 'indexeddb', 'opfs' or 'memory', not ${JSON.stringify(backend)}`);
  }
  const capabilities = { runCommand: false, webSearch: false, persistent: backend !== 'memory' };
  let disposed = false;
  let opened: Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }> | undefined;
  const openIdb = (): Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }> => {
    if (disposed) return Promise.reject(new ToolError('unavailable', `workspace "${workspaceName}" was disposed`));
    opened ??= (async () => {
      const factory = resolveIdbFactory(options.idbFactory);
      const db = await WorkspaceDb.open(factory, workspaceName, options.durability ?? 'strict');
      try {
        const records = backend === 'indexeddb' ? await db.loadAll() : [];
        const workspace = await JournaledWorkspace.mount(WORKSPACE_ROOT, records, db);
        return { db, workspace };
      } catch (error) {
        db.close();
        throw error;
      }
    })();
    // A failed open is retried on the next use (e.g. after the other tab closed).
    opened.catch(() => (opened = undefined));
    return opened;
  };

  let fs: FsPromises;
  let state: StateStore;
  let flush: () => Promise<void>;
  let ready: () => Promise<void>;
  let batch: <T>(fn: () => Promise<T>) => Promise<T> = (fn) => fn();
  let changeCount: (() => number) | undefined;
  if (backend === 'indexeddb') {
    // Settled once the workspace is open; before that no listing can have been read.
    let live: JournaledWorkspace | undefined;
    changeCount = () => live?.changes ?? 0;
    batch = async (fn) => {
      let workspace: JournaledWorkspace;
      try {
        workspace = (await openIdb()).workspace;
      } catch {
        return fn(); // storage unavailable: each call reports it itself
      }
      return workspace.batch(fn);
    };
    fs = lazyFs(async () => {
      live = (await openIdb()).workspace;
      return live.fs;
    });
    state = new WebStateStore(openIdb);
    flush = async () => {
      if (opened) await (await openIdb()).workspace.commit();
    };
    ready = async () => {
      await openIdb();
    };
  } else if (backend === 'opfs') {
    let opfs: Promise<FsPromises> | undefined;
    const openOpfs = (): Promise<FsPromises> => {
      opfs ??= (async () => {
        const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
        if (!storage?.getDirectory) {
          throw new ToolError('unavailable', 'the Origin Private File System is not available here; use backend "indexeddb"');
        }
        const top = await storage.getDirectory();
        const handle = await top.getDirectoryHandle(`toolhost-ws-${encodeURIComponent(workspaceName)}`, { create: true });
        const { resolveMountConfig, bindContext, InMemory } = await import('../src/platform/zenfs.js');
        const { WebAccess } = await import('@zenfs/dom');
        const mounted = await resolveMountConfig({ backend: WebAccess, handle } as never);
        const scratch = await resolveMountConfig({ backend: InMemory });
        const context = bindContext({ root: '/', mounts: { '/': scratch, [WORKSPACE_ROOT]: mounted } as never });
        return context.fs.promises as unknown as FsPromises;
      })();
      opfs.catch(() => (opfs = undefined));
      return opfs;
    };
    fs = lazyFs(openOpfs);
    state = new WebStateStore(openIdb);
    // Each WebAccess promise operation resolves after its writable stream closed (the OPFS commit point).
    flush = async () => undefined;
    ready = async () => {
      await Promise.all([openOpfs(), openIdb()]);
    };
  } else {
    let live: JournaledWorkspace | undefined;
    changeCount = () => live?.changes ?? 0;
    fs = lazyFs(async () => {
      live = await JournaledWorkspace.mount(WORKSPACE_ROOT, [], { commit: async () => undefined, readSubtrees: async () => new Map() });
      return live.fs;
    });
    state = new MemoryStateStore();
    flush = async () => undefined;
    ready = async () => undefined;
  }

  const platform: WebPlatform = {
    name: 'web',
    root: WORKSPACE_ROOT,
    workspace: workspaceName,
    backend,
    fs,
    state,
    capabilities,
    // The journalled MemoryFs workspace writes a file in one synchronous step and commits whole files;
    // OPFS (WebAccess) writes through a stream, so it keeps temp file + rename.
    atomicWrites: backend !== 'opfs',
    flush,
    ready,
    batch,
    ...(changeCount ? { changeCount } : {}),
    async dispose() {
      if (disposed) return;
      const current = opened;
      if (current) {
        try {
          const { db, workspace } = await current;
          await workspace.commit().catch(() => undefined);
          db.close();
        } catch {
          // never opened: nothing to close
        }
      }
      disposed = true;
    },
  };
  if (options.regex) return { ...platform, regex: options.regex };
  return platform;
}
