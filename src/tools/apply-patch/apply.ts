import { ToolError } from '../../core/errors.js';
import { detectLineEnding, quoteForMessage, splitLines } from '../../fs/text.js';
import type { PatchChunk } from './parse.js';

const PUNCTUATION: Readonly<Record<string, string>> = (() => {
  const map: Record<string, string> = {};
  for (const c of '\u2010\u2011\u2012\u2013\u2014\u2015\u2212') map[c] = '-';
  for (const c of '\u2018\u2019\u201A\u201B') map[c] = "'";
  for (const c of '\u201C\u201D\u201E\u201F') map[c] = '"';
  for (const c of '\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000') map[c] = ' ';
  return map;
})();
const PUNCTUATION_CHARS = /[\u2010-\u2015\u2212\u2018-\u201F\u00A0\u2002-\u200A\u202F\u205F\u3000]/g;

/**
 * A line as the last matching pass sees it: trimmed, with typographic dashes, quotes and Unicode
 * spaces (en/em dash, minus sign, curly quotes, no-break and other fixed-width spaces) made ASCII.
 */
export function normalisePunctuation(line: string): string {
  return line.trim().replace(PUNCTUATION_CHARS, (c) => PUNCTUATION[c] ?? c);
}

/**
 * The four ways a hunk's lines are compared with the file's, tried in this order as Codex's
 * apply_patch does: exactly, then ignoring trailing whitespace, then ignoring whitespace at both
 * ends, then also treating typographic punctuation and Unicode spaces as their ASCII forms. Each is
 * equality of a key of the line (the line itself, trimmed at its end, trimmed, normalised), so a
 * search compares keys, and finds a hunk in time linear in the file and the hunk (Knuth–Morris–Pratt
 * over lines) however the two nearly match: a hunk of 10,000 lines that matched nowhere took 12 s
 * when each position was compared line by line, and its `no_match` quoted the missing line after as
 * many searches as the hunk had lines.
 */
const PASSES: ReadonlyArray<((line: string) => string) | undefined> = [undefined, (line) => line.trimEnd(), (line) => line.trim(), normalisePunctuation];

/** The keys of `lines` per pass, made on first use (a file's lines are searched once per hunk and context line). */
const keyed = new WeakMap<readonly string[], Array<readonly string[] | undefined>>();

/** `lines` as pass `pass` of {@link PASSES} compares them. */
function keysOf(lines: readonly string[], pass: number): readonly string[] {
  const key = PASSES[pass];
  if (key === undefined) return lines;
  let passes = keyed.get(lines);
  if (!passes) keyed.set(lines, (passes = []));
  return (passes[pass] ??= lines.map(key));
}

/** The pattern's failure function (Knuth–Morris–Pratt): per position, the longest proper prefix that is also a suffix there. */
function failureOf(pattern: readonly string[]): Int32Array {
  const failure = new Int32Array(pattern.length);
  for (let i = 1, k = 0; i < pattern.length; i += 1) {
    while (k > 0 && pattern[i] !== pattern[k]) k = failure[k - 1] as number;
    if (pattern[i] === pattern[k]) k += 1;
    failure[i] = k;
  }
  return failure;
}

/**
 * `pattern` sought in `lines` from `start` (both keyed alike): where it first occurs (-1: nowhere),
 * and the length of the longest prefix of it found on the way.
 */
function scan(lines: readonly string[], pattern: readonly string[], start: number): { at: number; longest: number } {
  const failure = failureOf(pattern);
  let longest = 0;
  for (let i = start, k = 0; i < lines.length; i += 1) {
    while (k > 0 && lines[i] !== pattern[k]) k = failure[k - 1] as number;
    if (lines[i] === pattern[k]) k += 1;
    if (k > longest) longest = k;
    if (k === pattern.length) return { at: i - k + 1, longest };
  }
  return { at: -1, longest };
}

/**
 * Where `pattern` occurs in `lines` at or after `start` (0-based), trying each pass of {@link PASSES}
 * over the whole range before the next. With `endOfFile` only the position that ends the file is
 * tried (as Codex's `seek_sequence` does), and only if it is not before `start`. An empty pattern is
 * at `start`. -1 when it is nowhere.
 */
export function seekLines(lines: readonly string[], pattern: readonly string[], start: number, endOfFile = false): number {
  if (pattern.length === 0) return start;
  const last = lines.length - pattern.length;
  if (last < 0) return -1;
  const from = endOfFile ? Math.max(last, start) : start;
  for (let pass = 0; pass < PASSES.length; pass += 1) {
    const key = PASSES[pass];
    const keys = keysOf(lines, pass);
    const wanted = key === undefined ? pattern : pattern.map(key);
    if (endOfFile) {
      if (from === last && wanted.every((line, k) => keys[last + k] === line)) return last;
      continue;
    }
    const found = scan(keys, wanted, from).at;
    if (found !== -1) return found;
  }
  return -1;
}

/** The first line of `pattern` (searched from `start`) after which the file stops following it: what to quote in a `no_match`. */
function firstMissingLine(lines: readonly string[], pattern: readonly string[], start: number): { line: string; after?: number } {
  // The longest prefix the loosest pass finds (every other pass's matches are its matches too), then
  // where the passes, in order, find that prefix first.
  const loosest = PASSES.length - 1;
  const { longest } = scan(keysOf(lines, loosest), pattern.map(PASSES[loosest] as (line: string) => string), start);
  const length = Math.min(longest, pattern.length - 1);
  if (length === 0) return { line: pattern[0] as string };
  return { line: pattern[length] as string, after: seekLines(lines, pattern.slice(0, length), start) + length };
}

interface Replacement {
  at: number;
  remove: number;
  insert: string[];
}

/** The rest of a unified diff's hunk header after its first "@@ " (`-1,2 +1,3 @@`, with any text after it): what a model used to `diff -u` writes. */
const UNIFIED_RANGES = /^-\d+(,\d+)? \+\d+(,\d+)? @@/;

/** One line a chunk writes: its text, and for a context line the index of its old line (whose file text it keeps). */
interface Written {
  text: string;
  old: number | null;
}

function writtenLines(chunk: PatchChunk): Written[] {
  const out: Written[] = [];
  let old = 0;
  let added = 0;
  for (const kind of chunk.kinds) {
    if (kind === '-') old += 1;
    else if (kind === '+') out.push({ text: chunk.newLines[added++] as string, old: null });
    else {
      out.push({ text: chunk.newLines[added++] as string, old });
      old += 1;
    }
  }
  return out;
}

/** How many of a hunk's old lines a `no_match` quotes: a 100,000-line hunk would otherwise make a 300 KB message. */
const QUOTED_HUNK_LINES = 50;

/** The hunk's old lines as a `no_match` quotes them: the first {@link QUOTED_HUNK_LINES}, then how many more there are. */
function quotedOldLines(oldLines: readonly string[]): string {
  const more = oldLines.length - QUOTED_HUNK_LINES;
  if (more <= 0) return oldLines.join('\n');
  return `${oldLines.slice(0, QUOTED_HUNK_LINES).join('\n')}\n[… ${more} more line${more === 1 ? '' : 's'} of the hunk not quoted]`;
}

function noMatch(lines: readonly string[], chunk: PatchChunk, cursor: number, where: string, hunk: string): ToolError {
  const missing = chunk.endOfFile ? { line: chunk.oldLines[chunk.oldLines.length - 1] as string } : firstMissingLine(lines, chunk.oldLines, cursor);
  const place = chunk.endOfFile
    ? 'at the end of the file (the hunk is marked "*** End of File")'
    : missing.after !== undefined
      ? `after line ${missing.after}, where the hunk's earlier lines match`
      : cursor > 0
        ? `at or after line ${cursor + 1}`
        : 'anywhere';
  const quoted = chunk.endOfFile ? 'the hunk\'s lines were not found' : `the line ${quoteForMessage(missing.line, { json: true })} was not found`;
  return new ToolError(
    'no_match',
    `Failed to find expected lines in ${where}:\n${quotedOldLines(chunk.oldLines)}\n` +
      `(${hunk}: ${quoted} ${place}, compared exactly, then ignoring trailing and surrounding whitespace, then typographic punctuation). ` +
      'Nothing was changed. Read the file and copy the context lines exactly.',
  );
}

/**
 * Where each chunk goes, located in order as Codex's applier does: a chunk's `@@` context line is
 * found first (from the previous chunk's end, by the same passes), then its old lines with
 * {@link seekLines} from there; if they are not found and end with an empty line (which often stands
 * for the file's final line break), they are sought again without it (and the written lines lose a
 * final empty line too). A chunk with no old lines is a pure addition: after its context line when it
 * has one, else at the end of the file (before a final empty line). Context lines keep the file's own
 * text where they were matched loosely.
 */
function locateChunks(lines: readonly string[], chunks: readonly PatchChunk[], path: string): Replacement[] {
  const where = quoteForMessage(path);
  const replacements: Replacement[] = [];
  let cursor = 0;
  chunks.forEach((chunk, index) => {
    const hunk = `hunk ${index + 1} of ${chunks.length}`;
    if (chunk.context !== undefined) {
      const at = seekLines(lines, [chunk.context], cursor);
      if (at === -1) {
        throw new ToolError(
          'no_match',
          `Failed to find context ${quoteForMessage(chunk.context, { json: true })} in ${where} (${hunk}: the line after "@@" ` +
            `was not found${cursor > 0 ? ` after line ${cursor}` : ''}). Nothing was changed. ` +
            (UNIFIED_RANGES.test(chunk.context)
              ? 'That is a unified diff\'s line range: this patch format takes no ranges; write "@@" alone, or "@@" and a line of the file (a function\'s or class\'s first line) before the hunk.'
              : 'Read the file and copy the line exactly.'),
        );
      }
      cursor = at + 1;
    }
    let written = writtenLines(chunk);
    if (chunk.oldLines.length === 0) {
      const end = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
      replacements.push({ at: chunk.context !== undefined ? cursor : end, remove: 0, insert: written.map((w) => w.text) });
      return;
    }
    let pattern = chunk.oldLines;
    let at = seekLines(lines, pattern, cursor, chunk.endOfFile);
    if (at === -1 && pattern[pattern.length - 1] === '') {
      pattern = pattern.slice(0, -1);
      if (written.length > 0 && written[written.length - 1]?.text === '') written = written.slice(0, -1);
      at = seekLines(lines, pattern, cursor, chunk.endOfFile);
    }
    if (at === -1) throw noMatch(lines, chunk, cursor, where, hunk);
    const insert = written.map((w) => (w.old !== null && w.old < pattern.length ? (lines[at + w.old] as string) : w.text));
    replacements.push({ at, remove: pattern.length, insert });
    cursor = at + pattern.length;
  });
  return replacements;
}

/**
 * Applies the chunks of a V4A update to `text` (a file's content without its BOM) and returns the new
 * text; the chunks are located by {@link locateChunks}. Lines keep their own endings; new lines take
 * the ending of the line they replace, else the file's dominant one (so CRLF files stay CRLF), and a
 * file without a final line break keeps having none.
 *
 * Errors: `no_match` in Codex's words ("Failed to find expected lines in <path>:" and the hunk's old
 * lines, or "Failed to find context ..."), then the hunk's number and the first line the file does
 * not have.
 */
export function applyChunks(text: string, chunks: readonly PatchChunk[], path: string): string {
  const { lines, endings } = splitLines(text);
  const dominant = detectLineEnding(text);
  const fallback = dominant === 'crlf' ? '\r\n' : dominant === 'cr' ? '\r' : '\n';
  const replacements = locateChunks(lines, chunks, path);
  // Pure additions at the end of the file may stand before chunks found earlier in the file: put every
  // replacement in file order (a stable sort keeps the patch's order at one place).
  replacements.sort((a, b) => a.at - b.at);
  const outLines: string[] = [];
  const outEndings: string[] = [];
  let next = 0;
  const finalEnding = lines.length > 0 ? (endings[lines.length - 1] as string) : fallback;
  for (const replacement of replacements) {
    const { remove, insert } = replacement;
    // A pure addition at the end of the file that a hunk ending there has already passed goes after it.
    const at = remove === 0 && replacement.at < next ? next : replacement.at;
    if (at < next) throw new ToolError('no_match', `two hunks of ${quoteForMessage(path)} change the same lines (at line ${at + 1}); merge them into one hunk. Nothing was changed.`);
    for (; next < at; next += 1) {
      outLines.push(lines[next] as string);
      outEndings.push(endings[next] as string);
    }
    const ending = remove > 0 && endings[at] ? (endings[at] as string) : fallback;
    for (const line of insert) {
      outLines.push(line);
      outEndings.push(ending);
    }
    next = at + remove;
  }
  for (; next < lines.length; next += 1) {
    outLines.push(lines[next] as string);
    outEndings.push(endings[next] as string);
  }
  // Only the file's last line may lack an ending, and it keeps the file's choice.
  for (let i = 0; i < outEndings.length - 1; i += 1) if (outEndings[i] === '') outEndings[i] = fallback;
  if (outEndings.length > 0) outEndings[outEndings.length - 1] = finalEnding;
  let out = '';
  for (let i = 0; i < outLines.length; i += 1) out += (outLines[i] as string) + (outEndings[i] as string);
  return out;
}
