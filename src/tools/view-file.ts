import { ToolError } from '../core/errors.js';
import { fingerprintBytes } from '../core/file-cache.js';
import { encodeBase64, isInlineImageType, MAX_INLINE_IMAGE_BYTES, sniffMimeType } from '../fs/mime.js';
import { clipForMessage, decodeText, detectLineEnding, quoteForMessage, splitLines, truncateText, type LineEnding } from '../fs/text.js';
import { defineTool, type Tool, type ToolContext } from '../core/tool.js';
import type { FsStats } from '../core/types.js';
import { resolveWorkspacePath } from '../fs/paths.js';

/** Lines shown when `end_line` is not given, and at most in one call. */
export const VIEW_MAX_LINES = 2000;
/** Longest line shown, in UTF-16 code units; longer lines are cut with a marker. */
export const VIEW_MAX_LINE_CHARS = 2000;
/**
 * Most characters of `content` in one call (UTF-16 code units, markers included); a window that would
 * pass it ends early, with `next_start_line`. At least one line is always shown.
 */
export const VIEW_MAX_CONTENT_CHARS = 500_000;
/** Largest file `view_file` reads, in bytes (32 MiB); larger files are `too_large`. */
export const VIEW_MAX_FILE_BYTES = 32 * 1024 * 1024;

const parameters = {
  type: 'object',
  properties: {
    file_path: {
      type: 'string',
      description:
        'The file to read: an absolute workspace path (e.g. /workspace/src/index.ts) or a path relative to the working directory.',
    },
    start_line: {
      type: 'integer',
      minimum: 1,
      description:
        'First line to show, 1-based (default 1). Use the next_start_line of a previous truncated result to continue reading.',
    },
    end_line: {
      type: 'integer',
      minimum: 1,
      description: `Last line to show, 1-based and inclusive (default: start_line + ${VIEW_MAX_LINES - 1}). At most ${VIEW_MAX_LINES} lines are shown per call.`,
    },
  },
  required: ['file_path'],
  additionalProperties: false,
} as const;

/** Result of `view_file` for a text file. Lines are 1-based; `content` has no line-number prefixes. */
export interface ViewFileTextResult {
  file_path: string;
  /** The lines `start_line`..`end_line`, without their endings, joined by `\n`; a BOM is never shown. */
  content: string;
  start_line: number;
  /** Last line shown (`start_line - 1` when none is, as for an empty file). */
  end_line: number;
  total_lines: number;
  /** True when the file continues after `end_line`. */
  truncated: boolean;
  line_ending: LineEnding;
  /** The `start_line` that continues reading; only when `truncated`. */
  next_start_line?: number;
  /** How many shown lines were cut at {@link VIEW_MAX_LINE_CHARS}; only when some were. */
  lines_cut?: number;
  /** What was left out and how to get it; only when something was. */
  note?: string;
}

/** Result of `view_file` for a binary file; small images also carry their bytes as base64. */
export interface ViewFileBinaryResult {
  file_path: string;
  binary: true;
  /** Size in bytes. */
  size: number;
  mime_type: string;
  /** Standard base64 of the file; png, jpeg, gif and webp up to 5 MiB only. */
  data_base64?: string;
  note?: string;
}

/** Either result of `view_file`. */
export type ViewFileResult = ViewFileTextResult | ViewFileBinaryResult;

async function statOrThrow(ctx: ToolContext, path: string, input: string): Promise<FsStats> {
  try {
    return await ctx.fs.stat(path);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ENOENT') {
      throw new ToolError(
        'not_found',
        `file_path ${quoteForMessage(input)} does not exist (${clipForMessage(path)}); check the name with list_dir or find_file`,
      );
    }
    throw error;
  }
}

function cutLine(line: string): { text: string; cut: number } {
  const { text, cut } = truncateText(line, VIEW_MAX_LINE_CHARS);
  if (cut === 0) return { text, cut };
  return { text: `${text}… [${cut} character${cut === 1 ? '' : 's'} cut]`, cut };
}

/**
 * `view_file` (windowing as gemini-cli's `read_file`): reads
 * `{ file_path, start_line?, end_line? }` (1-based, inclusive) and returns {@link ViewFileResult}.
 * Default window: the first 2000 lines; at most 2000 lines and 500,000 characters per call; each line
 * cut at 2000 UTF-16 code units (never inside a surrogate pair) with a marker `… [N characters cut]`
 * (N in code points).
 * `\n`, `\r\n` and `\r` all end a line; a trailing ending makes no extra line; a BOM is hidden.
 * Binary files (NUL in the first 8 KiB, or invalid UTF-8) give `{ file_path, binary, size, mime_type }`,
 * plus `data_base64` for png/jpeg/gif/webp up to 5 MiB. Records the SHA-256 of the bytes in the file cache.
 *
 * Errors: `not_found`, `is_a_directory`, `outside_workspace`, `invalid_arguments` (start_line past the
 * end, end_line before start_line), `too_large` (over 32 MiB), `execution_failed` (a symlink loop).
 */
export const viewFileTool: Tool<{ file_path: string; start_line?: number; end_line?: number }, ViewFileResult> =
  defineTool({
    name: 'view_file',
    annotations: { title: 'View file', readOnlyHint: true, openWorldHint: false },
    description:
      'Read a file from the workspace. Text files come back as raw lines (no line numbers) joined by \\n, ' +
      `at most ${VIEW_MAX_LINES} lines per call (default: lines 1-${VIEW_MAX_LINES}); lines longer than ` +
      `${VIEW_MAX_LINE_CHARS} characters are cut with a marker. When the result is truncated, call again with ` +
      'start_line = next_start_line. Binary files return only their size and MIME type; png, jpeg, gif and ' +
      'webp images up to 5 MiB also return data_base64.',
    parameters,
    readOnly: true,
    needsContext: true,
    callWithContext: async (args, ctx): Promise<ViewFileResult> => {
      const path = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, args.file_path);
      const stats = await statOrThrow(ctx, path, args.file_path);
      const where = clipForMessage(path);
      if (stats.isDirectory()) {
        throw new ToolError('is_a_directory', `${where} is a directory, not a file; use list_dir to see what it holds`);
      }
      if (stats.size > VIEW_MAX_FILE_BYTES) {
        throw new ToolError(
          'too_large',
          `${where} is ${stats.size} bytes; view_file reads files up to ${VIEW_MAX_FILE_BYTES} bytes. Use search_dir or grep_search to find the part you need`,
        );
      }
      const bytes = await ctx.fs.readFile(path);
      ctx.fileCache.set(path, await fingerprintBytes(bytes));

      const decoded = decodeText(bytes);
      if (decoded === null) {
        const mime = sniffMimeType(bytes);
        const result: ViewFileBinaryResult = { file_path: path, binary: true, size: bytes.length, mime_type: mime };
        if (isInlineImageType(mime)) {
          if (bytes.length <= MAX_INLINE_IMAGE_BYTES) result.data_base64 = encodeBase64(bytes);
          else result.note = `The image is larger than ${MAX_INLINE_IMAGE_BYTES} bytes, so its data is not included`;
        }
        return result;
      }

      const { lines } = splitLines(decoded.text);
      const total = lines.length;
      const start = args.start_line ?? 1;
      if (start > Math.max(total, 1)) {
        throw new ToolError(
          'invalid_arguments',
          `start_line ${start} is past the end of ${where}, which has ${total} line${total === 1 ? '' : 's'}; use a start_line from 1 to ${Math.max(total, 1)}`,
        );
      }
      if (args.end_line !== undefined && args.end_line < start) {
        throw new ToolError(
          'invalid_arguments',
          `end_line ${args.end_line} is before start_line ${start}; give end_line >= start_line, or leave it out`,
        );
      }
      const wanted = Math.min(args.end_line ?? total, total);
      let end = Math.min(wanted, start + VIEW_MAX_LINES - 1);

      const shown: string[] = [];
      let linesCut = 0;
      let chars = 0;
      let capped = false;
      for (let i = start - 1; i < end; i += 1) {
        const { text, cut } = cutLine(lines[i] as string);
        chars += text.length + 1;
        if (chars > VIEW_MAX_CONTENT_CHARS + 1 && shown.length > 0) {
          end = i;
          capped = true;
          break;
        }
        if (cut > 0) linesCut += 1;
        shown.push(text);
      }

      const result: ViewFileTextResult = {
        file_path: path,
        content: shown.join('\n'),
        start_line: start,
        end_line: end,
        total_lines: total,
        truncated: end < total,
        line_ending: detectLineEnding(decoded.text),
      };
      const notes: string[] = [];
      if (end < total) {
        result.next_start_line = end + 1;
        const why = capped ? ` (output is capped at ${VIEW_MAX_CONTENT_CHARS} characters)` : '';
        notes.push(
          `Showing lines ${start}-${end} of ${total}${why}. To read more, call view_file with start_line ${end + 1}.`,
        );
      }
      if (linesCut > 0) {
        result.lines_cut = linesCut;
        notes.push(
          `${linesCut} line${linesCut === 1 ? ' was' : 's were'} longer than ${VIEW_MAX_LINE_CHARS} characters and cut (marked "… [N characters cut]"); use search_dir or grep_search to find text inside them.`,
        );
      }
      if (notes.length > 0) result.note = notes.join(' ');
      return result;
    },
  });
