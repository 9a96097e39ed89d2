import { ToolError } from '../../core/errors.js';
import { detectLineEnding, quoteForMessage, splitLines } from '../../fs/text.js';
import type { PatchChunk } from './parse.js';

type Compare = (fileLine: string, patchLine: string) => boolean;

/**
 * The three ways a hunk's lines are compared with the file's, tried in this order as Codex's
 * apply_patch does: exactly, then ignoring trailing whitespace, then ignoring whitespace at both ends.
 */
const PASSES: readonly Compare[] = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
];

function matchesAt(lines: readonly string[], pattern: readonly string[], at: number, same: Compare): boolean {
  for (let k = 0; k < pattern.length; k += 1) {
    if (!same(lines[at + k] as string, pattern[k] as string)) return false;
  }
  return true;
}

/**
 * Where `pattern` occurs in `lines` at or after `start` (0-based), trying each pass of {@link PASSES}
 * over the whole range before the next; with `endOfFile` the position that ends the file is tried
 * first. -1 when it is nowhere.
 */
export function seekLines(lines: readonly string[], pattern: readonly string[], start: number, endOfFile = false): number {
  if (pattern.length === 0) return start;
  const last = lines.length - pattern.length;
  if (last < 0) return -1;
  for (const same of PASSES) {
    if (endOfFile && last >= start && matchesAt(lines, pattern, last, same)) return last;
    for (let i = start; i <= last; i += 1) if (matchesAt(lines, pattern, i, same)) return i;
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

/**
 * Applies the chunks of a V4A update to `text` (a file's content without its BOM) and returns the new
 * text. Chunks are located in order, each after the previous one: a chunk's `@@` context line is found
 * first (by the same passes), then its old lines, with {@link seekLines}; a chunk without old lines is
 * inserted after its context line, or at the end of the file. Lines keep their own endings; new lines
 * take the ending of the line they replace, else the file's dominant one (so CRLF files stay CRLF),
 * and a file without a final line break keeps having none.
 *
 * Errors: `no_match` quoting the context header or the first hunk line the file does not have
 * (with the line after which the hunk stopped matching), and the hunk's number.
 */
export function applyChunks(text: string, chunks: readonly PatchChunk[], path: string): string {
  const { lines, endings } = splitLines(text);
  const dominant = detectLineEnding(text);
  const fallback = dominant === 'crlf' ? '\r\n' : dominant === 'cr' ? '\r' : '\n';
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
          `${hunk} of ${where} does not apply: its context line ${quoteForMessage(chunk.context, { json: true })} (after "@@") ` +
            `was not found${cursor > 0 ? ` after line ${cursor}` : ''}; nothing was changed. Read the file and copy the line exactly.`,
        );
      }
      cursor = at + 1;
    }
    let oldLines = chunk.oldLines;
    let newLines = chunk.newLines;
    let kinds = chunk.kinds;
    if (oldLines.length === 0) {
      replacements.push({ at: chunk.context !== undefined ? cursor : lines.length, remove: 0, insert: newLines });
      return;
    }
    let at = seekLines(lines, oldLines, cursor, chunk.endOfFile);
    if (at === -1 && oldLines[oldLines.length - 1] === '') {
      // A trailing empty context line often stands for the file's final line break.
      oldLines = oldLines.slice(0, -1);
      if (newLines[newLines.length - 1] === '') newLines = newLines.slice(0, -1);
      const lastContext = kinds.lastIndexOf(' ');
      if (lastContext !== -1) kinds = [...kinds.slice(0, lastContext), ...kinds.slice(lastContext + 1)];
      at = oldLines.length === 0 ? lines.length : seekLines(lines, oldLines, cursor, chunk.endOfFile);
    }
    if (at === -1) {
      const missing = firstMissingLine(lines, chunk.oldLines, cursor);
      const place =
        missing.after !== undefined
          ? `after line ${missing.after}, where the hunk's earlier lines match`
          : cursor > 0
            ? `at or after line ${cursor + 1}`
            : 'anywhere';
      throw new ToolError(
        'no_match',
        `${hunk} of ${where} does not apply: the line ${quoteForMessage(missing.line, { json: true })} was not found ${place} ` +
          '(compared exactly, then ignoring trailing and surrounding whitespace); nothing was changed. Read the file and copy the context lines exactly.',
      );
    }
    // Context lines matched loosely keep the file's own text; only "+" lines come from the patch.
    const insert: string[] = [];
    let oldAt = at;
    let added = 0;
    for (const kind of kinds) {
      if (kind === ' ') {
        insert.push(lines[oldAt] as string);
        oldAt += 1;
        added += 1;
      } else if (kind === '-') oldAt += 1;
      else {
        insert.push(newLines[added] as string);
        added += 1;
      }
    }
    replacements.push({ at, remove: oldLines.length, insert });
    cursor = at + oldLines.length;
  });

  // Hunks are found in order, except pure additions without a context header, which go at the end of
  // the file wherever they stand in the patch (as Codex's applier places them): put every replacement
  // in file order (a stable sort keeps the patch's order at one place).
  replacements.sort((a, b) => a.at - b.at);
  const outLines: string[] = [];
  const outEndings: string[] = [];
  let next = 0;
  const finalEnding = lines.length > 0 ? (endings[lines.length - 1] as string) : fallback;
  for (const { at, remove, insert } of replacements) {
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
