import type { FsPromises } from '../core/types.js';
/**
 * What a path that is too long answers, naming it shortened as every message does (`quoteForMessage`):
 * `"/ws/a/a/a…" (9800 more characters) is longer than the filesystem allows (a name or the whole path);
 * use shorter names`.
 */
export declare function pathTooLongMessage(path: string | undefined): string;
/**
 * Makes a Node-style filesystem error (one with a string `code` such as `ENOENT`) fit to be read by
 * the model, in place, keeping its `code`, `path` and the rest: Node's own `EACCES` / `EPERM` message
 * gets {@link permissionDeniedMessage} of `path` (the workspace path given to `method`); a message
 * naming an internal `/proc/self/fd/…` path names `path` instead; `ENAMETOOLONG` gets
 * {@link pathTooLongMessage} of `path` (else the error's own `path`), and any other message longer
 * than a few hundred characters has each quoted path in it shortened to its first 200 characters (a
 * 5,000-component path made a 10 KB message). Anything else is returned as it is. Costs a property
 * read or two on the everyday errors (`ENOENT` for every new file), which are left untouched.
 */
export declare function tidyFsError(error: unknown, path?: string, method?: string): unknown;
/**
 * What a permission failure (`EACCES`, `EPERM`) answers, naming the workspace path the caller gave and
 * what to do next: `permission denied reading "/ws/secret.txt": it (or a folder on its way) is not
 * readable by this process; check its permissions or pick another file`.
 */
export declare function permissionDeniedMessage(path: string, method?: string): string;
/**
 * `fs` with every rejection passed through {@link tidyFsError}, naming the workspace path the caller
 * gave (the port may have failed on a host path of its own making, such as `/proc/self/fd/N/name`): a
 * permission failure says what was denied and what to do ({@link permissionDeniedMessage}).
 * Results and everyday errors pass unchanged.
 */
export declare function withTidyFsErrors(fs: FsPromises): FsPromises;
