import type { SearchFileStat, SearchSource } from '../core/types.js';
import { BINARY_SNIFF_BYTES } from '../fs/text.js';
import { MAX_SEARCH_FILE_BYTES } from '../fs/walk.js';

/** Bytes of file content (and decoded text) a source's cache keeps, unless the source says otherwise. */
export const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;
/** A file modified this close to the moment it was read is read again (git's "racily clean" rule). */
const RACY_MS = 1000;

/** One file as {@link SourceCache.load} gives it. */
export interface SourceFile {
  /** null: binary (NUL in the first 8 KiB, or not UTF-8); never decoded. */
  bytes: Uint8Array | null;
  /** Bytes to skip at the start (a UTF-8 BOM). */
  skip: number;
  /** The decoded text, once {@link SourceCache.text} made it. */
  text?: string;
}

interface Entry extends SourceFile {
  stat: SearchFileStat;
  readAt: number;
  cost: number;
}

/**
 * The search tools' cache over a {@link SearchSource}: file bytes (and their decoded text once a search
 * needed it) validated by each file's (size, mtime, inode), within a byte budget (default
 * {@link DEFAULT_CACHE_BYTES}); a changed or vanished file's entry is dropped, and once the budget is
 * full new files are read but not kept (so a tree larger than the budget keeps its first part cached:
 * least-recently-used eviction would keep nothing a sequential scan reuses). Files changed within a
 * second of being read are read again. A repeated search costs one `stat` per cached file.
 */
export class SourceCache {
  readonly #entries = new Map<string, Entry>();
  #used = 0;

  constructor(
    readonly source: SearchSource,
    readonly budget = DEFAULT_CACHE_BYTES,
  ) {}

  /** The file at `path`: undefined when it is gone or not a regular file, 'large' over the search limit. */
  load(path: string): SourceFile | 'large' | undefined {
    const known = this.#entries.get(path);
    if (known) {
      const stat = this.source.stat(path);
      if (!stat) {
        this.#drop(path, known);
        return undefined;
      }
      if (stat.size === known.stat.size && stat.mtimeMs === known.stat.mtimeMs && stat.ino === known.stat.ino && stat.mtimeMs < known.readAt - RACY_MS) {
        this.#entries.delete(path);
        this.#entries.set(path, known);
        return known;
      }
      this.#drop(path, known);
      if (stat.size > MAX_SEARCH_FILE_BYTES) return 'large';
    }
    const readAt = Date.now();
    const read = this.source.read(path, MAX_SEARCH_FILE_BYTES + 1);
    if (!read) return undefined;
    if (read.bytes.length > MAX_SEARCH_FILE_BYTES) return 'large';
    const bytes = read.bytes;
    const sniff = bytes.length > BINARY_SNIFF_BYTES ? bytes.subarray(0, BINARY_SNIFF_BYTES) : bytes;
    const binary = this.source.indexOf(sniff, NUL, 0) !== -1 || !this.source.isUtf8(bytes);
    const skip = !binary && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const entry: Entry = { bytes: binary ? null : bytes, skip, stat: read.stat, readAt, cost: binary ? 64 : bytes.length };
    this.#add(path, entry);
    return entry;
  }

  /** The decoded text of a loaded text file (kept while the budget allows). */
  text(path: string, file: SourceFile): string {
    if (file.text !== undefined) return file.text;
    const bytes = file.bytes as Uint8Array;
    const text = this.source.decode(file.skip > 0 ? bytes.subarray(file.skip) : bytes);
    file.text = text;
    const entry = this.#entries.get(path);
    if (entry === file) {
      if (this.#used + text.length > this.budget) {
        // No room for the text as well: keep the bytes only.
        file.text = undefined;
        return text;
      }
      entry.cost += text.length;
      this.#used += text.length;
    }
    return text;
  }

  #add(path: string, entry: Entry): void {
    // Scan-resistant: a tree larger than the budget keeps its first part cached instead of each file
    // pushing out the one a repeated search needs next (plain LRU keeps nothing useful then).
    if (entry.cost > this.budget / 4 || this.#used + entry.cost > this.budget) return;
    this.#entries.set(path, entry);
    this.#used += entry.cost;
  }

  #drop(path: string, entry: Entry): void {
    this.#entries.delete(path);
    this.#used -= entry.cost;
  }
}

const NUL = new Uint8Array([0]);
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

const LF = new Uint8Array([10]);
const CR = new Uint8Array([13]);

/**
 * Counts the lines of `bytes` holding `needle` (bytes, no line break in it), on bytes only:
 * `indexOf` to each occurrence, then to the end of its line (a `\r` is looked for within that line
 * only, so a file without one is not read twice). Stops at `deadline` (`stopped`).
 */
export function countLiteralLines(
  source: SearchSource,
  bytes: Uint8Array,
  from: number,
  needle: Uint8Array,
  deadline: number,
): { count: number; stopped: boolean } {
  let count = 0;
  let pos = from;
  for (;;) {
    const at = source.indexOf(bytes, needle, pos);
    if (at === -1) return { count, stopped: false };
    count += 1;
    const after = at + needle.length;
    let end = source.indexOf(bytes, LF, after);
    if (end === -1) end = bytes.length;
    if (end > after) {
      const cr = source.indexOf(bytes.subarray(after, end), CR, 0);
      if (cr !== -1) end = after + cr;
    }
    pos = end + 1;
    if ((count & 255) === 0 && Date.now() >= deadline) return { count, stopped: true };
  }
}
