/**
 * Gemini CLI's orderings and ignore files for `glob` and `list_directory`:
 * - glob: files modified in the last 24 hours first, newest first; then the others by path.
 * - list_directory: directories first, then files, each by name; `.gitignore`d and `.geminiignore`d
 *   entries left out unless `file_filtering_options` says otherwise.
 */
import type { ExecuteTool, ToolContext } from '../../core/tool.js';
import { compileGlob, loadGlobMatcher } from '../../search/glob.js';
import { findFileTool, type FindFileResult } from '../find-file.js';
import { listDirTool, type ListDirResult } from '../list-dir.js';
import { directoryIgnoreTest, geminiIgnoreTest } from './gemini-ignore.js';

/** Files modified this recently (ms) come first in glob's answer, newest first (Gemini CLI's 24 hours). */
export const GLOB_RECENCY_MS = 24 * 60 * 60 * 1000;

/** Name order as Gemini CLI's (a locale compare: letter case does not split the list). */
const byName = new Intl.Collator('en').compare;

/** Stats looked up at once when ordering glob's files. */
const STAT_BATCH = 64;

async function delegate<A, R>(tool: ExecuteTool<A, R>, args: A, ctx: ToolContext): Promise<R> {
  return tool.execute(args, ctx);
}

/** Orders paths as Gemini CLI's glob: recent (within `recencyMs` of `now`) newest first, then the rest by path. */
export function sortByRecency(entries: ReadonlyArray<{ path: string; mtimeMs: number }>, now: number, recencyMs = GLOB_RECENCY_MS): string[] {
  return [...entries]
    .sort((a, b) => {
      const aRecent = now - a.mtimeMs < recencyMs;
      const bRecent = now - b.mtimeMs < recencyMs;
      if (aRecent && bRecent) return b.mtimeMs - a.mtimeMs || byName(a.path, b.path);
      if (aRecent) return -1;
      if (bRecent) return 1;
      return byName(a.path, b.path);
    })
    .map((e) => e.path);
}

/** Arguments of Gemini's `glob`. */
export interface GeminiGlobArgs {
  pattern: string;
  dir_path?: string;
  case_sensitive?: boolean;
  respect_git_ignore?: boolean;
  respect_gemini_ignore?: boolean;
}

/** Gemini's glob: find_file, then `.geminiignore`, then the recency order. */
export async function geminiGlob(args: GeminiGlobArgs, ctx: ToolContext): Promise<FindFileResult> {
  const forward: Record<string, unknown> = { pattern: args.pattern, include_ignored: args.respect_git_ignore === false };
  if (args.dir_path !== undefined) forward.dir_path = args.dir_path;
  if (args.case_sensitive !== undefined) forward.case_sensitive = args.case_sensitive;
  const found = await delegate(findFileTool as unknown as ExecuteTool<Record<string, unknown>, FindFileResult>, forward, ctx);
  const ignored = await geminiIgnoreTest(ctx, args.respect_gemini_ignore !== false);
  let files = found.files;
  if (ignored) {
    const kept = files.filter((path) => !ignored(path, false));
    found.total -= files.length - kept.length;
    files = kept;
  }
  const stamped: Array<{ path: string; mtimeMs: number }> = [];
  for (let i = 0; i < files.length; i += STAT_BATCH) {
    const batch = files.slice(i, i + STAT_BATCH);
    const stats = await Promise.all(batch.map((path) => ctx.fs.lstat(path).then((s) => s.mtimeMs, () => 0)));
    batch.forEach((path, j) => stamped.push({ path, mtimeMs: stats[j] as number }));
  }
  return { ...found, files: sortByRecency(stamped, Date.now()) };
}

/** Arguments of Gemini's `list_directory`. */
export interface GeminiListArgs {
  dir_path: string;
  ignore?: string[];
  file_filtering_options?: { respect_git_ignore?: boolean; respect_gemini_ignore?: boolean };
}

/** Gemini's list_directory: list_dir, less `ignore` globs and ignore files, directories first then files by name. */
export async function geminiListDirectory(args: GeminiListArgs, ctx: ToolContext): Promise<ListDirResult> {
  const listed = await delegate(listDirTool, { dir_path: args.dir_path }, ctx);
  let entries = listed.entries;
  if (args.ignore && args.ignore.length > 0) {
    await loadGlobMatcher();
    const matchers = args.ignore.map((pattern) => compileGlob(pattern, { argName: 'ignore', caseSensitive: true }));
    entries = entries.filter((entry) => !matchers.some((m) => m.matches(entry.name)));
  }
  const options = args.file_filtering_options ?? {};
  const ignored = await directoryIgnoreTest(ctx, listed.dir_path, { respectGitIgnore: options.respect_git_ignore, respectGeminiIgnore: options.respect_gemini_ignore });
  if (ignored) {
    const base = listed.dir_path === '/' ? '' : listed.dir_path;
    entries = entries.filter((entry) => !ignored(`${base}/${entry.name}`, entry.type === 'directory'));
  }
  const isDir = (e: { type: string }): number => (e.type === 'directory' ? 0 : 1);
  entries = [...entries].sort((a, b) => isDir(a) - isDir(b) || byName(a.name, b.name));
  return { ...listed, entries };
}
