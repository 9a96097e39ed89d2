// Commands' file changes: a listing of the workspace before and after each command a mutating call runs.
import type { FsDirent, FsPromises } from '../core/fs-port.js';
import type { Platform, RunCommandRequest, RunCommandResult, ShellSession } from '../core/platform.js';
import type { SearchSource } from '../search/source-port.js';
import { joinPath } from '../core/posix-path.js';
import { isTemporaryFileName } from '../fs/paths.js';
import { searchSourceOf } from '../search/engine-source.js';
import { isContent } from './model.js';
import { imageAt, MAX_TREE_FILES, stampOf, type CallCapture, type KeepBytes } from './recorder.js';

/** Most entries (files, links and folders) a command's listing takes; past it the command's changes are not listed. */
export const MAX_LISTED_ENTRIES = 50_000;

/** Folders a listing does not enter: a version control store and installed packages. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

/** How many `lstat`s a listing has under way at once. */
const STATS_AT_ONCE = 32;

/** Path → stamp of every file and symbolic link under a root (skipped folders and temporary files left out). */
type Listing = Map<string, string>;

/**
 * A file modified this close (ms) before a listing may change again without its stamp changing (a
 * file system's clock ticks coarsely): its content is read before the command, and compared after it.
 */
const RACY_MS = 2_000;

/** Most recently modified files read before one command (see {@link RACY_MS}), and most bytes of them. */
const MAX_RACY_FILES = 256;
const MAX_RACY_BYTES = 16 * 1024 * 1024;

/** The workspace before a command: its listing, and the content of files modified just before it. */
export interface BeforeCommand {
  listing: Listing;
  /** Path → image of each recently modified file, read before the command. */
  read: Map<string, string>;
}

/** How a listing reads folders and stamps: the platform's `fs`, and its search engine's source where it has one (synchronous, several times faster). */
export interface TreeReader {
  fs: FsPromises;
  source?: SearchSource | undefined;
}

/** Entries stamped between two yields to the event loop when stamping synchronously. */
const SYNC_STATS_PER_YIELD = 2_000;

/**
 * Lists `root`'s files and links with their stamps (see {@link stampOf}), not entering `.git` or
 * `node_modules` nor following links. Answers undefined past {@link MAX_LISTED_ENTRIES} entries.
 * `recent` gets the regular files modified within {@link RACY_MS} of the listing.
 */
export async function listTree(reader: TreeReader, root: string, recent?: { path: string; size: number }[]): Promise<Listing | undefined> {
  const { fs, source } = reader;
  const listing: Listing = new Map();
  const since = Date.now() - RACY_MS;
  const add = (path: string, stats: { size: number; mtimeMs: number; isSymbolicLink?: () => boolean }, regular: boolean): void => {
    listing.set(path, stampOf(stats));
    if (recent !== undefined && regular && stats.mtimeMs >= since) recent.push({ path, size: stats.size });
  };
  const folders = [root];
  let entries = 0;
  let stamped = 0;
  while (folders.length > 0) {
    const folder = folders.pop() as string;
    let dirents: FsDirent[];
    try {
      dirents = source ? source.readdir(folder) : await fs.readdir(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    entries += dirents.length;
    if (entries > MAX_LISTED_ENTRIES) return undefined;
    const links: string[] = [];
    for (const dirent of dirents) {
      const path = joinPath(folder, dirent.name);
      if (dirent.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(dirent.name)) folders.push(path);
      } else if (isTemporaryFileName(dirent.name) || !(dirent.isFile() || dirent.isSymbolicLink())) continue;
      else if (source && dirent.isFile()) {
        let stats: { size: number; mtimeMs: number } | undefined;
        try {
          stats = source.stat(path);
        } catch {
          // Unreadable: left out of the listing, as a file that is gone.
        }
        if (stats !== undefined) add(path, stats, true);
        if ((stamped += 1) % SYNC_STATS_PER_YIELD === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      } else links.push(path);
    }
    for (let i = 0; i < links.length; i += STATS_AT_ONCE) {
      await Promise.all(
        links.slice(i, i + STATS_AT_ONCE).map(async (path) => {
          const stats = await fs.lstat(path).catch(() => undefined);
          if (stats !== undefined) add(path, stats, stats.isFile());
        }),
      );
    }
  }
  return listing;
}

/** Lists `root` before a command and reads the files modified just before (undefined: over budget). */
export async function beforeCommand(reader: TreeReader, root: string, keep: KeepBytes): Promise<BeforeCommand | undefined> {
  const recent: { path: string; size: number }[] = [];
  const listing = await listTree(reader, root, recent);
  if (listing === undefined) return undefined;
  const read = new Map<string, string>();
  let bytes = 0;
  for (const { path, size } of recent.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (read.size >= MAX_RACY_FILES || (bytes += size) > MAX_RACY_BYTES) break;
    const image = await imageAt(reader.fs, path, keep, false);
    if (isContent(image)) read.set(path, image);
  }
  return { listing, read };
}

/** What the watch needs of the journal's open turn. */
export interface CommandJournal {
  /** Keeps bytes as a blob held by the turn (and remembers the path's stamp for them). */
  readonly keep: KeepBytes;
  /** The image the journal holds for `path` as it was at `stamp` (a reference held for the turn), or undefined. */
  knownImage(path: string, stamp: string): string | undefined;
  /** Starts watching for the length of a command: `touched(path)` says whether a journaled call (any conversation) changed `path` since; `close` ends it. */
  watch(): { touched(path: string): boolean; close(): void };
}

/**
 * Records into `capture` the files a command changed under `root`, given the listing taken before it
 * (undefined: the listing was over budget). Each created, modified or removed file becomes a change
 * marked as a command's: its pre-image is `'absent'` (created), the journal's content for the stamp it
 * had, or `'unknown'`; its post-image is read and kept (past {@link MAX_TREE_FILES} changed files,
 * `'unknown'`). A listing over budget records the root itself, both images `'unknown'`.
 */
export async function recordCommandChanges(
  reader: TreeReader,
  root: string,
  before: BeforeCommand | undefined,
  capture: CallCapture,
  journal: CommandJournal,
  touched: (path: string) => boolean,
): Promise<void> {
  const after = before === undefined ? undefined : await listTree(reader, root);
  if (before === undefined || after === undefined) {
    capture.commandChanged(root, 'unknown', 'unknown', 'unlisted');
    return;
  }
  let changed: string[] = [];
  for (const [path, stamp] of before.listing) if (after.get(path) !== stamp || before.read.has(path)) changed.push(path);
  for (const path of after.keys()) if (!before.listing.has(path)) changed.push(path);
  // A file a journaled call (of any conversation) wrote while the command ran is that call's change, not the command's.
  changed = changed.filter((path) => !touched(path)).sort();
  let read = 0;
  for (const path of changed) {
    const was = before.listing.get(path);
    const pre = was === undefined ? 'absent' : (before.read.get(path) ?? journal.knownImage(path, was) ?? 'unknown');
    let post = 'absent';
    if (after.has(path)) post = (read += 1) > MAX_TREE_FILES ? 'unknown' : await imageAt(reader.fs, path, journal.keep);
    // A file read before the command whose content is as it was: unchanged (its stamp may not say so).
    if (post === pre && before.read.has(path)) continue;
    capture.commandChanged(path, pre, post, true);
  }
}

/**
 * Whether a platform's commands can change its files behind `fs` and a listing can see it: it runs
 * commands, and its files are not known to change only through `fs` (no `changeCount`: a real
 * directory, as on Node). The memory and web platforms run no commands: nothing is listed there.
 */
export function watchesCommands(platform: Platform): boolean {
  return platform.capabilities.runCommand && platform.changeCount === undefined && (typeof platform.runCommand === 'function' || typeof platform.shellSession === 'function');
}

/**
 * `platform` as one mutating call sees it: `runCommand` and the shell sessions' `run` list the
 * workspace before and after each command and record what it changed into `capture` (the command's
 * answer waits for that). Background commands are not watched. Everything else is the platform's own,
 * bound to it.
 */
export function watchingPlatform(platform: Platform, capture: CallCapture, journal: CommandJournal): Platform {
  const { root } = platform;
  const reader: TreeReader = { fs: platform.fs, source: searchSourceOf(platform) };
  const watched = async <T>(run: () => Promise<T>): Promise<T> => {
    const work = (async (): Promise<{ value: T } | { error: unknown }> => {
      const watching = journal.watch();
      try {
        const before = await beforeCommand(reader, root, journal.keep).catch(() => undefined);
        let outcome: { value: T } | { error: unknown };
        try {
          outcome = { value: await run() };
        } catch (error) {
          outcome = { error };
        }
        await recordCommandChanges(reader, root, before, capture, journal, (path) => watching.touched(path)).catch(() => undefined);
        return outcome;
      } finally {
        watching.close();
      }
    })();
    capture.track(work);
    const outcome = await work;
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  };
  const overrides: Record<PropertyKey, unknown> = {};
  const runCommand = platform.runCommand?.bind(platform);
  if (runCommand) overrides.runCommand = (request: RunCommandRequest, signal: AbortSignal): Promise<RunCommandResult> => watched(() => runCommand(request, signal));
  const shellSession = platform.shellSession?.bind(platform);
  if (shellSession) {
    overrides.shellSession = (conversationId: string): ShellSession => {
      const session = shellSession(conversationId);
      return {
        run: (request, signal) => watched(() => session.run(request, signal)),
        restart: () => session.restart(),
      };
    };
  }
  return new Proxy(platform, {
    get(target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
