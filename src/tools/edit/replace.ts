import { detectLineEnding } from '../../fs/text.js';
import { lfToOriginal, toLf } from './match.js';

/**
 * The line break new text takes in a span of `text` that begins at `start`: the first break at or
 * after `start` (inside the span, else the one ending its line), else the one before it, else `fallback`. Keeps a mixed-ending
 * file's other lines as they are and gives the edited lines their neighbours' style.
 */
function spanEnding(text: string, start: number, fallback: string): string {
  const breakAt = (i: number): string => (text.charCodeAt(i) === 13 ? (text.charCodeAt(i + 1) === 10 ? '\r\n' : '\r') : '\n');
  for (let i = start; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return breakAt(i);
  }
  for (let i = start - 1; i >= 0; i -= 1) {
    const c = text.charCodeAt(i);
    if (c === 10) return text.charCodeAt(i - 1) === 13 ? '\r\n' : '\n';
    if (c === 13) return '\r';
  }
  return fallback;
}

/**
 * `text` with the spans of `toLf(text)` at `found` (start indexes, each `length` UTF-16 units long)
 * replaced by `replacement`, taken literally. The replacement's line breaks take the style of the span
 * they land in (its own, else the text's dominant one), so a CRLF file stays CRLF and a mixed file
 * changes only where edited.
 */
export function replaceOccurrences(text: string, found: readonly number[], length: number, replacement: string): string {
  const map = lfToOriginal(text);
  const at = (i: number): number => (map === null ? i : (map[i] as number));
  const replacementLf = toLf(replacement);
  const hasBreak = replacementLf.includes('\n');
  const dominant = detectLineEnding(text);
  const fallback = dominant === 'crlf' ? '\r\n' : dominant === 'cr' ? '\r' : '\n';
  const parts: string[] = [];
  let last = 0;
  for (const start of found) {
    const from = at(start);
    const to = at(start + length);
    const ending = hasBreak ? spanEnding(text, from, fallback) : '\n';
    parts.push(text.slice(last, from), ending === '\n' ? replacementLf : replacementLf.split('\n').join(ending));
    last = to;
  }
  parts.push(text.slice(last));
  return parts.join('');
}
