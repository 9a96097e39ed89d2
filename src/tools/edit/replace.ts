import { lfToOriginal, toLf } from './match.js';
import { NO_PACE, type Pace } from './pace.js';

/** The line break that starts at `i` of `text` (`\r\n`, `\r` or `\n`). */
function breakAt(text: string, i: number): string {
  return text.charCodeAt(i) === 13 ? (text.charCodeAt(i + 1) === 10 ? '\r\n' : '\r') : '\n';
}

/**
 * The line break new text takes in a span of `text` that begins at `start`: the first break at or
 * after `start` (inside the span, else the one ending its line), else the last one before it, else
 * `fallback`. Keeps a mixed-ending file's other lines as they are and gives the edited lines their
 * neighbours' style. The returned function must be asked for increasing `start`s: it remembers the
 * next break it found, so a replace-all on one long line scans the line once, not once per match.
 */
function spanEndings(text: string, fallback: string): (start: number) => string {
  // The first `\n` and the first `\r` at or after the last start asked (-1: none), each searched again
  // only once passed, so the text is searched once in all (natively) however many starts are asked.
  let nextLf = -2;
  let nextCr = -2;
  let last: string | undefined;
  return (start) => {
    if (nextLf !== -1 && nextLf < start) nextLf = text.indexOf('\n', start);
    if (nextCr !== -1 && nextCr < start) nextCr = text.indexOf('\r', start);
    const next = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
    if (next >= 0) return breakAt(text, next);
    // No break after `start`, so the last one before it is the text's last.
    if (last === undefined) {
      const at = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
      last = at === -1 ? fallback : text.charCodeAt(at) === 10 && text.charCodeAt(at - 1) === 13 ? '\r\n' : breakAt(text, at);
    }
    return last;
  };
}

/** Pieces joined this many at a time, so a replace-all with millions of matches holds few strings at once. */
const JOIN_EVERY = 4096;

/**
 * `text` with the spans of `toLf(text)` at `found` (start indexes in increasing order, each `length`
 * UTF-16 units long) replaced by `replacement`, taken literally. The replacement's line breaks take the
 * style of the span they land in (the next break, else the text's last one, else LF), so a CRLF file stays CRLF
 * and a mixed file changes only where edited. Time and extra memory are linear in the text; paced by
 * `pace` between matches.
 */
export async function replaceOccurrences(text: string, found: ArrayLike<number>, length: number, replacement: string, pace: Pace = NO_PACE): Promise<string> {
  const map = await lfToOriginal(text, pace);
  const at = (i: number): number => (map === null ? i : (map[i] as number));
  const replacementLf = toLf(replacement);
  const hasBreak = replacementLf.includes('\n');
  // A text with no line break at all gives the replacement's breaks as LF.
  const ending = spanEndings(text, '\n');
  const styled = new Map<string, string>([['\n', replacementLf]]);
  const chunks: string[] = [];
  let parts: string[] = [];
  let last = 0;
  for (let k = 0; k < found.length; k += 1) {
    if ((k & 0x3ff) === 0 && pace.due()) await pace.pause();
    const start = found[k] as number;
    const from = at(start);
    const style = hasBreak ? ending(from) : '\n';
    let piece = styled.get(style);
    if (piece === undefined) {
      piece = replacementLf.split('\n').join(style);
      styled.set(style, piece);
    }
    parts.push(text.slice(last, from), piece);
    last = at(start + length);
    if (parts.length >= JOIN_EVERY) {
      chunks.push(parts.join(''));
      parts = [];
    }
  }
  parts.push(text.slice(last));
  chunks.push(parts.join(''));
  return chunks.join('');
}
