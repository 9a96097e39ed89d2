import { ToolError } from '../core/errors.js';
import { fingerprintBytes } from '../core/file-cache.js';
import { clipForMessage, decodeText, encodeText, quoteForMessage, refuseLoneSurrogate, utf8Length, type DecodedText } from '../fs/text.js';
import { decodeTextPaced, encodeTextPaced } from './edit/codec.js';
import { defineTool, type ExecuteTool, type ToolContext } from '../core/tool.js';
import { dirname, resolveWorkspacePath, statOrNull, writeFileAtomic } from '../fs/paths.js';
import type { FsStats } from '../core/types.js';
import { unifiedDiff } from './edit/diff.js';
import { loadEditHint, offThread } from '#lazy';
import { onDemand } from '../core/on-demand.js';
import { checkNoOverlap, checkOccurrenceCount, findOccurrences, toLf, toLfPaced } from './edit/match.js';
import { createPace, type Pace } from './edit/pace.js';
import { replaceOccurrences } from './edit/replace.js';
import { sameFileVersion } from './edit/unchanged.js';

/** The no_match hint's module (in browsers a file of its own, fetched on the first failed edit). */
const hintModule = onDemand("edit_file's no_match hint", 'edit-hint.min.js', loadEditHint<typeof import('./edit/hint.js')>);

/** Characters of file from which the `no_match` hint is worked out on a worker thread where there is one (Node). */
const HINT_OFF_THREAD_CHARS = 256 * 1024;

/**
 * The hint of a `no_match` error (src/tools/edit/hint.ts): for a large file on a worker thread where
 * there is one (Node; ended when `signal` aborts), so its scans never hold the calling thread. When
 * its module or thread cannot be loaded, a hint that says so, so that the call still answers `no_match`,
 * the model's to fix.
 */
async function noMatchHint(fileLf: string, needleLf: string, fileHasBom: boolean, signal: AbortSignal): Promise<{ hint: string; line?: number }> {
  try {
    const threads = fileLf.length >= HINT_OFF_THREAD_CHARS ? offThread() : undefined;
    if (threads) return await threads.run('hint', { fileLf, needleLf, fileHasBom }, { signal, what: 'the no_match hint' });
    return (await hintModule.load()).noMatchHint(fileLf, needleLf, fileHasBom);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return { hint: `View the file and copy the text exactly (no closer hint: ${(error as Error).message}).` };
  }
}

export { EDIT_MAX_DIFF_CHARS, EDIT_MAX_DIFF_LINE_CHARS } from './edit/diff.js';

/** Largest file `edit_file` edits, in bytes (32 MiB, as `view_file` reads). */
export const EDIT_MAX_FILE_BYTES = 32 * 1024 * 1024;

const inputSchema = {
  type: 'object',
  properties: {
    file_path: {
      type: 'string',
      description:
        'The file to edit: an absolute workspace path (e.g. /workspace/src/index.ts) or a path relative to the working directory.',
    },
    old_string: {
      type: 'string',
      description:
        'The exact text to replace, copied from the file including indentation and whitespace (no line-number prefixes). ' +
        'It must occur exactly once unless replace_all or expected_replacements is set; include surrounding lines to make it unique. ' +
        'Line breaks may be written as \\n whatever the file uses. An empty old_string creates a file that does not exist yet.',
    },
    new_string: {
      type: 'string',
      description:
        'The text that replaces old_string, taken literally ($&, $1 and backslashes are plain text). Its line breaks are written in the file\'s own style.',
    },
    replace_all: {
      type: 'boolean',
      description: 'Replace every occurrence of old_string, left to right and non-overlapping (default false: exactly one occurrence).',
    },
    expected_replacements: {
      type: 'integer',
      minimum: 1,
      description:
        'How many occurrences you expect to replace; the edit fails without changing anything if old_string occurs a different number of times. When it matches, all of them are replaced.',
    },
  },
  required: ['file_path', 'old_string', 'new_string'],
  additionalProperties: false,
} as const;

/** Arguments of `edit_file`. */
export interface EditFileArgs {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
  expected_replacements?: number;
}

/** Result of `edit_file`. */
export interface EditFileResult {
  /** The absolute workspace path written (symlinks resolved). */
  file_path: string;
  /** Occurrences replaced (1 when an empty `old_string` created the file). */
  replacements: number;
  /**
   * Unified diff of the change (3 lines of context, line breaks shown as `\n`), headers `--- path` / `+++ path`.
   * A line over 2000 characters is an excerpt with `[... N characters before]` / `[... N characters after]`
   * markers: around the first difference for a changed line, its start for others.
   */
  diff: string;
}

/**
 * `edit_file` (matching as Claude Code's Edit and gemini-cli's
 * `replace`): replaces `old_string` by `new_string` in `{ file_path, old_string, new_string, replace_all?,
 * expected_replacements? }` and returns {@link EditFileResult}. Matching is exact and literal (indexOf and
 * slices, never a replacement pattern), left to right and non-overlapping; `\n`, `\r\n` and `\r` all match
 * one another, and new line breaks take the style of the edited span, so a CRLF file stays CRLF and a
 * mixed file changes only where edited. A BOM is kept. Writes atomically under the path's write lock and
 * records the SHA-256 of the new bytes in the file cache. An empty `old_string` creates a missing file.
 * No file it writes is over {@link EDIT_MAX_FILE_BYTES} (32 MiB, the most it edits): an edit or a new
 * file that would be larger is `too_large`, nothing written.
 *
 * Errors: `no_match` (with the closest line and how whitespace differs, or that a BOM at the start of
 * old_string is not part of the text), `ambiguous_match` (several
 * occurrences without `replace_all`, or a count other than `expected_replacements`), `no_change`,
 * `not_found`, `invalid_arguments` (empty `old_string` on an existing file), `binary_file`,
 * `is_a_directory`, `outside_workspace`, `stale_file` (the file changed between its read and the write), `too_large` (the file, or the file the edit or `new_string` would make,
 * over 32 MiB), `execution_failed` (a symlink loop),
 * `unavailable` (the diff's library or worker thread could not be loaded or started). Work over a large
 * file yields to the event loop every few ms, and on Node a large diff or no_match hint runs on a worker
 * thread, ended by the call's deadline or cancel.
 */
export const editFileTool: ExecuteTool<EditFileArgs, EditFileResult> = defineTool({
  name: 'edit_file',
  annotations: { title: 'Edit file', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  description:
    'Replace exact text in a file. old_string must match the file exactly (including indentation) and occur once, ' +
    'unless replace_all is true or expected_replacements gives the number of occurrences. Returns a unified diff. ' +
    'View the file first and copy the text from it. With an empty old_string, creates a file that does not exist yet.',
  inputSchema,
  execute: async (args, ctx): Promise<EditFileResult> => {
    checkArguments(args);
    const path = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, args.file_path);
    // The path as messages show it (capped: a long path need not come back whole).
    const where = clipForMessage(path);
    if (args.old_string === args.new_string) {
      throw new ToolError('no_change', 'old_string and new_string are the same, so the edit would change nothing; give the new text in new_string');
    }
    return ctx.withPathLock(path, async () => {
      const stats = await statOrNull(ctx.fs, path);
      if (stats === null) return createMissingFile(ctx, path, where, args);
      // Each walk over a large text yields to the event loop every few ms (and stops once the call is answered).
      const pace = createPace(ctx.signal);
      const decoded = await readEditableText(ctx, path, where, stats, args, pace);
      const textLf = await toLfPaced(decoded.text, pace);
      const needle = toLf(args.old_string);
      const found = await findOccurrences(textLf, needle, pace);
      if (found.length === 0) {
        const { hint, line } = await noMatchHint(textLf, needle, decoded.bom, ctx.signal);
        throw new ToolError('no_match', `old_string was not found in ${where}. ${hint}`, line === undefined ? undefined : { closest_line: line });
      }
      checkOccurrenceCount(found.length, args, where);
      if (found.length === 1) checkNoOverlap(textLf, needle, found[0] as number, args, where);
      refuseSureGrowth(where, decoded, found.length, needle, args.new_string);
      const newText = await replaceOccurrences(decoded.text, found, needle.length, args.new_string, pace);
      if (newText === decoded.text) {
        throw new ToolError('no_change', `the edit leaves ${where} unchanged (old_string and new_string differ only in line breaks); nothing was written`);
      }
      const bytes = await encodeTextPaced(newText, decoded.bom, pace);
      if (bytes.length > EDIT_MAX_FILE_BYTES) throw tooLargeAfterEdit(where, bytes.length, false);
      const change = { before: textLf, after: await toLfPaced(newText, pace) };
      const diff = await writeEdit(ctx, path, where, bytes, change, pace, { stats, text: decoded.text, bom: decoded.bom });
      return { file_path: path, replacements: found.length, diff };
    });
  },
});

/** Refuses a `file_path` ending in `/` and strings holding half of a surrogate pair (`invalid_arguments`). */
function checkArguments(args: EditFileArgs): void {
  if (args.file_path.endsWith('/')) {
    throw new ToolError('invalid_arguments', `file_path ${quoteForMessage(args.file_path)} ends with "/"; give a file name`);
  }
  for (const key of ['old_string', 'new_string'] as const) {
    // Matching is on UTF-16 code units: half of a surrogate pair would match half of an emoji and
    // write U+FFFD into the file.
    refuseLoneSurrogate(key, args[key], 'copy whole characters from the file');
  }
}

/** `bytes` in MiB as the messages give it, one decimal. */
function mib(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1);
}

/**
 * The `too_large` of an edit whose result would be over {@link EDIT_MAX_FILE_BYTES}: nothing is
 * written, so no edit makes a file the editors then refuse. `atLeast`: `size` is a lower bound,
 * worked out before the new text was built.
 */
function tooLargeAfterEdit(where: string, size: number, atLeast: boolean): ToolError {
  return new ToolError(
    'too_large',
    `${where} would be ${atLeast ? 'at least ' : ''}${mib(size)} MiB (${size} bytes) after the edit; edit_file edits files up to ${EDIT_MAX_FILE_BYTES / 1_048_576} MiB: ` +
      'make the change with run_command (sed, or a short script) where commands run, or split the file into smaller files; nothing was written',
  );
}

/** Line breaks in `textLf`. */
function countBreaks(textLf: string): number {
  let count = 0;
  for (let i = textLf.indexOf('\n'); i !== -1; i = textLf.indexOf('\n', i + 1)) count += 1;
  return count;
}

/**
 * Refuses (`too_large`) an edit sure to make the file over {@link EDIT_MAX_FILE_BYTES} before its new
 * text is built, so a replace-all that would grow the file many times over is never built: the
 * file's `size` bytes with `count` spans of `needleLf` replaced by `replacement`. Exact for a file
 * without a CR or an edit without line breaks; else a lower bound (taking the replaced spans' line
 * breaks as CRLF and the new text's as LF). The bytes of the new text are checked again once encoded.
 */
function refuseSureGrowth(where: string, file: { text: string; size: number }, count: number, needleLf: string, replacement: string): void {
  const replacementLf = toLf(replacement);
  const growth = utf8Length(replacementLf) - utf8Length(needleLf);
  if (growth <= 0) return;
  const exact = !file.text.includes('\r') || (!needleLf.includes('\n') && !replacementLf.includes('\n'));
  const least = file.size + count * (growth - (exact ? 0 : countBreaks(needleLf)));
  if (least > EDIT_MAX_FILE_BYTES) throw tooLargeAfterEdit(where, least, !exact);
}

/**
 * Creates the missing file `path` with `new_string` when `old_string` is empty (else `not_found`),
 * parents included; content over {@link EDIT_MAX_FILE_BYTES} is `too_large` and nothing is written.
 */
async function createMissingFile(ctx: ToolContext, path: string, where: string, args: EditFileArgs): Promise<EditFileResult> {
  if (args.old_string !== '') {
    throw new ToolError(
      'not_found',
      `${where} does not exist; check the path with list_dir or find_file, or create the file with create_file (or edit_file with an empty old_string)`,
    );
  }
  // Counted before encoding: most text is far below the limit, and some far above it.
  const size = args.new_string.length > EDIT_MAX_FILE_BYTES / 3 ? utf8Length(args.new_string) : 0;
  if (size > EDIT_MAX_FILE_BYTES) {
    throw new ToolError(
      'too_large',
      `${where} would be ${mib(size)} MiB (${size} bytes); edit_file creates files up to ${EDIT_MAX_FILE_BYTES / 1_048_576} MiB, the largest it can edit afterwards: ` +
        'split the content into smaller files, or write it with run_command where commands run (a script that generates it, or appends it in parts); nothing was written',
    );
  }
  await ctx.fs.mkdir(dirname(path), { recursive: true });
  const diff = await writeEdit(ctx, path, where, encodeText(args.new_string), { before: '', after: toLf(args.new_string) }, createPace(ctx.signal));
  return { file_path: path, replacements: 1, diff };
}

/**
 * The decoded text of the existing file `path` and its size in bytes, once it is known to be an
 * editable file: not a directory (`is_a_directory`), `old_string` not empty (`invalid_arguments`), at
 * most {@link EDIT_MAX_FILE_BYTES} (`too_large`) and UTF-8 text (`binary_file`).
 */
async function readEditableText(ctx: ToolContext, path: string, where: string, stats: FsStats, args: EditFileArgs, pace: Pace): Promise<DecodedText & { size: number }> {
  if (stats.isDirectory()) {
    throw new ToolError('is_a_directory', `${where} is a directory; give the path of a file inside it`);
  }
  if (args.old_string === '') {
    throw new ToolError(
      'invalid_arguments',
      `${where} already exists, so old_string must not be empty; give the exact text to replace (or use create_file with overwrite to replace the whole file)`,
    );
  }
  if (stats.size > EDIT_MAX_FILE_BYTES) {
    throw new ToolError(
      'too_large',
      `${where} is ${mib(stats.size)} MiB (${stats.size} bytes); edit_file edits files up to ${EDIT_MAX_FILE_BYTES / 1_048_576} MiB: ` +
        'change it with run_command (sed, or a short script) where commands run, or split it into smaller files',
    );
  }
  const bytes = await ctx.fs.readFile(path);
  if (pace.due()) await pace.pause();
  const decoded = await decodeTextPaced(bytes, pace);
  if (decoded === null) {
    throw new ToolError('binary_file', `${where} is a binary file (a NUL byte or invalid UTF-8); edit_file only edits UTF-8 text`);
  }
  return { ...decoded, size: bytes.length };
}

/**
 * Writes `bytes` to `path` atomically and records their hash in the file cache; returns the diff of
 * `change` (LF texts; the diff paced by `pace`, a large one on a worker thread where there is one). Hashed and diffed before the write, so the write is the call's last step: nothing
 * after it can wait past the deadline and turn a made change into `timeout`. A call cancelled before
 * the write writes nothing (`cancelled`).
 */
async function writeEdit(
  ctx: ToolContext,
  path: string,
  where: string,
  bytes: Uint8Array,
  change: { before: string; after: string },
  pace: Pace,
  read?: { stats: FsStats; text: string; bom: boolean },
): Promise<string> {
  const hash = await fingerprintBytes(bytes);
  if (pace.due()) await pace.pause();
  const diff = await unifiedDiff(path, change.before, change.after, { pace, signal: ctx.signal });
  if (pace.due()) await pace.pause();
  if (read) {
    // Another writer (an editor, a process without the lock) may have changed the file since it was read.
    const now = await statOrNull(ctx.fs, path);
    if (now === null || !(sameFileVersion(read.stats, now) || (await sameText(ctx, path, read)))) {
      throw new ToolError('stale_file', `${where} changed while edit_file was editing it; nothing was written. View it again, then retry the edit`);
    }
  }
  if (ctx.signal.aborted) throw new ToolError('cancelled', `edit_file was cancelled before writing ${where}`);
  await writeFileAtomic(ctx.fs, path, bytes, ctx.platform.atomicWrites === true);
  ctx.fileCache.set(path, hash);
  return diff;
}

/**
 * Whether `path` still holds the text that was read: for a backend whose stats change without the file
 * changing (an archive mount that makes up times and inodes on each stat), the content decides.
 */
async function sameText(ctx: ToolContext, path: string, read: { text: string; bom: boolean }): Promise<boolean> {
  const decoded = decodeText(await ctx.fs.readFile(path));
  return decoded !== null && decoded.text === read.text && decoded.bom === read.bom;
}

