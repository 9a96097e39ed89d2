import { globCompilerNow, loadGlobCompiler } from '#lazy';
import { onDemand } from '../core/on-demand.js';
import type { GlobMatcher, GlobOptions } from './glob-compile.js';

export type { GlobMatcher, GlobOptions } from './glob-compile.js';

/**
 * The glob compiler (glob-compile.ts, with its parser and automaton): in browsers a file of its own
 * (lazy/glob.min.js), fetched by {@link loadGlobCompiler} on the first call that has a glob (find_file,
 * a search's include or exclude); on Node loaded with this module.
 */
const compilerModule = onDemand('the glob matcher', 'glob.min.js', loadGlobCompiler<typeof import('./glob-compile.js')>);

/**
 * Loads the compiler that {@link compileGlob} needs (once; on Node it is already there). Errors:
 * ToolError `unavailable` when its file cannot be loaded (the app must serve lazy/glob.min.js).
 */
export async function loadGlobMatcher(): Promise<void> {
  if (!globCompilerNow()) await compilerModule.load();
}

/**
 * Compiles a glob with picomatch's syntax and meaning: `*`, `**`, `?`, `[...]`, `{a,b}`, extglobs,
 * a leading `!` negating; a pattern without `/` matches basenames at any depth; case-insensitive unless
 * `caseSensitive`; matching in time linear in the path's length (see glob-compile.ts for the whole
 * contract). In browsers, await {@link loadGlobMatcher} first. Errors: `invalid_pattern` for a glob
 * that is empty, over 1000 characters, unbalanced or invalid, or (with `base`) not under the searched
 * directory; `outside_workspace` for an absolute (or `../`) pattern outside the workspace.
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): GlobMatcher {
  const module = compilerModule.loaded() ?? globCompilerNow<typeof import('./glob-compile.js')>();
  if (!module) throw new Error('the glob matcher is not loaded yet: await loadGlobMatcher() before compileGlob');
  return module.compileGlob(pattern, options);
}
