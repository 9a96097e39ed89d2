import { ToolError } from '../../core/errors.js';
import { quoteForMessage } from '../../fs/text.js';

/** One `@@` section of an update: optional context header, the lines it expects and the lines it writes. */
export interface PatchChunk {
  /** The text after `@@ ` (a line to find before the chunk, such as a function header); absent for a bare `@@`. */
  context?: string;
  /** Lines the file must hold here (context and `-` lines, in order), without line endings. */
  oldLines: string[];
  /** Lines written in their place (context and `+` lines, in order). */
  newLines: string[];
  /** The chunk ends with `*** End of File`: its lines are matched at the end of the file. */
  endOfFile: boolean;
  /** Each hunk line's kind in order (` ` context, `-` removed, `+` added), so context lines keep the file's own text. */
  kinds: Array<' ' | '-' | '+'>;
}

/** One file operation of a V4A patch. */
export type PatchOperation =
  | { type: 'add'; path: string; content: string }
  | { type: 'delete'; path: string }
  | { type: 'update'; path: string; moveTo?: string; chunks: PatchChunk[] };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARK = '*** End of File';
const ENVIRONMENT = '*** Environment ID:';

function bad(message: string): ToolError {
  return new ToolError('invalid_arguments', message);
}

/**
 * A patch path: not empty, trimmed. Relative paths are taken from the working directory; absolute
 * paths and `..` are allowed here, as Codex allows them, and confinement decides later (a path
 * outside the workspace is `outside_workspace`).
 */
function checkPath(raw: string, lineNumber: number | null): string {
  const at = lineNumber === null ? '' : `line ${lineNumber}: `;
  const path = raw.trim();
  if (path === '') throw bad(`${at}the file path is empty; write it after the marker, e.g. "*** Update File: src/app.ts"`);
  return path;
}

/** Whether `line` is the `*** End of File` marker (surrounding whitespace tolerated). */
function isEofMarker(line: string): boolean {
  return line.trim() === EOF_MARK;
}

function unexpectedLine(line: string, number: number, path: string): ToolError {
  return bad(
    `line ${number}: unexpected line ${quoteForMessage(line, { json: true })} in the update of ${quoteForMessage(path)}; ` +
      'every line of a hunk starts with " " (context), "-" (removed) or "+" (added), and hunks start with "@@"',
  );
}

function newChunk(context: string | undefined): PatchChunk {
  const chunk: PatchChunk = { oldLines: [], newLines: [], endOfFile: false, kinds: [] };
  if (context !== undefined && context.trim() !== '') chunk.context = context;
  return chunk;
}

/**
 * Parses one chunk starting at `lines[from]` (a `@@` line, or, for the first chunk, its first hunk
 * line) and returns it with the index after its last line. A chunk ends at `*** End of File` (which
 * it consumes) or at the first line that is no hunk line (a later `@@`, a blank-free line of another
 * kind).
 */
function parseOneChunk(lines: readonly string[], from: number, isFirst: boolean, path: string, first: number): { chunk: PatchChunk; next: number } {
  const head = lines[from] as string;
  let i = from;
  let chunk: PatchChunk;
  if (head.trimEnd() === '@@' || head.startsWith('@@ ')) {
    chunk = newChunk(head.trimEnd() === '@@' ? undefined : head.slice(3));
    i += 1;
  } else if (isFirst) {
    chunk = newChunk(undefined);
  } else {
    throw unexpectedLine(head, first + from, path);
  }
  const empty = (): ToolError => bad(`line ${first + i}: a hunk of ${quoteForMessage(path)}${chunk.context !== undefined ? ` (after "@@ ${chunk.context}")` : ''} has no lines; add its context, "-" and "+" lines`);
  if (i >= lines.length) throw empty();
  let parsed = 0;
  for (; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (isEofMarker(line)) {
      if (parsed === 0) throw empty();
      chunk.endOfFile = true;
      return { chunk, next: i + 1 };
    }
    const mark = line[0];
    if (line === '' || mark === ' ') {
      // An empty line is an empty context line (models often drop the single space).
      const text = line.slice(1);
      chunk.oldLines.push(text);
      chunk.newLines.push(text);
      chunk.kinds.push(' ');
    } else if (mark === '-') {
      chunk.oldLines.push(line.slice(1));
      chunk.kinds.push('-');
    } else if (mark === '+') {
      chunk.newLines.push(line.slice(1));
      chunk.kinds.push('+');
    } else if (parsed === 0) {
      throw unexpectedLine(line, first + i, path);
    } else {
      break;
    }
    parsed += 1;
  }
  return { chunk, next: i };
}

/**
 * Parses the chunks of one file update (the lines after `*** Update File:` / `*** Move to:`, or the
 * headerless diff of a Responses API `update_file` operation), as Codex's parser reads them: blank
 * lines between chunks are skipped (also after `*** End of File`), the first chunk may leave out its
 * `@@` line, and a chunk ends at `*** End of File` or at the next `@@`. `first` is the number of
 * `lines[0]` in the whole patch, for messages.
 */
export function parseChunks(lines: readonly string[], path: string, first = 1): PatchChunk[] {
  const chunks: PatchChunk[] = [];
  let i = 0;
  while (i < lines.length) {
    if ((lines[i] as string).trim() === '') {
      i += 1;
      continue;
    }
    const { chunk, next } = parseOneChunk(lines, i, chunks.length === 0, path, first);
    chunks.push(chunk);
    i = next;
  }
  return chunks;
}

const HEREDOC_OPEN = /^(?:(?:apply_patch|applypatch)\s+)?<<\s*(?:EOF|'EOF'|"EOF")$/;

/** The first and last lines of the patch proper (0-based, inclusive), past blank lines and a heredoc wrapper. */
function envelope(lines: readonly string[]): { start: number; end: number } {
  let start = 0;
  let end = lines.length - 1;
  const skipBlank = (): void => {
    while (start <= end && (lines[start] as string).trim() === '') start += 1;
    while (end >= start && (lines[end] as string).trim() === '') end -= 1;
  };
  skipBlank();
  // `<<'EOF'` ... `EOF` (also unquoted or double-quoted, optionally after `apply_patch`): the shell
  // heredoc a model writes when it thinks of apply_patch as a command; Codex unwraps it.
  if (
    end - start >= 3 &&
    (lines[start] as string).trim() !== BEGIN &&
    HEREDOC_OPEN.test((lines[start] as string).trim()) &&
    (lines[end] as string).trimEnd().endsWith('EOF')
  ) {
    start += 1;
    end -= 1;
    skipBlank();
  }
  if (start > end || (lines[start] as string).trim() !== BEGIN) {
    throw bad(`the first line of the patch must be "${BEGIN}"; wrap the changes in "${BEGIN}" ... "${END}"`);
  }
  if (end === start || (lines[end] as string).trim() !== END) {
    throw bad(`the last line of the patch must be "${END}"; the patch looks cut off. Send the whole patch again, ending with "${END}"`);
  }
  return { start, end };
}

/**
 * Parses a V4A patch in Codex's envelope: `*** Begin Patch`, an optional `*** Environment ID: id`
 * line, then `*** Add File: path` (lines of `+`), `*** Delete File: path`, `*** Update File: path`
 * (optionally `*** Move to: path`, then `@@` hunks of ` `, `-` and `+` lines, a hunk's `@@`
 * optionally followed by a context line, `*** End of File` after a hunk that ends the file), and
 * `*** End Patch`. Leniencies, as Codex's parser: line endings (`\n` or `\r\n`), blank lines around
 * the envelope and between hunks, whitespace around the markers and operation headers, and a shell
 * heredoc around the whole patch (`<<'EOF'` ... `EOF`, the quotes optional, `apply_patch` before it
 * allowed).
 *
 * Errors (`invalid_arguments`, naming the line): a missing `*** Begin Patch` or `*** End Patch`, a line
 * that is no operation header, a `+` line outside an Add File, an empty update, an empty or repeated
 * `*** Environment ID:`, two operations on one path.
 */
export function parsePatch(patch: string): PatchOperation[] {
  const lines = patch.replace(/\r\n/g, '\n').split('\n');
  const { start, end } = envelope(lines);
  const operations: PatchOperation[] = [];
  const seen = new Set<string>();
  const claim = (path: string, number: number): void => {
    if (seen.has(path)) throw bad(`line ${number}: ${quoteForMessage(path)} appears in two operations of one patch; put all changes to a file in one "*** Update File:" section`);
    seen.add(path);
  };
  let i = start + 1;
  while (i < end && (lines[i] as string).trim() === '') i += 1;
  if (i < end && (lines[i] as string).trim().startsWith(ENVIRONMENT)) {
    // Codex's multi-environment preamble; a toolhost workspace is one environment, so the id only has to be there.
    if ((lines[i] as string).trim().slice(ENVIRONMENT.length).trim() === '') {
      throw bad(`line ${i + 1}: "${ENVIRONMENT}" has no id; write one after it, or leave the line out`);
    }
    i += 1;
  }
  while (i < end) {
    const raw = lines[i] as string;
    const line = raw.trim();
    const number = i + 1;
    if (line === '') {
      i += 1;
      continue;
    }
    if (line.startsWith(ADD)) {
      const path = checkPath(line.slice(ADD.length), number);
      claim(path, number);
      const body: string[] = [];
      i += 1;
      while (i < end && !isHeader((lines[i] as string).trim())) {
        const added = lines[i] as string;
        if (added.trim() === '') {
          // Blank lines between the new file's lines and the next header (or the end) separate operations.
          let next = i;
          while (next < end && (lines[next] as string).trim() === '') next += 1;
          if (next === end || isHeader((lines[next] as string).trim())) {
            i = next;
            break;
          }
        }
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
      i = parseUpdate(lines, i, end, claim, operations);
      continue;
    }
    if (line.startsWith(ENVIRONMENT)) {
      throw bad(`line ${number}: "${ENVIRONMENT}" may appear once, right after "${BEGIN}"; remove this one`);
    }
    if (line.startsWith('+') || line.startsWith('-') || line.startsWith('@@')) {
      throw bad(
        `line ${number}: ${quoteForMessage(raw, { json: true })} is outside any file operation; ` +
          'hunk lines belong after "*** Update File: path" (or "+" lines after "*** Add File: path")',
      );
    }
    throw bad(
      `line ${number}: ${quoteForMessage(raw, { json: true })} is not a valid operation header; ` +
        `use "${ADD}path", "${DELETE}path" or "${UPDATE}path"`,
    );
  }
  if (operations.length === 0) throw bad(`the patch holds no file operations; add "${ADD}", "${DELETE}" or "${UPDATE}" sections`);
  return operations;
}

/** Whether a trimmed line starts a new section of the patch (a file operation, or the environment line). */
function isHeader(trimmed: string): boolean {
  return trimmed.startsWith(ADD) || trimmed.startsWith(DELETE) || trimmed.startsWith(UPDATE) || trimmed.startsWith(ENVIRONMENT) || trimmed === END;
}

/** Parses the `*** Update File:` section at `lines[at]`; returns the index of the line after it. */
function parseUpdate(
  lines: readonly string[],
  at: number,
  end: number,
  claim: (path: string, number: number) => void,
  operations: PatchOperation[],
): number {
  const number = at + 1;
  const path = checkPath((lines[at] as string).trim().slice(UPDATE.length), number);
  claim(path, number);
  let i = at + 1;
  let moveTo: string | undefined;
  if (i < end && (lines[i] as string).trim().startsWith(MOVE)) {
    moveTo = checkPath((lines[i] as string).trim().slice(MOVE.length), i + 1);
    if (moveTo !== path) claim(moveTo, i + 1);
    i += 1;
  }
  const from = i;
  // As Codex: the update runs to the next line that starts with "*" (a header; "*** End of File" is a hunk's own).
  while (i < end && (!(lines[i] as string).startsWith('*') || isEofMarker(lines[i] as string))) i += 1;
  const chunks = parseChunks(lines.slice(from, i), path, from + 1);
  if (chunks.length === 0 && moveTo === undefined) {
    throw bad(`line ${number}: the update of ${quoteForMessage(path)} has no hunks; add "@@" hunks, or leave the file out of the patch`);
  }
  const operation: PatchOperation = { type: 'update', path, chunks };
  if (moveTo !== undefined) operation.moveTo = moveTo;
  operations.push(operation);
  return i;
}

/**
 * Parses the `diff` of a Responses API `create_file` operation: V4A lines that all start with `+`
 * (the file's content). Errors: `invalid_arguments` naming a line without `+`.
 */
export function parseCreateDiff(diff: string, path: string): string {
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const body: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (!line.startsWith('+')) {
      throw bad(`line ${i + 1} of the diff for ${quoteForMessage(path)}: ${quoteForMessage(line, { json: true })} does not start with "+"; every line of a new file starts with "+"`);
    }
    body.push(line.slice(1));
  }
  return body.length === 0 ? '' : body.join('\n') + '\n';
}

/** Checks a Responses API operation path as a patch path (relative, no `..`). */
export function checkOperationPath(path: string): string {
  return checkPath(path, null).replace(/^\.\//, '');
}
