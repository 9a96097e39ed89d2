import type { FsPromises, FsStats } from '../../core/types.js';
/**
 * Whether two stats of one path show the same file version: size, modification time, and inode and
 * change time where the platform has them.
 */
export declare function sameFileVersion(a: FsStats, b: FsStats): boolean;
/**
 * The read-to-write check of the editing tools: whether `path` still holds what a tool read from it
 * (`read` null: that it is still absent). The stats decide when they match; where they differ (another
 * writer, or a backend such as an archive mount that makes up times and inodes on each stat) the
 * content decides, compared with the bytes that were read.
 */
export declare function unchangedSince(fs: FsPromises, path: string, read: {
    stats: FsStats;
    bytes: Uint8Array;
} | null): Promise<boolean>;
