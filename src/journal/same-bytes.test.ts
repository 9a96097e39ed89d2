import { describe, expect, it } from 'vitest';
import { sameBytes } from '../core/bytes.js';

/** `bytes` copied into a larger buffer at `offset` (so the view starts unaligned when offset % 4 is not 0). */
function at(offset: number, bytes: number[]): Uint8Array {
  const buffer = new Uint8Array(offset + bytes.length + 5);
  buffer.set(bytes, offset);
  return buffer.subarray(offset, offset + bytes.length);
}

describe('sameBytes (the journal\'s check that content equals what it last saw at a path)', () => {
  const base = Array.from({ length: 4099 }, (_, i) => (i * 31) % 256);
  for (const [a, b] of [[0, 0], [0, 4], [1, 1], [0, 3], [2, 7], [4, 8]] as const) {
    it(`compares every byte with views at offsets ${a} and ${b}: equal, and unequal at the first, a middle, and each of the last bytes`, () => {
      expect(sameBytes(at(a, base), at(b, base))).toBe(true);
      for (const changed of [0, 1, 2047, 4094, 4095, 4096, 4097, 4098]) {
        const other = [...base];
        other[changed] = (other[changed]! + 1) % 256;
        expect(sameBytes(at(a, base), at(b, other)), `byte ${changed}`).toBe(false);
      }
    });
  }

  it('answers false for different lengths and true for empty arrays and one array with itself', () => {
    expect(sameBytes(at(0, base), at(0, base.slice(0, 4098)))).toBe(false);
    expect(sameBytes(new Uint8Array(0), new Uint8Array(0))).toBe(true);
    const one = at(1, base);
    expect(sameBytes(one, one)).toBe(true);
  });
});
