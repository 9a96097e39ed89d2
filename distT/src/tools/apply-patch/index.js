import { ToolError, toToolError } from '../../core/errors.js';
import { fingerprintBytes } from '../../core/file-cache.js';
import { dirname, resolveWorkspacePath, statOrNull, writeFileAtomic } from '../../fs/paths.js';
import { clipForMessage, decodeText, encodeText } from '../../fs/text.js';
import { unchangedSince } from '../edit/unchanged.js';
import { applyChunks } from './apply.js';
export { parsePatch, parseChunks, parseCreateDiff, checkOperationPath } from './parse.js';
export { applyChunks, seekLines } from './apply.js';
/** Largest file a patch updates, in bytes (32 MiB, as `edit_file`). */
export const PATCH_MAX_FILE_BYTES = 32 * 1024 * 1024;
/**
 * Applies parsed patch operations to the workspace all or nothing: every path is resolved inside the
 * workspace (`resolveWorkspacePath`, so confinement and symlink rules are the built-ins'), every file
 * is read and every new content computed before anything is written, under the write locks of all
 * the paths. Just before the writes every file is checked again against what was read (its stats, or
 * its content where they differ; an added file still absent): one changed by another writer meanwhile
 * is `stale_file` and nothing is written. If a write then fails, the files already written are put
 * back. Writes are atomic per file and keep each file's BOM and line endings; the file cache records
 * the new hashes, and a file this conversation viewed that has changed since is `stale_file` for a delete.
 *
 * Errors: `not_found` (update or delete of a missing file), `already_exists` (add or move onto an
 * existing file), `no_match` (a hunk that does not apply, quoting the line), `binary_file`,
 * `is_a_directory`, `too_large`, `outside_workspace`, `stale_file`, `cancelled`.
 */
export async function applyPatchOperations(ctx, operations) {
    const scope = { fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd };
    const resolved = await Promise.all(operations.map(async (op) => ({
        op,
        path: await resolveWorkspacePath(scope, op.path, { argName: 'patch path' }),
        moveTo: op.type === 'update' && op.moveTo !== undefined ? await resolveWorkspacePath(scope, op.moveTo, { argName: 'patch path' }) : undefined,
    })));
    const paths = [...new Set(resolved.flatMap((r) => (r.moveTo === undefined ? [r.path] : [r.path, r.moveTo])))].sort();
    const locked = (i) => i === paths.length ? plan() : ctx.withPathLock(paths[i], () => locked(i + 1));
    const readText = async (path) => {
        const stats = await statOrNull(ctx.fs, path);
        const where = clipForMessage(path);
        if (stats === null)
            throw new ToolError('not_found', `${where} does not exist; use "*** Add File:" to create it, or check the path`);
        if (stats.isDirectory())
            throw new ToolError('is_a_directory', `${where} is a directory; patch the files inside it`);
        if (stats.size > PATCH_MAX_FILE_BYTES)
            throw new ToolError('too_large', `${where} is ${stats.size} bytes; patches apply to files up to ${PATCH_MAX_FILE_BYTES} bytes`);
        const bytes = await ctx.fs.readFile(path);
        const decoded = decodeText(bytes);
        if (decoded === null)
            throw new ToolError('binary_file', `${where} is a binary file (a NUL byte or invalid UTF-8); patches apply to UTF-8 text only`);
        return { stats, bytes, ...decoded };
    };
    const mustBeFree = async (path, what) => {
        if ((await statOrNull(ctx.fs, path)) !== null) {
            throw new ToolError('already_exists', `${clipForMessage(path)} already exists, so it cannot be ${what}; use "*** Update File:" to change it`);
        }
    };
    async function plan() {
        const planned = [];
        const changes = [];
        for (const { op, path, moveTo } of resolved) {
            if (op.type === 'add') {
                await mustBeFree(path, 'added');
                planned.push({ path, read: null, before: null, after: encodeText(op.content) });
                changes.push({ action: 'A', path });
            }
            else if (op.type === 'delete') {
                const { stats, bytes } = await readText(path);
                const known = ctx.fileCache.get(path);
                if (known !== undefined && known !== (await fingerprintBytes(bytes))) {
                    throw new ToolError('stale_file', `${clipForMessage(path)} has changed since you last read it; read it again before deleting it`);
                }
                planned.push({ path, read: { stats, bytes }, before: bytes, after: null });
                changes.push({ action: 'D', path });
            }
            else {
                const file = await readText(path);
                const text = op.chunks.length === 0 ? file.text : applyChunks(file.text, op.chunks, op.path);
                const after = encodeText(text, file.bom);
                if (moveTo !== undefined && moveTo !== path) {
                    await mustBeFree(moveTo, 'the target of "*** Move to:"');
                    planned.push({ path: moveTo, read: null, before: null, after }, { path, read: file, before: file.bytes, after: null });
                    changes.push({ action: 'M', path: moveTo, moved_from: path });
                }
                else {
                    planned.push({ path, read: file, before: file.bytes, after });
                    changes.push({ action: 'M', path });
                }
            }
        }
        const hashes = await Promise.all(planned.map((p) => (p.after === null ? null : fingerprintBytes(p.after))));
        // Another writer (an editor, a process without the lock) may have changed a file since it was read.
        for (const step of planned) {
            if (!(await unchangedSince(ctx.fs, step.path, step.read))) {
                throw new ToolError('stale_file', `${clipForMessage(step.path)} ${step.read === null ? 'was created' : 'changed'} while apply_patch was applying the patch; nothing was written. Read it again, then retry the patch`);
            }
        }
        if (ctx.signal.aborted)
            throw new ToolError('cancelled', 'apply_patch was cancelled before writing; nothing was changed');
        const done = [];
        try {
            for (const step of planned) {
                if (step.after === null)
                    await ctx.fs.rm(step.path);
                else {
                    if (step.before === null)
                        await ctx.fs.mkdir(dirname(step.path), { recursive: true });
                    await writeFileAtomic(ctx.fs, step.path, step.after, ctx.platform.atomicWrites === true);
                }
                done.push(step);
            }
        }
        catch (error) {
            for (const step of done.reverse()) {
                try {
                    if (step.before === null)
                        await ctx.fs.rm(step.path, { force: true });
                    else
                        await writeFileAtomic(ctx.fs, step.path, step.before, ctx.platform.atomicWrites === true);
                }
                catch {
                    // Best effort: the original error is the one to report.
                }
            }
            const failure = toToolError(error);
            throw new ToolError(failure.code, `the patch could not be written (${failure.message}); the files it had changed were restored`);
        }
        planned.forEach((step, i) => {
            const hash = hashes[i];
            if (hash === null || hash === undefined)
                ctx.fileCache.delete(step.path);
            else
                ctx.fileCache.set(step.path, hash);
        });
        const output = `Success. Updated the following files:\n${changes.map((c) => `${c.action} ${c.path}`).join('\n')}\n`;
        return { output, changes };
    }
    return locked(0);
}
//# sourceMappingURL=index.js.map