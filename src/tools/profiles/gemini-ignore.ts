/**
 * Ignore files as Gemini CLI's file tools honour them: `.geminiignore` at the workspace root (gitignore
 * syntax; Gemini CLI reads only the project root's), and, for `list_directory`, the `.gitignore` files
 * from the root down to the listed directory (the walk of glob and grep_search applies `.gitignore`
 * files itself).
 */
import { loadIgnore } from '#lazy';
import { onDemand } from '../../core/on-demand.js';
import type { ToolContext } from '../../core/tool.js';
import { compileIgnoreLevel, ignoreRulesOf, isIgnored, type IgnoreFactory, type IgnoreLevel } from '../../search/ignore.js';

/** Name of Gemini CLI's own ignore file, read at the workspace root. */
export const GEMINI_IGNORE_FILE = '.geminiignore';

const ignoreLibrary = onDemand('the .gitignore library (ignore)', 'ignore.min.js', loadIgnore);

const join = (dir: string, name: string): string => (dir === '/' ? `/${name}` : `${dir}/${name}`);

async function levelOf(ctx: ToolContext, dir: string, name: string): Promise<IgnoreLevel | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await ctx.fs.readFile(join(dir, name));
  } catch {
    return undefined;
  }
  const bounded = ignoreRulesOf(bytes);
  if (!bounded || bounded.rules.length === 0) return undefined;
  const { default: ignore } = await ignoreLibrary.load();
  return compileIgnoreLevel(ignore as IgnoreFactory, dir, bounded.rules);
}

/** Which ignore files apply (each default true, as Gemini CLI's options). */
export interface GeminiIgnoreOptions {
  respectGitIgnore?: boolean;
  respectGeminiIgnore?: boolean;
}

/** Whether an absolute workspace path (a directory when `isDir`) is ignored. */
export type IgnoreTest = (path: string, isDir: boolean) => boolean;

/** The root `.geminiignore` as a test, or undefined when there is none (or it is not respected). */
export async function geminiIgnoreTest(ctx: ToolContext, respect = true): Promise<IgnoreTest | undefined> {
  if (!respect) return undefined;
  const level = await levelOf(ctx, ctx.platform.root, GEMINI_IGNORE_FILE);
  if (level === undefined) return undefined;
  return (path, isDir) => path !== ctx.platform.root && isIgnored([level], path, isDir);
}

/**
 * The ignore test for the children of `dir` (list_directory): `.gitignore` files from the root down to
 * `dir`, then `.geminiignore`, each when respected. Undefined when nothing applies.
 */
export async function directoryIgnoreTest(ctx: ToolContext, dir: string, options: GeminiIgnoreOptions): Promise<IgnoreTest | undefined> {
  const root = ctx.platform.root;
  const levels: IgnoreLevel[] = [];
  if (options.respectGitIgnore !== false && (dir === root || dir.startsWith(root === '/' ? '/' : `${root}/`))) {
    const rest = dir === root ? [] : dir.slice(root === '/' ? 1 : root.length + 1).split('/');
    let current = root;
    for (let i = 0; i <= rest.length; i += 1) {
      const level = await levelOf(ctx, current, '.gitignore');
      if (level) levels.push(level);
      if (i < rest.length) current = join(current, rest[i] as string);
    }
  }
  const gemini = await geminiIgnoreTest(ctx, options.respectGeminiIgnore !== false);
  if (levels.length === 0 && gemini === undefined) return undefined;
  return (path, isDir) => (levels.length > 0 && isIgnored(levels, path, isDir)) || (gemini !== undefined && gemini(path, isDir));
}
