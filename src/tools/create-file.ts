import { ToolError } from '../core/errors.js';
import { fingerprintBytes, fingerprintSize } from '../core/file-cache.js';
import { clipForMessage, decodeText, detectLineEnding, encodeText, MESSAGE_QUOTE_CHARS, quoteForMessage, refuseLoneSurrogate, utf8Length } from '../fs/text.js';
import { defineTool, type ExecuteTool } from '../core/tool.js';
import { dirname, resolveWorkspacePath, statOrNull, writeFileAtomic } from '../fs/paths.js';
import { EDIT_MAX_FILE_BYTES } from './edit-file.js';

const inputSchema = {
  type: 'object',
  properties: {
    file_path: {
      type: 'string',
      description:
        'The file to create: an absolute workspace path (e.g. /workspace/src/new.ts) or a path relative to the working directory. Missing parent directories are created.',
    },
    content: {
      type: 'string',
      description: 'The complete text of the file, written as UTF-8.',
    },
    overwrite: {
      type: 'boolean',
      description:
        'Replace the file if it already exists (default false). To change part of an existing file, use edit_file instead.',
    },
  },
  required: ['file_path', 'content'],
  additionalProperties: false,
} as const;

/**
 * Largest old file, in bytes (32 MiB), whose BOM and line endings `create_file` keeps when it
 * overwrites it; a larger file is not read (its content is written as given), unless this
 * conversation recorded a fingerprint of that very size, when it is read to check it is unchanged.
 */
export const CREATE_MAX_STYLE_BYTES = 32 * 1024 * 1024;

/** Result of `create_file`. */
export interface CreateFileResult {
  /** The absolute workspace path written (symlinks resolved). */
  file_path: string;
  /** Bytes written, including a kept BOM. */
  bytes_written: number;
  /** True when the file did not exist before. */
  created: boolean;
}

/**
 * Text to write over an existing file, in that file's style (writes keep the file's
 * own style): its BOM is kept, and LF-only content takes the file's CRLF or CR endings when the old
 * file used one of those throughout. Anything else is written as given.
 */
function inFileStyle(content: string, old: Uint8Array): Uint8Array {
  const decoded = decodeText(old);
  if (decoded === null) return encodeText(content);
  let text = content;
  const oldEnding = detectLineEnding(decoded.text);
  if ((oldEnding === 'crlf' || oldEnding === 'cr') && detectLineEnding(content) === 'lf') {
    text = content.replace(/\n/g, oldEnding === 'crlf' ? '\r\n' : '\r');
  }
  return encodeText(text, decoded.bom && !text.startsWith('\uFEFF'));
}

/**
 * The `too_large` of a file that would be larger than {@link EDIT_MAX_FILE_BYTES}, the most
 * `edit_file` edits: `create_file` writes no file its editors could not change afterwards.
 */
function tooLarge(path: string, size: number): ToolError {
  return new ToolError(
    'too_large',
    `${clipForMessage(path)} would be ${(size / 1_048_576).toFixed(1)} MiB (${size} bytes); create_file writes files up to ${EDIT_MAX_FILE_BYTES / 1_048_576} MiB, ` +
      'the largest edit_file can edit afterwards: split the content into smaller files, or write it with run_command where commands run (a script that generates it, or appends it in parts); nothing was written',
  );
}

/** `, e.g. <path><suffix>` for a path short enough to repeat in a message; '' for a longer one. */
function example(path: string, suffix: string): string {
  return path.length <= MESSAGE_QUOTE_CHARS ? `, e.g. ${path}${suffix}` : '';
}

/**
 * `create_file`: writes `{ file_path, content, overwrite? = false }`
 * and returns {@link CreateFileResult}. Creates missing parent directories; writes atomically (temp file
 * + rename, so a failure leaves the old file whole); holds the path's write lock. When overwriting, keeps
 * the old file's BOM and CRLF/CR style (files up to {@link CREATE_MAX_STYLE_BYTES}), and refuses when the
 * file's bytes changed since this conversation last viewed or wrote it (size, then SHA-256, in the file
 * cache, not times; a file never viewed may be overwritten, and a larger one is then not read at all).
 * Records the size and SHA-256 of the bytes written.
 *
 * Refuses content that would make a file over {@link EDIT_MAX_FILE_BYTES} (32 MiB, the most `edit_file`
 * edits, so no file it writes is one the editors cannot change), writing nothing.
 *
 * Errors: `already_exists` (exists, `overwrite` not set), `is_a_directory`, `stale_file`, `too_large`
 * (the file would be over 32 MiB),
 * `outside_workspace`, `not_a_directory` (a parent is a file), `invalid_arguments` (empty path, trailing `/`, last component `.` or `..`,
 * content holding half of a surrogate pair, which UTF-8 cannot store),
 * `execution_failed` (a symlink loop), `quota_exceeded` (storage full).
 */
export const createFileTool: ExecuteTool<{ file_path: string; content: string; overwrite?: boolean }, CreateFileResult> =
  defineTool({
    name: 'create_file',
    annotations: { title: 'Create file', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    description:
      'Create a file with the given content, creating missing parent directories. Fails if the file exists ' +
      'unless overwrite is true; overwriting also fails if the file changed since you last viewed it (view it ' +
      'again first). To change part of a file, use edit_file.',
    inputSchema,
    execute: async (args, ctx): Promise<CreateFileResult> => {
      if (args.file_path.endsWith('/')) {
        throw new ToolError('invalid_arguments', `file_path ${quoteForMessage(args.file_path)} ends with "/"; give a file name${example(args.file_path, 'index.ts')}`);
      }
      if (/(^|\/)\.\.?$/.test(args.file_path)) {
        // `dir/.` and `dir/..` name folders: the last component is not a file name.
        throw new ToolError('invalid_arguments', `file_path ${quoteForMessage(args.file_path)} ends with "${args.file_path.endsWith('..') ? '..' : '.'}", which names a directory; give a file name${example(args.file_path, '/index.ts')}`);
      }
      refuseLoneSurrogate('content', args.content);
      const path = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, args.file_path);
      if (path === ctx.platform.root) {
        throw new ToolError('is_a_directory', `${path} is the workspace root, a directory; give a file name inside it`);
      }
      // Before any reading or encoding; the bytes written (a kept BOM, CRLF endings) are checked again below.
      const size = args.content.length > EDIT_MAX_FILE_BYTES / 3 ? utf8Length(args.content) : 0;
      if (size > EDIT_MAX_FILE_BYTES) throw tooLarge(path, size);
      return ctx.withPathLock(path, async () => {
        const existing = await statOrNull(ctx.fs, path);
        let bytes: Uint8Array;
        if (existing) {
          if (existing.isDirectory()) {
            throw new ToolError('is_a_directory', `${path} is a directory; choose a file name inside it`);
          }
          if (args.overwrite !== true) {
            throw new ToolError(
              'already_exists',
              `${path} already exists; set overwrite to true to replace it, or use edit_file to change part of it`,
            );
          }
          const known = ctx.fileCache.get(path);
          const stale = (): ToolError =>
            new ToolError(
              'stale_file',
              `${path} has changed since you last viewed it; view_file it again, then retry so you do not overwrite those changes`,
            );
          // Sizes first: a file whose size changed is stale without reading it. The old bytes are read
          // only to compare with a recorded fingerprint of the same size, or, up to
          // CREATE_MAX_STYLE_BYTES, to keep the file's BOM and line endings.
          if (known !== undefined && fingerprintSize(known) !== existing.size) throw stale();
          if (known !== undefined || existing.size <= CREATE_MAX_STYLE_BYTES) {
            const old = await ctx.fs.readFile(path);
            if (known !== undefined && known !== (await fingerprintBytes(old))) throw stale();
            bytes = inFileStyle(args.content, old);
          } else {
            bytes = encodeText(args.content);
          }
        } else {
          bytes = encodeText(args.content);
        }
        if (bytes.length > EDIT_MAX_FILE_BYTES) throw tooLarge(path, bytes.length);
        // Hashed before the write, so the write is the call's last step: nothing after it can wait
        // past the deadline and turn a made change into `timeout`.
        const hash = await fingerprintBytes(bytes);
        if (ctx.signal.aborted) throw new ToolError('cancelled', `create_file was cancelled before writing ${path}`);
        const write = (): Promise<void> => writeFileAtomic(ctx.fs, path, bytes, ctx.platform.atomicWrites === true);
        if (existing) await write();
        else {
          // Usually the folder exists: write first, and create missing parents only when that says ENOENT.
          try {
            await write();
          } catch (error) {
            if ((error as { code?: unknown } | null)?.code !== 'ENOENT') throw error;
            await ctx.fs.mkdir(dirname(path), { recursive: true });
            if (ctx.signal.aborted) throw new ToolError('cancelled', `create_file was cancelled before writing ${path}`);
            await write();
          }
        }
        ctx.fileCache.set(path, hash);
        return { file_path: path, bytes_written: bytes.length, created: existing === null };
      });
    },
  });
