/** Largest image, in bytes, that `view_file` returns as `data_base64` for multimodal models (5 MiB). */
export const MAX_INLINE_IMAGE_BYTES = 5 * 1024 * 1024;
/** MIME type of bytes that match no known signature. */
export const UNKNOWN_MIME_TYPE = 'application/octet-stream';
const ascii = (text) => Array.from(text, (c) => c.charCodeAt(0));
// Magic numbers from the WHATWG MIME Sniffing Standard, sections 6.1 (images) and 7.1 (archives, PDF).
const SIGNATURES = [
    { mime: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
    { mime: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
    { mime: 'image/gif', bytes: ascii('GIF87a') },
    { mime: 'image/gif', bytes: ascii('GIF89a') },
    { mime: 'image/webp', bytes: [...ascii('RIFF'), -1, -1, -1, -1, ...ascii('WEBPVP')] },
    { mime: 'image/bmp', bytes: ascii('BM') },
    { mime: 'image/x-icon', bytes: [0x00, 0x00, 0x01, 0x00] },
    { mime: 'application/pdf', bytes: ascii('%PDF-') },
    { mime: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
    { mime: 'application/gzip', bytes: [0x1f, 0x8b, 0x08] },
    { mime: 'application/wasm', bytes: [0x00, 0x61, 0x73, 0x6d] },
];
/** The image types that `view_file` inlines as base64 (png, jpeg, gif, webp). */
const INLINE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/**
 * Guesses a file's MIME type from its first bytes (magic numbers of the WHATWG MIME Sniffing
 * Standard): png, jpeg, gif, webp, bmp, ico, pdf, zip, gzip and wasm; anything else is
 * {@link UNKNOWN_MIME_TYPE}. Never looks at the file name, so a renamed file is still recognised.
 */
export function sniffMimeType(bytes) {
    for (const signature of SIGNATURES) {
        const offset = signature.offset ?? 0;
        if (bytes.length < offset + signature.bytes.length)
            continue;
        let ok = true;
        for (let i = 0; i < signature.bytes.length && ok; i += 1) {
            const expected = signature.bytes[i];
            if (expected !== -1 && bytes[offset + i] !== expected)
                ok = false;
        }
        if (ok)
            return signature.mime;
    }
    return UNKNOWN_MIME_TYPE;
}
/** True for the image MIME types multimodal models accept inline: png, jpeg, gif and webp. */
export function isInlineImageType(mime) {
    return INLINE_IMAGE_TYPES.has(mime);
}
/**
 * Standard base64 (RFC 4648 section 4, with `=` padding) of `bytes`, through the web-standard `btoa`, in
 * chunks so that large inputs never overflow the argument limit of `String.fromCharCode`.
 */
export function encodeBase64(bytes) {
    const CHUNK = 0x8000;
    let binary = '';
    for (let i = 0; i < bytes.length; i += CHUNK) {
        binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
    }
    return btoa(binary);
}
//# sourceMappingURL=mime.js.map