import { Buffer } from 'node:buffer';
/** The escaped string form of raw name (or path) bytes; see the module comment. */
export declare function escapeBytes(bytes: Uint8Array): string;
/**
 * The host path for an escaped workspace path: the string itself when it holds no escape, else the
 * raw bytes as a Buffer. Errors: `invalid_arguments` when an escape gives `/` or NUL.
 */
export declare function unescapePath(path: string): string | Buffer;
/**
 * The one spelling of an escaped workspace path: its bytes (every `\xNN` read as the byte NN) written
 * back in the form of {@link escapeBytes}. So an escape that spells valid UTF-8 becomes its characters
 * (`\x61.txt` is `a.txt`, `caf\xc3\xa9` is `café`), a `\xNN` stays only for a byte that is not valid
 * UTF-8 (lowercase hex), and a backslash before `x` and two hex digits is `\x5c`. A path with no
 * escape is returned as it is. Errors: `invalid_arguments` when an escape gives `/` or NUL.
 */
export declare function canonicalPath(path: string): string;
