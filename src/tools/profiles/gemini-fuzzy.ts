/**
 * The fuzzy rung of Gemini's `replace` ladder (see gemini-ladder.ts): windows of as many lines as
 * old_string scored by edit distance, whitespace differences weighted at a tenth. Bounded: a sliding
 * character and bigram count over the whitespace-free text rules out, in linear time, every window
 * whose distance must exceed the threshold (an edit changes at most two bigrams and one character
 * count); the windows left get a banded edit distance that stops as soon as the band is exceeded,
 * within a total budget of matrix cells (past it the rung gives up and reports no match).
 */
import type { Pace } from '../edit/pace.js';
import { indentationOf, reindent, type LadderMatch, type Line } from './gemini-lines.js';

/** Options of {@link fuzzy}. */
export interface FuzzyOptions {
  threshold: number;
  whitespaceWeight: number;
  cellBudget: number;
}

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
const stripSpaces = (s: string): string => s.replace(/\s/g, '');
/** Hash buckets of the character and bigram counts: small tables stay in cache; a collision only makes the filter looser, never wrong. */
const CHAR_BUCKETS = 1 << 10;
const BIGRAM_BUCKETS = 1 << 12;
const charKey = (c: number): number => c & (CHAR_BUCKETS - 1);
const bigramKey = (a: number, b: number): number => (a * 31 + b) & (BIGRAM_BUCKETS - 1);

/**
 * Levenshtein distance of `a` and `b` if it is at most `k`, else `k + 1`; counts its cells in `work`.
 * Only the diagonal band of width 2k+1 is computed, and it stops once a whole row exceeds `k`.
 */
export function boundedDistance(a: string, b: string, k: number, work: { cells: number }): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > k) return k + 1;
  if (n === 0 || m === 0) return Math.max(n, m);
  const big = k + 1;
  let prev = new Int32Array(m + 1).fill(big);
  let curr = new Int32Array(m + 1).fill(big);
  for (let j = 0; j <= Math.min(m, k); j += 1) prev[j] = j;
  for (let i = 1; i <= n; i += 1) {
    const lo = Math.max(1, i - k);
    const hi = Math.min(m, i + k);
    curr.fill(big, Math.max(0, lo - 1), Math.min(m, hi + 1) + 1);
    curr[0] = i <= k ? i : big;
    let rowMin = curr[0] as number;
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j += 1) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      let v = (prev[j - 1] as number) + cost;
      const del = (prev[j] as number) + 1;
      const ins = (curr[j - 1] as number) + 1;
      if (del < v) v = del;
      if (ins < v) v = ins;
      if (v > big) v = big;
      curr[j] = v;
      if (v < rowMin) rowMin = v;
    }
    work.cells += hi - lo + 1;
    if (rowMin > k) return big;
    const swap = prev;
    prev = curr;
    curr = swap;
  }
  return Math.min(prev[m] as number, big);
}

/** The whitespace-free text of `text` with, for each line, where its characters start in it (`starts[lines.length]` is the end). */
function strippedIndex(text: string, lines: readonly Line[]): { codes: Uint16Array; starts: Int32Array } {
  const codes = new Uint16Array(text.length);
  const starts = new Int32Array(lines.length + 1);
  let n = 0;
  for (let l = 0; l < lines.length; l += 1) {
    starts[l] = n;
    const line = lines[l] as Line;
    for (let i = line.start; i < line.end; i += 1) {
      const c = text.charCodeAt(i);
      if (!isSpace(c)) codes[n++] = c;
    }
  }
  starts[lines.length] = n;
  return { codes, starts };
}

/** Counts of `needle`'s characters and (hashed) bigrams, for the sliding filter. */
function needleCounts(stripped: string): { chars: Int32Array; bigrams: Int32Array } {
  const chars = new Int32Array(CHAR_BUCKETS);
  const bigrams = new Int32Array(BIGRAM_BUCKETS);
  for (let i = 0; i < stripped.length; i += 1) {
    chars[charKey(stripped.charCodeAt(i))]! += 1;
    if (i > 0) bigrams[bigramKey(stripped.charCodeAt(i - 1), stripped.charCodeAt(i))]! += 1;
  }
  return { chars, bigrams };
}

/**
 * The fuzzy rung: windows of old_string's line count scored as Gemini CLI does, the best
 * non-overlapping ones at or under the threshold replaced by new_string re-indented to their first line.
 */
export async function fuzzy(text: string, lines: Line[], needle: string, replacement: string, pace: Pace, options: FuzzyOptions): Promise<LadderMatch | null> {
  const searchLines = (needle.endsWith('\n') ? needle.slice(0, -1) : needle).split('\n').map((l) => l.trimEnd());
  const n = searchLines.length;
  const block = searchLines.join('\n');
  const total = block.length;
  if (n > lines.length || total === 0) return null;
  const k = Math.floor(options.threshold * total);
  const blockStripped = stripSpaces(block);
  const want = needleCounts(blockStripped);
  const { codes, starts } = strippedIndex(text, lines);
  // Sliding counts over the stripped text of lines [i, i + n): how many of the needle's characters and bigrams the window shares.
  const haveChars = new Int32Array(CHAR_BUCKETS);
  const haveBigrams = new Int32Array(BIGRAM_BUCKETS);
  const wantChars = want.chars;
  const wantBigrams = want.bigrams;
  let sharedChars = 0;
  let sharedBigrams = 0;
  let lo = starts[0] as number;
  let hi = lo; // the window covers codes[lo, hi)
  const moveTo = (from: number, to: number): void => {
    for (; hi < to; hi += 1) {
      const c = charKey(codes[hi] as number);
      if (haveChars[c]! < wantChars[c]!) sharedChars += 1;
      haveChars[c]! += 1;
      if (hi > lo) {
        const g = bigramKey(codes[hi - 1] as number, codes[hi] as number);
        if (haveBigrams[g]! < wantBigrams[g]!) sharedBigrams += 1;
        haveBigrams[g]! += 1;
      }
    }
    for (; lo < from; lo += 1) {
      const c = charKey(codes[lo] as number);
      haveChars[c]! -= 1;
      if (haveChars[c]! < wantChars[c]!) sharedChars -= 1;
      if (lo + 1 < hi) {
        const g = bigramKey(codes[lo] as number, codes[lo + 1] as number);
        haveBigrams[g]! -= 1;
        if (haveBigrams[g]! < wantBigrams[g]!) sharedBigrams -= 1;
      }
    }
  };
  const sLen = blockStripped.length;
  const work = { cells: 0 };
  const candidates: Array<{ index: number; score: number }> = [];
  for (let i = 0; i + n <= lines.length; i += 1) {
    if ((i & 255) === 0 && pace.due()) await pace.pause();
    moveTo(starts[i] as number, starts[i + n] as number);
    const wLen = hi - lo;
    // An edit changes one character count (two for a substitution, shared once) and at most two bigrams.
    if (Math.max(sLen, wLen) - sharedChars > k) continue;
    if (sLen - 1 - sharedBigrams > 2 * k) continue;
    const windowText = sliceWindow(text, lines, i, n);
    if (Math.abs(windowText.length - total) / total > options.threshold / options.whitespaceWeight) continue;
    const dNorm = boundedDistance(stripSpaces(windowText), blockStripped, k, work);
    if (dNorm > k) continue;
    // weighted = dNorm + (dRaw - dNorm) * w <= threshold * total bounds dRaw.
    const rawBound = Math.floor(dNorm + (options.threshold * total - dNorm) / options.whitespaceWeight);
    const dRaw = boundedDistance(windowText, block, rawBound, work);
    const score = (dNorm + (dRaw - dNorm) * options.whitespaceWeight) / total;
    if (score <= options.threshold) candidates.push({ index: i, score });
    if (work.cells > options.cellBudget) return null;
    // A distance can take a few ms: check the slice after each one, not only every 256 windows.
    if (pace.due()) await pace.pause();
  }
  return pick(text, lines, candidates, n, replacement);
}

function sliceWindow(text: string, lines: readonly Line[], i: number, n: number): string {
  const parts: string[] = [];
  for (let l = i; l < i + n; l += 1) parts.push(text.slice((lines[l] as Line).start, (lines[l] as Line).end).trimEnd());
  return parts.join('\n');
}

/** The best non-overlapping candidates (lowest score, then earliest), as spans in file order. */
function pick(text: string, lines: readonly Line[], candidates: Array<{ index: number; score: number }>, n: number, replacement: string): LadderMatch | null {
  if (candidates.length === 0) return null;
  candidates.sort((a, b) => a.score - b.score || a.index - b.index);
  const chosen: Array<{ index: number; score: number }> = [];
  for (const c of candidates) if (!chosen.some((m) => Math.abs(m.index - c.index) < n)) chosen.push(c);
  chosen.sort((a, b) => a.index - b.index);
  const newLines = replacement.split('\n');
  const spans = chosen.map((c) => {
    const first = lines[c.index] as Line;
    const last = lines[c.index + n - 1] as Line;
    return { start: first.start, end: last.end, replacement: reindent(newLines, indentationOf(text, first)).join('\n'), line: c.index + 1, endLine: c.index + n, score: c.score };
  });
  return { strategy: 'fuzzy', spans };
}
