import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/support/random.js';
import { ByteFinder, isUtf8 } from './bytes.js';

const fatal = new TextDecoder('utf-8', { fatal: true });
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

function decodes(bytes: Uint8Array): boolean {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** `needle`'s first occurrence in `haystack` at or after `from`, byte by byte. */
function naiveIndexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  for (let s = Math.max(0, from); s + needle.length <= haystack.length; s += 1) {
    let j = 0;
    while (j < needle.length && haystack[s + j] === needle[j]) j += 1;
    if (j === needle.length) return s;
  }
  return -1;
}

/** `bytes` at byte offset `shift` of a larger buffer (so its words are not 4-byte aligned unless shift is). */
function shifted(bytes: Uint8Array, shift: number): Uint8Array {
  const out = new Uint8Array(bytes.length + shift + 3);
  out.set(bytes, shift);
  return out.subarray(shift, shift + bytes.length);
}

describe('isUtf8', () => {
  it('accepts what a fatal TextDecoder accepts and refuses what it refuses', () => {
    const cases: Array<[number[], boolean]> = [
      [[], true],
      [[0x61, 0x62], true],
      [[0xc3, 0xa9], true], // é
      [[0xc0, 0xaf], false], // overlong /
      [[0xc1, 0xbf], false],
      [[0xe0, 0x9f, 0xbf], false], // overlong
      [[0xe0, 0xa0, 0x80], true],
      [[0xed, 0x9f, 0xbf], true],
      [[0xed, 0xa0, 0x80], false], // surrogate
      [[0xef, 0xbb, 0xbf], true], // BOM
      [[0xf0, 0x8f, 0xbf, 0xbf], false], // overlong
      [[0xf0, 0x9f, 0x98, 0x80], true], // 😀
      [[0xf4, 0x8f, 0xbf, 0xbf], true], // U+10FFFF
      [[0xf4, 0x90, 0x80, 0x80], false], // above U+10FFFF
      [[0xf5, 0x80, 0x80, 0x80], false],
      [[0x80], false],
      [[0x61, 0xe2, 0x82], false], // cut short at the end
      [[0xff], false],
    ];
    for (const [bytes, valid] of cases) {
      expect([bytes, isUtf8(new Uint8Array(bytes))]).toEqual([bytes, valid]);
      expect(decodes(new Uint8Array(bytes))).toBe(valid);
    }
  });

  it('agrees with a fatal TextDecoder on random bytes at every alignment', () => {
    const random = seededRandom(1207);
    const pieces = [encode('plain ascii text '), encode('é'), encode('€'), encode('😀'), [0x80], [0xc0], [0xed, 0xa0], [0xf4, 0x90], [0xe2, 0x82], [0x00]];
    let valid = 0;
    for (let round = 0; round < 3000; round += 1) {
      const parts: number[] = [];
      const count = Math.floor(random() * 12);
      for (let i = 0; i < count; i += 1) {
        const rare = random() < 0.08;
        const piece = rare ? (pieces[4 + Math.floor(random() * 6)] as ArrayLike<number>) : (pieces[Math.floor(random() * 4)] as ArrayLike<number>);
        parts.push(...Array.from(piece));
      }
      const bytes = shifted(new Uint8Array(parts), round % 4);
      const expected = decodes(bytes);
      if (expected) valid += 1;
      expect([round, isUtf8(bytes)]).toEqual([round, expected]);
    }
    // Both kinds occur often enough for the comparison to mean something.
    expect(valid).toBeGreaterThan(1000);
    expect(valid).toBeLessThan(2800);
  });
});

describe('ByteFinder', () => {
  it('finds a needle at the start, in the middle, at the end and not past it', () => {
    const haystack = encode('function x() { return function y() {} } // function');
    const finder = new ByteFinder(encode('function'));
    expect(finder.find(haystack, 0)).toBe(0);
    expect(finder.find(haystack, 1)).toBe(22);
    expect(finder.find(haystack, 23)).toBe(haystack.length - 8);
    expect(finder.find(haystack, haystack.length - 7)).toBe(-1);
    expect(finder.find(haystack, -5)).toBe(0);
    expect(finder.find(haystack, haystack.length + 10)).toBe(-1);
    expect(new ByteFinder(encode('nope')).find(haystack, 0)).toBe(-1);
    expect(new ByteFinder(new Uint8Array(0)).find(haystack, 3)).toBe(3);
    expect(new ByteFinder(encode('x')).find(haystack, 0)).toBe(9);
  });

  it('tells whether it looks for the given bytes', () => {
    const finder = new ByteFinder(encode('abc'));
    expect([finder.matches(encode('abc')), finder.matches(encode('abd')), finder.matches(encode('ab'))]).toEqual([true, false, false]);
  });

  it('agrees with a byte-by-byte search on random haystacks at every alignment', () => {
    const random = seededRandom(4242);
    const alphabet = [0x61, 0x62, 0x63, 0x66, 0x75, 0x0a, 0x0d, 0x20, 0xc3, 0xa9, 0x00, 0xff];
    for (let round = 0; round < 2000; round += 1) {
      const size = Math.floor(random() * 80);
      const raw = new Uint8Array(size);
      // Few distinct bytes, so needles occur, overlap and nearly occur.
      const letters = 2 + Math.floor(random() * (alphabet.length - 2));
      for (let i = 0; i < size; i += 1) raw[i] = alphabet[Math.floor(random() * letters)] as number;
      const length = 1 + Math.floor(random() * 6);
      const start = Math.floor(random() * Math.max(1, size - length));
      const needle = random() < 0.7 && size >= length ? raw.slice(start, start + length) : Uint8Array.from({ length }, () => alphabet[Math.floor(random() * letters)] as number);
      const haystack = shifted(raw, round % 4);
      const finder = new ByteFinder(needle);
      for (let from = -1; from <= size + 1; from += 1 + Math.floor(random() * 5)) {
        expect([round, from, finder.find(haystack, from)]).toEqual([round, from, naiveIndexOf(haystack, needle, from)]);
      }
    }
  });

  it('finds every occurrence in a long mostly-ASCII text, across many word boundaries', () => {
    const random = seededRandom(77);
    const words = ['function', 'return', 'const', 'fun', 'ction', '\n', ' ', 'é', '😀'];
    let text = '';
    while (text.length < 200_000) text += words[Math.floor(random() * words.length)];
    for (const shift of [0, 1, 2, 3]) {
      const haystack = shifted(encode(text), shift);
      const needle = encode('function');
      const finder = new ByteFinder(needle);
      const found: number[] = [];
      const expected: number[] = [];
      for (let p = finder.find(haystack, 0); p !== -1; p = finder.find(haystack, p + 1)) found.push(p);
      for (let p = naiveIndexOf(haystack, needle, 0); p !== -1; p = naiveIndexOf(haystack, needle, p + 1)) expected.push(p);
      expect(found.length).toBeGreaterThan(1000);
      expect(found).toEqual(expected);
    }
  });
});
