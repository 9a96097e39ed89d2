import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
/**
 * `mkdir -p` that always ends: creates `path` and its missing ancestors one at a time (mode `mode` for
 * each one it creates). Node's own `mkdirSync(path, { recursive: true })` (and the promise form) loops
 * forever where a parent exists but refuses new entries with ENOENT, as under `/proc`. Throws the
 * filesystem's error (`code` ENOENT, ENOTDIR, EACCES, EROFS, ...) for the first directory it cannot make.
 */
export function makeDirectories(path, mode) {
    const missing = [];
    for (let at = resolve(path);;) {
        try {
            if (!statSync(at).isDirectory())
                throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR', path: at });
            break;
        }
        catch (error) {
            if (error.code !== 'ENOENT')
                throw error;
            missing.push(at);
            const parent = dirname(at);
            if (parent === at)
                break;
            at = parent;
        }
    }
    for (const dir of missing.reverse()) {
        try {
            mkdirSync(dir, mode === undefined ? undefined : { mode });
        }
        catch (error) {
            // Made by another process meanwhile: fine.
            if (error.code !== 'EEXIST')
                throw error;
        }
    }
}
//# sourceMappingURL=make-dirs.js.map