// The search index's serialized form: a versioned header and a CRC-32 of the body, so a file that
// is corrupt, truncated, from another version or for another workspace is rejected (and the index
// rebuilt), never trusted.
//
//   offset  size  field
//   0       8     magic "THSIDX\r\n" (the line break catches a text-mode copy)
//   8       4     format version (u32 little-endian)
//   12      4     body length in bytes (u32)
//   16      4     CRC-32 (IEEE) of the body (u32)
//   20      4     zero
//   24      …     body:
//                 u32 files, u32 keys, u32 posting bytes, u32 root bytes, f64 racy window (ms),
//                 root (UTF-8), per file: varint path length + UTF-8 path,
//                 (pad to 8) f64 × 4 per file (size, mtimeMs, ctimeMs, ino), u8 flags per file,
//                 (pad to 4) u32 keys (ascending), u32 offsets (keys + 1), posting bytes
import { putVarint } from './postings.js';
import { SearchIndex } from './search-index.js';

const MAGIC = [0x54, 0x48, 0x53, 0x49, 0x44, 0x58, 0x0d, 0x0a];
/** The version this code writes and reads; any other is rejected. */
export const INDEX_FORMAT_VERSION = 1;
const HEADER_BYTES = 24;

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

/**
 * The serialized form of `index` (compacted first if it has changes pending) for the workspace at
 * `root`: see this file's header for the layout.
 */
export function serializeIndex(index: SearchIndex, root: string): Uint8Array {
  const parts = (index.dirty ? index.compact() : index).parts();
  const { paths, stats, flags, postings } = parts;
  const rootBytes = encoder.encode(root);
  const pathBytes = paths.map((p) => encoder.encode(p));
  let size = 24 + rootBytes.length;
  for (const p of pathBytes) size += 5 + p.length;
  size = pad(size, 8) + stats.length * 8 + flags.length;
  size = pad(size, 4) + postings.keys.length * 4 + postings.offsets.length * 4 + postings.bytes.length;
  const body = new Uint8Array(size);
  const view = new DataView(body.buffer);
  view.setUint32(0, paths.length, true);
  view.setUint32(4, postings.keys.length, true);
  view.setUint32(8, postings.bytes.length, true);
  view.setUint32(12, rootBytes.length, true);
  view.setFloat64(16, parts.racyMs, true);
  body.set(rootBytes, 24);
  let at = 24 + rootBytes.length;
  for (const p of pathBytes) {
    at = putVarint(body, at, p.length);
    body.set(p, at);
    at += p.length;
  }
  at = pad(at, 8);
  for (const value of stats) {
    view.setFloat64(at, value, true);
    at += 8;
  }
  body.set(flags, at);
  at = pad(at + flags.length, 4);
  for (const key of postings.keys) {
    view.setUint32(at, key, true);
    at += 4;
  }
  for (const offset of postings.offsets) {
    view.setUint32(at, offset, true);
    at += 4;
  }
  body.set(postings.bytes, at);
  at += postings.bytes.length;
  const out = new Uint8Array(HEADER_BYTES + at);
  out.set(MAGIC, 0);
  const header = new DataView(out.buffer);
  header.setUint32(8, INDEX_FORMAT_VERSION, true);
  header.setUint32(12, at, true);
  header.setUint32(16, crc32(body.subarray(0, at)), true);
  out.set(body.subarray(0, at), HEADER_BYTES);
  return out;
}

/** Why serialized bytes were rejected (see {@link openIndex}). */
export class IndexRejected extends Error {
  override readonly name = 'IndexRejected';
}

/** Reads a little-endian u32 array at `at` (copied: the source may be unaligned). */
function u32s(body: Uint8Array, at: number, count: number): Uint32Array {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i += 1) out[i] = view.getUint32(at + i * 4, true);
  return out;
}

/**
 * The index serialized in `bytes` for the workspace at `root`. Throws {@link IndexRejected} (saying
 * why) for anything that is not exactly what {@link serializeIndex} wrote for that root: a wrong magic
 * or version, a length that disagrees (truncated or extended), a checksum that fails, another root, or
 * a body whose parts do not fit together.
 */
export function openIndex(bytes: Uint8Array, root: string): SearchIndex {
  if (bytes.length < HEADER_BYTES || MAGIC.some((b, i) => bytes[i] !== b)) throw new IndexRejected('not a search index (bad magic)');
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const version = header.getUint32(8, true);
  if (version !== INDEX_FORMAT_VERSION) throw new IndexRejected(`search index format ${version}, expected ${INDEX_FORMAT_VERSION}`);
  if (header.getUint32(20, true) !== 0) throw new IndexRejected('search index header is corrupt (reserved bytes set)');
  const length = header.getUint32(12, true);
  if (bytes.length !== HEADER_BYTES + length) throw new IndexRejected(`search index is ${bytes.length - HEADER_BYTES} body bytes, its header says ${length} (truncated or extended)`);
  const body = bytes.subarray(HEADER_BYTES);
  if (crc32(body) !== header.getUint32(16, true)) throw new IndexRejected('search index checksum mismatch (corrupt)');
  try {
    return readBody(body, root);
  } catch (error) {
    if (error instanceof IndexRejected) throw error;
    throw new IndexRejected(`search index body is malformed (${(error as Error).message})`);
  }
}

function readBody(body: Uint8Array, root: string): SearchIndex {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const files = view.getUint32(0, true);
  const keyCount = view.getUint32(4, true);
  const postingBytes = view.getUint32(8, true);
  const rootLength = view.getUint32(12, true);
  const racyMs = view.getFloat64(16, true);
  if (!(racyMs >= 0)) throw new IndexRejected('search index has a bad racy window');
  const storedRoot = decoder.decode(body.subarray(24, 24 + rootLength));
  if (storedRoot !== root) throw new IndexRejected(`search index is for ${storedRoot}, not ${root}`);
  let at = 24 + rootLength;
  const paths: string[] = [];
  for (let i = 0; i < files; i += 1) {
    let length = 0;
    let shift = 0;
    let b: number;
    do {
      if (at >= body.length) throw new IndexRejected('search index paths run past its end');
      b = body[at++] as number;
      length += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    if (at + length > body.length) throw new IndexRejected('search index paths run past its end');
    paths.push(decoder.decode(body.subarray(at, at + length)));
    at += length;
  }
  at = pad(at, 8);
  const need = at + files * 33 + 4 + keyCount * 8 + 4 + postingBytes;
  if (need > body.length + 4) throw new IndexRejected('search index tables run past its end');
  const stats = new Float64Array(files * 4);
  for (let i = 0; i < stats.length; i += 1) stats[i] = view.getFloat64(at + i * 8, true);
  at += stats.length * 8;
  const flags = body.slice(at, at + files);
  at = pad(at + files, 4);
  const keys = u32s(body, at, keyCount);
  at += keyCount * 4;
  const offsets = u32s(body, at, keyCount + 1);
  at += (keyCount + 1) * 4;
  if (at + postingBytes !== body.length) throw new IndexRejected('search index posting bytes disagree with its length');
  const postings = body.slice(at, at + postingBytes);
  checkTables(keys, offsets, flags, postingBytes, new Set(paths).size === paths.length);
  return new SearchIndex({ paths, stats, flags, postings: { keys, offsets, bytes: postings }, racyMs });
}

/** Keys ascending and 24-bit, offsets ascending and ending at the posting bytes' end, flags known, paths distinct. */
function checkTables(keys: Uint32Array, offsets: Uint32Array, flags: Uint8Array, postingBytes: number, distinct: boolean): void {
  if (!distinct) throw new IndexRejected('search index lists a path twice');
  for (let i = 0; i < keys.length; i += 1) {
    if ((keys[i] as number) > 0xffffff || (i > 0 && (keys[i] as number) <= (keys[i - 1] as number))) throw new IndexRejected('search index keys are out of order');
  }
  if (offsets[0] !== 0 || offsets[keys.length] !== postingBytes) throw new IndexRejected('search index offsets do not span its postings');
  for (let i = 1; i < offsets.length; i += 1) if ((offsets[i] as number) < (offsets[i - 1] as number)) throw new IndexRejected('search index offsets are out of order');
  for (const f of flags) if ((f & 3) === 3 || f > 7) throw new IndexRejected('search index has an unknown file flag');
}
