import { ToolError } from '../src/core/errors.js';
import { lazyFs, MemoryStateStore } from '../src/platform/memory.js';
import { createMemorySearchSource } from '../src/search/memory-source.js';
import { createFetchNetwork } from '../src/core/network.js';
import { resolveIdbFactory, WorkspaceDb } from './idb.js';
import { JournaledWorkspace } from './journal.js';
import { WebStateStore } from './state.js';
const WORKSPACE_ROOT = '/workspace';
function checkWorkspaceName(workspace) {
    if (typeof workspace !== 'string' || workspace.length === 0 || workspace.length > 200) {
        throw new ToolError('invalid_arguments', 'createWebPlatform: workspace must be a name of 1 to 200 characters');
    }
    return workspace;
}
function isHandle(value) {
    return typeof value === 'object' && value !== null && value.kind === 'directory' && typeof value.getDirectoryHandle === 'function';
}
function checkBackend(backend) {
    if (backend === undefined)
        return 'indexeddb';
    if (backend === 'indexeddb' || backend === 'opfs' || backend === 'memory' || backend === 'directory')
        return backend;
    if (typeof backend === 'object' && backend !== null && isHandle(backend.directory)) {
        return backend;
    }
    throw new ToolError('invalid_arguments', `createWebPlatform: backend must be 'indexeddb', 'opfs', 'memory', 'directory' or { directory: FileSystemDirectoryHandle }, not ${JSON.stringify(backend) ?? String(backend)}`);
}
function checkMountSource(where, source) {
    const s = source;
    if (typeof s === 'object' &&
        s !== null &&
        (isHandle(s.directory) || (typeof s.workspace === 'string' && s.workspace.length > 0 && s.workspace.length <= 200) || (typeof s.fs === 'object' && s.fs !== null) || typeof s.open === 'function')) {
        return s;
    }
    const zenfs = typeof s === 'object' && s !== null && 'backend' in s;
    throw new ToolError('invalid_arguments', `createWebPlatform: ${where} must be { directory: FileSystemDirectoryHandle }, { workspace: name }, { fs } or { open() }` +
        (zenfs ? "; for a ZenFS mount configuration, wrap it: import { zenfsMount } from 'toolhost/web/zenfs' and pass zenfsMount(config)" : ''));
}
function checkMountPath(path) {
    const parts = path.split('/').filter((p) => p !== '' && p !== '.');
    if (!path.startsWith(`${WORKSPACE_ROOT}/`) || parts.includes('..') || parts.length < 2) {
        throw new ToolError('invalid_arguments', `createWebPlatform: mount path ${JSON.stringify(path)} must be an absolute path under ${WORKSPACE_ROOT}/, e.g. '${WORKSPACE_ROOT}/docs'`);
    }
    return `/${parts.join('/')}`;
}
let folderSupport;
/** Registers the folder, mount and overlay implementations (what `useFolders()` calls). */
export function provideFolderSupport(support) {
    folderSupport = support;
}
function requireFolders(what) {
    if (folderSupport)
        return folderSupport;
    throw new TypeError(`createWebPlatform: ${what} come from their own entry, so that only their users bundle them: import { useFolders } from 'toolhost/web/folders' and call useFolders() before createWebPlatform`);
}
function checkShell(shell) {
    if (shell === undefined)
        return undefined;
    if (typeof shell === 'object' && shell !== null && typeof shell.run === 'function')
        return shell;
    throw new ToolError('invalid_arguments', shell === 'just-bash'
        ? "createWebPlatform: shell 'just-bash' comes from its own entry, so that only its users bundle it: import { justBash } from 'toolhost/web/shell' and pass shell: justBash()"
        : `createWebPlatform: shell must be a shell such as justBash() from 'toolhost/web/shell', not ${JSON.stringify(shell) ?? String(shell)}`);
}
function seedRecords(files) {
    const encoder = new TextEncoder();
    const now = Date.now();
    const out = new Map();
    for (const [name, content] of Object.entries(files)) {
        const parts = name.split('/').filter((p) => p !== '' && p !== '.');
        if (parts.length === 0 || parts.includes('..') || (typeof content !== 'string' && !(content instanceof Uint8Array))) {
            throw new ToolError('invalid_arguments', `createWebPlatform: files key ${JSON.stringify(name)} must be a relative path inside the workspace with text or bytes as its value`);
        }
        for (let i = 1; i < parts.length; i += 1)
            out.set(`${WORKSPACE_ROOT}/${parts.slice(0, i).join('/')}`, { kind: 'dir', mtimeMs: now });
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
export function createWebPlatform(options) {
    const workspaceName = checkWorkspaceName(options?.workspace);
    const backendOption = checkBackend(options.backend);
    const backend = typeof backendOption === 'string' ? backendOption : 'directory';
    const mounts = Object.entries(options.mounts ?? {}).map(([path, source]) => ({ path: checkMountPath(path), source: checkMountSource(`mounts['${path}']`, source) }));
    const overlayBase = options.overlay === undefined ? undefined : checkMountSource('overlay.base', options.overlay?.base);
    if (overlayBase && backend !== 'indexeddb' && backend !== 'memory') {
        throw new ToolError('invalid_arguments', "createWebPlatform: an overlay keeps its changes in IndexedDB or memory: use backend 'indexeddb' (default) or 'memory' with overlay");
    }
    if (backend === 'opfs' || backend === 'directory')
        requireFolders(`folder workspaces (backend ${typeof backendOption === 'string' ? `'${backend}'` : '{ directory }'})`);
    if (mounts.length > 0)
        requireFolders('mounts');
    if (overlayBase)
        requireFolders('overlays');
    const seed = options.files === undefined ? undefined : seedRecords(options.files);
    const shell = checkShell(options.shell);
    const journaled = backend === 'indexeddb' || backend === 'memory';
    const capabilities = { runCommand: shell !== undefined, webSearch: false, persistent: backend !== 'memory' };
    let disposed = false;
    // The workspace database: the journalled files (indexeddb) and tool state (every persistent backend).
    let opened;
    const openIdb = () => {
        if (disposed)
            return Promise.reject(new ToolError('unavailable', `workspace "${workspaceName}" was disposed`));
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
            }
            catch (error) {
                db.close();
                throw error;
            }
        })();
        // A failed open is retried on the next use (e.g. after the other tab closed).
        opened.catch(() => (opened = undefined));
        return opened;
    };
    let memoryLive;
    const openMemory = () => (memoryLive ??= JournaledWorkspace.mount(WORKSPACE_ROOT, seed ?? [], { commit: async () => undefined, readSubtrees: async () => new Map() }));
    /** The workspace's own files at `/workspace` (before the overlay and the mounts). */
    const openOwn = async () => {
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
    let control;
    let journal;
    /** Other workspaces mounted (or under the overlay): committed on every flush. */
    const others = [];
    const sourceContext = { workspace: workspaceName, idbFactory: options.idbFactory, durability: options.durability ?? 'strict', opened: others };
    const commitOthers = async () => {
        for (const other of others)
            await other.journal.commit();
    };
    let assembled;
    const assemble = () => {
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
    const liveTree = () => {
        if (!journal)
            throw new ToolError('unavailable', `workspace "${workspaceName}" is not loaded yet; call a file tool (or ready()) first`);
        return journal.tree;
    };
    const state = backend === 'memory' ? new MemoryStateStore() : new WebStateStore(openIdb);
    const flush = async () => {
        if (backend === 'indexeddb' && opened)
            await (await openIdb()).workspace.commit();
        await commitOthers();
    };
    const batch = async (fn) => {
        if (backend !== 'indexeddb')
            return fn();
        let workspace;
        try {
            workspace = (await openIdb()).workspace;
        }
        catch {
            return fn(); // storage unavailable: each call reports it itself
        }
        return workspace.batch(fn);
    };
    const review = async () => {
        await assemble();
        return control;
    };
    const platform = {
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
            if (backend !== 'memory')
                await openIdb();
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
        ...(shell ? { runCommand: (request, signal) => shell.run({ ...request, fs, root: WORKSPACE_ROOT }, signal) } : {}),
        async dispose() {
            if (disposed)
                return;
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
                }
                catch {
                    // never opened: nothing to close
                }
            }
            disposed = true;
        },
    };
    return platform;
}
//# sourceMappingURL=platform.js.map