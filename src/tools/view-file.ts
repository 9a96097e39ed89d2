import { ToolError } from '../core/errors.js';
import { fingerprintBytes } from '../core/file-cache.js';
import { inlineImageRefusal, MAX_INLINE_IMAGE_SIDE } from '../fs/image-header.js';
import { encodeBase64, isInlineImageType, MAX_INLINE_IMAGE_BYTES, sniffMimeType } from '../fs/mime.js';
import { clipForMessage, decodeText, detectLineEnding, quoteForMessage, splitLines, truncateText, type LineEnding } from '../fs/text.js';
import { defineTool, type ExecuteTool, type ToolContext } from '../core/tool.js';
import type { FsStats } from '../core/types.js';
import { refuseSlashOnFile, resolveWorkspacePath } from '../fs/paths.js';
import { readLineWindow } from './view-stream.js';

/** Lines shown when `end_line` is not given, and at most in one call. */
export const VIEW_MAX_LINES = 2000;
/** Longest line shown, in UTF-16 code units; longer lines are cut with a marker. */
export const VIEW_MAX_LINE_CHARS = 2000;
/**
 * Most characters of `content` in one call (UTF-16 code units, markers included); a window that would
 * pass it ends early, with `next_start_line`. At least one line is always shown.
 */
export const VIEW_MAX_CONTENT_CHARS = 500_000;
/**
 * Largest file `view_file` reads whole, in bytes (32 MiB). A larger one is streamed: its window is read
 * a MiB at a time and only the window is kept (where the platform's fs has `readRange`; else `too_large`).
 */
export const VIEW_MAX_FILE_BYTES = 32 * 1024 * 1024;

const inputSchema = {
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
  /**
   * Standard base64 of the file; png, jpeg, gif and webp up to 5 MiB only, whose header is complete and
   * valid and whose sides are at most 8000 px (`MAX_INLINE_IMAGE_SIDE`); otherwise `note` says why not.
   */
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
 * plus `data_base64` for png/jpeg/gif/webp up to 5 MiB whose header is complete and sane and whose sides
 * are at most 8000 px (see `checkInlineImage`); any other such image gets a note saying why its data is
 * left out and what to do. Records the SHA-256 of the bytes in the file cache.
 * A regular file whose size the filesystem reports as 0 but which has content (the pseudo-files of /proc
 * and /sys) is read on to its end, up to 32 MiB, where the fs has `readRange`, with a note saying so.
 *
 * A file over 32 MiB is streamed where the platform's fs has `readRange` (memory and Node): the window
 * is read a MiB at a time and only it is kept, so memory stays bounded whatever the file's size or
 * its longest line (a single enormous line comes back as an excerpt with the cut marker), with a note.
 *
 * Errors: `not_found`, `is_a_directory`, `outside_workspace`, `invalid_arguments` (start_line past the
 * end, end_line before start_line, a path ending in `/` that names a file, as `create_file` refuses it), `too_large` (over 32 MiB where the fs has no `readRange`),
 * `execution_failed` (a symlink loop).
 */
export const viewFileTool: ExecuteTool<{ file_path: string; start_line?: number; end_line?: number }, ViewFileResult> =
  defineTool({
    name: 'view_file',
    annotations: { title: 'View file', readOnlyHint: true, openWorldHint: false },
    description:
      'Read a file from the workspace. Text files come back as raw lines (no line numbers) joined by \\n, ' +
      `at most ${VIEW_MAX_LINES} lines per call (default: lines 1-${VIEW_MAX_LINES}); lines longer than ` +
      `${VIEW_MAX_LINE_CHARS} characters are cut with a marker. When the result is truncated, call again with ` +
      'start_line = next_start_line. Binary files return only their size and MIME type; valid png, jpeg, gif and ' +
      `webp images up to 5 MiB and ${MAX_INLINE_IMAGE_SIDE} px per side also return data_base64 (otherwise a note says why not).`,
    inputSchema,
    execute: async (args, ctx): Promise<ViewFileResult> => {
      const path = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, args.file_path);
      const stats = await statOrThrow(ctx, path, args.file_path);
      const where = clipForMessage(path);
      if (stats.isDirectory()) {
        throw new ToolError('is_a_directory', `${where} is a directory, not a file; use list_dir to see what it holds`);
      }
      refuseSlashOnFile('file_path', args.file_path);
      if (stats.size > VIEW_MAX_FILE_BYTES) {
        if (ctx.fs.readRange === undefined) {
          throw new ToolError(
            'too_large',
            `${where} is ${stats.size} bytes; view_file reads files up to ${VIEW_MAX_FILE_BYTES} bytes here. Use search_dir or grep_search to find the part you need`,
          );
        }
        return viewLargeFile(ctx, path, where, stats.size, args);
      }
      const { bytes, note: sizeNote } = await readViewBytes(ctx, path, stats, where);
      ctx.fileCache.set(path, await fingerprintBytes(bytes));

      const decoded = decodeText(bytes);
      if (decoded === null) return binaryResult(path, bytes, sizeNote);

      const { lines } = splitLines(decoded.text);
      const total = lines.length;
      const start = args.start_line ?? 1;
      checkStartLine(start, total, where);
      checkEndLine(start, args.end_line);
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

      return windowResult({
        path,
        shown,
        start,
        end,
        total,
        capped,
        linesCut,
        lineEnding: detectLineEnding(decoded.text),
        ...(sizeNote === undefined ? {} : { extraNote: sizeNote }),
      });
    },
  });

/**
 * The bytes `view_file` shows of the file at `path`: the whole file, or, for a regular file whose size
 * the filesystem reports as 0 (the pseudo-files of /proc and /sys, made when read), what a read to its
 * end gives, up to {@link VIEW_MAX_FILE_BYTES}, with a note saying so (where the fs has `readRange`,
 * which reads such a file on to its end; a real empty file reads as empty either way).
 */
async function readViewBytes(ctx: ToolContext, path: string, stats: FsStats, where: string): Promise<{ bytes: Uint8Array; note?: string }> {
  if (stats.size !== 0 || !stats.isFile() || ctx.fs.readRange === undefined) return { bytes: await ctx.fs.readFile(path) };
  const read = await ctx.fs.readRange(path, 0, VIEW_MAX_FILE_BYTES + 1);
  if (read.length === 0) return { bytes: read };
  const cut = read.length > VIEW_MAX_FILE_BYTES;
  const bytes = cut ? read.subarray(0, VIEW_MAX_FILE_BYTES) : read;
  const note =
    `The filesystem reports a size of 0 bytes for ${where}, so its content is generated when it is read (as for the files of /proc and /sys) and may differ from one read to the next; ` +
    (cut ? `only its first ${VIEW_MAX_FILE_BYTES} bytes were read.` : `${bytes.length} bytes were read.`);
  return { bytes, note };
}

/** The result for binary `bytes`: size and sniffed MIME type, plus `data_base64` for an image a model takes (else a note why not). */
function binaryResult(path: string, bytes: Uint8Array, extraNote: string | undefined): ViewFileBinaryResult {
  const mime = sniffMimeType(bytes);
  const result: ViewFileBinaryResult = { file_path: path, binary: true, size: bytes.length, mime_type: mime };
  const notes = extraNote === undefined ? [] : [extraNote];
  if (isInlineImageType(mime)) {
    const refusal = bytes.length > MAX_INLINE_IMAGE_BYTES ? `The image is larger than ${MAX_INLINE_IMAGE_BYTES} bytes, so its data is not included` : inlineImageRefusal(bytes, mime);
    if (refusal === undefined) result.data_base64 = encodeBase64(bytes);
    else notes.push(refusal);
  }
  if (notes.length > 0) result.note = notes.join(' ');
  return result;
}

function checkEndLine(start: number, endLine: number | undefined): void {
  if (endLine !== undefined && endLine < start) {
    throw new ToolError('invalid_arguments', `end_line ${endLine} is before start_line ${start}; give end_line >= start_line, or leave it out`);
  }
}

function checkStartLine(start: number, total: number, where: string): void {
  if (start > Math.max(total, 1)) {
    throw new ToolError(
      'invalid_arguments',
      `start_line ${start} is past the end of ${where}, which has ${total} line${total === 1 ? '' : 's'}; use a start_line from 1 to ${Math.max(total, 1)}`,
    );
  }
}

/** The text result of the lines `start`..`end` shown of `total`, with its notes. */
function windowResult(part: {
  path: string;
  shown: string[];
  start: number;
  end: number;
  total: number;
  capped: boolean;
  linesCut: number;
  lineEnding: LineEnding;
  extraNote?: string;
}): ViewFileTextResult {
  const { path, shown, start, end, total, capped, linesCut } = part;
  const result: ViewFileTextResult = {
    file_path: path,
    content: shown.join('\n'),
    start_line: start,
    end_line: end,
    total_lines: total,
    truncated: end < total,
    line_ending: part.lineEnding,
  };
  const notes: string[] = part.extraNote === undefined ? [] : [part.extraNote];
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
}

/**
 * `view_file` of a file over {@link VIEW_MAX_FILE_BYTES}: the window is streamed from the file (see
 * `readLineWindow`), so memory is a MiB plus the window whatever the file's size or its longest line;
 * a line too long to show is an excerpt of its first {@link VIEW_MAX_LINE_CHARS} characters with the
 * usual marker. The file cache records no fingerprint (the whole content is never held), and drops an
 * older one.
 */
async function viewLargeFile(
  ctx: ToolContext,
  path: string,
  where: string,
  size: number,
  args: { start_line?: number; end_line?: number },
): Promise<ViewFileResult> {
  const start = args.start_line ?? 1;
  checkEndLine(start, args.end_line);
  const end = Math.min(args.end_line ?? Number.MAX_SAFE_INTEGER, start + VIEW_MAX_LINES - 1);
  const part = await readLineWindow(ctx.fs, path, size, {
    start,
    end,
    maxLineChars: VIEW_MAX_LINE_CHARS,
    maxChars: VIEW_MAX_CONTENT_CHARS,
    signal: ctx.signal,
  });
  ctx.fileCache.delete(path);
  if (part.binary) {
    const mime = sniffMimeType(part.head);
    const result: ViewFileBinaryResult = { file_path: path, binary: true, size, mime_type: mime };
    if (isInlineImageType(mime)) result.note = `The image is larger than ${MAX_INLINE_IMAGE_BYTES} bytes, so its data is not included`;
    return result;
  }
  checkStartLine(start, part.total, where);
  const shown: string[] = [];
  let linesCut = 0;
  for (const line of part.lines) {
    if (line.cut > 0) linesCut += 1;
    shown.push(line.cut === 0 ? line.text : `${line.text}… [${line.cut} character${line.cut === 1 ? '' : 's'} cut]`);
  }
  return windowResult({
    path,
    shown,
    start,
    end: part.end,
    total: part.total,
    capped: part.capped,
    linesCut,
    lineEnding: part.lineEnding,
    extraNote: `${where} is ${size} bytes, more than the ${VIEW_MAX_FILE_BYTES} view_file reads whole, so this window was streamed from it (bytes that are not UTF-8 show as U+FFFD).`,
  });
}
