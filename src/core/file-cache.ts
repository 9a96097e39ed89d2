import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/**
 * What one conversation knows about files it has read: the size and SHA-256 (see {@link fingerprintBytes}) of the bytes last viewed or
 * written, by absolute workspace path. `create_file` compares it with the file's current bytes to
 * return `stale_file` (content hashes, not times).
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

/**
 * Inputs shorter than this are hashed in JavaScript (@noble/hashes); longer ones through WebCrypto.
 * Measured on 4 KiB: Chromium's WebCrypto answers in about 5 µs where @noble/hashes takes 50–100 µs
 * (a 1,000-file batch spent most of its time hashing); Node's WebCrypto, which goes through the
 * thread pool, costs about 15 µs even for a few bytes and breaks even with @noble/hashes at 4 KiB.
 */
const JS_HASH_BELOW_BYTES = 1024;

/**
 * SHA-256 of `bytes` as lowercase hex: through WebCrypto from 1 KiB (browsers, workers and Node ≥ 20),
 * synchronously in JavaScript with @noble/hashes below that (the round trip costs more there) and at
 * any size where WebCrypto is missing (a page served over plain http has no `crypto.subtle`). No eval
 * either way, so it runs under a strict CSP; both give the same digest.
 */
export async function hashBytes(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (bytes.length < JS_HASH_BELOW_BYTES || subtle === undefined) return bytesToHex(sha256(bytes));
  return bytesToHex(new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

/**
 * What the {@link FileCache} records for a file's content: `<size in bytes>:<SHA-256 hex>`. The size
 * comes first so a stale check can compare it with a `stat` and refuse a file whose size changed
 * without reading it; only a file of the recorded size is read and hashed.
 */
export async function fingerprintBytes(bytes: Uint8Array): Promise<string> {
  return `${bytes.length}:${await hashBytes(bytes)}`;
}

/** The size in bytes that a {@link fingerprintBytes} value records; undefined for anything else. */
export function fingerprintSize(fingerprint: string): number | undefined {
  const match = /^(\d+):[0-9a-f]{64}$/.exec(fingerprint);
  return match === null ? undefined : Number(match[1]);
}
