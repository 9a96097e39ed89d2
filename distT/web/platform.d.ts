import type { FsPromises, NetworkPolicy, Platform, RunCommandRequest, RunCommandResult } from '../src/core/types.js';
import { WorkspaceDb } from './idb.js';
import { JournaledWorkspace } from './journal.js';
import type { OverlayApplyResult, OverlayChange, OverlayControl } from './overlay.js';
/** Where the web platform keeps a workspace's files. */
export type WebBackend = 'indexeddb' | 'opfs' | 'memory' | 'directory';
/**
 * A filesystem to mount (or to lay an overlay over): a folder handle (File System Access API, or an
 * OPFS directory), another IndexedDB workspace (its files, committed with this one's; mount it writable
 * only where no other worker has it open), a ready {@link FsPromises} addressed from `/`, or one opened on first use (what
 * `zenfsMount()` of `toolhost/web/zenfs` returns for any ZenFS backend: a zip archive, a Fetch tree).
 * `readOnly` refuses every write through the workspace with `permission_denied`.
 */
export type WebMountSource = {
    directory: FileSystemDirectoryHandle;
    readOnly?: boolean;
} | {
    workspace: string;
    readOnly?: boolean;
} | {
    fs: FsPromises;
    readOnly?: boolean;
    label?: string;
} | {
    open(): Promise<FsPromises>;
    readOnly?: boolean;
    label?: string;
};
/**
 * A shell for `run_command` (what `justBash()` of `toolhost/web/shell` returns): runs `command` on the
 * workspace's files and answers the same result shape as the Node platform.
 */
export interface WebShell {
    readonly name: string;
    run(request: RunCommandRequest & {
        fs: FsPromises;
        root: string;
    }, signal: AbortSignal): Promise<RunCommandResult>;
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
    backend?: WebBackend | {
        directory: FileSystemDirectoryHandle;
    };
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
    overlay?: {
        base: WebMountSource;
    };
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
    openFolder(backend: 'opfs' | 'directory' | {
        directory: FileSystemDirectoryHandle;
    }, workspace: string, root: string, idbFactory: IDBFactory | undefined): Promise<FsPromises>;
    /** `own` under the overlay over `overlayBase` (when given) and the `mounts` (when any). */
    layer(options: {
        own: FsPromises;
        root: string;
        overlayBase: WebMountSource | undefined;
        mounts: ReadonlyArray<{
            path: string;
            source: WebMountSource;
        }>;
        context: SourceContext;
        flush: () => Promise<void>;
    }): Promise<{
        fs: FsPromises;
        control?: OverlayControl;
    }>;
}
/** Registers the folder, mount and overlay implementations (what `useFolders()` calls). */
export declare function provideFolderSupport(support: FolderSupport): void;
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
export declare function createWebPlatform(options: WebPlatformOptions): WebPlatform;
