import { ToolError } from '../core/errors.js';
import { clipForMessage, quoteForMessage } from '../fs/text.js';
import { defineTool, type Tool } from '../core/tool.js';
import type { FsStats } from '../core/types.js';
import { resolveWorkspacePath } from '../fs/paths.js';

/** Most entries one `list_dir` call returns; the rest are counted in `total_entries`. */
export const LIST_DIR_MAX_ENTRIES = 1000;

const parameters = {
  type: 'object',
  properties: {
    dir_path: {
      type: 'string',
      description:
        'The directory to list: an absolute workspace path (e.g. /workspace/src) or a path relative to the working directory ("." for the working directory itself).',
    },
  },
  required: ['dir_path'],
  additionalProperties: false,
} as const;

/** One child of a listed directory. */
export interface ListDirEntry {
  name: string;
  /** A symlink is reported as such and never followed. */
  type: 'file' | 'directory' | 'symlink';
  /** Size in bytes as `lstat` gives it (a symlink's own size, the length of its target path). */
  size: number;
}

/** Result of `list_dir`. */
export interface ListDirResult {
  /** The absolute workspace path listed (symlinks resolved). */
  dir_path: string;
  /** Immediate children, sorted by name in UTF-16 code-unit order, dot-files included. */
  entries: ListDirEntry[];
  /** True when the directory had more than {@link LIST_DIR_MAX_ENTRIES} entries and only the first ones are shown. */
  truncated: boolean;
  /** How many entries the directory has; only when `truncated`. */
  total_entries?: number;
  note?: string;
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `list_dir` (SPEC §6.5; seed: the SDK's `ListDir`, as gemini-cli's `ls`): lists `{ dir_path }` and
 * returns {@link ListDirResult}: the immediate children sorted by UTF-16 code units (plain `<`, not
 * locale order), dot-files included, each `{ name, type, size }` from `lstat` (bytes; symlinks are not
 * followed). At most {@link LIST_DIR_MAX_ENTRIES} entries, with `truncated` and `total_entries` beyond.
 *
 * Errors: `not_found`, `not_a_directory` (a file), `outside_workspace`, `execution_failed` (a symlink loop).
 */
export const listDirTool: Tool<{ dir_path: string }, ListDirResult> = defineTool({
  name: 'list_dir',
  description:
    'List the files, directories and symlinks directly inside a directory, with sizes in bytes, sorted by name ' +
    `(dot-files included, at most ${LIST_DIR_MAX_ENTRIES} entries). Use find_file to search deeper.`,
  parameters,
  readOnly: true,
  needsContext: true,
  callWithContext: async (args, ctx): Promise<ListDirResult> => {
    const path = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, args.dir_path, {
      argName: 'dir_path',
    });
    let stats: FsStats;
    try {
      stats = await ctx.fs.stat(path);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === 'ENOENT') {
        throw new ToolError('not_found', `dir_path ${quoteForMessage(args.dir_path)} does not exist (${clipForMessage(path)}); list its parent directory to check the name`);
      }
      throw error;
    }
    if (!stats.isDirectory()) {
      throw new ToolError('not_a_directory', `${clipForMessage(path)} is a file, not a directory; use view_file to read it`);
    }
    const names = (await ctx.fs.readdir(path)).sort(byCodeUnits);
    const shown = names.slice(0, LIST_DIR_MAX_ENTRIES);
    const prefix = path === '/' ? '/' : `${path}/`;
    const entries: ListDirEntry[] = [];
    for (const name of shown) {
      let entry: FsStats;
      try {
        entry = await ctx.fs.lstat(prefix + name);
      } catch {
        continue; // removed while listing
      }
      const type = entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'directory' : 'file';
      entries.push({ name, type, size: entry.size });
    }
    const result: ListDirResult = { dir_path: path, entries, truncated: names.length > shown.length };
    if (result.truncated) {
      result.total_entries = names.length;
      result.note = `Showing the first ${shown.length} of ${names.length} entries; use find_file with a pattern to find the others.`;
    }
    return result;
  },
});
