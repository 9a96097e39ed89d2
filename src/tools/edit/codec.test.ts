import { describe, expect, it } from 'vitest';
import { decodeText, encodeText } from '../../fs/text.js';
import { decodeTextPaced, encodeTextPaced } from './codec.js';
import type { Pace } from './pace.js';

/** A pace that is always due and counts its pauses. */
function countingPace(): Pace & { pauses: number } {
  const pace = {
    pauses: 0,
    due: () => true,
    pause: async () => {
      pace.pauses += 1;
    },
  };
  return pace;
}

const SLICE = 4 << 20;
const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(a, b) === 0;

describe('the paced UTF-8 codec of edit_file', () => {
  it('encodes a large text slice by slice to the bytes encodeText gives, a surrogate pair at a slice edge kept whole, with or without a BOM', async () => {
    // An emoji (two UTF-16 units) straddles the first slice edge; 3-byte characters make the text outgrow one byte a unit.
    const text = 'a'.repeat(SLICE - 1) + '😀' + '€'.repeat(SLICE) + 'z\n';
    for (const bom of [false, true]) {
      const pace = countingPace();
      const bytes = await encodeTextPaced(text, bom, pace);
      expect(same(bytes, encodeText(text, bom))).toBe(true);
      expect(pace.pauses).toBeGreaterThanOrEqual(2);
    }
  });

  it('decodes a large file slice by slice as decodeText does: characters split at a slice edge, a BOM, invalid UTF-8 past the first slice, a NUL in the first 8 KiB', async () => {
    const text = 'b'.repeat(SLICE - 1) + '€ü😀' + 'x'.repeat(SLICE) + '\n';
    const plain = encodeText(text);
    const pace = countingPace();
    expect(await decodeTextPaced(plain, pace)).toEqual({ text, bom: false });
    expect(pace.pauses).toBeGreaterThanOrEqual(2);
    expect(await decodeTextPaced(encodeText(text, true), countingPace())).toEqual({ text, bom: true });

    const broken = plain.slice();
    broken[SLICE + 100] = 0xff;
    expect(decodeText(broken)).toBeNull();
    expect(await decodeTextPaced(broken, countingPace())).toBeNull();

    // A multi-byte character cut off at the very end is invalid too, as a whole decode finds.
    const cut = plain.subarray(0, SLICE + 1);
    expect(decodeText(cut)).toBeNull();
    expect(await decodeTextPaced(cut, countingPace())).toBeNull();

    const binary = plain.slice();
    binary[10] = 0;
    expect(await decodeTextPaced(binary, countingPace())).toBeNull();
  });
});
