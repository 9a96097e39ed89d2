// Crafted image bytes for tests: the smallest files of each format whose headers are complete, and
// helpers to break them. Built byte by byte here, never read from an image library.

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));
const be32 = (n: number): number[] => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const le16 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff];
const le24 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff];
const le32 = (n: number): number[] => [...le16(n & 0xffff), ...le16(n >>> 16)];
const be16 = (n: number): number[] => [(n >>> 8) & 0xff, n & 0xff];

/** CRC-32 as PNG chunks use it. */
export function crc32(bytes: Iterable<number>): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** The 8-byte PNG signature. */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** One PNG chunk: length, type, data and CRC (or `crc` in its place). */
export function pngChunk(type: string, data: number[], crc?: number): number[] {
  const body = [...ascii(type), ...data];
  return [...be32(data.length), ...body, ...be32(crc ?? crc32(body))];
}

/** A PNG of `width`×`height` (8-bit greyscale), with an IDAT (not decodable pixels: only headers are checked) and IEND. */
export function png(width: number, height: number, options: { colour?: number; depth?: number; ihdrCrc?: number } = {}): Uint8Array {
  const ihdr = [...be32(width), ...be32(height), options.depth ?? 8, options.colour ?? 0, 0, 0, 0];
  return new Uint8Array([
    ...PNG_SIGNATURE,
    ...pngChunk('IHDR', ihdr, options.ihdrCrc),
    ...pngChunk('IDAT', [0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]),
    ...pngChunk('IEND', []),
  ]);
}

/** A JPEG header of `width`×`height`: SOI, an APP0 (JFIF) segment, then a baseline SOF0 and an EOI. */
export function jpeg(width: number, height: number): Uint8Array {
  return new Uint8Array([
    0xff, 0xd8,
    0xff, 0xe0, ...be16(16), ...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
    0xff, 0xc0, ...be16(11), 8, ...be16(height), ...be16(width), 1, 1, 0x11, 0,
    0xff, 0xd9,
  ]);
}

/** A GIF89a of `width`×`height`: header and logical screen descriptor, then the trailer. */
export function gif(width: number, height: number): Uint8Array {
  return new Uint8Array([...ascii('GIF89a'), ...le16(width), ...le16(height), 0, 0, 0, 0x3b]);
}

/** A RIFF/WEBP container around one chunk. */
function webp(chunk: string, data: number[]): Uint8Array {
  const padded = data.length % 2 === 1 ? [...data, 0] : data;
  const body = [...ascii('WEBP'), ...ascii(chunk), ...le32(data.length), ...padded];
  return new Uint8Array([...ascii('RIFF'), ...le32(body.length), ...body]);
}

/** A lossy WebP (VP8 key frame header) of `width`×`height` (each at most 16383). */
export function webpVp8(width: number, height: number): Uint8Array {
  return webp('VP8 ', [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...le16(width), ...le16(height), 0, 0]);
}

/** A lossless WebP (VP8L header) of `width`×`height` (each 1 to 16384). */
export function webpVp8l(width: number, height: number): Uint8Array {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  return webp('VP8L', [0x2f, ...le32(bits >>> 0), 0]);
}

/** An extended WebP (VP8X header) with a canvas of `width`×`height` (each up to 2^24). */
export function webpVp8x(width: number, height: number): Uint8Array {
  return webp('VP8X', [0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)]);
}
