import { MemoryFs } from '../src/fs/memfs.js';
import { fsFromSync } from '../src/platform/memory.js';
import { normalizePath } from '../src/core/posix-path.js';
import type { FsPromises, FsStats, JsonValue, Platform } from '../src/core/types.js';
import type { CommitBatch, FsRecord, StoredSubtree } from './idb.js';

/** Where a {@link JournaledWorkspace} persists: one atomic commit per batch, and subtree reads for rollback. */
export interface JournalStore {
  commit(batch: CommitBatch): Promise<void>;
  readSubtrees(paths: readonly string[]): Promise<Map<string, StoredSubtree>>;
}

/** `node` = just this path changed; `tree` = this path and everything under it (rm -r, rename). */
type Mark = 'node' | 'tree';

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/**
 * The live workspace of the web platform: an in-memory {@link MemoryFs} loaded from IndexedDB at mount,
 * behind an {@link FsPromises} wrapper that journals the paths each operation changes. `commit()`
 * turns the journal into one {@link CommitBatch} (file bytes, directories, symlinks, deletions of whole
 * subtrees) written in ONE IndexedDB transaction whose `complete` event is awaited; commits are
 * serialised so an older snapshot never lands after a newer one. When a commit fails (quota, storage
 * gone) the journalled paths are reloaded from IndexedDB, so memory again equals what is stored.
 *
 * Why not @zenfs/dom's IndexedDB backend: through its promise API it does one transaction per
 * operation (≈ 7 ms per small file), and its sync API acknowledges before storing.
 * Paths outside `root` live in memory only.
 */
export class JournaledWorkspace {
  readonly root: string;
  readonly fs: FsPromises;
  readonly #sync: MemoryFs;
  readonly #store: JournalStore;
  #dirty = new Map<string, Mark>();
  #chain: Promise<unknown> = Promise.resolve();
  #deferred = 0;
  #deferredState: CommitBatch['state'] = [];
  #changes = 0;

  constructor(sync: MemoryFs, root: string, store: JournalStore) {
    this.#sync = sync;
    this.root = root;
    this.#store = store;
    // Each MemoryFs operation (a whole writeFile included) happens in one synchronous step, so readers
    // never see half a write, and the journal marks the paths it changed in the same step.
    this.fs = this.#wrap(fsFromSync(sync));
  }

  /** Creates a journaled workspace on a fresh {@link MemoryFs} holding `records` (key order). */
  static async mount(root: string, records: ReadonlyArray<[string, FsRecord]>, store: JournalStore): Promise<JournaledWorkspace> {
    const sync = new MemoryFs();
    sync.mkdirSync(root, { recursive: true });
    const workspace = new JournaledWorkspace(sync, root, store);
    // Records come in key order, so a folder's record precedes its children: create each parent once.
    const made = new Set<string>([root]);
    for (const [path, record] of records) workspace.#create(path, record, made, true);
    workspace.#restoreFolderTimes(records);
    return workspace;
  }

  /**
   * A number that changes with every change made through {@link fs} and every rollback: while it is
   * unchanged the tree is as it was (what {@link Platform.changeCount} promises the search tools).
   */
  get changes(): number {
    return this.#changes;
  }

  /**
   * The live tree itself, for readers that never change it (the search tools' source reads its
   * stored bytes); every change goes through {@link fs}, so it is journalled and counted.
   */
  get tree(): MemoryFs {
    return this.#sync;
  }

  /** Number of paths changed since the last commit. */
  get pending(): number {
    return this.#dirty.size;
  }

  #inside(path: string): boolean {
    return path === this.root || path.startsWith(`${this.root}/`);
  }

  #mark(path: string, mark: Mark): void {
    const p = normalizePath(path);
    if (!this.#inside(p) || p === this.root) return;
    if (mark === 'tree' || !this.#dirty.has(p)) this.#dirty.set(p, mark);
  }

  #wrap(inner: FsPromises): FsPromises {
    const after = <T>(run: () => Promise<T>, marks: () => void): Promise<T> => {
      // `run` does its whole change synchronously (fsFromSync over MemoryFs) before it returns its
      // promise; the paths are marked in that same step (even on failure: a change may be partial),
      // so no commit can run between a change and its mark.
      this.#changes += 1;
      try {
        return run();
      } finally {
        marks();
      }
    };
    const fs: FsPromises = {
      readFile: (path) => inner.readFile(path),
      readdir: ((path: string, options?: { withFileTypes: true }) =>
        options ? inner.readdir(path, options) : inner.readdir(path)) as FsPromises['readdir'],
      stat: (path) => inner.stat(path),
      lstat: (path) => inner.lstat(path),
      readlink: (path) => inner.readlink(path),
      writeFile: (path, data) => after(() => inner.writeFile(path, data), () => this.#mark(path, 'node')),
      mkdir: (path, options) =>
        after(
          () => inner.mkdir(path, options),
          () => {
            for (let p = normalizePath(path); this.#inside(p) && p !== this.root; p = parentOf(p)) {
              this.#mark(p, 'node');
              if (!options?.recursive) break;
            }
          },
        ),
      symlink: (target, path) => after(() => inner.symlink(target, path), () => this.#mark(path, 'node')),
      rename: (from, to) =>
        after(
          () => inner.rename(from, to),
          () => {
            this.#mark(from, 'tree');
            this.#mark(to, 'tree');
          },
        ),
      rm: (path, options) => after(() => inner.rm(path, options), () => this.#mark(path, 'tree')),
      unlink: (path) => after(() => inner.unlink(path), () => this.#mark(path, 'node')),
    };
    return fs;
  }

  #lstat(path: string): FsStats | undefined {
    try {
      return this.#sync.lstatSync(path);
    } catch {
      return undefined;
    }
  }

  /** The path with its parent's symlinks resolved (the key a node is stored under). */
  #canonical(path: string, reals?: Map<string, string | undefined>): string {
    const parent = parentOf(path);
    let real = reals?.get(parent);
    if (real === undefined && !reals?.has(parent)) {
      try {
        real = this.#sync.realpathSync(parent);
      } catch {
        real = undefined;
      }
      reals?.set(parent, real);
    }
    return real === undefined ? path : `${real === '/' ? '' : real}/${path.slice(parent.length + 1)}`;
  }

  #record(path: string, stats: FsStats & { ctimeMs?: number }): FsRecord | undefined {
    if (stats.isSymbolicLink()) return { kind: 'symlink', target: this.#sync.readlinkSync(path), mtimeMs: stats.mtimeMs };
    if (stats.isDirectory()) return { kind: 'dir', mtimeMs: stats.mtimeMs };
    if (stats.isFile()) {
      // readFileSync returns a copy of exactly the file's bytes: later writes can't change the record.
      return { kind: 'file', data: this.#sync.readFileSync(path), mtimeMs: stats.mtimeMs, ...(stats.ctimeMs === undefined ? {} : { ctimeMs: stats.ctimeMs }) };
    }
    return undefined;
  }

  #putTree(path: string, puts: Map<string, FsRecord>): void {
    const stats = this.#lstat(path);
    if (!stats) return;
    const record = this.#record(path, stats);
    if (record) puts.set(path, record);
    if (record?.kind === 'dir') {
      for (const name of this.#sync.readdirSync(path)) this.#putTree(`${path}/${name}`, puts);
    }
  }

  /** Turns the journal into a batch. Synchronous on purpose: the snapshot cannot interleave with writes. */
  #gather(marks: Map<string, Mark>): { deleteTrees: string[]; puts: Array<[string, FsRecord]> } {
    const deleteTrees = new Set<string>();
    const puts = new Map<string, FsRecord>();
    const ordered = [...marks].sort(([, a], [, b]) => (a === b ? 0 : a === 'tree' ? -1 : 1));
    // Parents' real paths, resolved once per commit (a batch usually writes many files per folder).
    // Safe: gathering is synchronous, so no change can land meanwhile.
    const reals = new Map<string, string | undefined>();
    for (const [marked, mark] of ordered) {
      const path = this.#canonical(marked, reals);
      if (!this.#inside(path) || path === this.root) continue;
      const stats = this.#lstat(path);
      if (mark === 'tree' || !stats) {
        deleteTrees.add(path);
        this.#putTree(path, puts);
        continue;
      }
      const record = this.#record(path, stats);
      if (record) puts.set(path, record);
      if (record?.kind === 'symlink') {
        // A write through a symlink changed its target.
        try {
          const real = this.#sync.realpathSync(path);
          const target = this.#lstat(real);
          if (this.#inside(real) && real !== this.root && target?.isFile()) puts.set(real, this.#record(real, target) as FsRecord);
        } catch {
          // dangling link: nothing else changed
        }
      }
    }
    return { deleteTrees: [...deleteTrees], puts: [...puts] };
  }

  /**
   * Makes every change so far durable, together with `state` entries, in one transaction; resolves
   * after IndexedDB reports `complete`. On failure the changed paths are reloaded from storage and the
   * error (ToolError `quota_exceeded` / `unavailable`) is rethrown.
   */
  commit(state: CommitBatch['state'] = []): Promise<void> {
    if (this.#deferred > 0) {
      // Inside batch(): the batch's single commit at the end carries this.
      this.#deferredState.push(...state);
      return Promise.resolve();
    }
    return this.#commitNow(state);
  }

  /**
   * Runs `fn` with commits deferred: `commit()` calls made meanwhile (file flushes, state writes) only
   * accumulate, and everything is committed in ONE transaction when the outermost batch ends. Resolves
   * with `fn`'s value after that commit; rejects with the commit's ToolError (after the rollback of every
   * change made during the batch) or with `fn`'s error. The caller must keep other writers out meanwhile:
   * their commits would be deferred too.
   */
  async batch<T>(fn: () => Promise<T>): Promise<T> {
    this.#deferred += 1;
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await fn() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    this.#deferred -= 1;
    if (this.#deferred === 0) {
      const state = this.#deferredState;
      this.#deferredState = [];
      await this.#commitNow(state);
    }
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  #commitNow(state: CommitBatch['state']): Promise<void> {
    const run = async (): Promise<void> => {
      if (this.#dirty.size === 0 && state.length === 0) return;
      const marks = this.#dirty;
      this.#dirty = new Map();
      let batch: CommitBatch;
      try {
        batch = { ...this.#gather(marks), state };
      } catch (error) {
        for (const [path, mark] of marks) this.#mark(path, mark);
        throw error;
      }
      try {
        await this.#store.commit(batch);
      } catch (error) {
        await this.#rollback(marks).catch(() => undefined);
        throw error;
      }
    };
    const result = this.#chain.then(run, run);
    this.#chain = result.catch(() => undefined);
    return result;
  }

  /** Reloads the marked paths from storage so memory matches what is stored. */
  async #rollback(marks: Map<string, Mark>): Promise<void> {
    this.#changes += 1;
    const paths = [...new Set([...marks.keys()].map((p) => this.#canonical(p)))].filter((p) => this.#inside(p) && p !== this.root);
    const stored = await this.#store.readSubtrees(paths);
    const sorted = paths.sort();
    for (const path of sorted) {
      const subtree = stored.get(path);
      const mark = marks.get(path) ?? 'tree';
      const current = this.#lstat(path);
      if (!subtree?.self) {
        if (current) this.#sync.rmSync(path, { recursive: true, force: true });
        continue;
      }
      const self = subtree.self;
      const keepDir = mark === 'node' && self.kind === 'dir' && current?.isDirectory();
      if (keepDir) continue;
      if (current) this.#sync.rmSync(path, { recursive: true, force: true });
      this.#create(path, self);
      if (mark === 'tree' || self.kind === 'dir') for (const [child, record] of subtree.descendants) this.#create(child, record);
      this.#restoreFolderTimes([[path, self], ...(mark === 'tree' || self.kind === 'dir' ? subtree.descendants : [])]);
    }
    this.#changes += 1;
  }

  /** Creates `record` at `path`; `reload`: as loaded from storage, with the file's stored status-change time too (else now, as a rollback is a change). */
  #create(path: string, record: FsRecord, made?: Set<string>, reload = false): void {
    const sync = this.#sync;
    if (record.kind === 'dir') {
      if (!made?.has(path)) sync.mkdirSync(path, { recursive: true });
      made?.add(path);
      return;
    }
    const parent = parentOf(path);
    if (!made?.has(parent)) {
      sync.mkdirSync(parent, { recursive: true });
      made?.add(parent);
    }
    if (record.kind === 'file') {
      sync.writeFileSync(path, record.data);
      // The stored time, not now: a reload must not make every file look just modified.
      if (typeof record.mtimeMs === 'number') {
        if (reload) sync.restoreTimesSync(path, record.mtimeMs, typeof record.ctimeMs === 'number' ? record.ctimeMs : record.mtimeMs);
        else sync.utimesSync(path, record.mtimeMs / 1000, record.mtimeMs / 1000);
      }
    } else sync.symlinkSync(record.target, path);
  }

  /** Puts back the stored times of folders, once their children (whose creation touched them) exist. */
  #restoreFolderTimes(records: ReadonlyArray<readonly [string, FsRecord]>): void {
    for (const [path, record] of records) {
      if (record.kind !== 'dir' || typeof record.mtimeMs !== 'number') continue;
      try {
        this.#sync.utimesSync(path, record.mtimeMs / 1000, record.mtimeMs / 1000);
      } catch {
        // replaced meanwhile: its new time stands
      }
    }
  }
}

/** A JSON state value as `commit` takes it. */
export type StateEntry = [conversationId: string, key: string, value: JsonValue | undefined];
