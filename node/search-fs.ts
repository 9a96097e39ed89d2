import { Buffer, isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { posix } from 'node:path';
import { ToolError } from '../src/core/errors.js';
import type { FsDirent, SearchFileStat, SearchSource } from '../src/core/types.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;
/** A regular file opened for reading: never through a final symlink, never waiting on a FIFO or terminal. */
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

/** Options of {@link createNodeSearchSource}. */
export interface NodeSearchSourceOptions {
  /** Bytes of file content the search cache keeps (default 256 MiB). */
  cacheBytes?: number;
}

function inside(root: string, path: string): boolean {
  return root === '/' ? path.startsWith('/') : path === root || path.startsWith(root + '/');
}

const decoder = new TextDecoder('utf-8');

/**
 * The search tools' reader for a real directory `root` (see `SearchSource`): synchronous `node:fs`
 * calls, which cost a few microseconds each instead of a thread-pool round trip, and no `realpath`.
 * The walk stays inside the root by construction: it lists directories with their entry types and never
 * enters a symbolic link, and every file is opened with `O_NOFOLLOW` (a final symlink is refused) after
 * `lstat` said it is a regular file. Each path must also lie lexically inside `root` (else ToolError
 * `outside_workspace`). A directory swapped for a symlink by another process between its listing and
 * the read of a file under it is not covered here (the descriptor-held `fs` of the platform is);
 * this reader only reads. Bytes are searched with `Buffer.indexOf` (memchr-fast) and validated with
 * `isUtf8` (SIMD).
 */
export function createNodeSearchSource(root: string, options: NodeSearchSourceOptions = {}): SearchSource {
  const check = (path: string): string => {
    const normal = posix.normalize(path);
    if (!normal.startsWith('/') || !inside(root, normal) || normal.includes('\0')) {
      throw new ToolError('outside_workspace', `search path is outside the workspace ${root}`);
    }
    return normal;
  };
  const statOf = (stats: fs.Stats): SearchFileStat => ({ size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino });
  const buffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return {
    readdir(path: string): FsDirent[] {
      return fs.readdirSync(check(path), { withFileTypes: true });
    },
    stat(path: string): SearchFileStat | undefined {
      const stats = fs.lstatSync(check(path), { throwIfNoEntry: false });
      return stats?.isFile() ? statOf(stats) : undefined;
    },
    read(path: string, maxBytes: number): { bytes: Uint8Array; stat: SearchFileStat } | undefined {
      let fd: number;
      try {
        fd = fs.openSync(check(path), READ_FLAGS);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 'ENOENT' || code === 'ELOOP' || code === 'EACCES' || code === 'EPERM' || code === 'ENOTDIR' || code === 'ENXIO') return undefined;
        throw error;
      }
      try {
        const stats = fs.fstatSync(fd);
        if (!stats.isFile()) return undefined;
        const size = Math.min(stats.size, maxBytes);
        const bytes = Buffer.allocUnsafe(size);
        let got = 0;
        while (got < size) {
          const n = fs.readSync(fd, bytes, got, size - got, got);
          if (n === 0) break;
          got += n;
        }
        return { bytes: got === size ? bytes : bytes.subarray(0, got), stat: statOf(stats) };
      } finally {
        fs.closeSync(fd);
      }
    },
    indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
      return buffer(haystack).indexOf(buffer(needle), from);
    },
    isUtf8(bytes: Uint8Array): boolean {
      return isUtf8(bytes);
    },
    decode(bytes: Uint8Array): string {
      // Buffer's own decoder: faster than TextDecoder for ASCII-heavy text.
      return Buffer.isBuffer(bytes) ? bytes.toString('utf8') : decoder.decode(bytes);
    },
    ...(options.cacheBytes !== undefined ? { cacheBytes: options.cacheBytes } : {}),
  };
}
