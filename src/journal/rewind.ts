// Rewinding a conversation: every file it changed after a turn goes back to its state after that turn.
import { ToolError } from '../core/errors.js';
import type { FsPromises } from '../core/fs-port.js';
import type { JournalSetup, RewindConflict, RewindOptions, RewindResult } from '../core/journal-port.js';
import { checkOptions, describeValue, is, type OptionRules } from '../core/options.js';
import type { Platform } from '../core/platform.js';
import { dirname, isTemporaryFileName, joinPath, writeFileAtomic } from '../fs/paths.js';
import { diffImages } from './diff.js';
import { hashBytes, isContent, type ConversationJournal, type JournalInternals as ChangeJournal } from './model.js';
import type { StoredFileChange, StoredTurn } from './store.js';

/** What the journal's rewind needs of a file: the image to restore and the image the conversation left. */
interface PlanItem {
  /** The file's image after `toTurn`: the pre-image of its first change after it. */
  target: string;
  /** The post-image of the conversation's last change to it. */
  expected: string;
  /** The first change was a command's (see {@link StoredFileChange.command}). */
  command?: true | 'unlisted';
}

/** A file as it is now: its image and, for a file, its bytes (to put back if the rewind fails). */
interface Current {
  image: string;
  bytes?: Uint8Array;
  /** What is there when it is no regular file (`'a directory'`), for a conflict's note. */
  what?: string;
}

const REWIND_OPTION_RULES: OptionRules = {
  toTurn: is.required((value, name) =>
    Number.isSafeInteger(value) && (value as number) >= 0 ? undefined : `${name} must be a turn number (an integer, 0 or more), not ${describeValue(value)}`,
  ),
  dryRun: is.boolean,
  force: is.boolean,
};

/** What is at `path` now, read without keeping it: `'absent'`, `'unknown'` (not a file) or its hash and bytes. */
async function readNow(fs: FsPromises, path: string): Promise<Current> {
  try {
    const stats = await fs.lstat(path);
    if (!stats.isFile()) return { image: 'unknown', what: stats.isDirectory() ? 'a directory' : stats.isSymbolicLink() ? 'a symbolic link' : 'not a regular file' };
    const bytes = await fs.readFile(path);
    return { image: await hashBytes(bytes), bytes };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return { image: code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : 'unknown' };
  }
}

/** Runs `fn` holding the write lock of every path, taken in sorted order (so two rewinds never deadlock). */
function withLocks<T>(setup: JournalSetup, paths: readonly string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...paths].sort();
  const take = (i: number): Promise<T> => (i === sorted.length ? fn() : setup.withPathLock(sorted[i] as string, () => take(i + 1)));
  return take(0);
}

/** Per path the conversation changed after `toTurn`: the image to restore and the one it left. */
function planOf(journal: ChangeJournal, conversationId: string, toTurn: number): Map<string, PlanItem> {
  const plan = new Map<string, PlanItem>();
  for (const turn of journal.conversation(conversationId).turns) {
    if (turn.turn <= toTurn) continue;
    for (const call of turn.calls) {
      for (const file of call.files) {
        const item = plan.get(file.path);
        if (item) item.expected = file.after;
        else plan.set(file.path, file.command === undefined ? { target: file.before, expected: file.after } : { target: file.before, expected: file.after, command: file.command });
      }
    }
  }
  return plan;
}

/**
 * The mistake of a `toTurn` past the conversation's last turn, with the turns there are and where they
 * are listed: `rewind: conversation "c" has had 3 turns, the last turn 3; toTurn 9 is beyond it: give
 * toTurn from 0 (before its first change) to 3; changes("c") lists the turns that changed files`.
 */
function beyondLast(conversationId: string, last: number, toTurn: number): TypeError {
  const id = JSON.stringify(conversationId);
  const had = last === 0 ? 'has had no turns yet' : `has had ${last} turn${last === 1 ? '' : 's'}, the last turn ${last}`;
  const give = last === 0 ? 'give toTurn 0 (there is nothing to rewind yet)' : `give toTurn from 0 (before its first change) to ${last}`;
  return new TypeError(`rewind: conversation ${id} ${had}; toTurn ${toTurn} is beyond it: ${give}; changes(${id}) lists the turns that changed files`);
}

/**
 * Restores every file `conversationId` changed after turn `options.toTurn` to its state after that
 * turn, all or nothing (see docs/journal.md). A file whose content is not what the conversation left
 * is a conflict, left alone unless `force`. Throws a TypeError for bad options; rejects with ToolError
 * `execution_failed` when a write fails (every file written by then is put back first).
 */
export async function rewindConversation(journal: ChangeJournal, setup: JournalSetup, conversationId: string, options: RewindOptions): Promise<RewindResult> {
  if (typeof options !== 'object' || options === null) throw new TypeError(`rewind: options must be { toTurn, dryRun?, force? }, not ${describeValue(options)}`);
  checkOptions('rewind', options, REWIND_OPTION_RULES);
  const conversation = journal.conversation(conversationId);
  const { toTurn } = options;
  if (toTurn > conversation.last) throw beyondLast(conversationId, conversation.last, toTurn);
  const dropped = conversation.droppedThrough;
  if (dropped !== undefined && toTurn < dropped) return { restored: [], conflicts: [], unreachable: { note: droppedNote(dropped, toTurn, conversation), droppedThrough: dropped } };
  const plan = planOf(journal, conversationId, toTurn);
  const lost = [...plan].filter(([, item]) => item.target === 'unknown' && item.command === undefined).map(([path]) => path);
  if (lost.length > 0) {
    return { restored: [], conflicts: [], unreachable: { note: 'the journal did not keep what these files held (not a regular file, unreadable, over a quarter of the journal budget, or too many files in one directory)', paths: lost } };
  }
  // A command's change whose earlier content was not kept cannot be undone: the rest of the rewind goes on, and says so.
  const unkept = [...plan].filter(([, item]) => item.target === 'unknown').map(([path]) => path);
  for (const path of unkept) plan.delete(path);
  const result = plan.size === 0 ? { restored: [], conflicts: [] } : await withLocks(setup, [...plan.keys()], () => applyPlan(journal, conversationId, plan, options));
  return unkept.length === 0 ? result : withUnkept(result, unkept.sort());
}

/** Why a rewind to `toTurn`, before the conversation's dropped turns (through `dropped`), cannot be done. */
function droppedNote(dropped: number, toTurn: number, conversation: ConversationJournal): string {
  const { lostThrough: lost, unstored } = conversation;
  if (lost === undefined || toTurn >= lost) return `turns up to ${dropped} of this conversation were dropped to keep the journal within its byte budget; rewind to turn ${dropped} or later`;
  const upTo = dropped === lost ? '' : ` (and turns up to ${dropped} were dropped)`;
  const why =
    unstored?.turn === lost
      ? `could not be stored (${unstored.reason}), so what it changed cannot be undone`
      : `was lost: the journal's record of it, or a file content it refers to, is missing or damaged, or could not be stored`;
  return `turn ${lost} of this conversation ${why}; it and every turn before it count as dropped${upTo}; rewind to turn ${dropped} or later`;
}

/** What a rewind says of files a command changed whose earlier content the journal did not keep. */
const UNKEPT_NOTE =
  'a command changed these files and the journal did not keep what they held before it, so they were left as they are (a folder: the command ran while it held too many files to list, so what it changed there is not known)';

/** `result` with the command-changed files it could not restore added to `unreachable.paths`. */
function withUnkept(result: RewindResult, unkept: string[]): RewindResult {
  const found = result.unreachable;
  if (found === undefined) return { ...result, unreachable: { note: UNKEPT_NOTE, paths: unkept } };
  return { ...result, unreachable: { ...found, note: `${found.note}; ${UNKEPT_NOTE}`, paths: [...(found.paths ?? []), ...unkept] } };
}

/** The rewind itself, under the paths' locks: check every file, then write, then record the rewind as a turn. */
async function applyPlan(journal: ChangeJournal, conversationId: string, plan: Map<string, PlanItem>, options: RewindOptions): Promise<RewindResult> {
  const fs = journal.platform.fs;
  const current = new Map<string, Current>();
  await Promise.all([...plan.keys()].map(async (path) => current.set(path, await readNow(fs, path))));
  const restore: string[] = [];
  const conflicts: RewindConflict[] = [];
  for (const [path, { target, expected }] of plan) {
    const now = current.get(path) as Current;
    if (now.image === target) continue;
    // An unknown image matches nothing: what is there may differ from what the conversation left.
    if ((now.image === expected && expected !== 'unknown') || options.force === true) restore.push(path);
    else conflicts.push({ path, diff: await diffImages(journal, path, expected, now.image, now.bytes, now.what) });
  }
  if (options.dryRun === true || restore.length === 0) return { restored: restore, conflicts };
  const targets = new Map<string, Uint8Array | undefined>();
  const missing: string[] = [];
  await eachAtOnce(restore, async (path) => {
    const { target } = plan.get(path) as PlanItem;
    const bytes = isContent(target) ? await journal.blob(target) : undefined;
    if (isContent(target) && bytes === undefined) missing.push(path);
    targets.set(path, bytes);
  });
  missing.sort();
  if (missing.length > 0) return { restored: [], conflicts, unreachable: { note: 'the journal no longer holds intact what these files held (its copy is missing or damaged); nothing was changed', paths: missing } };
  // What is there now is kept before anything is written: the rewind's own turn goes back to it.
  const held: string[] = [];
  try {
    const files: StoredFileChange[] = [];
    for (const path of restore) {
      const now = current.get(path) as Current;
      if (now.bytes !== undefined) {
        await journal.retainHashed(now.image, now.bytes);
        held.push(now.image);
      }
      files.push({ path, before: now.image, after: (plan.get(path) as PlanItem).target });
    }
    const turn = await journal.beginRewind(conversationId, files).catch((error: unknown) => {
      throw new ToolError('execution_failed', `rewind could not store its record of the rewind under way (${(error as Error).message}); nothing was changed`);
    });
    let done = false;
    try {
      await writeAll(journal, restore, targets, current);
      done = true;
    } finally {
      journal.endRewind(turn, done);
    }
    return { restored: restore, conflicts, turn: turn.turn };
  } finally {
    for (const image of held) journal.release(image);
  }
}

/** Writes `bytes` to `path` whole (making its folder unless `folderThere`), or removes it when `bytes` is undefined. */
async function putFile(fs: FsPromises, path: string, bytes: Uint8Array | undefined, inPlace: boolean, folderThere = false): Promise<void> {
  if (bytes === undefined) await fs.rm(path, { force: true });
  else {
    if (!folderThere) await fs.mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(fs, path, bytes, inPlace);
  }
}

/** How many files a rewind reads or writes at once (the platform's I/O overlaps; Node's thread pool has 4 threads). */
const AT_ONCE = 8;

/**
 * Runs `fn` for each of `items`, at most {@link AT_ONCE} at a time, in order of start; once one
 * rejects no further one starts, and it rejects with that first error after those started settled.
 */
async function eachAtOnce<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (next < items.length && failure === undefined) {
      const item = items[next++] as T;
      await fn(item).catch((error: unknown) => {
        failure ??= { error };
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, lane));
  if (failure) throw failure.error;
}

/**
 * Writes (or removes) each file of `restore`, several at once; on a failure puts back every file
 * whose write had started and rejects.
 */
async function writeAll(journal: ChangeJournal, restore: readonly string[], targets: Map<string, Uint8Array | undefined>, current: Map<string, Current>): Promise<void> {
  const { fs } = journal.platform;
  const inPlace = journal.platform.atomicWrites === true;
  const put = (path: string, bytes: Uint8Array | undefined): Promise<void> => putFile(fs, path, bytes, inPlace);
  const written: string[] = [];
  let failed = 'a file';
  // Only what the rewind read can be put back: nothing, or a file's bytes (never a directory or link).
  const restorable = (path: string): boolean => current.get(path)?.image === 'absent' || current.get(path)?.bytes !== undefined;
  try {
    await eachAtOnce(restore, async (path) => {
      written.push(path);
      // A file read there a moment ago (under the lock) has its folder.
      await putFile(fs, path, targets.get(path), inPlace, isContent(current.get(path)?.image ?? '')).catch((error: unknown) => {
        if (failed === 'a file') failed = path;
        throw error;
      });
      journal.noteWrite?.(path);
    });
    await journal.platform.flush?.();
  } catch (error) {
    const unrestored: string[] = [];
    for (const path of written.reverse()) {
      const putBack = restorable(path) ? put(path, current.get(path)?.bytes).then(() => true, () => false) : Promise.resolve(false);
      // A file the failed write never touched (an atomic write fails whole) is as it was: nothing to put back.
      if (!(await putBack) && (await readNow(fs, path)).image !== current.get(path)?.image) unrestored.push(path);
    }
    const left = unrestored.length > 0 ? `; these could not be put back and are as the failed write left them: ${unrestored.join(', ')}` : '; every file written was put back';
    throw new ToolError('execution_failed', `rewind could not write ${failed} (${(error as Error).message})${left}`);
  }
}

/**
 * Finishes a rewind a stopped process left under way (its turn as the store's `putRewind` kept
 * it): every file still as the rewind found it (`before`) is written to its target (`after`); a file
 * already at its target is left; a file changed since by someone else is left too, and left out of
 * the answer. Temporary files of interrupted atomic writes beside the rewind's files are removed.
 * Answers the rewind's turn with the files now at their targets. `blobOf` answers a target's bytes
 * when the store holds them intact (else the file is left out).
 */
export async function finishRewind(platform: Platform, blobOf: (image: string) => Promise<Uint8Array | undefined>, rewind: StoredTurn): Promise<StoredTurn> {
  const { fs } = platform;
  const inPlace = platform.atomicWrites === true;
  const folders = new Set<string>();
  const calls = [];
  for (const call of rewind.calls) {
    const files: StoredFileChange[] = [];
    for (const file of call.files) {
      folders.add(dirname(file.path));
      let now = (await readNow(fs, file.path)).image;
      if (now === file.before && now !== file.after) {
        const bytes = isContent(file.after) ? await blobOf(file.after) : undefined;
        if (isContent(file.after) && bytes === undefined) continue;
        now = await putFile(fs, file.path, bytes, inPlace).then(
          () => file.after,
          async () => (await readNow(fs, file.path)).image,
        );
      }
      if (now === file.after) files.push(file);
    }
    calls.push({ ...call, files });
  }
  await platform.flush?.();
  for (const folder of folders) {
    const names = await fs.readdir(folder).catch(() => [] as string[]);
    for (const name of names) if (isTemporaryFileName(name)) await fs.rm(joinPath(folder, name), { force: true }).catch(() => undefined);
  }
  return { ...rewind, calls };
}
