import { detectLineEnding } from '../../fs/text.js';
import { lfToOriginal, toLf } from './match.js';
/** The line break that starts at `i` of `text` (`\r\n`, `\r` or `\n`). */
function breakAt(text, i) {
    return text.charCodeAt(i) === 13 ? (text.charCodeAt(i + 1) === 10 ? '\r\n' : '\r') : '\n';
}
/**
 * The line break new text takes in a span of `text` that begins at `start`: the first break at or
 * after `start` (inside the span, else the one ending its line), else the last one before it, else
 * `fallback`. Keeps a mixed-ending file's other lines as they are and gives the edited lines their
 * neighbours' style. The returned function must be asked for increasing `start`s: it remembers the
 * next break it found, so a replace-all on one long line scans the line once, not once per match.
 */
function spanEndings(text, fallback) {
    let next = -2; // index of the first break at or after the last start asked; -1: none
    let last;
    return (start) => {
        if (next !== -1 && next < start) {
            next = -1;
            for (let i = start; i < text.length; i += 1) {
                const c = text.charCodeAt(i);
                if (c === 10 || c === 13) {
                    next = i;
                    break;
                }
            }
        }
        if (next >= 0)
            return breakAt(text, next);
        // No break after `start`, so the last one before it is the text's last.
        if (last === undefined) {
            const at = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
            last = at === -1 ? fallback : text.charCodeAt(at) === 10 && text.charCodeAt(at - 1) === 13 ? '\r\n' : breakAt(text, at);
        }
        return last;
    };
}
/** Pieces joined this many at a time, so a replace-all with millions of matches holds few strings at once. */
const JOIN_EVERY = 4096;
/**
 * `text` with the spans of `toLf(text)` at `found` (start indexes in increasing order, each `length`
 * UTF-16 units long) replaced by `replacement`, taken literally. The replacement's line breaks take the
 * style of the span they land in (its own, else the text's dominant one), so a CRLF file stays CRLF
 * and a mixed file changes only where edited. Time and extra memory are linear in the text.
 */
export function replaceOccurrences(text, found, length, replacement) {
    const map = lfToOriginal(text);
    const at = (i) => (map === null ? i : map[i]);
    const replacementLf = toLf(replacement);
    const hasBreak = replacementLf.includes('\n');
    const dominant = detectLineEnding(text);
    const ending = spanEndings(text, dominant === 'crlf' ? '\r\n' : dominant === 'cr' ? '\r' : '\n');
    const styled = new Map([['\n', replacementLf]]);
    const chunks = [];
    let parts = [];
    let last = 0;
    for (let k = 0; k < found.length; k += 1) {
        const start = found[k];
        const from = at(start);
        const style = hasBreak ? ending(from) : '\n';
        let piece = styled.get(style);
        if (piece === undefined) {
            piece = replacementLf.split('\n').join(style);
            styled.set(style, piece);
        }
        parts.push(text.slice(last, from), piece);
        last = at(start + length);
        if (parts.length >= JOIN_EVERY) {
            chunks.push(parts.join(''));
            parts = [];
        }
    }
    parts.push(text.slice(last));
    chunks.push(parts.join(''));
    return chunks.join('');
}
//# sourceMappingURL=replace.js.map