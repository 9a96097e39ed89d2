import { Buffer, isUtf8 } from 'node:buffer';
import { ToolError } from '../../src/core/errors.js';
/**
 * Host file names as workspace paths. Linux allows any bytes but `/` and NUL in a name; a JavaScript
 * string holds text. So names travel through the tools in a lossless escaped form:
 *
 * - a byte that is not part of valid UTF-8 is written `\xNN` (two lowercase hex digits);
 * - a backslash that would read as the start of such an escape (`\x` followed by two hex digits) is
 *   itself written `\x5c`;
 * - everything else is the name's UTF-8 text.
 *
 * Every tool accepts the form back: in a path given to the Node platform, `\xNN` always means the
 * byte NN (so `caf\xc3\xa9` is `café`, and a literal backslash before `x` and two hex digits is
 * written `\x5c`). An escape giving `/` or NUL is refused (`invalid_arguments`).
 */
const ESCAPE = /\\x([0-9a-fA-F]{2})/;
const ESCAPE_ALL = /\\x([0-9a-fA-F]{2})/g;
/** True when every byte is ASCII and none is a backslash: the name is its own escaped form. */
function plainAscii(bytes) {
    for (let i = 0; i < bytes.length; i += 1) {
        const b = bytes[i];
        if (b >= 0x80 || b === 0x5c)
            return false;
    }
    return true;
}
/** The escaped string form of raw name (or path) bytes; see the module comment. */
export function escapeBytes(bytes) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (plainAscii(bytes))
        return buffer.toString('latin1');
    if (isUtf8(buffer)) {
        const text = buffer.toString('utf8');
        return ESCAPE.test(text) ? text.replace(/\\(?=x[0-9a-fA-F]{2})/g, '\\x5c') : text;
    }
    let out = '';
    let i = 0;
    while (i < bytes.length) {
        const length = validSequenceLength(bytes, i);
        if (length === 0) {
            out += `\\x${bytes[i].toString(16).padStart(2, '0')}`;
            i += 1;
            continue;
        }
        const text = buffer.toString('utf8', i, i + length);
        if (text === '\\' && bytes[i + 1] === 0x78 && isHex(bytes[i + 2]) && isHex(bytes[i + 3]))
            out += '\\x5c';
        else
            out += text;
        i += length;
    }
    return out;
}
function isHex(byte) {
    return byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}
/** Length of the well-formed UTF-8 sequence starting at `i` (1–4), or 0 when the byte there does not start one. */
function validSequenceLength(bytes, i) {
    const b0 = bytes[i];
    if (b0 < 0x80)
        return 1;
    const cont = (k) => {
        const b = bytes[i + k];
        return b !== undefined && b >= 0x80 && b <= 0xbf;
    };
    const b1 = bytes[i + 1] ?? 0;
    if (b0 >= 0xc2 && b0 <= 0xdf)
        return cont(1) ? 2 : 0;
    if (b0 === 0xe0)
        return b1 >= 0xa0 && b1 <= 0xbf && cont(2) ? 3 : 0;
    if (b0 === 0xed)
        return b1 >= 0x80 && b1 <= 0x9f && cont(2) ? 3 : 0;
    if (b0 >= 0xe1 && b0 <= 0xef)
        return cont(1) && cont(2) ? 3 : 0;
    if (b0 === 0xf0)
        return b1 >= 0x90 && b1 <= 0xbf && cont(2) && cont(3) ? 4 : 0;
    if (b0 >= 0xf1 && b0 <= 0xf3)
        return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (b0 === 0xf4)
        return b1 >= 0x80 && b1 <= 0x8f && cont(2) && cont(3) ? 4 : 0;
    return 0;
}
/**
 * The host path for an escaped workspace path: the string itself when it holds no escape, else the
 * raw bytes as a Buffer. Errors: `invalid_arguments` when an escape gives `/` or NUL.
 */
export function unescapePath(path) {
    if (!path.includes('\\x') || !ESCAPE.test(path))
        return path;
    const parts = [];
    let last = 0;
    for (const match of path.matchAll(ESCAPE_ALL)) {
        const at = match.index;
        const byte = parseInt(match[1], 16);
        if (byte === 0x2f || byte === 0) {
            throw new ToolError('invalid_arguments', `the path has the escape \\x${match[1]}, which would put ${byte === 0 ? 'a NUL byte' : 'a "/"'} inside a name; remove it`);
        }
        parts.push(Buffer.from(path.slice(last, at), 'utf8'), Buffer.of(byte));
        last = at + match[0].length;
    }
    parts.push(Buffer.from(path.slice(last), 'utf8'));
    const bytes = Buffer.concat(parts);
    return isUtf8(bytes) ? bytes.toString('utf8') : bytes;
}
/**
 * The one spelling of an escaped workspace path: its bytes (every `\xNN` read as the byte NN) written
 * back in the form of {@link escapeBytes}. So an escape that spells valid UTF-8 becomes its characters
 * (`\x61.txt` is `a.txt`, `caf\xc3\xa9` is `café`), a `\xNN` stays only for a byte that is not valid
 * UTF-8 (lowercase hex), and a backslash before `x` and two hex digits is `\x5c`. A path with no
 * escape is returned as it is. Errors: `invalid_arguments` when an escape gives `/` or NUL.
 */
export function canonicalPath(path) {
    const raw = unescapePath(path);
    if (raw === path)
        return path;
    return escapeBytes(typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw);
}
//# sourceMappingURL=names.js.map