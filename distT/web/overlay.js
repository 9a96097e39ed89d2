import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff/lib/patch/create.js';
import { toToolError, ToolError } from '../src/core/errors.js';
import { fsError, split } from './handle-fs.js';
const META = '.toolhost-overlay.json';
const code = (error) => error?.code;
async function sha256(bytes) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
function equalBytes(a, b) {
    if (a.length !== b.length)
        return false;
    for (let i = 0; i < a.length; i += 1)
        if (a[i] !== b[i])
            return false;
    return true;
}
const decoder = new TextDecoder('utf-8', { fatal: true });
function asText(bytes) {
    if (!bytes)
        return '';
    if (bytes.includes(0))
        return undefined;
    try {
        return decoder.decode(bytes);
    }
    catch {
        return undefined;
    }
}
/**
 * A copy-on-write workspace: reads fall through to `base` (addressed from `/`) until the overlay
 * (`upper`, absolute paths under `root`) has its own copy; every write goes to the overlay; deletions are
 * recorded so the base's files stay hidden. The record (deletions, the base's hash of each changed file)
 * lives in a hidden file of the overlay, so it is committed with the call's own changes.
 */
export function overlayFs(options) {
    const { upper, base, flush } = options;
    const rootParts = split(options.root);
    const metaPath = `/${[...rootParts, META].join('/')}`;
    let meta;
    /** Relative parts of an absolute path inside the workspace, or undefined outside it. */
    const relParts = (path) => {
        const parts = split(path);
        if (parts.length < rootParts.length || rootParts.some((p, i) => parts[i] !== p))
            return undefined;
        return parts.slice(rootParts.length);
    };
    const up = (rel) => `/${[...rootParts, ...rel].join('/')}`;
    const low = (rel) => `/${rel.join('/')}`;
    const key = (rel) => rel.join('/');
    async function loadMeta() {
        if (meta)
            return meta;
        try {
            meta = JSON.parse(new TextDecoder().decode(await upper.readFile(metaPath)));
        }
        catch (error) {
            if (code(error) !== 'ENOENT')
                throw error;
            meta = { deleted: [], originals: {} };
        }
        return meta;
    }
    async function saveMeta() {
        const m = await loadMeta();
        if (m.deleted.length === 0 && Object.keys(m.originals).length === 0)
            await upper.rm(metaPath, { force: true });
        else
            await upper.writeFile(metaPath, JSON.stringify(m));
    }
    const hidden = (m, rel) => {
        for (let i = 1; i <= rel.length; i += 1)
            if (m.deleted.includes(key(rel.slice(0, i))))
                return true;
        return false;
    };
    const isMeta = (path) => {
        const rel = relParts(path);
        return rel !== undefined && rel.length === 1 && rel[0] === META;
    };
    async function inUpper(path) {
        try {
            return await upper.lstat(path);
        }
        catch (error) {
            if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR')
                return undefined;
            throw error;
        }
    }
    async function lowerStat(rel) {
        try {
            return await base.lstat(low(rel));
        }
        catch (error) {
            if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR')
                return undefined;
            throw error;
        }
    }
    /** Where `path` lives now: the overlay, the base, or nowhere. */
    async function locate(path) {
        if (isMeta(path))
            return { where: 'none', rel: undefined };
        const rel = relParts(path);
        const own = await inUpper(path);
        if (own)
            return { where: 'upper', stats: own, rel: rel ?? [] };
        if (rel === undefined)
            return { where: 'none', rel };
        const m = await loadMeta();
        if (hidden(m, rel))
            return { where: 'none', rel };
        const stats = await lowerStat(rel);
        return stats ? { where: 'lower', stats, rel } : { where: 'none', rel };
    }
    async function lowerFiles(rel) {
        const stats = await lowerStat(rel);
        if (!stats)
            return [];
        if (!stats.isDirectory())
            return [rel];
        const out = [];
        for (const d of await base.readdir(low(rel), { withFileTypes: true }))
            out.push(...(await lowerFiles([...rel, d.name])));
        return out;
    }
    /** Records the base's hash of `rel` (and, for a folder, of every file under it) before the first change. */
    async function remember(rel) {
        const m = await loadMeta();
        const visible = !hidden(m, rel);
        const files = visible ? await lowerFiles(rel) : [];
        if (files.length === 0 && !(key(rel) in m.originals)) {
            const stats = visible ? await lowerStat(rel) : undefined;
            if (!stats?.isDirectory())
                m.originals[key(rel)] = null;
        }
        for (const file of files) {
            if (key(file) in m.originals)
                continue;
            m.originals[key(file)] = await sha256(await base.readFile(low(file)));
        }
    }
    /** Makes the overlay hold `rel`'s parent folders (which exist in the merged view). */
    async function ensureParent(path) {
        const rel = relParts(path);
        if (!rel || rel.length <= 1)
            return;
        const parent = rel.slice(0, -1);
        const found = await locate(up(parent));
        if (found.where === 'none')
            throw fsError('ENOENT', 'open', path, 'no such file or directory');
        if (!found.stats.isDirectory())
            throw fsError('ENOTDIR', 'open', path, 'not a directory');
        if (found.where === 'lower')
            await upper.mkdir(up(parent), { recursive: true });
    }
    async function readMerged(path) {
        const found = await locate(path);
        if (found.where === 'upper')
            return upper.readFile(path);
        if (found.where === 'lower')
            return base.readFile(low(found.rel));
        throw fsError('ENOENT', 'open', path, 'no such file or directory');
    }
    async function readdir(path, options) {
        const found = await locate(path);
        if (found.where === 'none')
            throw fsError('ENOENT', 'scandir', path, 'no such file or directory');
        if (!found.stats.isDirectory())
            throw fsError('ENOTDIR', 'scandir', path, 'not a directory');
        const m = await loadMeta();
        const byName = new Map();
        const rel = found.rel;
        if (rel && !hidden(m, rel) && (await lowerStat(rel))?.isDirectory()) {
            for (const d of await base.readdir(low(rel), { withFileTypes: true }))
                if (!m.deleted.includes(key([...rel, d.name])))
                    byName.set(d.name, d);
        }
        if (found.where === 'upper') {
            for (const d of await upper.readdir(path, { withFileTypes: true }))
                if (!(rel?.length === 0 && d.name === META))
                    byName.set(d.name, d);
        }
        const list = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return options ? list : list.map((d) => d.name);
    }
    async function removeMerged(path, recursive, syscall) {
        const found = await locate(path);
        if (found.where === 'none')
            throw fsError('ENOENT', syscall, path, 'no such file or directory');
        if (found.stats.isDirectory() && !recursive)
            throw fsError('EISDIR', syscall, path, 'is a directory');
        const rel = found.rel;
        if (!rel || rel.length === 0)
            throw fsError('EPERM', syscall, path, 'cannot remove the workspace root');
        await remember(rel);
        if (found.where === 'upper')
            await upper.rm(path, { recursive: true });
        const m = await loadMeta();
        if ((await lowerStat(rel)) && !m.deleted.includes(key(rel)))
            m.deleted.push(key(rel));
        await saveMeta();
    }
    async function writeMerged(path, data) {
        if (isMeta(path))
            throw fsError('EACCES', 'open', path, 'reserved for the overlay');
        const rel = relParts(path);
        if (rel === undefined)
            return upper.writeFile(path, data);
        const found = await locate(path);
        if (found.where !== 'none' && found.stats.isDirectory())
            throw fsError('EISDIR', 'open', path, 'illegal operation on a directory');
        await ensureParent(path);
        await remember(rel);
        await upper.writeFile(path, data);
        await saveMeta();
    }
    const fs = {
        readFile: readMerged,
        writeFile: writeMerged,
        async mkdir(path, opts) {
            const found = await locate(path);
            if (found.where !== 'none') {
                if (opts?.recursive && found.stats.isDirectory())
                    return undefined;
                throw fsError('EEXIST', 'mkdir', path, 'file already exists');
            }
            if (!opts?.recursive)
                await ensureParent(path);
            return upper.mkdir(path, { recursive: true });
        },
        readdir,
        async stat(path) {
            const found = await locate(path);
            if (found.where === 'upper')
                return upper.stat(path);
            if (found.where === 'lower')
                return base.stat(low(found.rel));
            throw fsError('ENOENT', 'stat', path, 'no such file or directory');
        },
        async lstat(path) {
            const found = await locate(path);
            if (found.where === 'none')
                throw fsError('ENOENT', 'lstat', path, 'no such file or directory');
            return found.stats;
        },
        async readlink(path) {
            const found = await locate(path);
            if (found.where === 'upper')
                return upper.readlink(path);
            if (found.where === 'lower')
                return base.readlink(low(found.rel));
            throw fsError('ENOENT', 'readlink', path, 'no such file or directory');
        },
        async symlink(target, path) {
            await ensureParent(path);
            const rel = relParts(path);
            if (rel)
                await remember(rel);
            await upper.symlink(target, path);
            await saveMeta();
        },
        async rename(oldPath, newPath) {
            const found = await locate(oldPath);
            if (found.where === 'none')
                throw fsError('ENOENT', 'rename', oldPath, 'no such file or directory');
            const copy = async (from, to) => {
                const stats = await fs.lstat(from);
                if (stats.isDirectory()) {
                    await fs.mkdir(to, { recursive: true });
                    for (const name of await fs.readdir(from))
                        await copy(`${from}/${name}`, `${to}/${name}`);
                }
                else if (stats.isSymbolicLink()) {
                    await fs.symlink(await fs.readlink(from), to);
                }
                else {
                    await writeMerged(to, await readMerged(from));
                }
            };
            const target = await locate(newPath);
            if (target.where !== 'none')
                await removeMerged(newPath, true, 'rename');
            await copy(oldPath, newPath);
            await removeMerged(oldPath, true, 'rename');
        },
        rm: async (path, opts) => {
            try {
                await removeMerged(path, opts?.recursive === true, 'rm');
            }
            catch (error) {
                if (!(opts?.force && code(error) === 'ENOENT'))
                    throw error;
            }
        },
        unlink: (path) => removeMerged(path, false, 'unlink'),
    };
    async function upperFiles(rel) {
        const path = up(rel);
        const stats = await inUpper(path);
        if (!stats)
            return [];
        if (!stats.isDirectory())
            return rel.length === 1 && rel[0] === META ? [] : [rel];
        const out = [];
        for (const name of await upper.readdir(path))
            out.push(...(await upperFiles([...rel, name])));
        return out;
    }
    async function readLower(rel) {
        const stats = await lowerStat(rel);
        return stats && !stats.isDirectory() ? base.readFile(low(rel)) : undefined;
    }
    function diffOf(path, before, after) {
        const a = asText(before);
        const b = asText(after);
        if (a === undefined || b === undefined)
            return `Binary file ${path} ${after === undefined ? 'deleted' : before === undefined ? 'created' : 'changed'}\n`;
        return formatPatch(structuredPatch(path, path, a, b, '', '', { context: 3 }), FILE_HEADERS_ONLY);
    }
    const control = {
        async changes() {
            const m = await loadMeta();
            const out = [];
            const own = await upperFiles([]);
            const ownKeys = new Set(own.map(key));
            const conflictOf = async (rel, current) => {
                const k = key(rel);
                if (!(k in m.originals))
                    return undefined;
                const was = m.originals[k];
                const now = current === undefined ? null : await sha256(current);
                if (was === now)
                    return undefined;
                return was === null ? 'the base has a file here now that it did not have' : now === null ? 'the file was deleted from the base since' : 'the base file changed since the overlay changed it';
            };
            for (const rel of own) {
                const after = await upper.readFile(up(rel));
                const before = await readLower(rel);
                if (before && equalBytes(before, after))
                    continue;
                const conflict = await conflictOf(rel, before);
                out.push({ path: key(rel), kind: before ? 'modified' : 'created', diff: diffOf(key(rel), before, after), ...(conflict ? { conflict } : {}) });
            }
            const seen = new Set();
            for (const d of m.deleted) {
                for (const rel of await lowerFiles(split(d))) {
                    const k = key(rel);
                    if (ownKeys.has(k) || seen.has(k))
                        continue;
                    seen.add(k);
                    const before = await base.readFile(low(rel));
                    const conflict = await conflictOf(rel, before);
                    out.push({ path: k, kind: 'deleted', diff: diffOf(k, before, undefined), ...(conflict ? { conflict } : {}) });
                }
            }
            // A file deleted in the overlay that the base has lost since: a conflict too.
            for (const [k, was] of Object.entries(m.originals)) {
                if (was === null || ownKeys.has(k) || seen.has(k) || out.some((c) => c.path === k))
                    continue;
                const rel = split(k);
                if ((await lowerStat(rel)) === undefined && hidden(m, rel)) {
                    out.push({ path: k, kind: 'deleted', diff: '', conflict: 'the file was deleted from the base since' });
                }
            }
            return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        },
        async apply() {
            const list = await control.changes();
            const conflicts = list.filter((c) => c.conflict !== undefined).map((c) => ({ path: c.path, reason: c.conflict }));
            if (conflicts.length > 0)
                return { applied: [], conflicts };
            const done = [];
            try {
                for (const change of list) {
                    const rel = split(change.path);
                    const before = await readLower(rel);
                    if (change.kind === 'deleted') {
                        await base.rm(low(rel), { force: true });
                    }
                    else {
                        if (rel.length > 1)
                            await base.mkdir(low(rel.slice(0, -1)), { recursive: true });
                        await base.writeFile(low(rel), await upper.readFile(up(rel)));
                    }
                    done.push({ rel, before });
                }
                const m = await loadMeta();
                for (const d of m.deleted) {
                    const rel = split(d);
                    if ((await lowerStat(rel))?.isDirectory() && !(await inUpper(up(rel))))
                        await base.rm(low(rel), { recursive: true, force: true });
                }
            }
            catch (error) {
                for (const { rel, before } of done.reverse()) {
                    if (before === undefined)
                        await base.rm(low(rel), { force: true }).catch(() => undefined);
                    else
                        await base.writeFile(low(rel), before).catch(() => undefined);
                }
                const failure = toToolError(error);
                throw new ToolError(failure.code, `applying the overlay failed (${failure.message}); the files already written to the base were restored and the overlay is unchanged`);
            }
            await control.discard();
            return { applied: list.map((c) => c.path), conflicts: [] };
        },
        async discard() {
            for (const name of await upper.readdir(up([])))
                await upper.rm(up([name]), { recursive: true, force: true });
            meta = { deleted: [], originals: {} };
            await flush();
        },
    };
    return { fs, control };
}
//# sourceMappingURL=overlay.js.map