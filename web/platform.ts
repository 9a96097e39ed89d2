import { ToolError } from '../src/core/errors.js';
import { describeValue } from '../src/core/options.js';
import type { MemoryFs } from '../src/fs/memfs.js';
import { lazyFs, MemoryStateStore } from '../src/platform/memory.js';
import { createMemorySearchSource } from '../src/search/memory-source.js';
import { createSearchEngine } from '../src/search/engine.js';
import type { FsPromises, NetworkPolicy, Platform, RunCommandRequest, RunCommandResult, StateStore } from '../src/core/types.js';
import type { SearchSource } from '../src/search/source-port.js';
import type { AttachedSearchIndex, SearchIndexReady } from '../src/search/index/attach.js';
import { createFetchNetwork } from '../src/core/network.js';
import { resolveIdbFactory, WorkspaceDb, type FsRecord } from './idb.js';
import { JournaledWorkspace } from './journal.js';
import { IdbJournalStore } from './journal-store.js';
import type { JournalStore } from '../src/journal/store.js';
import type { ReviewSetup } from '../src/core/journal-port.js';
import type { OverlayApplyResult, OverlayChange, OverlayControl } from './overlay.js';
import { WebStateStore } from './state.js';

/** Where the web platform keeps a workspace's files. */
export type WebBackend = 'indexeddb' | 'opfs' | 'memory' | 'directory';

/**
 * The key under which a folder backend or mount source carries the code that opens it (the folder,
 * mount and overlay implementations of `toolhost/web/folders`), so that only workspaces given such a
 * value bundle that code, and no global registration is needed.
 */
export const FOLDERS: unique symbol = Symbol('toolhost/web/folders');

/**
 * The key under which the value of `webSearchIndex()` (`toolhost/web/search-index`) carries the code
 * of the search index, so that only workers that keep an index bundle it.
 */
export const SEARCH_INDEX: unique symbol = Symbol('toolhost/web/search-index');

/** What `webSearchIndex()` of `toolhost/web/search-index` returns, for `createWebPlatform`'s `searchIndex`. */
export interface WebSearchIndex {
  readonly [SEARCH_INDEX]: WebSearchIndexSupport;
}

/** The search index code a {@link WebSearchIndex} carries, within its budget. */
export interface WebSearchIndexSupport {
  /** Keeps `platform`'s index in the IndexedDB database of `workspace` (`loaded` loads the workspace before a build). */
  attach(platform: Platform, factory: () => IDBFactory, workspace: string, loaded: () => Promise<unknown>): AttachedSearchIndex;
  /** What `capabilities.searchIndex` says (undefined before the index is attached). */
  status(platform: Platform): { state: 'building' | 'ready' | 'off'; note?: string } | undefined;
}

/** A value made by `toolhost/web/folders` (or `toolhost/web/zenfs`): it carries the code that opens it. */
export interface CarriesFolders {
  readonly [FOLDERS]: FolderSupport;
}

/**
 * A filesystem to mount (or to lay an overlay over), made by `toolhost/web/folders`: `folderMount(handle)`
 * (File System Access API, or an OPFS directory), `workspaceMount(name)` (another IndexedDB workspace,
 * its files committed with this one's; mount it writable only where no other worker has it open),
 * `fsMount(fs)` (a ready {@link FsPromises} addressed from `/`, or a function opening one on first use),
 * or by `zenfsMount(config)` of `toolhost/web/zenfs` (any ZenFS backend: a zip archive, a Fetch tree).
 * `readOnly` refuses every write through the workspace with `permission_denied`.
 */
export type WebMountSource = (
  | { directory: FileSystemDirectoryHandle; readOnly?: boolean }
  | { workspace: string; readOnly?: boolean }
  | { fs: FsPromises; readOnly?: boolean; label?: string }
  | { open(): Promise<FsPromises>; readOnly?: boolean; label?: string }
) &
  CarriesFolders;

/**
 * A folder backend, made by `toolhost/web/folders`: `folderWorkspace(handle)` (a real folder edited
 * in place), `folderWorkspace()` (the folder remembered for the workspace) or `opfsWorkspace()`.
 */
export type WebFolderBackend = ({ kind: 'opfs' } | { kind: 'directory'; directory?: FileSystemDirectoryHandle }) & CarriesFolders;

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
   * `memory`: nothing persists (capabilities.persistent is false); needs no storage at all.
   * The folder backends are values of `toolhost/web/folders` (so only their users bundle their code):
   * `opfsWorkspace()`: files in the Origin Private File System (folder `toolhost-ws-<workspace>`), state
   * in IndexedDB; `folderWorkspace(handle)`: a real local folder from `showDirectoryPicker()` (or any
   * FileSystemDirectoryHandle), edited in place, the handle remembered for the workspace;
   * `folderWorkspace()`: the folder remembered for this workspace, access checked (and requested
   * where the context can ask) on open. `'opfs'`, `'directory'` or `{ directory }` instead is a
   * TypeError naming the function to call.
   */
  backend?: 'indexeddb' | 'memory' | WebFolderBackend;
  /**
   * Filesystems mounted at absolute paths inside the workspace (`'/workspace/docs'`); walks and
   * searches cross them, each mount's `.gitignore` applies inside it. Each source is a value of
   * `toolhost/web/folders` or `toolhost/web/zenfs` (a plain `{ directory }`, `{ workspace }` or `{ fs }`
   * is a TypeError naming the function that makes it).
   */
  mounts?: Record<string, WebMountSource>;
  /**
   * Makes the workspace a copy-on-write layer over `base`: the base is read, every write is staged as
   * in review mode and kept in the workspace's own storage (IndexedDB by default, so it survives a
   * reload), and `changes()` / `apply()` / `discard()` review them as a whole; a runner's
   * `pendingChanges` / `accept` / `reject` review them per file or hunk (for a conversation the runner
   * does not review itself). `base` is a mount source as in `mounts`.
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
  /**
   * `webSearchIndex()` of `toolhost/web/search-index` (the entry carries the index's code, so only
   * workers that keep an index bundle it): keeps a search index of the workspace (backend `indexeddb`
   * only) in IndexedDB beside it (database
   * `toolhost-search-index:<workspace>`): on first use it is read from there when saved and intact
   * (the first search waits for that read), else built in the background in this worker and saved;
   * until it is ready searches scan every file, as without it. Searches whose pattern needs text
   * that few files hold then read only the files the index names, and any file changed since it was
   * indexed. A saved index that is corrupt, truncated or of another version is rebuilt, never
   * trusted. `dispose()` waits for a build under way and saves the index when searches changed it.
   * `searchIndexReady()` tells how it was opened. Bounded: `webSearchIndex({ maxIndexBytes?, maxBuildBytes? })`
   * (defaults 256 MiB and 448 MiB) caps the index's size and its build's estimated
   * memory; a build that would pass one stops early, and an index that outgrows its size through
   * writes is dropped: searches then scan, and `capabilities.searchIndex` (`{ state, note? }`) says
   * which budget was passed and what to set. `true` or `{ maxIndexBytes?, maxBuildBytes? }` instead
   * is a TypeError naming the call to write; `false` is no index.
   */
  searchIndex?: WebSearchIndex | false;
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
  /**
   * Where a runner's change journal on this platform keeps its turns and file contents: a store in
   * the IndexedDB database `toolhost-journal:<workspace>`, for every backend but `memory` (whose files
   * are gone with the page). A runner's journal uses it by default and takes up what it holds, so a
   * reloaded page lists and rewinds the turns of earlier ones.
   */
  journalStore?(): JournalStore;
  /**
   * With `searchIndex`: starts opening the search index when nothing has yet (any use of the
   * workspace does), and resolves once it is in use: `{ from: 'disk' }` (read from IndexedDB),
   * `{ from: 'built', rejected? }` (built; `rejected` says why a saved one was not used), or
   * `{ error }` (no index: searches scan). Never rejects.
   */
  searchIndexReady?(): Promise<SearchIndexReady>;
}

export type { SearchIndexReady };

export type { OverlayApplyResult, OverlayChange };

const WORKSPACE_ROOT = '/workspace';

function checkWorkspaceName(workspace: unknown): string {
  if (typeof workspace !== 'string' || workspace.length === 0 || workspace.length > 200) {
    throw new TypeError('createWebPlatform: workspace must be a name of 1 to 200 characters');
  }
  return workspace;
}

function isHandle(value: unknown): value is FileSystemDirectoryHandle {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'directory' && typeof (value as { getDirectoryHandle?: unknown }).getDirectoryHandle === 'function';
}

/** The TypeError for a folder option given plainly: `call` is what to pass instead (`'opfsWorkspace()'`). */
function plainFolders(what: string, call: string): TypeError {
  return new TypeError(`createWebPlatform: ${what} needs the code of its entry: import { ${call.slice(0, call.indexOf('('))} } from 'toolhost/web/folders' and pass ${call}`);
}

function carriesFolders(value: unknown): value is CarriesFolders {
  return typeof value === 'object' && value !== null && typeof (value as Partial<CarriesFolders>)[FOLDERS] === 'object';
}

function checkBackend(backend: unknown): 'indexeddb' | 'memory' | WebFolderBackend {
  if (backend === undefined) return 'indexeddb';
  if (backend === 'indexeddb' || backend === 'memory') return backend;
  const b = backend as { kind?: unknown; directory?: unknown } | null;
  if (carriesFolders(b) && (b.kind === 'opfs' || (b.kind === 'directory' && (b.directory === undefined || isHandle(b.directory))))) return b as WebFolderBackend;
  const plain = backend === 'opfs' ? 'opfsWorkspace()' : backend === 'directory' ? 'folderWorkspace()' : isHandle(b?.directory) ? 'folderWorkspace(handle)' : undefined;
  if (plain) throw plainFolders(`backend ${typeof backend === 'string' ? `'${backend}'` : '{ directory }'}`, plain);
  throw new TypeError(`createWebPlatform: backend must be 'indexeddb', 'memory', opfsWorkspace() or folderWorkspace(handle), not ${describeValue(backend)}`);
}


function checkMountSource(where: string, source: unknown): WebMountSource {
  const s = source as Record<string, unknown> | null;
  if (carriesFolders(s)) {
    if (isHandle(s.directory) || (typeof s.workspace === 'string' && s.workspace.length > 0 && s.workspace.length <= 200) || (typeof s.fs === 'object' && s.fs !== null) || typeof s.open === 'function') {
      return s as unknown as WebMountSource;
    }
  } else if (typeof s === 'object' && s !== null) {
    const call = isHandle(s.directory) ? 'folderMount(handle)' : typeof s.workspace === 'string' ? 'workspaceMount(name)' : 'fs' in s || 'open' in s ? 'fsMount(fs)' : undefined;
    if (call) throw plainFolders(where, call);
  }
  const zenfs = typeof s === 'object' && s !== null && 'backend' in s;
  throw new TypeError(
    `createWebPlatform: ${where} must be folderMount(), workspaceMount() or fsMount() of toolhost/web/folders, or zenfsMount() of toolhost/web/zenfs` +
      (zenfs ? "; for a ZenFS mount configuration, wrap it: import { zenfsMount } from 'toolhost/web/zenfs' and pass zenfsMount(config)" : ''),
  );
}

function checkMountPath(path: string): string {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (!path.startsWith(`${WORKSPACE_ROOT}/`) || parts.includes('..') || parts.length < 2) {
    throw new TypeError(`createWebPlatform: mount path ${JSON.stringify(path)} must be an absolute path under ${WORKSPACE_ROOT}/, e.g. '${WORKSPACE_ROOT}/docs'`);
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
 * The folder workspaces, mounts and overlays that the values of `toolhost/web/folders` carry, so that
 * only the workspaces that use them bundle their code.
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


function checkShell(shell: unknown): WebShell | undefined {
  if (shell === undefined) return undefined;
  if (typeof shell === 'object' && shell !== null && typeof (shell as { run?: unknown }).run === 'function') return shell as WebShell;
  throw new TypeError(
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
      throw new TypeError(`createWebPlatform: files key ${JSON.stringify(name)} must be a relative path inside the workspace with text or bytes as its value`);
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
 * - name `'web'`, root `/workspace`, capabilities `{ runCommand, webSearch: false, persistent }` (and `searchIndex`, its state, with that option)
 *   (`runCommand` only with a `shell`; `persistent` is false only for backend `memory`); without a
 *   shell there is no `runCommand` member, so `run_command` and `web_search` return their empty results.
 * - `indexeddb` backend: the live workspace is an in-memory MemoryFs tree loaded from the workspace's
 *   database at mount; every write is journalled and `flush()` (awaited by the runner before each
 *   mutating call's result) commits the changed files, directories, symlinks and deleted subtrees in ONE
 *   IndexedDB transaction, awaiting `complete`. Tool state goes through the same commit path. A failed
 *   commit (`quota_exceeded`, `unavailable`) reloads the changed paths from storage, so earlier content
 *   stays intact in memory and on disk. `changeCount()` counts the changes, and its search engine (`search`)
 *   reads the tree's stored bytes (as the memory platform's), so searches run on bytes and a repeated search
 *   reuses listings and counts while nothing changed. `files` seeds a new workspace in that same
 *   transaction. (Backend `memory` alike; not with an overlay or mounts.)
 * - folder backends (`{ directory }`, `directory`, `opfs`): every operation goes to the folder, so a
 *   change made by another app is seen by the next call; each write resolves after its writable
 *   stream closed, so a call's result follows its writes. Access is checked on open: `permission_denied`
 *   (not granted) or `unavailable` (folder gone), with how to reopen it.
 * - `mounts` and `overlay` as documented on {@link WebPlatformOptions}.
 * - One writer per workspace: run the platform in one (shared) worker per workspace; two workers on one
 *   workspace do not see each other's changes.
 * Errors at first use: `unavailable` (no IndexedDB, open refused, upgrade blocked), `permission_denied`.
 * Bad options are the host's mistake: a TypeError at creation naming the option (workspace name,
 * backend, mount path or source, overlay, files key, shell), also for a folder backend or mount
 * source given as a plain name or object instead of the value of
 * `toolhost/web/folders` that carries its code (`'opfs'` → `opfsWorkspace()`, `{ directory }` →
 * `folderWorkspace(handle)` or `folderMount(handle)`, `{ fs }` → `fsMount(fs)`, ...).
 */
export function createWebPlatform(options: WebPlatformOptions): WebPlatform {
  const settings = checkWebOptions(options);
  const { backend, mounts, overlayBase, shell } = settings;
  const files = new WebWorkspaceFiles(settings, options);
  const state: StateStore = backend === 'memory' ? new MemoryStateStore() : new WebStateStore(() => files.openIdb());
  // With `searchIndex`: attached on first use (creating the platform does no work), before the search
  // that uses the workspace first looks for it.
  let index: AttachedSearchIndex | undefined;
  const startIndex = (): AttachedSearchIndex | undefined => {
    if (!settings.searchIndex || index || files.disposed) return index;
    index = settings.searchIndex.attach(platform, () => resolveIdbFactory(options.idbFactory), settings.workspace, () => files.assemble());
    return index;
  };
  const fs = lazyFs(() => {
    startIndex();
    return files.assemble();
  });
  const platform: WebPlatform = {
    name: 'web',
    root: WORKSPACE_ROOT,
    workspace: settings.workspace,
    backend,
    fs,
    state,
    capabilities: { runCommand: shell !== undefined, webSearch: false, persistent: backend !== 'memory' },
    network: createFetchNetwork({ ...(options.network ? { policy: options.network } : {}), ...(options.fetch ? { fetch: options.fetch } : {}), redirects: 'follow' }),
    // The journalled MemoryFs workspace writes a file in one synchronous step and commits whole files; a
    // folder's writable stream replaces the file on close. A mount given as a filesystem may be neither.
    atomicWrites: !mounts.some(({ source }) => !('directory' in source) && !('workspace' in source) && !source.readOnly),
    flush: () => files.flush(),
    ready: () => {
      startIndex();
      return files.ready();
    },
    batch: (fn) => files.batch(fn),
    // Only a workspace whose files change through this platform alone can promise a change counter;
    // the search tools then read its tree's bytes directly (the tree is loaded by the fs call every
    // search makes first, resolving its folder).
    ...(settings.journaled && !overlayBase && mounts.length === 0
      ? { changeCount: () => files.changes(), search: createSearchEngine({ source: reloadableSource(createMemorySearchSource(() => files.liveTree(), () => files.changes()), startIndex) }) }
      : {}),
    ...(overlayBase
      ? {
          changes: async () => (await files.review()).changes(),
          apply: async () => (await files.review()).apply(),
          discard: async () => (await files.review()).discard(),
          stagedReview: async (setup: ReviewSetup) => (await files.review()).review(setup),
        }
      : {}),
    ...(shell ? { runCommand: (request: RunCommandRequest, signal: AbortSignal) => shell.run({ ...request, fs, root: WORKSPACE_ROOT }, signal) } : {}),
    dispose: async () => {
      await index?.close();
      await files.dispose();
    },
    ...(backend === 'memory'
      ? {}
      : { journalStore: () => new IdbJournalStore(() => resolveIdbFactory(options.idbFactory), settings.workspace, options.durability ?? 'strict') }),
    ...(settings.searchIndex ? { searchIndexReady: async () => (await (startIndex() ?? index)?.ready) ?? { error: `workspace "${settings.workspace}" was disposed` } } : {}),
  };
  // Told from creation: `building` until the index, opened at first use, is ready or off.
  const indexSupport = settings.searchIndex;
  if (indexSupport) Object.defineProperty(platform.capabilities, 'searchIndex', { get: () => indexSupport.status(platform) ?? { state: 'building' }, enumerable: true });
  return platform;
}

/**
 * The journalled tree's search source as a search index saved across pages needs it: a file's
 * identity is its size and times, restored as stored when the tree is reloaded, without the inode
 * number, which a reload assigns afresh (every change through the platform moves the status-change
 * time, so the inode tells nothing more here). `begin` (a search or walk starts) calls `started`
 * first, so the search index is attached before the first search looks for it.
 */
function reloadableSource(source: SearchSource, started: () => void): SearchSource {
  return {
    ...source,
    stat(path) {
      const stat = source.stat(path);
      return stat && { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: -1 };
    },
    read(path, maxBytes, into) {
      const read = source.read(path, maxBytes, into);
      return read && { bytes: read.bytes, stat: { size: read.stat.size, mtimeMs: read.stat.mtimeMs, ctimeMs: read.stat.ctimeMs, ino: -1 } };
    },
    begin() {
      started();
      source.begin?.();
    },
  };
}

/** The checked options of {@link createWebPlatform}. */
interface WebSettings {
  workspace: string;
  backend: WebBackend;
  backendOption: 'indexeddb' | 'memory' | WebFolderBackend;
  mounts: Array<{ path: string; source: WebMountSource }>;
  overlayBase: WebMountSource | undefined;
  /** The code of folder backends, mounts and overlays: carried by the values that need it. */
  folders: FolderSupport | undefined;
  /** `files` as records, written to a new workspace. */
  initialFiles: Array<[string, FsRecord]> | undefined;
  shell: WebShell | undefined;
  /** The files live in a journalled MemoryFs tree (indexeddb, memory). */
  journaled: boolean;
  /** The code of the search index kept in IndexedDB, within its budget (undefined: no index). */
  searchIndex: WebSearchIndexSupport | undefined;
}

/** Checks the options of {@link createWebPlatform}, throwing at creation on a bad one. */
function checkWebOptions(options: WebPlatformOptions): WebSettings {
  const workspace = checkWorkspaceName(options?.workspace);
  const backendOption = checkBackend(options.backend);
  const backend: WebBackend = typeof backendOption === 'string' ? backendOption : backendOption.kind;
  const mounts = Object.entries(options.mounts ?? {}).map(([path, source]) => ({ path: checkMountPath(path), source: checkMountSource(`mounts['${path}']`, source) }));
  const overlayBase = options.overlay === undefined ? undefined : checkMountSource('overlay.base', options.overlay?.base);
  for (const [where, source] of [...mounts.map(({ path, source }) => [`mounts['${path}']`, source] as const), ['overlay.base', overlayBase] as const]) {
    if (source !== undefined && 'workspace' in source && source.workspace === workspace) {
      throw new TypeError(`createWebPlatform: ${where} is workspaceMount("${workspace}"), the workspace itself; mount another workspace, or drop it`);
    }
  }
  if (overlayBase && backend !== 'indexeddb' && backend !== 'memory') {
    throw new TypeError("createWebPlatform: an overlay keeps its changes in IndexedDB or memory: use backend 'indexeddb' (default) or 'memory' with overlay");
  }
  const folders = typeof backendOption === 'object' ? backendOption[FOLDERS] : (overlayBase?.[FOLDERS] ?? mounts[0]?.source[FOLDERS]);
  const initialFiles = options.files === undefined ? undefined : seedRecords(options.files);
  const shell = checkShell(options.shell);
  const searchIndex = checkSearchIndex(options.searchIndex, backend);
  return { workspace, backend, backendOption, mounts, overlayBase, folders, initialFiles, shell, journaled: backend === 'indexeddb' || backend === 'memory', searchIndex };
}

/** Checks `searchIndex`: a value of `webSearchIndex()`, only on an IndexedDB workspace (the index is kept beside it); its code, or undefined when off. */
function checkSearchIndex(value: unknown, backend: WebBackend): WebSearchIndexSupport | undefined {
  if (value === undefined || value === false) return undefined;
  const support = typeof value === 'object' && value !== null ? (value as Partial<WebSearchIndex>)[SEARCH_INDEX] : undefined;
  if (typeof support !== 'object' || support === null) {
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    if (value !== true && !isObject) throw new TypeError(`createWebPlatform: searchIndex must be webSearchIndex() of toolhost/web/search-index, or false, not ${describeValue(value)}`);
    const entries = isObject ? Object.entries(value as object) : [];
    const call = entries.length > 0 ? `webSearchIndex({ ${entries.map(([key, v]) => `${key}: ${describeValue(v)}`).join(', ')} })` : 'webSearchIndex()';
    throw new TypeError(`createWebPlatform: searchIndex comes from its own entry, so that only workers that keep an index bundle its code: import { webSearchIndex } from 'toolhost/web/search-index' and pass searchIndex: ${call}`);
  }
  if (backend !== 'indexeddb') {
    throw new TypeError(`createWebPlatform: searchIndex keeps the index in IndexedDB beside an IndexedDB workspace; use backend 'indexeddb' (the default) or leave searchIndex out with backend '${backend}'`);
  }
  return support;
}

/**
 * The files of one web workspace, opened on first use: the workspace database (journalled files and
 * tool state), the in-memory tree, a folder backend, and the overlay and mounts laid over them.
 */
class WebWorkspaceFiles {
  readonly #settings: WebSettings;
  readonly #idbFactory: IDBFactory | undefined;
  readonly #durability: IDBTransactionDurability;
  #disposed = false;
  #opened: Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }> | undefined;
  #memoryLive: Promise<JournaledWorkspace> | undefined;
  #assembled: Promise<FsPromises> | undefined;
  #control: OverlayControl | undefined;
  #journal: JournaledWorkspace | undefined;
  /** Other workspaces mounted (or under the overlay): committed on every flush. */
  readonly #others: OpenedWorkspace[] = [];

  constructor(settings: WebSettings, options: WebPlatformOptions) {
    this.#settings = settings;
    this.#idbFactory = options.idbFactory;
    this.#durability = options.durability ?? 'strict';
  }

  /** The workspace database, opened (and seeded when new) on first use; a failed open is retried on the next use (e.g. after the other tab closed). */
  openIdb(): Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }> {
    if (this.#disposed) return Promise.reject(new ToolError('unavailable', `workspace "${this.#settings.workspace}" was disposed`));
    const opened = (this.#opened ??= this.#openDatabase());
    opened.catch(() => (this.#opened = undefined));
    return opened;
  }

  async #openDatabase(): Promise<{ db: WorkspaceDb; workspace: JournaledWorkspace }> {
    const { backend, initialFiles: seed, workspace: name } = this.#settings;
    const db = await WorkspaceDb.open(resolveIdbFactory(this.#idbFactory), name, this.#durability);
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
  }

  /** The workspace's own files at `/workspace` (before the overlay and the mounts). */
  async #openOwn(): Promise<{ fs: FsPromises; journal?: JournaledWorkspace }> {
    const { backend, backendOption, initialFiles: seed, workspace: name } = this.#settings;
    if (backend === 'indexeddb') {
      const { workspace } = await this.openIdb();
      return { fs: workspace.fs, journal: workspace };
    }
    if (backend === 'memory') {
      const workspace = await (this.#memoryLive ??= JournaledWorkspace.mount(WORKSPACE_ROOT, seed ?? [], { commit: async () => undefined, readSubtrees: async () => new Map() }));
      return { fs: workspace.fs, journal: workspace };
    }
    const folder = backendOption as WebFolderBackend;
    const which = folder.kind === 'opfs' ? 'opfs' : folder.directory ? { directory: folder.directory } : 'directory';
    return { fs: await folder[FOLDERS].openFolder(which, name, WORKSPACE_ROOT, this.#idbFactory) };
  }

  /** The workspace's files with the overlay and mounts laid over them, assembled once (again after a failure). */
  assemble(): Promise<FsPromises> {
    const assembled = (this.#assembled ??= this.#layer());
    assembled.catch(() => (this.#assembled = undefined));
    return assembled;
  }

  async #layer(): Promise<FsPromises> {
    const { overlayBase, mounts, folders, workspace } = this.#settings;
    const own = await this.#openOwn();
    this.#journal = own.journal;
    if (!overlayBase && mounts.length === 0) return own.fs;
    const context: SourceContext = { workspace, idbFactory: this.#idbFactory, durability: this.#durability, opened: this.#others };
    const layered = await (folders as FolderSupport).layer({
      own: own.fs,
      root: WORKSPACE_ROOT,
      overlayBase,
      mounts,
      context,
      flush: async () => {
        await this.#journal?.commit();
        await this.#commitOthers();
      },
    });
    this.#control = layered.control;
    return layered.fs;
  }

  async #commitOthers(): Promise<void> {
    for (const other of this.#others) await other.journal.commit();
  }

  /** The journalled workspace's tree, once a call through `fs` loaded it. */
  liveTree(): MemoryFs {
    if (!this.#journal) throw new ToolError('unavailable', `workspace "${this.#settings.workspace}" is not loaded yet; call a file tool (or ready()) first`);
    return this.#journal.tree;
  }

  /** Whether {@link dispose} ran. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** The journalled workspace's change counter (0 before it is loaded). */
  changes(): number {
    return this.#journal?.changes ?? 0;
  }

  async flush(): Promise<void> {
    if (this.#settings.backend === 'indexeddb' && this.#opened) await (await this.openIdb()).workspace.commit();
    await this.#commitOthers();
  }

  async ready(): Promise<void> {
    await this.assemble();
    if (this.#settings.backend !== 'memory') await this.openIdb();
  }

  async batch<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#settings.backend !== 'indexeddb') return fn();
    let workspace: JournaledWorkspace;
    try {
      workspace = (await this.openIdb()).workspace;
    } catch {
      return fn(); // storage unavailable: each call reports it itself
    }
    return workspace.batch(fn);
  }

  /** The overlay's control, once the files are assembled. */
  async review(): Promise<OverlayControl> {
    await this.assemble();
    return this.#control as OverlayControl;
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    for (const other of this.#others.splice(0)) {
      await other.journal.commit().catch(() => undefined);
      other.db.close();
    }
    const current = this.#opened;
    if (current) {
      try {
        const { db, workspace } = await current;
        await workspace.commit().catch(() => undefined);
        db.close();
      } catch {
        // never opened: nothing to close
      }
    }
    this.#disposed = true;
  }
}
