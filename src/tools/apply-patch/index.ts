import { ToolError, toToolError } from '../../core/errors.js';
import { fingerprintBytes } from '../../core/file-cache.js';
import type { ToolContext } from '../../core/tool.js';
import { dirname, resolveWorkspacePath, statOrNull, writeFileAtomic } from '../../fs/paths.js';
import { clipForMessage, decodeText, encodeText } from '../../fs/text.js';
import { quoteForMessage } from '../../core/message-text.js';
import type { FsStats } from '../../core/types.js';
import { unchangedSince } from '../edit/unchanged.js';
import { applyChunks } from './apply.js';
import type { PatchOperation } from './parse.js';

export { parsePatch, parseChunks, parseCreateDiff, checkOperationPath, type PatchChunk, type PatchOperation } from './parse.js';
export { applyChunks, seekLines } from './apply.js';

/** Largest file a patch updates, in bytes (32 MiB, as `edit_file`). */
export const PATCH_MAX_FILE_BYTES = 32 * 1024 * 1024;

/**
 * The `too_large` of an `*** Add File` whose content is over {@link PATCH_MAX_FILE_BYTES}: no patch
 * could change that file afterwards. Only the OpenAI profile patches: its shell is the way to write one.
 */
function tooLargeToAdd(path: string, size: number): ToolError {
  return new ToolError(
    'too_large',
    `${clipForMessage(path)} would be ${size} bytes; patches apply to files up to ${PATCH_MAX_FILE_BYTES} bytes, so "*** Add File:" adds none larger: ` +
      'split the content into smaller files, or write it with shell where commands run (a script that generates it, or appends it in parts); nothing was changed',
  );
}

/**
 * The `too_large` of an `*** Update File` that would make the file over {@link PATCH_MAX_FILE_BYTES}:
 * no patch could change it afterwards. In the OpenAI profile's words, as {@link tooLargeToAdd}.
 */
function tooLargeToUpdate(path: string, size: number): ToolError {
  return new ToolError(
    'too_large',
    `${clipForMessage(path)} would be ${size} bytes after the patch; patches apply to files up to ${PATCH_MAX_FILE_BYTES} bytes, so "*** Update File:" makes none larger: ` +
      'make the change with shell (sed, or a short script) where commands run, or split the file into smaller files; nothing was changed',
  );
}

/** One file a patch changed, as the result lists it. */
export interface PatchChange {
  /** `A` added, `M` modified (or moved), `D` deleted: the letters of Codex's summary. */
  action: 'A' | 'M' | 'D';
  /** Absolute workspace path (the new path of a moved file). */
  path: string;
  /** The path the file was moved from, for `*** Move to:`. */
  moved_from?: string;
}

/** Result of applying a patch: Codex's summary text and the files changed, in patch order. */
export interface PatchResult {
  output: string;
  changes: PatchChange[];
}

interface Planned {
  path: string;
  /** What was read of the file (null: it did not exist), checked again just before the writes. */
  read: { stats: FsStats; bytes: Uint8Array } | null;
  /** Bytes before (null: the file did not exist). */
  before: Uint8Array | null;
  /** Bytes after (null: the file is removed). */
  after: Uint8Array | null;
  /** A symbolic link removed as itself, never followed: the target text it held (checked again before the writes, restored on failure). */
  link?: string;
  /** Only checked again before the writes, never written: the file a moved link pointed to, whose content the move wrote elsewhere. */
  checkOnly?: boolean;
}

/**
 * One operation with its paths resolved. `source` is the filesystem entry it changes: for a Delete and
 * for a Move's source it is resolved without following a final symbolic link (so a link is removed or
 * moved as itself, as Codex's `remove_file` does), for an update in place it is the file written
 * (links followed, as the built-ins write through them). `path` is where the content is read: the
 * followed path, except for a Delete (`source`: it reads no link's target).
 */
interface Resolved {
  op: PatchOperation;
  path: string;
  source: string;
  moveTo: string | undefined;
}

/**
 * Refuses (`invalid_arguments`) two operations that name one file in two spellings (`a.txt` and
 * `./a.txt`, an absolute path, `sub/../a.txt`, a link and its target): the parser refuses a path
 * written twice, but each operation is computed from the file as it was, so the later write would
 * silently undo the earlier. An operation claims each filesystem entry it reads or changes: the file
 * it updates, a move's target, a moved link and the file the link pointed to (whose content it
 * moves). A Delete of a symbolic link claims the link only (it neither reads nor changes the
 * target), so deleting `ln.txt` and updating its target `t.txt` in one patch name two entries and
 * both apply, in either order with one result.
 */
function refuseAliases(resolved: readonly Resolved[]): void {
  const claimed = new Map<string, string>();
  const claim = (path: string, spelled: string): void => {
    const earlier = claimed.get(path);
    if (earlier !== undefined) {
      throw new ToolError(
        'invalid_arguments',
        `${quoteForMessage(earlier)} and ${quoteForMessage(spelled)} name one file (${clipForMessage(path)}) in two operations of one patch; put all changes to a file in one "*** Update File:" section; nothing was changed`,
      );
    }
    claimed.set(path, spelled);
  };
  for (const { op, path, source, moveTo } of resolved) {
    const own = new Map<string, string>([[source, op.path]]);
    if (op.type === 'update') {
      if (!own.has(path)) own.set(path, op.path);
      if (moveTo !== undefined && !own.has(moveTo)) own.set(moveTo, op.moveTo ?? moveTo);
    }
    for (const [entry, spelled] of own) claim(entry, spelled);
  }
}

/**
 * Resolves every operation's paths inside the workspace (see {@link Resolved}). A Move's source
 * that is a link to a file outside the workspace is `outside_workspace`, as its content would be
 * read through it; a Delete of such a link removes the link only, reading nothing.
 */
async function resolveOperations(ctx: ToolContext, operations: readonly PatchOperation[]): Promise<Resolved[]> {
  const scope = { fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd };
  const options = { argName: 'patch path' };
  return Promise.all(
    operations.map(async (op) => {
      if (op.type === 'delete') {
        const source = await resolveWorkspacePath(scope, op.path, { ...options, followFinal: false });
        return { op, path: source, source, moveTo: undefined };
      }
      const path = await resolveWorkspacePath(scope, op.path, options);
      if (op.type !== 'update' || op.moveTo === undefined) return { op, path, source: path, moveTo: undefined };
      const source = await resolveWorkspacePath(scope, op.path, { ...options, followFinal: false });
      return { op, path, source, moveTo: await resolveWorkspacePath(scope, op.moveTo, options) };
    }),
  );
}

/** The link at `path` (lstat, never followed): its target text, or null when `path` is not a symbolic link. */
async function linkAt(ctx: ToolContext, path: string): Promise<string | null> {
  let stats: FsStats;
  try {
    stats = await ctx.fs.lstat(path);
  } catch (error) {
    if (toToolError(error).code === 'not_found') return null;
    throw error;
  }
  return stats.isSymbolicLink() ? ctx.fs.readlink(path) : null;
}

/** Whether a planned step's entry still holds what was read: the same link target for a link, else {@link unchangedSince}. */
async function stepUnchanged(ctx: ToolContext, step: Planned): Promise<boolean> {
  if (step.link !== undefined) return (await linkAt(ctx, step.path)) === step.link;
  return unchangedSince(ctx.fs, step.path, step.read);
}

/**
 * Writes the planned steps in order (a link is unlinked, never followed); if one fails, puts back
 * those already written (a removed link is made again) and throws the failure.
 */
async function writePlanned(ctx: ToolContext, planned: readonly Planned[]): Promise<void> {
  const inPlace = ctx.platform.atomicWrites === true;
  const done: Planned[] = [];
  try {
    for (const step of planned) {
      if (step.checkOnly === true) continue;
      if (step.link !== undefined) await ctx.fs.unlink(step.path);
      else if (step.after === null) await ctx.fs.rm(step.path);
      else {
        if (step.before === null) await ctx.fs.mkdir(dirname(step.path), { recursive: true });
        await writeFileAtomic(ctx.fs, step.path, step.after, inPlace);
      }
      done.push(step);
    }
  } catch (error) {
    for (const step of done.reverse()) {
      try {
        if (step.link !== undefined) await ctx.fs.symlink(step.link, step.path);
        else if (step.before === null) await ctx.fs.rm(step.path, { force: true });
        else await writeFileAtomic(ctx.fs, step.path, step.before, inPlace);
      } catch {
        // Best effort: the original error is the one to report.
      }
    }
    const failure = toToolError(error);
    throw new ToolError(failure.code, `the patch could not be written (${failure.message}); the files it had changed were restored`);
  }
}

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
 * An `*** Add File` or `*** Move to:` onto an existing file replaces it, as Codex does, unless this
 * conversation read that file and it has changed since (`stale_file`).
 *
 * Symbolic links, as Codex: a Delete of a link removes the link itself (its target is never read); a
 * Move whose source is a link writes the content read through it at the destination and removes the
 * link, leaving the file it pointed to as it was (checked unchanged with the rest); an update in place
 * writes through a link, as the built-ins do. Content is never read or written through a link that
 * leaves the workspace (`outside_workspace`). See {@link refuseAliases} for links and targets named
 * in one patch.
 *
 * Errors: `not_found` (update or delete of a missing file), `no_match` (a hunk that does not apply, quoting the line), `binary_file`,
 * `is_a_directory`, `too_large` (a file to update, or the content of an added or updated one, over 32 MiB), `outside_workspace`, `stale_file`, `cancelled`.
 */
export async function applyPatchOperations(ctx: ToolContext, operations: readonly PatchOperation[]): Promise<PatchResult> {
  const resolved = await resolveOperations(ctx, operations);
  refuseAliases(resolved);
  const paths = [...new Set(resolved.flatMap((r) => [r.path, r.source, ...(r.moveTo === undefined ? [] : [r.moveTo])]))].sort();
  const locked = (i: number): Promise<PatchResult> =>
    i === paths.length ? plan() : ctx.withPathLock(paths[i] as string, () => locked(i + 1));

  const readText = async (path: string): Promise<{ stats: FsStats; bytes: Uint8Array; text: string; bom: boolean }> => {
    const stats = await statOrNull(ctx.fs, path);
    const where = clipForMessage(path);
    if (stats === null) throw new ToolError('not_found', `${where} does not exist; use "*** Add File:" to create it, or check the path`);
    if (stats.isDirectory()) throw new ToolError('is_a_directory', `${where} is a directory; patch the files inside it`);
    if (stats.size > PATCH_MAX_FILE_BYTES) {
      // Only the OpenAI profile patches: its shell is the way to change a file this size.
      throw new ToolError(
        'too_large',
        `${where} is ${stats.size} bytes; patches apply to files up to ${PATCH_MAX_FILE_BYTES} bytes: change it with shell (sed, or a short script) where commands run, or split it into smaller files`,
      );
    }
    const bytes = await ctx.fs.readFile(path);
    const decoded = decodeText(bytes);
    if (decoded === null) throw new ToolError('binary_file', `${where} is a binary file (a NUL byte or invalid UTF-8); patches apply to UTF-8 text only`);
    return { stats, bytes, ...decoded };
  };
  /**
   * What a file about to be written over (by `*** Add File` or `*** Move to:`) holds now: null when it
   * does not exist. As Codex, an existing file is overwritten, unless this conversation read it and it
   * has changed since (`stale_file`), so changes the model never saw are not lost.
   */
  const overwritable = async (path: string, what: string): Promise<{ stats: FsStats; bytes: Uint8Array } | null> => {
    const stats = await statOrNull(ctx.fs, path);
    if (stats === null) return null;
    if (stats.isDirectory()) throw new ToolError('is_a_directory', `${clipForMessage(path)} is a directory, so it cannot be ${what}; choose a file path`);
    const bytes = await ctx.fs.readFile(path);
    const known = ctx.fileCache.get(path);
    if (known !== undefined && known !== (await fingerprintBytes(bytes))) {
      throw new ToolError('stale_file', `${clipForMessage(path)} has changed since you last read it, so it was not ${what}; read it again, then retry the patch`);
    }
    return { stats, bytes };
  };

  async function plan(): Promise<PatchResult> {
    const planned: Planned[] = [];
    const changes: PatchChange[] = [];
    for (const { op, path, source, moveTo } of resolved) {
      if (op.type === 'add') {
        const after = encodeText(op.content);
        if (after.length > PATCH_MAX_FILE_BYTES) throw tooLargeToAdd(path, after.length);
        const existing = await overwritable(path, 'replaced by "*** Add File:"');
        planned.push({ path, read: existing, before: existing?.bytes ?? null, after });
        changes.push({ action: 'A', path });
      } else if (op.type === 'delete') {
        const link = await linkAt(ctx, path);
        if (link !== null) {
          // The link itself goes, as `rm` and Codex's `remove_file` do: its target is never read.
          planned.push({ path, read: null, before: null, after: null, link });
          changes.push({ action: 'D', path });
          continue;
        }
        const { stats, bytes } = await readText(path);
        const known = ctx.fileCache.get(path);
        if (known !== undefined && known !== (await fingerprintBytes(bytes))) {
          throw new ToolError('stale_file', `${clipForMessage(path)} has changed since you last read it; read it again before deleting it`);
        }
        planned.push({ path, read: { stats, bytes }, before: bytes, after: null });
        changes.push({ action: 'D', path });
      } else {
        const file = await readText(path);
        const text = op.chunks.length === 0 ? file.text : applyChunks(file.text, op.chunks, op.path);
        const after = encodeText(text, file.bom);
        if (after.length > PATCH_MAX_FILE_BYTES) throw tooLargeToUpdate(moveTo ?? path, after.length);
        if (moveTo !== undefined && moveTo !== source) {
          const existing = await overwritable(moveTo, 'replaced by "*** Move to:"');
          planned.push({ path: moveTo, read: existing, before: existing?.bytes ?? null, after });
          if (source === path) planned.push({ path, read: file, before: file.bytes, after: null });
          else {
            // A moved link: the content read through it goes to the destination, the link itself is
            // removed and the file it pointed to stays (checked unchanged, never written).
            const link = await linkAt(ctx, source);
            if (link === null) throw new ToolError('stale_file', `${clipForMessage(source)} changed while apply_patch was reading it; nothing was written. Retry the patch`);
            planned.push({ path, read: file, before: file.bytes, after: file.bytes, checkOnly: true }, { path: source, read: null, before: null, after: null, link });
          }
          changes.push({ action: 'M', path: moveTo, moved_from: source });
        } else {
          planned.push({ path, read: file, before: file.bytes, after });
          changes.push({ action: 'M', path });
        }
      }
    }
    const hashes = await Promise.all(planned.map((p) => (p.after === null || p.checkOnly === true ? null : fingerprintBytes(p.after))));
    // Another writer (an editor, a process without the lock) may have changed a file since it was read.
    for (const step of planned) {
      if (!(await stepUnchanged(ctx, step))) {
        throw new ToolError(
          'stale_file',
          `${clipForMessage(step.path)} ${step.read === null && step.link === undefined ? 'was created' : 'changed'} while apply_patch was applying the patch; nothing was written. Read it again, then retry the patch`,
        );
      }
    }
    if (ctx.signal.aborted) throw new ToolError('cancelled', 'apply_patch was cancelled before writing; nothing was changed');
    await writePlanned(ctx, planned);
    planned.forEach((step, i) => {
      if (step.checkOnly === true) return;
      const hash = hashes[i];
      if (hash === null || hash === undefined) ctx.fileCache.delete(step.path);
      else ctx.fileCache.set(step.path, hash);
    });
    const output = `Success. Updated the following files:\n${changes.map((c) => `${c.action} ${c.path}`).join('\n')}\n`;
    return { output, changes };
  }

  return locked(0);
}
