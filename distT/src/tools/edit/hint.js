import { quoteForMessage } from '../../fs/text.js';
function leadingWhitespace(line) {
    return /^[ \t]*/.exec(line)?.[0] ?? '';
}
function describeIndent(indent) {
    if (indent === '')
        return 'no indentation';
    const tabs = indent.split('\t').length - 1;
    const spaces = indent.length - tabs;
    return [tabs > 0 ? `${tabs} tab${tabs === 1 ? '' : 's'}` : '', spaces > 0 ? `${spaces} space${spaces === 1 ? '' : 's'}` : '']
        .filter(Boolean)
        .join(' and ');
}
/** How two lines that are equal up to whitespace differ, in words. */
function whitespaceDifference(fileLine, wanted) {
    const fileIndent = leadingWhitespace(fileLine);
    const wantedIndent = leadingWhitespace(wanted);
    if (fileIndent !== wantedIndent) {
        if (fileIndent.includes('\t') && !wantedIndent.includes('\t'))
            return 'the file indents it with tabs, old_string with spaces';
        if (!fileIndent.includes('\t') && wantedIndent.includes('\t'))
            return 'the file indents it with spaces, old_string with tabs';
        return `the indentation differs (file: ${describeIndent(fileIndent)}; old_string: ${describeIndent(wantedIndent)})`;
    }
    if (fileLine.trimEnd() === wanted.trimEnd())
        return 'trailing whitespace differs';
    return 'whitespace inside the line differs';
}
const squash = (s) => s.replace(/\s+/g, ' ').trim();
const quote = (line) => quoteForMessage(line, { json: true });
function bigrams(s) {
    const grams = new Map();
    for (let i = 0; i + 1 < s.length; i += 1) {
        const gram = s.slice(i, i + 2);
        grams.set(gram, (grams.get(gram) ?? 0) + 1);
    }
    return grams;
}
/** Sørensen–Dice similarity of two strings' bigram multisets, 0..1. */
function similarity(a, aSize, b) {
    const grams = bigrams(b);
    const bSize = Math.max(b.length - 1, 0);
    if (aSize + bSize === 0)
        return 0;
    let shared = 0;
    for (const [gram, n] of grams)
        shared += Math.min(n, a.get(gram) ?? 0);
    return (2 * shared) / (aSize + bSize);
}
const BOM = '\uFEFF';
/**
 * The hint of a `no_match` for an old_string that starts with a byte order mark the text lacks. A file's
 * BOM never matches: decodeText strips it from the text (view_file hides it, writes keep it). Without
 * this hint the whitespace hints would call it a whitespace difference (`\s` matches U+FEFF). Null when
 * that is not the problem.
 */
function bomHint(fileLf, needleLf, fileHasBom) {
    if (!needleLf.startsWith(BOM) || fileLf.includes(BOM))
        return null;
    const why = fileHasBom
        ? "old_string starts with a byte order mark (U+FEFF), but the file's BOM is not part of its text: view_file hides it and edit_file keeps it as it is."
        : 'old_string starts with a byte order mark (U+FEFF), which the file does not have.';
    const rest = needleLf.slice(BOM.length);
    const at = rest === '' ? -1 : fileLf.indexOf(rest);
    if (at === -1)
        return { hint: `${why} Remove it from the start of old_string.` };
    let line = 1;
    for (let i = fileLf.indexOf('\n'); i !== -1 && i < at; i = fileLf.indexOf('\n', i + 1))
        line += 1;
    return { hint: `${why} Remove it from the start of old_string: without it, old_string is found at line ${line}.`, line };
}
/** The first `max` lines of `text` (LF breaks). */
function firstLines(text, max) {
    const lines = [];
    let at = 0;
    while (lines.length < max) {
        const next = text.indexOf('\n', at);
        if (next === -1) {
            lines.push(text.slice(at));
            break;
        }
        lines.push(text.slice(at, next));
        at = next + 1;
    }
    return lines;
}
/** Most file lines the hints look at; a longer file is searched in its first 100,000 lines only. */
const HINT_MAX_LINES = 100_000;
/**
 * The hint of a `no_match` error for `needleLf` (old_string, LF line breaks) in `fileLf` (the file's text,
 * LF line breaks): the closest line and how it differs, in words. Tries, in order: a byte order mark the
 * text lacks, a multi-line old_string whose first lines match ({@link prefixHint}), a line that differs
 * only in whitespace ({@link whitespaceHint}), and the most similar line ({@link similarLineHint}).
 */
export function noMatchHint(fileLf, needleLf, fileHasBom) {
    const bom = bomHint(fileLf, needleLf, fileHasBom);
    if (bom)
        return bom;
    if (fileLf === '')
        return { hint: 'The file is empty.' };
    const wantedLines = needleLf.split('\n');
    // Only the lines the hints may look at: a huge file is not split whole.
    const lines = firstLines(fileLf, HINT_MAX_LINES + wantedLines.length);
    const first = wantedLines.findIndex((line) => line.trim() !== '');
    if (first === -1) {
        return { hint: 'old_string holds only whitespace; include some of the text around the place to edit.' };
    }
    const limit = Math.min(lines.length, HINT_MAX_LINES);
    const wanted = wantedLines[first];
    return prefixHint(lines, wantedLines, first, limit) ?? whitespaceHint(lines, wanted, limit) ?? similarLineHint(lines, wanted, limit);
}
/**
 * For an old_string of several lines: the file line where its first non-blank line (`wantedLines[first]`)
 * occurs with the most of its following lines after it, and the first line that then differs. Null when
 * old_string has one line or its first non-blank line occurs nowhere (as a whole line, or as a line's end
 * when it is old_string's first line).
 */
function prefixHint(lines, wantedLines, first, limit) {
    const wanted = wantedLines[first];
    if (wantedLines.length <= first + 1)
        return null;
    const following = matchedAfter(lines, wantedLines.slice(first + 1), lines.length);
    let start = -1;
    let startMatched = 0;
    for (let i = 0; i < limit; i += 1) {
        const line = lines[i];
        if (line !== wanted && !(first === 0 && line.endsWith(wanted)))
            continue;
        const matched = 1 + (following[i + 1] ?? 0);
        if (matched > startMatched) {
            start = i;
            startMatched = matched;
        }
    }
    if (start === -1)
        return null;
    const k = first + startMatched;
    const n = start + startMatched + 1;
    const fileLine = lines[n - 1];
    const want = wantedLines[k];
    if (want === undefined) {
        return { hint: `Line ${start + 1} matches old_string from its first non-blank line on, but the lines before it differ.`, line: start + 1 };
    }
    if (fileLine === undefined) {
        return { hint: `Line ${start + 1} matches the start of old_string, but the file ends before old_string does.`, line: start + 1 };
    }
    const how = squash(fileLine) === squash(want) ? ` (${whitespaceDifference(fileLine, want)})` : '';
    return {
        hint: `Line ${start + 1} matches the start of old_string, but line ${n} differs${how}: the file has ${quote(fileLine)} ` +
            `where old_string has ${quote(want)}. View lines ${start + 1}-${n} and copy them exactly.`,
        line: start + 1,
    };
}
/**
 * For each `i < count`, how many of `pattern`'s lines `lines[i]`, `lines[i + 1]`, ... match in order:
 * the Z-algorithm over line ids, so the whole table takes time linear in the lines (comparing line by
 * line from every candidate would be quadratic for a file of repeated lines).
 */
function matchedAfter(lines, pattern, count) {
    const ids = new Map();
    for (const line of pattern)
        if (!ids.has(line))
            ids.set(line, ids.size);
    // pattern, a separator, then the lines: -1 for a line not in the pattern, -2 for the separator.
    const n = Math.min(count, lines.length);
    const seq = new Int32Array(pattern.length + 1 + n);
    pattern.forEach((line, i) => (seq[i] = ids.get(line)));
    seq[pattern.length] = -2;
    for (let i = 0; i < n; i += 1)
        seq[pattern.length + 1 + i] = ids.get(lines[i]) ?? -1;
    const z = new Int32Array(seq.length);
    let left = 0;
    let right = 0;
    for (let i = 1; i < seq.length; i += 1) {
        let k = i < right ? Math.min(right - i, z[i - left]) : 0;
        while (i + k < seq.length && seq[k] === seq[i + k] && seq[k] !== -1)
            k += 1;
        z[i] = k;
        if (i + k > right) {
            left = i;
            right = i + k;
        }
    }
    return z.subarray(pattern.length + 1);
}
/**
 * The first file line equal to `wanted` (old_string's first non-blank line) once runs of whitespace are
 * squashed, else the first that holds its text (3 or more characters) once whitespace is removed. Null
 * when there is neither.
 */
function whitespaceHint(lines, wanted, limit) {
    const wantedSquashed = squash(wanted);
    const wantedBare = wanted.replace(/\s+/g, '');
    let fragment = -1;
    for (let i = 0; i < limit; i += 1) {
        const line = lines[i];
        if (squash(line) === wantedSquashed) {
            return {
                hint: `The closest line is ${i + 1}: ${quote(line)}, which differs from old_string only in whitespace: ` +
                    `${whitespaceDifference(line, wanted)}. Copy indentation and whitespace exactly as the file has them.`,
                line: i + 1,
            };
        }
        if (fragment === -1 && wantedBare.length >= 3 && line.replace(/\s+/g, '').includes(wantedBare))
            fragment = i;
    }
    if (fragment === -1)
        return null;
    return {
        hint: `The closest line is ${fragment + 1}: ${quote(lines[fragment])}, which holds the text of old_string ` +
            'with different whitespace. Copy spaces, tabs and indentation exactly as the file has them.',
        line: fragment + 1,
    };
}
/**
 * The file line most similar to `wanted` (bigram similarity of the first 500 characters, case and
 * whitespace runs ignored), when it scores at least 0.4; else a hint to view the file.
 */
function similarLineHint(lines, wanted, limit) {
    const target = squash(wanted).toLowerCase().slice(0, 500);
    const targetGrams = bigrams(target);
    const targetSize = Math.max(target.length - 1, 0);
    let best = -1;
    let bestScore = 0;
    for (let i = 0; i < limit; i += 1) {
        const candidate = squash(lines[i]).toLowerCase().slice(0, 500);
        if (candidate === '')
            continue;
        const score = similarity(targetGrams, targetSize, candidate);
        if (score > bestScore) {
            bestScore = score;
            best = i;
        }
    }
    if (best === -1 || bestScore < 0.4) {
        return { hint: 'No line resembles the first line of old_string; view_file the file to see its current content.' };
    }
    return {
        hint: `The closest line is ${best + 1}: ${quote(lines[best])}. Text, whitespace and indentation must match ` +
            'exactly; view_file the lines around it and copy them.',
        line: best + 1,
    };
}
//# sourceMappingURL=hint.js.map