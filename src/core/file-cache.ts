import { loadSha256 } from '#lazy';
import { onDemand } from './on-demand.js';

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

/** A synchronous SHA-256: the digest of `bytes` as 64 lowercase hex digits. */
export type Sha256 = (bytes: Uint8Array) => string;

let platformSha256: Sha256 | undefined;

/** Size above which {@link hashBytes} leaves the platform's synchronous SHA-256 for WebCrypto's, off the thread. */
const OFF_THREAD_HASH_BYTES = 1024 * 1024;

/**
 * Gives {@link hashBytes} a synchronous SHA-256 of the platform's, used before WebCrypto at every
 * size; `undefined` removes it. toolhost/node provides node:crypto's `createHash('sha256')` when it is
 * imported: faster than WebCrypto there, which goes through Node's thread pool (about 15 µs a call,
 * even for a few bytes). It must return the same digest as WebCrypto.
 */
export function provideSha256(sha256: Sha256 | undefined): void {
  platformSha256 = sha256;
}

/** @noble/hashes' SHA-2 module, loaded only where WebCrypto is missing. */
const noble = onDemand('SHA-256 (@noble/hashes)', 'sha256.min.js', loadSha256);

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/**
 * SHA-256 of `bytes` as lowercase hex: through the platform's synchronous hasher when one was
 * provided ({@link provideSha256}; toolhost/node does), else through WebCrypto (browsers, workers and
 * Node ≥ 20; in Chromium about 5 µs per 4 KiB, where SHA-256 in JavaScript takes 50–190 µs), else,
 * where WebCrypto is missing (a page served over plain http has no `crypto.subtle`), in JavaScript
 * with @noble/hashes, loaded on that first call (lazy/sha256.min.js). No eval either way, so it runs
 * under a strict CSP; all give the same digest. Errors: ToolError `unavailable` when @noble/hashes is
 * needed and cannot be loaded.
 */
export async function hashBytes(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  // Past a mebibyte WebCrypto is preferred where there is one: it hashes off the calling thread (Node's
  // thread pool), so a 30 MB file does not hold the event loop for a tenth of a second, and its fixed
  // cost is nothing at that size.
  if (platformSha256 !== undefined && (bytes.length <= OFF_THREAD_HASH_BYTES || subtle === undefined)) return platformSha256(bytes);
  if (subtle !== undefined) return hex(new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
  return hex((await noble.load()).sha256(bytes));
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
