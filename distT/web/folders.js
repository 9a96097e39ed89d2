/**
 * toolhost/web/folders: folder workspaces, mounts and overlays of `createWebPlatform`. The default
 * IndexedDB (or memory) workspace needs none of them, so `toolhost/web` leaves their code out of a
 * bundle; a worker that opens a folder (`backend: { directory: handle }`, `'directory'`, `'opfs'`),
 * mounts filesystems (`mounts`) or lays an overlay over a base (`overlay: { base }`) imports this
 * entry and calls {@link useFolders} once, before `createWebPlatform`.
 */
import { MemoryFs } from '../src/fs/memfs.js';
import { ToolError } from '../src/core/errors.js';
import { fsFromSync } from '../src/platform/memory.js';
import { checkDirectory, rememberDirectory, rememberedDirectory } from './directory.js';
import { HandleFs } from './handle-fs.js';
import { resolveIdbFactory, WorkspaceDb } from './idb.js';
import { JournaledWorkspace } from './journal.js';
import { mountTable, readOnlyFs, subtreeFs } from './mounts.js';
import { overlayFs } from './overlay.js';
import { provideFolderSupport } from './platform.js';
/** Opens a mount or overlay source: its filesystem from `/`, read-only where asked. */
async function openSource(source, label, context, root, prefix = '') {
    const workspace = context.workspace;
    let raw;
    let name = label;
    if ('workspace' in source) {
        if (source.workspace === workspace)
            throw new ToolError('invalid_arguments', `createWebPlatform: workspace "${workspace}" cannot be mounted in itself`);
        const db = await WorkspaceDb.open(resolveIdbFactory(context.idbFactory), source.workspace, context.durability);
        const journal = await JournaledWorkspace.mount(root, await db.loadAll(), db);
        context.opened.push({ db, journal });
        name = `the workspace "${source.workspace}" (${label})`;
        raw = subtreeFs(journal.fs, root);
    }
    else if ('directory' in source) {
        await checkDirectory(source.directory, workspace);
        name = `the folder "${source.directory.name}" (${label})`;
        raw = new HandleFs(source.directory, { label: name });
    }
    else if ('fs' in source) {
        raw = source.fs;
        name = source.label ?? label;
    }
    else {
        raw = await source.open();
        name = source.label ?? label;
    }
    return { fs: source.readOnly ? readOnlyFs(raw, name, prefix) : raw, raw };
}
const support = {
    async openFolder(backend, workspace, root, idbFactory) {
        let handle;
        if (backend === 'opfs') {
            const storage = globalThis.navigator?.storage;
            if (!storage?.getDirectory)
                throw new ToolError('unavailable', 'the Origin Private File System is not available here; use backend "indexeddb"');
            handle = await (await storage.getDirectory()).getDirectoryHandle(`toolhost-ws-${encodeURIComponent(workspace)}`, { create: true });
        }
        else if (typeof backend === 'object') {
            handle = backend.directory;
            await checkDirectory(handle, workspace);
            await rememberDirectory(workspace, handle, idbFactory);
        }
        else {
            const remembered = await rememberedDirectory(workspace, idbFactory ? { idbFactory } : {});
            if (!remembered) {
                throw new ToolError('unavailable', `workspace "${workspace}" has no remembered folder; open it once with createWebPlatform({ workspace: "${workspace}", backend: { directory: handle } })`);
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
        let control;
        if (overlayBase) {
            const { raw } = await openSource(overlayBase, 'the overlay base', context, root);
            const layered = overlayFs({ upper: fs, base: raw, root, flush });
            fs = layered.fs;
            control = layered.control;
        }
        if (mounts.length > 0) {
            const opened = [];
            for (const { path, source } of mounts)
                opened.push({ path, fs: (await openSource(source, `the mount ${path}`, context, root, path)).fs });
            fs = mountTable(fs, opened);
        }
        return control ? { fs, control } : { fs };
    },
};
/**
 * Makes `createWebPlatform` accept the options that need this entry's code: the folder backends
 * (`backend: { directory: handle }` for a folder from `showDirectoryPicker()` edited in place,
 * `'directory'` for the folder remembered for the workspace, `'opfs'`), `mounts` (folders, other
 * workspaces, ZenFS backends through `zenfsMount()` of `toolhost/web/zenfs`, any filesystem) and
 * `overlay: { base }` (a copy-on-write review layer with `changes()`, `apply()`, `discard()`), each as
 * documented on `WebPlatformOptions`. Without it, `createWebPlatform` throws a TypeError naming this
 * import for any of them. Call it once per worker (again is harmless).
 */
export function useFolders() {
    provideFolderSupport(support);
}
//# sourceMappingURL=folders.js.map