/**
 * `mkdir -p` that always ends: creates `path` and its missing ancestors one at a time (mode `mode` for
 * each one it creates). Node's own `mkdirSync(path, { recursive: true })` (and the promise form) loops
 * forever where a parent exists but refuses new entries with ENOENT, as under `/proc`. Throws the
 * filesystem's error (`code` ENOENT, ENOTDIR, EACCES, EROFS, ...) for the first directory it cannot make.
 */
export declare function makeDirectories(path: string, mode?: number): void;
