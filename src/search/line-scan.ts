import { indexOfText } from './linear-find.js';
import type { LineMatcher as Matcher } from './dialect.js';
import { V8_LINE_LIMIT, type SearchPattern } from './dialect.js';
import { loadRe2Engine, re2Engine } from './re2-engine.js';

/** The first match of one matching line, as UTF-16 offsets into the file's text. */
export interface LineHit {
  /** Start of the line's first match; -1 when it was not asked for (only counted). */
  start: number;
  /** End of that match (-1 with `start`). */
  end: number;
  lineStart: number;
  /** Where the line's text ends (its line ending excluded). */
  lineEnd: number;
}

/** What {@link scanText} may spend. */
export interface ScanBudget {
  /** `Date.now()` value at which the scan stops and reports `stopped`. */
  deadline: number;
  /** Hits that need their match offsets (content output); later hits are only counted. */
  wantOffsets: number;
  /** Stop after this many hits (1 when only the file's name is wanted). */
  maxHits: number;
  /** Called now and then (about every {@link YIELD_EVERY_MS} ms of work) so the event loop can turn. */
  pause: () => Promise<void>;
}

/** Work between two `pause` calls, in ms. */
export const YIELD_EVERY_MS = 40;
/** Code units of text V8 matches in one call in `linear` mode. */
const LINEAR_CHUNK = 1 << 20;
/** Code units of short lines V8 matches in one call in `bounded` mode (≤ 16 Ki · 1 Ki steps). */
const BOUNDED_CHUNK = 1 << 14;

/**
 * Finds line breaks forward through one text (`\n`, `\r\n`, `\r`). Positions asked for never go
 * backwards, so the cached next-break positions make a whole pass linear.
 */
export class LineCursor {
  readonly hasCR: boolean;
  #nl = -1;
  #cr = -1;
  #lastCR = -1;
  #nextCR = -1;

  constructor(readonly text: string) {
    this.hasCR = text.indexOf('\r') !== -1;
  }

  /** The first `\n` or `\r` at or after `from`, or the text's length. */
  nextBreak(from: number): number {
    const text = this.text;
    if (this.#nl < from) {
      const nl = text.indexOf('\n', from);
      this.#nl = nl === -1 ? text.length : nl;
    }
    if (!this.hasCR) return this.#nl;
    if (this.#cr < from) {
      const cr = text.indexOf('\r', from);
      this.#cr = cr === -1 ? text.length : cr;
    }
    return Math.min(this.#nl, this.#cr);
  }

  /** Start of the line holding `pos` (`pos` never smaller than in the previous call). */
  lineStartOf(pos: number): number {
    const text = this.text;
    const nl = pos === 0 ? -1 : text.lastIndexOf('\n', pos - 1);
    if (!this.hasCR) return nl + 1;
    if (this.#nextCR === -1 && this.#lastCR === -1) this.#nextCR = text.indexOf('\r');
    while (this.#nextCR !== -1 && this.#nextCR < pos) {
      this.#lastCR = this.#nextCR;
      this.#nextCR = text.indexOf('\r', this.#nextCR + 1);
    }
    return Math.max(nl, this.#lastCR) + 1;
  }

  /** The first `\n` or `\r` at or after `from`, for any `from` (reads forward one character at a time). */
  nextBreakAny(from: number): number {
    const text = this.text;
    for (let i = from; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) return i;
    }
    return text.length;
  }

  /** Where the line after the break at `lineEnd` starts. */
  afterBreak(lineEnd: number): number {
    const text = this.text;
    return text.charCodeAt(lineEnd) === 13 && text.charCodeAt(lineEnd + 1) === 10 ? lineEnd + 2 : lineEnd + 1;
  }
}

/**
 * The hits of one scan: all are counted, the first `keep` kept (a file of five million matching lines
 * costs a counter, not five million objects).
 */
class HitList {
  readonly stored: LineHit[] = [];
  length = 0;

  constructor(readonly keep: number) {}

  push(hit: LineHit): void {
    if (this.stored.length < this.keep) this.stored.push(hit);
    this.length += 1;
  }

  /** Sets the line start of the hit pushed as number `index`, when it was kept. */
  setLineStart(index: number, lineStart: number): void {
    const hit = this.stored[index];
    if (hit) hit.lineStart = lineStart;
  }
}

/** What {@link scanText} found in one text. */
export interface ScanResult {
  /** The first `wantOffsets` matching lines (in order). */
  hits: LineHit[];
  /** Matching lines in all. */
  count: number;
  /** True when the deadline stopped the scan early. */
  stopped: boolean;
}

/** Work one re2js `find` may do: characters times program size (measured 20–60 ns a unit: ≤ 60 ms). */
const FIND_WORK = 1_000_000;

/**
 * re2js on one line: whether it matches (its DFA, fast), and where (its NFA, whose time is the line's
 * length times the program's size). A line too long for one bounded `find` is located window by window
 * (each window half overlapping the previous one, the deadline checked between them): the first
 * window holding a match gives it — the leftmost match unless it starts before a window and runs past
 * its end. Returns undefined for no match, [-1, -1] when offsets were not asked for, and `null` when
 * the deadline came first.
 */
function re2Hit(pattern: SearchPattern, matcher: { m?: Matcher }, line: string, offsets: boolean, deadline: number): [number, number] | undefined | null {
  const re2 = pattern.re2;
  if (!re2.test(line)) return undefined;
  if (!offsets) return [-1, -1];
  const window = Math.max(256, Math.floor(FIND_WORK / Math.max(1, re2.programSize())));
  for (let from = 0; ; from += window >> 1) {
    const part = line.length <= window ? line : line.slice(from, from + window);
    const m = matcher.m ? matcher.m.resetMatcherInput(part) : (matcher.m = re2.matcher(part));
    if (m.find()) return [from + m.start(), from + m.end()];
    if (from + window >= line.length) return [from, from];
    if (Date.now() >= deadline) return null;
  }
}

/**
 * Scans one text for the lines `pattern` matches, returning each matching line's first match in order
 * (see {@link LineHit}); lines end at `\n`, `\r\n` or `\r`, a final line ending adds no line. Runs the
 * pattern's {@link SearchPattern.mode}: `indexOf` for literals, V8 over runs of lines for `linear`
 * patterns, V8 on short lines and re2js on long ones for `bounded`, re2js per line for the rest; a
 * required literal first picks the candidate lines. Each engine call is bounded (a chunk of text, a
 * line of at most {@link V8_LINE_LIMIT} for V8's quadratic case, one line for re2js), the deadline is
 * checked between calls, and `pause` lets the event loop turn every {@link YIELD_EVERY_MS} ms. re2js
 * is loaded here when first needed (a `re2` pattern, a `bounded` pattern's long line).
 */
export async function scanText(text: string, pattern: SearchPattern, budget: ScanBudget): Promise<ScanResult> {
  const hits = new HitList(budget.wantOffsets);
  const cursor = new LineCursor(text);
  const length = text.length;
  const last = text.charCodeAt(length - 1);
  const endsWithBreak = last === 10 || last === 13;
  let stopped = false;
  let sliceStart = Date.now();
  let ops = 0;
  /** Returns true when the scan must stop. */
  const tick = async (weight = 1): Promise<boolean> => {
    ops += weight;
    if (ops < 64) return false;
    ops = 0;
    const now = Date.now();
    if (now >= budget.deadline) {
      stopped = true;
      return true;
    }
    if (now - sliceStart >= YIELD_EVERY_MS) {
      // Within a slice of the end: stop now rather than yield, since a busy machine can hand the thread
      // back only after the call's own deadline, which would then answer timeout instead of what was found.
      if (budget.deadline - now < YIELD_EVERY_MS) {
        stopped = true;
        return true;
      }
      await budget.pause();
      sliceStart = Date.now();
      if (Date.now() >= budget.deadline) {
        stopped = true;
        return true;
      }
    }
    return false;
  };
  const full = (): boolean => hits.length >= budget.maxHits;
  const wants = (): boolean => hits.length < budget.wantOffsets;
  const matcher: { m?: Matcher } = {};
  if (pattern.mode === 're2' && !re2Engine()) await loadRe2Engine();

  /** Matches one line with the pattern's per-line engines; records a hit. */
  /** Whether V8 matches a line of `length` (else re2js does). */
  const v8Runs = (length: number): boolean => pattern.mode === 'linear' || (pattern.mode === 'bounded' && length <= V8_LINE_LIMIT);
  const matchLine = (lineStart: number, lineEnd: number): void => {
    if (pattern.v8 && v8Runs(lineEnd - lineStart)) {
      const before = hits.length;
      v8Chunk(pattern.v8, text.slice(lineStart, lineEnd), lineStart, false, hits, before + 1);
      if (hits.length > before) hits.setLineStart(before, lineStart);
      return;
    }
    const found = re2Hit(pattern, matcher, text.slice(lineStart, lineEnd), wants(), budget.deadline);
    if (found === null) {
      stopped = true;
      return;
    }
    if (!found) return;
    const [s, e] = found;
    hits.push(s < 0 ? { start: -1, end: -1, lineStart, lineEnd } : { start: lineStart + s, end: lineStart + e, lineStart, lineEnd });
  };

  if (pattern.mode === 'literal' || pattern.required !== undefined) {
    const needle = (pattern.mode === 'literal' ? pattern.literal : pattern.required) as string;
    if (needle.includes('\n') || needle.includes('\r')) return { hits: hits.stored, count: hits.length, stopped };
    let from = 0;
    while (from <= length && !full() && !stopped) {
      const at = indexOfText(text, needle, from);
      if (at === -1) break;
      const lineStart = cursor.lineStartOf(at);
      const lineEnd = cursor.nextBreak(at + needle.length);
      if (pattern.mode === 'literal') hits.push({ start: at, end: at + needle.length, lineStart, lineEnd });
      else {
        if (!v8Runs(lineEnd - lineStart) && !re2Engine()) await loadRe2Engine();
        matchLine(lineStart, lineEnd);
      }
      from = cursor.afterBreak(lineEnd);
      if (await tick(pattern.mode === 'literal' ? 1 : 1 + (lineEnd - lineStart) / 256)) break;
    }
    return { hits: hits.stored, count: hits.length, stopped };
  }

  if (pattern.mode === 'linear' && pattern.v8) {
    const re = pattern.v8;
    let chunkStart = 0;
    while (chunkStart < length && !full()) {
      let chunkEnd = Math.min(length, chunkStart + LINEAR_CHUNK);
      if (chunkEnd < length) chunkEnd = cursor.afterBreak(cursor.nextBreak(chunkEnd));
      chunkEnd = Math.min(chunkEnd, length);
      const chunk = chunkStart === 0 && chunkEnd === length ? text : text.slice(chunkStart, chunkEnd);
      v8Chunk(re, chunk, chunkStart, chunkEnd === length && endsWithBreak, hits, budget.maxHits);
      chunkStart = chunkEnd;
      if (await tick(64)) break;
    }
    for (const hit of hits.stored) hit.lineStart = lineStartIn(text, hit.start);
    return { hits: hits.stored, count: hits.length, stopped };
  }

  // Line by line: V8 on runs of short lines (bounded), re2js on long lines and for re2 patterns.
  let lineStart = 0;
  while (lineStart < length && !full() && !stopped) {
    if (pattern.mode === 'bounded' && pattern.v8) {
      // Gather short lines into one chunk for V8.
      let chunkEnd = lineStart;
      let longLine: [number, number] | undefined;
      while (chunkEnd < length && chunkEnd - lineStart < BOUNDED_CHUNK) {
        const end = cursor.nextBreak(chunkEnd);
        if (end - chunkEnd > V8_LINE_LIMIT) {
          longLine = [chunkEnd, end];
          break;
        }
        chunkEnd = cursor.afterBreak(end);
      }
      if (chunkEnd > lineStart) {
        const end = Math.min(chunkEnd, length);
        v8Chunk(pattern.v8, text.slice(lineStart, end), lineStart, end === length && endsWithBreak, hits, budget.maxHits);
        lineStart = chunkEnd;
        if (await tick(64)) break;
        continue;
      }
      if (longLine) {
        if (!re2Engine()) await loadRe2Engine();
        matchLine(longLine[0], longLine[1]);
        lineStart = cursor.afterBreak(longLine[1]);
        if (await tick(64)) break;
        continue;
      }
    }
    const lineEnd = cursor.nextBreak(lineStart);
    matchLine(lineStart, lineEnd);
    const weight = 1 + (lineEnd - lineStart) / 64;
    lineStart = cursor.afterBreak(lineEnd);
    if (await tick(weight)) break;
  }
  for (const hit of hits.stored) if (hit.lineStart < 0) hit.lineStart = lineStartIn(text, hit.start);
  return { hits: hits.stored, count: hits.length, stopped };
}

/**
 * Runs V8 over `chunk` (whole lines of the text, from `offset`) with a `(p)[^\n\r]*` pattern, adding
 * each line's first match to `hits`. Skips what is no match in a line of its own: an empty match
 * between `\r` and `\n`, a second one at the end of a line already counted, one after the chunk's final
 * line break (the line after it, if any, starts the next chunk; `endsWithBreak` says so for a chunk
 * that is the text's end), and one V8 reports inside a surrogate pair.
 */
function v8Chunk(re: RegExp, chunk: string, offset: number, endsWithBreak: boolean, hits: HitList, maxHits: number): void {
  const last = chunk.charCodeAt(chunk.length - 1);
  if (last === 10 || last === 13) endsWithBreak = true;
  re.lastIndex = 0;
  let previousEnd = -1;
  for (;;) {
    const m = re.exec(chunk);
    if (m === null) return;
    const s = m.index;
    const lineEnd = s + (m[0] as string).length;
    const before = s > 0 ? chunk.charCodeAt(s - 1) : 0;
    const here = chunk.charCodeAt(s);
    const midBreak = before === 13 && here === 10;
    const midPair = before >= 0xd800 && before <= 0xdbff && here >= 0xdc00 && here <= 0xdfff;
    if (midBreak || midPair || s === previousEnd || (s === chunk.length && endsWithBreak)) {
      re.lastIndex = s + 1;
      if (s + 1 > chunk.length) return;
      continue;
    }
    if (lineEnd === s) re.lastIndex = s + 1;
    previousEnd = lineEnd;
    hits.push({ start: offset + s, end: offset + s + (m[1] as string).length, lineStart: -1, lineEnd: offset + lineEnd });
    if (hits.length >= maxHits || re.lastIndex > chunk.length) return;
  }
}

/** Start of the line holding `pos`, scanning back at most to the previous line break. */
export function lineStartIn(text: string, pos: number): number {
  for (let i = pos - 1; i >= 0; i -= 1) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i + 1;
  }
  return 0;
}
