import { ToolError } from '../../core/errors.js';
import { detectLineEnding, quoteForMessage, splitLines } from '../../fs/text.js';
import type { PatchChunk } from './parse.js';

type Compare = (fileLine: string, patchLine: string) => boolean;

const PUNCTUATION: Readonly<Record<string, string>> = (() => {
  const map: Record<string, string> = {};
  for (const c of '\u2010\u2011\u2012\u2013\u2014\u2015\u2212') map[c] = '-';
  for (const c of '\u2018\u2019\u201A\u201B') map[c] = "'";
  for (const c of '\u201C\u201D\u201E\u201F') map[c] = '"';
  for (const c of '\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000') map[c] = ' ';
  return map;
})();
const PUNCTUATION_CHARS = /[\u2010-\u2015\u2212\u2018-\u201F\u00A0\u2002-\u200A\u202F\u205F\u3000]/g;
const HAS_PUNCTUATION = /[\u2010-\u2015\u2212\u2018-\u201F\u00A0\u2002-\u200A\u202F\u205F\u3000]/;

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
 * ends, then also treating typographic punctuation and Unicode spaces as their ASCII forms.
 */
const PASSES: readonly Compare[] = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
  (a, b) => {
    const x = a.trim();
    const y = b.trim();
    if (x === y) return true;
    // Lines without such punctuation that differ once trimmed differ here too: skip them cheaply.
    if (!HAS_PUNCTUATION.test(x) && !HAS_PUNCTUATION.test(y)) return false;
    return normalisePunctuation(x) === normalisePunctuation(y);
  },
];

function matchesAt(lines: readonly string[], pattern: readonly string[], at: number, same: Compare): boolean {
  for (let k = 0; k < pattern.length; k += 1) {
    if (!same(lines[at + k] as string, pattern[k] as string)) return false;
  }
  return true;
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
  for (const same of PASSES) {
    for (let i = from; i <= last; i += 1) if (matchesAt(lines, pattern, i, same)) return i;
  }
  return -1;
}

/** The first line of `pattern` (searched from `start`) after which the file stops following it: what to quote in a `no_match`. */
function firstMissingLine(lines: readonly string[], pattern: readonly string[], start: number): { line: string; after?: number } {
  for (let length = pattern.length - 1; length >= 1; length -= 1) {
    const at = seekLines(lines, pattern.slice(0, length), start);
    if (at !== -1) return { line: pattern[length] as string, after: at + length };
  }
  return { line: pattern[0] as string };
}

interface Replacement {
  at: number;
  remove: number;
  insert: string[];
}

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
    `Failed to find expected lines in ${where}:\n${chunk.oldLines.join('\n')}\n` +
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
            `was not found${cursor > 0 ? ` after line ${cursor}` : ''}). Nothing was changed. Read the file and copy the line exactly.`,
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
