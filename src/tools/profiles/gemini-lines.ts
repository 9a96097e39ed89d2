/**
 * The pieces the rungs of Gemini's replace ladder share (gemini-ladder.ts, gemini-fuzzy.ts): the match
 * shape, the LF text's lines, and re-indenting a replacement to the matched line's indentation.
 */

/** Which rung of the ladder matched. */
export type LadderStrategy = 'flexible' | 'whitespace' | 'fuzzy';

/** A match of the ladder: the replaced spans of the LF text (start, end offsets) and their replacements. */
export interface LadderMatch {
  strategy: LadderStrategy;
  /** Replaced spans in file order, non-overlapping. */
  /** Replaced spans in file order, non-overlapping; a fuzzy span has its `score` (weighted distance over old_string's length, lower is closer). */
  spans: Array<{ start: number; end: number; replacement: string; line: number; endLine: number; score?: number }>;
}

/** A line of the LF text: its offsets (end excludes the `\n`). */
export interface Line {
  start: number;
  end: number;
}

export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) {
      lines.push({ start, end: text.length });
      return lines;
    }
    lines.push({ start, end: nl });
    start = nl + 1;
  }
}

/** The spaces and tabs that start `line`. */
export function indentationOf(text: string, line: Line): string {
  let i = line.start;
  while (i < line.end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i += 1;
  return text.slice(line.start, i);
}

/**
 * `lines` re-indented to `target`: the first line's indentation is replaced by `target` on every line
 * that starts with it (so relative indentation stays), other lines get `target` before their trimmed
 * text, and blank lines become empty.
 */
export function reindent(lines: readonly string[], target: string): string[] {
  const reference = /^[ \t]*/.exec(lines[0] ?? '')?.[0] ?? '';
  return lines.map((line) => {
    if (line.trim() === '') return '';
    if (line.startsWith(reference)) return target + line.slice(reference.length);
    return target + line.trimStart();
  });
}

