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
export declare function createFileCache(): FileCache;
/** A synchronous SHA-256: the digest of `bytes` as 64 lowercase hex digits. */
export type Sha256 = (bytes: Uint8Array) => string;
/**
 * Gives {@link hashBytes} a synchronous SHA-256 of the platform's, used before WebCrypto at every
 * size; `undefined` removes it. toolhost/node provides node:crypto's `createHash('sha256')` when it is
 * imported: faster than WebCrypto there, which goes through Node's thread pool (about 15 µs a call,
 * even for a few bytes). It must return the same digest as WebCrypto.
 */
export declare function provideSha256(sha256: Sha256 | undefined): void;
/**
 * SHA-256 of `bytes` as lowercase hex: through the platform's synchronous hasher when one was
 * provided ({@link provideSha256}; toolhost/node does), else through WebCrypto (browsers, workers and
 * Node ≥ 20; in Chromium about 5 µs per 4 KiB, where SHA-256 in JavaScript takes 50–190 µs), else,
 * where WebCrypto is missing (a page served over plain http has no `crypto.subtle`), in JavaScript
 * with @noble/hashes, loaded on that first call (lazy/sha256.min.js). No eval either way, so it runs
 * under a strict CSP; all give the same digest. Errors: ToolError `unavailable` when @noble/hashes is
 * needed and cannot be loaded.
 */
export declare function hashBytes(bytes: Uint8Array): Promise<string>;
/**
 * What the {@link FileCache} records for a file's content: `<size in bytes>:<SHA-256 hex>`. The size
 * comes first so a stale check can compare it with a `stat` and refuse a file whose size changed
 * without reading it; only a file of the recorded size is read and hashed.
 */
export declare function fingerprintBytes(bytes: Uint8Array): Promise<string>;
/** The size in bytes that a {@link fingerprintBytes} value records; undefined for anything else. */
export declare function fingerprintSize(fingerprint: string): number | undefined;
