import { Buffer, isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { posix } from 'node:path';
import { isToolError, ToolError } from '../src/core/errors.js';
import type { FsDirent } from '../src/core/types.js';
import type { SearchFileStat, SearchSource, WalkDeeper } from '../src/search/source-port.js';
import { racyNow, timesSettled } from '../src/fs/racy-clock.js';
import { BINARY_SNIFF_BYTES } from '../src/fs/text.js';
import { DEFAULT_CACHE_BYTES, releaseCache } from '../src/search/source-cache.js';
import { decodeEntries, encodeEntries, type ListingSession, type NodeSearchHelper, startSearchHelper } from './search-helper.js';
import { linearByteSearch } from '../src/search/linear-find.js';
import { rareByteFirst } from './rare-byte-search.js';
import { canonicalPath, escapeBytes, unescapePath } from './fs/names.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY, O_DIRECTORY } = fs.constants;
/** A regular file opened for reading: never through a final symlink, never waiting on a FIFO or terminal. */
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
/** A directory held for the walk: never through a symlink. */
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Files larger than this are read 8 KiB first, and no further when that shows them binary. */
const SNIFF_FIRST_BYTES = 1024 * 1024;
const sniffBuffer = new Uint8Array(BINARY_SNIFF_BYTES);
/** Bytes of one block of {@link NodeSearchSource.readBlocks}: small enough for the processor's cache to hold. */
const BLOCK_BYTES = 256 * 1024;
/** The buffer every block is read into (a read is synchronous, so one serves the thread). */
let blockBuffer: Uint8Array | undefined;
/** Directory entries the listing cache keeps at most (the walk's own cap). */
const MAX_LISTED_ENTRIES = 200_000;
/** Directory descriptors kept open at once (the walk's ancestors and recent directories). */
const HELD_DIRS = 64;
/** The first value of {@link NodeSearchSource.exportListings}' text: a text of another format is ignored. */
const LISTINGS_FORMAT = 'toolhost-listings-1';
/** Linux's longest path (bytes, with its NUL): a longer one is reached through a held directory only. */
const PATH_MAX = 4096;
/** Errors of a file's `lstat` that say why it cannot be read (see `SkipKind`), not that it is gone. */
const REPORTED_STAT_ERRORS: ReadonlySet<unknown> = new Set(['ENAMETOOLONG', 'EACCES', 'EPERM', 'ELOOP']);

/** Options of {@link createNodeSearchSource}. */
export interface NodeSearchSourceOptions {
  /** Bytes of file content the search cache keeps (default 256 MiB; with a helper, half on each thread). */
  cacheBytes?: number;
  /**
   * Share each large count with a helper thread (see `startSearchHelper`), from the
   * built package only (default true).
   */
  helper?: boolean;
  /**
   * Keep the listings read in the listing cache, up to its 200,000 entries (default true). The
   * helper thread's sources keep none: each of the process's platforms has one there, in a heap of
   * 96 MiB that the cached entries of a few large trees would fill (the thread then runs out of
   * memory and every count falls back to the calling thread); the walk it lists for keeps the listing.
   */
  keepListings?: boolean;
}

/** What Node search sources take where their options say nothing (see {@link withSearchSourceDefaults}). */
let sourceDefaults: SearchSourceDefaults = {};

/** The options {@link withSearchSourceDefaults} sets defaults for. */
export type SearchSourceDefaults = Pick<NodeSearchSourceOptions, 'cacheBytes' | 'helper' | 'keepListings'>;

/**
 * Runs `create` (which makes a platform, say) with `defaults` for the Node search sources it creates
 * where their options say nothing (`cacheBytes`, `helper`, `keepListings`), and returns what it returns. The
 * `toolhost call` command, which runs one call and exits, passes `{ cacheBytes: 0, helper: false, keepListings: false }`:
 * no later search could reuse a cached file, and filling a cache costs a new process a page fault for
 * each page of every file it reads (about as much again as the search); a helper thread, which starts
 * and compiles toolhost's code for itself, costs more than it takes over in one search; nor could a
 * later walk reuse a kept listing (the entries of every directory, kept alive across the search and
 * moved by every collection). Not part of the package's entries.
 */
export function withSearchSourceDefaults<T>(defaults: SearchSourceDefaults, create: () => T): T {
  const before = sourceDefaults;
  sourceDefaults = { ...defaults };
  try {
    return create();
  } finally {
    sourceDefaults = before;
  }
}

/**
 * Whether an imported entry is one a listing can hold: a known type, and a name as a listing writes
 * it ({@link isListedSegment}).
 */
function isListedName(entry: FsDirent): boolean {
  return 'dflo'.includes(String.fromCharCode((entry as unknown as { type: number }).type)) && isListedSegment(entry.name);
}

/**
 * Whether `name` is one folder entry's name exactly as a listing writes it: not empty, `.` or `..`
 * (once its `\xNN` escapes are undone too), no `/` or NUL (escaped or not), and in the one spelling
 * `escapeBytes` gives its bytes (so `\x2e\x2e`, which no listing writes, is not `..` by another name).
 */
function isListedSegment(name: string): boolean {
  if (name === '' || name === '.' || name === '..' || name.includes('\0') || name.includes('/')) return false;
  try {
    // Throws for an escape of `/` or NUL; `\x2e\x2e` is spelt `..`, which is refused above.
    return canonicalPath(name) === name;
  } catch {
    return false;
  }
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Whether an imported listing's `path` is one the walk asks for: `root`, or a path inside it in normal
 * form whose every name below the root is written as a listing writes it ({@link isListedSegment}).
 */
function isListedPath(root: string, path: string): boolean {
  if (path === root) return true;
  // No name empty, `.` or `..`: no doubled or trailing slash either, so the path is in normal form.
  if (!inside(root, path)) return false;
  return path
    .slice(root === '/' ? 1 : root.length + 1)
    .split('/')
    .every(isListedSegment);
}

function inside(root: string, path: string): boolean {
  return root === '/' ? path.startsWith('/') : path === root || path.startsWith(root + '/');
}

const bufferIndexOf = Buffer.prototype.indexOf as (this: Uint8Array, needle: Uint8Array | number, from: number) => number;
/**
 * Buffer's indexOf (it takes any Uint8Array as `this`: no Buffer view made per call), linear for long
 * needles, and led by the needle's rarest byte for needles of 2 to 16 bytes (see `rareByteFirst`).
 */
const nativeThenLinear = rareByteFirst(linearByteSearch((haystack, needle, from) => bufferIndexOf.call(haystack, needle, from)));

/** `/proc/<pid>/fd/`: one symbolic link fewer to resolve per open than `/proc/self/fd/`. */
const FD_DIR = `/proc/${process.pid}/fd/`;

function childOf(dirfd: number, name: string): string | Buffer {
  const raw = unescapePath(name);
  return typeof raw === 'string' ? `${FD_DIR}${dirfd}/${raw}` : Buffer.concat([Buffer.from(`${FD_DIR}${dirfd}/`), raw]);
}

/**
 * A directory listing, with the directory's (inode, mtime, ctime) when read and the `racyNow()`
 * before it was read: the ctime too, since a tool that adds or removes an entry and then sets the
 * folder's mtime back (`utimes`, as `rsync -t`, `cp -p` and `tar` do) cannot set the ctime back. Both
 * times must be settled before the read (`timesSettled`): some file systems stamp a folder coarsely
 * (tmpfs keeps one time for every change within a clock tick), so a change right after a listing can
 * leave the ctime it was listed with.
 */
export interface Listing {
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  readAt: number;
  entries: FsDirent[];
}

/** A directory held open: its descriptor, its (device, inode) once known (-1: not yet), and the call it was last checked in. */
interface HeldDir {
  fd: number;
  dev: number;
  ino: number;
  checked: number;
}

/**
 * The Node search source (see {@link createNodeSearchSource}). A class, not an object of closures
 * made per platform: V8's optimized code for its methods then serves every platform, instead of
 * pointing at one platform's closures and being thrown away when that platform is disposed.
 */
export class NodeSearchSource implements SearchSource {
  readonly indexOf = nativeThenLinear;
  readonly cacheBytes: number | undefined;
  readonly helper: NodeSearchHelper | undefined;
  readonly #root: string;
  readonly #rootSlash: string;
  readonly #rootFd: number;
  /** Held directories by workspace path (insertion order = recency). */
  readonly #held = new Map<string, HeldDir>();
  /** Moved by each {@link NodeSearchSource.begin}: a held directory checked in an earlier call is checked again before use. */
  #call = 0;
  /**
   * Listings read before, by directory, with the directory's (inode, mtime, ctime) when read: a repeated walk
   * costs one `lstat` per directory instead of an open, a listing and a close.
   */
  readonly #listings = new Map<string, Listing>();
  #listedEntries = 0;
  /** Set by `#dirFd` when it opened the directory just now (so there is nothing to re-check). */
  #opened = false;
  /** The walk's directories handed to the helper thread to list ahead (see `prefetch`). */
  #ahead: ListingSession | undefined;
  /** The call whose walk found no helper thread to list ahead (not asked again in it). */
  #aloneCall = -1;
  /** Listings answered from the helper thread's so far (a diagnostic). */
  listedAhead = 0;
  /** Folders listed on this thread so far, not answered from the listing cache or the helper thread (a diagnostic). */
  listedHere = 0;
  #closed = false;
  readonly #keepListings: boolean;
  /** Whether the listing cache holds a listing read (or dropped) since {@link NodeSearchSource.importListings} (or ever): what `exportListings` would write differs. */
  #listingsMoved = false;

  constructor(root: string, given: NodeSearchSourceOptions) {
    const options = { ...sourceDefaults, ...given };
    this.#root = root;
    this.#keepListings = options.keepListings !== false;
    this.#rootSlash = root === '/' ? '/' : root + '/';
    this.#rootFd = fs.openSync(root, DIR_FLAGS);
    const budget = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
    this.helper = options.helper === false ? undefined : startSearchHelper(root, Math.floor(budget / 2));
    this.cacheBytes = this.helper ? budget - Math.floor(budget / 2) : options.cacheBytes;
  }

  readdir(path: string): FsDirent[] {
    return this.listing(path).entries;
  }

  /**
   * The listing of the directory `path` with the directory's (inode, mtime, ctime): the one read before
   * while the directory is unchanged, else the helper thread's when it listed it ahead, else read now.
   * Errors as `readdir`.
   */
  listing(path: string): Listing {
    this.#live();
    const normal = this.#check(path);
    const known = this.#listings.get(normal);
    if (known) {
      // As for a cached file: the whole-path stat only decides whether the listing read before
      // (through held descriptors) is still current.
      let now: fs.Stats | undefined;
      try {
        now = this.#lstat(normal);
      } catch {
        now = undefined;
      }
      if (now?.isDirectory() && now.ino === known.ino && now.mtimeMs === known.mtimeMs && now.ctimeMs === known.ctimeMs && timesSettled(now, known.readAt)) {
        return known;
      }
      this.#listings.delete(normal);
      this.#listedEntries -= known.entries.length;
      this.#listingsMoved = true;
    }
    const ahead = this.#ahead;
    const answer = ahead?.take(normal);
    if (answer !== undefined) {
      this.listedAhead += 1;
      (ahead as ListingSession).below(normal, answer);
      return this.#keep(normal, { ino: answer.ino, mtimeMs: answer.mtimeMs, ctimeMs: answer.ctimeMs, readAt: answer.readAt, entries: decodeEntries(answer.entries as string) });
    }
    const readAt = racyNow();
    this.listedHere += 1;
    let fd = this.#dirFd(normal);
    if (normal !== this.#root && !this.#opened) {
      // A held descriptor may name a directory renamed since: check it is still the one at this path.
      const [parent, name] = this.#parentAndName(normal);
      const now = fs.lstatSync(childOf(parent, name), { throwIfNoEntry: false });
      if (!now?.isDirectory() || now.ino !== fs.fstatSync(fd).ino) {
        this.#drop(normal);
        fd = this.#dirFd(normal);
      }
    }
    // Stat before listing: a change after it leaves a newer mtime, so the listing is read again next time.
    const stats = fs.fstatSync(fd);
    let entries: FsDirent[] = fs.readdirSync(`${FD_DIR}${fd}`, { withFileTypes: true });
    // Names that are not UTF-8 decode with U+FFFD (and a backslash needs escaping): list those again as bytes, in the \xNN form.
    if (entries.some((entry) => entry.name.includes('\uFFFD') || entry.name.includes('\\'))) {
      entries = fs.readdirSync(`${FD_DIR}${fd}`, { withFileTypes: true, encoding: 'buffer' }).map((entry) => {
        const name = escapeBytes(entry.name);
        return { name, isFile: () => entry.isFile(), isDirectory: () => entry.isDirectory(), isSymbolicLink: () => entry.isSymbolicLink() };
      });
    }
    return this.#keep(normal, { ino: stats.ino, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, readAt, entries });
  }

  /** `listing` of `path`, kept in the listing cache (unless this source keeps none, or the cache is full). */
  #keep(path: string, listing: Listing): Listing {
    if (this.#keepListings && this.#listedEntries + listing.entries.length <= MAX_LISTED_ENTRIES) {
      this.#listings.set(path, listing);
      this.#listedEntries += listing.entries.length;
      this.#listingsMoved = true;
    }
    return listing;
  }

  /**
   * The listing cache as text for a later process's {@link importListings} (the search index's new
   * process reads it instead of listing every folder again), or undefined when the cache is as it was
   * imported (nothing to write). Only listings a later walk can trust go in: those whose folder's
   * times were settled when it was read (`timesSettled`); another process trusts each one exactly as
   * this one does, while the folder's `lstat` shows the inode, mtime and ctime it was listed with.
   * Each folder's entries are written as `encodeEntries` writes them, each name ended by `/` (which
   * no name holds) rather than NUL, which JSON would spell as six characters.
   */
  exportListings(): string | undefined {
    if (!this.#listingsMoved) return undefined;
    const rows: unknown[] = [LISTINGS_FORMAT, this.#root];
    for (const path of this.#reachableListings()) {
      const listing = this.#listings.get(path) as Listing;
      if (!timesSettled(listing, listing.readAt)) continue;
      rows.push(path, listing.ino, listing.mtimeMs, listing.ctimeMs, listing.readAt, encodeEntries(listing.entries, '/'));
    }
    return JSON.stringify(rows);
  }

  /**
   * The folders of the listing cache a walk can still reach: each whose parent's listing is not kept,
   * and each whose parent is reached and still lists it as a folder. A folder removed (or replaced)
   * since it was listed is left out with everything kept below it, so the file does not keep the
   * listings of folders long gone.
   */
  #reachableListings(): string[] {
    const paths = [...this.#listings.keys()].sort((a, b) => a.length - b.length);
    const reached = new Set<string>();
    const folders = new Map<string, Set<string>>();
    for (const path of paths) {
      const slash = path.lastIndexOf('/');
      const parent = slash === 0 ? '/' : path.slice(0, slash);
      const parentListing = path === this.#root ? undefined : this.#listings.get(parent);
      if (parentListing !== undefined) {
        if (!reached.has(parent)) continue;
        let names = folders.get(parent);
        if (!names) folders.set(parent, (names = new Set(parentListing.entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name))));
        if (!names.has(path.slice(slash + 1))) continue;
      }
      reached.add(path);
    }
    return paths.filter((path) => reached.has(path));
  }

  /**
   * Fills the listing cache from {@link exportListings}' text of an earlier process (for this root,
   * this format, each folder once; anything else, a truncated or unreadable text included, is ignored whole). Each
   * listing is still checked against its folder's `lstat` before a walk uses it, as one read here is.
   * Returns how many listings it took.
   */
  importListings(text: string): number {
    // Parsed only when it starts as exportListings writes it (text of another kind is not parsed at all).
    if (this.#closed || !text.startsWith(`[${JSON.stringify(LISTINGS_FORMAT)},`)) return 0;
    let rows: unknown;
    try {
      rows = JSON.parse(text);
    } catch {
      return 0;
    }
    if (!Array.isArray(rows) || rows[0] !== LISTINGS_FORMAT || rows[1] !== this.#root || (rows.length - 2) % 6 !== 0) return 0;
    const taken: [string, Listing][] = [];
    const seen = new Set<string>();
    let entries = this.#listedEntries;
    for (let at = 2; at < rows.length; at += 6) {
      const path = rows[at] as unknown;
      const encoded = rows[at + 5] as unknown;
      if (typeof path !== 'string' || seen.has(path) || !isListedPath(this.#root, path) || typeof encoded !== 'string' || !(encoded === '' || encoded.endsWith('/'))) return 0;
      seen.add(path);
      const [ino, mtimeMs, ctimeMs, readAt] = [rows[at + 1], rows[at + 2], rows[at + 3], rows[at + 4]];
      if (!isFiniteNumber(ino) || !isFiniteNumber(mtimeMs) || !isFiniteNumber(ctimeMs) || !isFiniteNumber(readAt)) return 0;
      if (this.#listings.has(path)) continue;
      const listing: Listing = { ino, mtimeMs, ctimeMs, readAt, entries: decodeEntries(encoded, '/') };
      const names = new Set<string>();
      for (const entry of listing.entries) {
        if (!isListedName(entry) || names.has(entry.name)) return 0;
        names.add(entry.name);
      }
      if (entries + listing.entries.length > MAX_LISTED_ENTRIES) break;
      entries += listing.entries.length;
      taken.push([path, listing]);
    }
    for (const [path, listing] of taken) this.#listings.set(path, listing);
    this.#listedEntries = entries;
    return taken.length;
  }

  /**
   * Hands the directories the walk will list (those not in the listing cache) to the helper thread, to
   * be listed there ahead of the walk through its own held descriptors, as race-free as here, while
   * the thread runs and has no count to do (see `ListingSession`); the walk then takes each answer for
   * the price of a message instead of two opens and a listing.
   */
  prefetch(paths: readonly string[], deeper: WalkDeeper | undefined): void {
    if (this.#closed || this.#aloneCall === this.#call) return;
    // Not those listed before, nor those the helper lists anyway (below one it listed).
    const listings = this.#listings;
    const known = this.#ahead;
    let unknown: string[] | undefined;
    for (let i = 0; i < paths.length; i += 1) {
      const path = paths[i] as string;
      if (listings.has(path) || known?.has(path) === true) unknown ??= paths.slice(0, i);
      else unknown?.push(path);
    }
    const wanted = unknown ?? paths;
    // A walk over listings all cached (a repeated search) starts no session.
    if (wanted.length === 0) return;
    const ahead = known ?? this.helper?.listAhead();
    if (ahead === undefined || !ahead.post(wanted, deeper)) {
      this.#ahead = undefined;
      this.#aloneCall = this.#call;
      return;
    }
    this.#ahead = ahead;
  }


  stat(path: string): SearchFileStat | undefined {
    this.#live();
    let stats: fs.Stats | undefined;
    try {
      // By its whole path where the system takes it (half the cost of going through a held
      // directory): the cache only compares this stat with the one taken when the file was read
      // through held directories, so a folder swapped for a link out can make it read the file
      // again, never return bytes from outside.
      stats = this.#lstat(this.#check(path));
    } catch (error) {
      if (isToolError(error)) throw error;
      // Gone (ENOENT, ENOTDIR) is undefined; a path that cannot be read for another reason is thrown
      // for the search to count under its own kind (unreadable, a link, too long), never as gone.
      if (REPORTED_STAT_ERRORS.has((error as { code?: unknown }).code)) throw error;
      return undefined;
    }
    return stats?.isFile() ? statOf(stats) : undefined;
  }

  read(path: string, maxBytes: number, into?: (size: number) => Uint8Array): { bytes: Uint8Array; stat: SearchFileStat } | undefined {
    const fd = this.#openFile(path);
    if (fd === undefined) return undefined;
    try {
      const stats = fs.fstatSync(fd);
      if (!stats.isFile()) return undefined;
      const size = Math.min(stats.size, maxBytes);
      let got = 0;
      if (size > SNIFF_FIRST_BYTES && stats.size < maxBytes) {
        // A large file whose first 8 KiB hold a NUL is binary whatever follows: read no further.
        while (got < BINARY_SNIFF_BYTES) {
          const n = fs.readSync(fd, sniffBuffer, got, BINARY_SNIFF_BYTES - got, got);
          if (n === 0) break;
          got += n;
        }
        if (bufferIndexOf.call(sniffBuffer.subarray(0, got), 0, 0) !== -1) return { bytes: sniffBuffer.subarray(0, got), stat: statOf(stats) };
      }
      const bytes = into ? into(size) : Buffer.allocUnsafe(size);
      if (got > 0) bytes.set(sniffBuffer.subarray(0, got));
      while (got < size) {
        const n = fs.readSync(fd, bytes, got, size - got, got);
        if (n === 0) break;
        got += n;
      }
      return { bytes: got === size ? bytes : bytes.subarray(0, got), stat: statOf(stats) };
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * The regular file at `path` a block of 256 KiB at a time, each in the same reused buffer, handed
   * to `each` in order until it answers false (see `BlockReader`); opened as {@link read} opens it.
   * Its stat; undefined when it is gone or not a regular file; 'large' (nothing read) over `limit`.
   */
  readBlocks(path: string, limit: number, each: (block: Uint8Array) => boolean): SearchFileStat | 'large' | undefined {
    const fd = this.#openFile(path);
    if (fd === undefined) return undefined;
    try {
      const stats = fs.fstatSync(fd);
      if (!stats.isFile()) return undefined;
      if (stats.size > limit) return 'large';
      const block = (blockBuffer ??= new Uint8Array(BLOCK_BYTES));
      const size = stats.size;
      let got = 0;
      while (got < size) {
        const want = Math.min(BLOCK_BYTES, size - got);
        let filled = 0;
        while (filled < want) {
          const n = fs.readSync(fd, block, filled, want - filled, got + filled);
          if (n === 0) break;
          filled += n;
        }
        got += filled;
        // Shorter than asked: the file ended early (it shrank since its stat).
        if (filled === 0 || !each(filled === BLOCK_BYTES ? block : block.subarray(0, filled)) || filled < want) break;
      }
      return statOf(stats);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** A descriptor of the regular file at `path` (see {@link read}); undefined when it is gone or no longer a regular file. */
  #openFile(path: string): number | undefined {
    this.#live();
    try {
      const [dir, name] = this.#parentAndName(this.#check(path));
      return fs.openSync(childOf(dir, name), READ_FLAGS);
    } catch (error) {
      if (isToolError(error)) throw error;
      // Gone, or no longer a regular file; unreadable or replaced by a link (ELOOP) is thrown, for the
      // search to count as skipped.
      const code = (error as { code?: unknown }).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENXIO' || code === 'EISDIR') return undefined;
      throw error;
    }
  }

  isUtf8(bytes: Uint8Array): boolean {
    return isUtf8(bytes);
  }

  decode(bytes: Uint8Array): string {
    // Buffer's own decoder: faster than TextDecoder for ASCII-heavy text.
    return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('utf8');
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.end();
    this.#listings.clear();
    this.helper?.close();
    releaseCache(this);
    for (const { fd } of this.#held.values()) fs.closeSync(fd);
    this.#held.clear();
    fs.closeSync(this.#rootFd);
  }

  /** The path, normal and lexically inside the root; else ToolError `outside_workspace`. */
  #check(path: string): string {
    const root = this.#root;
    // The walker's paths are already normal: no `.` or `..` component, no doubled slash, no NUL.
    if (path.startsWith(this.#rootSlash) && !path.includes('/.') && !path.includes('//') && !path.endsWith('/') && !path.includes('\0')) return path;
    const normal = posix.normalize(path);
    if (!normal.startsWith('/') || !inside(root, normal) || normal.includes('\0')) {
      throw new ToolError('outside_workspace', `search path is outside the workspace ${root}`);
    }
    return normal;
  }

  /** Throws once the source is closed: its descriptors are gone (or reused), so nothing it answered now would be true. */
  #live(): void {
    if (this.#closed) throw new ToolError('unavailable', 'the platform was disposed while this call ran: create a new platform and search again');
  }

  /**
   * A search or walk starts: directories held from an earlier call are checked against their paths
   * again before they are used (see `#dirFd`).
   */
  begin(): void {
    this.#call += 1;
    this.end();
  }

  /**
   * Whether the helper thread has answered for the directory `path` handed to it (or found below one
   * it listed) and this walk has not taken it yet (a diagnostic).
   */
  answeredAhead(path: string): boolean {
    return this.#ahead?.answered(path) === true;
  }

  /** The walk is over: the helper thread lists nothing more ahead of it. */
  end(): void {
    this.#ahead?.cancel();
    this.#ahead = undefined;
  }

  #hold(path: string, fd: number): number {
    const held = this.#held;
    held.set(path, { fd, dev: -1, ino: -1, checked: this.#call });
    if (held.size > HELD_DIRS) {
      for (const [old, { fd: oldFd }] of held) {
        held.delete(old);
        fs.closeSync(oldFd);
        break;
      }
    }
    return fd;
  }

  #drop(path: string): void {
    const known = this.#held.get(path);
    if (!known) return;
    this.#held.delete(path);
    fs.closeSync(known.fd);
  }

  /**
   * A descriptor of the directory `path` (normalised, inside the root), opened component by component.
   * A held one is trusted within the call that opened or checked it; in a later call it is first
   * checked to be still the directory at `path` (same device and inode as the `lstat` of the whole
   * path): a folder renamed or moved away since, even out of the workspace, keeps its descriptor, and
   * reading through that would read the folder's new place, not what is at the path now.
   */
  #dirFd(path: string): number {
    this.#opened = false;
    if (path === this.#root) return this.#rootFd;
    const known = this.#held.get(path);
    if (known !== undefined) {
      // Out of the map while it is checked: the parents that check may open cannot close it.
      this.#held.delete(path);
      if (known.checked === this.#call || this.#stillAt(path, known)) {
        known.checked = this.#call;
        this.#held.set(path, known);
        this.#opened = false;
        return known.fd;
      }
      fs.closeSync(known.fd);
    }
    const slash = path.lastIndexOf('/');
    const parent = this.#dirFd(slash === 0 ? '/' : path.slice(0, slash));
    const fd = this.#hold(path, fs.openSync(childOf(parent, path.slice(slash + 1)), DIR_FLAGS));
    this.#opened = true;
    return fd;
  }

  /** Whether the held directory `known` is still the directory at `path`. */
  #stillAt(path: string, known: HeldDir): boolean {
    if (known.ino === -1) {
      const held = fs.fstatSync(known.fd);
      known.dev = held.dev;
      known.ino = held.ino;
    }
    let now: fs.Stats | undefined;
    try {
      now = this.#lstat(path);
    } catch {
      return false;
    }
    return now !== undefined && now.isDirectory() && now.ino === known.ino && now.dev === known.dev;
  }

  /**
   * The `lstat` of `path` (normal, inside the root; undefined when nothing is there): by its whole
   * path while the system takes it, else (a path of {@link PATH_MAX} bytes or more, `ENAMETOOLONG`)
   * through its parent's descriptor, checked the same way: a file deep in the tree is then stated,
   * never taken for gone.
   */
  #lstat(path: string): fs.Stats | undefined {
    if (path.length < PATH_MAX) {
      try {
        return fs.lstatSync(unescapePath(path), { throwIfNoEntry: false });
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'ENAMETOOLONG') throw error;
      }
    }
    const [parent, name] = this.#parentAndName(path);
    return fs.lstatSync(childOf(parent, name), { throwIfNoEntry: false });
  }

  #parentAndName(path: string): [number, string] {
    const slash = path.lastIndexOf('/');
    return [this.#dirFd(slash === 0 ? '/' : path.slice(0, slash)), path.slice(slash + 1)];
  }
}

function statOf(stats: fs.Stats): SearchFileStat {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
}

/**
 * The search tools' reader for a real directory `root` (see `SearchSource`): synchronous `node:fs`
 * calls, which cost a few microseconds each instead of a thread-pool round trip, and no `realpath`.
 * The walk stays inside the root by construction, race-free: every directory is held open as a
 * descriptor, each one opened inside its (held) parent with `O_NOFOLLOW | O_DIRECTORY` through
 * `/proc/self/fd/<parent>/<name>`, and files are opened the same way with `O_NOFOLLOW`, so a folder
 * swapped for a link out by another process is refused, never followed. Symbolic links are listed as
 * such and never entered. At most 64 directory descriptors are held (least recently used closed);
 * one held from an earlier search or walk (`begin`) is used again only once its path's `lstat` shows
 * the same directory (device and inode), so a folder renamed or moved out of the workspace since is
 * never read through its old descriptor (one moved during a call may be, until that call ends).
 * While the search helper thread runs and has no count to do, the walk's directories are listed ahead
 * on it (`prefetch`), through its own descriptors held the same way. Names that are not UTF-8 come and go in the lossless `\xNN` form (`node/fs/names.ts`). Each path
 * must lie lexically inside `root` (else ToolError `outside_workspace`). Bytes are searched with
 * `Buffer.indexOf` (memchr-fast) and validated with `isUtf8` (SIMD). Linux only (`/proc/self/fd`);
 * elsewhere the platform keeps using its `fs`.
 */
export function createNodeSearchSource(root: string, options: NodeSearchSourceOptions = {}): NodeSearchSource {
  return new NodeSearchSource(root, options);
}
