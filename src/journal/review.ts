// Review mode: a conversation's writes are staged (see review-fs.ts); the host lists them as hunks,
// accepts some into the workspace (recorded in the change journal) and rejects others (the model is
// told on its next call).
import { ToolError, toToolError } from '../core/errors.js';
import type { FsPromises } from '../core/fs-port.js';
import type {
  AcceptResult,
  JournalTurn,
  PendingChanges,
  PendingFile,
  PendingHunk,
  RejectOptions,
  RejectResult,
  ReviewConflict,
  ReviewPort,
  ReviewSelection,
  ReviewSetup,
  StagedView,
} from '../core/journal-port.js';
import { describeValue } from '../core/options.js';
import type { Platform } from '../core/platform.js';
import { dirname, writeFileAtomic } from '../fs/paths.js';
import { applyRegions, diffLines, groupHunks, hunkHeader, hunkText, splitLines, textOf, type LineHunk, type Region } from './review-hunks.js';
import { sameBytes, StagedFs, StagedLayer, stagedPlatform, type StagedFile } from './review-fs.js';

/** Characters of one rejected hunk's diff put in the model's note; the rest is cut with a marker. */
const NOTE_HUNK_CHARS = 2_000;
/** Characters of a whole note's body; past it the rest is cut with a marker. */
const NOTE_CHARS = 12_000;
/** The first line of every note. */
const NOTE_HEAD = 'Review: the user rejected changes you made. The files below are as described now; read them again before changing them further.';

/** A staged file worked out: its hunks, with the line regions each covers (none: the whole file). */
interface Described {
  path: string;
  file: StagedFile;
  kind: PendingFile['kind'];
  hunks: PendingHunk[];
  /** Per hunk its regions, for a text change; undefined: each hunk is the whole file. */
  regions: Region[][] | undefined;
  oldLines: string[];
  newLines: string[];
  diff: string;
}

/**
 * Makes the review mode of a runner over `platform` (the package's runner's default). With `shared`,
 * every conversation's staged layer is that one (a staging kept by the platform itself, such as the
 * web overlay's): the review lists, accepts into `platform.fs` and rejects its changes.
 */
export function createReview(platform: Platform, setup: ReviewSetup, shared?: StagedLayer): ReviewPort {
  return new Review(platform, setup, shared);
}

/** Describes a staged file: kind, hunks (ids `<tag>.<version>.<n>`), whole diff. */
function describe(path: string, file: StagedFile): Described {
  const kind: PendingFile['kind'] = file.base === null ? 'create' : file.content === null ? 'delete' : 'modify';
  const before = textOf(file.base);
  const after = textOf(file.content);
  const id = (n: number): string => `${file.tag}.${file.version}.${n}`;
  const heads = `--- ${file.base === null ? '/dev/null' : path}\n+++ ${file.content === null ? '/dev/null' : path}\n`;
  if (before === null || after === null) {
    const size = (bytes: Uint8Array | null): string => (bytes === null ? 'absent' : `${bytes.byteLength} bytes`);
    const note = `(binary file ${path}: ${size(file.base)} before, ${size(file.content)} staged)`;
    return { path, file, kind, hunks: [{ id: id(1), oldStart: 0, oldLines: 0, newStart: 0, newLines: 0, diff: note }], regions: undefined, oldLines: [], newLines: [], diff: note };
  }
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const lineHunks = groupHunks(diffLines(oldLines, newLines), oldLines.length, newLines.length);
  const toHunk = (hunk: LineHunk, n: number): PendingHunk => ({
    id: id(n),
    oldStart: hunk.oldTo === hunk.oldFrom ? hunk.oldFrom : hunk.oldFrom + 1,
    oldLines: hunk.oldTo - hunk.oldFrom,
    newStart: hunk.newTo === hunk.newFrom ? hunk.newFrom : hunk.newFrom + 1,
    newLines: hunk.newTo - hunk.newFrom,
    diff: hunkText(hunk, oldLines, newLines),
  });
  const hunks = lineHunks.map((hunk, i) => toHunk(hunk, i + 1));
  if (kind === 'modify' && hunks.length > 0) {
    return { path, file, kind, hunks, regions: lineHunks.map((hunk) => hunk.regions), oldLines, newLines, diff: heads + hunks.map((h) => h.diff).join('') };
  }
  // A created or removed file is one hunk, the whole file (an empty one too).
  const whole = hunks[0] ?? { id: id(1), oldStart: 0, oldLines: 0, newStart: 0, newLines: 0, diff: `${hunkHeader(0, 0, 0, 0)}(empty file)\n` };
  whole.id = id(1);
  return { path, file, kind, hunks: [whole], regions: undefined, oldLines, newLines, diff: heads + whole.diff };
}

/** Unified diff from `from` to `to` (null: no file), for a conflict. */
function diffOf(path: string, from: Uint8Array | null, to: Uint8Array | null): string {
  const a = textOf(from);
  const b = textOf(to);
  if (a === null || b === null) return `(binary file ${path} changed in the workspace)`;
  const oldLines = splitLines(a);
  const newLines = splitLines(b);
  const hunks = groupHunks(diffLines(oldLines, newLines), oldLines.length, newLines.length);
  return `--- ${from === null ? '/dev/null' : path}\n+++ ${to === null ? '/dev/null' : path}\n${hunks.map((hunk) => hunkText(hunk, oldLines, newLines)).join('')}`;
}

/** What is at `path` in the workspace: its bytes, or null when no file is there. */
async function workspaceBytes(fs: FsPromises, path: string): Promise<Uint8Array | null> {
  try {
    return await fs.readFile(path);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/** Checks a selection's shape (the host's mistake: a TypeError naming it). */
function checkSelection(method: string, selection: unknown, reason: boolean): asserts selection is RejectOptions {
  if (typeof selection !== 'object' || selection === null || Array.isArray(selection)) {
    throw new TypeError(`${method}: the selection must be an object { paths?, hunks?${reason ? ', reason?' : ''} } ({} takes every pending change), not ${describeValue(selection)}`);
  }
  const given = selection as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (key !== 'paths' && key !== 'hunks' && !(reason && key === 'reason')) throw new TypeError(`${method}: unknown option ${JSON.stringify(key)}; the selection takes paths, hunks${reason ? ' and reason' : ''}`);
  }
  for (const key of ['paths', 'hunks'] as const) {
    const list = given[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((item) => typeof item !== 'string'))) {
      throw new TypeError(`${method}: ${key} must be an array of strings (as pendingChanges() lists them), not ${describeValue(list)}`);
    }
  }
  if (reason && given.reason !== undefined && typeof given.reason !== 'string') throw new TypeError(`${method}: reason must be a string, not ${describeValue(given.reason)}`);
}

/** The hunks a selection takes, per file: `'all'` or hunk numbers (1-based). */
type Chosen = Map<string, 'all' | Set<number>>;

/** Review mode of one runner: see {@link createReview}. */
class Review implements ReviewPort {
  readonly #platform: Platform;
  readonly #setup: ReviewSetup;
  readonly #layers = new Map<string, { layer: StagedLayer; view: StagedView }>();
  /** Per conversation, the notes not yet given to the model, oldest first. */
  readonly #notes = new Map<string, string[]>();
  /** The one layer of every conversation, when the platform keeps the staging. */
  readonly #shared: StagedLayer | undefined;

  constructor(platform: Platform, setup: ReviewSetup, shared?: StagedLayer) {
    this.#platform = platform;
    this.#setup = setup;
    this.#shared = shared;
  }

  /** The staged layer of `conversationId`, when it has one. */
  #layerOf(conversationId: string): StagedLayer | undefined {
    return this.#shared ?? this.#layers.get(conversationId)?.layer;
  }

  hasPending(conversationId: string): boolean {
    return (this.#layerOf(conversationId)?.files.size ?? 0) > 0;
  }

  view(conversationId: string): StagedView {
    let found = this.#layers.get(conversationId);
    if (!found) {
      const layer = this.#shared ?? new StagedLayer();
      const fs = new StagedFs(this.#platform.fs, layer, this.#platform.root).port();
      found = { layer, view: { fs, platform: stagedPlatform(this.#platform, fs) } };
      this.#layers.set(conversationId, found);
    }
    return found.view;
  }

  async pending(conversationId: string): Promise<PendingChanges> {
    const layer = this.#layerOf(conversationId);
    const files: PendingFile[] = [];
    for (const path of [...(layer?.files.keys() ?? [])].sort()) {
      const file = layer?.files.get(path) as StagedFile;
      const described = describe(path, file);
      const entry: PendingFile = { path, kind: described.kind, diff: described.diff, hunks: described.hunks };
      const now = await workspaceBytes(this.#platform.fs, path);
      if (!sameBytes(now, file.base)) entry.conflict = diffOf(path, file.base, now);
      files.push(entry);
    }
    return { conversationId, files };
  }

  /** The files a selection names (validated), sorted; the hunks are resolved under the files' locks. */
  #paths(method: string, layer: StagedLayer | undefined, selection: ReviewSelection): string[] {
    const files = layer?.files ?? new Map<string, StagedFile>();
    if (selection.paths === undefined && selection.hunks === undefined) return [...files.keys()].sort();
    const out = new Set<string>();
    for (const path of selection.paths ?? []) {
      if (!files.has(path)) throw new TypeError(`${method}: ${JSON.stringify(path)} has no pending change; take paths as pendingChanges() lists them`);
      out.add(path);
    }
    const byTag = new Map([...files].map(([path, file]) => [String(file.tag), path]));
    for (const id of selection.hunks ?? []) {
      const path = byTag.get(id.split('.')[0] ?? '');
      if (path === undefined) throw new TypeError(`${method}: no pending hunk has the id ${JSON.stringify(id)}; take hunk ids as pendingChanges() lists them`);
      out.add(path);
    }
    return [...out].sort();
  }

  /** Per file of `paths`, the hunks the selection takes; a stale hunk id (its file changed since it was listed) is a TypeError. */
  #choose(method: string, described: Described[], selection: ReviewSelection): Chosen {
    const chosen: Chosen = new Map();
    const named = new Set(selection.paths ?? []);
    const everything = selection.paths === undefined && selection.hunks === undefined;
    const ids = new Map(described.flatMap((d) => d.hunks.map((hunk, i) => [hunk.id, { path: d.path, n: i + 1 }] as const)));
    for (const d of described) if (everything || named.has(d.path)) chosen.set(d.path, 'all');
    for (const id of selection.hunks ?? []) {
      const hit = ids.get(id);
      if (!hit) throw new TypeError(`${method}: the hunk ${JSON.stringify(id)} is no longer pending (its file changed since it was listed, or it was accepted or rejected); list pendingChanges() again`);
      const now = chosen.get(hit.path);
      if (now === 'all') continue;
      chosen.set(hit.path, (now ?? new Set<number>()).add(hit.n));
    }
    // Every hunk of a file chosen one by one is the whole file.
    for (const d of described) {
      const now = chosen.get(d.path);
      if (now !== undefined && now !== 'all' && now.size === d.hunks.length) chosen.set(d.path, 'all');
    }
    return chosen;
  }

  /** Runs `fn` holding the write lock of every path, taken in sorted order. */
  #withLocks<T>(paths: readonly string[], fn: () => Promise<T>): Promise<T> {
    const take = (i: number): Promise<T> => (i === paths.length ? fn() : this.#setup.withPathLock(paths[i] as string, () => take(i + 1)));
    return take(0);
  }

  /** The layer and the files a selection names, each described, under their locks; `fn` acts on them. */
  async #select<T>(method: string, conversationId: string, selection: ReviewSelection, fn: (layer: StagedLayer, described: Described[], chosen: Chosen) => Promise<T>): Promise<T> {
    const layer = this.#layerOf(conversationId);
    const paths = this.#paths(method, layer, selection);
    return this.#withLocks(paths, async () => {
      const current = layer ?? new StagedLayer();
      const described = paths.filter((path) => current.files.has(path)).map((path) => describe(path, current.files.get(path) as StagedFile));
      const out = await fn(current, described, this.#choose(method, described, selection));
      if (current.files.size === 0) (current.dirs.clear(), current.removed.clear());
      return out;
    });
  }

  async accept(conversationId: string, selection: ReviewSelection): Promise<AcceptResult> {
    checkSelection('accept', selection, false);
    return this.#select('accept', conversationId, selection, async (layer, described, chosen) => {
      const result: AcceptResult = { written: [], hunks: [], conflicts: [] };
      let turn: JournalTurn | undefined;
      let fs: FsPromises | undefined;
      const writer = (): FsPromises => {
        if (fs) return fs;
        const journal = this.#setup.journal;
        turn = journal?.beginTurn(conversationId);
        fs = turn ? turn.fsFor({ callId: `accept-${turn.turn}`, tool: 'accept' }, this.#platform.fs) : this.#platform.fs;
        return fs;
      };
      try {
        for (const d of described) {
          const take = chosen.get(d.path);
          if (take === undefined) continue;
          const conflict = await this.#acceptOne(d, take, writer);
          if (conflict) result.conflicts.push(conflict);
          else {
            result.written.push(d.path);
            result.hunks.push(...d.hunks.filter((_, i) => take === 'all' || take.has(i + 1)).map((hunk) => hunk.id));
          }
          if (layer.files.get(d.path) === d.file && sameBytes(d.file.base, d.file.content)) layer.files.delete(d.path);
        }
        if (fs) await this.#platform.flush?.();
      } catch (error) {
        const failure = toToolError(error);
        const done = result.written.length > 0 ? `; written before it: ${result.written.join(', ')}` : '';
        throw new ToolError('execution_failed', `accept could not write the workspace (${failure.message})${done}; what was not written is still pending`);
      } finally {
        await turn?.end();
      }
      if (turn && result.written.length > 0) result.turn = turn.turn;
      return result;
    });
  }

  /** Writes the chosen hunks of one file to the workspace; a conflict when the workspace's file is not the staged change's base. */
  async #acceptOne(d: Described, take: 'all' | Set<number>, writer: () => FsPromises): Promise<ReviewConflict | undefined> {
    const now = await workspaceBytes(this.#platform.fs, d.path);
    if (!sameBytes(now, d.file.base)) return { path: d.path, diff: diffOf(d.path, d.file.base, now) };
    let next: Uint8Array | null;
    if (take === 'all' || d.regions === undefined) next = d.file.content;
    else {
      const regions = d.regions.flat();
      const accepted = new Set(d.regions.filter((_, i) => take.has(i + 1)).flat());
      next = new TextEncoder().encode(applyRegions(d.oldLines, d.newLines, regions, (region) => accepted.has(region)));
    }
    const fs = writer();
    if (next === null) await fs.rm(d.path, { force: true });
    else {
      await fs.mkdir(dirname(d.path), { recursive: true });
      await writeFileAtomic(fs, d.path, next, this.#platform.atomicWrites === true);
    }
    d.file.base = next;
    d.file.version += 1;
    return undefined;
  }

  async reject(conversationId: string, options: RejectOptions): Promise<RejectResult> {
    checkSelection('reject', options, true);
    return this.#select('reject', conversationId, options, async (layer, described, chosen) => {
      const result: RejectResult = { reverted: [], hunks: [] };
      const told: string[] = [];
      for (const d of described) {
        const take = chosen.get(d.path);
        if (take === undefined) continue;
        const rejected = d.hunks.filter((_, i) => take === 'all' || take.has(i + 1));
        if (take === 'all' || d.regions === undefined) {
          layer.files.delete(d.path);
          for (let at = d.path; at !== '/'; at = dirname(at)) layer.removed.delete(at);
        } else {
          const dropped = new Set(d.regions.filter((_, i) => take.has(i + 1)).flat());
          const text = applyRegions(d.oldLines, d.newLines, d.regions.flat(), (region) => !dropped.has(region));
          layer.put(d.path, d.file.base, new TextEncoder().encode(text));
        }
        result.reverted.push(d.path);
        result.hunks.push(...rejected.map((hunk) => hunk.id));
        told.push(noteFor(d, take === 'all' || d.regions === undefined ? 'all' : rejected));
      }
      if (told.length > 0) this.#tell(conversationId, told, options.reason);
      return result;
    });
  }

  #tell(conversationId: string, told: string[], reason: string | undefined): void {
    const why = reason === undefined || reason.trim() === '' ? '' : `\nThe user's reason: ${reason.trim()}`;
    const list = this.#notes.get(conversationId) ?? [];
    list.push(`${told.join('\n')}${why}`);
    this.#notes.set(conversationId, list);
  }

  takeNote(conversationId: string): string | undefined {
    const list = this.#notes.get(conversationId);
    if (!list || list.length === 0) return undefined;
    this.#notes.delete(conversationId);
    let body = list.join('\n');
    if (body.length > NOTE_CHARS) body = `${body.slice(0, NOTE_CHARS)}\n[... ${body.length - NOTE_CHARS} more characters of rejected changes not shown]`;
    return `${NOTE_HEAD}\n${body}`;
  }

  keepNote(conversationId: string, note: string): void {
    const body = note.startsWith(`${NOTE_HEAD}\n`) ? note.slice(NOTE_HEAD.length + 1) : note;
    this.#notes.set(conversationId, [body, ...(this.#notes.get(conversationId) ?? [])]);
  }
}

/** The note line(s) for one file's rejected hunks. */
function noteFor(d: Described, rejected: 'all' | PendingHunk[]): string {
  if (rejected === 'all') {
    if (d.kind === 'create') return `- ${d.path}: your new file was rejected; it does not exist.`;
    if (d.kind === 'delete') return `- ${d.path}: your removal was rejected; the file is there as it was.`;
    return `- ${d.path}: all your pending changes to it were rejected; it now holds what the workspace holds.`;
  }
  const clip = (text: string): string => (text.length > NOTE_HUNK_CHARS ? `${text.slice(0, NOTE_HUNK_CHARS)}\n[... ${text.length - NOTE_HUNK_CHARS} more characters]\n` : text);
  const which = rejected.map((hunk) => `lines ${hunk.newStart}-${hunk.newStart + Math.max(hunk.newLines, 1) - 1} of your version`).join(', ');
  return `- ${d.path}: ${rejected.length} of your ${d.hunks.length} changes were rejected (${which}); these were undone, your other changes stay:\n${rejected.map((hunk) => clip(hunk.diff)).join('')}`.trimEnd();
}
