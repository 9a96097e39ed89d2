import type { SearchFileStat, SearchSource } from './source-port.js';
import { BINARY_SNIFF_BYTES } from '../fs/text.js';

/**
 * A search source that can hand a file over a block at a time, in one reused buffer (the Node source):
 * `each` gets the blocks in order, each valid only during the call, and stops the read by answering
 * false. Undefined when the file is gone or not a regular file, 'large' (nothing read) when it is over
 * `limit` bytes; errors as `read`. Every block but the last is full, the first holding at least the
 * file's first 8 KiB.
 */
export interface BlockReader {
  readBlocks(path: string, limit: number, each: (block: Uint8Array) => boolean): SearchFileStat | 'large' | undefined;
}

/** The source's block reader, when it has one. */
export function blockReaderOf(source: SearchSource | undefined): BlockReader | undefined {
  return typeof (source as Partial<BlockReader> | undefined)?.readBlocks === 'function' ? (source as unknown as BlockReader) : undefined;
}

const NUL = new Uint8Array([0]);
const LF = new Uint8Array([10]);
const CR = new Uint8Array([13]);

/**
 * Bytes at the end of `bytes` that begin a UTF-8 sequence they do not finish (0 to 3): a block is
 * validated up to there and those bytes carried into the next one.
 */
function unfinishedTail(bytes: Uint8Array): number {
  const length = bytes.length;
  for (let back = 1; back <= 3 && back <= length; back += 1) {
    const byte = bytes[length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte < 0xc0) return 0;
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return needs > back ? back : 0;
  }
  return 0;
}

/**
 * The count of the lines holding a literal (bytes, no line break in it) over a file handed a block at
 * a time, with the answer a whole read gives (`SourceCache.load`, then `countTextNow`): binary when
 * its first 8 KiB hold a NUL or its bytes are not UTF-8 (validated block by block, a character split
 * between two blocks checked whole), a UTF-8 BOM is no line's, and lines end at `\n` or `\r`. A match
 * that straddles two blocks is found in the few bytes around their border. Reading a large file this
 * way keeps its bytes in a buffer the processor's cache holds, instead of a buffer of the file's
 * size read once and then searched again from memory. Stops at `deadline` (`stopped`).
 */
export class BlockLiteralCount {
  count = 0;
  binary = false;
  stopped = false;
  /** File offset of the next block. */
  #offset = 0;
  /** Where a match may start to count: past the line break ending the last line counted (Infinity: that break not seen yet). */
  #countFrom = 0;
  /** The last bytes of the previous block (up to the needle's length less one), for matches across the border. */
  #tail = new Uint8Array(0);
  /** A character the previous block ended inside of. */
  #unfinished = new Uint8Array(0);
  /**
   * In the current block, the first `\r` at or after {@link #crFrom} (-1: none to the block's end;
   * NaN: not looked for in this block yet), so a file with few `\r` is not searched for one per match.
   */
  #crAt = Number.NaN;
  #crFrom = 0;

  constructor(
    readonly source: SearchSource,
    readonly needle: Uint8Array,
    readonly deadline: number,
  ) {}

  /** Takes the next block; false once the rest need not be read (binary, or the deadline came). */
  add(block: Uint8Array): boolean {
    this.#crAt = Number.NaN;
    if (this.#offset === 0 && !this.#first(block)) return false;
    if (!this.#valid(block)) {
      this.binary = true;
      return false;
    }
    this.#across(block);
    this.#within(block);
    this.#keepTail(block);
    this.#offset += block.length;
    if (Date.now() >= this.deadline) {
      this.stopped = true;
      return false;
    }
    return true;
  }

  /** After the last block: whether the file was text (a character left unfinished at its end is not UTF-8). */
  finish(): boolean {
    if (this.#unfinished.length > 0) this.binary = true;
    return !this.binary;
  }

  /** The first block: binary by a NUL in its first 8 KiB; a BOM is skipped. */
  #first(block: Uint8Array): boolean {
    const sniff = block.length > BINARY_SNIFF_BYTES ? block.subarray(0, BINARY_SNIFF_BYTES) : block;
    if (this.source.indexOf(sniff, NUL, 0) !== -1) {
      this.binary = true;
      return false;
    }
    if (block.length >= 3 && block[0] === 0xef && block[1] === 0xbb && block[2] === 0xbf) this.#countFrom = 3;
    return true;
  }

  /** Whether the block is UTF-8 so far (with the character the last one left unfinished); what it leaves unfinished is carried. */
  #valid(block: Uint8Array): boolean {
    let start = 0;
    const carried = this.#unfinished;
    if (carried.length > 0) {
      const lead = carried[0] as number;
      const needs = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
      const more = Math.min(needs - carried.length, block.length);
      const joined = new Uint8Array(carried.length + more);
      joined.set(carried);
      joined.set(block.subarray(0, more), carried.length);
      if (joined.length < needs) {
        this.#unfinished = joined;
        return true;
      }
      if (!this.source.isUtf8(joined)) return false;
      start = more;
    }
    const rest = start === 0 ? block : block.subarray(start);
    const open = unfinishedTail(rest);
    this.#unfinished = open > 0 ? rest.slice(rest.length - open) : new Uint8Array(0);
    return this.source.isUtf8(open > 0 ? rest.subarray(0, rest.length - open) : rest);
  }

  /** Keeps the last bytes read (the needle's length less one), from this block and, when it is shorter, the ones before. */
  #keepTail(block: Uint8Array): void {
    const keep = this.needle.length - 1;
    if (block.length >= keep) {
      this.#tail = block.slice(block.length - keep);
      return;
    }
    const tail = this.#tail;
    const from = Math.max(0, tail.length + block.length - keep);
    const joined = new Uint8Array(tail.length + block.length - from);
    joined.set(tail.subarray(from));
    joined.set(block, tail.length - from);
    this.#tail = joined;
  }

  /** Matches that begin in the blocks before and end in this one (or beyond it: found with the next). */
  #across(block: Uint8Array): void {
    const tail = this.#tail;
    if (tail.length === 0) return;
    const head = block.subarray(0, Math.min(this.needle.length - 1, block.length));
    const joined = new Uint8Array(tail.length + head.length);
    joined.set(tail);
    joined.set(head, tail.length);
    const base = this.#offset - tail.length;
    for (let at = this.source.indexOf(joined, this.needle, 0); at !== -1 && at < tail.length; at = this.source.indexOf(joined, this.needle, at + 1)) {
      if (base + at < this.#countFrom) continue;
      this.count += 1;
      this.#lineEndFrom(block, base + at + this.needle.length - this.#offset);
    }
  }

  /** Matches that lie in this block, after the pending line end is found in it. */
  #within(block: Uint8Array): void {
    const offset = this.#offset;
    if (this.#countFrom === Infinity) this.#lineEndFrom(block, 0);
    if (this.#countFrom === Infinity) return;
    let from = Math.max(0, this.#countFrom - offset);
    for (;;) {
      const at = from < block.length ? this.source.indexOf(block, this.needle, from) : -1;
      if (at === -1) return;
      this.count += 1;
      this.#lineEndFrom(block, at + this.needle.length);
      if (this.#countFrom === Infinity) return;
      from = this.#countFrom - offset;
    }
  }

  /**
   * Counting goes on past the first line break at or after `from` in `block` (Infinity: none in it
   * yet); a `\r` is looked for only before the `\n` found, as `countLiteralLines` does.
   */
  #lineEndFrom(block: Uint8Array, from: number): void {
    const { source } = this;
    const lf = from < block.length ? source.indexOf(block, LF, from) : -1;
    const end = lf === -1 ? block.length : lf;
    const cr = end > from ? this.#crAfter(block, from) : -1;
    const at = cr !== -1 && cr < end ? cr : lf;
    this.#countFrom = at === -1 ? Infinity : this.#offset + at + 1;
  }

  /** The first `\r` at or after `from` in `block` (-1: none), from what the last search in this block found when it still holds. */
  #crAfter(block: Uint8Array, from: number): number {
    const known = this.#crAt;
    if (Number.isNaN(known) || from < this.#crFrom || (known !== -1 && known < from)) {
      this.#crAt = this.source.indexOf(block, CR, from);
      this.#crFrom = from;
    }
    return this.#crAt;
  }
}
