import { ToolError } from '../core/errors.js';
import { clipForMessage, quoteForMessage } from '../fs/text.js';
import { defineTool, type ExecuteTool } from '../core/tool.js';
import type { FsStats } from '../core/types.js';
import { resolveWorkspacePath } from '../fs/paths.js';
import { countSkipped, noSkippedEntries, reportWalk, skipKindOf } from '../search/walk-report.js';
import { fitResult } from './result-budget.js';

/** Most entries one `list_dir` call returns; the rest are counted in `total_entries`. */
export const LIST_DIR_MAX_ENTRIES = 1000;

const inputSchema = {
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
  /**
   * A symlink is reported as such and never followed. `fifo` (a named pipe), `socket` and `device` (a
   * character or block device) are files no tool reads or writes: they could block or never end.
   */
  type: 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'device';
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
  /** Entries listed but not shown because they could not be read (removed while listing, a path too long, unreadable); only when there were some. */
  skipped_entries?: number;
  note?: string;
}

function entryType(entry: FsStats): ListDirEntry['type'] {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  if (entry.isFIFO?.() === true) return 'fifo';
  if (entry.isSocket?.() === true) return 'socket';
  if (entry.isCharacterDevice?.() === true || entry.isBlockDevice?.() === true) return 'device';
  return 'file';
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `list_dir` (as gemini-cli's `ls`): lists `{ dir_path }` and
 * returns {@link ListDirResult}: the immediate children sorted by UTF-16 code units (plain `<`, not
 * locale order), dot-files included, each `{ name, type, size }` from `lstat` (bytes; symlinks are not
 * followed; FIFOs, sockets and devices are typed `fifo`, `socket`, `device`; an entry that cannot be
 * `lstat`ed, such as one removed while listing, is left out and counted in `skipped_entries` with a `note`). On Node, a name that is not
 * UTF-8 is shown with `\xNN` escapes that every tool accepts back. At most {@link LIST_DIR_MAX_ENTRIES} entries, with `truncated` and `total_entries` beyond.
 *
 * Errors: `not_found`, `not_a_directory` (a file), `outside_workspace`, `execution_failed` (a symlink loop).
 */
export const listDirTool: ExecuteTool<{ dir_path: string }, ListDirResult> = defineTool({
  name: 'list_dir',
  annotations: { title: 'List directory', readOnlyHint: true, openWorldHint: false },
  description:
    'List the files, directories and symlinks directly inside a directory, with sizes in bytes, sorted by name ' +
    `(dot-files included, at most ${LIST_DIR_MAX_ENTRIES} entries). Use find_file to search deeper. ` +
    'Types fifo, socket and device are special files that cannot be read. A byte of a name that is not UTF-8 is shown as \\xNN; give the name back the same way.',
  inputSchema,
  execute: async (args, ctx): Promise<ListDirResult> => {
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
    const skipped = noSkippedEntries();
    for (const name of shown) {
      let entry: FsStats;
      try {
        entry = await ctx.fs.lstat(prefix + name);
      } catch (error) {
        // Removed while listing, or a name too long to stat: counted, never failing the listing.
        countSkipped(skipped, skipKindOf(error) ?? 'unreadable', prefix + name);
        continue;
      }
      entries.push({ name, type: entryType(entry), size: entry.size });
    }
    const result: ListDirResult = { dir_path: path, entries, truncated: names.length > shown.length };
    if (result.truncated) {
      result.total_entries = names.length;
      result.note = `Showing the first ${shown.length} of ${names.length} entries; use find_file with a pattern to find the others.`;
    }
    reportWalk(result, { skipped, ignoreDropped: [] });
    return fitResult(result, 'entries', 'entries', 'use find_file with a pattern to find the others');
  },
});
