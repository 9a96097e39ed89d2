import { ToolError } from '../src/core/errors.js';
import type { MemoryFs } from '../src/fs/memfs.js';
import { lazyFs, MemoryStateStore } from '../src/platform/memory.js';
import { createMemorySearchSource } from '../src/search/memory-source.js';
import type { FsPromises, NetworkPolicy, Platform, RunCommandRequest, RunCommandResult, StateStore } from '../src/core/types.js';
import { createFetchNetwork } from '../src/core/network.js';
import { resolveIdbFactory, WorkspaceDb, type FsRecord } from './idb.js';
import { JournaledWorkspace } from './journal.js';
import type { OverlayApplyResult, OverlayChange, OverlayControl } from './overlay.js';
import { WebStateStore } from './state.js';

/** Where the web platform keeps a workspace's files. */
export type WebBackend = 'indexeddb' | 'opfs' | 'memory' | 'directory';

/**
 * A filesystem to mount (or to lay an overlay over): a folder handle (File System Access API, or an
 * OPFS directory), another IndexedDB workspace (its files, committed with this one's; mount it writable
 * only where no other worker has it open), a ready {@link FsPromises} addressed from `/`, or one opened on first use (what
 * `zenfsMount()` of `toolhost/web/zenfs` returns for any ZenFS backend: a zip archive, a Fetch tree).
 * `readOnly` refuses every write through the workspace with `permission_denied`.
 */
export type WebMountSource =
  | { directory: FileSystemDirectoryHandle; readOnly?: boolean }
  | { workspace: string; readOnly?: boolean }
  | { fs: FsPromises; readOnly?: boolean; label?: string }
  | { open(): Promise<FsPromises>; readOnly?: boolean; label?: string };

/**
 * A shell for `run_command` (what `justBash()` of `toolhost/web/shell` returns): runs `command` on the
 * workspace's files and answers the same result shape as the Node platform.
 */
export interface WebShell {
  readonly name: string;
  run(request: RunCommandRequest & { fs: FsPromises; root: string }, signal: AbortSignal): Promise<RunCommandResult>;
}

/** Options of {@link createWebPlatform}. */
export interface WebPlatformOptions {
  /** Workspace name (1–200 characters); one IndexedDB database `toolhost-ws:<workspace>` per workspace. */
  workspace: string;
  /**
   * `indexeddb` (default): files and state in the workspace's IndexedDB database, durable per call.
   * `opfs`: files in the Origin Private File System (folder `toolhost-ws-<workspace>`), state in IndexedDB.
   * `memory`: nothing persists (capabilities.persistent is false); needs no storage at all.
   * `{ directory: handle }`: a real local folder from `showDirectoryPicker()` (or any
   * FileSystemDirectoryHandle), edited in place; the handle is remembered for the workspace.
   * `directory`: the folder remembered for this workspace; access is checked (and requested where the
   * context can ask) on open.
   * The folder backends (`opfs`, `directory`, `{ directory }`) need `useFolders()` of
   * `toolhost/web/folders`; without it `createWebPlatform` throws a TypeError naming that import.
   */
  backend?: WebBackend | { directory: FileSystemDirectoryHandle };
  /**
   * Filesystems mounted at absolute paths inside the workspace (`'/workspace/docs'`); walks and
   * searches cross them, each mount's `.gitignore` applies inside it. Needs `useFolders()` of
   * `toolhost/web/folders` (else a TypeError naming it).
   */
  mounts?: Record<string, WebMountSource>;
  /**
   * Makes the workspace a copy-on-write layer over `base`: the base is read, every write goes to the
   * workspace's own storage (IndexedDB by default), and `changes()` / `apply()` / `discard()` review them.
   * Needs `useFolders()` of `toolhost/web/folders` (else a TypeError naming it).
   */
  overlay?: { base: WebMountSource };
  /** Files to create when the workspace is new (path relative to the root → text or bytes), in one transaction. */
  files?: Record<string, string | Uint8Array>;
  /**
   * Runs `run_command` (default: none, the empty result with its note). `justBash()` of
   * `toolhost/web/shell` gives just-bash; the name `'just-bash'` alone is refused with that hint, since
   * only an import of that entry may bring just-bash into a bundle.
   */
  shell?: WebShell | 'just-bash';
  /** IndexedDB factory (default: the global `indexedDB`, read only when the platform first opens). */
  idbFactory?: IDBFactory;
  /**
   * IndexedDB commit durability (default `'strict'`: each commit is flushed to disk before the call's
   * result returns, surviving a power loss). `'relaxed'` resolves once the browser's storage process
   * has the data: it survives a tab crash and a browser kill, not an OS crash; on this machine it made
   * per-call commits several times faster (see the write-path figures in docs).
   */
  durability?: 'strict' | 'relaxed';
  /**
   * What `web_fetch` may reach (URL prefixes with methods; an IP-literal or `localhost` host in a
   * refused range needs `allowAddresses`). It fetches with the worker's `fetch`, under the page's CORS
   * rules; the browser follows redirects itself, and the final URL is checked against the policy.
   */
  network?: NetworkPolicy;
  /** The fetch `web_fetch` uses (default: the global `fetch`). */
  fetch?: typeof fetch;
}

/** The web platform: a {@link Platform} plus its workspace name, backend and an eager open. */
export interface WebPlatform extends Platform {
  readonly name: 'web';
  readonly workspace: string;
  readonly backend: WebBackend;
  /**
   * Opens the storage and loads the workspace now instead of on the first use. Rejects with a
   * ToolError `unavailable` when IndexedDB is missing (private mode), refuses to open, or an upgrade
   * is blocked by another tab; `permission_denied` / `unavailable` for a folder not granted or gone.
   */
  ready(): Promise<void>;
  /** Commits pending file changes (one IndexedDB transaction); the runner awaits it after each mutating call. */
  flush(): Promise<void>;
  /**
   * Runs `fn` with every commit (flushes and state writes) deferred to ONE transaction at its end;
   * resolves with `fn`'s value once that transaction is complete, or rejects with its ToolError
   * (`quota_exceeded`, `unavailable`) after undoing every change made during `fn`. Used by ToolRunner for a
   * whole `processToolCalls` batch; other writers must wait meanwhile. Where files are not journalled in
   * IndexedDB (memory, opfs and folder workspaces) it just runs `fn`.
   */
  batch<T>(fn: () => Promise<T>): Promise<T>;
  /** With `overlay`: what differs from the base (created / modified / deleted, with unified diffs). */
  changes?(): Promise<OverlayChange[]>;
  /** With `overlay`: writes the changes to the base, all or nothing; conflicts are reported, not overwritten. */
  apply?(): Promise<OverlayApplyResult>;
  /** With `overlay`: drops every change. */
  discard?(): Promise<void>;
}

export type { OverlayApplyResult, OverlayChange };

const WORKSPACE_ROOT = '/workspace';

function checkWorkspaceName(workspace: unknown): string {
  if (typeof workspace !== 'string' || workspace.length === 0 || workspace.length > 200) {
    throw new ToolError('invalid_arguments', 'createWebPlatform: workspace must be a name of 1 to 200 characters');
  }
  return workspace;
}

function isHandle(value: unknown): value is FileSystemDirectoryHandle {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'directory' && typeof (value as { getDirectoryHandle?: unknown }).getDirectoryHandle === 'function';
}

function checkBackend(backend: unknown): WebBackend | { directory: FileSystemDirectoryHandle } {
  if (backend === undefined) return 'indexeddb';
  if (backend === 'indexeddb' || backend === 'opfs' || backend === 'memory' || backend === 'directory') return backend;
  if (typeof backend === 'object' && backend !== null && isHandle((backend as { directory?: unknown }).directory)) {
    return backend as { directory: FileSystemDirectoryHandle };
  }
  throw new ToolError(
    'invalid_arguments',
    `createWebPlatform: backend must be 'indexeddb', 'opfs', 'memory', 'directory' or { directory: FileSystemDirectoryHandle }, not ${JSON.stringify(backend) ?? String(backend)}`,
  );
}

function checkMountSource(where: string, source: unknown): WebMountSource {
  const s = source as Record<string, unknown> | null;
  if (
    typeof s === 'object' &&
    s !== null &&
    (isHandle(s.directory) || (typeof s.workspace === 'string' && s.workspace.length > 0 && s.workspace.length <= 200) || (typeof s.fs === 'object' && s.fs !== null) || typeof s.open === 'function')
  ) {
    return s as unknown as WebMountSource;
  }
  const zenfs = typeof s === 'object' && s !== null && 'backend' in s;
  throw new ToolError(
    'invalid_arguments',
    `createWebPlatform: ${where} must be { directory: FileSystemDirectoryHandle }, { workspace: name }, { fs } or { open() }` +
      (zenfs ? "; for a ZenFS mount configuration, wrap it: import { zenfsMount } from 'toolhost/web/zenfs' and pass zenfsMount(config)" : ''),
  );
}

function checkMountPath(path: string): string {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (!path.startsWith(`${WORKSPACE_ROOT}/`) || parts.includes('..') || parts.length < 2) {
    throw new ToolError('invalid_arguments', `createWebPlatform: mount path ${JSON.stringify(path)} must be an absolute path under ${WORKSPACE_ROOT}/, e.g. '${WORKSPACE_ROOT}/docs'`);
  }
  return `/${parts.join('/')}`;
}

/** Another workspace opened as a mount or overlay base: its journal is committed with this platform's. */
export interface OpenedWorkspace {
  db: WorkspaceDb;
  journal: JournaledWorkspace;
}

/** What opening a mount or overlay source needs from the platform; `opened` collects the workspaces it opens. */
export interface SourceContext {
  workspace: string;
  idbFactory: IDBFactory | undefined;
  durability: IDBTransactionDurability;
  opened: OpenedWorkspace[];
}

/**
 * The folder workspaces, mounts and overlays that `useFolders()` of `toolhost/web/folders` provides,
 * so that only the workspaces that use them bundle their code.
 */
export interface FolderSupport {
  /** The files of a folder backend (`'opfs'`, `'directory'`, `{ directory }`), the folder at `root`. */
  openFolder(backend: 'opfs' | 'directory' | { directory: FileSystemDirectoryHandle }, workspace: string, root: string, idbFactory: IDBFactory | undefined): Promise<FsPromises>;
  /** `own` under the overlay over `overlayBase` (when given) and the `mounts` (when any). */
  layer(options: {
    own: FsPromises;
    root: string;
    overlayBase: WebMountSource | undefined;
    mounts: ReadonlyArray<{ path: string; source: WebMountSource }>;
    context: SourceContext;
    flush: () => Promise<void>;
  }): Promise<{ fs: FsPromises; control?: OverlayControl }>;
}

let folderSupport: FolderSupport | undefined;

/** Registers the folder, mount and overlay implementations (what `useFolders()` calls). */
export function provideFolderSupport(support: FolderSupport): void {
  folderSupport = support;
}

function requireFolders(what: string): FolderSupport {
  if (folderSupport) return folderSupport;
  throw new TypeError(
    `createWebPlatform: ${what} come from their own entry, so that only their users bundle them: import { useFolders } from 'toolhost/web/folders' and call useFolders() before createWebPlatform`,
  );
}

function checkShell(shell: unknown): WebShell | undefined {
  if (shell === undefined) return undefined;
  if (typeof shell === 'object' && shell !== null && typeof (shell as { run?: unknown }).run === 'function') return shell as WebShell;
  throw new ToolError(
    'invalid_arguments',
    shell === 'just-bash'
      ? "createWebPlatform: shell 'just-bash' comes from its own entry, so that only its users bundle it: import { justBash } from 'toolhost/web/shell' and pass shell: justBash()"
      : `createWebPlatform: shell must be a shell such as justBash() from 'toolhost/web/shell', not ${JSON.stringify(shell) ?? String(shell)}`,
  );
}

function seedRecords(files: Record<string, string | Uint8Array>): Array<[string, FsRecord]> {
  const encoder = new TextEncoder();
  const now = Date.now();
  const out = new Map<string, FsRecord>();
  for (const [name, content] of Object.entries(files)) {
    const parts = name.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.length === 0 || parts.includes('..') || (typeof content !== 'string' && !(content instanceof Uint8Array))) {
      throw new ToolError('invalid_arguments', `createWebPlatform: files key ${JSON.stringify(name)} must be a relative path inside the workspace with text or bytes as its value`);
    }
    for (let i = 1; i < parts.length; i += 1) out.set(`${WORKSPACE_ROOT}/${parts.slice(0, i).join('/')}`, { kind: 'dir', mtimeMs: now });
    out.set(`${WORKSPACE_ROOT}/${parts.join('/')}`, { kind: 'file', data: typeof content === 'string' ? encoder.encode(content) : content, mtimeMs: now });
  }
  return [...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Creates the browser platform for use inside a dedicated or shared worker. Creating it does no work
 * and touches no global: storage is opened and the workspace loaded on first use (or on `ready()`).
 *
 * - name `'web'`, root `/workspace`, capabilities `{ runCommand, webSearch: false, persistent }`
 *   (`runCommand` only with a `shell`; `persistent` is false only for backend `memory`); without a
 *   shell there is no `runCommand` member, so `run_command` and `web_search` return their empty results.
 * - `indexeddb` backend: the live workspace is an in-memory MemoryFs tree loaded from the workspace's
 *   database at mount; every write is journalled and `flush()` (awaited by the runner before each
 *   mutating call's result) commits the changed files, directories, symlinks and deleted subtrees in ONE
 *   IndexedDB transaction, awaiting `complete`. Tool state goes through the same commit path. A failed
 *   commit (`quota_exceeded`, `unavailable`) reloads the changed paths from storage, so earlier content
 *   stays intact in memory and on disk. `changeCount()` counts the changes, and `searchSource` reads
 *   the tree's stored bytes (as the memory platform's), so searches run on bytes and a repeated search
 *   reuses listings and counts while nothing changed. `files` seeds a new workspace in that same
 *   transaction. (Backend `memory` alike; not with an overlay or mounts.)
 * - folder backends (`{ directory }`, `directory`, `opfs`): every operation goes to the folder, so a
 *   change made by another app is seen by the next call; each write resolves after its writable
 *   stream closed, so a call's result follows its writes. Access is checked on open: `permission_denied`
 *   (not granted) or `unavailable` (folder gone), with how to reopen it.
 * - `mounts` and `overlay` as documented on {@link WebPlatformOptions}.
 * - One writer per workspace: run the platform in one (shared) worker per workspace; two workers on one
 *   workspace do not see each other's changes.
 * Errors at first use: `unavailable` (no IndexedDB, open refused, upgrade blocked), `permission_denied`;
 * `invalid_arguments` (bad workspace name, backend, mount or file, at creation); a TypeError at creation
 * for a folder backend, `mounts` or `overlay` without `useFolders()` of `toolhost/web/folders`.
 */
export function createWebPlatform(options: WebPlatformOptions): WebPlatform {
  const workspaceName = checkWorkspaceName(options?.workspace);
  const backendOption = checkBackend(options.backend);
  const backend: WebBackend = typeof backendOption === 'string' ? backendOption : 'directory';
  const mounts = Object.entries(options.mounts ?? {}).map(([path, source]) => ({ path: checkMountPath(path), source: checkMountSource(`mounts['${path}']`, source) }));
  const overlayBase = options.overlay === undefined ? undefined : checkMountSource('overlay.base', options.overlay?.base);
  if (overlayBase && backend !== 'indexeddb' && backend !== 'memory') {
    throw new ToolError('invalid_arguments', "createWebPlatform: an overlay keeps its changes in IndexedDB or memory: use backend 'indexeddb' (default) or 'memory' with overlay");
  }
  if (backend === 'opfs' || backend === 'directory') requireFolders(`folder workspaces (backend ${typeof backendOption === 'string' ? `'${backend}'` : '{ directory }'})`);
  if (mounts.length > 0) requireFolders('mounts');
  if (overlayBase) requireFolders('overlays');
  const seed = options.files === undefined ? undefined : seedRecords(options.files);
  const shell = checkShell(options.shell);
  const journaled = backend === 'indexeddb' || backend === 'memory';
  const capabilities = { runCommand: shell !== undefined, webSearch: false, persistent: backend !== 'memory' };
  let disposed = false;

  // The workspace database: the journalled files (indexeddb) and tool state (every persistent backend).
  let opened: Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }> | undefined;
  const openIdb = (): Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }> => {
    if (disposed) return Promise.reject(new ToolError('unavailable', `workspace "${workspaceName}" was disposed`));
    opened ??= (async () => {
      const factory = resolveIdbFactory(options.idbFactory);
      const db = await WorkspaceDb.open(factory, workspaceName, options.durability ?? 'strict');
      try {
        const records = backend === 'indexeddb' ? await db.loadAll() : [];
        const isNew = records.length === 0 && seed !== undefined;
        // The seeding transaction is issued first and the tree built while the browser stores it.
        const seeded = isNew ? db.commit({ deleteTrees: [], puts: seed, state: [] }) : undefined;
        seeded?.catch(() => undefined);
        const workspace = await JournaledWorkspace.mount(WORKSPACE_ROOT, isNew ? seed : records, db);
        await seeded;
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
  let memoryLive: Promise<JournaledWorkspace> | undefined;
  const openMemory = (): Promise<JournaledWorkspace> =>
    (memoryLive ??= JournaledWorkspace.mount(WORKSPACE_ROOT, seed ?? [], { commit: async () => undefined, readSubtrees: async () => new Map() }));

  /** The workspace's own files at `/workspace` (before the overlay and the mounts). */
  const openOwn = async (): Promise<{ fs: FsPromises; journal?: JournaledWorkspace }> => {
    if (backend === 'indexeddb') {
      const { workspace } = await openIdb();
      return { fs: workspace.fs, journal: workspace };
    }
    if (backend === 'memory') {
      const workspace = await openMemory();
      return { fs: workspace.fs, journal: workspace };
    }
    return { fs: await requireFolders('folder workspaces').openFolder(typeof backendOption === 'object' ? backendOption : backend, workspaceName, WORKSPACE_ROOT, options.idbFactory) };
  };

  let control: OverlayControl | undefined;
  let journal: JournaledWorkspace | undefined;
  /** Other workspaces mounted (or under the overlay): committed on every flush. */
  const others: OpenedWorkspace[] = [];
  const sourceContext: SourceContext = { workspace: workspaceName, idbFactory: options.idbFactory, durability: options.durability ?? 'strict', opened: others };
  const commitOthers = async (): Promise<void> => {
    for (const other of others) await other.journal.commit();
  };
  let assembled: Promise<FsPromises> | undefined;
  const assemble = (): Promise<FsPromises> => {
    assembled ??= (async () => {
      const own = await openOwn();
      journal = own.journal;
      let fs = own.fs;
      if (overlayBase || mounts.length > 0) {
        const layered = await requireFolders('mounts and overlays').layer({
          own: fs,
          root: WORKSPACE_ROOT,
          overlayBase,
          mounts,
          context: sourceContext,
          flush: async () => {
            await journal?.commit();
            await commitOthers();
          },
        });
        fs = layered.fs;
        control = layered.control;
      }
      return fs;
    })();
    assembled.catch(() => (assembled = undefined));
    return assembled;
  };

  const fs = lazyFs(assemble);
  /** The journalled workspace's tree, once a call through `fs` loaded it. */
  const liveTree = (): MemoryFs => {
    if (!journal) throw new ToolError('unavailable', `workspace "${workspaceName}" is not loaded yet; call a file tool (or ready()) first`);
    return journal.tree;
  };
  const state: StateStore = backend === 'memory' ? new MemoryStateStore() : new WebStateStore(openIdb);
  const flush = async (): Promise<void> => {
    if (backend === 'indexeddb' && opened) await (await openIdb()).workspace.commit();
    await commitOthers();
  };
  const batch = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (backend !== 'indexeddb') return fn();
    let workspace: JournaledWorkspace;
    try {
      workspace = (await openIdb()).workspace;
    } catch {
      return fn(); // storage unavailable: each call reports it itself
    }
    return workspace.batch(fn);
  };
  const review = async (): Promise<OverlayControl> => {
    await assemble();
    return control as OverlayControl;
  };
  const platform: WebPlatform = {
    name: 'web',
    root: WORKSPACE_ROOT,
    workspace: workspaceName,
    backend,
    fs,
    state,
    capabilities,
    network: createFetchNetwork({ ...(options.network ? { policy: options.network } : {}), ...(options.fetch ? { fetch: options.fetch } : {}), redirects: 'follow' }),
    // The journalled MemoryFs workspace writes a file in one synchronous step and commits whole files; a
    // folder's writable stream replaces the file on close. A mount given as a filesystem may be neither.
    atomicWrites: !mounts.some(({ source }) => !('directory' in source) && !('workspace' in source) && !source.readOnly),
    flush,
    ready: async () => {
      await assemble();
      if (backend !== 'memory') await openIdb();
    },
    batch,
    // Only a workspace whose files change through this platform alone can promise a change counter;
    // the search tools then read its tree's bytes directly (the tree is loaded by the fs call every
    // search makes first, resolving its folder).
    ...(journaled && !overlayBase && mounts.length === 0
      ? { changeCount: () => journal?.changes ?? 0, searchSource: createMemorySearchSource(liveTree, () => journal?.changes ?? 0) }
      : {}),
    ...(overlayBase
      ? {
          changes: async () => (await review()).changes(),
          apply: async () => (await review()).apply(),
          discard: async () => (await review()).discard(),
        }
      : {}),
    ...(shell ? { runCommand: (request: RunCommandRequest, signal: AbortSignal) => shell.run({ ...request, fs, root: WORKSPACE_ROOT }, signal) } : {}),
    async dispose() {
      if (disposed) return;
      for (const other of others.splice(0)) {
        await other.journal.commit().catch(() => undefined);
        other.db.close();
      }
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
  return platform;
}
