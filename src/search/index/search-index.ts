// The search index of one workspace: which trigrams each indexed file holds (posting lists), each
// file's identity when it was read (size, times, inode) and kind, so a search can skip the files that
// cannot match and are unchanged, and scan the rest exactly as it would without an index.
import type { SearchFileStat } from '../source-port.js';
import type { TrigramPlan } from './plan.js';
import { RACY_MS } from '../../fs/racy-clock.js';
import { enoughDone, IndexOverBudget, type SearchIndexBudget } from './budget.js';
import { fileTrigrams, foldPostings, forEachId, keyTally, mergePostings, PostingBuilder, putVarint, setIdBits, trigramBitmap, type FrozenPostings, type MergeProgress } from './postings.js';

/**
 * What a file was when it was indexed: `Text` (UTF-8: its trigrams are indexed), `Binary` (a NUL in
 * the first 8 KiB, or not UTF-8: a search counts it as binary, unread), `Unindexed` (too large or
 * unreadable: always scanned).
 */
export const FileKind = { Text: 0, Binary: 1, Unindexed: 2 } as const;
/** One of {@link FileKind}'s values. */
export type FileKind = (typeof FileKind)[keyof typeof FileKind];

/** Flag bits per file id. */
const KIND_MASK = 3;
/** Changed within the racy window of its read: its stat cannot vouch for its content, so it is always scanned. */
const RACY = 4;
/** Replaced or removed: its postings are ignored. */
const DEAD = 8;

/** Bytes of a file the index reads; bigger ones are left unindexed (always scanned). */
export const MAX_INDEXED_FILE_BYTES = 16 * 1024 * 1024;
/** How many leading bytes are checked for a NUL byte, as the search's binary test does. */
const SNIFF_BYTES = 8192;
/**
 * A file whose modification or status-change time is this close to (or after) the moment it was read
 * is marked racy: a write within the same clock tick could keep its size and times (git's rule).
 */
export const DEFAULT_RACY_MS = RACY_MS;

/** One file as the index saw it: its identity and what it was. */
export interface IndexedFile {
  path: string;
  stat: SearchFileStat;
  kind: FileKind;
  racy: boolean;
}

/** A file read for the index: its identity, taken before the read and checked after, and its bytes. */
export interface ReadFile {
  path: string;
  stat: SearchFileStat;
  /** `Date.now()` when the read started. */
  readAt: number;
  /** The bytes, or undefined when the file could not be read or is over the size limit. */
  bytes: Uint8Array | undefined;
  /** Whether its identity was the same after the read (false: it changed while read). */
  steady: boolean;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A native UTF-8 check the host provided ({@link provideUtf8Check}), used instead of a fatal decode. */
let nativeIsUtf8: ((bytes: Uint8Array) => boolean) | undefined;

/**
 * Gives the index's build a native UTF-8 validity check (Node's `buffer.isUtf8`, SIMD, instead of
 * decoding every file to a string it drops): `toolhost/node` provides it.
 */
export function provideUtf8Check(check: (bytes: Uint8Array) => boolean): void {
  nativeIsUtf8 = check;
}

/** The kind a search would find: binary when a NUL is in the first 8 KiB or the bytes are not UTF-8. */
function kindOf(bytes: Uint8Array): FileKind {
  if ((bytes.length > SNIFF_BYTES ? bytes.subarray(0, SNIFF_BYTES) : bytes).indexOf(0) !== -1) return FileKind.Binary;
  if (nativeIsUtf8) return nativeIsUtf8(bytes) ? FileKind.Text : FileKind.Binary;
  try {
    fatalUtf8.decode(bytes);
    return FileKind.Text;
  } catch {
    return FileKind.Binary;
  }
}


/** The parts of an index that its serialized form holds. */
export interface IndexParts {
  paths: string[];
  /** Four numbers per file: size, mtimeMs, ctimeMs, ino. */
  stats: Float64Array;
  flags: Uint8Array;
  postings: FrozenPostings;
  racyMs: number;
}

/**
 * An in-memory trigram index over a list of files. Ids are dense; a file changed or added after the
 * build gets a new id past the frozen ones with its trigrams kept beside the postings (an overlay),
 * and its old id is marked dead; {@link compact} folds the overlay back into the postings.
 */
export class SearchIndex {
  #paths: string[];
  #ids = new Map<string, number>();
  #stats: Float64Array;
  #flags: Uint8Array;
  #count: number;
  #postings: FrozenPostings;
  /** Ids below this are in the postings; the rest are in the overlay. */
  #frozen: number;
  #overlay = new Map<number, Uint32Array>();
  #version = 0;
  /** The version at which {@link settledRacy} last found no racy file (-1: not yet). */
  #racyFreeAt = -1;
  /** Path characters of every id (dead ones too, until compacted), and trigram keys in the overlay. */
  #pathChars = 0;
  #overlayKeys = 0;
  readonly racyMs: number;

  constructor(parts: IndexParts) {
    this.#paths = parts.paths;
    this.#stats = parts.stats;
    this.#flags = parts.flags;
    this.#count = parts.paths.length;
    this.#frozen = this.#count;
    this.#postings = parts.postings;
    this.racyMs = parts.racyMs;
    for (let id = 0; id < this.#count; id += 1) {
      this.#pathChars += (this.#paths[id] as string).length;
      if (!((this.#flags[id] as number) & DEAD)) this.#ids.set(this.#paths[id] as string, id);
    }
  }

  /**
   * About the bytes the index takes: its serialized size (paths, identities, keys and postings; see
   * {@link indexBytesOf}) plus 4 bytes per trigram of the files changed since it was frozen. What the
   * budget `maxIndexBytes` bounds.
   */
  get bytes(): number {
    return indexBytesOf(this.#count, this.#pathChars, this.#postings.keys.length, this.#postings.bytes.length) + this.#overlayKeys * 4;
  }

  /**
   * Builds an index from files read for it (see {@link ReadFile}), in the order given. Each file's
   * trigrams are taken from its bytes with ASCII letters lower-cased; a binary file has none.
   */
  static build(files: Iterable<ReadFile>, options: { racyMs?: number } = {}): SearchIndex {
    const builder = new SearchIndexBuilder(options);
    for (const file of files) builder.add(file);
    return builder.finish();
  }

  /** Moves with every {@link update} and {@link remove}: answers of {@link candidates} taken at one version hold while it stays. */
  get version(): number {
    return this.#version;
  }

  /** Live files indexed. */
  get size(): number {
    return this.#ids.size;
  }

  /** The file at `path` as indexed, or undefined when it is not. */
  file(path: string): IndexedFile | undefined {
    const id = this.#ids.get(path);
    if (id === undefined) return undefined;
    const s = this.#stats;
    const flags = this.#flags[id] as number;
    return { path, stat: { size: s[id * 4] as number, mtimeMs: s[id * 4 + 1] as number, ctimeMs: s[id * 4 + 2] as number, ino: s[id * 4 + 3] as number }, kind: (flags & KIND_MASK) as FileKind, racy: (flags & RACY) !== 0 };
  }

  /**
   * The racy files whose last change is now past the racy window (`now`: `Date.now()`): read again,
   * unchanged, they would be trusted.
   */
  settledRacy(now: number): string[] {
    // Flags change only with the version: an index found with no racy file stays so until it moves.
    if (this.#racyFreeAt === this.#version) return [];
    const out: string[] = [];
    const flags = this.#flags;
    let racy = false;
    for (let id = 0; id < this.#count; id += 1) {
      const flag = flags[id] as number;
      if (!(flag & RACY) || flag & DEAD) continue;
      racy = true;
      if (Math.max(this.#stats[id * 4 + 1] as number, this.#stats[id * 4 + 2] as number) < now - this.racyMs) out.push(this.#paths[id] as string);
    }
    if (!racy) this.#racyFreeAt = this.#version;
    return out;
  }

  /** Every live path indexed, in id order. */
  paths(): string[] {
    return [...this.#ids.keys()];
  }

  /** Replaces (or adds) one file from a fresh read: its old entry is dropped, its new trigrams go to the overlay. */
  update(file: ReadFile): void {
    this.remove(file.path);
    this.#version += 1;
    const id = this.#count++;
    if (id * 4 + 4 > this.#stats.length) {
      const grown = new Float64Array(Math.max(16, this.#stats.length * 2));
      grown.set(this.#stats);
      this.#stats = grown;
    }
    if (id + 1 > this.#flags.length) {
      const grown = new Uint8Array(Math.max(4, this.#flags.length * 2));
      grown.set(this.#flags);
      this.#flags = grown;
    }
    this.#paths[id] = file.path;
    this.#pathChars += file.path.length;
    this.#stats.set([file.stat.size, file.stat.mtimeMs, file.stat.ctimeMs, file.stat.ino], id * 4);
    const entry = describe(file, this.racyMs);
    this.#flags[id] = entry.flags;
    const keys = entry.kind === FileKind.Text ? fileTrigrams(file.bytes as Uint8Array, trigramBitmapShared()).slice().sort() : new Uint32Array(0);
    this.#overlay.set(id, keys);
    this.#overlayKeys += keys.length;
    this.#ids.set(file.path, id);
  }

  /** Forgets the file at `path` (removed, or no longer to be trusted). */
  remove(path: string): void {
    const id = this.#ids.get(path);
    if (id === undefined) return;
    this.#version += 1;
    this.#flags[id] = (this.#flags[id] as number) | DEAD;
    this.#overlayKeys -= this.#overlay.get(id)?.length ?? 0;
    this.#overlay.delete(id);
    this.#ids.delete(path);
  }

  /** Forgets the file at `path` and every file beneath it (a directory removed or moved away). */
  removeUnder(path: string): void {
    if (this.#ids.has(path)) {
      // A file has nothing beneath it.
      this.remove(path);
      return;
    }
    const prefix = path.endsWith('/') ? path : `${path}/`;
    for (const indexed of [...this.#ids.keys()]) if (indexed.startsWith(prefix)) this.remove(indexed);
  }

  /** Whether files were changed or removed since the postings were frozen ({@link compact} would change it). */
  get dirty(): boolean {
    return this.#overlay.size > 0 || this.#ids.size !== this.#count;
  }

  /** Files changed since the postings were frozen (the overlay's size). */
  get pending(): number {
    return this.#overlay.size;
  }

  /**
   * The live paths whose trigrams meet `plan` (a superset of the files holding a match), or undefined
   * for `all`. Racy and unindexed files are always included; binary ones never are.
   */
  candidates(plan: TrigramPlan): Set<string> | undefined {
    if (plan.op === 'all') return undefined;
    const bits = this.#evaluate(plan);
    const out = new Set<string>();
    for (const id of this.#ids.values()) {
      const flags = this.#flags[id] as number;
      const kind = flags & KIND_MASK;
      if (kind === FileKind.Binary && !(flags & RACY)) continue;
      let hit = kind === FileKind.Unindexed || (flags & RACY) !== 0;
      if (!hit) hit = id < this.#frozen ? ((bits[id >>> 5] as number) & (1 << (id & 31))) !== 0 : meets(plan, this.#overlay.get(id) as Uint32Array);
      if (hit) out.add(this.#paths[id] as string);
    }
    return out;
  }

  /** The frozen ids meeting `plan`, as a bitmap. */
  #evaluate(plan: TrigramPlan): Uint32Array {
    const words = (this.#frozen + 31) >>> 5;
    if (plan.op === 'all') return new Uint32Array(words).fill(0xffffffff);
    if (plan.op === 'none') return new Uint32Array(words);
    const lists = plan.trigrams.map((key) => this.#list(key));
    if (plan.op === 'and') {
      // Shortest lists first: an empty one ends it.
      lists.sort((a, b) => a[1] - a[0] - (b[1] - b[0]));
      let bits: Uint32Array | undefined;
      for (const list of lists) {
        const next = this.#bitsOf(list, words);
        bits = bits ? andInto(bits, next) : next;
      }
      for (const sub of plan.subs) bits = bits ? andInto(bits, this.#evaluate(sub)) : this.#evaluate(sub);
      return bits ?? new Uint32Array(words).fill(0xffffffff);
    }
    const bits = new Uint32Array(words);
    for (const list of lists) this.#orList(bits, list);
    for (const sub of plan.subs) orInto(bits, this.#evaluate(sub));
    return bits;
  }

  /** The byte range of `key`'s posting list ([0, 0] when absent). */
  #list(key: number): [number, number] {
    const { keys, offsets } = this.#postings;
    const at = sortedIndexOf(keys, key);
    return at < 0 ? [0, 0] : [offsets[at] as number, offsets[at + 1] as number];
  }

  #bitsOf(list: [number, number], words: number): Uint32Array {
    const bits = new Uint32Array(words);
    this.#orList(bits, list);
    return bits;
  }

  #orList(bits: Uint32Array, [start, end]: [number, number]): void {
    setIdBits(this.#postings.bytes, start, end, bits, this.#frozen);
  }

  /** The index with its overlay folded into the postings and dead ids dropped (ids renumbered). */
  compact(): SearchIndex {
    const live = [...this.#ids.values()].sort((a, b) => a - b);
    const newId = new Int32Array(this.#count).fill(-1);
    live.forEach((id, i) => (newId[id] = i));
    const paths = live.map((id) => this.#paths[id] as string);
    const stats = new Float64Array(live.length * 4);
    const flags = new Uint8Array(live.length);
    live.forEach((id, i) => {
      stats.set(this.#stats.subarray(id * 4, id * 4 + 4), i * 4);
      flags[i] = (this.#flags[id] as number) & ~DEAD;
    });
    return new SearchIndex({ paths, stats, flags, postings: this.#mergedPostings(newId), racyMs: this.racyMs });
  }

  /** The frozen postings (live ids renumbered by `newId`) merged with the overlay's files. */
  #mergedPostings(newId: Int32Array): FrozenPostings {
    const extra = new Map<number, number[]>();
    const overlayIds = [...this.#overlay.keys()].filter((id) => newId[id] !== -1).sort((a, b) => (newId[a] as number) - (newId[b] as number));
    for (const id of overlayIds) {
      for (const key of this.#overlay.get(id) as Uint32Array) {
        let list = extra.get(key);
        if (!list) extra.set(key, (list = []));
        list.push(newId[id] as number);
      }
    }
    return foldPostings(this.#postings, this.#frozen, newId, extra);
  }

  /** The parts to serialize (compact first: the overlay is not kept). Throws a TypeError when the overlay is not empty. */
  parts(): IndexParts {
    if (this.dirty) throw new TypeError('SearchIndex.parts: compact() the index first');
    return { paths: this.#paths.slice(0, this.#count), stats: this.#stats.slice(0, this.#count * 4), flags: this.#flags.slice(0, this.#count), postings: this.#postings, racyMs: this.racyMs };
  }

  /** Bytes the postings take (the index's bulk), overlay not counted. */
  get postingBytes(): number {
    return this.#postings.bytes.length + this.#postings.keys.length * 8;
  }
}

/**
 * One part of an index built on its own (see {@link SearchIndexBuilder.finishPart}): its files (ids
 * from the part's first id on), their postings under those ids, and each list's last id.
 */
export interface IndexPart {
  paths: string[];
  stats: Float64Array;
  flags: Uint8Array;
  postings: FrozenPostings;
  last: Int32Array;
}

/**
 * What builders of the parts of one index share so the budget bounds them together: `others()` gives
 * what the other parts counted last (index bytes, build bytes), `report` tells them this part's.
 */
export interface BuildAlongside {
  others(): { index: number; build: number };
  report(index: number, build: number): void;
}

/**
 * The index of two parts built side by side over consecutive ids (`first` from id 0, `second` from
 * the id after `first`'s last): the same, byte for byte, as one builder given both parts' files.
 * `progress` is told of the joined posting lists as they are made (see `mergePostings`).
 */
export function joinIndexParts(first: IndexPart, second: IndexPart, racyMs: number = DEFAULT_RACY_MS, progress?: MergeProgress): SearchIndex {
  const count = first.paths.length + second.paths.length;
  const stats = new Float64Array(count * 4);
  stats.set(first.stats.subarray(0, first.paths.length * 4));
  stats.set(second.stats.subarray(0, second.paths.length * 4), first.paths.length * 4);
  const flags = new Uint8Array(count);
  flags.set(first.flags.subarray(0, first.paths.length));
  flags.set(second.flags.subarray(0, second.paths.length), first.paths.length);
  const paths = first.paths.concat(second.paths);
  const postings = mergePostings(first.postings, first.last, second.postings, progress);
  return new SearchIndex({ paths, stats, flags, postings, racyMs });
}

/** Builds a {@link SearchIndex} one file at a time, so a build holds one file's bytes at once, not all. */
export class SearchIndexBuilder {
  readonly #racyMs: number;
  readonly #postings: PostingBuilder;
  readonly #firstId: number;
  readonly #alongside: BuildAlongside | undefined;
  readonly #seen = trigramBitmap();
  readonly #paths: string[] = [];
  readonly #known = new Set<string>();
  #stats = new Float64Array(1024);
  #flags = new Uint8Array(256);
  #pathChars = 0;
  readonly #budget: SearchIndexBudget | undefined;
  readonly #total: number | (() => number | undefined) | undefined;
  /**
   * The trigram keys met in any file so far, a bit per key (see `fileTrigrams`): the keys of the pairs
   * still pending in the posting builder count in {@link indexBytes} too, so its count is not short of
   * the saved size by them (a part built alongside counts the posting builder's, its keys being shared).
   */
  readonly #met = keyTally();
  /** What the builder held before its first file (the "seen" map, the key tables' first pages). */
  readonly #emptyBytes: number;

  /**
   * `budget`: the bounds the build keeps to (none when absent): {@link add} and {@link holding}
   * throw an {@link IndexOverBudget} as soon as what was counted passes one. `total`: how many files
   * the build will add (for the note's projection), or what it answers (undefined while unknown).
   */
  constructor(options: { racyMs?: number; budget?: SearchIndexBudget; total?: number | (() => number | undefined); firstId?: number; batchPairs?: number; alongside?: BuildAlongside } = {}) {
    this.#racyMs = options.racyMs ?? DEFAULT_RACY_MS;
    this.#postings = new PostingBuilder(options.batchPairs === undefined ? {} : { batchPairs: options.batchPairs });
    this.#firstId = options.firstId ?? 0;
    this.#alongside = options.alongside;
    this.#budget = options.budget;
    this.#total = options.total;
    this.#emptyBytes = this.buildBytes;
  }

  /** About the bytes the index built so far would take (see {@link SearchIndex.bytes}). */
  get indexBytes(): number {
    const keys = this.#alongside ? this.#postings.keyCount : Math.max(this.#met.keys, this.#postings.keyCount);
    return indexBytesOf(this.#paths.length, this.#pathChars, keys, this.#postings.dataBytes);
  }

  /**
   * About the memory the build holds at its peak with what was added so far: the posting builder
   * (arena and tables), the copy it is frozen into, the paths and identities, the "seen" map of keys.
   */
  get buildBytes(): number {
    const postings = this.#postings;
    return postings.memoryBytes + postings.dataBytes + postings.keyCount * 8 + this.#pathChars * 2 + this.#paths.length * 120 + this.#seen.byteLength + this.#met.bits.byteLength;
  }

  /**
   * Checks the budget with `reading` more bytes held at once (files read and not yet added): throws
   * an {@link IndexOverBudget} when the index or the build's memory is past its bound.
   */
  holding(reading: number): void {
    const budget = this.#budget;
    if (!budget) return;
    const total = typeof this.#total === 'function' ? this.#total() : this.#total;
    const counts = { done: this.#paths.length, ...(total === undefined ? {} : { total }) };
    let index = this.indexBytes;
    let build = this.buildBytes + reading;
    const alongside = this.#alongside;
    if (alongside) {
      alongside.report(index, build);
      const others = alongside.others();
      index += others.index;
      build += others.build;
    }
    const done = this.#paths.length;
    // Projected only once enough was done (see enoughDone): else the note gives what it reached.
    const scale = total !== undefined && done < total && enoughDone(done, total) ? total / done : undefined;
    if (index > budget.maxIndexBytes) {
      const projected = scale === undefined ? {} : { projected: Math.max(index, 56 + wholeOf(index - 56, scale)) };
      throw new IndexOverBudget({ budget: 'maxIndexBytes', limit: budget.maxIndexBytes, reached: index, ...counts, ...projected });
    }
    if (build > budget.maxBuildBytes) {
      const projected = scale === undefined ? {} : { projected: this.#projectBuild(build, reading, scale) };
      throw new IndexOverBudget({ budget: 'maxBuildBytes', limit: budget.maxBuildBytes, reached: build, ...counts, ...projected });
    }
  }

  /**
   * What the whole build would hold, from `build` bytes counted (`reading` of them files being read)
   * with 1/`scale` of its files done: a fixed part (the empty builder, the pending buffers, which grow
   * once to a batch at most, and the reads), counted once per part built alongside, plus the rest
   * scaled to the whole (see {@link wholeOf}). Never below `build`.
   */
  #projectBuild(build: number, reading: number, scale: number): number {
    const parts = this.#alongside ? 2 : 1;
    const postings = this.#postings;
    const fixedNow = parts * (this.#emptyBytes + postings.pendingBytes) + reading;
    const fixedEnd = parts * (this.#emptyBytes + postings.pendingBytesAfter(postings.pairsAdded * scale)) + reading;
    return Math.max(build, fixedEnd + wholeOf(Math.max(0, build - fixedNow), scale));
  }

  /** Adds one file (paths must be distinct: a TypeError otherwise). */
  add(file: ReadFile): void {
    if (this.#known.has(file.path)) throw new TypeError(`SearchIndexBuilder.add: ${file.path} was added already`);
    this.#known.add(file.path);
    const id = this.#paths.length;
    if (id * 4 + 4 > this.#stats.length) {
      const grown = new Float64Array(this.#stats.length * 2);
      grown.set(this.#stats);
      this.#stats = grown;
      const grownFlags = new Uint8Array(this.#flags.length * 2);
      grownFlags.set(this.#flags);
      this.#flags = grownFlags;
    }
    this.#paths.push(file.path);
    this.#pathChars += file.path.length;
    const stats = this.#stats;
    stats[id * 4] = file.stat.size;
    stats[id * 4 + 1] = file.stat.mtimeMs;
    stats[id * 4 + 2] = file.stat.ctimeMs;
    stats[id * 4 + 3] = file.stat.ino;
    const entry = describe(file, this.#racyMs);
    this.#flags[id] = entry.flags;
    if (entry.kind === FileKind.Text) {
      // A part built alongside counts the posting builder's keys, not the met ones (see indexBytes).
      this.#postings.add(this.#firstId + id, fileTrigrams(file.bytes as Uint8Array, this.#seen, this.#alongside ? undefined : this.#met));
    }
    this.holding(0);
  }

  /** The files added as one part of an index (see {@link joinIndexParts}; the builder is spent). */
  finishPart(): IndexPart {
    const count = this.#paths.length;
    const { postings, last } = this.#postings.freezePart();
    return { paths: this.#paths, stats: this.#stats.slice(0, count * 4), flags: this.#flags.slice(0, count), postings, last };
  }

  /** The index of the files added (the builder is spent; its first id must be 0). */
  finish(): SearchIndex {
    const count = this.#paths.length;
    return new SearchIndex({ paths: this.#paths, stats: this.#stats.slice(0, count * 4), flags: this.#flags.slice(0, count), postings: this.#postings.freeze(), racyMs: this.#racyMs });
  }
}

/**
 * About the serialized size of an index of `files` files (`pathChars` characters of paths in all)
 * with `keys` trigram keys and `postingBytes` bytes of posting lists, and never above it: the header
 * and fixed fields, each path with a one-byte length, 33 bytes of identity and kind per file, 8 bytes
 * per key (its value and offset); the root, longer lengths, padding and checksums add to it. So a
 * build whose count passes `maxIndexBytes` would save an index past it too.
 */
export function indexBytesOf(files: number, pathChars: number, keys: number, postingBytes: number): number {
  return 56 + pathChars + files * 34 + keys * 8 + postingBytes;
}

/**
 * A build's part per file for all its files, from `done` bytes of it counted over 1/`scale` of them:
 * the files left count twice what the files done took on average, since the walk's order groups
 * files alike (a folder of large generated files can come last), so one part of a tree does not
 * tell the rest; what they took more than that, a stop again says.
 */
function wholeOf(done: number, scale: number): number {
  return done * (1 + 2 * (scale - 1));
}

/** A file's flags and kind from its read: unreadable or over the limit is unindexed; changed while read, or close to its read, is racy. */
function describe(file: ReadFile, racyMs: number): { kind: FileKind; flags: number } {
  const kind = file.bytes === undefined || file.bytes.length > MAX_INDEXED_FILE_BYTES ? FileKind.Unindexed : kindOf(file.bytes);
  const racy = !file.steady || Math.max(file.stat.mtimeMs, file.stat.ctimeMs) >= file.readAt - racyMs || !Number.isFinite(file.stat.ctimeMs);
  return { kind, flags: kind | (racy ? RACY : 0) };
}

let sharedBitmap: Int32Array | undefined;

/** One "seen" map for incremental updates (kept once made; see `trigramBitmap`). */
function trigramBitmapShared(): Int32Array {
  sharedBitmap ??= trigramBitmap();
  return sharedBitmap;
}

function andInto(a: Uint32Array, b: Uint32Array): Uint32Array {
  for (let i = 0; i < a.length; i += 1) a[i] = (a[i] as number) & (b[i] as number);
  return a;
}

function orInto(a: Uint32Array, b: Uint32Array): void {
  for (let i = 0; i < a.length; i += 1) a[i] = (a[i] as number) | (b[i] as number);
}

/** Where `key` is in the ascending `keys` (binary search), or -1. */
function sortedIndexOf(keys: Uint32Array, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid] as number;
    if (k < key) lo = mid + 1;
    else if (k > key) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Whether a file with the sorted trigram `keys` meets `plan`. */
function meets(plan: TrigramPlan, keys: Uint32Array): boolean {
  if (plan.op === 'all') return true;
  if (plan.op === 'none') return false;
  const has = (key: number): boolean => sortedIndexOf(keys, key) >= 0;
  if (plan.op === 'and') return plan.trigrams.every(has) && plan.subs.every((sub) => meets(sub, keys));
  return plan.trigrams.some(has) || plan.subs.some((sub) => meets(sub, keys));
}
