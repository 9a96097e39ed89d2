import { ToolError } from '../core/errors.js';

export { clipForMessage, countCodePoints, MESSAGE_QUOTE_CHARS, quoteForMessage, truncateText } from '../core/message-text.js';
/** How many leading bytes are checked for a NUL byte ("first 8 KiB"). */
export const BINARY_SNIFF_BYTES = 8192;

/** A file's bytes decoded as text: the content without a BOM, and whether it had one. */
export interface DecodedText {
  text: string;
  bom: boolean;
}

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 file bytes, or returns null for a binary file: a NUL byte in the first 8 KiB, or bytes
 * that are not valid UTF-8. A UTF-8 BOM is removed from `text` and reported in `bom`.
 */
export function decodeText(bytes: Uint8Array): DecodedText | null {
  const sniff = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < sniff; i += 1) if (bytes[i] === 0) return null;
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return { text: fatalDecoder.decode(bom ? bytes.subarray(3) : bytes), bom };
  } catch {
    return null;
  }
}

/** Encodes text as UTF-8, with a BOM in front when `bom` is true (writes keep a file's BOM). */
export function encodeText(text: string, bom = false): Uint8Array {
  const body = new TextEncoder().encode(text);
  if (!bom) return body;
  const out = new Uint8Array(body.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(body, 3);
  return out;
}

/**
 * Bytes of `text` as UTF-8, without encoding it: 1 to 3 a UTF-16 unit, 4 for a surrogate pair. Meant
 * for text without lone surrogates (the tools refuse them first): one counts 2, not the 3 of its U+FFFD.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    // 2 bytes below U+0800, 3 above; a surrogate pair (2 units) is 4.
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/** Half of a surrogate pair with no other half beside it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuses text a tool would write (or match against a file) that holds half of a surrogate pair:
 * UTF-8 has no form for it, so it would be written as U+FFFD and the file silently changed. Throws
 * `invalid_arguments` naming the argument: `<argument> contains half of a surrogate pair (a broken
 * emoji or other character outside the BMP); <next>`.
 */
export function refuseLoneSurrogate(argument: string, text: string, next = 'send whole characters; nothing was written'): void {
  if (LONE_SURROGATE.test(text)) {
    throw new ToolError('invalid_arguments', `${argument} contains half of a surrogate pair (a broken emoji or other character outside the BMP); ${next}`);
  }
}

/** A file's line-ending style: `mixed` when more than one kind occurs, `none` for a single line. */
export type LineEnding = 'lf' | 'crlf' | 'cr' | 'mixed' | 'none';

/** Text split into lines, each without its ending, plus the ending of each line (`''` for a last line without one). */
export interface SplitText {
  lines: string[];
  endings: string[];
}

const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * Splits text at `\n`, `\r\n` and `\r` (all three end a line). A trailing line ending does
 * not make a phantom empty last line: `"a\nb\n"` is two lines; `""` is zero lines.
 */
export function splitLines(text: string): SplitText {
  const lines: string[] = [];
  const endings: string[] = [];
  let start = 0;
  LINE_BREAK.lastIndex = 0;
  for (let match = LINE_BREAK.exec(text); match; match = LINE_BREAK.exec(text)) {
    lines.push(text.slice(start, match.index));
    endings.push(match[0]);
    start = match.index + match[0].length;
  }
  if (start < text.length) {
    lines.push(text.slice(start));
    endings.push('');
  }
  return { lines, endings };
}

/** The dominant style of the line endings in `text` (see {@link LineEnding}). */
export function detectLineEnding(text: string): LineEnding {
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) {
        crlf += 1;
        i += 1;
      } else cr += 1;
    } else if (c === 10) lf += 1;
  }
  const kinds = (lf > 0 ? 1 : 0) + (crlf > 0 ? 1 : 0) + (cr > 0 ? 1 : 0);
  if (kinds === 0) return 'none';
  if (kinds > 1) return 'mixed';
  return lf > 0 ? 'lf' : crlf > 0 ? 'crlf' : 'cr';
}

/**
 * `next` after the note a result already has, as separate sentences: `first` gets a full stop when it
 * ends without one (`…or raise max_time_ms` then `Showing 100 of 8016 …` reads `…or raise
 * max_time_ms. Showing 100 of 8016 …`). `next` alone when there is no first note.
 */
export function joinNotes(first: string | undefined, next: string): string {
  if (first === undefined || first === '') return next;
  return `${/[.!?]$/.test(first) ? first : `${first}.`} ${next}`;
}
