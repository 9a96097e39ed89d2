/**
 * What one conversation knows about files it has read: the SHA-256 (hex) of the bytes last viewed or
 * written, by absolute workspace path. `create_file` compares it with the file's current bytes to
 * return `stale_file` (content hashes, not times; seed: the coding agent's `file_cache`).
 */
export interface FileCache {
  get(path: string): string | undefined;
  set(path: string, hash: string): void;
  delete(path: string): void;
}

/** Creates an empty in-memory {@link FileCache}. */
export function createFileCache(): FileCache {
  const hashes = new Map<string, string>();
  return {
    get: (path) => hashes.get(path),
    set: (path, hash) => void hashes.set(path, hash),
    delete: (path) => void hashes.delete(path),
  };
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const W = new Int32Array(64);
const TAIL = new Uint8Array(128);
const STATE = new Int32Array(8);

/** Runs the SHA-256 compression function over the 64-byte blocks of `bytes` from `offset` to `end`. */
function compress(bytes: Uint8Array, offset: number, end: number): void {
  let h0 = STATE[0] as number, h1 = STATE[1] as number, h2 = STATE[2] as number, h3 = STATE[3] as number;
  let h4 = STATE[4] as number, h5 = STATE[5] as number, h6 = STATE[6] as number, h7 = STATE[7] as number;
  for (let p = offset; p < end; p += 64) {
    for (let i = 0, q = p; i < 16; i += 1, q += 4) {
      W[i] = ((bytes[q] as number) << 24) | ((bytes[q + 1] as number) << 16) | ((bytes[q + 2] as number) << 8) | (bytes[q + 3] as number);
    }
    for (let i = 16; i < 64; i += 1) {
      const a = W[i - 15] as number;
      const b = W[i - 2] as number;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      W[i] = ((W[i - 16] as number) + s0 + (W[i - 7] as number) + s1) | 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let i = 0; i < 64; i += 1) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + (K[i] as number) + (W[i] as number)) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  STATE[0] = h0;
  STATE[1] = h1;
  STATE[2] = h2;
  STATE[3] = h3;
  STATE[4] = h4;
  STATE[5] = h5;
  STATE[6] = h6;
  STATE[7] = h7;
}

/**
 * SHA-256 (FIPS 180-4) of `bytes` as lowercase hex, in JavaScript, synchronously: no round trip to
 * WebCrypto's thread (which costs more than hashing a few KiB). Reads whole blocks straight from the
 * input; only the last one or two blocks are copied to add the padding.
 */
export function sha256Hex(bytes: Uint8Array): string {
  STATE.set([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const length = bytes.length;
  const whole = length - (length % 64);
  compress(bytes, 0, whole);
  const rest = length - whole;
  const tailLength = rest + 9 <= 64 ? 64 : 128;
  TAIL.fill(0);
  TAIL.set(bytes.subarray(whole));
  TAIL[rest] = 0x80;
  const high = Math.floor(length / 0x20000000);
  const low = (length << 3) >>> 0;
  TAIL[tailLength - 8] = high >>> 24;
  TAIL[tailLength - 7] = high >>> 16;
  TAIL[tailLength - 6] = high >>> 8;
  TAIL[tailLength - 5] = high;
  TAIL[tailLength - 4] = low >>> 24;
  TAIL[tailLength - 3] = low >>> 16;
  TAIL[tailLength - 2] = low >>> 8;
  TAIL[tailLength - 1] = low;
  compress(TAIL, 0, tailLength);
  let out = '';
  for (let i = 0; i < 8; i += 1) out += ((STATE[i] as number) >>> 0).toString(16).padStart(8, '0');
  return out;
}

/** Inputs up to this size are hashed in JavaScript ({@link sha256Hex}); larger ones through WebCrypto. */
const JS_HASH_MAX_BYTES = 64 * 1024;

/**
 * SHA-256 of `bytes` as lowercase hex: in JavaScript up to 64 KiB (faster than the round trip to
 * WebCrypto's thread there), else through WebCrypto (available in browsers, workers and Node ≥ 20).
 */
export async function hashBytes(bytes: Uint8Array): Promise<string> {
  if (bytes.length <= JS_HASH_MAX_BYTES) return sha256Hex(bytes);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let out = '';
  for (const byte of digest) out += HEX[byte];
  return out;
}
