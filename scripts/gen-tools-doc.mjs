#!/usr/bin/env node
/**
 * Generates docs/tools.md: every built-in tool's description, parameters and annotations (read from the
 * runner's `tools()`, so from the declarations the model gets), its result fields, error codes and
 * limits (the limits' values read from the constants the tools use), and an example call with the
 * result it gives on a memory platform (run while generating, so the example cannot drift).
 *
 * Usage: `npm run gen:tools-doc` (or `node scripts/gen-tools-doc.mjs`). The sources are read through
 * Vite's module runner, so no build is needed; `--check` writes nothing and exits 1 when the committed
 * file differs from what would be generated. test/tools-doc-fresh.test.ts does the same in-process with
 * {@link loadToolsDocInputs} and {@link generateToolsDoc}, and fails with "run npm run gen:tools-doc".
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the generated reference lives, relative to the repository root. */
export const TOOLS_DOC = 'docs/tools.md';

/** The folders whose modules may hold a limit constant named in {@link REFERENCE}. */
const CONSTANT_DIRS = ['src/tools', 'src/tools/edit', 'src/search', 'src/fs', 'src/core'];

/** Files of the example workspace every example call runs on (each call on a fresh copy). */
export const EXAMPLE_FILES = {
  'src/app.ts': 'export const answer = 41;\n\nexport function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n',
  'src/app.test.ts': "import { greet } from './app';\n\ngreet('world');\n",
  'README.md': '# demo\n',
};

/**
 * What the declarations do not say, by model-facing name: each result field (`type`, meaning), each
 * error code a call of the tool may return beyond the runner's own (when), the limits (a constant's
 * name, its unit and what it bounds), the example call's arguments and, for a tool the memory platform
 * cannot serve, the code its example answers (`exampleCode`).
 * @type {Record<string, { result: Array<[string, string, string]>; errors: Array<[string, string]>; limits: Array<[string, string, string]>; example: Record<string, unknown>; exampleCode?: string }>}
 */
export const REFERENCE = {
  view_file: {
    result: [
      ['file_path', 'string', 'The absolute workspace path read (symlinks resolved).'],
      ['content', 'string', 'Text files: the lines `start_line`..`end_line` without their endings, joined by `\\n`; no line-number prefixes, no BOM.'],
      ['start_line', 'number', 'Text files: the first line shown, 1-based.'],
      ['end_line', 'number', 'Text files: the last line shown (`start_line - 1` when none is, as for an empty file).'],
      ['total_lines', 'number', 'Text files: lines in the file; a trailing line break makes no extra line.'],
      ['truncated', 'boolean', 'Text files: the file continues after `end_line`.'],
      ['line_ending', "'lf' \\| 'crlf' \\| 'cr' \\| 'mixed' \\| 'none'", "Text files: the file's line breaks."],
      ['next_start_line', 'number?', 'The `start_line` that continues reading; only when `truncated`.'],
      ['lines_cut', 'number?', 'How many shown lines were cut at the line limit; only when some were.'],
      ['note', 'string?', 'What was left out and how to get it; only when something was.'],
      ['binary', 'true?', 'Binary files (a NUL byte in the first 8 KiB, or invalid UTF-8): the text fields are absent.'],
      ['size', 'number?', 'Binary files: size in bytes.'],
      ['mime_type', 'string?', 'Binary files: the type sniffed from the bytes.'],
      ['data_base64', 'string?', 'Binary files: the bytes as standard base64, for png, jpeg, gif and webp up to 5 MiB and 8000 px per side whose header is complete and valid (PNG: IHDR with its CRC, chunks to IEND; JPEG: a frame (SOF) segment; GIF: the logical screen; WebP: the RIFF size and a VP8/VP8L/VP8X header); for any other such image the `note` says why not (truncated, not a valid PNG, too many pixels) and what to do.'],
    ],
    errors: [
      ['not_found', 'the file does not exist'],
      ['is_a_directory', 'the path is a directory'],
      ['outside_workspace', 'the path (or a symlink on it) leads outside the workspace'],
      ['invalid_arguments', '`start_line` past the end of the file, `end_line` before `start_line`, or a path ending in `/` that names a file'],
      ['too_large', 'the file is larger than the size limit and the platform cannot read part of a file (no `readRange`)'],
      ['execution_failed', 'a symlink loop'],
    ],
    limits: [
      ['VIEW_MAX_LINES', 'lines', 'shown per call (also the default window)'],
      ['VIEW_MAX_LINE_CHARS', 'UTF-16 code units', 'per line; a longer line is cut with `… [N characters cut]`'],
      ['VIEW_MAX_CONTENT_CHARS', 'UTF-16 code units', 'of `content` per call'],
      ['VIEW_MAX_FILE_BYTES', 'bytes', 'largest file read whole; a larger one is streamed a MiB at a time and only the window kept, with a `note` (memory and Node). A regular file whose size the filesystem reports as 0 (the pseudo-files of /proc and /sys) is read on to its end up to this size, with a `note` saying its content is generated when read'],
      ['MAX_INLINE_IMAGE_BYTES', 'bytes', 'largest image returned as `data_base64`'],
      ['MAX_INLINE_IMAGE_SIDE', 'pixels', 'widest and tallest image returned as `data_base64` (the most a model API takes: Anthropic refuses larger)'],
    ],
    example: { file_path: 'src/app.ts', start_line: 1, end_line: 3 },
  },
  create_file: {
    result: [
      ['file_path', 'string', 'The absolute workspace path written (symlinks resolved).'],
      ['bytes_written', 'number', 'Bytes written, including a kept BOM.'],
      ['created', 'boolean', 'The file did not exist before.'],
    ],
    errors: [
      ['already_exists', 'the file exists and `overwrite` is not set'],
      ['stale_file', 'overwriting a file whose bytes changed since this conversation last viewed or wrote it'],
      ['is_a_directory', 'the path is a directory'],
      ['not_a_directory', 'a parent on the path is a file'],
      ['outside_workspace', 'the path (or a symlink on it) leads outside the workspace'],
      ['invalid_arguments', 'an empty path, a trailing `/`, a last component `.` or `..`, or half of a surrogate pair in `content` or the path (UTF-8 cannot store it)'],
      ['too_large', 'the file would be larger than the size limit (the largest `edit_file` edits); nothing is written'],
      ['quota_exceeded', 'the storage is full'],
      ['execution_failed', 'a symlink loop'],
    ],
    limits: [['EDIT_MAX_FILE_BYTES', 'bytes', 'largest file written (`content` as UTF-8, with a kept BOM and line endings): the largest `edit_file` edits']],
    example: { file_path: 'notes/todo.md', content: '- ship it\n' },
  },
  edit_file: {
    result: [
      ['file_path', 'string', 'The absolute workspace path written (symlinks resolved).'],
      ['replacements', 'number', 'Occurrences replaced (1 when an empty `old_string` created the file).'],
      ['diff', 'string', 'Unified diff of the change (3 lines of context), headers `--- path` / `+++ path`; long lines as excerpts around the change.'],
    ],
    errors: [
      ['no_match', '`old_string` does not occur; the message names the closest line and how it differs (`details.closest_line`)'],
      ['ambiguous_match', '`old_string` occurs more than once without `replace_all` (overlapping places count: `aaa` occurs twice in `aaaa`), or a number of times other than `expected_replacements` (`details.count`)'],
      ['no_change', '`old_string` equals `new_string`, or the edit would leave the file as it is'],
      ['not_found', 'the file does not exist and `old_string` is not empty'],
      ['invalid_arguments', 'an empty `old_string` on an existing file, a path ending in `/`, or half of a surrogate pair in a string'],
      ['binary_file', 'the file is not UTF-8 text'],
      ['is_a_directory', 'the path is a directory'],
      ['outside_workspace', 'the path (or a symlink on it) leads outside the workspace'],
      ['too_large', 'the file is larger than the size limit, or the edit (or, with an empty `old_string`, `new_string`) would make it larger; nothing is written'],
      ['execution_failed', 'a symlink loop'],
    ],
    limits: [
      ['EDIT_MAX_FILE_BYTES', 'bytes', 'largest file edited, and largest an edit or an empty `old_string` makes (the bytes written, with a kept BOM and line endings)'],
      ['EDIT_MAX_DIFF_CHARS', 'UTF-16 code units', 'of `diff`; a longer diff is cut at a line with a marker'],
      ['EDIT_MAX_DIFF_LINE_CHARS', 'UTF-16 code units', 'per diff line shown whole; a longer changed line is an excerpt around the change'],
    ],
    example: { file_path: 'src/app.ts', old_string: 'answer = 41', new_string: 'answer = 42' },
  },
  find_file: {
    result: [
      ['files', 'string[]', 'Absolute workspace paths, sorted by UTF-16 code units; at most `max_results`.'],
      ['total', 'number', 'How many files matched.'],
      ['truncated', 'boolean', '`files` holds fewer than `total` (or the walk stopped at its entry cap, or at 80 % of what was left of the call\'s deadline).'],
      ['skipped_entries', 'number?', 'Entries the walk could not read and left out (a name or path too long, permission denied, removed or replaced while the call ran); only when there were some, with `note` naming the kinds and the first path.'],
      ['note', 'string?', 'What was left out and what to do: how many of `total` are shown and why (`max_results`, the character budget), the time limit, the entry cap, skipped entries; only when something was.'],
    ],
    errors: [
      ['invalid_pattern', 'an empty or overlong glob, one holding a NUL byte, an unbalanced brace or bracket, an invalid class, a range over the limit, a `..` after a wildcard that stays inside (no path matches it)'],
      ['not_found', '`dir_path` does not exist'],
      ['not_a_directory', '`dir_path` is a file'],
      ['outside_workspace', '`dir_path`, or an absolute or `../` pattern, is outside the workspace, or a `..` after a wildcard can climb above its root (`**/../../etc/passwd`)'],
    ],
    limits: [['MAX_FIND_RESULTS', 'paths', 'largest `max_results`']],
    example: { pattern: '*.ts' },
  },
  list_dir: {
    result: [
      ['dir_path', 'string', 'The absolute workspace path listed (symlinks resolved).'],
      ['entries', '{ name, type, size }[]', "Immediate children sorted by name in UTF-16 code-unit order, dot-files included; `type` is `'file'`, `'directory'`, `'symlink'` (never followed), or `'fifo'`, `'socket'` or `'device'` (special files no tool reads), `size` in bytes from `lstat`."],
      ['truncated', 'boolean', 'The directory has more entries than the limit and only the first ones are shown.'],
      ['total_entries', 'number?', 'How many entries the directory has; only when `truncated`.'],
      ['skipped_entries', 'number?', 'Entries listed but left out because they could not be `lstat`ed (removed while listing, a name too long, permission denied); only when there were some.'],
      ['note', 'string?', 'What was left out; only when `truncated` or entries were skipped.'],
    ],
    errors: [
      ['not_found', 'the directory does not exist'],
      ['not_a_directory', 'the path is a file'],
      ['outside_workspace', 'the path (or a symlink on it) leads outside the workspace'],
      ['execution_failed', 'a symlink loop'],
    ],
    limits: [['LIST_DIR_MAX_ENTRIES', 'entries', 'listed per call']],
    example: { dir_path: 'src' },
  },
  search_dir: {
    result: [
      ['matches', '{ file_path, line_number, column, line }[]', 'One entry per matching line, files sorted by path; `line_number` 1-based, `column` the 1-based code-point column of the first match, `line` without its ending (an excerpt around the match when long).'],
      ['total_matches', 'number', 'Matching lines in all searched files (a line with several matches counts once).'],
      ['truncated', 'boolean', 'Results were left out: more than `max_results`, the output budget, or the walk cap.'],
      ['files_searched', 'number', 'Text files searched.'],
      ['binary_files_skipped', 'number', 'Binary files skipped without decoding.'],
      ['large_files_skipped', 'number?', 'Files over 256 MiB on a platform that cannot read part of a file (no fs.readRange), not searched; only when there were some. Bigger files are searched 8 MiB at a time.'],
      ['skipped_entries', 'number?', 'Directories and files that could not be read and were left out (a name or path too long, permission denied, removed or replaced while the call ran); only when there were some.'],
      ['note', 'string?', 'What was left out and what to do: how many of `total_matches` are shown and why (`max_results`, the character budget), the time limit, skipped entries; only when something was.'],
    ],
    errors: [
      ['invalid_arguments', 'an empty query, or a `dir_path` ending in `/` that names a file'],
      ['invalid_pattern', 'a bad `include` glob'],
      ['not_found', '`dir_path` does not exist'],
      ['outside_workspace', '`dir_path` is outside the workspace, or a glob (absolute, `../`, or a `..` after a wildcard) points outside it'],
    ],
    limits: [
      ['MAX_SEARCH_RESULTS', 'lines', 'largest `max_results`'],
      ['MAX_LINE_CHARS', 'UTF-16 code units', 'per `line`; a longer one is an excerpt around the first match'],
    ],
    example: { query: 'greet' },
  },
  grep_search: {
    result: [
      ['matches', '{ file_path, line_number, column, line, before?, after? }[]', "`output_mode: 'content'` (the default): as search_dir's, plus `before` / `after` lines with `context_lines`."],
      ['files', 'string[]', "`output_mode: 'files_with_matches'`: matching files sorted by path."],
      ['counts', '{ file_path, count }[]', "`output_mode: 'count'`: matching lines per file, sorted by path."],
      ['total_files', 'number', "`files_with_matches` and `count`: files with at least one match."],
      ['total_matches', 'number', 'Matching lines in all searched files (a line with several matches counts once).'],
      ['truncated', 'boolean', 'Results were left out: more than `max_results`, the output budget, or the walk cap.'],
      ['files_searched', 'number', 'Text files searched.'],
      ['binary_files_skipped', 'number', 'Binary files skipped without decoding.'],
      ['large_files_skipped', 'number?', 'Files over 256 MiB on a platform that cannot read part of a file (no fs.readRange), not searched; only when there were some. Bigger files are searched 8 MiB at a time.'],
      ['skipped_entries', 'number?', 'Directories and files that could not be read and were left out (a name or path too long, permission denied, removed or replaced while the call ran); only when there were some.'],
      ['note', 'string?', 'What was left out and what to do: how many of `total_matches` (content) or `total_files` are shown and why (`max_results`, the character budget), the time limit, skipped entries; only when something was.'],
    ],
    errors: [
      ['invalid_pattern', "a bad regular expression (ripgrep's RE2 syntax; lookaround and backreferences are refused, naming the construct) or glob, with what to change"],
      ['invalid_arguments', 'a `dir_path` ending in `/` that names a file'],
      ['timeout', "the call's deadline passed outside the search itself (the search stops at 80 % of what is left of it and answers its partial results with truncated and a note)"],
      ['not_found', '`dir_path` does not exist'],
      ['outside_workspace', '`dir_path` is outside the workspace, or a glob (absolute, `../`, or a `..` after a wildcard) points outside it'],
    ],
    limits: [
      ['MAX_SEARCH_RESULTS', 'lines', 'largest `max_results`'],
      ['MAX_CONTEXT_LINES', 'lines', 'largest `context_lines`'],
      ['MAX_LINE_CHARS', 'UTF-16 code units', 'per `line`; a longer one is an excerpt around the first match'],
      ['MAX_OUTPUT_CHARS', 'UTF-16 code units', 'of matched lines and context per call'],
    ],
    example: { pattern: 'greet\\(', output_mode: 'content' },
  },
  run_command: {
    result: [
      ['stdout', 'string', 'Standard output (when long, its first and last 15,000 characters around a line saying how many were dropped).'],
      ['stderr', 'string', 'Standard error (when long, its first and last 15,000 characters, as stdout).'],
      ['exit_code', 'number \\| null', 'The exit code; `null` when a signal ended the process.'],
      ['signal', 'string \\| null', 'The signal that ended the process, if one did.'],
      ['timed_out', 'boolean', 'The command ran past `timeout_ms` and was killed.'],
      ['truncated', 'boolean', 'Output was cut.'],
      ['note', 'string?', 'Set by platforms that cannot run commands (the browser, the memory platform), with empty output; with `run_in_background`, how to read and stop the command; when the shell exited leaving processes running (`server &`, `nohup`, `setsid`, a daemon that forks), which were then ended: how many, the command lines of the first few, and to run a server in the foreground of a `run_in_background` command instead.'],
      ['background_id', 'string?', 'With `run_in_background`: the id that `command_output` and `stop_command` take; the other fields are then absent.'],
    ],
    errors: [
      ['invalid_arguments', 'a bad `cwd`'],
      ['unavailable', '`run_in_background` where the platform cannot run commands in the background'],
      ['outside_workspace', '`cwd` is outside the workspace'],
      ['not_found', '`cwd` does not exist'],
      ['not_a_directory', '`cwd` is a file'],
    ],
    limits: [
      ['RUN_COMMAND_DEFAULT_TIMEOUT_MS', 'ms', 'default `timeout_ms`'],
      ['RUN_COMMAND_MAX_TIMEOUT_MS', 'ms', 'largest `timeout_ms`'],
      ['LEFT_RUNNING_NAMED', 'processes', 'named by command line in a note about processes left running (the others counted)'],
      ['LEFT_RUNNING_LINE_CHARS', 'characters', 'of each command line such a note shows'],
    ],
    example: { command: 'ls src' },
  },
  command_output: {
    result: [
      ['background_id', 'string', 'The command read.'],
      ['stdout', 'string', 'Standard output so far (its first and last 15,000 characters when long).'],
      ['stderr', 'string', 'Standard error so far, cut as `stdout`.'],
      ['truncated', 'boolean', 'Output was cut.'],
      ['running', 'boolean', 'False once the shell has exited and every process it started has ended.'],
      ['exit_code', 'number \\| null', 'The exit code once ended; `null` while running or when a signal ended it.'],
      ['signal', 'string \\| null', 'The signal that ended it, if one did.'],
      ['timed_out', 'boolean', 'It ran past its `timeout_ms` and was killed.'],
      ['note', 'string?', 'When its shell exited leaving processes running (`server &`, `nohup`, `setsid`, a daemon that forks), which were then ended: how many, the command lines of the first few, and to run the server in the foreground of the command instead, so it lives as long as the command.'],
      ['commands', '{ background_id, command, running, exit_code, signal, note? }[]', 'Without `background_id`: every background command of the platform (the other fields are then absent); `note` as above.'],
    ],
    errors: [
      ['not_found', 'no background command has the id'],
      ['unavailable', 'the platform cannot run commands in the background (the example below ran on the memory platform)'],
    ],
    limits: [],
    example: {},
    exampleCode: 'unavailable',
  },
  stop_command: {
    result: [
      ['background_id', 'string', 'The command stopped.'],
      ['stdout', 'string', 'Its final standard output, cut as `command_output`\'s.'],
      ['stderr', 'string', 'Its final standard error.'],
      ['truncated', 'boolean', 'Output was cut.'],
      ['running', 'boolean', 'False: the command and every process it started have ended (SIGTERM, then SIGKILL after a grace period).'],
      ['exit_code', 'number \\| null', 'The exit code; `null` when a signal ended it.'],
      ['signal', 'string \\| null', 'The signal that ended it.'],
      ['timed_out', 'boolean', 'It had run past its `timeout_ms`.'],
      ['note', 'string?', 'As `command_output`\'s: processes its shell had left running when it exited, which were ended then (a stop itself adds none).'],
    ],
    errors: [
      ['not_found', 'no background command has the id'],
      ['unavailable', 'the platform cannot run commands in the background (the example below ran on the memory platform)'],
    ],
    limits: [],
    example: { background_id: 'bg-1' },
    exampleCode: 'unavailable',
  },
  start_subagent: {
    result: [
      ['result', 'JSON', "The host's `startSubagent` answer; `null` without a subagent host."],
      ['note', 'string?', 'Why there is no result, when the runner has no `startSubagent` hook.'],
    ],
    errors: [
      ['invalid_arguments', 'an empty task'],
      ['execution_failed', "the host's hook throws (with its message)"],
    ],
    limits: [],
    example: { task: 'Write a test for greet()' },
  },
  generate_image: {
    result: [
      ['file_path', 'string \\| null', 'Where the image was written; `null` without an image generator.'],
      ['bytes_written', 'number', 'Bytes written (0 without an image generator).'],
      ['note', 'string?', 'Why nothing was written, when the runner has no `generateImage` hook.'],
    ],
    errors: [
      ['not_found', 'an input image is missing'],
      ['is_a_directory', 'an input image or `image_name` is a directory'],
      ['outside_workspace', 'a path leads outside the workspace'],
      ['invalid_arguments', 'a bad path'],
      ['execution_failed', "the host's hook throws or returns something other than non-empty bytes"],
    ],
    limits: [],
    example: { prompt: 'A lighthouse at dusk' },
  },
  finish: {
    result: [['finished', 'true', 'Always; the host\'s `onFinish` hook has run.']],
    errors: [['execution_failed', "the host's `onFinish` hook throws"]],
    limits: [],
    example: { result: 'Renamed the answer to 42.' },
  },
  web_search: {
    result: [
      ['results', '{ title, url, snippet }[]', 'The hits; empty where the platform has no search.'],
      ['note', 'string?', 'Why there are no results (no search on this platform, an empty query).'],
      ['error', 'string?', 'A network failure, reported as a success with no results.'],
    ],
    errors: [],
    limits: [],
    example: { query: 'toolhost' },
  },
};

/** The runner's own codes, which any call may return whatever the tool. */
const RUNNER_CODES = [
  ['unknown_tool', 'no registered tool has the name'],
  ['invalid_arguments', 'the arguments do not match the parameters (the message names the field)'],
  ['permission_denied', 'the permission policy or plan mode refuses the call'],
  ['cancelled', "the call's signal was aborted"],
  ['timeout', "the call's deadline passed"],
  ['execution_failed', 'the tool threw something that is not a tool error, or it was stopped (deadline, cancel) after it began changing files and had not answered: the message names them'],
];

/**
 * Loads what {@link generateToolsDoc} needs through `load`, which imports a repository module by its
 * path without extension (`'src/index'`): the tools as `runner.tools()` describes them, the limit
 * constants by name, and each example's result on a fresh memory platform with {@link EXAMPLE_FILES}.
 * @param {(path: string) => Promise<Record<string, any>>} load
 * @returns {Promise<{ tools: any[]; constants: Record<string, unknown>; examples: Record<string, unknown> }>}
 */
export async function loadToolsDocInputs(load) {
  const core = await load('src/index');
  const { BuiltinTools, webSearchFallbackTool, ToolRunner, createMemoryPlatform } = core;
  const all = [...BuiltinTools.all(), webSearchFallbackTool];
  const tools = await new ToolRunner({ tools: all }).tools();
  /** @type {Record<string, unknown>} */
  const constants = {};
  for (const dir of CONSTANT_DIRS) {
    for (const name of readdirSync(join(ROOT, dir))) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts') || name.endsWith('.d.ts')) continue;
      const module = await load(`${dir}/${name.slice(0, -'.ts'.length)}`);
      for (const [key, value] of Object.entries(module)) if (/^[A-Z][A-Z0-9_]+$/.test(key) && typeof value === 'number') constants[key] = value;
    }
  }
  /** @type {Record<string, unknown>} */
  const examples = {};
  for (const tool of tools) {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: EXAMPLE_FILES }), tools: all });
    const [outcome] = await runner.processToolCalls([{ name: tool.name, args: REFERENCE[tool.name]?.example ?? {} }]);
    examples[tool.name] = outcome;
  }
  return { tools, constants, examples };
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** `schema`'s type in a table cell: `string`, `integer ≥ 1`, `'content' \| 'count'`, `string[]`. */
function typeOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  let type = Array.isArray(schema.type) ? schema.type.join(' \\| ') : (schema.type ?? 'any');
  if (type === 'array' && schema.items) type = `${typeOf(schema.items)}[]`;
  const bounds = [];
  if (schema.minimum !== undefined) bounds.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) bounds.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) bounds.push(`length ≥ ${schema.minLength}`);
  if (schema.maxLength !== undefined) bounds.push(`length ≤ ${schema.maxLength}`);
  return bounds.length > 0 ? `${type} ${bounds.join(', ')}` : type;
}

/** The annotations in words: read-only or what a mutating tool may do, and whether it runs beside others. */
function traits(tool) {
  const a = tool.annotations ?? {};
  const words = [];
  if (a.readOnlyHint) words.push('read-only');
  else {
    words.push('changes the workspace');
    if (a.destructiveHint !== undefined) words.push(a.destructiveHint ? 'destructive' : 'not destructive');
    if (a.idempotentHint !== undefined) words.push(a.idempotentHint ? 'idempotent' : 'not idempotent');
  }
  if (a.openWorldHint !== undefined) words.push(a.openWorldHint ? 'open world' : 'closed world');
  words.push(tool.concurrencySafe ? 'runs beside other concurrency-safe calls' : 'runs alone, in call order');
  return words.join('; ');
}

/**
 * docs/tools.md for `inputs` (see {@link loadToolsDocInputs}). Throws when a tool has no entry in
 * {@link REFERENCE} or a limit names a constant that does not exist.
 * @param {{ tools: any[]; constants: Record<string, unknown>; examples: Record<string, unknown> }} inputs
 * @returns {string}
 */
export function generateToolsDoc({ tools, constants, examples }) {
  const out = [
    '# Built-in tools',
    '',
    '<!-- Generated by scripts/gen-tools-doc.mjs from the tool declarations: do not edit; run `npm run gen:tools-doc`. -->',
    '',
    'The tools of `BuiltinTools.all()` and the `web_search` fallback, as the model sees them (name,',
    'description, parameters) and as a host gets them back (result fields, error codes). Paths are',
    'workspace paths: absolute (`/workspace/src/app.ts` on the memory and web platforms, host paths on',
    'Node) or relative to the working directory. A path holding a NUL byte or half of a surrogate pair (no',
    'file name can hold either) is `invalid_arguments` in every tool. Every example below ran on a memory platform holding',
    `${Object.keys(EXAMPLE_FILES).map((f) => `\`${f}\``).join(', ')} while this file was generated.`,
    '',
    '## Errors every call may return',
    '',
    'A failed call is `{ id, name, error, code }` in `processToolCalls`, or a rejected `ToolError` from',
    '`execute`; check `code`. Beside each tool\'s own codes below, the runner itself answers:',
    '',
    '| code | when |',
    '| --- | --- |',
    ...RUNNER_CODES.map(([code, when]) => `| \`${code}\` | ${cell(when)} |`),
    '',
    '## Contents',
    '',
    ...tools.map((tool) => `- [\`${tool.name}\`](#${tool.name})`),
    '',
  ];
  for (const tool of tools) {
    const ref = REFERENCE[tool.name];
    if (!ref) throw new Error(`${tool.name} has no entry in REFERENCE (scripts/gen-tools-doc.mjs): document its result, errors and limits`);
    const schema = typeof tool.parameters === 'string' ? JSON.parse(tool.parameters) : tool.parameters;
    const required = new Set(schema.required ?? []);
    out.push(`## ${tool.name}`, '', tool.description, '', `*${traits(tool)}*`, '', '### Parameters', '');
    const properties = Object.entries(schema.properties ?? {});
    if (properties.length === 0) out.push('None.', '');
    else {
      out.push('| name | type | required | description |', '| --- | --- | --- | --- |');
      for (const [name, prop] of properties) {
        out.push(`| \`${name}\` | ${cell(typeOf(prop))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(prop.description ?? '')} |`);
      }
      out.push('');
      if (schema.additionalProperties === false) out.push('Other properties are refused (`invalid_arguments`).', '');
    }
    out.push('### Result', '', '| field | type | meaning |', '| --- | --- | --- |');
    for (const [field, type, meaning] of ref.result) out.push(`| \`${field}\` | \`${type}\` | ${cell(meaning)} |`);
    out.push('', '### Errors', '');
    if (ref.errors.length === 0) out.push("Only the runner's own; a failure to search is a success with `error` set.", '');
    else {
      out.push('| code | when |', '| --- | --- |');
      for (const [code, when] of ref.errors) out.push(`| \`${code}\` | ${cell(when)} |`);
      out.push('');
    }
    if (ref.limits.length > 0) {
      out.push('### Limits', '', '| constant | value | what |', '| --- | --- | --- |');
      for (const [name, unit, what] of ref.limits) {
        const value = constants[name];
        if (typeof value !== 'number') throw new Error(`${tool.name}: the limit ${name} is not an exported numeric constant of ${CONSTANT_DIRS.join(', ')}`);
        out.push(`| \`${name}\` | ${value.toLocaleString('en-US')} ${unit} | ${cell(what)} |`);
      }
      out.push('');
    }
    out.push(
      '### Example',
      '',
      '```json',
      JSON.stringify({ name: tool.name, args: ref.example }),
      '```',
      '',
      '```json',
      JSON.stringify(examples[tool.name], null, 2),
      '```',
      '',
    );
  }
  return `${out.join('\n').trimEnd()}\n`;
}

async function main() {
  // One Vite server for every module, kept open while the examples run: edit_file imports its diff
  // library on first use.
  const { createServer } = await import('vite');
  const server = await createServer({ configFile: false, root: ROOT, logLevel: 'error', appType: 'custom', server: { middlewareMode: true, ws: false } });
  let text;
  try {
    text = generateToolsDoc(await loadToolsDocInputs((path) => server.ssrLoadModule(join(ROOT, `${path}.ts`))));
  } finally {
    await server.close();
  }
  const path = join(ROOT, TOOLS_DOC);
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {}
  if (process.argv.includes('--check')) {
    const fresh = current === text;
    console.log(fresh ? `${TOOLS_DOC} is up to date` : `${TOOLS_DOC} is stale: run npm run gen:tools-doc`);
    process.exitCode = fresh ? 0 : 1;
    return;
  }
  if (current !== text) writeFileSync(path, text);
  console.log(`${TOOLS_DOC}: ${text.split('\n## ').length - 3} tools`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
