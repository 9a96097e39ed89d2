import { ToolError, toToolError } from '../../core/errors.js';
import { checkOptions, rule, type OptionRules } from '../../core/options.js';
import { fingerprintBytes } from '../../core/file-cache.js';
import { defineTool, type ExecuteTool, type ToolContext } from '../../core/tool.js';
import { joinPath, refuseSlashOnFile, relativePath, resolveWorkspacePath, statOrNull, writeFileAtomic } from '../../fs/paths.js';
import { clipForMessage, decodeText, quoteForMessage, detectLineEnding, encodeText, refuseLoneSurrogate, splitLines, truncateText } from '../../fs/text.js';
import { compareCodeUnits } from '../../search/walk.js';
import { createFileTool } from '../create-file.js';
import { editFileTool } from '../edit-file.js';
import { unchangedSince } from '../edit/unchanged.js';
import type { FsStats } from '../../core/types.js';
import { leftRunningAdviceWithoutBackground, RUN_COMMAND_DEFAULT_TIMEOUT_MS, withLeftRunningNote } from '../run-command.js';
import { ANTHROPIC_VOCABULARY, speakingTool } from './vocabulary.js';

/** Anthropic's built-in tool type of the text editor this profile implements. */
export const TEXT_EDITOR_TOOL_TYPE = 'text_editor_20250728';
/** Anthropic's built-in tool type of the bash tool this profile implements. */
export const BASH_TOOL_TYPE = 'bash_20250124';
/**
 * How the text editor's description states its `maxCharacters`, so that a model client on the other
 * side of a worker boundary can declare it as Anthropic's `max_characters` (see the Anthropic client).
 */
export const MAX_CHARACTERS_NOTE = ' View output is cut at ';
/**
 * The `maxCharacters` the text editor uses when its host sets none: about 25,000 tokens, the most a
 * view adds to the conversation (a whole 300,000-line file or one 500,000-character line would otherwise
 * fill a model's context in one answer). view_file is bounded in the same spirit (2,000 lines a call);
 * a longer view is cut with a note naming the `view_range` that reads on.
 */
export const DEFAULT_MAX_CHARACTERS = 100_000;
/** Largest file the text editor reads or edits, in bytes (32 MiB, as the built-ins). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** Most entries of a directory view. */
const MAX_DIRECTORY_ENTRIES = 1000;

/** Arguments of `str_replace_based_edit_tool`, as Anthropic documents them. */
export interface TextEditorArgs {
  command: 'view' | 'create' | 'str_replace' | 'insert';
  path: string;
  view_range?: number[];
  file_text?: string;
  old_str?: string;
  new_str?: string;
  insert_line?: number;
  insert_text?: string;
}

/** The text editor's parameters: Anthropic's input shape, one schema for every command. */
export const TEXT_EDITOR_PARAMETERS = {
  type: 'object',
  properties: {
    command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert'], description: 'The command to run.' },
    path: { type: 'string', description: 'The file or directory: an absolute workspace path or one relative to the working directory.' },
    view_range: {
      type: 'array',
      items: { type: 'integer' },
      minItems: 2,
      maxItems: 2,
      description: 'view: [start_line, end_line], 1-based and inclusive; end_line -1 reads to the end of the file.',
    },
    file_text: { type: 'string', description: 'create: the whole content of the file.' },
    old_str: { type: 'string', description: 'str_replace: the exact text to replace; it must occur exactly once.' },
    new_str: { type: 'string', description: 'str_replace: the replacement text (default empty). insert: accepted in place of insert_text.' },
    insert_line: { type: 'integer', minimum: 0, description: 'insert: the line after which the text goes; 0 inserts at the top of the file.' },
    insert_text: { type: 'string', description: 'insert: the text to insert.' },
  },
  required: ['command', 'path'],
  additionalProperties: false,
} as const;

/** The bash tool's parameters, as Anthropic documents them. */
export const BASH_PARAMETERS = {
  type: 'object',
  properties: {
    command: { type: 'string', description: 'The bash command to run.' },
    restart: { type: 'boolean', description: 'Restart the shell session: the working directory and environment start afresh.' },
  },
  additionalProperties: false,
} as const;

/** Options of {@link anthropicTools}. */
export interface AnthropicProfileOptions {
  /**
   * Longest `view` output in characters; longer output is cut with a note (Anthropic's `max_characters`).
   * Default: {@link DEFAULT_MAX_CHARACTERS} (100,000), so a view of a huge file cannot fill the model's context.
   */
  maxCharacters?: number;
}

/** The checks of {@link AnthropicProfileOptions}: a bad or misspelled option is a TypeError, never ignored. */
const ANTHROPIC_OPTION_RULES: OptionRules = {
  maxCharacters: rule('a positive whole number of characters (leave it out for the default, 100,000)', (v) => Number.isSafeInteger(v) && (v as number) > 0),
};

function missing(name: string, command: string): ToolError {
  return new ToolError('invalid_arguments', `Parameter \`${name}\` is required for command: ${command}`);
}

/** The reference editor's answer to a command other than `view` on a directory. */
function directoryRefused(shown: string): ToolError {
  return new ToolError('is_a_directory', `The path ${shown} is a directory and only the \`view\` command can be used on directories`);
}

/** The reference editor's answer to a path that does not exist. */
function pathMissing(shown: string): ToolError {
  return new ToolError('not_found', `The path ${shown} does not exist. Please provide a valid path.`);
}

/** `path` inside the workspace (confined as every built-in's paths), its absolute form. */
function resolve(ctx: ToolContext, path: string): Promise<string> {
  return resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, path, { argName: 'path' });
}

/** `text` quoted in backticks as the reference editor quotes old_str, cut after 200 characters. */
function tick(text: string): string {
  const { text: kept, cut } = truncateText(text, 200);
  return cut === 0 ? `\`${text}\`` : `\`${kept}\`… (${cut} more characters)`;
}

async function readTextFile(ctx: ToolContext, path: string, shown: string): Promise<{ stats: FsStats; bytes: Uint8Array; text: string; bom: boolean }> {
  const stats = await statOrNull(ctx.fs, path);
  if (stats === null) throw pathMissing(shown);
  if (stats.isDirectory()) throw directoryRefused(shown);
  if (stats.size > MAX_FILE_BYTES) throw new ToolError('too_large', `${shown} is ${stats.size} bytes; the text editor handles files up to ${MAX_FILE_BYTES} bytes; read parts of it with bash (sed -n, head, grep)`);
  const bytes = await ctx.fs.readFile(path);
  const decoded = decodeText(bytes);
  if (decoded === null) throw new ToolError('binary_file', `${shown} is a binary file (a NUL byte or invalid UTF-8); the text editor shows UTF-8 text only`);
  return { stats, bytes, ...decoded };
}

/** The note after a file view cut at `max` characters, `cut` of them left out (without its closing bracket). */
function cutNote(cut: number, max: number): string {
  return `[... ${cut} more characters not shown: the output is limited to ${max} characters. Use view_range to read a part.`;
}

/** A directory listing cut at `max` characters, with a note saying to view a subdirectory (view_range does not apply to directories). */
function capListing(text: string, max: number): string {
  const { text: kept, cut } = truncateText(text, max);
  return cut === 0 ? text : `${kept}\n[... ${cut} more characters not shown: the output is limited to ${max} characters. View a subdirectory to see the rest.]`;
}

/**
 * Lines `start`..`end` of `lines` as `N: line`, cut at `max` characters with the note of {@link cutNote} and
 * where to read on: the `view_range` after the last line shown whole, or, when the first line alone is
 * longer than `max`, bash to read parts of it. Only the lines that fit are formatted.
 */
function numberedLines(lines: readonly string[], start: number, end: number, max: number): string {
  const shown: string[] = [];
  let total = 0;
  let whole = start - 1;
  for (let i = start; i <= end; i += 1) {
    const length = String(i).length + 2 + (lines[i - 1] as string).length + (i < end ? 1 : 0);
    if (total <= max) {
      shown.push(`${i}: ${lines[i - 1] as string}`);
      if (total + length - (i < end ? 1 : 0) <= max) whole = i;
    }
    total += length;
  }
  if (total <= max) return shown.join('\n');
  const joined = shown.join('\n');
  const { text: kept, cut } = truncateText(joined, max);
  const next =
    whole >= start
      ? ` Lines ${start}-${whole} are shown whole; view_range [${whole + 1}, ${end === lines.length ? -1 : end}] reads on.`
      : ` Line ${start} alone is longer than that: read parts of it with bash (cut -c, grep -o).`;
  return `${kept}\n${cutNote(total - joined.length + cut, max)}${next}]`;
}

/** Files and directories up to two levels below `dir`, hidden ones and node_modules left out, as Anthropic's reference view lists them. */
async function viewDirectory(ctx: ToolContext, dir: string): Promise<string> {
  const out: string[] = [];
  let capped = false;
  const walk = async (path: string, depth: number): Promise<void> => {
    const entries = (await ctx.fs.readdir(path, { withFileTypes: true }))
      .filter((e) => !e.name.startsWith('.') && e.name !== 'node_modules')
      .sort((a, b) => compareCodeUnits(a.name, b.name));
    for (const entry of entries) {
      if (out.length >= MAX_DIRECTORY_ENTRIES) {
        capped = true;
        return;
      }
      const child = joinPath(path, entry.name);
      const isDir = entry.isDirectory();
      out.push(relativePath(dir, child) + (isDir ? '/' : ''));
      if (isDir && depth < 2) await walk(child, depth + 1);
    }
  };
  await walk(dir, 1);
  const head = `Here are the files and directories up to 2 levels deep in ${dir}, excluding hidden items and node_modules:`;
  return [head, ...out, ...(capped ? [`[... stopped after ${MAX_DIRECTORY_ENTRIES} entries]`] : [])].join('\n');
}

async function view(args: TextEditorArgs, ctx: ToolContext, path: string, maxCharacters: number): Promise<string> {
  const stats = await statOrNull(ctx.fs, path);
  if (stats?.isDirectory()) {
    if (args.view_range !== undefined) throw new ToolError('invalid_arguments', 'The `view_range` parameter is not allowed when `path` points to a directory.');
    return capListing(await viewDirectory(ctx, path), maxCharacters);
  }
  if (stats !== null) refuseSlashOnFile('path', args.path);
  const file = await readTextFile(ctx, path, clipForMessage(path));
  ctx.fileCache.set(path, await fingerprintBytes(file.bytes));
  const { lines } = splitLines(file.text);
  let start = 1;
  let end = lines.length;
  if (args.view_range !== undefined) {
    const [from, to] = args.view_range as [number, number];
    const last = Math.max(lines.length, 1);
    const range = `Invalid \`view_range\`: [${from}, ${to}].`;
    if (from < 1 || from > last) {
      throw new ToolError('invalid_arguments', `${range} Its first element \`${from}\` should be within the range of lines of the file: [1, ${last}]`);
    }
    if (to > lines.length) {
      throw new ToolError('invalid_arguments', `${range} Its second element \`${to}\` should be at most the number of lines in the file: \`${lines.length}\` (or -1 for the end)`);
    }
    if (to !== -1 && to < from) {
      throw new ToolError('invalid_arguments', `${range} Its second element \`${to}\` should be larger than or equal to its first \`${from}\` (or -1 for the end)`);
    }
    start = from;
    end = to === -1 ? lines.length : to;
  }
  return numberedLines(lines, start, end, maxCharacters);
}

function invalidInsertLine(line: number, total: number): ToolError {
  return new ToolError('invalid_arguments', `Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${total}]`);
}

/**
 * The `too_large` of an insert that would make the file over {@link MAX_FILE_BYTES}, the most the
 * text editor edits: nothing is written, as edit_file refuses an edit that would.
 */
function tooLargeAfterInsert(shown: string, size: number): ToolError {
  return new ToolError(
    'too_large',
    `${shown} would be ${(size / 1_048_576).toFixed(1)} MiB (${size} bytes) after the insert; insert edits files up to ${MAX_FILE_BYTES / 1_048_576} MiB: ` +
      'make the change with bash (sed, or a short script) where commands run, or split the file into smaller files; nothing was written',
  );
}

async function insert(args: TextEditorArgs, ctx: ToolContext, path: string): Promise<string> {
  if (args.insert_text !== undefined && args.new_str !== undefined && args.insert_text !== args.new_str) {
    throw new ToolError('invalid_arguments', 'insert got both `insert_text` and `new_str` with different texts; give the text to insert once, as `insert_text`');
  }
  const text = args.insert_text ?? args.new_str;
  if (args.insert_line === undefined) throw missing('insert_line', 'insert');
  if (text === undefined) throw missing('insert_text', 'insert');
  refuseLoneSurrogate(args.insert_text === undefined ? 'new_str' : 'insert_text', text);
  const stats = await statOrNull(ctx.fs, path);
  if (stats === null) throw pathMissing(clipForMessage(path));
  if (stats.isDirectory()) throw directoryRefused(clipForMessage(path));
  refuseSlashOnFile('path', args.path);
  const line = args.insert_line;
  return ctx.withPathLock(path, async () => {
    const file = await readTextFile(ctx, path, clipForMessage(path));
    const { lines, endings } = splitLines(file.text);
    if (line > lines.length) throw invalidInsertLine(line, lines.length);
    const dominant = detectLineEnding(file.text);
    const eol = dominant === 'crlf' ? '\r\n' : dominant === 'cr' ? '\r' : '\n';
    const added = splitLines(text.replace(/\r\n?/g, '\n')).lines;
    const outLines = [...lines.slice(0, line), ...added, ...lines.slice(line)];
    const outEndings = [...endings.slice(0, line), ...added.map(() => eol), ...endings.slice(line)];
    // Only the last line may lack a line break, and the file keeps its choice there.
    for (let i = 0; i < outEndings.length - 1; i += 1) if (outEndings[i] === '') outEndings[i] = eol;
    if (outEndings.length > 0) outEndings[outEndings.length - 1] = lines.length > 0 ? (endings[lines.length - 1] as string) : eol;
    const joined = outLines.map((l, i) => l + (outEndings[i] as string)).join('');
    const bytes = encodeText(joined, file.bom);
    if (bytes.length > MAX_FILE_BYTES) throw tooLargeAfterInsert(clipForMessage(path), bytes.length);
    const hash = await fingerprintBytes(bytes);
    // Another writer (an editor, a process without the lock) may have changed the file since it was read.
    if (!(await unchangedSince(ctx.fs, path, file))) {
      throw new ToolError('stale_file', `${clipForMessage(path)} changed while insert was editing it; nothing was written. View it again, then retry the insert`);
    }
    if (ctx.signal.aborted) throw new ToolError('cancelled', `insert was cancelled before writing ${clipForMessage(path)}`);
    await writeFileAtomic(ctx.fs, path, bytes, ctx.platform.atomicWrites === true);
    ctx.fileCache.set(path, hash);
    return `The text was inserted after line ${line} of ${path}.`;
  });
}

/** 1-based numbers of the lines where each occurrence of `needle` in `text` starts (both with LF line breaks); `overlapping`: the first two, overlaps counted. */
function occurrenceLines(text: string, needle: string, overlapping = false): number[] {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  const step = overlapping ? 1 : needle.length;
  for (let at = text.indexOf(needle); at !== -1 && !(overlapping && lines.length === 2); at = text.indexOf(needle, at + step)) {
    for (let i = text.indexOf('\n', scanned); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line += 1;
    scanned = at;
    lines.push(line);
  }
  return lines;
}

async function strReplace(args: TextEditorArgs, ctx: ToolContext): Promise<string> {
  if (args.old_str === undefined) throw missing('old_str', 'str_replace');
  if (args.old_str === '') throw new ToolError('invalid_arguments', 'old_str is empty; give the exact text to replace (view the file to copy it), or use insert to add text at a line');
  // Checked here, not by edit_file, so the message names this tool's arguments.
  refuseLoneSurrogate('old_str', args.old_str, 'copy whole characters from the file');
  if (args.new_str !== undefined) refuseLoneSurrogate('new_str', args.new_str, 'copy whole characters from the file');
  const path = await resolve(ctx, args.path);
  const shown = clipForMessage(path);
  const stats = await statOrNull(ctx.fs, path);
  if (stats === null) throw pathMissing(shown);
  if (stats.isDirectory()) throw directoryRefused(shown);
  refuseSlashOnFile('path', args.path);
  try {
    await editFileTool.execute({ file_path: path, old_string: args.old_str, new_string: args.new_str ?? '' }, ctx);
  } catch (error) {
    const failure = toToolError(error);
    const lead = `old_string was not found in ${shown}. `;
    if (failure.code === 'no_match') {
      const hint = failure.message.startsWith(lead) ? ` ${failure.message.slice(lead.length)}` : '';
      throw new ToolError('no_match', `No replacement was performed, old_str ${tick(args.old_str)} did not appear verbatim in ${shown}.${hint}`, failure.details);
    }
    if (failure.code === 'ambiguous_match') {
      const bytes = await ctx.fs.readFile(path);
      const text = (decodeText(bytes)?.text ?? '').replace(/\r\n?/g, '\n');
      const needle = args.old_str.replace(/\r\n?/g, '\n');
      let lines = occurrenceLines(text, needle);
      // One without overlaps, refused as ambiguous: it overlaps another (`aaa` in `aaaa`), both listed.
      if (lines.length < 2) lines = occurrenceLines(text, needle, true);
      // A line holding several occurrences is listed once, as the reference editor lists it.
      lines = [...new Set(lines)];
      const count = (failure.details?.count as number | undefined) ?? lines.length;
      throw new ToolError(
        'ambiguous_match',
        `No replacement was performed. Multiple occurrences of old_str ${tick(args.old_str)} in lines [${lines.join(', ')}]. Please ensure it is unique: add lines around it.`,
        { count, lines },
      );
    }
    throw failure;
  }
  return 'Successfully replaced text at exactly one location.';
}

/** `create`: a new file only, as the reference editor (an existing file is changed with str_replace or insert). */
async function create(args: TextEditorArgs, ctx: ToolContext): Promise<string> {
  if (args.file_text === undefined) throw missing('file_text', 'create');
  refuseLoneSurrogate('file_text', args.file_text);
  if (/(^|\/)\.{0,2}$/.test(args.path) && args.path !== '') {
    throw new ToolError('invalid_arguments', `The path ${quoteForMessage(args.path)} names a directory (it ends with "/" or "."); give the path of the file to create`);
  }
  const path = await resolve(ctx, args.path);
  const stats = await statOrNull(ctx.fs, path);
  if (stats?.isDirectory()) throw directoryRefused(clipForMessage(path));
  if (stats !== null) {
    throw new ToolError(
      'already_exists',
      `File already exists at: ${clipForMessage(path)}. Cannot overwrite files using command \`create\`; change it with str_replace or insert`,
    );
  }
  // create_file checks again under the path's lock: a file made meanwhile is already_exists too.
  const result = await createFileTool.execute({ file_path: path, content: args.file_text }, ctx);
  return `File created successfully at: ${(result as { file_path: string }).file_path}`;
}

/**
 * Anthropic's text editor (`str_replace_based_edit_tool`, the `text_editor_20250728` tool type) over the
 * workspace, behaving as Anthropic's reference editor: `view` (a file as `N: line` lines, `view_range`
 * `[start, end]` with `-1` for the end; a directory as its entries two levels deep, hidden ones left out),
 * `create` (a new file from `file_text`, creating folders; an existing file is refused, "File already
 * exists at: ...", as the reference refuses it), `str_replace` (exact, unique `old_str`; a missing
 * `new_str` deletes it; through `edit_file`, so CRLF and BOM files keep their style and tabs stay tabs)
 * and `insert` (`insert_text`, or `new_str` as older versions name it, after `insert_line`, 0 = the top;
 * both with different texts is `invalid_arguments`).
 * `maxCharacters` (a positive whole number, default {@link DEFAULT_MAX_CHARACTERS}; a bad or unknown option is a
 * TypeError) cuts long views with a note naming the `view_range` that reads on. Paths are confined as every built-in's. Results are text.
 * Every message names only this tool's commands and parameters (the built-ins' hints are put in its
 * words, see `ANTHROPIC_VOCABULARY`).
 *
 * Errors: `no_match` ("No replacement was performed, old_str `...` did not appear verbatim in <path>."
 * and the closest line), `ambiguous_match` ("No replacement was performed. Multiple occurrences of
 * old_str `...` in lines [a, b]. ...", each line once, `details.lines`), `already_exists`, `not_found` ("The path <path>
 * does not exist. ..."), `is_a_directory` (a command other than view on a directory), `invalid_arguments`
 * (a bad view_range or insert_line, insert_text and new_str that differ, "Parameter `x` is required for command: y", an empty old_str, text
 * holding half of a surrogate pair, which UTF-8 cannot store), `binary_file`, `stale_file`,
 * `outside_workspace`, `too_large` (a file over 32 MiB, or one that `create`, `str_replace` or `insert`
 * would make larger: nothing is written).
 */
export function textEditorTool(options: AnthropicProfileOptions = {}): ExecuteTool<TextEditorArgs, string> {
  checkOptions('toolProfiles.anthropic', options, ANTHROPIC_OPTION_RULES);
  const maxCharacters = options.maxCharacters ?? DEFAULT_MAX_CHARACTERS;
  const tool = defineTool({
    name: 'str_replace_based_edit_tool',
    annotations: { title: 'View and edit files', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    description:
      'View, create and edit files. Commands: view (a file with line numbers, or a directory; view_range [start, end], -1 = to the end), ' +
      'create (path, file_text), str_replace (path, old_str occurring exactly once, new_str), insert (path, insert_line: 0 = top, insert_text).' +
      `${MAX_CHARACTERS_NOTE}${maxCharacters} characters.`,
    inputSchema: TEXT_EDITOR_PARAMETERS,
    // `view` changes nothing: plan mode and read-only permissions let it through.
    isReadOnlyCall: (input) => (input as TextEditorArgs).command === 'view',
    execute: async (input, ctx): Promise<string> => {
      const args = input as TextEditorArgs;
      if (args.command === 'str_replace') return strReplace(args, ctx);
      if (args.command === 'create') return create(args, ctx);
      const path = await resolve(ctx, args.path);
      if (args.command === 'view') return view(args, ctx, path, maxCharacters);
      return insert(args, ctx, path);
    },
  }) as ExecuteTool<TextEditorArgs, string>;
  return speakingTool(tool, ANTHROPIC_VOCABULARY);
}

/**
 * Anthropic's bash tool (`bash_20250124`): `{ command }` runs in the conversation's persistent shell
 * (the platform's `shellSession`: on Node, the working directory and exported variables carry over
 * between calls), `{ restart: true }` starts the session afresh. Returns the output as text: stdout,
 * then stderr, then a line with the exit code when it is not 0 (or saying the command timed out, its
 * process group killed, and to split the work into shorter commands: the limit is not the model's to change), then the session's note on a line of its own in brackets when it has one
 * (on Node: a working directory the command left outside the workspace was reset to the root; processes
 * the command left running, ended when its shell exited, and that a server must be started and used
 * within one command). The
 * deadline is the call's (`timeoutMs`), else 120,000 ms. Where the platform has no shell (browser,
 * memory), an empty result with a note.
 */
export const bashTool: ExecuteTool<{ command?: string; restart?: boolean }, string> = /* @__PURE__ */ defineTool({
  name: 'bash',
  annotations: { title: 'Bash shell', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  description:
    'Run a bash command in a persistent shell session: the working directory and exported environment variables carry over ' +
    'between calls. restart: true starts a fresh session. Commands are not interactive.',
  inputSchema: BASH_PARAMETERS,
  execute: async (args, ctx): Promise<string> => {
    const platform = ctx.platform;
    if (typeof platform.shellSession !== 'function') {
      return platform.name === 'web' ? '(no output: bash is not available in the browser)' : `(no output: bash is not available on the ${platform.name} platform)`;
    }
    const session = platform.shellSession(ctx.conversationId);
    if (args.restart === true) {
      await session.restart();
      if (args.command === undefined) return 'The bash session was restarted.';
    }
    if (args.command === undefined || args.command.trim() === '') {
      throw new ToolError('invalid_arguments', 'give command (the bash command to run), or restart: true');
    }
    const run = withLeftRunningNote(
      await session.run({ command: args.command, cwd: ctx.cwd, timeoutMs: RUN_COMMAND_DEFAULT_TIMEOUT_MS }, ctx.signal),
      leftRunningAdviceWithoutBackground('bash'),
    );
    const parts = [run.stdout, run.stderr].filter((part) => part !== '');
    if (run.timed_out) parts.push(`[the command timed out after ${RUN_COMMAND_DEFAULT_TIMEOUT_MS} ms; its process group was killed. Split the work into shorter commands]`);
    else if (run.exit_code !== 0) parts.push(run.exit_code === null ? `[killed by ${run.signal}]` : `[exit code ${run.exit_code}]`);
    const text = parts.join(parts.length > 1 && !parts[0]?.endsWith('\n') ? '\n' : '');
    if (run.note === undefined) return text;
    return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}[${run.note}]`;
  },
}) as ExecuteTool<{ command?: string; restart?: boolean }, string>;

/** The Anthropic profile's tools: `str_replace_based_edit_tool` and `bash` (a fresh array). */
export function anthropicTools(options: AnthropicProfileOptions = {}): ExecuteTool[] {
  return [textEditorTool(options), bashTool] as ExecuteTool[];
}
