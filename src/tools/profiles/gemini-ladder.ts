/**
 * Gemini CLI's forgiving matches for `replace`, tried in order once the exact match found nothing:
 *
 * 1. **flexible**: old_string's lines equal the file's lines once each is trimmed; new_string is
 *    re-indented to the indentation of the first matched line (its own relative indentation kept).
 * 2. **whitespace-tolerant**: old_string's tokens (split at whitespace and around `( ) : [ ] { } > < =`)
 *    appear in order from the start of a line (after its indentation) with any whitespace, or none,
 *    between them; the matched text is replaced by new_string re-indented the same way.
 * 3. **fuzzy**: windows of as many lines as old_string whose edit distance to it, whitespace weighted
 *    at a tenth, is at most 10 % of its length (old_string of 10 characters or more). Non-overlapping
 *    windows are taken best first.
 *
 * All work on LF text. Each step is bounded: the first two are one pass over the lines (a line stops
 * at its first difference); the fuzzy step slides a character histogram over the file (linear) and
 * computes a banded edit distance only for windows the histogram cannot rule out, within a work budget,
 * yielding to the event loop between slices (see {@link Pace}).
 */
import { NO_PACE, type Pace } from '../edit/pace.js';
import { fuzzy } from './gemini-fuzzy.js';
import { indentationOf, reindent, splitLines, type LadderMatch, type Line } from './gemini-lines.js';

export { indentationOf, reindent, splitLines, type LadderMatch, type LadderStrategy, type Line } from './gemini-lines.js';

/** Fuzzy threshold: weighted distance at most this share of old_string's length (Gemini CLI's 10 %). */
export const FUZZY_THRESHOLD = 0.1;
/** Weight of a whitespace-only difference in the fuzzy distance (a tenth of another difference). */
const WHITESPACE_WEIGHT = 0.1;
/** Shortest old_string the fuzzy step considers (shorter ones would match too loosely). */
const FUZZY_MIN_CHARS = 10;
/** Longest old_string the fuzzy step considers, in characters (one window's distance is quadratic in this: at most about 3 million cells). */
export const FUZZY_MAX_CHARS = 4_000;
/** Most distance-matrix cells the fuzzy step computes in one call before it gives up (about 100 ms of work). */
const FUZZY_CELL_BUDGET = 60_000_000;
/** Steps between pace checks. */
const PACE_EVERY = 256;

const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;

/** Rung 1: per-line trimmed equality. */
async function flexible(text: string, lines: Line[], needle: string, replacement: string, pace: Pace): Promise<LadderMatch | null> {
  const wanted = needle.split('\n').map((l) => l.trim());
  const n = wanted.length;
  const newLines = replacement.split('\n');
  const spans: LadderMatch['spans'] = [];
  const first = wanted[0] as string;
  for (let i = 0; i + n <= lines.length; i += 1) {
    if (i % PACE_EVERY === 0 && pace.due()) await pace.pause();
    if (text.slice(lines[i]!.start, lines[i]!.end).trim() !== first) continue;
    let k = 1;
    while (k < n && text.slice(lines[i + k]!.start, lines[i + k]!.end).trim() === wanted[k]) k += 1;
    if (k < n) continue;
    const indent = indentationOf(text, lines[i]!);
    // An empty new_string removes the matched lines, their line break included (as Gemini CLI).
    const last = lines[i + n - 1]!;
    const end = replacement === '' && last.end < text.length ? last.end + 1 : last.end;
    spans.push({ start: lines[i]!.start, end, replacement: replacement === '' ? '' : reindent(newLines, indent).join('\n'), line: i + 1, endLine: i + n });
    i += n - 1;
  }
  return spans.length > 0 ? { strategy: 'flexible', spans } : null;
}

const DELIMITERS = new Set(['(', ')', ':', '[', ']', '{', '}', '>', '<', '=']);

/** old_string's tokens: split at whitespace, each delimiter a token of its own. */
export function tokensOf(needle: string): string[] {
  const tokens: string[] = [];
  let current = '';
  for (const ch of needle) {
    if (isBlank(ch.charCodeAt(0))) {
      if (current) tokens.push(current);
      current = '';
    } else if (DELIMITERS.has(ch)) {
      if (current) tokens.push(current);
      tokens.push(ch);
      current = '';
    } else current += ch;
  }
  if (current) tokens.push(current);
  return tokens;
}

/** Where the tokens match from `from` (whitespace, or none, between them), or -1. Linear in the matched text. */
function matchTokens(text: string, from: number, tokens: readonly string[]): number {
  let at = from;
  for (let t = 0; t < tokens.length; t += 1) {
    if (t > 0) while (at < text.length && isBlank(text.charCodeAt(at))) at += 1;
    const token = tokens[t] as string;
    if (!text.startsWith(token, at)) return -1;
    at += token.length;
  }
  return at;
}

/** Rung 2: tokens in order with flexible whitespace, from the start of a line. */
async function whitespaceTolerant(text: string, lines: Line[], needle: string, replacement: string, pace: Pace): Promise<LadderMatch | null> {
  const tokens = tokensOf(needle);
  if (tokens.length === 0) return null;
  const newLines = replacement.split('\n');
  const spans: LadderMatch['spans'] = [];
  let lineIndex = 0;
  let lastEnd = -1;
  for (let i = 0; i < lines.length; i += 1) {
    if (i % PACE_EVERY === 0 && pace.due()) await pace.pause();
    const line = lines[i]!;
    if (line.start < lastEnd) continue;
    const indent = indentationOf(text, line);
    const end = matchTokens(text, line.start + indent.length, tokens);
    if (end < 0) continue;
    while (lineIndex < lines.length && lines[lineIndex]!.end < end) lineIndex += 1;
    spans.push({ start: line.start, end, replacement: reindent(newLines, indent).join('\n'), line: i + 1, endLine: Math.max(i, lineIndex) + 1 });
    lastEnd = end;
  }
  return spans.length > 0 ? { strategy: 'whitespace', spans } : null;
}

export { fuzzy } from './gemini-fuzzy.js';

/**
 * Runs the ladder's rungs after the exact match (flexible, whitespace-tolerant, fuzzy) over `textLf`
 * for `needleLf` → `replacementLf`; the first rung that matches decides. Null when none does, and
 * for a blank `needleLf` (only the exact match places whitespace).
 */
export async function matchLadder(textLf: string, needleLf: string, replacementLf: string, pace: Pace = NO_PACE): Promise<LadderMatch | null> {
  // Only the exact match locates whitespace: trimmed, a blank old_string equals every blank line
  // (and the empty end after a final newline), which locates nothing the model meant.
  if (needleLf.trim() === '') return null;
  const lines = splitLines(textLf);
  return (
    (await flexible(textLf, lines, needleLf, replacementLf, pace)) ??
    (await whitespaceTolerant(textLf, lines, needleLf, replacementLf, pace)) ??
    (needleLf.length >= FUZZY_MIN_CHARS && needleLf.length <= FUZZY_MAX_CHARS
      ? await fuzzy(textLf, lines, needleLf, replacementLf, pace, { threshold: FUZZY_THRESHOLD, whitespaceWeight: WHITESPACE_WEIGHT, cellBudget: FUZZY_CELL_BUDGET })
      : null)
  );
}

/** `textLf` with the match's spans replaced. */
export function applyLadder(textLf: string, match: LadderMatch): string {
  let out = '';
  let at = 0;
  for (const span of match.spans) {
    out += textLf.slice(at, span.start) + span.replacement;
    at = span.end;
  }
  return out + textLf.slice(at);
}

