import { ToolError } from '../../core/errors.js';
const BREAKS = /\r\n?/g;
/** `text` with every `\r\n` and `\r` turned into `\n`. */
export function toLf(text) {
    return text.includes('\r') ? text.replace(BREAKS, '\n') : text;
}
/**
 * For each UTF-16 index of `toLf(text)` (and one past its end), the matching index in `text`; null
 * when `text` has no `\r` (the indexes are equal). A `\r\n` is one character in the LF text, so
 * spans found there never split a CRLF in the original.
 */
export function lfToOriginal(text) {
    if (!text.includes('\r'))
        return null;
    const map = new Int32Array(text.length + 1);
    let j = 0;
    for (let i = 0; i < text.length; i += 1) {
        map[j] = i;
        j += 1;
        if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10)
            i += 1;
    }
    map[j] = text.length;
    return map.subarray(0, j + 1);
}
/**
 * Where `needleLf` occurs in `textLf` (both with LF line breaks): UTF-16 start indexes, left to right
 * and non-overlapping. Exact and literal: indexOf, no pattern. A typed array (4 bytes a match), as a
 * replace-all over a large file may find millions.
 */
export function findOccurrences(textLf, needleLf) {
    let found = new Int32Array(16);
    let count = 0;
    for (let at = textLf.indexOf(needleLf); at !== -1; at = textLf.indexOf(needleLf, at + needleLf.length)) {
        if (count === found.length) {
            const grown = new Int32Array(found.length * 2);
            grown.set(found);
            found = grown;
        }
        found[count] = at;
        count += 1;
    }
    return found.subarray(0, count);
}
/**
 * Checks that `count` occurrences (at least one) may all be replaced: `expected_replacements`, when
 * given, must equal `count`; otherwise more than one needs `replace_all`. Throws `ambiguous_match` with
 * `details.count`; `where` is the path as messages show it.
 */
export function checkOccurrenceCount(count, options, where) {
    const times = `${count} time${count === 1 ? '' : 's'}`;
    if (options.expected_replacements !== undefined && options.expected_replacements !== count) {
        throw new ToolError('ambiguous_match', `old_string occurs ${times} in ${where}, but expected_replacements is ${options.expected_replacements}; nothing was changed. ` +
            'Adjust old_string or expected_replacements.', { count });
    }
    if (count > 1 && options.replace_all !== true && options.expected_replacements === undefined) {
        throw new ToolError('ambiguous_match', `old_string occurs ${times} in ${where}; add surrounding context to make it unique, or set replace_all to replace every occurrence`, { count });
    }
}
//# sourceMappingURL=match.js.map