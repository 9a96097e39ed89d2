/**
 * Checks that an image's bytes can be sent to a multimodal model: its header is complete and sane for
 * its format, and its dimensions are within what the model APIs take. A model provider refuses a
 * request that carries an undecodable or oversized image (and, as the image stays in the conversation,
 * every later request too), so a file that only starts like an image is not sent as one.
 */

/**
 * Most pixels per side of an image sent to a model (8000). Anthropic's "Vision" guide: images larger
 * than 8000x8000 px are rejected (2000x2000 px when a request carries more than 20 images). OpenAI's
 * "Images and vision" guide sets no pixel bound (larger images are scaled down; a 20 MB byte limit),
 * nor do Google's Gemini "Image understanding" pages, so Anthropic's is the one that refuses.
 */
export const MAX_INLINE_IMAGE_SIDE = 8000;

/** What {@link checkInlineImage} found: the image's size in pixels, or why it is not sent as an image. */
export type InlineImageCheck =
  | { ok: true; width: number; height: number }
  | {
      ok: false;
      /** `truncated` (the bytes end inside the header), `invalid` (not that format), `too_large` (in pixels). */
      kind: 'truncated' | 'invalid' | 'too_large';
      /** Why, for a note: "truncated: …", "not a valid PNG: …" or "W×H px is larger than …". */
      reason: string;
      /** The dimensions, when the header was sane but too large. */
      width?: number;
      height?: number;
    };

type Dimensions = { width: number; height: number };
/** A parser's answer: the dimensions, or a problem (`truncated` when the bytes end inside the header). */
type Parsed = Dimensions | { problem: string; truncated?: boolean };

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
};

const u16be = (b: Uint8Array, i: number): number => ((b[i] as number) << 8) | (b[i + 1] as number);
const u16le = (b: Uint8Array, i: number): number => (b[i] as number) | ((b[i + 1] as number) << 8);
const u24le = (b: Uint8Array, i: number): number => u16le(b, i) | ((b[i + 2] as number) << 16);
const u32be = (b: Uint8Array, i: number): number => ((b[i] as number) * 0x1000000 + (u16be(b, i + 1) << 8)) + (b[i + 3] as number);
const u32le = (b: Uint8Array, i: number): number => u16le(b, i) + u16le(b, i + 2) * 0x10000;
const fourcc = (b: Uint8Array, i: number): string => String.fromCharCode(...b.subarray(i, i + 4));
const truncated = (what: string): Parsed => ({ problem: `the file ends inside its ${what}`, truncated: true });

/** CRC-32 (ISO-HDLC, as PNG chunks use) of a few bytes, bit by bit: only a chunk header is ever summed. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Colour types of a PNG IHDR and the bit depths each allows (PNG specification, table 11.1). */
const PNG_DEPTHS: Readonly<Record<number, readonly number[]>> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/**
 * PNG: the signature, then an IHDR chunk of 13 bytes whose CRC matches, with width and height from 1 to
 * 2^31 - 1 and a valid colour type, bit depth, compression, filter and interlace; then the chunks are
 * walked (lengths only) to IEND, with an IDAT on the way, so a file cut short is found.
 */
function parsePng(b: Uint8Array): Parsed {
  if (b.length < 33) return truncated('IHDR header chunk');
  if (u32be(b, 8) !== 13 || fourcc(b, 12) !== 'IHDR') return { problem: 'its first chunk is not a 13-byte IHDR' };
  if (crc32(b.subarray(12, 29)) !== u32be(b, 29)) return { problem: 'the CRC of its IHDR chunk does not match' };
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return { problem: `its IHDR gives ${width}×${height} px` };
  const depth = b[24] as number;
  const colour = b[25] as number;
  if (!(PNG_DEPTHS[colour] ?? []).includes(depth)) return { problem: `its IHDR gives colour type ${colour} with bit depth ${depth}` };
  if (b[26] !== 0 || b[27] !== 0 || (b[28] as number) > 1) return { problem: 'its IHDR gives an unknown compression, filter or interlace method' };
  let at = 33;
  let idat = false;
  for (;;) {
    if (at + 12 > b.length) return truncated('chunks, before IEND');
    const length = u32be(b, at);
    const type = fourcc(b, at + 4);
    if (length > 0x7fffffff) return { problem: `its ${JSON.stringify(type)} chunk gives a length over 2^31 - 1` };
    if (type === 'IEND') break;
    if (type === 'IDAT') idat = true;
    at += 12 + length;
  }
  if (!idat) return { problem: 'it has no IDAT (image data) chunk' };
  return { width, height };
}

/** JPEG start-of-frame markers that carry the frame's size: C0-CF but C4 (DHT), C8 (JPG) and CC (DAC). */
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * JPEG: SOI, then marker segments walked by their lengths up to a start-of-frame (SOFn) segment, complete
 * within the bytes, giving a sample precision of 8, 12 or 16 bits, height and width over 0 and 1 to 4
 * components. Reaching the scan (SOS) or the end image (EOI) first means there is no frame header.
 */
function parseJpeg(b: Uint8Array): Parsed {
  let at = 2;
  for (;;) {
    while (at < b.length && b[at] === 0xff && b[at + 1] === 0xff) at += 1; // fill bytes
    if (at + 2 > b.length) return truncated('header, before its frame (SOF) segment');
    if (b[at] !== 0xff) return { problem: `a marker was expected at byte ${at}` };
    const marker = b[at + 1] as number;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return { problem: 'it has no frame (SOF) segment before its scan' };
    if (at + 4 > b.length) return truncated('header, before its frame (SOF) segment');
    const length = u16be(b, at + 2);
    if (length < 2) return { problem: `a segment at byte ${at} gives a length under 2` };
    if (isStartOfFrame(marker)) {
      if (length < 8) return { problem: 'its frame (SOF) segment is shorter than 8 bytes' };
      if (at + 2 + length > b.length) return truncated('frame (SOF) segment');
      const precision = b[at + 4] as number;
      const height = u16be(b, at + 5);
      const width = u16be(b, at + 7);
      const components = b[at + 9] as number;
      if (![8, 12, 16].includes(precision) || components < 1 || components > 4) {
        return { problem: `its frame (SOF) segment gives ${precision}-bit samples and ${components} components` };
      }
      if (width === 0 || height === 0) return { problem: `its frame (SOF) segment gives ${width}×${height} px` };
      return { width, height };
    }
    at += 2 + length;
  }
}

/** GIF: the GIF87a or GIF89a signature and a complete logical screen descriptor with width and height over 0. */
function parseGif(b: Uint8Array): Parsed {
  if (b.length < 13) return truncated('logical screen descriptor');
  const width = u16le(b, 6);
  const height = u16le(b, 8);
  if (width === 0 || height === 0) return { problem: `its logical screen is ${width}×${height} px` };
  return { width, height };
}

/**
 * WebP: a RIFF container of form WEBP whose size the bytes hold (else cut short), with a first chunk
 * VP8 (key frame start code and 14-bit sizes), VP8L (signature 0x2F and 14-bit sizes) or VP8X (24-bit
 * canvas sizes), its header complete.
 */
function parseWebp(b: Uint8Array): Parsed {
  if (b.length < 20) return truncated('RIFF header');
  const riffSize = u32le(b, 4);
  if (riffSize < 12) return { problem: `its RIFF header gives a size of ${riffSize} bytes` };
  if (b.length < riffSize + 8) return { problem: `its RIFF header gives ${riffSize + 8} bytes but the file has ${b.length}`, truncated: true };
  const chunk = fourcc(b, 12);
  const data = 20;
  if (chunk === 'VP8 ') {
    if (b.length < data + 10) return truncated('VP8 frame header');
    if (b[data + 3] !== 0x9d || b[data + 4] !== 0x01 || b[data + 5] !== 0x2a) return { problem: 'its VP8 chunk has no key frame start code' };
    const width = u16le(b, data + 6) & 0x3fff;
    const height = u16le(b, data + 8) & 0x3fff;
    if (width === 0 || height === 0) return { problem: `its VP8 frame is ${width}×${height} px` };
    return { width, height };
  }
  if (chunk === 'VP8L') {
    if (b.length < data + 5) return truncated('VP8L header');
    if (b[data] !== 0x2f) return { problem: 'its VP8L chunk has no 0x2F signature' };
    const bits = u32le(b, data + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    if (b.length < data + 10) return truncated('VP8X header');
    return { width: u24le(b, data + 4) + 1, height: u24le(b, data + 7) + 1 };
  }
  return { problem: `its first chunk is ${JSON.stringify(chunk)}, not VP8, VP8L or VP8X` };
}

const PARSERS: Readonly<Record<string, (bytes: Uint8Array) => Parsed>> = {
  'image/png': parsePng,
  'image/jpeg': parseJpeg,
  'image/gif': parseGif,
  'image/webp': parseWebp,
};

/**
 * Whether `bytes`, sniffed as `mime` (png, jpeg, gif or webp), can go to a model as an image: its header
 * is complete and sane for the format (PNG: IHDR with its CRC and the chunks to IEND; JPEG: a frame
 * (SOF) segment within the bytes; GIF: the logical screen; WebP: the RIFF size and a VP8, VP8L or VP8X
 * header), its width and height are over 0 and at most {@link MAX_INLINE_IMAGE_SIDE}. Reads the
 * header only (a PNG's chunk lengths too), never decodes pixels. Any other `mime` is not ok.
 */
export function checkInlineImage(bytes: Uint8Array, mime: string): InlineImageCheck {
  const parse = PARSERS[mime];
  const name = FORMAT_NAMES[mime];
  if (parse === undefined || name === undefined) return { ok: false, kind: 'invalid', reason: `${mime} is not an image type sent to models` };
  const parsed = parse(bytes);
  if ('problem' in parsed) {
    return parsed.truncated
      ? { ok: false, kind: 'truncated', reason: `truncated: ${parsed.problem} (${bytes.length} bytes)` }
      : { ok: false, kind: 'invalid', reason: `not a valid ${name}: ${parsed.problem}` };
  }
  const { width, height } = parsed;
  if (width > MAX_INLINE_IMAGE_SIDE || height > MAX_INLINE_IMAGE_SIDE) {
    return { ok: false, kind: 'too_large', reason: `${width}×${height} px is larger than the ${MAX_INLINE_IMAGE_SIDE} px per side models take`, width, height };
  }
  return { ok: true, width, height };
}

/**
 * Why the image `bytes` (sniffed as `mime`) are not sent to the model, and what to do, as a sentence
 * for a result's note; undefined when {@link checkInlineImage} finds them fine.
 */
export function inlineImageRefusal(bytes: Uint8Array, mime: string): string | undefined {
  const check = checkInlineImage(bytes, mime);
  if (check.ok) return undefined;
  const name = FORMAT_NAMES[mime] ?? mime;
  if (check.kind === 'too_large') {
    return `The image's data is not included: ${check.reason}. Make a copy scaled down to at most ${MAX_INLINE_IMAGE_SIDE} px per side and view that.`;
  }
  return (
    `The file starts like a ${name} image, but its data is not included, as a model would refuse it: it is ${check.reason}. ` +
    'If it should be an image, it is damaged or cut short: recreate or re-export it; otherwise it is binary data that cannot be shown.'
  );
}
