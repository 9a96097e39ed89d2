import { countCodePoints } from '../fs/text.js';
import { LineCursor, type LineHit } from './line-scan.js';
import type { SearchMatch } from '../core/search-engine.js';

/** Longest line shown in full, in UTF-16 code units; longer ones become an excerpt around the first match. */
export const MAX_LINE_CHARS = 2000;

/** One matching line (see src/core/search-engine.ts, where the search engine's answers are declared). */
export type { SearchMatch } from '../core/search-engine.js';

/** `line` cut to {@link MAX_LINE_CHARS} with a marker of how many characters were cut. */
export function clipLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  let end = MAX_LINE_CHARS;
  const c = line.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  return `${line.slice(0, end)} [... ${countCodePoints(line, end)} more characters]`;
}

/** An excerpt of at most {@link MAX_LINE_CHARS} around `at` (line-relative), with markers for the cut parts. */
export function excerptLine(text: string, lineStart: number, lineEnd: number, at: number, length: number): string {
  const size = lineEnd - lineStart;
  if (size <= MAX_LINE_CHARS) return text.slice(lineStart, lineEnd);
  const span = Math.min(length, MAX_LINE_CHARS);
  let start = Math.max(0, Math.min(size - MAX_LINE_CHARS, at - Math.floor((MAX_LINE_CHARS - span) / 2)));
  let end = start + MAX_LINE_CHARS;
  const first = text.charCodeAt(lineStart + start);
  if (start > 0 && first >= 0xdc00 && first <= 0xdfff) start += 1;
  const last = text.charCodeAt(lineStart + end - 1);
  if (end < size && last >= 0xd800 && last <= 0xdbff) end -= 1;
  const before = start > 0 ? `[... ${countCodePoints(text, lineStart, lineStart + start)} characters before] ` : '';
  const after = end < size ? ` [... ${countCodePoints(text, lineStart + end, lineEnd)} characters after]` : '';
  return before + text.slice(lineStart + start, lineStart + end) + after;
}

/**
 * Turns a file's hits into {@link SearchMatch}es: line numbers (counting line breaks forward once
 * through the text, only as far as the last reported line), code-point columns, excerpts of long
 * lines and `context` lines before and after.
 */
export class MatchFormatter {
  readonly #text: string;
  readonly #cursor: LineCursor;
  /** Start offsets of lines 0..n-1 found so far. */
  readonly #starts: number[] = [0];
  #scanned = 0;

  constructor(text: string) {
    this.#text = text;
    this.#cursor = new LineCursor(text);
  }

  /** Extends the table of line starts past `pos`; false once the text's end is reached. */
  #extend(pos: number): void {
    const text = this.#text;
    while (this.#scanned <= pos && this.#scanned < text.length) {
      const end = this.#cursor.nextBreak(this.#scanned);
      if (end >= text.length) {
        this.#scanned = text.length + 1;
        break;
      }
      const next = this.#cursor.afterBreak(end);
      if (next < text.length) this.#starts.push(next);
      this.#scanned = next;
    }
  }

  /** 0-based index of the line starting at `lineStart`. */
  lineIndex(lineStart: number): number {
    this.#extend(lineStart);
    const starts = this.#starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= lineStart) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #lineText(k: number): string {
    const start = this.#starts[k] as number;
    return clipLine(this.#text.slice(start, this.#cursor.nextBreakAny(start)));
  }

  /** The match for `hit` (whose offsets are known). */
  format(filePath: string, hit: LineHit, contextLines: number): SearchMatch {
    const text = this.#text;
    const k = this.lineIndex(hit.lineStart);
    const match: SearchMatch = {
      file_path: filePath,
      line_number: k + 1,
      column: countCodePoints(text, hit.lineStart, hit.start) + 1,
      line: excerptLine(text, hit.lineStart, hit.lineEnd, hit.start - hit.lineStart, hit.end - hit.start),
    };
    if (contextLines > 0) {
      this.#extend(hit.lineEnd + 1);
      // One more line start past the last context line (or the end of the text).
      for (let j = 0; j < contextLines && this.#scanned <= text.length; j += 1) this.#extend(this.#scanned);
      match.before = [];
      match.after = [];
      for (let j = Math.max(0, k - contextLines); j < k; j += 1) match.before.push(this.#lineText(j));
      for (let j = k + 1; j <= Math.min(this.#starts.length - 1, k + contextLines); j += 1) match.after.push(this.#lineText(j));
    }
    return match;
  }
}
