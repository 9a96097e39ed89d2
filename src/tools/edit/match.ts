import { ToolError } from '../../core/errors.js';
import { NO_PACE, type Pace } from './pace.js';

const BREAKS = /\r\n?/g;

/** `text` with every `\r\n` and `\r` turned into `\n`. */
export function toLf(text: string): string {
  return text.includes('\r') ? text.replace(BREAKS, '\n') : text;
}

/** Characters of a text converted at once by {@link toLfPaced}. */
const LF_SLICE = 1 << 20;

/** {@link toLf}, a slice of 1 Mi characters at a time with `pace` between slices (a `\r\n` is never split). */
export async function toLfPaced(text: string, pace: Pace): Promise<string> {
  if (!text.includes('\r')) return text;
  if (text.length <= LF_SLICE) return toLf(text);
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + LF_SLICE);
    // A slice ending in `\r` takes the character after it, so a `\r\n` stays one break.
    if (end < text.length && text.charCodeAt(end - 1) === 13) end += 1;
    parts.push(toLf(text.slice(start, end)));
    start = end;
    if (pace.due()) await pace.pause();
  }
  return parts.join('');
}

/**
 * For each UTF-16 index of `toLf(text)` (and one past its end), the matching index in `text`; null
 * when `text` has no `\r` (the indexes are equal). A `\r\n` is one character in the LF text, so
 * spans found there never split a CRLF in the original. Paced by `pace`.
 */
export async function lfToOriginal(text: string, pace: Pace = NO_PACE): Promise<Int32Array | null> {
  if (!text.includes('\r')) return null;
  const map = new Int32Array(text.length + 1);
  let j = 0;
  for (let i = 0; i < text.length; i += 1) {
    if ((i & 0xffff) === 0 && pace.due()) await pace.pause();
    map[j] = i;
    j += 1;
    if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) i += 1;
  }
  map[j] = text.length;
  return map.subarray(0, j + 1);
}

/**
 * Where `needleLf` occurs in `textLf` (both with LF line breaks): UTF-16 start indexes, left to right
 * and non-overlapping. Exact and literal: indexOf, no pattern. A typed array (4 bytes a match), as a
 * replace-all over a large file may find millions. Paced by `pace` between matches.
 */
export async function findOccurrences(textLf: string, needleLf: string, pace: Pace = NO_PACE): Promise<Int32Array> {
  let found = new Int32Array(16);
  let count = 0;
  for (let at = textLf.indexOf(needleLf); at !== -1; at = textLf.indexOf(needleLf, at + needleLf.length)) {
    if ((count & 0x3ff) === 0 && pace.due()) await pace.pause();
    if (count === found.length) {
      const grown = new Int32Array(found.length * 2);
      grown.set(found);
      found = grown;
    }
    found[count] = at;
    count += 1;
  }
  return found.subarray(0, count);
}

/**
 * Checks that `count` occurrences (at least one) may all be replaced: `expected_replacements`, when
 * given, must equal `count`; otherwise more than one needs `replace_all`. Throws `ambiguous_match` with
 * `details.count`; `where` is the path as messages show it.
 */
export function checkOccurrenceCount(count: number, options: { replace_all?: boolean; expected_replacements?: number }, where: string): void {
  const times = `${count} time${count === 1 ? '' : 's'}`;
  if (options.expected_replacements !== undefined && options.expected_replacements !== count) {
    throw new ToolError(
      'ambiguous_match',
      `old_string occurs ${times} in ${where}, but expected_replacements is ${options.expected_replacements}; nothing was changed. ` +
        'Adjust old_string or expected_replacements.',
      { count },
    );
  }
  if (count > 1 && options.replace_all !== true && options.expected_replacements === undefined) {
    throw new ToolError(
      'ambiguous_match',
      `old_string occurs ${times} in ${where}; add surrounding context to make it unique, or set replace_all to replace every occurrence`,
      { count },
    );
  }
}

/**
 * Throws `ambiguous_match` (`details.count` 2) when the one occurrence `first` of `needleLf` in
 * `textLf` overlaps another (`aaa` in `aaaa`, `}\n}` in `}\n}\n}`): counted left to right without
 * overlaps, as replace_all replaces, the text holds one, yet old_string names two places, and the edit
 * would take the first unasked. (Anthropic's and Gemini CLI's editors count without overlaps and edit
 * the first; toolhost refuses, as it does two separate occurrences.) `replace_all` takes it as one.
 */
export function checkNoOverlap(textLf: string, needleLf: string, first: number, options: { replace_all?: boolean }, where: string): void {
  if (options.replace_all === true || needleLf.length < 2) return;
  const second = textLf.indexOf(needleLf, first + 1);
  if (second === -1 || second >= first + needleLf.length) return;
  let line = 1;
  for (let at = textLf.indexOf('\n'); at !== -1 && at < first; at = textLf.indexOf('\n', at + 1)) line += 1;
  throw new ToolError(
    'ambiguous_match',
    `old_string occurs at 2 overlapping places in ${where} (from line ${line}, the second starting ${second - first} character${second - first === 1 ? '' : 's'} after the first); ` +
      'add surrounding context to make it unique',
    { count: 2 },
  );
}
