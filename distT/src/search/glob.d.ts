import type { GlobMatcher, GlobOptions } from './glob-compile.js';
export type { GlobMatcher, GlobOptions } from './glob-compile.js';
/**
 * Loads the compiler that {@link compileGlob} needs (once; on Node it is already there). Errors:
 * ToolError `unavailable` when its file cannot be loaded (the app must serve lazy/glob.min.js).
 */
export declare function loadGlobMatcher(): Promise<void>;
/**
 * Compiles a glob with picomatch's syntax and meaning: `*`, `**`, `?`, `[...]`, `{a,b}`, extglobs,
 * a leading `!` negating; a pattern without `/` matches basenames at any depth; case-insensitive unless
 * `caseSensitive`; matching in time linear in the path's length (see glob-compile.ts for the whole
 * contract). In browsers, await {@link loadGlobMatcher} first. Errors: `invalid_pattern` for a glob
 * that is empty, over 1000 characters, unbalanced or invalid, or (with `base`) not under the searched
 * directory; `outside_workspace` for an absolute (or `../`) pattern outside the workspace.
 */
export declare function compileGlob(pattern: string, options?: GlobOptions): GlobMatcher;
