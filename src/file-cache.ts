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

/** SHA-256 of `bytes` as lowercase hex, through WebCrypto (available in browsers, workers and Node ≥ 20). */
export async function hashBytes(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let out = '';
  for (const byte of digest) out += HEX[byte];
  return out;
}
