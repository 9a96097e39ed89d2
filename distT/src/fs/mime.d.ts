/** Largest image, in bytes, that `view_file` returns as `data_base64` for multimodal models (5 MiB). */
export declare const MAX_INLINE_IMAGE_BYTES: number;
/** MIME type of bytes that match no known signature. */
export declare const UNKNOWN_MIME_TYPE = "application/octet-stream";
/**
 * Guesses a file's MIME type from its first bytes (magic numbers of the WHATWG MIME Sniffing
 * Standard): png, jpeg, gif, webp, bmp, ico, pdf, zip, gzip and wasm; anything else is
 * {@link UNKNOWN_MIME_TYPE}. Never looks at the file name, so a renamed file is still recognised.
 */
export declare function sniffMimeType(bytes: Uint8Array): string;
/** True for the image MIME types multimodal models accept inline: png, jpeg, gif and webp. */
export declare function isInlineImageType(mime: string): boolean;
/**
 * Standard base64 (RFC 4648 section 4, with `=` padding) of `bytes`, through the web-standard `btoa`, in
 * chunks so that large inputs never overflow the argument limit of `String.fromCharCode`.
 */
export declare function encodeBase64(bytes: Uint8Array): string;
