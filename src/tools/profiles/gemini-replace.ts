/**
 * The work of Gemini's `replace` beyond `edit_file`: the omission-placeholder refusal, the forgiving
 * ladder after an exact miss (gemini-ladder.ts), ambiguity errors that show where the matches are, and
 * the refusal of fuzzy matches at several places whose text differs (allow_multiple never fans out to them).
 * Every write still goes through `edit_file` (path lock, `stale_file`, atomic write, line-break style, BOM).
 */
import { ToolError } from '../../core/errors.js';
import type { ToolContext } from '../../core/tool.js';
import { decodeText } from '../../fs/text.js';
import { resolveWorkspacePath } from '../../fs/paths.js';
import { EDIT_MAX_FILE_BYTES, editFileTool, type EditFileArgs, type EditFileResult } from '../edit-file.js';
import { toLf } from '../edit/match.js';
import { createPace } from '../edit/pace.js';
import { applyLadder, matchLadder, type LadderMatch, type LadderStrategy } from './gemini-ladder.js';
import { newOmissionPlaceholder } from './gemini-placeholders.js';

/** Arguments of Gemini's `replace`. */
export interface GeminiReplaceArgs {
  file_path: string;
  instruction?: string;
  old_string: string;
  new_string: string;
  allow_multiple?: boolean;
}

/** Result of Gemini's `replace`: edit_file's, plus how old_string was matched when it was not exact. */
export interface GeminiReplaceResult extends EditFileResult {
  /** The forgiving match that found old_string (absent for an exact match). */
  strategy?: LadderStrategy;
  /** Says where a non-exact match was applied ("Applied fuzzy match at lines 12-15."). */
  note?: string;
}

/** Most match locations an ambiguity error shows with the lines around them. */
export const AMBIGUITY_CONTEXT_MAX = 3;

/** Refuses an omission placeholder in `text` that `kept` does not hold already (Gemini CLI's refusal). */
export function refusePlaceholder(param: 'new_string' | 'content', text: string, kept: string | undefined): void {
  const found = newOmissionPlaceholder(text, kept);
  if (found === undefined) return;
  const what = param === 'content' ? 'Provide the complete file content' : 'Provide the exact literal replacement text';
  throw new ToolError(
    'invalid_arguments',
    `${param} contains an omission placeholder ('${found}'), which would delete the code it stands for; nothing was written. ` +
      `${what} (read_file shows the current code).`,
    { placeholder: found },
  );
}

async function delegateEdit(args: EditFileArgs, ctx: ToolContext): Promise<EditFileResult> {
  return editFileTool.execute(args, ctx);
}

/** Line numbers (1-based) where each of `starts` falls in `textLf`. */
function lineNumbers(textLf: string, starts: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let next = textLf.indexOf('\n');
  for (const start of starts) {
    while (next >= 0 && next < start) {
      line += 1;
      next = textLf.indexOf('\n', next + 1);
    }
    out.push(line);
  }
  return out;
}

/** The ambiguity error: the count, and for up to three matches their line numbers with a line of context either side. */
function ambiguous(where: string, textLf: string, matchLines: ReadonlyArray<{ line: number; endLine: number }>): ToolError {
  const count = matchLines.length;
  let shown = '';
  if (count <= AMBIGUITY_CONTEXT_MAX) {
    const lines = textLf.split('\n');
    shown = matchLines
      .map(({ line, endLine }) => {
        const from = Math.max(1, line - 1);
        const to = Math.min(lines.length, endLine + 1);
        const body = lines.slice(from - 1, to).map((text, i) => `${from + i}: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`);
        return `lines ${line}-${endLine}:\n${body.join('\n')}`;
      })
      .join('\n');
    shown = `\nThe matches:\n${shown}`;
  }
  return new ToolError(
    'ambiguous_match',
    `Expected 1 occurrence but found ${count} for old_string in ${where}; nothing was changed. Add surrounding lines to old_string to make it unique, ` +
      `or set allow_multiple to true to replace every occurrence.${shown}`,
    { count, lines: matchLines.map((m) => m.line) },
  );
}

/** Most candidate line ranges the refusal of differing approximate matches names. */
export const APPROXIMATE_RANGES_MAX = 5;

/**
 * Whether the match's places may be replaced together: the flexible and whitespace rungs' places all
 * equal old_string under the rung's own normalisation (trimmed lines; tokens with any whitespace), so
 * they are the same code as each other; the fuzzy rung's places are only near old_string, and are the
 * same code only when their text is identical (trailing whitespace aside, as the rung compares lines).
 */
function sameText(textLf: string, match: LadderMatch): boolean {
  if (match.strategy !== 'fuzzy') return true;
  const windowText = (span: LadderMatch['spans'][number]): string =>
    textLf
      .slice(span.start, span.end)
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n');
  const first = windowText(match.spans[0]!);
  return match.spans.every((span) => windowText(span) === first);
}

/**
 * The refusal of a fuzzy match at several places whose text differs: they are different code, so
 * neither one of them nor all of them (allow_multiple) can be the edit meant. Names the closest few
 * line ranges and asks for the exact lines.
 */
function approximate(where: string, match: LadderMatch): ToolError {
  const count = match.spans.length;
  const closest = [...match.spans].sort((a, b) => (a.score ?? 0) - (b.score ?? 0) || a.line - b.line).slice(0, APPROXIMATE_RANGES_MAX);
  const ranges = closest.map((s) => (s.line === s.endLine ? `${s.line}` : `${s.line}-${s.endLine}`)).join(', ');
  const more = count > closest.length ? ` (and ${count - closest.length} more)` : '';
  return new ToolError(
    'ambiguous_match',
    `old_string was not found exactly in ${where}; it only approximately matches ${count} places whose text differs (a fuzzy match, ` +
      `closest first: lines ${ranges}${more}), so nothing was changed. These are different code, so allow_multiple does not apply to them. ` +
      `read_file the lines you mean, copy them exactly into old_string, and retry.`,
    { count, lines: match.spans.map((s) => s.line), strategy: match.strategy, approximate: true },
  );
}

/** Exact occurrences of `needle` in `textLf` as their first and last line numbers. */
function exactLocations(textLf: string, needle: string): Array<{ line: number; endLine: number }> {
  let starts = startsOf(textLf, needle, Math.max(needle.length, 1));
  // One without overlaps, yet refused as ambiguous, overlaps another (`aaa` in `aaaa`): both are shown.
  if (starts.length < 2) starts = startsOf(textLf, needle, 1, 2);
  const breaks = needle.split('\n').length - 1;
  return lineNumbers(textLf, starts).map((line) => ({ line, endLine: line + breaks }));
}

/** Where `needle` starts in `text`, each search `step` characters after the last start (1: overlaps counted), at most `max`. */
function startsOf(text: string, needle: string, step: number, max = Infinity): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf(needle); i >= 0 && starts.length < max; i = text.indexOf(needle, i + step)) starts.push(i);
  return starts;
}

/** How often `needle` occurs in `text`, counting up to 2. */
function occursOnce(text: string, needle: string): boolean {
  const first = text.indexOf(needle);
  return first >= 0 && text.indexOf(needle, first + 1) < 0;
}

/**
 * The smallest stretch of whole lines of `before` that differs from `after` and occurs once in it,
 * with its replacement: an edit_file call that makes exactly the ladder's change.
 */
export function minimalEdit(before: string, after: string): { old: string; replacement: string } {
  let prefix = 0;
  const limit = Math.min(before.length, after.length);
  while (prefix < limit && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (suffix < limit - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix += 1;
  let start = before.lastIndexOf('\n', prefix - 1) + 1;
  let end = before.indexOf('\n', before.length - suffix);
  if (end < 0) end = before.length;
  for (let widen = 0; ; widen += 1) {
    const old = before.slice(start, end);
    if ((old !== '' && occursOnce(before, old)) || (start === 0 && end === before.length)) {
      return { old, replacement: after.slice(start, after.length - (before.length - end)) };
    }
    if (widen >= 8) {
      start = 0;
      end = before.length;
      continue;
    }
    start = start === 0 ? 0 : before.lastIndexOf('\n', start - 2) + 1;
    const next = end >= before.length ? -1 : before.indexOf('\n', end + 1);
    end = next < 0 ? before.length : next;
  }
}

function ladderNote(match: LadderMatch): string {
  const ranges = match.spans.map((s) => (s.line === s.endLine ? `${s.line}` : `${s.line}-${s.endLine}`)).join(', ');
  const how = { flexible: 'a match ignoring indentation', whitespace: 'a whitespace-tolerant match', fuzzy: 'a fuzzy match' }[match.strategy];
  const plural = match.spans.length > 1 || match.spans[0]!.line !== match.spans[0]!.endLine;
  return `old_string was not found exactly; applied ${how} at line${plural ? 's' : ''} ${ranges}. Check the diff.`;
}

/**
 * Gemini CLI's `replace` on toolhost: placeholder refusal, then the exact match through edit_file,
 * then (on no_match) the forgiving ladder, whose change is written through edit_file as one unique span.
 */
export async function geminiReplace(args: GeminiReplaceArgs, ctx: ToolContext): Promise<GeminiReplaceResult> {
  refusePlaceholder('new_string', args.new_string, args.old_string);
  const multiple = args.allow_multiple === true;
  const exact = { file_path: args.file_path, old_string: args.old_string, new_string: args.new_string, replace_all: multiple };
  const current = args.old_string === '' || args.old_string === args.new_string ? undefined : await readTextLf(ctx, args.file_path);
  const needle = toLf(args.old_string);
  // No exact occurrence: the ladder first (edit_file's no_match hint is worked out only when the ladder finds nothing either).
  if (current !== undefined && !current.textLf.includes(needle)) {
    const match = await matchLadder(current.textLf, needle, toLf(args.new_string), createPace(ctx.signal));
    if (match !== null) {
      if (match.spans.length > 1 && !sameText(current.textLf, match)) throw approximate(current.path, match);
      if (match.spans.length > 1 && !multiple) throw ambiguous(current.path, current.textLf, match.spans);
      const { old, replacement } = minimalEdit(current.textLf, applyLadder(current.textLf, match));
      const written = await delegateEdit({ file_path: args.file_path, old_string: old, new_string: replacement }, ctx);
      return { ...written, replacements: match.spans.length, strategy: match.strategy, note: ladderNote(match) };
    }
  }
  try {
    return await delegateEdit(exact, ctx);
  } catch (error) {
    if (!(error instanceof ToolError) || current === undefined) throw error;
    if (error.code === 'ambiguous_match') throw ambiguous(current.path, current.textLf, exactLocations(current.textLf, needle));
    if (error.code === 'no_match') {
      throw new ToolError('no_match', `${error.message} No match ignoring indentation, whitespace or small differences either; read_file the lines and copy them exactly.`, error.details);
    }
    throw error;
  }
}

/** The file's path and LF text, or undefined when it cannot be read as text (edit_file then says why). */
async function readTextLf(ctx: ToolContext, filePath: string): Promise<{ path: string; textLf: string } | undefined> {
  try {
    const path = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, filePath);
    const stats = await ctx.fs.stat(path);
    if (!stats.isFile() || stats.size > EDIT_MAX_FILE_BYTES) return undefined;
    const decoded = decodeText(await ctx.fs.readFile(path));
    return decoded === null ? undefined : { path, textLf: toLf(decoded.text) };
  } catch {
    return undefined;
  }
}

/** Placeholder check for `write_file`: refused unless the file it overwrites already holds the same placeholder. */
export async function checkWritePlaceholders(filePath: string, content: string, ctx: ToolContext): Promise<void> {
  if (newOmissionPlaceholder(content, undefined) === undefined) return;
  let existing: string | undefined;
  try {
    const path = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, filePath);
    existing = decodeText(await ctx.fs.readFile(path))?.text;
  } catch {
    existing = undefined;
  }
  refusePlaceholder('content', content, existing);
}

