// The journaling view of `ctx.fs`: before a call first changes a path, what is there is kept.
import type { FsPromises, FsStats } from '../core/fs-port.js';
import { joinPath } from '../core/posix-path.js';
import { wrapFsMethods } from '../core/fs-proxy.js';
import { basename, isTemporaryFileName } from '../fs/paths.js';

/**
 * Stores file bytes as a blob (held for the open turn) and answers their image, `'sha256:<hex>'`;
 * `path`, where the bytes were read or written, lets the journal skip hashing content it saw there
 * last. A file over `maxFileBytes` is not read: its image is `'unknown'`.
 */
export type KeepBytes = ((bytes: Uint8Array, path?: string) => Promise<string>) & {
  readonly maxFileBytes?: number;
  /**
   * Where commands are watched: remembers that `path` held the content of `image` while its stamp
   * (see {@link stampOf}) was `stamp`, so a command that changes it later finds its pre-image.
   */
  readonly stamp?: (path: string, stamp: string, image: string) => void;
  /** Where commands are watched: told of every path a journaled call changed (so a command running meanwhile leaves it to that call). */
  readonly wrote?: (path: string) => void;
  /**
   * Where the platform counts its changes (`changeCount`, unchanged only while the tree is as it
   * was): that count, and the content the journal last kept at `path` when it equals `bytes` (else
   * undefined). A call's read of a path that equals it then stands for the path's pre-image while the
   * count stays as it was: the file is not read again.
   */
  readonly known?: { changeCount: () => number; bytesAt: (path: string, bytes: Uint8Array) => Uint8Array | undefined };
};

/**
 * A file's kind, size, modification and change times and inode as one string (from `lstat`, or a
 * search source's `stat` of a regular file): equal stamps, the file is taken to be unchanged.
 */
export function stampOf(stats: { size: number; mtimeMs: number; isSymbolicLink?: () => boolean }): string {
  const { ino, ctimeMs } = stats as { ino?: unknown; ctimeMs?: unknown };
  const number = (value: unknown): string => (typeof value === 'number' || typeof value === 'bigint' ? String(value) : '');
  return `${stats.isSymbolicLink?.() === true ? 'l' : 'f'}:${stats.size}:${stats.mtimeMs}:${number(ctimeMs)}:${number(ino)}`;
}

/** Remembers `path`'s stamp for `image` (see {@link KeepBytes.stamp}) when `stats` is still what `lstat` says. */
async function rememberStamp(fs: FsPromises, path: string, keep: KeepBytes, image: string, stats?: FsStats): Promise<void> {
  // A temporary file of an atomic write is renamed at once: its stamp would never be asked for.
  if (!keep.stamp || isTemporaryFileName(basename(path))) return;
  const now = await fs.lstat(path).catch(() => undefined);
  if (now === undefined || !now.isFile()) return;
  const stamp = stampOf(now);
  if (stats === undefined || stampOf(stats) === stamp) keep.stamp(path, stamp, image);
}

/** Most files kept for one directory a call removes or moves; past it the directory's files are `'unknown'`. */
export const MAX_TREE_FILES = 10_000;

/**
 * One mutating call's images by path: before the call first changed each path (captured once), and
 * after its last change to it (taken as each change settles, still inside the tool's write, so a
 * later writer's change is never counted as this call's).
 */
export class CallCapture {
  readonly callId: string;
  readonly tool: string;
  /** Path → image before the call first changed it. */
  readonly before = new Map<string, string>();
  /** Path → image after the call's last change to it. */
  readonly after = new Map<string, string>();
  /** Paths a command changed (`'unlisted'`: the root of a command whose changes were not listed). */
  readonly commands = new Map<string, true | 'unlisted'>();
  /** Captures under way (the call awaits each before its change goes through). */
  readonly #pending = new Map<string, Promise<void>>();
  /** Post-images under way. */
  readonly #posting = new Set<Promise<void>>();
  /** Post-images of bytes written still being hashed (the writes returned without waiting for them). */
  readonly #hashing = new Set<Promise<void>>();
  /** Per path the call read, the journal's bytes equal to what it read, and the platform's change count then. */
  readonly #reads = new Map<string, { count: number; bytes: Uint8Array }>();
  /** Per path, the number of the call's latest change to it (counted by {@link #changeCount}). */
  readonly #latest = new Map<string, number>();
  #changeCount = 0;

  constructor(callId: string, tool: string) {
    this.callId = callId;
    this.tool = tool;
  }

  /** Resolves once every capture started so far has finished. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#pending.values(), ...this.#posting]);
  }

  /** Has {@link settled} wait for `work` too (a command's listing and reads). */
  track(work: Promise<unknown>): void {
    const settled: Promise<void> = work.then(
      () => undefined,
      () => undefined,
    );
    this.#posting.add(settled);
    void settled.then(() => this.#posting.delete(settled));
  }

  /** Records a change a command made: the first pre-image of the call wins, the post-image is the latest. */
  commandChanged(path: string, before: string, after: string, kind: true | 'unlisted'): void {
    if (!this.before.has(path)) this.before.set(path, before);
    this.after.set(path, after);
    this.commands.set(path, kind);
  }

  /**
   * Takes the post-image of `path` and of every captured path beneath it once a change settles: the
   * bytes written when the change was a whole write that succeeded (no read), else what is there now.
   * The image of bytes written is their hash, which nothing done later can change: where no stamp is
   * taken after the write (no commands are watched), the write returns without waiting for it (in a
   * browser WebCrypto hashes on another thread meanwhile); {@link settled} waits for it.
   */
  async post(fs: FsPromises, path: string, keep: KeepBytes, written?: Uint8Array | string): Promise<void> {
    keep.wrote?.(path);
    const change = (this.#changeCount += 1);
    this.#latest.set(path, change);
    if (written !== undefined && keep.stamp === undefined) {
      const bytes = typeof written === 'string' ? encoder.encode(written) : written;
      if (bytes.byteLength > (keep.maxFileBytes ?? Infinity)) {
        this.after.set(path, 'unknown');
        return;
      }
      const hashing = keep(bytes, path).then(
        // A later change of the call to the path (its own image taken meanwhile) wins.
        (image) => void (this.#latest.get(path) === change && this.after.set(path, image)),
        () => undefined,
      );
      this.#hashing.add(hashing);
      this.#posting.add(hashing);
      void hashing.then(() => (this.#hashing.delete(hashing), this.#posting.delete(hashing)));
      return;
    }
    // Images of earlier writes still hashing land first, so this later one is the path's last.
    if (this.#hashing.size > 0) await Promise.all(this.#hashing);
    const work = (async (): Promise<void> => {
      if (written !== undefined) {
        const bytes = typeof written === 'string' ? encoder.encode(written) : written;
        const image = bytes.byteLength > (keep.maxFileBytes ?? Infinity) ? 'unknown' : await keep(bytes, path);
        this.after.set(path, image);
        if (image !== 'unknown') await rememberStamp(fs, path, keep, image);
        return;
      }
      const prefix = `${path}/`;
      for (const captured of [...this.before.keys()]) {
        if (captured === path || captured.startsWith(prefix)) this.after.set(captured, await imageAt(fs, captured, keep));
      }
    })().catch(() => undefined);
    this.#posting.add(work);
    await work;
    this.#posting.delete(work);
  }

  /** Notes that the call read `bytes` (the journal's own, equal to what was read) at `path` while the platform's change count was `count`. */
  noteRead(path: string, count: number, bytes: Uint8Array): void {
    this.#reads.set(path, { count, bytes });
  }

  /** The bytes the call read at `path` when nothing has changed on the platform since (see {@link KeepBytes.known}). */
  readNow(path: string, keep: KeepBytes): Uint8Array | undefined {
    const read = this.#reads.get(path);
    return read !== undefined && keep.known?.changeCount() === read.count ? read.bytes : undefined;
  }

  /**
   * Keeps what is at `path` unless this call already did: a file's bytes, `'absent'`, or for a
   * directory every file beneath it (each under its own path).
   */
  capture(fs: FsPromises, path: string, keep: KeepBytes): Promise<void> {
    let pending = this.#pending.get(path);
    if (!pending) {
      pending = captureTree(fs, path, keep, this.before, () => this.readNow(path, keep)).then(() => undefined);
      this.#pending.set(path, pending);
    }
    return pending;
  }
}

/**
 * The image of what is at `path`, or `'dir'` / `'absent'` / `'unknown'`, its bytes kept when it is a
 * file; where the journal remembers stamps (and `remember`), the file's stamp is remembered for them
 * when it did not change while it was read.
 */
export async function imageAt(fs: FsPromises, path: string, keep: KeepBytes, remember = true, known?: () => Uint8Array | undefined): Promise<string> {
  try {
    const stats = await fs.lstat(path);
    if (stats.isDirectory()) return 'dir';
    if (!stats.isFile() || stats.size > (keep.maxFileBytes ?? Infinity)) return 'unknown';
    // What the call read here, when the platform says nothing changed since: the same bytes a read would give.
    const image = await keep(known?.() ?? (await fs.readFile(path)), path);
    if (remember) await rememberStamp(fs, path, keep, image, stats);
    return image;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : 'unknown';
  }
}

/** Captures `root` (a file, nothing, or a directory's files) into `into`, first capture of a path wins. */
async function captureTree(fs: FsPromises, root: string, keep: KeepBytes, into: Map<string, string>, known?: () => Uint8Array | undefined): Promise<void> {
  // No stamp for a pre-image: the post-image taken once the change settles remembers the stamp then
  // (every captured path gets one), so an lstat here would only be overwritten.
  const image = await imageAt(fs, root, keep, false, known);
  if (image !== 'dir') {
    if (!into.has(root)) into.set(root, image);
    return;
  }
  const queue = [root];
  let files = 0;
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const path = joinPath(dir, name);
      const inner = into.has(path) ? into.get(path) : await imageAt(fs, path, keep, false);
      if (inner === 'dir') queue.push(path);
      else if (!into.has(path)) {
        files += 1;
        into.set(path, files > MAX_TREE_FILES ? 'unknown' : (inner as string));
      }
    }
  }
}

const encoder = new TextEncoder();

/** Methods of the fs port that change the path in their first argument. */
const FIRST_PATH = new Set(['writeFile', 'writeFileAtomic', 'appendFile', 'truncate', 'unlink', 'rm', 'rmdir']);
/** Methods that change the path in their second argument. */
const SECOND_PATH = new Set(['copyFile', 'symlink', 'link']);

/**
 * `fs` as one mutating call sees it: before each change, the paths it changes are captured into
 * `call` (the first time the call changes each), and once the change settles their post-images. A
 * rename captures both its ends, and for a directory the new place of each file beneath it. Reads go
 * straight through. A capture that fails records the path as `'unknown'`: the journal never changes
 * the call's outcome.
 */
export function journalingFs(fs: FsPromises, call: CallCapture, keep: KeepBytes): FsPromises {
  return wrapFsMethods(fs, (property, method, target) => {
    if (FIRST_PATH.has(property) || SECOND_PATH.has(property)) {
      const at = FIRST_PATH.has(property) ? 0 : 1;
      const whole = property === 'writeFile' || property === 'writeFileAtomic';
      return async (...args: unknown[]): Promise<unknown> => {
        const path = args[at];
        if (typeof path !== 'string') return method.apply(target, args);
        await call.capture(target, path, keep);
        // A whole write of text is encoded once, here: the platform gets the bytes the journal keeps.
        if (whole && typeof args[1] === 'string') args[1] = encoder.encode(args[1]);
        try {
          const result = await method.apply(target, args);
          const data = args[1];
          await call.post(target, path, keep, whole && (typeof data === 'string' || data instanceof Uint8Array) ? data : undefined);
          return result;
        } catch (error) {
          await call.post(target, path, keep);
          throw error;
        }
      };
    }
    const { known } = keep;
    if (property === 'readFile' && known !== undefined) {
      return async (...args: unknown[]): Promise<unknown> => {
        const count = known.changeCount();
        const result = await method.apply(target, args);
        const path = args[0];
        // Compared before the tool has the bytes (it could change them); kept only when nothing changed meanwhile.
        if (typeof path === 'string' && result instanceof Uint8Array && known.changeCount() === count) {
          const bytes = known.bytesAt(path, result);
          if (bytes !== undefined) call.noteRead(path, count, bytes);
        }
        return result;
      };
    }
    if (property === 'rename') {
      return async (...args: unknown[]): Promise<unknown> => {
        const [from, to] = args;
        if (typeof from !== 'string' || typeof to !== 'string') return method.apply(target, args);
        await captureRename(target, call, from, to, keep);
        try {
          return await method.apply(target, args);
        } finally {
          await call.post(target, from, keep);
          await call.post(target, to, keep);
        }
      };
    }
    return undefined;
  });
}

/** Captures both ends of `rename(from, to)`; for a directory, also the place each file beneath it moves to. */
async function captureRename(fs: FsPromises, call: CallCapture, from: string, to: string, keep: KeepBytes): Promise<void> {
  await call.capture(fs, from, keep);
  await call.capture(fs, to, keep);
  const prefix = `${from}/`;
  for (const path of [...call.before.keys()]) {
    if (path.startsWith(prefix)) await call.capture(fs, to + path.slice(from.length), keep);
  }
}
