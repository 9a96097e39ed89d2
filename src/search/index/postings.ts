// Posting lists of the search index: for each trigram, the ids of the files holding it, ascending,
// stored as delta varints (one byte per id for ids close together). Built in one arena as files are
// added in id order, then frozen into three arrays: sorted keys, offsets, bytes.
import { foldByte } from './plan.js';

/** Trigram keys are 24 bits; the "seen in this file" map has a byte for each. */
const KEY_SPACE = 1 << 24;

/** The frozen postings: `keys` ascending; key `keys[i]`'s ids are the varints in `bytes[offsets[i]..offsets[i + 1])`. */
export interface FrozenPostings {
  keys: Uint32Array;
  offsets: Uint32Array;
  bytes: Uint8Array;
}

/** Appends `value`'s varint to `out` at `at`; returns the position after it. */
export function putVarint(out: Uint8Array, at: number, value: number): number {
  let v = value;
  let pos = at;
  while (v >= 0x80) {
    out[pos++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[pos++] = v;
  return pos;
}

/** Calls `each(id)` for every id of the delta-varint list `bytes[start..end)`; stops at a malformed end. */
export function forEachId(bytes: Uint8Array, start: number, end: number, each: (id: number) => void): void {
  let id = -1;
  let pos = start;
  while (pos < end) {
    let value = 0;
    let shift = 0;
    let b: number;
    do {
      b = bytes[pos++] as number;
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80 && pos < end && shift < 35);
    id += value + 1;
    each(id);
  }
}

/**
 * Sets in `bits` (one bit per id, 32 a word) every id below `limit` of the delta-varint list
 * `bytes[start..end)`, as {@link forEachId} reads it, without a call per id: a search decodes a few
 * lists of thousands of ids each, often in a new process, whose code has not been optimized yet.
 */
export function setIdBits(bytes: Uint8Array, start: number, end: number, bits: Uint32Array, limit: number): void {
  let id = -1;
  let pos = start;
  while (pos < end) {
    let b = bytes[pos++] as number;
    let value = b & 0x7f;
    let shift = 7;
    while (b & 0x80 && pos < end && shift < 35) {
      b = bytes[pos++] as number;
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
    }
    id += value + 1;
    if (id < limit) bits[id >>> 5] = (bits[id >>> 5] as number) | (1 << (id & 31));
  }
}

/** Where {@link fileTrigrams} collects keys (grown to the largest file's length, kept). */
let foundScratch = new Uint32Array(1 << 16);

/**
 * What a line break becomes in a key: an upper-case ASCII letter, which no folded byte is, so a key
 * holding it is no trigram of the text. The "seen" map marks every such key as met for good, so the
 * windows that hold a line break (or reach before the file's start) are skipped by the same test as
 * the keys met before, with no branch of their own.
 */
const BREAK = 0x41;

/** Per byte: the byte as a trigram holds it (ASCII letters lower-cased), {@link BREAK} for a line break. */
const TRIGRAM_BYTE = new Uint8Array(256);
for (let b = 0; b < 256; b += 1) TRIGRAM_BYTE[b] = b === 10 || b === 13 ? BREAK : foldByte(b);

/** Keys met by the files given to {@link fileTrigrams} with it: a bit per key, and how many are set. */
export interface KeyTally {
  bits: Int32Array;
  keys: number;
}

/** An empty {@link KeyTally} (2 MiB). */
export function keyTally(): KeyTally {
  return { bits: new Int32Array(KEY_SPACE >>> 5), keys: 0 };
}

/**
 * The distinct trigram keys of a file's bytes (ASCII letters lower-cased; no trigram that holds a
 * line break, since no match does), in the order first met. `seen` is a map of one bit per key from
 * {@link trigramBitmap}, left as it was on return. `tally` (when given) counts the keys no file given
 * it before held. The keys are a view of a buffer the next call overwrites: copy them to keep them.
 */
export function fileTrigrams(bytes: Uint8Array, seen: Int32Array, tally?: KeyTally): Uint32Array {
  const n = bytes.length;
  // A file has at most one key per byte: sized once, no check in the loop.
  if (foundScratch.length < n) foundScratch = new Uint32Array(Math.max(n, foundScratch.length * 2));
  const found = foundScratch;
  const fold = TRIGRAM_BYTE;
  let count = 0;
  // As after a line break: the first two windows hold a BREAK.
  let key = (BREAK << 8) | BREAK;
  // A bit per key (2 MiB, which stays in the cache): most windows repeat a key already met, so the
  // branch is well predicted.
  for (let i = 0; i < n; i += 1) {
    key = ((key << 8) | (fold[bytes[i] as number] as number)) & 0xffffff;
    const word = seen[key >>> 5] as number;
    const bit = 1 << (key & 31);
    if ((word & bit) !== 0) continue;
    seen[key >>> 5] = word | bit;
    found[count++] = key;
  }
  for (let i = 0; i < count; i += 1) {
    const key = found[i] as number;
    seen[key >>> 5] = (seen[key >>> 5] as number) & ~(1 << (key & 31));
  }
  if (tally) countKeys(found, count, tally);
  return found.subarray(0, count);
}

/** Counts in `tally` the keys of `keys[0..count)` it had not met. */
function countKeys(keys: Uint32Array, count: number, tally: KeyTally): void {
  const bits = tally.bits;
  let fresh = 0;
  for (let i = 0; i < count; i += 1) {
    const key = keys[i] as number;
    const word = bits[key >>> 5] as number;
    const bit = 1 << (key & 31);
    if ((word & bit) === 0) {
      bits[key >>> 5] = word | bit;
      fresh += 1;
    }
  }
  tally.keys += fresh;
}

/**
 * A fresh "seen" map for {@link fileTrigrams}: a bit per key (2 MiB), the keys holding a line break
 * set for good.
 */
export function trigramBitmap(): Int32Array {
  const seen = new Int32Array(KEY_SPACE >>> 5);
  const set = (key: number): void => {
    seen[key >>> 5] = (seen[key >>> 5] as number) | (1 << (key & 31));
  };
  for (let x = 0; x < 0x10000; x += 1) {
    set((BREAK << 16) | x);
    set(((x & 0xff00) << 8) | (BREAK << 8) | (x & 0xff));
    set((x << 8) | BREAK);
  }
  return seen;
}

/** Pending (key, id) pairs a builder holds at most before it sorts them into a run (by default). */
const DEFAULT_BATCH_PAIRS = 1 << 22;
/** Pairs the pending buffers start with (they double up to the batch size). */
const FIRST_BATCH_PAIRS = 1 << 14;
/** Radix digits: a key (24 bits) is sorted by its low 12 bits, then its high 12 bits. */
const DIGIT_BITS = 12;
const DIGITS = 1 << DIGIT_BITS;
const DIGIT_MASK = DIGITS - 1;

/** Key → slot pages: a key's low {@link PAGE_BITS} bits (its last byte) index its page, the rest pick the page. */
const PAGE_BITS = 8;
const PAGE_KEYS = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_KEYS - 1;

/**
 * Bytes of each block the runs are written into. Large enough that the allocator maps each block on
 * its own (a block is returned to the system when let go, and its untouched tail takes no memory).
 */
const RUN_BLOCK_BYTES = 64 * 1024 * 1024;

/**
 * One sorted batch: its lists' bytes end to end in `block` from `start`, and per list its key's slot
 * and byte length: in `lengths` when below {@link LONG}, else {@link LONG} there and the length next
 * in `long` (most lists of a batch take a byte or two: a byte per list, not four, keeps the runs small).
 */
interface Run {
  block: Uint8Array;
  start: number;
  slots: Uint32Array;
  lengths: Uint8Array;
  long: Uint32Array;
}

/** A run's list length that is found in its `long` lengths. */
const LONG = 255;

/**
 * Posting lists under construction. Each file's (key, id) pairs are appended to a pending buffer;
 * a full buffer is sorted by key (a two-pass radix sort, stable, so ids stay ascending) and encoded
 * into a run: per key, its ids as delta varints, the first delta taken from the key's last id in
 * the runs before, so the runs of a key laid end to end are its whole list. {@link freeze} lays them
 * out once per key. No byte is written at a random place per pair (a key's slot is looked up once
 * per key and run, in a page per two-byte prefix, walked in key order), and a build holds about one
 * byte per (file, trigram) pair plus one pending batch.
 */
export class PostingBuilder {
  readonly #batchPairs: number;
  /** Pending pairs, interleaved: key, id. */
  #pairs = new Uint32Array(0);
  /** The radix sort's second buffer, as large as {@link #pairs}. */
  #spare = new Uint32Array(0);
  #pending = 0;
  /** Digit counts of the pending keys: low 12 bits, high 12 bits. */
  readonly #low = new Uint32Array(DIGITS);
  readonly #high = new Uint32Array(DIGITS);
  /**
   * From key to slot + 1 (0: none yet): a page of {@link PAGE_KEYS} entries per key prefix (its first
   * two bytes) met, taken from one pool as met; `#pageAt[prefix]` is where its page starts (0: none).
   * on first use (a workspace's text meets a few hundred of the 4,096 prefixes). Per slot its key,
   * the last id encoded and its list's bytes.
   */
  #pageAt = new Int32Array(1 << (24 - PAGE_BITS));
  /** The pages end to end; the first {@link PAGE_KEYS} entries are no page's. */
  #pagePool = new Int32Array(PAGE_KEYS * 16);
  #pageCount = 1;
  /**
   * Per distinct key of the batch being encoded (kept for the next): its slot, its list's length in a
   * byte ({@link LONG}: in the next of the long lengths), and the lengths of {@link LONG} bytes or more.
   */
  #groupSlots = new Uint32Array(0);
  #groupBytes = new Uint8Array(0);
  #groupLengths = new Uint32Array(0);
  /** Long lengths the last run encoded has (see {@link #encodeRun}). */
  #longCount = 0;
  #slots = 0;
  #key = new Uint32Array(1024);
  /** Per slot, side by side (one cache line for both): the last id encoded, its list's bytes so far. */
  #tail = new Int32Array(2048);
  #runs: Run[] = [];
  #runBytes = 0;
  /** The block runs are written into now, and where its free part starts. */
  #block = new Uint8Array(0);
  #blockTop = 0;
  #data = 0;
  #pairsAdded = 0;

  /** `batchPairs`: pending pairs sorted at once (default 4 Mi: 32 MiB, and as much again to sort). */
  constructor(options: { batchPairs?: number } = {}) {
    this.#batchPairs = Math.max(1, options.batchPairs ?? DEFAULT_BATCH_PAIRS);
  }

  /** Bytes of the lists' data so far (what {@link freeze} lays out; a pending pair counts its least, one byte). */
  get dataBytes(): number {
    return this.#data + this.#pending;
  }

  /** (key, id) pairs added so far. */
  get pairsAdded(): number {
    return this.#pairsAdded;
  }

  /**
   * The bytes the pending and sort buffers would take once `pairs` pairs in all were added: as now,
   * or one whole batch when they would have to grow (they grow once, to a batch at most).
   */
  pendingBytesAfter(pairs: number): number {
    const capacity = this.#pairs.length >>> 1;
    const now = (this.#pairs.length + this.#spare.length) * 4;
    return pairs <= capacity || capacity >= this.#batchPairs ? now : Math.max(now, this.#batchPairs * 16);
  }

  /** Bytes the pending and sort buffers take now. */
  get pendingBytes(): number {
    return (this.#pairs.length + this.#spare.length) * 4;
  }

  /** Distinct keys so far (pending pairs' keys counted once sorted). */
  get keyCount(): number {
    return this.#slots;
  }

  /** Bytes the builder holds now: its pending and sort buffers, its runs, its tables. */
  get memoryBytes(): number {
    return (this.#pairs.length + this.#spare.length) * 4 + this.#runBytes + this.#key.length * 12 + this.#pagePool.length * 4 + this.#pageAt.length * 4 + this.#groupSlots.length * 9;
  }

  /** Adds file `id` (ids must come in ascending order) to the lists of `keys` (distinct keys). */
  add(id: number, keys: Uint32Array): void {
    const n = keys.length;
    if (this.#pending + n > this.#pairs.length >>> 1) this.#makeRoom(n);
    const pairs = this.#pairs;
    const low = this.#low;
    const high = this.#high;
    let at = this.#pending * 2;
    for (let i = 0; i < n; i += 1) {
      const key = keys[i] as number;
      pairs[at] = key;
      pairs[at + 1] = id;
      at += 2;
      low[key & DIGIT_MASK] = (low[key & DIGIT_MASK] as number) + 1;
      high[key >>> DIGIT_BITS] = (high[key >>> DIGIT_BITS] as number) + 1;
    }
    this.#pending += n;
    this.#pairsAdded += n;
  }

  /** Grows the pending buffers toward the batch size, or sorts the pending pairs into a run, so `n` more fit. */
  #makeRoom(n: number): void {
    const capacity = this.#pairs.length >>> 1;
    if (capacity < this.#batchPairs) {
      // Small first (a small workspace), then the whole batch at once: the buffers are allocated
      // twice at most and reused by every batch after, never regrown page by page.
      const grown = Math.min(this.#batchPairs, capacity === 0 && this.#pending + n <= FIRST_BATCH_PAIRS ? FIRST_BATCH_PAIRS : Math.max(this.#batchPairs, this.#pending + n));
      if (grown >= this.#pending + n) {
        const pairs = new Uint32Array(grown * 2);
        pairs.set(this.#pairs.subarray(0, this.#pending * 2));
        this.#pairs = pairs;
        this.#spare = new Uint32Array(grown * 2);
        return;
      }
    }
    this.#flush();
    // One file with more keys than a batch holds: a batch of its own.
    if (n > this.#pairs.length >>> 1) {
      this.#pairs = new Uint32Array(n * 2);
      this.#spare = new Uint32Array(n * 2);
    }
  }

  /** Sorts the pending pairs by key (ids stay ascending) and encodes them into a run. */
  #flush(): void {
    const count = this.#pending;
    if (count === 0) return;
    radixPass(this.#pairs, this.#spare, count, this.#low, 0);
    radixPass(this.#spare, this.#pairs, count, this.#high, DIGIT_BITS);
    this.#low.fill(0);
    this.#high.fill(0);
    // Room for the batch's largest encoding (5 bytes a pair) in the block; a new block otherwise.
    if (this.#blockTop + count * 5 > this.#block.length) {
      // Small for a small workspace, doubling up to the block size.
      this.#block = new Uint8Array(Math.max(count * 5, Math.min(RUN_BLOCK_BYTES, Math.max(1 << 20, this.#block.length * 2))));
      this.#blockTop = 0;
    }
    const first = this.#blockTop;
    const groups = this.#encodeRun(this.#pairs, count);
    const at = this.#blockTop;
    const longCount = this.#longCount;
    this.#runs.push({ block: this.#block, start: first, slots: this.#groupSlots.slice(0, groups), lengths: this.#groupBytes.slice(0, groups), long: this.#groupLengths.slice(0, longCount) });
    this.#runBytes += at - first + groups * 5 + longCount * 4;
    this.#data += at - first;
    this.#pending = 0;
  }

  /**
   * Encodes the sorted pending pairs into the block from its free part on, one group per distinct key
   * (its slot looked up once, a new key given a new slot; keys come ascending, so the slot pages are
   * walked in order, not at random): each group's slot, its length in {@link #groupBytes} (or
   * {@link LONG} there and the length in {@link #groupLengths}). Returns how many groups there are;
   * moves the block's top past them and leaves the long lengths' count in {@link #longCount}.
   */
  #encodeRun(pairs: Uint32Array, count: number): number {
    let slots = this.#groupSlots;
    let lengths = this.#groupBytes;
    let long = this.#groupLengths;
    const pageAt = this.#pageAt;
    let pool = this.#pagePool;
    let tail = this.#tail;
    const out = this.#block;
    const end = count * 2;
    let longCount = 0;
    let at = this.#blockTop;
    let g = 0;
    for (let i = 0; i < end; g += 1) {
      const key = pairs[i] as number;
      const page = pageAt[key >>> PAGE_BITS] as number;
      let slot = page === 0 ? -1 : (pool[page + (key & PAGE_MASK)] as number) - 1;
      if (slot < 0) {
        slot = this.#newSlot(key);
        // It may have grown these.
        pool = this.#pagePool;
        tail = this.#tail;
      }
      if (g === slots.length) {
        // Grown as keys come (a batch holds far fewer distinct keys than pairs), kept for the next.
        this.#growGroups();
        slots = this.#groupSlots;
        lengths = this.#groupBytes;
        long = this.#groupLengths;
      }
      slots[g] = slot;
      const start = at;
      let last = tail[slot * 2] as number;
      for (; i < end && pairs[i] === key; i += 2) {
        const id = pairs[i + 1] as number;
        let delta = id - last - 1;
        last = id;
        while (delta >= 0x80) {
          out[at++] = (delta & 0x7f) | 0x80;
          delta >>>= 7;
        }
        out[at++] = delta;
      }
      const length = at - start;
      tail[slot * 2] = last;
      tail[slot * 2 + 1] = (tail[slot * 2 + 1] as number) + length;
      if (length < LONG) lengths[g] = length;
      else {
        lengths[g] = LONG;
        long[longCount++] = length;
      }
    }
    this.#blockTop = at;
    this.#longCount = longCount;
    return g;
  }

  /** The slot of `key`, met for the first time: a new one (its page too when it is the first of its page). */
  #newSlot(key: number): number {
    let page = this.#pageAt[key >>> PAGE_BITS] as number;
    if (page === 0) {
      page = this.#pageCount++ * PAGE_KEYS;
      if (page + PAGE_KEYS > this.#pagePool.length) {
        const grown = new Int32Array(this.#pagePool.length * 2);
        grown.set(this.#pagePool);
        this.#pagePool = grown;
      }
      this.#pageAt[key >>> PAGE_BITS] = page;
    }
    const slot = this.#slots++;
    if (slot === this.#key.length) this.#growSlots();
    this.#key[slot] = key;
    this.#tail[slot * 2] = -1;
    this.#tail[slot * 2 + 1] = 0;
    this.#pagePool[page + (key & PAGE_MASK)] = slot + 1;
    return slot;
  }

  /** Doubles the per-group tables (at least 64 Ki groups), keeping what they hold. */
  #growGroups(): void {
    const size = Math.max(1 << 16, this.#groupSlots.length * 2);
    const slots = new Uint32Array(size);
    slots.set(this.#groupSlots);
    this.#groupSlots = slots;
    const bytes = new Uint8Array(size);
    bytes.set(this.#groupBytes);
    this.#groupBytes = bytes;
    const long = new Uint32Array(size);
    long.set(this.#groupLengths);
    this.#groupLengths = long;
  }

  #growSlots(): void {
    const grow = <T extends Int32Array | Uint32Array>(array: T): T => {
      const grown = new (array.constructor as new (n: number) => T)(array.length * 2);
      grown.set(array);
      return grown;
    };
    this.#key = grow(this.#key);
    this.#tail = grow(this.#tail);
  }

  /** The lists frozen: keys ascending, their bytes laid end to end. The builder is spent. */
  freeze(): FrozenPostings {
    return this.freezePart().postings;
  }

  /**
   * {@link freeze}, with each list's last id (`last[i]` for `keys[i]`): what {@link mergePostings}
   * needs to continue these lists with another builder's.
   */
  freezePart(): { postings: FrozenPostings; last: Int32Array } {
    this.#flush();
    this.#pairs = new Uint32Array(0);
    this.#spare = new Uint32Array(0);
    this.#block = new Uint8Array(0);
    this.#pageAt = new Int32Array(0);
    this.#pagePool = new Int32Array(0);
    this.#pageCount = 0;
    this.#groupSlots = new Uint32Array(0);
    this.#groupBytes = new Uint8Array(0);
    this.#groupLengths = new Uint32Array(0);
    const count = this.#slots;
    // Keys (24 bits) and slots packed into one number each, sorted natively.
    const packed = new Float64Array(count);
    for (let slot = 0; slot < count; slot += 1) packed[slot] = (this.#key[slot] as number) * 2 ** 26 + slot;
    packed.sort();
    const keys = new Uint32Array(count);
    const last = new Int32Array(count);
    const offsets = new Uint32Array(count + 1);
    /** Per slot: where its next run's bytes go. */
    const cursor = new Uint32Array(count);
    let total = 0;
    for (let i = 0; i < count; i += 1) {
      const slot = (packed[i] as number) % 2 ** 26;
      keys[i] = this.#key[slot] as number;
      last[i] = this.#tail[slot * 2] as number;
      offsets[i] = total;
      cursor[slot] = total;
      total += this.#tail[slot * 2 + 1] as number;
    }
    offsets[count] = total;
    const bytes = new Uint8Array(total);
    const runs = this.#runs;
    for (let r = 0; r < runs.length; r += 1) {
      copyRun(runs[r] as Run, bytes, cursor);
      // Each run is let go once laid out, so the runs and the lists are not both held whole.
      runs[r] = EMPTY_RUN;
    }
    this.#runs = [];
    this.#runBytes = 0;
    return { postings: { keys, offsets, bytes }, last };
  }
}

/**
 * `postings` (the lists of ids below `frozen`) with each id renumbered by `newId` (-1: dropped) and,
 * per key, the ids of `extra` (new ids, ascending, each above every renumbered id) appended: the
 * lists a compacted index holds. Where `newId` keeps every id below `frozen` as it is (files were
 * only added), a list's bytes are copied as they are and only its last id is decoded; else each list
 * is decoded ({@link readVarint}) and encoded again, without an array or a callback per id.
 */
export function foldPostings(postings: FrozenPostings, frozen: number, newId: Int32Array, extra: ReadonlyMap<number, readonly number[]>): FrozenPostings {
  const { keys, offsets, bytes } = postings;
  let same = true;
  for (let id = 0; id < frozen && same; id += 1) same = newId[id] === id;
  const extraKeys = [...extra.keys()].sort((a, b) => a - b);
  let extraIds = 0;
  for (const ids of extra.values()) extraIds += ids.length;
  const outKeys = new Uint32Array(keys.length + extraKeys.length);
  const outOffsets = new Uint32Array(keys.length + extraKeys.length + 1);
  // Renumbering only shrinks the gaps, so a list never grows; each extra id takes 5 bytes at most.
  const out = new Uint8Array(bytes.length + extraIds * 5);
  let at = 0;
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < keys.length || j < extraKeys.length) {
    const oldKey = i < keys.length ? (keys[i] as number) : Infinity;
    const newKey = j < extraKeys.length ? (extraKeys[j] as number) : Infinity;
    const key = Math.min(oldKey, newKey);
    const start = at;
    let last = -1;
    if (oldKey === key) {
      const from = offsets[i] as number;
      const to = offsets[i + 1] as number;
      if (same) {
        out.set(bytes.subarray(from, to), at);
        at += to - from;
        if (newKey === key) last = lastId(bytes, from, to);
      } else {
        let id = -1;
        for (let p = from; p < to; p = varintEnd) {
          id += readVarint(bytes, p) + 1;
          const renumbered = id < frozen ? (newId[id] as number) : -1;
          if (renumbered === -1) continue;
          at = putVarint(out, at, renumbered - last - 1);
          last = renumbered;
        }
      }
      i += 1;
    }
    if (newKey === key) {
      for (const id of extra.get(key) as readonly number[]) {
        at = putVarint(out, at, id - last - 1);
        last = id;
      }
      j += 1;
    }
    if (at > start) {
      outKeys[n] = key;
      outOffsets[n] = start;
      n += 1;
    }
  }
  outOffsets[n] = at;
  return { keys: outKeys.slice(0, n), offsets: outOffsets.slice(0, n + 1), bytes: out.slice(0, at) };
}

/** The last id of the list in `bytes[from, to)` (-1 for an empty one). */
function lastId(bytes: Uint8Array, from: number, to: number): number {
  let id = -1;
  for (let p = from; p < to; p = varintEnd) id += readVarint(bytes, p) + 1;
  return id;
}

/** Where the varint {@link readVarint} read last ended (a second result without an array per call). */
let varintEnd = 0;

/** The varint at `bytes[at]`; where it ends is left in {@link varintEnd}. */
function readVarint(bytes: Uint8Array, at: number): number {
  let value = 0;
  let shift = 0;
  let pos = at;
  let b: number;
  do {
    b = bytes[pos++] as number;
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  varintEnd = pos;
  return value;
}

/** Bytes of `value`'s varint. */
function varintBytes(value: number): number {
  let n = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 128)) n += 1;
  return n;
}

/** Copies `from[start..end)` to `to` at `at` (a loop for a short list, no view made); returns the position after it. */
function copyBytes(from: Uint8Array, start: number, end: number, to: Uint8Array, at: number): number {
  if (end - start < 64) for (let k = start; k < end; k += 1) to[at + k - start] = from[k] as number;
  else to.set(from.subarray(start, end), at);
  return at + end - start;
}

/**
 * The postings of two builders over consecutive id ranges as one builder's over both: `a`'s lists
 * (with `aLast`, each list's last id, from {@link PostingBuilder.freezePart}), then `b`'s, whose ids
 * are all above `a`'s and whose first delta counts from -1. A key in both keeps `a`'s bytes, then
 * `b`'s first id as a delta from `a`'s last, then the rest of `b`'s bytes as they are: byte for byte
 * what one builder given every file would have made.
 */
export function mergePostings(a: FrozenPostings, aLast: Int32Array, b: FrozenPostings, progress?: MergeProgress): FrozenPostings {
  const na = a.keys.length;
  const nb = b.keys.length;
  const aKeys = a.keys;
  const bKeys = b.keys;
  const aOffsets = a.offsets;
  const bOffsets = b.offsets;
  // First pass: the keys and the size of the lists joined.
  let keyCount = 0;
  let total = 0;
  for (let i = 0, j = 0; i < na || j < nb; keyCount += 1) {
    const ka = i < na ? (aKeys[i] as number) : 0x1000000;
    const kb = j < nb ? (bKeys[j] as number) : 0x1000000;
    if (ka < kb) {
      total += (aOffsets[i + 1] as number) - (aOffsets[i] as number);
      i += 1;
      continue;
    }
    let size = (bOffsets[j + 1] as number) - (bOffsets[j] as number);
    if (ka === kb) {
      const first = readVarint(b.bytes, bOffsets[j] as number);
      size += (aOffsets[i + 1] as number) - (aOffsets[i] as number) - (varintEnd - (bOffsets[j] as number)) + varintBytes(first - 1 - (aLast[i] as number));
      i += 1;
    }
    total += size;
    j += 1;
  }
  progress?.sized(keyCount, total);
  const keys = new Uint32Array(keyCount);
  const offsets = new Uint32Array(keyCount + 1);
  const bytes = new Uint8Array(total);
  let at = 0;
  let k = 0;
  let report = progress ? progress.every : Infinity;
  for (let i = 0, j = 0; i < na || j < nb; k += 1) {
    if (at >= report) {
      (progress as MergeProgress).made(bytes, at);
      report = at + (progress as MergeProgress).every;
    }
    const ka = i < na ? (aKeys[i] as number) : 0x1000000;
    const kb = j < nb ? (bKeys[j] as number) : 0x1000000;
    keys[k] = Math.min(ka, kb);
    offsets[k] = at;
    let from = bOffsets[j] as number;
    if (ka <= kb) {
      at = copyBytes(a.bytes, aOffsets[i] as number, aOffsets[i + 1] as number, bytes, at);
      if (ka < kb) {
        i += 1;
        continue;
      }
      // `b`'s first id, counted from -1, now counted from `a`'s last id.
      const first = readVarint(b.bytes, from);
      at = putVarint(bytes, at, first - 1 - (aLast[i] as number));
      from = varintEnd;
      i += 1;
    }
    at = copyBytes(b.bytes, from, bOffsets[j + 1] as number, bytes, at);
    j += 1;
  }
  offsets[keyCount] = at;
  progress?.made(bytes, at);
  return { keys, offsets, bytes };
}

/**
 * What {@link mergePostings} tells as it goes, so its lists can be written out while it makes them:
 * `sized` once the joined lists' key count and bytes are known (before any byte is made), `made`
 * each time about `every` more bytes are final (the lists' bytes below `end`, which stay as they
 * are), and once at the end.
 */
export interface MergeProgress {
  sized(keys: number, bytes: number): void;
  made(bytes: Uint8Array, end: number): void;
  every: number;
}

const EMPTY_RUN: Run = { block: new Uint8Array(0), start: 0, slots: new Uint32Array(0), lengths: new Uint8Array(0), long: new Uint32Array(0) };

/** One stable counting-sort pass of `count` interleaved (key, id) pairs by the digit at `shift`; `counts` are the digit's counts. */
function radixPass(from: Uint32Array, to: Uint32Array, count: number, counts: Uint32Array, shift: number): void {
  let sum = 0;
  for (let d = 0; d < DIGITS; d += 1) {
    const c = counts[d] as number;
    counts[d] = sum;
    sum += c;
  }
  for (let i = 0; i < count * 2; i += 2) {
    const key = from[i] as number;
    const d = (key >>> shift) & DIGIT_MASK;
    const p = (counts[d] as number) * 2;
    counts[d] = (counts[d] as number) + 1;
    to[p] = key;
    to[p + 1] = from[i + 1] as number;
  }
}

/** Copies each list of `run` to its slot's place in `bytes`, moving the slot's cursor past it. */
function copyRun(run: Run, bytes: Uint8Array, cursor: Uint32Array): void {
  const { block: from, slots, lengths, long } = run;
  let at = run.start;
  let next = 0;
  for (let j = 0; j < slots.length; j += 1) {
    const slot = slots[j] as number;
    let length = lengths[j] as number;
    if (length === LONG) length = long[next++] as number;
    const to = cursor[slot] as number;
    if (length < 64) for (let k = 0; k < length; k += 1) bytes[to + k] = from[at + k] as number;
    else bytes.set(from.subarray(at, at + length), to);
    cursor[slot] = to + length;
    at += length;
  }
}
