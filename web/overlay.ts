import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff/lib/patch/create.js';
import { toToolError, ToolError } from '../src/core/errors.js';
import type { ReviewPort, ReviewSetup } from '../src/core/journal-port.js';
import type { FsPromises, FsStats, Platform } from '../src/core/types.js';
import { MemoryFs } from '../src/fs/memfs.js';
import { createReview } from '../src/journal/review.js';
import { sameBytes, StagedFs, StagedLayer } from '../src/journal/review-fs.js';
import { textOf } from '../src/journal/review-hunks.js';
import { fsFromSync } from '../src/platform/memory.js';
import { mountTable } from './mounts.js';
import { openLayer, type LayerStore } from './overlay-store.js';

/** One difference between an overlay workspace and its base; `path` is relative to the workspace root. */
export interface OverlayChange {
  path: string;
  kind: 'created' | 'modified' | 'deleted';
  /** Unified diff from the base's current text to the overlay's (`--- path` / `+++ path` headers, 3 lines of context, as edit_file's); a note for binary files. */
  diff: string;
  /** Set when the base's file changed since the overlay first changed it (or appeared since it was created): {@link OverlayControl.apply} refuses it. */
  conflict?: string;
}

/** What {@link OverlayControl.apply} did: every path written to the base, or nothing and the conflicts. */
export interface OverlayApplyResult {
  applied: string[];
  conflicts: Array<{ path: string; reason: string }>;
}

/** The review members of an overlay workspace. */
export interface OverlayControl {
  /** What differs from the base: created, modified and deleted files, sorted by path, each with its diff. */
  changes(): Promise<OverlayChange[]>;
  /**
   * Writes every change to the base, then empties the overlay. All or nothing: with any conflict nothing
   * is written (the result lists them); when a write fails, the files already written are restored and
   * the call rejects with that write's code.
   */
  apply(): Promise<OverlayApplyResult>;
  /** Drops every change: the workspace shows the base again. */
  discard(): Promise<void>;
  /** Review mode over the overlay's staged changes (per file or hunk), as a runner's pendingChanges / accept / reject use it. */
  review(setup: ReviewSetup): ReviewPort;
}

/** A file an apply wrote to the base, with its content before (null: it did not exist), to restore on failure. */
interface Applied {
  path: string;
  before: Uint8Array | null;
}

/**
 * A copy-on-write workspace: review mode's staging (a {@link StagedLayer} seen through a {@link StagedFs})
 * over `base` (addressed from `/`, shown at `root`). Every write is staged; the layer is kept in `upper`
 * (the workspace's own storage, committed by `flush`) after each change, so a reload finds it again.
 * `atomicWrites`: the base replaces a file's content in one step (accepting then writes in place).
 */
export async function overlayFs(options: { upper: FsPromises; base: FsPromises; root: string; flush: () => Promise<void>; atomicWrites?: boolean }): Promise<{ fs: FsPromises; control: OverlayControl }> {
  const scratch = new MemoryFs();
  scratch.mkdirSync(options.root, { recursive: true });
  const lower = mountTable(fsFromSync(scratch), [{ path: options.root, fs: options.base }]);
  const { layer, keeper } = await openLayer(options.upper, options.root, lower);
  const overlay = new Overlay(layer, lower, options.root, keeper, options.flush, options.atomicWrites === true);
  return { fs: overlay.port(), control: overlay };
}

/** An lstat of `path`, or undefined when nothing is there. */
async function statOrNothing(fs: FsPromises, path: string): Promise<FsStats | undefined> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The bytes of the file at `path` in `fs`, or null when no file is there. */
async function fileBytes(fs: FsPromises, path: string): Promise<Uint8Array | null> {
  const stats = await statOrNothing(fs, path);
  return stats && !stats.isDirectory() ? fs.readFile(path) : null;
}

/** The overlay workspace: its staged view, its record, and the review of its changes. */
class Overlay implements OverlayControl {
  readonly #layer: StagedLayer;
  /** The base, shown at the root. */
  readonly #lower: FsPromises;
  readonly #root: string;
  readonly #store: LayerStore;
  readonly #flush: () => Promise<void>;
  readonly #atomic: boolean;

  constructor(layer: StagedLayer, lower: FsPromises, root: string, store: LayerStore, flush: () => Promise<void>, atomic: boolean) {
    this.#layer = layer;
    this.#lower = lower;
    this.#root = root;
    this.#store = store;
    this.#flush = flush;
    this.#atomic = atomic;
  }

  /** Keeps the layer in the store. */
  #save(): Promise<void> {
    return this.#store.save(this.#layer);
  }

  /** The staged view as an fs port; each change is recorded in the store before it resolves. */
  port(): FsPromises {
    const view = new StagedFs(this.#lower, this.#layer, this.#root).port();
    const saving = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } finally {
        await this.#save();
      }
    };
    return {
      ...view,
      writeFile: saving(view.writeFile),
      writeFileAtomic: saving(view.writeFile),
      mkdir: saving(view.mkdir),
      rename: saving(view.rename),
      rm: saving(view.rm),
      unlink: saving(view.unlink),
    };
  }

  /** The workspace-relative path of an absolute one under the root, or undefined outside it. */
  #rel(path: string): string | undefined {
    return path.startsWith(`${this.#root}/`) ? path.slice(this.#root.length + 1) : undefined;
  }

  async changes(): Promise<OverlayChange[]> {
    const out: OverlayChange[] = [];
    for (const [path, file] of [...this.#layer.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const rel = this.#rel(path);
      if (rel === undefined) continue;
      const now = await fileBytes(this.#lower, path);
      const conflict = sameBytes(now, file.base) ? undefined : file.base === null ? 'the base has a file here now that it did not have' : now === null ? 'the file was deleted from the base since' : 'the base file changed since the overlay changed it';
      if (file.content === null && now === null) {
        if (conflict) out.push({ path: rel, kind: 'deleted', diff: '', conflict });
        continue;
      }
      if (sameBytes(now, file.content)) continue;
      const kind = file.content === null ? 'deleted' : now === null ? 'created' : 'modified';
      out.push({ path: rel, kind, diff: diffOf(rel, now, file.content), ...(conflict ? { conflict } : {}) });
    }
    return out;
  }

  async apply(): Promise<OverlayApplyResult> {
    const list = await this.changes();
    const conflicts = list.filter((c) => c.conflict !== undefined).map((c) => ({ path: c.path, reason: c.conflict as string }));
    if (conflicts.length > 0) return { applied: [], conflicts };
    const done: Applied[] = [];
    try {
      await this.#writeToBase(list, done);
    } catch (error) {
      await this.#restoreBase(done);
      const failure = toToolError(error);
      throw new ToolError(failure.code, `applying the overlay failed (${failure.message}); the files already written to the base were restored and the overlay is unchanged`);
    }
    await this.discard();
    return { applied: list.map((c) => c.path), conflicts: [] };
  }

  /** Writes each change to the base (recording in `done` what it replaced), then removes the folders the overlay removed and makes the ones it made. */
  async #writeToBase(list: readonly OverlayChange[], done: Applied[]): Promise<void> {
    const lower = this.#lower;
    const layer = this.#layer;
    for (const change of list) {
      const path = `${this.#root}/${change.path}`;
      const before = await fileBytes(lower, path);
      const content = layer.files.get(path)?.content ?? null;
      if (content === null) await lower.rm(path, { force: true });
      else {
        await lower.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
        await lower.writeFile(path, content);
      }
      done.push({ path, before });
    }
    for (const dir of [...layer.removed].sort()) {
      if (layer.dirs.has(dir) || layer.liveBelow(dir) || !(await statOrNothing(lower, dir))?.isDirectory()) continue;
      await lower.rm(dir, { recursive: true, force: true });
    }
    for (const dir of [...layer.dirs].sort()) if (this.#rel(dir) !== undefined && !layer.hidden(dir)) await lower.mkdir(dir, { recursive: true });
  }

  /** Puts back what an apply that failed had written to the base, newest first. */
  async #restoreBase(done: Applied[]): Promise<void> {
    for (const { path, before } of done.reverse()) {
      if (before === null) await this.#lower.rm(path, { force: true }).catch(() => undefined);
      else await this.#lower.writeFile(path, before).catch(() => undefined);
    }
  }

  async discard(): Promise<void> {
    this.#layer.files.clear();
    this.#layer.dirs.clear();
    this.#layer.removed.clear();
    await this.#save();
    await this.#flush();
  }

  review(setup: ReviewSetup): ReviewPort {
    // Accepting writes to the base (shown at the root); nothing the workspace's view shows changes, so no journal records it.
    const save = (): Promise<void> => this.#save();
    const base = { root: this.#root, fs: this.#lower, atomicWrites: this.#atomic, flush: async () => (await save(), await this.#flush()) } as unknown as Platform;
    const review = createReview(base, { withPathLock: setup.withPathLock, journal: undefined }, this.#layer);
    return {
      hasPending: (id) => review.hasPending(id),
      view: (id) => review.view(id),
      pending: (id) => review.pending(id),
      accept: async (id, selection) => {
        try {
          return await review.accept(id, selection);
        } finally {
          await save();
        }
      },
      reject: async (id, options) => {
        try {
          return await review.reject(id, options);
        } finally {
          await save();
          await this.#flush();
        }
      },
      takeNote: (id) => review.takeNote(id),
      keepNote: (id, note) => review.keepNote(id, note),
    };
  }
}

/** The unified diff of one change (a line for a binary file). */
function diffOf(path: string, before: Uint8Array | null, after: Uint8Array | null): string {
  const a = textOf(before);
  const b = textOf(after);
  if (a === null || b === null) return `Binary file ${path} ${after === null ? 'deleted' : before === null ? 'created' : 'changed'}\n`;
  return formatPatch(structuredPatch(path, path, a, b, '', '', { context: 3 }), FILE_HEADERS_ONLY);
}
