import { describe, expect, it } from 'vitest';
import { checkInlineImage, inlineImageRefusal, MAX_INLINE_IMAGE_SIDE } from './image-header.js';
import { gif, jpeg, png, PNG_SIGNATURE, pngChunk, webpVp8, webpVp8l, webpVp8x } from '../../test/support/images.js';

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

describe('checkInlineImage: images whose headers are complete and sane', () => {
  it('gives the dimensions of a PNG, JPEG, GIF and each kind of WebP', () => {
    expect(checkInlineImage(png(3, 2), 'image/png')).toEqual({ ok: true, width: 3, height: 2 });
    expect(checkInlineImage(jpeg(640, 480), 'image/jpeg')).toEqual({ ok: true, width: 640, height: 480 });
    expect(checkInlineImage(gif(16, 9), 'image/gif')).toEqual({ ok: true, width: 16, height: 9 });
    expect(checkInlineImage(webpVp8(300, 200), 'image/webp')).toEqual({ ok: true, width: 300, height: 200 });
    expect(checkInlineImage(webpVp8l(16384, 1), 'image/webp')).toMatchObject({ ok: false, kind: 'too_large', width: 16384, height: 1 });
    expect(checkInlineImage(webpVp8l(7, 5), 'image/webp')).toEqual({ ok: true, width: 7, height: 5 });
    expect(checkInlineImage(webpVp8x(1024, 768), 'image/webp')).toEqual({ ok: true, width: 1024, height: 768 });
  });

  it('takes exactly 8000 px per side, and refuses 8001', () => {
    expect(MAX_INLINE_IMAGE_SIDE).toBe(8000);
    expect(checkInlineImage(png(8000, 8000), 'image/png')).toEqual({ ok: true, width: 8000, height: 8000 });
    expect(checkInlineImage(png(8001, 1), 'image/png')).toMatchObject({ ok: false, kind: 'too_large' });
    expect(checkInlineImage(jpeg(1, 8001), 'image/jpeg')).toMatchObject({ ok: false, kind: 'too_large' });
    expect(checkInlineImage(gif(8001, 10), 'image/gif')).toMatchObject({ ok: false, kind: 'too_large' });
    expect(checkInlineImage(webpVp8x(9000, 10), 'image/webp')).toMatchObject({ ok: false, kind: 'too_large' });
  });

  it('skips JPEG segments it does not need, and fill bytes, on the way to the frame header', () => {
    const withExif = new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x06, 1, 2, 3, 4, 0xff, 0xff, ...jpeg(5, 4).subarray(2)]);
    expect(checkInlineImage(withExif, 'image/jpeg')).toEqual({ ok: true, width: 5, height: 4 });
    const progressive = jpeg(9, 7);
    progressive[21] = 0xc2;
    expect(checkInlineImage(progressive, 'image/jpeg')).toEqual({ ok: true, width: 9, height: 7 });
  });
});

describe('checkInlineImage: broken images', () => {
  it('a 10-byte PNG (signature and two bytes) is truncated', () => {
    const check = checkInlineImage(new Uint8Array([...PNG_SIGNATURE, 0, 0]), 'image/png');
    expect(check).toMatchObject({ ok: false, kind: 'truncated' });
    expect(!check.ok && check.reason).toBe('truncated: the file ends inside its IHDR header chunk (10 bytes)');
  });

  it('a PNG header claiming 100000×100000 px is too large, named in the reason', () => {
    const check = checkInlineImage(png(100_000, 100_000), 'image/png');
    expect(check).toEqual({ ok: false, kind: 'too_large', reason: '100000×100000 px is larger than the 8000 px per side models take', width: 100_000, height: 100_000 });
  });

  it('PNG: a wrong IHDR CRC, a zero side, a bad depth, a first chunk other than IHDR, no IDAT, no IEND', () => {
    const invalid = (bytes: Uint8Array): string => {
      const check = checkInlineImage(bytes, 'image/png');
      return check.ok ? 'ok' : check.reason;
    };
    expect(invalid(png(4, 4, { ihdrCrc: 0x12345678 }))).toBe('not a valid PNG: the CRC of its IHDR chunk does not match');
    expect(invalid(png(0, 4))).toBe('not a valid PNG: its IHDR gives 0×4 px');
    expect(invalid(png(4, 4, { colour: 2, depth: 4 }))).toBe('not a valid PNG: its IHDR gives colour type 2 with bit depth 4');
    expect(invalid(new Uint8Array([...PNG_SIGNATURE, ...pngChunk('tEXt', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])]))).toBe(
      'not a valid PNG: its first chunk is not a 13-byte IHDR',
    );
    const header = png(2, 2).subarray(0, 33);
    expect(invalid(new Uint8Array([...header, ...pngChunk('IEND', [])]))).toBe('not a valid PNG: it has no IDAT (image data) chunk');
    const whole = png(2, 2);
    expect(invalid(whole.subarray(0, whole.length - 12))).toMatch(/^truncated: the file ends inside its chunks, before IEND/);
    expect(invalid(whole.subarray(0, 40))).toMatch(/^truncated:/);
  });

  it('JPEG: no frame header before the scan, a cut frame header, zero sides, a bad precision', () => {
    const invalid = (bytes: number[] | Uint8Array): string => {
      const check = checkInlineImage(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), 'image/jpeg');
      return check.ok ? 'ok' : check.reason;
    };
    expect(invalid([0xff, 0xd8, 0xff])).toMatch(/^truncated: the file ends inside its header, before its frame \(SOF\) segment/);
    expect(invalid([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01])).toMatch(/^truncated:/);
    expect(invalid([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9])).toBe('not a valid JPEG: it has no frame (SOF) segment before its scan');
    expect(invalid(jpeg(5, 5).subarray(0, 26))).toBe('truncated: the file ends inside its frame (SOF) segment (26 bytes)');
    expect(invalid(jpeg(0, 5))).toBe('not a valid JPEG: its frame (SOF) segment gives 0×5 px');
    const odd = jpeg(5, 5);
    odd[24] = 7;
    expect(invalid(odd)).toMatch(/^not a valid JPEG: its frame \(SOF\) segment gives 7-bit samples/);
    expect(invalid([0xff, 0xd8, 0x00, 0x00, 0x00])).toMatch(/^not a valid JPEG: a marker was expected/);
  });

  it('GIF: a cut logical screen, a zero side', () => {
    expect(checkInlineImage(new Uint8Array(ascii('GIF89a\u0001\u0000')), 'image/gif')).toMatchObject({ ok: false, kind: 'truncated' });
    expect(checkInlineImage(gif(0, 3), 'image/gif')).toMatchObject({ ok: false, kind: 'invalid', reason: 'not a valid GIF: its logical screen is 0×3 px' });
  });

  it('WebP: a RIFF size past the end, an unknown first chunk, a VP8 chunk without its start code', () => {
    const whole = webpVp8(10, 10);
    expect(checkInlineImage(whole.subarray(0, whole.length - 2), 'image/webp')).toMatchObject({ ok: false, kind: 'truncated' });
    const other = webpVp8(10, 10);
    other.set(ascii('ALPH'), 12);
    expect(checkInlineImage(other, 'image/webp')).toMatchObject({ ok: false, kind: 'invalid', reason: 'not a valid WebP: its first chunk is "ALPH", not VP8, VP8L or VP8X' });
    const noStart = webpVp8(10, 10);
    noStart[23] = 0;
    expect(checkInlineImage(noStart, 'image/webp')).toMatchObject({ ok: false, kind: 'invalid' });
    const badLossless = webpVp8l(3, 3);
    badLossless[20] = 0;
    expect(checkInlineImage(badLossless, 'image/webp')).toMatchObject({ ok: false, kind: 'invalid' });
  });

  it('a type that is not one of the four is never ok', () => {
    expect(checkInlineImage(png(1, 1), 'image/bmp')).toMatchObject({ ok: false, kind: 'invalid' });
  });
});

describe('inlineImageRefusal', () => {
  it('is undefined for a sane image and a sentence saying why and what to do otherwise', () => {
    expect(inlineImageRefusal(png(1, 1), 'image/png')).toBeUndefined();
    expect(inlineImageRefusal(new Uint8Array([...PNG_SIGNATURE, 0, 0]), 'image/png')).toBe(
      'The file starts like a PNG image, but its data is not included, as a model would refuse it: it is truncated: the file ends inside its IHDR header chunk (10 bytes). ' +
        'If it should be an image, it is damaged or cut short: recreate or re-export it; otherwise it is binary data that cannot be shown.',
    );
    expect(inlineImageRefusal(png(100_000, 100_000), 'image/png')).toBe(
      "The image's data is not included: 100000×100000 px is larger than the 8000 px per side models take. Make a copy scaled down to at most 8000 px per side and view that.",
    );
  });
});
