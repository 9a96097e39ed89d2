import { ToolError } from '../core/errors.js';
import { hashBytes } from '../core/file-cache.js';
import { clipForMessage, countCodePoints, decodeText, detectLineEnding, encodeText, quoteForMessage } from '../fs/text.js';
import { defineTool, type Tool } from '../core/tool.js';
import { dirname, resolveWorkspacePath, statOrNull, writeFileAtomic } from '../fs/paths.js';

/** Largest file `edit_file` edits, in bytes (32 MiB, as `view_file` reads). */
export const EDIT_MAX_FILE_BYTES = 32 * 1024 * 1024;
/** Longest diff returned, in UTF-16 code units; a longer one is cut at a line with a marker. */
export const EDIT_MAX_DIFF_CHARS = 30_000;
/**
 * Longest line of a diff shown whole, in UTF-16 code units (as `view_file`'s line cut). A longer
 * changed line is shown as an excerpt around its first difference, other long lines as their start.
 */
export const EDIT_MAX_DIFF_LINE_CHARS = 2000;
/** Characters of unchanged text kept before and after the change in an excerpt of a long line. */
const DIFF_EXCERPT_CONTEXT = 200;
/** Time budget of the diff computation, in ms; past it the result says the diff was left out. */
const DIFF_TIMEOUT_MS = 2_000;

const parameters = {
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

const BREAKS = /\r\n?/g;

/** `text` with every `\r\n` and `\r` turned into `\n`. */
function toLf(text: string): string {
  return text.includes('\r') ? text.replace(BREAKS, '\n') : text;
}

/**
 * For each UTF-16 index of `toLf(text)` (and one past its end), the matching index in `text`; null
 * when `text` has no `\r` (the indexes are equal). A `\r\n` is one character in the LF text, so
 * spans found there never split a CRLF in the original.
 */
function lfToOriginal(text: string): Int32Array | null {
  if (!text.includes('\r')) return null;
  const map = new Int32Array(text.length + 1);
  let j = 0;
  for (let i = 0; i < text.length; i += 1) {
    map[j] = i;
    j += 1;
    if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) i += 1;
  }
  map[j] = text.length;
  return map.subarray(0, j + 1);
}

/**
 * The line break new text takes in a span of `text` that begins at `start`: the first break at or
 * after `start` (inside the span, else the one ending its line), else the one before it, else `fallback`. Keeps a mixed-ending
 * file's other lines as they are and gives the edited lines their neighbours' style.
 */
function spanEnding(text: string, start: number, fallback: string): string {
  const breakAt = (i: number): string => (text.charCodeAt(i) === 13 ? (text.charCodeAt(i + 1) === 10 ? '\r\n' : '\r') : '\n');
  for (let i = start; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return breakAt(i);
  }
  for (let i = start - 1; i >= 0; i -= 1) {
    const c = text.charCodeAt(i);
    if (c === 10) return text.charCodeAt(i - 1) === 13 ? '\r\n' : '\n';
    if (c === 13) return '\r';
  }
  return fallback;
}

function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

function describeIndent(indent: string): string {
  if (indent === '') return 'no indentation';
  const tabs = indent.split('\t').length - 1;
  const spaces = indent.length - tabs;
  return [tabs > 0 ? `${tabs} tab${tabs === 1 ? '' : 's'}` : '', spaces > 0 ? `${spaces} space${spaces === 1 ? '' : 's'}` : '']
    .filter(Boolean)
    .join(' and ');
}

/** How two lines that are equal up to whitespace differ, in words. */
function whitespaceDifference(fileLine: string, wanted: string): string {
  const fileIndent = leadingWhitespace(fileLine);
  const wantedIndent = leadingWhitespace(wanted);
  if (fileIndent !== wantedIndent) {
    if (fileIndent.includes('\t') && !wantedIndent.includes('\t')) return 'the file indents it with tabs, old_string with spaces';
    if (!fileIndent.includes('\t') && wantedIndent.includes('\t')) return 'the file indents it with spaces, old_string with tabs';
    return `the indentation differs (file: ${describeIndent(fileIndent)}; old_string: ${describeIndent(wantedIndent)})`;
  }
  if (fileLine.trimEnd() === wanted.trimEnd()) return 'trailing whitespace differs';
  return 'whitespace inside the line differs';
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
const quote = (line: string): string => quoteForMessage(line, { json: true });

function bigrams(s: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i + 1 < s.length; i += 1) {
    const gram = s.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/** Sørensen–Dice similarity of two strings' bigram multisets, 0..1. */
function similarity(a: Map<string, number>, aSize: number, b: string): number {
  const grams = bigrams(b);
  const bSize = Math.max(b.length - 1, 0);
  if (aSize + bSize === 0) return 0;
  let shared = 0;
  for (const [gram, n] of grams) shared += Math.min(n, a.get(gram) ?? 0);
  return (2 * shared) / (aSize + bSize);
}

const BOM = '\uFEFF';

/**
 * The hint of a `no_match` for an old_string that starts with a byte order mark the text lacks. A file's
 * BOM never matches: decodeText strips it from the text (view_file hides it, writes keep it). Without
 * this hint the whitespace hints would call it a whitespace difference (`\s` matches U+FEFF). Null when
 * that is not the problem.
 */
function bomHint(fileLf: string, needleLf: string, fileHasBom: boolean): { hint: string; line?: number } | null {
  if (!needleLf.startsWith(BOM) || fileLf.includes(BOM)) return null;
  const why = fileHasBom
    ? "old_string starts with a byte order mark (U+FEFF), but the file's BOM is not part of its text: view_file hides it and edit_file keeps it as it is."
    : 'old_string starts with a byte order mark (U+FEFF), which the file does not have.';
  const rest = needleLf.slice(BOM.length);
  const at = rest === '' ? -1 : fileLf.indexOf(rest);
  if (at === -1) return { hint: `${why} Remove it from the start of old_string.` };
  let line = 1;
  for (let i = fileLf.indexOf('\n'); i !== -1 && i < at; i = fileLf.indexOf('\n', i + 1)) line += 1;
  return { hint: `${why} Remove it from the start of old_string: without it, old_string is found at line ${line}.`, line };
}

/** The hint of a `no_match` error: the closest line (1-based number and text) and how it differs. */
function noMatchHint(fileLf: string, needleLf: string, fileHasBom: boolean): { hint: string; line?: number } {
  const bom = bomHint(fileLf, needleLf, fileHasBom);
  if (bom) return bom;
  if (fileLf === '') return { hint: 'The file is empty.' };
  const lines = fileLf.split('\n');
  const wantedLines = needleLf.split('\n');
  const first = wantedLines.findIndex((line) => line.trim() !== '');
  if (first === -1) {
    return { hint: 'old_string holds only whitespace; include some of the text around the place to edit.' };
  }
  const wanted = wantedLines[first] as string;
  const multiLine = wantedLines.length > first + 1;
  const wantedSquashed = squash(wanted);
  const wantedBare = wanted.replace(/\s+/g, '');
  const limit = Math.min(lines.length, 100_000);
  // Where old_string's first line occurs verbatim, how many of its lines follow in the file.
  let start = -1;
  let startMatched = 0;
  let loose = -1;
  let fragment = -1;
  for (let i = 0; i < limit; i += 1) {
    const line = lines[i] as string;
    if (multiLine && (line === wanted || (first === 0 && line.endsWith(wanted)))) {
      let k = first + 1;
      while (k < wantedLines.length && lines[i + k - first] === wantedLines[k]) k += 1;
      if (k - first > startMatched) {
        start = i;
        startMatched = k - first;
      }
      continue;
    }
    if (loose === -1 && squash(line) === wantedSquashed) loose = i;
    if (fragment === -1 && wantedBare.length >= 3 && line.replace(/\s+/g, '').includes(wantedBare)) fragment = i;
  }
  if (start !== -1) {
    const k = first + startMatched;
    const n = start + startMatched + 1;
    const fileLine = lines[n - 1];
    const want = wantedLines[k];
    if (want === undefined) {
      return { hint: `Line ${start + 1} matches old_string from its first non-blank line on, but the lines before it differ.`, line: start + 1 };
    }
    if (fileLine === undefined) {
      return { hint: `Line ${start + 1} matches the start of old_string, but the file ends before old_string does.`, line: start + 1 };
    }
    const how = squash(fileLine) === squash(want) ? ` (${whitespaceDifference(fileLine, want)})` : '';
    return {
      hint:
        `Line ${start + 1} matches the start of old_string, but line ${n} differs${how}: the file has ${quote(fileLine)} ` +
        `where old_string has ${quote(want)}. View lines ${start + 1}-${n} and copy them exactly.`,
      line: start + 1,
    };
  }
  if (loose !== -1) {
    const line = lines[loose] as string;
    return {
      hint:
        `The closest line is ${loose + 1}: ${quote(line)}, which differs from old_string only in whitespace: ` +
        `${whitespaceDifference(line, wanted)}. Copy indentation and whitespace exactly as the file has them.`,
      line: loose + 1,
    };
  }
  if (fragment !== -1) {
    return {
      hint:
        `The closest line is ${fragment + 1}: ${quote(lines[fragment] as string)}, which holds the text of old_string ` +
        'with different whitespace. Copy spaces, tabs and indentation exactly as the file has them.',
      line: fragment + 1,
    };
  }
  const target = wantedSquashed.toLowerCase().slice(0, 500);
  const targetGrams = bigrams(target);
  const targetSize = Math.max(target.length - 1, 0);
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < limit; i += 1) {
    const candidate = squash(lines[i] as string).toLowerCase().slice(0, 500);
    if (candidate === '') continue;
    const score = similarity(targetGrams, targetSize, candidate);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best === -1 || bestScore < 0.4) {
    return { hint: 'No line resembles the first line of old_string; view_file the file to see its current content.' };
  }
  return {
    hint:
      `The closest line is ${best + 1}: ${quote(lines[best] as string)}. Text, whitespace and indentation must match ` +
      'exactly; view_file the lines around it and copy them.',
    line: best + 1,
  };
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** `i` moved back off the low half of a surrogate pair, so a cut there never splits a character. */
function pairStart(text: string, i: number): number {
  return i > 0 && i < text.length && isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1)) ? i - 1 : i;
}

/** `line[start, end)` with markers saying how many characters (code points) come before and after it. */
function excerpt(line: string, start: number, end: number): string {
  const from = pairStart(line, Math.max(0, Math.min(start, line.length)));
  const to = pairStart(line, Math.max(from, Math.min(end, line.length)));
  const before = from > 0 ? `[... ${countCodePoints(line, 0, from)} characters before] ` : '';
  const after = to < line.length ? ` [... ${countCodePoints(line, to)} characters after]` : '';
  return before + line.slice(from, to) + after;
}

/**
 * A removed line and the added line that replaces it, cut alike when either is longer than
 * {@link EDIT_MAX_DIFF_LINE_CHARS}: from a little before their first difference to a little after its
 * end, so that a change inside a long (minified, generated) line stays visible in the diff.
 */
function excerptPair(removed: string, added: string): [string, string] {
  const max = EDIT_MAX_DIFF_LINE_CHARS;
  if (removed.length <= max && added.length <= max) return [removed, added];
  const shorter = Math.min(removed.length, added.length);
  let prefix = 0;
  while (prefix < shorter && removed.charCodeAt(prefix) === added.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (suffix < shorter - prefix && removed.charCodeAt(removed.length - 1 - suffix) === added.charCodeAt(added.length - 1 - suffix)) suffix += 1;
  const start = Math.max(0, prefix - DIFF_EXCERPT_CONTEXT);
  const cut = (line: string): string => {
    const changeEnd = line.length - suffix;
    return excerpt(line, start, Math.min(start + max, changeEnd + DIFF_EXCERPT_CONTEXT));
  };
  return [cut(removed), cut(added)];
}

/**
 * Hunk lines (`-`, `+`, ` ` or `\` first) with lines over {@link EDIT_MAX_DIFF_LINE_CHARS} cut: the
 * n-th removed and n-th added line of a block of changes as {@link excerptPair}, any other to its start.
 */
function excerptLongLines(lines: string[]): string[] {
  const max = EDIT_MAX_DIFF_LINE_CHARS + 1;
  if (lines.every((line) => line.length <= max)) return lines;
  const out = lines.slice();
  const head = (i: number): void => {
    const line = out[i] as string;
    if (line.length > max) out[i] = line[0] + excerpt(line.slice(1), 0, EDIT_MAX_DIFF_LINE_CHARS);
  };
  let i = 0;
  while (i < out.length) {
    const kind = (out[i] as string)[0];
    if (kind !== '-' && kind !== '+') {
      head(i);
      i += 1;
      continue;
    }
    // One block of changes: its removed lines, then its added lines (a `\ No newline` note may sit between).
    const removed: number[] = [];
    const added: number[] = [];
    for (; i < out.length; i += 1) {
      const k = (out[i] as string)[0];
      if (k === '-' && added.length === 0) removed.push(i);
      else if (k === '+') added.push(i);
      else if (k !== '\\') break;
    }
    for (let n = 0; n < Math.max(removed.length, added.length); n += 1) {
      const r = removed[n];
      const a = added[n];
      if (r !== undefined && a !== undefined) {
        const [oldLine, newLine] = excerptPair((out[r] as string).slice(1), (out[a] as string).slice(1));
        out[r] = '-' + oldLine;
        out[a] = '+' + newLine;
      } else head((r ?? a) as number);
    }
  }
  return out;
}

/**
 * Unified diff of two LF texts with `path` in both headers: lines over {@link EDIT_MAX_DIFF_LINE_CHARS}
 * as excerpts ({@link excerptLongLines}), the whole capped at {@link EDIT_MAX_DIFF_CHARS}.
 */
async function unifiedDiff(path: string, before: string, after: string): Promise<string> {
  // Loaded on the first edit, not with the worker.
  const { FILE_HEADERS_ONLY, formatPatch, structuredPatch } = await import('diff');
  const patch = structuredPatch(path, path, before, after, '', '', { context: 3, timeout: DIFF_TIMEOUT_MS });
  if (patch === undefined) {
    return `(diff left out: the change to ${clipForMessage(path)} is too large to diff quickly; view_file the file to check it)`;
  }
  for (const hunk of patch.hunks) hunk.lines = excerptLongLines(hunk.lines);
  const text = formatPatch(patch, FILE_HEADERS_ONLY);
  if (text.length <= EDIT_MAX_DIFF_CHARS) return text;
  const cutAt = text.lastIndexOf('\n', EDIT_MAX_DIFF_CHARS) + 1;
  return `${text.slice(0, cutAt)}… [${text.length - cutAt} characters of diff cut]\n`;
}

/** Half of a surrogate pair with no other half beside it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `edit_file` (SPEC §6.3; seed: the SDK's `EditFile`; matching as Claude Code's Edit and gemini-cli's
 * `replace`): replaces `old_string` by `new_string` in `{ file_path, old_string, new_string, replace_all?,
 * expected_replacements? }` and returns {@link EditFileResult}. Matching is exact and literal (indexOf and
 * slices, never a replacement pattern), left to right and non-overlapping; `\n`, `\r\n` and `\r` all match
 * one another, and new line breaks take the style of the edited span, so a CRLF file stays CRLF and a
 * mixed file changes only where edited. A BOM is kept. Writes atomically under the path's write lock and
 * records the SHA-256 of the new bytes in the file cache. An empty `old_string` creates a missing file.
 *
 * Errors: `no_match` (with the closest line and how whitespace differs, or that a BOM at the start of
 * old_string is not part of the text), `ambiguous_match` (several
 * occurrences without `replace_all`, or a count other than `expected_replacements`), `no_change`,
 * `not_found`, `invalid_arguments` (empty `old_string` on an existing file), `binary_file`,
 * `is_a_directory`, `outside_workspace`, `too_large` (over 32 MiB), `execution_failed` (a symlink loop).
 */
export const editFileTool: Tool<EditFileArgs, EditFileResult> = defineTool({
  name: 'edit_file',
  description:
    'Replace exact text in a file. old_string must match the file exactly (including indentation) and occur once, ' +
    'unless replace_all is true or expected_replacements gives the number of occurrences. Returns a unified diff. ' +
    'View the file first and copy the text from it. With an empty old_string, creates a file that does not exist yet.',
  parameters,
  needsContext: true,
  callWithContext: async (args, ctx): Promise<EditFileResult> => {
    if (args.file_path.endsWith('/')) {
      throw new ToolError('invalid_arguments', `file_path ${quoteForMessage(args.file_path)} ends with "/"; give a file name`);
    }
    for (const key of ['old_string', 'new_string'] as const) {
      // Matching is on UTF-16 code units: half of a surrogate pair would match half of an emoji and
      // write U+FFFD into the file.
      if (LONE_SURROGATE.test(args[key])) {
        throw new ToolError('invalid_arguments', `${key} contains half of a surrogate pair (a broken emoji or other character outside the BMP); copy whole characters from the file`);
      }
    }
    const path = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, args.file_path);
    // The path as messages show it (capped: a long path need not come back whole).
    const where = clipForMessage(path);
    if (args.old_string === args.new_string) {
      throw new ToolError('no_change', 'old_string and new_string are the same, so the edit would change nothing; give the new text in new_string');
    }
    return ctx.withPathLock(path, async () => {
      const stats = await statOrNull(ctx.fs, path);
      if (stats === null) {
        if (args.old_string !== '') {
          throw new ToolError(
            'not_found',
            `${where} does not exist; check the path with list_dir or find_file, or create the file with create_file (or edit_file with an empty old_string)`,
          );
        }
        const bytes = encodeText(args.new_string);
        await ctx.fs.mkdir(dirname(path), { recursive: true });
        // Hashed before the write, so the write is the call's last step: nothing after it can wait
        // past the deadline and turn a made change into `timeout`.
        const hash = await hashBytes(bytes);
        const diff = await unifiedDiff(path, '', toLf(args.new_string));
        if (ctx.signal.aborted) throw new ToolError('cancelled', `edit_file was cancelled before writing ${where}`);
        await writeFileAtomic(ctx.fs, path, bytes, ctx.platform.atomicWrites === true);
        ctx.fileCache.set(path, hash);
        return { file_path: path, replacements: 1, diff };
      }
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
        throw new ToolError('too_large', `${where} is ${stats.size} bytes; edit_file edits files up to ${EDIT_MAX_FILE_BYTES} bytes`);
      }
      const oldBytes = await ctx.fs.readFile(path);
      const decoded = decodeText(oldBytes);
      if (decoded === null) {
        throw new ToolError('binary_file', `${where} is a binary file (a NUL byte or invalid UTF-8); edit_file only edits UTF-8 text`);
      }
      const text = decoded.text;
      const textLf = toLf(text);
      const needle = toLf(args.old_string);
      const found: number[] = [];
      for (let at = textLf.indexOf(needle); at !== -1; at = textLf.indexOf(needle, at + needle.length)) found.push(at);

      const count = found.length;
      if (count === 0) {
        const { hint, line } = noMatchHint(textLf, needle, decoded.bom);
        throw new ToolError('no_match', `old_string was not found in ${where}. ${hint}`, line === undefined ? undefined : { closest_line: line });
      }
      const times = `${count} time${count === 1 ? '' : 's'}`;
      if (args.expected_replacements !== undefined && args.expected_replacements !== count) {
        throw new ToolError(
          'ambiguous_match',
          `old_string occurs ${times} in ${where}, but expected_replacements is ${args.expected_replacements}; nothing was changed. ` +
            'Adjust old_string or expected_replacements.',
          { count },
        );
      }
      if (count > 1 && args.replace_all !== true && args.expected_replacements === undefined) {
        throw new ToolError(
          'ambiguous_match',
          `old_string occurs ${times} in ${where}; add surrounding context to make it unique, or set replace_all to replace every occurrence`,
          { count },
        );
      }

      const map = lfToOriginal(text);
      const at = (i: number): number => (map === null ? i : (map[i] as number));
      const replacementLf = toLf(args.new_string);
      const hasBreak = replacementLf.includes('\n');
      const dominant = detectLineEnding(text);
      const fallback = dominant === 'crlf' ? '\r\n' : dominant === 'cr' ? '\r' : '\n';
      const parts: string[] = [];
      let last = 0;
      for (const start of found) {
        const from = at(start);
        const to = at(start + needle.length);
        const ending = hasBreak ? spanEnding(text, from, fallback) : '\n';
        parts.push(text.slice(last, from), ending === '\n' ? replacementLf : replacementLf.split('\n').join(ending));
        last = to;
      }
      parts.push(text.slice(last));
      const newText = parts.join('');
      if (newText === text) {
        throw new ToolError('no_change', `the edit leaves ${where} unchanged (old_string and new_string differ only in line breaks); nothing was written`);
      }

      const newBytes = encodeText(newText, decoded.bom);
      // Hashed and diffed before the write, so the write is the call's last step (see above).
      const hash = await hashBytes(newBytes);
      const diff = await unifiedDiff(path, textLf, toLf(newText));
      if (ctx.signal.aborted) throw new ToolError('cancelled', `edit_file was cancelled before writing ${where}`);
      await writeFileAtomic(ctx.fs, path, newBytes, ctx.platform.atomicWrites === true);
      ctx.fileCache.set(path, hash);
      return { file_path: path, replacements: count, diff };
    });
  },
});
