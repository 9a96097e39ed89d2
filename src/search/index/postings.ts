// Posting lists of the search index: for each trigram, the ids of the files holding it, ascending,
// stored as delta varints (one byte per id for ids close together). Built in one arena as files are
// added in id order, then frozen into three arrays: sorted keys, offsets, bytes.
import { foldByte } from './plan.js';

/** Trigram keys are 24 bits; the "seen in this file" bitmap has a bit for each. */
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

/** Where {@link fileTrigrams} collects keys (grown as needed, kept). */
let foundScratch = new Uint32Array(1 << 16);

/**
 * The distinct trigram keys of a file's bytes (ASCII letters lower-cased; no trigram that holds a
 * line break, since no match does), in the order first met. `seen` is a zeroed bitmap of
 * {@link KEY_SPACE} bits, zeroed again on return. The keys are a view of a buffer the next call
 * overwrites: copy them to keep them.
 */
export function fileTrigrams(bytes: Uint8Array, seen: Uint32Array): Uint32Array {
  let found = foundScratch;
  let count = 0;
  let key = 0;
  let run = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i += 1) {
    let b = bytes[i] as number;
    if (b === 10 || b === 13) {
      run = 0;
      continue;
    }
    // foldByte, inline: ASCII letters lower-cased.
    if (b >= 0x41 && b <= 0x5a) b |= 0x20;
    key = ((key << 8) | b) & 0xffffff;
    if (++run < 3) continue;
    const word = key >>> 5;
    const bit = 1 << (key & 31);
    const had = seen[word] as number;
    if (had & bit) continue;
    seen[word] = had | bit;
    if (count === found.length) {
      const grown = new Uint32Array(found.length * 2);
      grown.set(found);
      found = foundScratch = grown;
    }
    found[count++] = key;
  }
  for (let i = 0; i < count; i += 1) {
    const k = found[i] as number;
    seen[k >>> 5] = (seen[k >>> 5] as number) & ~(1 << (k & 31));
  }
  return found.subarray(0, count);
}

/** A fresh bitmap for {@link fileTrigrams}. */
export function trigramBitmap(): Uint32Array {
  return new Uint32Array(KEY_SPACE / 32);
}

/**
 * Posting lists under construction: an open-addressing table from trigram key to slot, and per slot
 * a chain of chunks in one byte arena (each chunk: 4 bytes next-chunk offset, 4 bytes capacity, then
 * data), so a build holds about one byte per (file, trigram) pair plus the chunks' slack.
 */
export class PostingBuilder {
  #table = new Int32Array(1 << 16).fill(-1);
  #slots = 0;
  #key = new Uint32Array(1024);
  #last = new Int32Array(1024);
  #head = new Int32Array(1024);
  #tail = new Int32Array(1024);
  #pos = new Int32Array(1024);
  #end = new Int32Array(1024);
  #arena = new Uint8Array(1 << 16);
  #arenaTop = 0;
  #data = 0;

  /** Bytes of the lists' data so far (what {@link freeze} lays out). */
  get dataBytes(): number {
    return this.#data;
  }

  /** Distinct keys so far. */
  get keyCount(): number {
    return this.#slots;
  }

  /** Bytes the builder holds now: its arena's capacity and its tables. */
  get memoryBytes(): number {
    return this.#arena.length + this.#key.length * 24 + this.#table.length * 4;
  }

  /** Adds file `id` (ids must come in ascending order) to the lists of `keys`. */
  add(id: number, keys: Uint32Array): void {
    for (const key of keys) {
      const slot = this.#slotOf(key);
      let delta = id - (this.#last[slot] as number) - 1;
      this.#last[slot] = id;
      while (delta >= 0x80) {
        this.#put(slot, (delta & 0x7f) | 0x80);
        delta >>>= 7;
      }
      this.#put(slot, delta);
    }
  }

  #slotOf(key: number): number {
    const mask = this.#table.length - 1;
    let at = Math.imul(key, 0x9e3779b1) >>> 0 & mask;
    for (;;) {
      const slot = this.#table[at] as number;
      if (slot === -1) break;
      if (this.#key[slot] === key) return slot;
      at = (at + 1) & mask;
    }
    const slot = this.#slots++;
    if (slot === this.#key.length) this.#growSlots();
    this.#key[slot] = key;
    this.#last[slot] = -1;
    const chunk = this.#chunk(8);
    this.#head[slot] = chunk;
    this.#tail[slot] = chunk;
    this.#pos[slot] = chunk + 8;
    this.#end[slot] = chunk + 16;
    this.#table[at] = slot;
    if (this.#slots * 2 > this.#table.length) this.#rehash();
    return slot;
  }

  #put(slot: number, byte: number): void {
    if (this.#pos[slot] === this.#end[slot]) {
      const tail = this.#tail[slot] as number;
      const capacity = Math.min(1024, this.#readInt(tail + 4) * 2);
      const chunk = this.#chunk(capacity);
      this.#writeInt(tail, chunk);
      this.#tail[slot] = chunk;
      this.#pos[slot] = chunk + 8;
      this.#end[slot] = chunk + 8 + capacity;
    }
    this.#arena[this.#pos[slot] as number] = byte;
    this.#data += 1;
    this.#pos[slot] = (this.#pos[slot] as number) + 1;
  }

  #chunk(capacity: number): number {
    const at = this.#arenaTop;
    if (at + 8 + capacity > this.#arena.length) {
      // Doubling while small; past 64 MiB by a quarter, so the arena's slack (and the build's peak
      // memory, which holds the arena and its frozen copy at once) stays small on a large tree.
      const length = this.#arena.length;
      const grown = new Uint8Array(Math.max(length < 64 * 1024 * 1024 ? length * 2 : Math.ceil(length * 1.25), at + 8 + capacity));
      grown.set(this.#arena.subarray(0, at));
      this.#arena = grown;
    }
    this.#arenaTop = at + 8 + capacity;
    this.#writeInt(at, -1);
    this.#writeInt(at + 4, capacity);
    return at;
  }

  #readInt(at: number): number {
    const a = this.#arena;
    return ((a[at] as number) | ((a[at + 1] as number) << 8) | ((a[at + 2] as number) << 16) | ((a[at + 3] as number) << 24)) | 0;
  }

  #writeInt(at: number, value: number): void {
    const a = this.#arena;
    a[at] = value & 255;
    a[at + 1] = (value >>> 8) & 255;
    a[at + 2] = (value >>> 16) & 255;
    a[at + 3] = (value >>> 24) & 255;
  }

  #growSlots(): void {
    const grow = <T extends Int32Array | Uint32Array>(array: T): T => {
      const grown = new (array.constructor as new (n: number) => T)(array.length * 2);
      grown.set(array);
      return grown;
    };
    this.#key = grow(this.#key);
    this.#last = grow(this.#last);
    this.#head = grow(this.#head);
    this.#tail = grow(this.#tail);
    this.#pos = grow(this.#pos);
    this.#end = grow(this.#end);
  }

  #rehash(): void {
    const table = new Int32Array(this.#table.length * 2).fill(-1);
    const mask = table.length - 1;
    for (let slot = 0; slot < this.#slots; slot += 1) {
      let at = Math.imul(this.#key[slot] as number, 0x9e3779b1) >>> 0 & mask;
      while (table[at] !== -1) at = (at + 1) & mask;
      table[at] = slot;
    }
    this.#table = table;
  }

  /** The lists frozen: keys ascending, their bytes laid end to end. The builder is spent. */
  freeze(): FrozenPostings {
    // Keys (24 bits) and slots packed into one number each, sorted natively.
    const packed = new Float64Array(this.#slots);
    for (let slot = 0; slot < this.#slots; slot += 1) packed[slot] = (this.#key[slot] as number) * 2 ** 26 + slot;
    packed.sort();
    const order = Array.from(packed, (value) => value % 2 ** 26);
    const keys = new Uint32Array(order.length);
    const offsets = new Uint32Array(order.length + 1);
    let total = 0;
    for (let slot = 0; slot < this.#slots; slot += 1) total += this.#length(slot);
    const bytes = new Uint8Array(total);
    let at = 0;
    order.forEach((slot, i) => {
      keys[i] = this.#key[slot] as number;
      offsets[i] = at;
      for (let chunk = this.#head[slot] as number; chunk !== -1; chunk = this.#readInt(chunk)) {
        const end = chunk === this.#tail[slot] ? (this.#pos[slot] as number) : chunk + 8 + this.#readInt(chunk + 4);
        bytes.set(this.#arena.subarray(chunk + 8, end), at);
        at += end - chunk - 8;
      }
    });
    offsets[order.length] = at;
    this.#arena = new Uint8Array(0);
    return { keys, offsets, bytes };
  }

  #length(slot: number): number {
    let n = 0;
    for (let chunk = this.#head[slot] as number; chunk !== -1; chunk = this.#readInt(chunk)) {
      n += chunk === this.#tail[slot] ? (this.#pos[slot] as number) - chunk - 8 : this.#readInt(chunk + 4);
    }
    return n;
  }
}
