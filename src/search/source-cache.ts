import type { SearchFileStat, SearchHelperAnswer, SearchSource } from './source-port.js';
import { racyNow, sameIdentity, timesSettled } from '../fs/racy-clock.js';
import { BINARY_SNIFF_BYTES } from '../fs/text.js';
import type { SkipKind } from './walk-report.js';
import type { SearchPattern } from './dialect.js';
import { scanText, YIELD_EVERY_MS } from './line-scan.js';

/** Largest file a search reads whole, in bytes; bigger ones are searched window by window (the cache answers them `large`). */
export const MAX_SEARCH_FILE_BYTES = 64 * 1024 * 1024;
/** Bytes of file content a source's cache keeps, unless the source says otherwise. */
export const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;
/** Bytes of one slab: cached file contents are packed into slabs of this size. */
export const SLAB_BYTES = 16 * 1024 * 1024;
/** Files larger than this get a slab of their own instead of a new shared one. */
const OWN_SLAB_BYTES = SLAB_BYTES / 4;
/** Budget bytes one cached file costs beyond its content (its map entry, objects and path). */
const ENTRY_OVERHEAD = 256;
/** Largest read buffer kept for reuse between reads of files that are not cached. */
const MAX_SCRATCH_BYTES = 16 * 1024 * 1024;

/** One file as {@link SourceCache.load} gives it. */
export interface SourceFile {
  /**
   * null: binary (NUL in the first 8 KiB, or not UTF-8); never decoded. The bytes of a file the
   * cache does not keep are only valid until the next {@link SourceCache.load}.
   */
  bytes: Uint8Array | null;
  /** Bytes to skip at the start (a UTF-8 BOM). */
  skip: number;
  /**
   * The literal counted last in these bytes (see {@link rememberCount}), and how many lines hold it
   * (0: absent); earlier ones in `moreCounts`. Kept in the file's own fields, not a map per file: a
   * cache of thousands of files is then that many objects fewer for the garbage collector to move.
   */
  literal: string | undefined;
  literalCount: number;
  moreCounts: Map<string, number> | undefined;
}

/** Literals whose line counts one file remembers (the oldest is forgotten first). */
const REMEMBERED_COUNTS = 8;

/**
 * Notes in `file` that `count` of its lines hold `literal`, so a repeated search for it while the
 * file is unchanged (the cache keeps the same entry only then) answers without scanning.
 */
export function rememberCount(file: SourceFile, literal: string, count: number): void {
  const last = file.literal;
  if (last !== undefined && last !== literal) {
    const more = (file.moreCounts ??= new Map());
    more.delete(literal);
    more.set(last, file.literalCount);
    if (more.size >= REMEMBERED_COUNTS) more.delete(more.keys().next().value as string);
  }
  file.literal = literal;
  file.literalCount = count;
}

/** How many lines of `file` hold `literal`, when {@link rememberCount} noted it (undefined: not known). */
export function knownCount(file: SourceFile, literal: string): number | undefined {
  if (file.literal === literal) return file.literalCount;
  return file.moreCounts?.get(literal);
}

interface Slab {
  bytes: Uint8Array;
  /** Bytes handed out from the start. */
  top: number;
  /** Bytes of the cached files still in it. */
  live: number;
  /** Counts paused over bytes in it (see {@link SourceCache.hold}): while any, it is never given back for reuse. */
  pins: number;
  /** Given back while pinned: given back once the last pin goes. */
  freed: boolean;
}

/** A cached file: its stat as read (size, mtimeMs, ctimeMs, ino) in fields of its own, not another object. */
interface Entry extends SourceFile {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  readAt: number;
  slab: Slab | undefined;
}

/** How long slabs of a released cache stay held for the next cache (ms), as an allocator keeps freed pages a while. */
export const SPARE_SLAB_MS = 10_000;
/**
 * Spare slabs held at most per thread (64 MiB, a quarter of the default budget): what an idle process
 * keeps for reuse is bounded; more are left to the garbage collector.
 */
const MAX_SPARE_SLABS = DEFAULT_CACHE_BYTES / SLAB_BYTES / 4;

/**
 * Slabs of released caches, reused by the next cache: held for {@link SPARE_SLAB_MS} after the last
 * release, then only weakly (the garbage collector may take them). A host that makes a fresh platform
 * per conversation so reads each first search into memory already mapped, instead of faulting in a
 * new cache's worth of pages and leaving the old one as garbage (whose size also triggers full
 * collections).
 */
const spareSlabs: Uint8Array[] = [];
const weakSlabs: Array<WeakRef<Uint8Array>> = [];
let spareTimer: ReturnType<typeof setTimeout> | undefined;

function takeSlab(): Uint8Array {
  const held = spareSlabs.pop();
  if (held) return held;
  while (weakSlabs.length > 0) {
    const bytes = (weakSlabs.pop() as WeakRef<Uint8Array>).deref();
    if (bytes) return bytes;
  }
  return new Uint8Array(SLAB_BYTES);
}

/** Spare slabs held (not only weakly) right now: for tests and diagnostics. */
export function spareSlabCount(): number {
  return spareSlabs.length;
}

/** After {@link SPARE_SLAB_MS} without a release, the spare slabs are held only weakly. */
function loosenSpareSlabs(): void {
  spareTimer = undefined;
  for (const bytes of spareSlabs.splice(0)) weakSlabs.push(new WeakRef(bytes));
}

/**
 * The search tools' cache over a {@link SearchSource}: file bytes validated by each file's (size, mtime,
 * ctime, inode), within a byte budget (default {@link DEFAULT_CACHE_BYTES}) that counts whole slabs and a
 * per-file overhead. Contents are packed into 16 MiB slabs (a file over 4 MiB gets
 * one of its own), read straight into place: no allocation per file, nothing for the garbage collector
 * to trace. A changed or vanished file's entry is dropped (its slab is freed once empty); once the
 * budget is full new files are read into one reused buffer and not kept (so a tree larger than the
 * budget keeps its first part cached: least-recently-used eviction would keep nothing a sequential
 * scan reuses). Files changed within a second of being read are read again. A repeated search costs
 * one `stat` per cached file.
 */
export class SourceCache {
  readonly #entries = new Map<string, Entry>();
  #used = 0;
  /** The shared slab new files go into. */
  #slab: Slab | undefined;
  #scratch: Uint8Array | undefined;
  /** The current read is not to be kept (see {@link SourceCache.load}'s `keep`). */
  #transient = false;
  /** The slab the current read was placed in (`fresh`: not yet part of the cache). */
  #pending: { slab: Slab; fresh: boolean } | undefined;
  readonly #into = (size: number): Uint8Array => this.#place(size);

  constructor(
    readonly source: SearchSource,
    readonly budget = DEFAULT_CACHE_BYTES,
  ) {}

  /** Whether an entry for `path` is kept (whether or not the file changed since). */
  holds(path: string): boolean {
    return this.#entries.has(path);
  }

  /** Budget bytes in use (slabs and per-file overheads). */
  get used(): number {
    return this.#used;
  }

  /**
   * The file at `path`: undefined when it is gone or not a regular file, 'large' over `limit` bytes
   * (default: the search limit). `keep: false` reads a file not cached yet into the reused buffer and
   * does not keep it (a file another thread's cache holds). `stated`: the file's `lstat` taken just
   * before (by another thread; null: it was gone), used instead of taking it here to validate a cached
   * entry.
   */
  load(path: string, limit = MAX_SEARCH_FILE_BYTES, keep = true, stated?: SearchFileStat | null): SourceFile | 'large' | undefined {
    const known = this.#entries.get(path);
    if (known && known.size > limit) return 'large';
    if (known) {
      const stat = stated === undefined ? this.source.stat(path) : (stated ?? undefined);
      if (!stat) {
        this.#drop(path, known);
        return undefined;
      }
      // Racily clean (git's rule) by both times: a change in the clock tick of the read can leave either as it was.
      if (sameIdentity(stat, known) && timesSettled(stat, known.readAt)) {
        return known;
      }
      this.#drop(path, known);
      if (stat.size > limit) return 'large';
    }
    const readAt = racyNow();
    this.#pending = undefined;
    this.#transient = !keep;
    let read: { bytes: Uint8Array; stat: SearchFileStat } | undefined;
    try {
      // Over the limit, the read is refused once the size is known: nothing is read or placed.
      read = this.source.read(path, limit + 1, (size) => {
        if (size > limit) throw OVER_LIMIT;
        return this.#into(size);
      });
    } catch (error) {
      if (error === OVER_LIMIT) return 'large';
      throw error;
    }
    const pending = this.#pending as { slab: Slab; fresh: boolean } | undefined;
    this.#pending = undefined;
    if (!read || read.bytes.length > limit) {
      if (pending?.fresh) giveBack(pending.slab);
      return read ? 'large' : undefined;
    }
    const bytes = read.bytes;
    const sniff = bytes.length > BINARY_SNIFF_BYTES ? bytes.subarray(0, BINARY_SNIFF_BYTES) : bytes;
    const binary = this.source.indexOf(sniff, NUL, 0) !== -1 || !this.source.isUtf8(bytes);
    const skip = !binary && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const { size, mtimeMs, ctimeMs, ino } = read.stat;
    const entry: Entry = { bytes: binary ? null : bytes, skip, literal: undefined, literalCount: 0, moreCounts: undefined, size, mtimeMs, ctimeMs, ino, readAt, slab: undefined };
    if (!keep) return entry;
    const slab = pending?.slab;
    if (!binary && slab && bytes.buffer === slab.bytes.buffer && bytes.byteOffset === slab.bytes.byteOffset + slab.top) {
      // Read into a slab: keep it there ((#place checked the budget).
      if (pending?.fresh) {
        this.#used += slab.bytes.length;
        if (slab.bytes.length === SLAB_BYTES) {
          if (this.#slab?.live === 0) this.#free(this.#slab);
          this.#slab = slab;
        }
      }
      slab.top += (bytes.length + 7) & ~7;
      slab.live += bytes.length;
      entry.slab = slab;
    } else {
      if (pending?.fresh) giveBack(pending.slab);
      if (!binary) {
        // A source that read into a buffer of its own: keep that buffer if it fits.
        if (pending || bytes.buffer === this.#scratch?.buffer) return entry;
        if (bytes.length + ENTRY_OVERHEAD > this.budget / 4 || this.#used + bytes.length + ENTRY_OVERHEAD > this.budget) return entry;
        entry.slab = { bytes, top: bytes.length, live: bytes.length, pins: 0, freed: false };
        this.#used += bytes.length;
      } else if (this.#used + ENTRY_OVERHEAD > this.budget) {
        return entry;
      }
    }
    this.#entries.set(path, entry);
    this.#used += ENTRY_OVERHEAD;
    return entry;
  }

  /**
   * The decoded text of a loaded text file. Not kept: decoding costs about as much as V8's regex over
   * the text (UTF-8 to UTF-16 for non-ASCII files), but keeping texts doubled the memory a cache holds, and each fresh cache's texts stayed on the heap as
   * garbage until a full collection (a peak of 580 MiB over the search bench's Node searches, 276 MiB
   * without them).
   */
  text(file: SourceFile): string {
    const bytes = file.bytes as Uint8Array;
    return this.source.decode(file.skip > 0 ? bytes.subarray(file.skip) : bytes);
  }

  /**
   * Keeps the bytes of `file` (as {@link SourceCache.load} gave them) from being overwritten while a
   * count over them pauses, without copying them: bytes in a slab pin it (a pinned slab is not given
   * back for reuse, by a dropped entry or a released cache, until unpinned), bytes in the reused read
   * buffer are taken over (the next read gets a buffer of its own). The unpin, to call once the count
   * is over; undefined when the bytes are elsewhere (a buffer the source made), to be copied instead.
   */
  hold(file: SourceFile): (() => void) | undefined {
    const bytes = file.bytes;
    if (!bytes) return undefined;
    const slab = (file as Partial<Entry>).slab;
    if (slab !== undefined && bytes.buffer === slab.bytes.buffer) {
      slab.pins += 1;
      return () => {
        slab.pins -= 1;
        if (slab.pins === 0 && slab.freed) {
          slab.freed = false;
          giveBack(slab);
        }
      };
    }
    if (this.#scratch !== undefined && bytes.buffer === this.#scratch.buffer) {
      this.#scratch = undefined;
      return () => undefined;
    }
    return undefined;
  }

  /** Empties the cache and gives its slabs back for the next cache to reuse. */
  release(): void {
    const slabs = new Set<Slab>();
    for (const entry of this.#entries.values()) if (entry.slab) slabs.add(entry.slab);
    if (this.#slab) slabs.add(this.#slab);
    for (const slab of slabs) giveBack(slab);
    this.#entries.clear();
    this.#slab = undefined;
    this.#scratch = undefined;
    this.#used = 0;
  }

  /** Where a file of `size` bytes is read to: a slab's free end when the budget has room, else the scratch buffer. */
  #place(size: number): Uint8Array {
    if (!this.#transient && size + ENTRY_OVERHEAD <= this.budget / 4 && this.#used + ENTRY_OVERHEAD <= this.budget) {
      const slab = this.#slab;
      if (slab && size <= OWN_SLAB_BYTES && slab.top + size <= slab.bytes.length) return this.#aim(slab, false, size);
      // A new shared slab (the old one's free end is given up: under a quarter of a slab), or one of its own for a large file.
      const fresh = size > OWN_SLAB_BYTES ? size : SLAB_BYTES;
      if (this.#used + fresh + ENTRY_OVERHEAD <= this.budget) {
        return this.#aim({ bytes: fresh === SLAB_BYTES ? takeSlab() : new Uint8Array(size), top: 0, live: 0, pins: 0, freed: false }, true, size);
      }
    }
    let scratch = this.#scratch;
    if (!scratch || scratch.length < size) {
      scratch = new Uint8Array(Math.max(size, 64 * 1024, Math.min(2 * (scratch?.length ?? 0), MAX_SCRATCH_BYTES)));
      this.#scratch = scratch.length <= MAX_SCRATCH_BYTES ? scratch : undefined;
    }
    return scratch.subarray(0, size);
  }

  #aim(slab: Slab, fresh: boolean, size: number): Uint8Array {
    this.#pending = { slab, fresh };
    const bytes = slab.bytes;
    return new Uint8Array(bytes.buffer, bytes.byteOffset + slab.top, size);
  }

  #drop(path: string, entry: Entry): void {
    this.#entries.delete(path);
    this.#used -= ENTRY_OVERHEAD;
    const slab = entry.slab;
    if (!slab) return;
    slab.live -= (entry.bytes as Uint8Array).length;
    if (slab.live === 0 && slab !== this.#slab) this.#free(slab);
  }

  #free(slab: Slab): void {
    this.#used -= slab.bytes.length;
    if (slab === this.#slab) this.#slab = undefined;
    giveBack(slab);
  }
}

/** Puts a shared-size slab in the spare list (others are left to the garbage collector); a pinned one once unpinned. */
function giveBack(slab: Slab): void {
  if (slab.pins > 0) {
    slab.freed = true;
    return;
  }
  const bytes = slab.bytes;
  if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== SLAB_BYTES) return;
  if (spareSlabs.length >= MAX_SPARE_SLABS) {
    weakSlabs.push(new WeakRef(bytes));
    return;
  }
  spareSlabs.push(bytes);
  if (spareTimer !== undefined) clearTimeout(spareTimer);
  spareTimer = setTimeout(loosenSpareSlabs, SPARE_SLAB_MS);
  // Never what keeps a Node process alive.
  (spareTimer as { unref?: () => void }).unref?.();
}

const NUL = new Uint8Array([0]);
/** Thrown by the `into` of a read that is over the caller's limit (caught in {@link SourceCache.load}). */
const OVER_LIMIT: unique symbol = Symbol('over the limit');
const caches = new WeakMap<SearchSource, SourceCache>();

/** The cache of `source` (one per source, dropped with it). */
export function cacheOf(source: SearchSource): SourceCache {
  let cache = caches.get(source);
  if (!cache) {
    cache = new SourceCache(source, source.cacheBytes ?? DEFAULT_CACHE_BYTES);
    caches.set(source, cache);
  }
  return cache;
}

/** Empties the cache of `source` (if it has one) and gives its memory back for other caches to reuse. */
export function releaseCache(source: SearchSource): void {
  caches.get(source)?.release();
  caches.delete(source);
}

const LF = new Uint8Array([10]);
const CR = new Uint8Array([13]);

/**
 * The first line break (`\n` or `\r`) at or after `pos` in `bytes`, or their length. A `\r` is
 * looked for only before the `\n` found: most files have none, and looking further read every file
 * holding a match to its end once more.
 */
function lineEnd(source: SearchSource, bytes: Uint8Array, pos: number): number {
  let end = source.indexOf(bytes, LF, pos);
  if (end === -1) end = bytes.length;
  const cr = end > pos ? source.indexOf(bytes.subarray(pos, end), CR, 0) : -1;
  return cr === -1 ? end : pos + cr;
}

/**
 * Counts the lines of `bytes` holding `needle` (bytes, no line break in it), on bytes only:
 * `indexOf` to each occurrence, then to the end of its line (a `\r` is looked for within that line
 * only, so a file without one is not read twice). Stops at `deadline` (`stopped`). `sliced`: after
 * about {@link YIELD_EVERY_MS} ms of work it answers what it counted so far with `resume`, where the
 * count goes on (a line's start); the clock is read every 256 lines only, so a file with fewer never
 * reads it.
 */
export function countLiteralLines(
  source: SearchSource,
  bytes: Uint8Array,
  from: number,
  needle: Uint8Array,
  deadline: number,
  sliced = false,
): { count: number; stopped: boolean; resume?: number } {
  let count = 0;
  let pos = from;
  let sliceEnd = sliced ? 0 : Infinity;
  for (;;) {
    const at = source.indexOf(bytes, needle, pos);
    if (at === -1) return { count, stopped: false };
    count += 1;
    const end = lineEnd(source, bytes, at + needle.length);
    pos = end + 1;
    if ((count & 255) === 0) {
      const now = Date.now();
      if (now >= deadline) return { count, stopped: true };
      if (sliceEnd === 0) sliceEnd = now + YIELD_EVERY_MS;
      else if (now >= sliceEnd) return pos < bytes.length ? { count, stopped: false, resume: pos } : { count, stopped: false };
    }
  }
}

/**
 * Lines counted by {@link countTextNow} in a literal count it left for {@link countText} to finish
 * (it answered where to go on): a file so large that its count lets the event loop turn meanwhile.
 */
const partialCounts = new WeakMap<SourceFile, number>();

/**
 * A pause for a count over a loaded file's bytes that also keeps those bytes safe across it: a cached
 * file's bytes are only borrowed (a file not kept lies in a buffer the next read reuses; a slab freed
 * by a change or a released cache goes to the next cache), so before the first turn of the event loop
 * the cache holds them for the count ({@link SourceCache.hold}: no copy), or, where it cannot, they
 * are copied and the count goes on over the copy (`bytes`). {@link HeldBytes.end} lets them go.
 */
class HeldBytes {
  #bytes: Uint8Array;
  #held = false;
  #unpin: (() => void) | undefined;
  /** When the last pause ended (or the count started). */
  sliceStart = Date.now();
  readonly pause: () => Promise<void>;

  constructor(cache: SourceCache, file: SourceFile, pause: () => Promise<void>) {
    this.#bytes = file.bytes as Uint8Array;
    this.pause = async (): Promise<void> => {
      if (!this.#held) {
        this.#unpin = cache.hold(file);
        if (!this.#unpin) this.#bytes = new Uint8Array(this.#bytes);
        this.#held = true;
      }
      await pause();
      this.sliceStart = Date.now();
    };
  }

  get bytes(): Uint8Array {
    return this.#bytes;
  }

  /** The count is over: the bytes held for it may be reused. */
  end(): void {
    this.#unpin?.();
    this.#unpin = undefined;
  }
}

/**
 * Counts the lines of `bytes` that `pattern` matches when every match holds `needle` (its required
 * literal, bytes, no line break in it): only the lines holding the needle are decoded, one at a time,
 * and matched on their own (lines end at `\n`, `\r\n` or `\r`, so a match never spans them), from the
 * first occurrence at `first`; text before `skip` (a BOM) is no line's. Stops at `deadline` (`stopped`).
 * Pauses every {@link YIELD_EVERY_MS} ms of work (each line's scan is too short to pause on its own),
 * so a file of millions of candidate lines lets the event loop turn (see {@link HeldBytes}).
 */
async function countCandidateLines(
  source: SearchSource,
  held: HeldBytes,
  skip: number,
  first: number,
  needle: Uint8Array,
  pattern: SearchPattern,
  deadline: number,
): Promise<{ count: number; stopped: boolean }> {
  let count = 0;
  let at = first;
  let lines = 0;
  let bytes = held.bytes;
  const budget = { deadline, wantOffsets: 0, maxHits: 1, pause: held.pause };
  while (at !== -1) {
    let start = at;
    while (start > skip) {
      const c = bytes[start - 1] as number;
      if (c === 10 || c === 13) break;
      start -= 1;
    }
    const end = lineEnd(source, bytes, at + needle.length);
    const result = await scanText(source.decode(bytes.subarray(start, end)), pattern, budget);
    count += result.count;
    if (result.stopped) return { count, stopped: true };
    lines += 1;
    if ((lines & 255) === 0) {
      const now = Date.now();
      if (now >= deadline) return { count, stopped: true };
      if (now - held.sliceStart >= YIELD_EVERY_MS) await held.pause();
    }
    // Copied at a pause: go on over the copy (same offsets).
    if (held.bytes !== bytes) bytes = held.bytes;
    at = end + 1 < bytes.length ? source.indexOf(bytes, needle, end + 1) : -1;
  }
  return { count, stopped: false };
}

/** {@link SearchHelperAnswer} codes: the file was not reached (the deadline came first). */
export const FILE_NOT_REACHED = -1;
/** The file was gone or not a regular file. */
export const FILE_GONE = -2;
/** The file was over the search's size limit. */
export const FILE_LARGE = -3;
/** The file was binary. */
export const FILE_BINARY = -4;
/** Codes of files skipped because they could not be read, by why (`FILE_GONE` is `vanished`). */
export const FILE_SKIPPED: Readonly<Record<SkipKind, number>> = { vanished: FILE_GONE, unreadable: -5, loop: -6, too_long: -7, outside: -8 };

/** The {@link SkipKind} of a helper's code, or undefined for a code that is not a skip. */
export function skipKindOfCode(code: number): SkipKind | undefined {
  for (const [kind, value] of Object.entries(FILE_SKIPPED) as Array<[SkipKind, number]>) if (value === code) return kind;
  return undefined;
}

/**
 * The bytes a search finds first on bytes: the literal, or the pattern's required text; none when it
 * holds a line break, or half of a surrogate pair (no UTF-8 text holds one, and its bytes would be
 * those of U+FFFD, which text does hold: the decoded text is searched instead, and never matches).
 */
export function needleOf(pattern: SearchPattern): Uint8Array | undefined {
  const literal = pattern.mode === 'literal' ? pattern.literal : pattern.required;
  return literal && !/[\n\r]|\p{Cs}/u.test(literal) ? new TextEncoder().encode(literal) : undefined;
}

/** What {@link countTextNow} and {@link countText} answer: matching lines, and whether the deadline came first (`count` is then what was found until it). */
export interface TextCount {
  count: number;
  stopped: boolean;
}

/**
 * The part of {@link countText} done on bytes alone, synchronously: a count remembered with the file
 * (see {@link rememberCount}), a file without the needle (never decoded), or a literal counted on its
 * bytes. Otherwise a number, for {@link countText} to go on from: where the needle of a regex first
 * occurs (its lines are then decoded and matched), where a literal's count goes on when it takes more
 * than {@link YIELD_EVERY_MS} ms (the rest pauses between slices), or -1 when the pattern has no
 * needle (the whole text is scanned). A count of thousands of files so takes no promise per file.
 */
export function countTextNow(cache: SourceCache, file: SourceFile, pattern: SearchPattern, needle: Uint8Array | undefined, deadline: number): TextCount | number {
  const literal = pattern.mode === 'literal' ? pattern.literal : pattern.required;
  if (!needle || !literal) return -1;
  // Counted before while the file was unchanged: a file without the literal cannot match, and a literal count is known.
  const known = knownCount(file, literal);
  if (known === 0 || (known !== undefined && pattern.mode === 'literal')) return { count: known, stopped: false };
  const bytes = file.bytes as Uint8Array;
  const first = cache.source.indexOf(bytes, needle, file.skip);
  if (first === -1) {
    rememberCount(file, literal, 0);
    return { count: 0, stopped: false };
  }
  if (pattern.mode !== 'literal') return first;
  const counted = countLiteralLines(cache.source, bytes, first, needle, deadline, true);
  if (counted.resume !== undefined) {
    // Longer than one slice of work: countText goes on from here, pausing between slices.
    partialCounts.set(file, counted.count);
    return counted.resume;
  }
  if (!counted.stopped) rememberCount(file, literal, counted.count);
  return counted;
}

/**
 * Matching lines of one loaded text file, counted only: {@link countTextNow} first (bytes only), else
 * the lines holding the needle of a regex are decoded and matched one at a time, else {@link scanText}
 * runs over its decoded text, a run of whole lines at a time.
 */
export async function countText(
  cache: SourceCache,
  file: SourceFile,
  pattern: SearchPattern,
  needle: Uint8Array | undefined,
  deadline: number,
  pause: () => Promise<void>,
  now: TextCount | number = countTextNow(cache, file, pattern, needle, deadline),
): Promise<TextCount> {
  if (typeof now !== 'number') return now;
  const held = new HeldBytes(cache, file, pause);
  try {
    if (pattern.mode === 'literal' && now >= 0) return await countLiteralRest(cache, file, held, now, needle as Uint8Array, pattern.literal as string, deadline);
    // The file holds the needle of a regex from `now` on: only the lines holding it are decoded and matched.
    if (now >= 0) return await countCandidateLines(cache.source, held, file.skip, now, needle as Uint8Array, pattern, deadline);
    return await countWholeText(cache, file, pattern, deadline, held);
  } finally {
    held.end();
  }
}

/** {@link countText} of a pattern without a needle: its whole text decoded and scanned, a run of lines at a time. */
async function countWholeText(cache: SourceCache, file: SourceFile, pattern: SearchPattern, deadline: number, held: HeldBytes): Promise<TextCount> {
  // Decoded and scanned a run of whole lines at a time: each text is small enough for the young
  // generation, so a count over many files leaves no large texts for a full collection to find.
  // Each run's scan is too short to pause on its own: the event loop turns between runs instead.
  let count = 0;
  let start = file.skip;
  const budget = { deadline, wantOffsets: 0, maxHits: Infinity, pause: held.pause };
  do {
    if (Date.now() - held.sliceStart >= YIELD_EVERY_MS) await held.pause();
    const bytes = held.bytes;
    let end = bytes.length;
    if (end - start > COUNT_CHUNK_BYTES) {
      const lf = cache.source.indexOf(bytes, LF, start + COUNT_CHUNK_BYTES - 1);
      if (lf !== -1) end = lf + 1;
    }
    const text = cache.source.decode(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
    const result = await scanText(text, pattern, budget);
    count += result.count;
    if (result.stopped) return { count, stopped: true };
    start = end;
  } while (start < held.bytes.length);
  return { count, stopped: false };
}

/**
 * The rest of a literal count {@link countTextNow} began (its lines so far in `partialCounts`), from
 * `from` (a line's start), a slice of {@link YIELD_EVERY_MS} ms at a time with a pause before each.
 */
async function countLiteralRest(cache: SourceCache, file: SourceFile, held: HeldBytes, from: number, needle: Uint8Array, literal: string, deadline: number): Promise<TextCount> {
  let count = partialCounts.get(file) ?? 0;
  partialCounts.delete(file);
  let pos = from;
  for (;;) {
    await held.pause();
    const counted = countLiteralLines(cache.source, held.bytes, pos, needle, deadline, true);
    count += counted.count;
    if (counted.stopped) return { count, stopped: true };
    if (counted.resume === undefined) {
      rememberCount(file, literal, count);
      return { count, stopped: false };
    }
    pos = counted.resume;
  }
}

/** Bytes of a text decoded at once for a count (then cut after the next `\n`: whole lines, whole characters). */
export const COUNT_CHUNK_BYTES = 32 * 1024;
