import { ToolError } from '../../core/errors.js';
import { quoteForMessage } from '../../fs/text.js';
const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARK = '*** End of File';
function bad(message) {
    return new ToolError('invalid_arguments', message);
}
/** A patch path: relative, not empty, trimmed. Absolute paths and `..` are refused here, before any file is read. */
function checkPath(raw, lineNumber) {
    const at = lineNumber === null ? '' : `line ${lineNumber}: `;
    const path = raw.trim();
    if (path === '')
        throw bad(`${at}the file path is empty; write it after the marker, e.g. "*** Update File: src/app.ts"`);
    if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) {
        throw bad(`${at}${quoteForMessage(path)} is an absolute path; patch paths are relative to the workspace, e.g. "src/app.ts"`);
    }
    if (path.split(/[\\/]/).includes('..')) {
        throw bad(`${at}${quoteForMessage(path)} contains "..", which patch paths may not use; give the path from the workspace root`);
    }
    return path;
}
/**
 * Parses the chunks of one file update (the lines after `*** Update File:` / `*** Move to:`, or the
 * headerless diff of a Responses API `update_file` operation). `first` is the number of `lines[0]`
 * in the whole patch, for messages. The first chunk may leave out its `@@` line, as Codex allows.
 */
export function parseChunks(lines, path, first = 1) {
    const chunks = [];
    let current = null;
    for (let i = 0; i < lines.length; i += 1) {
        const line = lines[i];
        const number = first + i;
        if (line === '@@' || line.startsWith('@@ ')) {
            current = { oldLines: [], newLines: [], endOfFile: false, kinds: [] };
            const context = line === '@@' ? '' : line.slice(3).trim();
            if (context !== '')
                current.context = context;
            chunks.push(current);
            continue;
        }
        if (line === EOF_MARK) {
            if (current === null || current.oldLines.length + current.newLines.length === 0) {
                throw bad(`line ${number}: "${EOF_MARK}" comes before any line of a hunk in ${quoteForMessage(path)}; put it after the hunk's last line`);
            }
            current.endOfFile = true;
            current = null;
            continue;
        }
        if (current === null) {
            if (chunks.length > 0 && chunks[chunks.length - 1]?.endOfFile) {
                throw bad(`line ${number}: ${quoteForMessage(line, { json: true })} follows "${EOF_MARK}" in ${quoteForMessage(path)}; nothing may follow the end of the file`);
            }
            current = { oldLines: [], newLines: [], endOfFile: false, kinds: [] };
            chunks.push(current);
        }
        const mark = line[0];
        const text = line.slice(1);
        if (line === '' || mark === ' ') {
            // An empty line is an empty context line (models often drop the single space).
            current.oldLines.push(line === '' ? '' : text);
            current.newLines.push(line === '' ? '' : text);
            current.kinds.push(' ');
        }
        else if (mark === '-') {
            current.oldLines.push(text);
            current.kinds.push('-');
        }
        else if (mark === '+') {
            current.newLines.push(text);
            current.kinds.push('+');
        }
        else {
            throw bad(`line ${number}: unexpected line ${quoteForMessage(line, { json: true })} in the update of ${quoteForMessage(path)}; ` +
                'every line of a hunk starts with " " (context), "-" (removed) or "+" (added), and hunks start with "@@"');
        }
    }
    const filled = chunks.filter((chunk) => chunk.oldLines.length + chunk.newLines.length > 0 || chunk.context !== undefined);
    for (const chunk of filled) {
        if (chunk.oldLines.length + chunk.newLines.length === 0) {
            throw bad(`a hunk of ${quoteForMessage(path)} (after "@@ ${chunk.context}") has no lines; add its context, "-" and "+" lines`);
        }
    }
    return filled;
}
/**
 * Parses a V4A patch in Codex's envelope: `*** Begin Patch`, then `*** Add File: path` (lines of `+`),
 * `*** Delete File: path`, `*** Update File: path` (optionally `*** Move to: path`, then `@@` hunks of
 * ` `, `-` and `+` lines, a hunk's `@@` optionally followed by a context line, `*** End of File` after a
 * hunk that ends the file), and `*** End Patch`. Line endings of the patch (`\n` or `\r\n`) do not
 * matter; blank lines around the envelope are ignored.
 *
 * Errors (`invalid_arguments`, naming the line): a missing `*** Begin Patch` or `*** End Patch`, a line
 * that is no operation header, a `+` line outside an Add File, an empty update, an absolute path or
 * one with `..`, two operations on one path.
 */
export function parsePatch(patch) {
    const lines = patch.replace(/\r\n/g, '\n').split('\n');
    let start = 0;
    while (start < lines.length && lines[start].trim() === '')
        start += 1;
    let end = lines.length - 1;
    while (end >= start && lines[end].trim() === '')
        end -= 1;
    if (start > end || lines[start].trim() !== BEGIN) {
        throw bad(`the first line of the patch must be "${BEGIN}"; wrap the changes in "${BEGIN}" ... "${END}"`);
    }
    if (end === start || lines[end].trim() !== END) {
        throw bad(`the last line of the patch must be "${END}"; the patch looks cut off. Send the whole patch again, ending with "${END}"`);
    }
    const operations = [];
    const seen = new Set();
    const claim = (path, number) => {
        if (seen.has(path))
            throw bad(`line ${number}: ${quoteForMessage(path)} appears in two operations of one patch; put all changes to a file in one "*** Update File:" section`);
        seen.add(path);
    };
    let i = start + 1;
    while (i < end) {
        const line = lines[i];
        const number = i + 1;
        if (line.trim() === '') {
            i += 1;
            continue;
        }
        if (line.startsWith(ADD)) {
            const path = checkPath(line.slice(ADD.length), number);
            claim(path, number);
            const body = [];
            i += 1;
            while (i < end && !lines[i].startsWith('*** ')) {
                const added = lines[i];
                if (!added.startsWith('+')) {
                    throw bad(`line ${i + 1}: ${quoteForMessage(added, { json: true })} in "*** Add File: ${path}" does not start with "+"; every line of a new file starts with "+"`);
                }
                body.push(added.slice(1));
                i += 1;
            }
            operations.push({ type: 'add', path, content: body.length === 0 ? '' : body.join('\n') + '\n' });
            continue;
        }
        if (line.startsWith(DELETE)) {
            const path = checkPath(line.slice(DELETE.length), number);
            claim(path, number);
            operations.push({ type: 'delete', path });
            i += 1;
            continue;
        }
        if (line.startsWith(UPDATE)) {
            const path = checkPath(line.slice(UPDATE.length), number);
            claim(path, number);
            i += 1;
            let moveTo;
            if (i < end && lines[i].startsWith(MOVE)) {
                moveTo = checkPath(lines[i].slice(MOVE.length), i + 1);
                if (moveTo !== path)
                    claim(moveTo, i + 1);
                i += 1;
            }
            const from = i;
            while (i < end && (!lines[i].startsWith('*** ') || lines[i] === EOF_MARK))
                i += 1;
            const chunks = parseChunks(lines.slice(from, i), path, from + 1);
            if (chunks.length === 0 && moveTo === undefined) {
                throw bad(`line ${number}: the update of ${quoteForMessage(path)} has no hunks; add "@@" hunks, or leave the file out of the patch`);
            }
            const operation = { type: 'update', path, chunks };
            if (moveTo !== undefined)
                operation.moveTo = moveTo;
            operations.push(operation);
            continue;
        }
        if (line.startsWith('+') || line.startsWith('-') || line.startsWith('@@')) {
            throw bad(`line ${number}: ${quoteForMessage(line, { json: true })} is outside any file operation; ` +
                'hunk lines belong after "*** Update File: path" (or "+" lines after "*** Add File: path")');
        }
        throw bad(`line ${number}: ${quoteForMessage(line, { json: true })} is not a valid operation header; ` +
            `use "${ADD}path", "${DELETE}path" or "${UPDATE}path"`);
    }
    if (operations.length === 0)
        throw bad(`the patch holds no file operations; add "${ADD}", "${DELETE}" or "${UPDATE}" sections`);
    return operations;
}
/**
 * Parses the `diff` of a Responses API `create_file` operation: V4A lines that all start with `+`
 * (the file's content). Errors: `invalid_arguments` naming a line without `+`.
 */
export function parseCreateDiff(diff, path) {
    const lines = diff.replace(/\r\n/g, '\n').split('\n');
    while (lines.length > 0 && lines[lines.length - 1] === '')
        lines.pop();
    const body = [];
    for (let i = 0; i < lines.length; i += 1) {
        const line = lines[i];
        if (!line.startsWith('+')) {
            throw bad(`line ${i + 1} of the diff for ${quoteForMessage(path)}: ${quoteForMessage(line, { json: true })} does not start with "+"; every line of a new file starts with "+"`);
        }
        body.push(line.slice(1));
    }
    return body.length === 0 ? '' : body.join('\n') + '\n';
}
/** Checks a Responses API operation path as a patch path (relative, no `..`). */
export function checkOperationPath(path) {
    return checkPath(path, null).replace(/^\.\//, '');
}
//# sourceMappingURL=parse.js.map