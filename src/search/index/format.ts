// The search index's serialized form: a versioned header, a CRC-32 of its tables and one of each
// block of its posting bytes, so a file that is corrupt, truncated, from another version or for
// another workspace is rejected (and the index rebuilt), never trusted. Opening it checks the header
// and the tables (paths, identities, keys, offsets: about a fifth of the bytes) and takes them as
// views of the bytes read, without copying; a block of postings is checked the first time a search
// reads a list in it (see {@link StoredIndex}), so a process that searches once reads and checks
// only the lists its pattern needs.
//
//   offset  size  field
//   0       8     magic "THSIDX\r\n" (the line break catches a text-mode copy)
//   8       4     format version (u32 little-endian)
//   12      4     body length in bytes (u32)
//   16      4     CRC-32 (IEEE) of the tables (the body up to the postings) (u32)
//   20      4     length of the tables in bytes (u32; the postings start there)
//   24      …     body, its tables first:
//                 u32 files, u32 keys, u32 posting bytes, u32 root bytes, f64 racy window (ms),
//                 u32 block bytes, u32 blocks, root (UTF-8), per file: varint path length (UTF-8
//                 bytes), then every path's UTF-8 bytes one after another,
//                 (pad to 8) f64 × 4 per file (size, mtimeMs, ctimeMs, ino), u8 flags per file,
//                 (pad to 4) u32 keys (ascending), u32 offsets (keys + 1), u32 CRC-32 per block of
//                 the posting bytes (block bytes each, the last one shorter), (pad to 8);
//                 then the posting bytes.
import type { TrigramPlan } from './plan.js';
import { putVarint } from './postings.js';
import { SearchIndex, type IndexParts } from './search-index.js';

const MAGIC = [0x54, 0x48, 0x53, 0x49, 0x44, 0x58, 0x0d, 0x0a];
/** The version this code writes and reads; any other is rejected (an index saved by an older version is rebuilt). */
export const INDEX_FORMAT_VERSION = 2;
const HEADER_BYTES = 24;
/** The fixed fields at the start of the body. */
const FIXED_BYTES = 32;
/** Posting bytes per checked block: a search checks the blocks its lists lie in, a few of them. */
export const POSTING_BLOCK_BYTES = 32 * 1024;

let crcTable: Uint32Array | undefined;

/** A native CRC-32 the host provided ({@link provideCrc32}), used instead of the table loop below. */
let nativeCrc32: ((bytes: Uint8Array) => number) | undefined;

/**
 * Gives the index's checksum a native CRC-32 (the same IEEE checksum; Node's `zlib.crc32` is about 40x
 * the table loop): `toolhost/node` provides it when it opens or saves an index.
 */
export function provideCrc32(crc: (bytes: Uint8Array) => number): void {
  nativeCrc32 = crc;
}

/** CRC-32 (IEEE 802.3, as zip and PNG) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  if (nativeCrc32) return nativeCrc32(bytes) >>> 0;
  return tableCrc32(bytes);
}

/** {@link crc32} computed with a byte table (browsers, or a Node without `zlib.crc32`). */
export function tableCrc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const table = crcTable;
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i += 1) crc = (table[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

const pad = (at: number, to: number): number => (at + to - 1) & ~(to - 1);

/** Bytes of a varint holding `value`. */
const varintBytes = (value: number): number => (value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5);

/**
 * The serialized form of `index` (compacted first if it has changes pending) for the workspace at
 * `root`: see this file's header for the layout. Throws {@link IndexRejected} when `index` was opened
 * from bytes whose postings turn out corrupt (nothing of it is written again).
 */
export function serializeIndex(index: SearchIndex, root: string): Uint8Array {
  const [tables, postings] = serializeIndexChunks(index, root);
  const out = new Uint8Array(tables.length + postings.length);
  out.set(tables, 0);
  out.set(postings, tables.length);
  return out;
}

/**
 * {@link serializeIndex} as two pieces written one after the other: the header and tables (new bytes),
 * and the posting lists (the index's own bytes, not copied: about nine tenths of the whole on a large
 * tree, so a writer that takes pieces never holds the lists twice). Same errors.
 */
export function serializeIndexChunks(index: SearchIndex, root: string): [Uint8Array, Uint8Array] {
  const parts = (index.dirty ? index.compact() : index).parts();
  const { paths, stats, flags, postings } = parts;
  const rootBytes = encoder.encode(root);
  const path = pathsBytes(paths);
  const blocks = Math.ceil(postings.bytes.length / POSTING_BLOCK_BYTES);
  const tables = tablesBytes(rootBytes.length, path.lengths, postings.keys.length, postings.bytes.length);
  const out = new Uint8Array(HEADER_BYTES + tables);
  const body = out.subarray(HEADER_BYTES);
  const view = new DataView(out.buffer, HEADER_BYTES);
  view.setUint32(0, paths.length, true);
  view.setUint32(4, postings.keys.length, true);
  view.setUint32(8, postings.bytes.length, true);
  view.setUint32(12, rootBytes.length, true);
  view.setFloat64(16, parts.racyMs, true);
  view.setUint32(24, POSTING_BLOCK_BYTES, true);
  view.setUint32(28, blocks, true);
  body.set(rootBytes, FIXED_BYTES);
  let at = FIXED_BYTES + rootBytes.length;
  for (const length of path.lengths) at = putVarint(body, at, length);
  body.set(path.bytes, at);
  at = pad(at + path.bytes.length, 8);
  at = putTable(body, at, stats);
  body.set(flags, at);
  at = pad(at + flags.length, 4);
  at = putTable(body, at, postings.keys);
  at = putTable(body, at, postings.offsets);
  const crcs = new Uint32Array(blocks);
  for (let block = 0; block < blocks; block += 1) crcs[block] = crc32(postings.bytes.subarray(block * POSTING_BLOCK_BYTES, (block + 1) * POSTING_BLOCK_BYTES));
  putTable(body, at, crcs);
  out.set(MAGIC, 0);
  const header = new DataView(out.buffer);
  header.setUint32(8, INDEX_FORMAT_VERSION, true);
  header.setUint32(12, tables + postings.bytes.length, true);
  header.setUint32(16, crc32(body), true);
  header.setUint32(20, tables, true);
  return [out, postings.bytes];
}

/**
 * The bytes {@link serializeIndex} gives for `index` saved for `root`, without making them: the size
 * the budget `maxIndexBytes` bounds at a build's end and at a load (an update measures
 * `SearchIndex.bytes`, about the same).
 */
export function savedIndexBytes(index: SearchIndex, root: string): number {
  const parts = (index.dirty ? index.compact() : index).parts();
  return HEADER_BYTES + tablesBytes(encoder.encode(root).length, pathsBytes(parts.paths).lengths, parts.postings.keys.length, parts.postings.bytes.length) + parts.postings.bytes.length;
}

/**
 * The UTF-8 bytes of `paths` one after another, and each one's length. Encoded as one string when
 * every path is ASCII (the usual case: one encoding, not one per path), else path by path, as each
 * path's length is needed (and a lone surrogate ending one string could pair up with the next's).
 */
function pathsBytes(paths: readonly string[]): { bytes: Uint8Array; lengths: number[] } {
  const joined = paths.join('');
  const bytes = encoder.encode(joined);
  if (bytes.length === joined.length) return { bytes, lengths: paths.map((p) => p.length) };
  const each = paths.map((p) => encoder.encode(p));
  const all = new Uint8Array(each.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of each) {
    all.set(p, at);
    at += p.length;
  }
  return { bytes: all, lengths: each.map((p) => p.length) };
}

/**
 * Writes `table`'s numbers little-endian into `body` at `at` (aligned for them: the tables are padded
 * so): one copy on a little-endian host, else number by number. Returns the position after them.
 */
function putTable(body: Uint8Array, at: number, table: Uint32Array | Float64Array): number {
  const size = table.BYTES_PER_ELEMENT;
  const offset = body.byteOffset + at;
  if (LITTLE_ENDIAN && offset % size === 0) {
    new Uint8Array(body.buffer, offset, table.length * size).set(new Uint8Array(table.buffer, table.byteOffset, table.length * size));
    return at + table.length * size;
  }
  const view = new DataView(body.buffer, offset, table.length * size);
  for (let i = 0; i < table.length; i += 1) {
    if (size === 8) view.setFloat64(i * 8, table[i] as number, true);
    else view.setUint32(i * 4, table[i] as number, true);
  }
  return at + table.length * size;
}

/**
 * Where the posting bytes start in the serialized form of an index for `root` with `paths` (its files,
 * in id order), `keys` trigram keys and `postingBytes` bytes of posting lists: the header and tables
 * before them, as {@link serializeIndexChunks} lays them out (its first piece's length).
 */
export function serializedPostingsAt(root: string, paths: readonly string[], keys: number, postingBytes: number): number {
  return HEADER_BYTES + tablesBytes(encoder.encode(root).length, pathsBytes(paths).lengths, keys, postingBytes);
}

/** The bytes of the tables after the header (the fixed fields, the root, the paths, identities, kinds, keys, offsets and block checksums) for files with paths of `pathLengths` UTF-8 bytes, `keys` keys and `postingBytes` bytes of lists. */
function tablesBytes(rootLength: number, pathLengths: readonly number[], keys: number, postingBytes: number): number {
  const files = pathLengths.length;
  const blocks = Math.ceil(postingBytes / POSTING_BLOCK_BYTES);
  let tables = FIXED_BYTES + rootLength;
  for (const length of pathLengths) tables += varintBytes(length) + length;
  // Per file four numbers of identity and a byte of flags; per key its value and offset, one offset more.
  tables = pad(tables, 8) + files * 4 * 8 + files;
  return pad(pad(tables, 4) + keys * 4 + (keys + 1) * 4 + blocks * 4, 8);
}

/** Why serialized bytes were rejected (see {@link openIndex}). */
export class IndexRejected extends Error {
  override readonly name = 'IndexRejected';
}

/** Whether typed arrays over the bytes read are little-endian, as the saved form is (else the tables are copied). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * `count` numbers of `Type` at `at` in `body`: a view of the bytes when they are aligned for it on a
 * little-endian host (no copy), else read one by one.
 */
function tableOf<T extends Uint32Array | Float64Array>(Type: { new (buffer: ArrayBufferLike, offset: number, length: number): T; new (length: number): T; BYTES_PER_ELEMENT: number }, body: Uint8Array, at: number, count: number): T {
  const size = Type.BYTES_PER_ELEMENT;
  const offset = body.byteOffset + at;
  if (LITTLE_ENDIAN && offset % size === 0) return new Type(body.buffer, offset, count);
  const view = new DataView(body.buffer, offset, count * size);
  const out = new Type(count);
  for (let i = 0; i < count; i += 1) out[i] = size === 8 ? view.getFloat64(i * 8, true) : view.getUint32(i * 4, true);
  return out;
}

/**
 * Why a file of `size` bytes whose first bytes are `head` (at least {@link INDEX_HEADER_BYTES} of
 * them, when it has as many) is not a search index of this format, before the rest is read (a large
 * file that is not one is then never read whole); undefined when its header says it is.
 */
export function headerRefusal(head: Uint8Array, size: number): string | undefined {
  if (size < HEADER_BYTES || head.length < HEADER_BYTES || MAGIC.some((b, i) => head[i] !== b)) return 'not a search index (bad magic)';
  const header = new DataView(head.buffer, head.byteOffset, HEADER_BYTES);
  const version = header.getUint32(8, true);
  if (version !== INDEX_FORMAT_VERSION) return `search index format ${version}, expected ${INDEX_FORMAT_VERSION}`;
  const length = header.getUint32(12, true);
  if (size !== HEADER_BYTES + length) return `search index is ${size - HEADER_BYTES} body bytes, its header says ${length} (truncated or extended)`;
  return undefined;
}

/** Bytes of a saved index's header, which {@link headerRefusal} reads. */
export const INDEX_HEADER_BYTES = HEADER_BYTES;

/**
 * The index serialized in `bytes` for the workspace at `root`. Throws {@link IndexRejected} (saying
 * why) for anything that is not exactly what {@link serializeIndex} wrote for that root: a wrong magic
 * or version, a length that disagrees (truncated or extended), a checksum of the tables that fails,
 * another root, or tables that do not fit together. The posting bytes are checked block by block as
 * searches first read them (see {@link StoredIndex}); `bytes` must not change while the index is used.
 */
export function openIndex(bytes: Uint8Array, root: string): SearchIndex {
  const wrong = headerRefusal(bytes, bytes.length);
  if (wrong !== undefined) throw new IndexRejected(wrong);
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const length = header.getUint32(12, true);
  const tables = header.getUint32(20, true);
  if (tables < FIXED_BYTES || tables > length || tables % 8 !== 0) throw new IndexRejected('search index header is corrupt (its tables\' length)');
  const body = bytes.subarray(HEADER_BYTES);
  if (crc32(body.subarray(0, tables)) !== header.getUint32(16, true)) throw new IndexRejected('search index checksum mismatch (corrupt)');
  try {
    return readBody(body, tables, root);
  } catch (error) {
    if (error instanceof IndexRejected) throw error;
    throw new IndexRejected(`search index body is malformed (${(error as Error).message})`);
  }
}

/** The paths stored at `at` in `body` (their UTF-8 lengths, then their bytes): `[paths, the offset after them]`. */
function readPaths(body: Uint8Array, at: number, files: number, end: number): [string[], number] {
  const lengths = new Array<number>(files);
  let total = 0;
  for (let i = 0; i < files; i += 1) {
    let length = 0;
    let shift = 0;
    let b: number;
    do {
      if (at >= end || shift > 28) throw new IndexRejected('search index paths run past its tables');
      b = body[at++] as number;
      length += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    lengths[i] = length;
    total += length;
  }
  if (at + total > end) throw new IndexRejected('search index paths run past its tables');
  // One decode for all of them: with ASCII paths (the usual case) a byte is a character, and each
  // path is a slice of the one string; else each is decoded on its own.
  const all = decoder.decode(body.subarray(at, at + total));
  const paths = new Array<string>(files);
  let from = 0;
  for (let i = 0; i < files; i += 1) {
    const length = lengths[i] as number;
    paths[i] = all.length === total ? all.slice(from, from + length) : decoder.decode(body.subarray(at + from, at + from + length));
    from += length;
  }
  return [paths, at + total];
}

function readBody(body: Uint8Array, tables: number, root: string): StoredIndex {
  const view = new DataView(body.buffer, body.byteOffset, tables);
  const files = view.getUint32(0, true);
  const keyCount = view.getUint32(4, true);
  const postingBytes = view.getUint32(8, true);
  const rootLength = view.getUint32(12, true);
  const racyMs = view.getFloat64(16, true);
  const blockBytes = view.getUint32(24, true);
  const blocks = view.getUint32(28, true);
  if (!(racyMs >= 0)) throw new IndexRejected('search index has a bad racy window');
  if (blockBytes === 0 || blocks !== Math.ceil(postingBytes / blockBytes)) throw new IndexRejected('search index posting blocks disagree with its postings');
  if (tables + postingBytes !== body.length) throw new IndexRejected('search index posting bytes disagree with its length');
  if (FIXED_BYTES + rootLength > tables) throw new IndexRejected('search index root runs past its tables');
  const storedRoot = decoder.decode(body.subarray(FIXED_BYTES, FIXED_BYTES + rootLength));
  if (storedRoot !== root) throw new IndexRejected(`search index is for ${storedRoot}, not ${root}`);
  let [paths, at] = readPaths(body, FIXED_BYTES + rootLength, files, tables);
  at = pad(at, 8);
  if (pad(pad(at + files * 33, 4) + keyCount * 8 + 4 + blocks * 4, 8) !== tables) throw new IndexRejected('search index tables disagree with their length');
  const stats = tableOf(Float64Array, body, at, files * 4);
  at += files * 32;
  // Copied (a few KiB): the index marks replaced files in its flags, and the bytes read stay as read.
  const flags = body.slice(at, at + files);
  at = pad(at + files, 4);
  const keys = tableOf(Uint32Array, body, at, keyCount);
  at += keyCount * 4;
  const offsets = tableOf(Uint32Array, body, at, keyCount + 1);
  at += (keyCount + 1) * 4;
  const sums = tableOf(Uint32Array, body, at, blocks);
  const postings = body.subarray(tables);
  checkTables(keys, offsets, flags, postingBytes, new Set(paths).size === paths.length);
  return new StoredIndex({ paths, stats, flags, postings: { keys, offsets, bytes: postings }, racyMs }, { sums, blockBytes });
}

/**
 * Keys ascending and 24-bit, offsets ascending and ending at the posting bytes' end, flags known, paths
 * distinct. Keys and offsets in one loop: a new process runs it before its code is optimized (some
 * 200,000 keys for a tree of 5,700 files), where each pass over a table costs milliseconds.
 */
function checkTables(keys: Uint32Array, offsets: Uint32Array, flags: Uint8Array, postingBytes: number, distinct: boolean): void {
  if (!distinct) throw new IndexRejected('search index lists a path twice');
  if (offsets[0] !== 0 || offsets[keys.length] !== postingBytes) throw new IndexRejected('search index offsets do not span its postings');
  let lastKey = -1;
  let lastOffset = 0;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as number;
    const offset = offsets[i + 1] as number;
    if (key <= lastKey) throw new IndexRejected('search index keys are out of order');
    if (offset < lastOffset) throw new IndexRejected('search index offsets are out of order');
    lastKey = key;
    lastOffset = offset;
  }
  if (lastKey > 0xffffff) throw new IndexRejected('search index keys are out of order');
  for (const f of flags) if ((f & 3) === 3 || f > 7) throw new IndexRejected('search index has an unknown file flag');
}

/** The posting blocks of a {@link StoredIndex} and which of them were checked. */
interface BlockCheck {
  sums: Uint32Array;
  blockBytes: number;
  /** Per block: 0 not checked yet, 1 intact, 2 corrupt. */
  state: Uint8Array;
  /** Set once a block failed its checksum. */
  corrupt?: IndexRejected;
}

/**
 * Handlers told when the postings of an index opened from a given buffer turn out corrupt (see
 * {@link whenPostingsCorrupt}), by the buffer the bytes were read into.
 */
const corruptionHandlers = new WeakMap<ArrayBufferLike, (reason: IndexRejected) => void>();

/**
 * Asks to be told (`handler`, once) when the postings of an index opened from `bytes` turn out
 * corrupt as searches read them: a storage drops its saved copy there, so the next open rebuilds it.
 */
export function whenPostingsCorrupt(bytes: Uint8Array, handler: (reason: IndexRejected) => void): void {
  corruptionHandlers.set(bytes.buffer, handler);
}

/**
 * An index opened from its serialized form, its posting bytes checked lazily: before a search reads
 * a list, the blocks it lies in are checked against their CRC-32 (once each). A list in a corrupt
 * block is never read: the plan's candidates are then every file (`undefined`, as for a pattern with
 * no plan), so searches scan and stay exact, and the index cannot be compacted or saved again
 * (IndexRejected), so what is corrupt is never written back with a fresh checksum.
 */
export class StoredIndex extends SearchIndex {
  readonly #check: BlockCheck;
  readonly #keys: Uint32Array;
  readonly #offsets: Uint32Array;
  readonly #bytes: Uint8Array;

  /** The index over `parts`, whose posting bytes are checked against `sums` (one CRC-32 per `blockBytes`). */
  constructor(parts: IndexParts, blocks: { sums: Uint32Array; blockBytes: number }) {
    super(parts);
    this.#keys = parts.postings.keys;
    this.#offsets = parts.postings.offsets;
    this.#bytes = parts.postings.bytes;
    this.#check = { ...blocks, state: new Uint8Array(blocks.sums.length) };
  }

  /** Why the postings were found corrupt (undefined while every block checked so far is intact). */
  get corrupt(): IndexRejected | undefined {
    return this.#check.corrupt;
  }

  /** The live paths whose trigrams meet `plan` (see SearchIndex); every file (undefined) when a list it needs is in a corrupt block. */
  override candidates(plan: TrigramPlan): Set<string> | undefined {
    if (plan.op === 'all' || plan.op === 'none') return super.candidates(plan);
    if (!this.#checkPlan(plan)) return undefined;
    return super.candidates(plan);
  }

  /** Compacts (see SearchIndex), after checking every block of the postings: throws IndexRejected when one is corrupt. */
  override compact(): SearchIndex {
    this.checkAll();
    return super.compact();
  }

  /** The parts to serialize (see SearchIndex), after checking every block of the postings: throws IndexRejected when one is corrupt. */
  override parts(): IndexParts {
    this.checkAll();
    return super.parts();
  }

  /** Checks every block not checked yet; throws IndexRejected when one is corrupt. */
  checkAll(): void {
    for (let block = 0; block < this.#check.sums.length; block += 1) this.#block(block);
    if (this.#check.corrupt) throw this.#check.corrupt;
  }

  /** Checks the blocks of every list `plan` reads; false when one is corrupt. */
  #checkPlan(plan: TrigramPlan): boolean {
    if (plan.op === 'all' || plan.op === 'none') return true;
    for (const key of plan.trigrams) {
      const at = sortedIndexOf(this.#keys, key);
      if (at < 0) continue;
      const start = this.#offsets[at] as number;
      const end = this.#offsets[at + 1] as number;
      if (end === start) continue;
      const { blockBytes } = this.#check;
      for (let block = Math.floor(start / blockBytes); block <= Math.floor((end - 1) / blockBytes); block += 1) if (!this.#block(block)) return false;
    }
    return plan.subs.every((sub) => this.#checkPlan(sub));
  }

  /** Whether block `block` is intact (checked now when it was not yet). */
  #block(block: number): boolean {
    const check = this.#check;
    if (check.state[block] === 0) {
      const from = block * check.blockBytes;
      const intact = crc32(this.#bytes.subarray(from, from + check.blockBytes)) === check.sums[block];
      check.state[block] = intact ? 1 : 2;
      if (!intact && !check.corrupt) {
        check.corrupt = new IndexRejected(`search index checksum mismatch (corrupt postings, block ${block})`);
        const handler = corruptionHandlers.get(this.#bytes.buffer);
        corruptionHandlers.delete(this.#bytes.buffer);
        handler?.(check.corrupt);
      }
    }
    return check.state[block] === 1;
  }
}

/** The position of `key` in the ascending `keys`, or -1. */
function sortedIndexOf(keys: Uint32Array, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = keys[mid] as number;
    if (at === key) return mid;
    if (at < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
