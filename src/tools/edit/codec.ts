import { BINARY_SNIFF_BYTES, decodeText, encodeText, type DecodedText } from '../../fs/text.js';
import type { Pace } from './pace.js';

/** Bytes decoded, or UTF-16 units encoded, at once by the paced codecs: a few ms of work each. */
const CODEC_SLICE = 4 << 20;

/**
 * {@link decodeText} of `bytes` (binary: null; a BOM removed and reported), a slice of 4 MiB at a time
 * with `pace` between slices: a streaming fatal decoder, so a character split between slices decodes
 * whole and invalid UTF-8 anywhere is still null. Small inputs decode at once.
 */
export async function decodeTextPaced(bytes: Uint8Array, pace: Pace): Promise<DecodedText | null> {
  if (bytes.length <= CODEC_SLICE) return decodeText(bytes);
  const sniff = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < sniff; i += 1) if (bytes[i] === 0) return null;
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const parts: string[] = [];
  try {
    for (let start = bom ? 3 : 0; start < bytes.length; start += CODEC_SLICE) {
      const end = Math.min(bytes.length, start + CODEC_SLICE);
      parts.push(decoder.decode(bytes.subarray(start, end), { stream: end < bytes.length }));
      if (pace.due()) await pace.pause();
    }
  } catch {
    return null;
  }
  return { text: parts.join(''), bom };
}

/**
 * {@link encodeText} of `text` (a BOM in front when `bom`), 4 Mi UTF-16 units at a time with `pace`
 * between slices (a surrogate pair is never split), straight into one array: sized for about one byte
 * a unit and grown by half when the text needs more, so the pages of a new array are first touched slice by
 * slice, not all at once. The result may be a view on a larger buffer. Small texts encode at once.
 */
export async function encodeTextPaced(text: string, bom: boolean, pace: Pace): Promise<Uint8Array> {
  if (text.length <= CODEC_SLICE) return encodeText(text, bom);
  const encoder = new TextEncoder();
  let out = new Uint8Array(text.length + (text.length >> 6) + 3);
  let at = 0;
  if (bom) {
    out.set([0xef, 0xbb, 0xbf]);
    at = 3;
  }
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + CODEC_SLICE);
    const last = text.charCodeAt(end - 1);
    // A high surrogate ending the slice takes its low half along.
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    let slice = text.slice(start, end);
    for (;;) {
      const { read, written } = encoder.encodeInto(slice, out.subarray(at));
      at += written;
      if (read === slice.length) break;
      // Out of room (text beyond one byte a unit): grown by half, or by what the rest can need at most.
      slice = slice.slice(read);
      const grown = new Uint8Array(Math.max(Math.floor(out.length * 1.5), at + slice.length * 3));
      grown.set(out.subarray(0, at));
      out = grown;
    }
    start = end;
    if (pace.due()) await pace.pause();
  }
  return out.subarray(0, at);
}
