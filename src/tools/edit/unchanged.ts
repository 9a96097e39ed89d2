import type { FsPromises, FsStats } from '../../core/types.js';
import { statOrNull } from '../../fs/paths.js';
import { sameBytes } from '../../core/bytes.js';

/**
 * Whether two stats of one path show the same file version: size, modification time, and inode and
 * change time where the platform has them.
 */
export function sameFileVersion(a: FsStats, b: FsStats): boolean {
  const x = a as FsStats & { ino?: number; ctimeMs?: number };
  const y = b as FsStats & { ino?: number; ctimeMs?: number };
  return a.size === b.size && a.mtimeMs === b.mtimeMs && x.ino === y.ino && x.ctimeMs === y.ctimeMs;
}

/**
 * The read-to-write check of the editing tools: whether `path` still holds what a tool read from it
 * (`read` null: that it is still absent). The stats decide when they match; where they differ (another
 * writer, or a backend such as an archive mount that makes up times and inodes on each stat) the
 * content decides, compared with the bytes that were read.
 */
export async function unchangedSince(fs: FsPromises, path: string, read: { stats: FsStats; bytes: Uint8Array } | null): Promise<boolean> {
  const now = await statOrNull(fs, path);
  if (read === null || now === null) return read === null && now === null;
  if (sameFileVersion(read.stats, now)) return true;
  if (now.size !== read.bytes.length || now.isDirectory()) return false;
  return sameBytes(await fs.readFile(path), read.bytes);
}
