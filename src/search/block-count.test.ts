import { describe, expect, it } from 'vitest';
import type { SearchSource } from './source-port.js';
import { isUtf8 } from './bytes.js';
import { BlockLiteralCount } from './block-count.js';
import { countLiteralLines } from './source-cache.js';

/** Byte search and UTF-8 check in plain JavaScript (as in a browser), for a source that only counts. */
const source = {
  indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
    outer: for (let i = Math.max(0, from); i + needle.length <= haystack.length; i += 1) {
      for (let j = 0; j < needle.length; j += 1) if (haystack[i + j] !== needle[j]) continue outer;
      return i;
    }
    return -1;
  },
  isUtf8,
} as unknown as SearchSource;

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** What a whole read answers (`SourceCache.load`, then `countTextNow`): 'binary', or the lines holding `needle`. */
function wholeAnswer(bytes: Uint8Array, needle: Uint8Array): number | 'binary' {
  const sniff = bytes.subarray(0, 8192);
  if (source.indexOf(sniff, new Uint8Array([0]), 0) !== -1 || !isUtf8(bytes)) return 'binary';
  const skip = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return countLiteralLines(source, bytes, skip, needle, Infinity).count;
}

/** The same file handed over in blocks: the first of (at least) its first 8 KiB, then blocks of `size`. */
function blockAnswer(bytes: Uint8Array, needle: Uint8Array, size: number, reuse = false): number | 'binary' {
  const counter = new BlockLiteralCount(source, needle, Infinity);
  // `reuse`: every block read into one buffer, as the Node source's block reader does.
  const buffer = new Uint8Array(Math.max(size, 8192));
  let at = 0;
  let first = true;
  while (at < bytes.length) {
    const end = first ? Math.min(bytes.length, Math.max(size, 8192)) : Math.min(bytes.length, at + size);
    first = false;
    let block = bytes.slice(at, end);
    if (reuse) {
      buffer.set(block);
      block = buffer.subarray(0, end - at);
    }
    if (!counter.add(block)) break;
    at = end;
  }
  return counter.finish() ? counter.count : 'binary';
}

const BLOCK_SIZES = [1, 2, 3, 5, 7, 64, 4096];

describe('BlockLiteralCount', () => {
  it('counts the lines holding a literal exactly as a whole read does, whatever the blocks and line endings, matches across block borders included', () => {
    const lines: string[] = [];
    for (let i = 0; i < 3000; i += 1) lines.push(i % 4 === 0 ? `needle ${i} needle` : i % 5 === 0 ? 'needleneedle' : i % 7 === 0 ? '' : `x${'y'.repeat(i % 13)}needl`);
    const endings = ['\n', '\r\n', '\r', '\n\r', '\r\r\n'];
    const text = lines.map((line, i) => line + (endings[i % endings.length] as string)).join('') + 'needle at the end without one';
    // Few \r: most lines end in \n, one in 97 in \r\n, one in 89 holds a lone \r before a match.
    const sparse = lines.map((line, i) => (i % 89 === 0 ? `a\r${line}` : line) + (i % 97 === 0 ? '\r\n' : '\n')).join('');
    const cases: Array<[string, string]> = [
      [text, 'needle'], [text, 'eedle'], [text, 'e'], [text, 'needleneedle'], [text, 'y\u0000'.slice(0, 1)], [sparse, 'needle'], [sparse, 'y'],
      [`\uFEFF${text}`, 'needle'], ['\uFEFFneedle', '\uFEFFneedle'], ['\uFEFF', 'needle'], ['', 'needle'], ['needle', 'needle'], ['\r\n\r\n', 'x'],
      [`${'é'.repeat(5000)}needle\n😀needle😀\n${'日本'.repeat(3000)}needle`, 'needle'], [`${'é'.repeat(5000)}\n😀😀😀😀\n`, '😀'], ['aé\néa\n', 'é'],
    ];
    for (const [body, literal] of cases) {
      const bytes = encode(body);
      const needle = encode(literal);
      const whole = wholeAnswer(bytes, needle);
      for (const size of BLOCK_SIZES) {
        expect(blockAnswer(bytes, needle, size), `${JSON.stringify(literal)} in ${bytes.length} bytes, blocks of ${size}`).toBe(whole);
        expect(blockAnswer(bytes, needle, size, true), `${JSON.stringify(literal)} in ${bytes.length} bytes, blocks of ${size} in one buffer`).toBe(whole);
      }
    }
    // 750 lines of i % 4 === 0, 450 more of i % 5 === 0, and the last one.
    expect(wholeAnswer(encode(text), encode('needle'))).toBe(1201);
  });

  it('finds a file binary exactly as a whole read does: a NUL in its first 8 KiB, bytes that are not UTF-8 anywhere (a character split between blocks checked whole), a character cut off at its end', () => {
    const needle = encode('needle');
    const ascii = encode(`${'needle line\n'.repeat(2000)}`);
    const withByte = (at: number, ...values: number[]): Uint8Array => {
      const bytes = new Uint8Array(ascii.length + values.length);
      bytes.set(ascii.subarray(0, at));
      bytes.set(values, at);
      bytes.set(ascii.subarray(at), at + values.length);
      return bytes;
    };
    const cases: Array<[string, Uint8Array, number | 'binary']> = [
      ['a NUL at byte 100', withByte(100, 0), 'binary'],
      ['a NUL past the first 8 KiB', withByte(9000, 0), 2000],
      ['a lone continuation byte', withByte(12_345, 0x80), 'binary'],
      ['an overlong encoding', withByte(20_000, 0xc0, 0xaf), 'binary'],
      ['a surrogate encoded', withByte(20_000, 0xed, 0xa0, 0x80), 'binary'],
      ['a four-byte character', withByte(20_000, 0xf0, 0x9f, 0x98, 0x80), 2000],
      ['a three-byte character cut off at the end', withByte(ascii.length, 0xe6, 0x97), 'binary'],
      ['a lead byte at the end', withByte(ascii.length, 0xf0), 'binary'],
      ['0xff', withByte(8191, 0xff), 'binary'],
    ];
    for (const [name, bytes, expected] of cases) {
      expect(wholeAnswer(bytes, needle), name).toBe(expected);
      for (const size of BLOCK_SIZES) expect(blockAnswer(bytes, needle, size), `${name}, blocks of ${size}`).toBe(expected);
    }
  });

  it('stops at its deadline with what it counted so far', () => {
    const counter = new BlockLiteralCount(source, encode('a'), Date.now() - 1);
    expect(counter.add(encode('a\na\nb\n'))).toBe(false);
    expect(counter).toMatchObject({ count: 2, stopped: true, binary: false });
  });
});
