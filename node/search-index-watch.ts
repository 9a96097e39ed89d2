// A watch over a Node workspace's folders that tells a repeated search whether anything in the tree
// changed since its last walk and file checks: one inotify watch per folder (`fs.watch` on each,
// not `recursive: true`, whose Linux form watches every file and arms new folders after the fact),
// armed before any listing it vouches for is taken. See `TreeWatch` for when it vouches and why that
// is exact.
import * as fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALWAYS_SKIPPED_DIRS } from '../src/search/walk.js';

/** Folders watched at most; a tree with more is not watched (searches check every file, as without a watch). */
const MAX_WATCHED_DIRS = 50_000;
/**
 * Filesystems whose changes the kernel reports to inotify for every writer (local ones): ext2/3/4,
 * xfs, btrfs, tmpfs, overlayfs, f2fs, zfs. On others (NFS, SMB, FUSE) a change made elsewhere sends
 * no event, so they are not watched.
 */
const LOCAL_FILESYSTEMS: ReadonlySet<number> = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0xf2f52010, 0x2fc12fc1]);

/** The kernel's inotify queue length: a turn of the event loop that delivers half as many events may have followed a lost overflow. */
function queueLimit(): number {
  try {
    const value = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    return Number.isFinite(value) && value > 0 ? value : 16_384;
  } catch {
    return 16_384;
  }
}

interface Watched {
  watcher: fs.FSWatcher;
  ino: number;
}

/** Two turns of the event loop: the second begins after a poll phase that started after this call. */
function twoTurns(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * The change count of a real folder tree, from inotify (Linux). {@link generation} moves with every
 * event in a watched folder (a file or folder in it created, written, truncated, chmod-ed, touched,
 * removed or moved in or out) and is undefined while the watch cannot vouch for the tree (not armed,
 * broken, not Linux, not a local filesystem, too many folders).
 *
 * Why "same generation" means "no change" (the argument a search's reuse rests on): the kernel
 * queues an inotify event inside the system call that makes the change, before it returns; libuv
 * reads the inotify descriptor until it is empty in each poll phase and calls each watcher's callback
 * there, synchronously. So once {@link settled} resolves (two turns of the loop: the second starts after
 * a poll phase that began after the call), every change completed before the call has bumped the
 * count. A listing or a file check taken after reading generation `g` (after `settled`) and found
 * still at `g` later (after another `settled`) has seen no change complete in between, except:
 *  - a queue overflow: libuv drops the kernel's overflow event silently, so a turn that delivers at
 *    least half the kernel's queue length of events breaks the watch (the queue was drained at once,
 *    so an overflow means that many events came in one turn);
 *  - a folder created after arming: its creation is an event in its parent (the count moves), and
 *    the callback arms it (and what is under it) before returning, so it is watched before any search
 *    reads the new count; a folder's identity (inode) is checked at each event naming it, so one
 *    replaced or moved away is armed again;
 *  - what inotify does not see at all: writes through a shared memory mapping, writes through a hard
 *    link or bind mount outside the tree, and other machines' writes on network filesystems (not
 *    watched). Tools' and editors' writes, renames, `git checkout`, package managers all go through
 *    write/rename/unlink and are seen.
 * An `error` on any watcher, or a folder that cannot be watched (the inotify watch limit), breaks the
 * watch: undefined from then on, until {@link settled} arms it again (at most once every 10 s).
 */
export class TreeWatch {
  readonly #root: string;
  readonly #dirs = new Map<string, Watched>();
  readonly #queueLimit = queueLimit();
  #generation = 0;
  /** Watchers set and their events handled (arming may still be under way). */
  #live = false;
  /** Every folder watched: the generation vouches. */
  #armed = false;
  #closed = false;
  #turnEvents = 0;
  #lastArm = 0;
  /** Moved by each arming: a slice of an earlier one stops. */
  #epoch = 0;
  /** Folders to watch still, while arming (a turn of the event loop between slices). */
  #pending: string[] = [];
  /** Why the watch cannot vouch (a diagnostic): undefined while it can. */
  reason: string | undefined = 'not armed';
  /** Resolves once arming is done (or given up). */
  ready: Promise<void> = Promise.resolve();

  constructor(root: string) {
    this.#root = root;
    this.#arm();
  }

  /** The tree's change count, or undefined while the watch cannot vouch for it (see the class). */
  generation(): number | undefined {
    return this.#armed && !this.#closed ? this.#generation : undefined;
  }

  /** Resolves once every change completed before the call has been counted (re-arming a broken watch first, at most every 10 s). */
  async settled(): Promise<void> {
    if (!this.#live && !this.#closed && Date.now() - this.#lastArm >= 10_000) this.#arm();
    await twoTurns();
  }

  /** Folders watched now. */
  get folders(): number {
    return this.#dirs.size;
  }

  /** Stops watching (for good). */
  close(): void {
    this.#closed = true;
    this.#live = false;
    this.#armed = false;
    this.#pending = [];
    this.#unwatchAll();
  }

  /**
   * Watches every folder, a slice of them per turn of the event loop (a large tree takes seconds):
   * the generation vouches once all are. Events in the folders watched so far are handled meanwhile
   * (a folder created in one is queued too), so none is missed: a change before a folder's watch
   * is set is in the listings a search takes after arming ends.
   */
  #arm(): void {
    this.#lastArm = Date.now();
    this.#unwatchAll();
    if (process.platform !== 'linux') return this.#break('not Linux');
    try {
      const type = fs.statfsSync(this.#root).type;
      if (!LOCAL_FILESYSTEMS.has(type)) return this.#break(`filesystem type 0x${type.toString(16)} is not a local one inotify fully reports`);
    } catch (error) {
      return this.#break(`statfs failed: ${(error as Error).message}`);
    }
    this.#live = true;
    this.#armed = false;
    this.reason = 'arming';
    this.#generation += 1;
    this.#pending = [this.#root];
    const epoch = ++this.#epoch;
    this.ready = new Promise((resolve) => {
      const slice = (): void => {
        if (epoch !== this.#epoch) return resolve();
        const until = Date.now() + 10;
        while (this.#live && this.#pending.length > 0 && Date.now() < until) this.#watchOne(this.#pending.pop() as string);
        if (this.#live && this.#pending.length > 0) {
          setImmediate(slice);
          return;
        }
        if (this.#live) {
          this.#armed = true;
          this.reason = undefined;
        }
        resolve();
      };
      slice();
    });
  }

  #break(reason: string): void {
    this.#armed = false;
    this.#live = false;
    this.#pending = [];
    this.reason = reason;
    this.#generation += 1;
    this.#unwatchAll();
  }

  #unwatchAll(): void {
    for (const { watcher } of this.#dirs.values()) watcher.close();
    this.#dirs.clear();
  }

  /** Watches `dir` and every folder under it not watched yet (symlinks not followed): now once armed, else queued for the arming's slices. */
  #watchTree(dir: string): void {
    this.#pending.push(dir);
    if (!this.#armed) return;
    while (this.#live && this.#pending.length > 0) this.#watchOne(this.#pending.pop() as string);
  }

  /** Watches one folder and queues the folders in it. */
  #watchOne(path: string): void {
    if (!this.#watch(path)) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path, { withFileTypes: true });
    } catch {
      // Gone or unreadable since: its parent's event (or the walk) tells the rest.
      return;
    }
    for (const entry of entries) if (entry.isDirectory() && !ALWAYS_SKIPPED_DIRS.has(entry.name)) this.#pending.push(join(path, entry.name));
  }

  /** Adds the watch of one folder (the watch comes before its listing); false when it is gone or not a folder. */
  #watch(path: string): boolean {
    if (this.#dirs.size >= MAX_WATCHED_DIRS) {
      this.#break(`more than ${MAX_WATCHED_DIRS} folders`);
      return false;
    }
    const before = fs.lstatSync(path, { throwIfNoEntry: false });
    if (!before?.isDirectory()) return false;
    const known = this.#dirs.get(path);
    if (known?.ino === before.ino) return false;
    if (known) this.#unwatchUnder(path);
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(path, { persistent: false }, (type, name) => this.#event(path, type, name));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return false;
      this.#break(`fs.watch ${path}: ${(error as Error).message}`);
      return false;
    }
    watcher.on('error', (error) => this.#break(`watcher of ${path}: ${error.message}`));
    // The inode before and after the watch was set is the folder watched (else it was replaced
    // meanwhile: watched again): what a later event naming it is checked against.
    const stats = fs.lstatSync(path, { throwIfNoEntry: false });
    if (!stats?.isDirectory() || stats.ino !== before.ino) {
      watcher.close();
      return stats?.isDirectory() === true && this.#watch(path);
    }
    this.#dirs.set(path, { watcher, ino: stats.ino });
    return true;
  }

  /**
   * One event in the folder `dir` about its entry `name` (null: the folder itself, or unknown):
   * `change` is a write or an attribute change, `rename` a creation, removal or move, after which the
   * entry's folder watches are brought in line.
   */
  #event(dir: string, type: string, name: string | Buffer | null): void {
    if (!this.#live) return;
    this.#generation += 1;
    if (this.#turnEvents === 0) setImmediate(() => (this.#turnEvents = 0));
    this.#turnEvents += 1;
    if (this.#turnEvents * 2 >= this.#queueLimit) return this.#break('an inotify queue overflow may have lost events');
    if (type === 'change' && typeof name === 'string') return;
    if (name === null || typeof name !== 'string') {
      // Not a named entry: the folder itself changed (moved or removed); check it as its parent would.
      this.#recheck(dir);
      return;
    }
    this.#recheck(join(dir, name));
  }

  /** Brings the watch of `path` in line with what is there now: a new or replaced folder is watched (with all under it), a gone one unwatched. */
  #recheck(path: string): void {
    if (path !== this.#root && ALWAYS_SKIPPED_DIRS.has(path.slice(path.lastIndexOf('/') + 1))) return;
    const stats = fs.lstatSync(path, { throwIfNoEntry: false });
    const known = this.#dirs.get(path);
    if (known && stats?.isDirectory() && stats.ino === known.ino) return;
    if (known || path === this.#root) this.#unwatchUnder(path);
    if (path === this.#root && !stats?.isDirectory()) return this.#break('the root is gone');
    if (stats?.isDirectory()) this.#watchTree(path);
  }

  #unwatchUnder(path: string): void {
    const prefix = `${path}/`;
    for (const [dir, { watcher }] of this.#dirs) {
      if (dir !== path && !dir.startsWith(prefix)) continue;
      watcher.close();
      this.#dirs.delete(dir);
    }
  }
}
