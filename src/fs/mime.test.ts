import { describe, expect, it } from 'vitest';
import { encodeBase64, isInlineImageType, sniffMimeType } from './mime.js';

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

describe('sniffMimeType', () => {
  it('recognises images by their magic bytes', () => {
    expect(sniffMimeType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe('image/png');
    expect(sniffMimeType(new Uint8Array([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(sniffMimeType(new Uint8Array(ascii('GIF87a....')))).toBe('image/gif');
    expect(sniffMimeType(new Uint8Array(ascii('GIF89a....')))).toBe('image/gif');
    expect(sniffMimeType(new Uint8Array([...ascii('RIFF'), 1, 2, 3, 4, ...ascii('WEBPVP8 ')]))).toBe('image/webp');
  });

  it('recognises a few other binary formats', () => {
    expect(sniffMimeType(new Uint8Array(ascii('%PDF-1.7')))).toBe('application/pdf');
    expect(sniffMimeType(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0]))).toBe('application/zip');
    expect(sniffMimeType(new Uint8Array([0x1f, 0x8b, 0x08, 0]))).toBe('application/gzip');
    expect(sniffMimeType(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0]))).toBe('application/wasm');
  });

  it('falls back to application/octet-stream, also for truncated signatures', () => {
    expect(sniffMimeType(new Uint8Array([]))).toBe('application/octet-stream');
    expect(sniffMimeType(new Uint8Array([0x89, 0x50, 0x4e]))).toBe('application/octet-stream');
    expect(sniffMimeType(new Uint8Array([...ascii('RIFF'), 1, 2, 3, 4, ...ascii('WAVEfmt ')]))).toBe('application/octet-stream');
  });
});

describe('isInlineImageType', () => {
  it('accepts png, jpeg, gif and webp only', () => {
    expect(['image/png', 'image/jpeg', 'image/gif', 'image/webp'].every(isInlineImageType)).toBe(true);
    expect(isInlineImageType('image/bmp')).toBe(false);
    expect(isInlineImageType('application/pdf')).toBe(false);
  });
});

describe('encodeBase64', () => {
  it('encodes with padding (RFC 4648 test vectors)', () => {
    const vectors: Array<[string, string]> = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [input, output] of vectors) expect(encodeBase64(new Uint8Array(ascii(input)))).toBe(output);
  });

  it('encodes every byte value and large inputs across chunk boundaries', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const decoded = Uint8Array.from(atob(encodeBase64(all)), (c) => c.charCodeAt(0));
    expect([...decoded]).toEqual([...all]);
    const big = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) & 0xff);
    const roundTrip = Uint8Array.from(atob(encodeBase64(big)), (c) => c.charCodeAt(0));
    expect(roundTrip).toEqual(big);
  });
});
