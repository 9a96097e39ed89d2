// The character encoding of a web_fetch response body, found as browsers find it (the WHATWG
// encoding sniffing, simplified): a byte order mark, then the Content-Type header's charset, then for
// HTML a <meta> charset in the first 1,024 bytes, else UTF-8. Labels go through TextDecoder, which
// knows the WHATWG labels (`iso-8859-1`, `latin1` and `ascii` mean windows-1252 there, as in browsers).
// Imports nothing.

/** Bytes of an HTML page searched for a `<meta>` charset (as browsers' pre-scan). */
const META_SCAN_BYTES = 1024;

/** A body decoded: its text and the WHATWG name of the encoding used (`utf-8`, `windows-1252`, `shift_jis`, …). */
export interface DecodedBody {
  text: string;
  encoding: string;
}

/** A decoder for `label`, or undefined when TextDecoder knows no such label (or it names the `replacement` encoding). */
function decoderFor(label: string | undefined): TextDecoder | undefined {
  if (label === undefined || label.trim() === '') return undefined;
  try {
    const decoder = new TextDecoder(label.trim());
    return decoder.encoding === 'replacement' ? undefined : decoder;
  } catch {
    return undefined;
  }
}

/** The encoding a byte order mark at the start of `bytes` names, if any. */
function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** The `charset` parameter of a Content-Type header value (quoted or not), if any. */
export function headerCharset(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * The charset an HTML page declares in its first 1,024 bytes: `<meta charset="…">` or
 * `<meta http-equiv="Content-Type" content="…; charset=…">`, the first such `<meta>` winning.
 */
export function metaCharset(bytes: Uint8Array): string | undefined {
  // Bytes as Latin-1 characters: the ASCII of any ASCII-compatible encoding reads as itself.
  // Comments are passed over, as browsers' prescan does (a commented-out <meta> names no charset);
  // one left open runs to the end of what is scanned.
  const head = String.fromCharCode(...bytes.subarray(0, META_SCAN_BYTES)).replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  for (const [tag] of head.matchAll(/<meta\b[^>]*>?/gi)) {
    const attributes = new Map<string, string>();
    for (const [, name = '', double, single, bare] of tag.slice(5).matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/g)) {
      const key = name.toLowerCase();
      if (!attributes.has(key)) attributes.set(key, double ?? single ?? bare ?? '');
    }
    const direct = attributes.get('charset');
    if (direct !== undefined && direct.trim() !== '') return direct.trim();
    if (attributes.get('http-equiv')?.trim().toLowerCase() === 'content-type') {
      const charset = /charset\s*=\s*["']?\s*([^\s"';]+)/i.exec(attributes.get('content') ?? '');
      if (charset) return charset[1];
    }
  }
  return undefined;
}

/**
 * `bytes` decoded as a browser decodes them: the encoding a byte order mark names (UTF-8, UTF-16LE,
 * UTF-16BE), else the `contentType` header's charset, else (when `html`) the page's `<meta>` charset
 * (a UTF-16 one meaning UTF-8, as for browsers), else UTF-8. A label TextDecoder does not know is
 * passed over for the next rule. Malformed bytes become U+FFFD.
 */
export function decodeBody(bytes: Uint8Array, contentType: string, html: boolean): DecodedBody {
  let decoder = decoderFor(bomEncoding(bytes)) ?? decoderFor(headerCharset(contentType));
  if (decoder === undefined && html) {
    decoder = decoderFor(metaCharset(bytes));
    // A page cannot declare itself UTF-16 from inside: its <meta> was readable as ASCII.
    if (decoder?.encoding.startsWith('utf-16')) decoder = undefined;
  }
  decoder ??= new TextDecoder('utf-8');
  return { text: decoder.decode(bytes), encoding: decoder.encoding };
}

/** True when `bytes` (undecoded) start like an HTML document: `<!doctype html` or `<html`, after whitespace or a UTF-8 BOM. */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = String.fromCharCode(...bytes.subarray(0, 256));
  return /^(?:\xef\xbb\xbf)?\s*<(!doctype html|html)/i.test(head);
}
