import { ToolError } from '../../core/errors.js';
import { defineTool, type ExecuteTool, type ToolContext } from '../../core/tool.js';
import type { RunCommandResult } from '../../core/types.js';
import { resolveWorkspacePath, statOrNull } from '../../fs/paths.js';
import { countCodePoints, refuseLoneSurrogate, truncateText } from '../../fs/text.js';
import {
  applyPatchOperations,
  checkOperationPath,
  parseChunks,
  parseCreateDiff,
  parsePatch,
  type PatchOperation,
  type PatchResult,
} from '../apply-patch/index.js';
import { leftRunningAdviceWithoutBackground, leftRunningSentence, RUN_COMMAND_DEFAULT_TIMEOUT_MS, RUN_COMMAND_MAX_TIMEOUT_MS } from '../run-command.js';
import { OPENAI_VOCABULARY, speak } from './vocabulary.js';

/** A Responses API apply_patch operation, as an `apply_patch_call` carries it. */
export interface ApplyPatchOperation {
  type: 'create_file' | 'update_file' | 'delete_file';
  path: string;
  /** V4A diff: all `+` lines for `create_file`, `@@` hunks without file headers for `update_file`; absent for `delete_file`. */
  diff?: string;
}

/** Arguments of `apply_patch`: the Codex envelope in `input`, or one Responses API `operation`. */
export interface ApplyPatchArgs {
  input?: string;
  operation?: ApplyPatchOperation;
}

/** The parameters of `apply_patch` when declared as a function tool: one `input` string, as Codex declares it. */
export const APPLY_PATCH_FUNCTION_PARAMETERS = {
  type: 'object',
  properties: {
    input: { type: 'string', description: 'The entire contents of the apply_patch command: "*** Begin Patch" ... "*** End Patch".' },
  },
  required: ['input'],
  additionalProperties: false,
} as const;

const applyPatchParameters = {
  type: 'object',
  properties: {
    input: APPLY_PATCH_FUNCTION_PARAMETERS.properties.input,
    operation: {
      type: 'object',
      description: 'One file operation of the Responses API apply_patch tool (instead of input).',
      properties: {
        type: { type: 'string', enum: ['create_file', 'update_file', 'delete_file'] },
        path: { type: 'string', description: 'The file, relative to the workspace.' },
        diff: { type: 'string', description: 'V4A diff: "+" lines for create_file, "@@" hunks for update_file.' },
      },
      required: ['type', 'path'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

const APPLY_PATCH_DESCRIPTION = [
  'Edit files with a patch in the V4A format. The patch is wrapped in "*** Begin Patch" and "*** End Patch"; between them,',
  'one or more file operations:',
  '"*** Add File: <path>" followed by the new file\'s lines, each starting with "+";',
  '"*** Delete File: <path>";',
  '"*** Update File: <path>", optionally "*** Move to: <new path>", then hunks. A hunk starts with "@@" (optionally',
  '"@@ <a line that comes before the change>", such as a class or function header) followed by lines starting with',
  '" " (unchanged context: three lines before and after each change), "-" (removed) or "+" (added).',
  '"*** End of File" after a hunk that ends at the end of the file. Paths are relative to the working directory, or absolute',
  'inside the workspace. Hunks are found in file order. Context is matched exactly, then ignoring trailing whitespace, then',
  'ignoring surrounding whitespace, then reading typographic dashes, quotes and spaces as ASCII. All files of a patch change',
  'together or none does.',
].join(' ');

/** The operations of `apply_patch`'s arguments (either form), parsed. */
export function applyPatchArgsToOperations(args: ApplyPatchArgs): PatchOperation[] {
  if ((args.input === undefined) === (args.operation === undefined)) {
    throw new ToolError('invalid_arguments', 'give either input (the whole "*** Begin Patch" ... "*** End Patch" text) or operation, not both or neither');
  }
  if (args.input !== undefined) {
    refuseLoneSurrogate('input', args.input);
    return parsePatch(args.input);
  }
  const op = args.operation as ApplyPatchOperation;
  const path = checkOperationPath(op.path);
  if (op.type === 'delete_file') return [{ type: 'delete', path }];
  if (op.diff === undefined) throw new ToolError('invalid_arguments', `operation ${op.type} needs a diff`);
  refuseLoneSurrogate('operation.diff', op.diff);
  if (op.type === 'create_file') return [{ type: 'add', path, content: parseCreateDiff(op.diff, path) }];
  const lines = op.diff.replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const chunks = parseChunks(lines, path);
  if (chunks.length === 0) throw new ToolError('invalid_arguments', `the diff for ${path} has no hunks; add "@@" hunks with " ", "-" and "+" lines`);
  return [{ type: 'update', path, chunks }];
}

/**
 * `apply_patch` as OpenAI's models are trained on it: a V4A patch, either as Codex's function tool
 * does (`{ input }` holding `*** Begin Patch` ... `*** End Patch` with Add / Update / Move / Delete
 * operations) or as one Responses API operation (`{ operation: { type: 'create_file' | 'update_file'
 * | 'delete_file', path, diff } }`, the diff headerless). Context is found tolerantly (exact, then
 * ignoring trailing whitespace, then surrounding whitespace, then typographic punctuation read as
 * ASCII), with Codex's leniencies (a heredoc around the patch, padded markers, an `*** Environment ID:`
 * line, absolute paths inside the workspace), CRLF and BOM files keep their style, and
 * a patch of several files is applied all or nothing (see `applyPatchOperations`). Returns
 * `{ output, changes }`, `output` being Codex's summary (`Success. Updated the following files:` and
 * `A`/`M`/`D` lines).
 *
 * Errors: `invalid_arguments` for a malformed patch (naming the line: missing `*** End Patch`, a `+`
 * line outside a hunk) or one holding half of a surrogate pair (UTF-8 cannot store it), `no_match` quoting the context line not found,
 * `not_found`, `binary_file`, `stale_file` (an Add or Move onto a file that changed since this conversation
 * read it), `outside_workspace`.
 */
export const applyPatchTool: ExecuteTool<ApplyPatchArgs, PatchResult> = /* @__PURE__ */ defineTool({
  name: 'apply_patch',
  annotations: { title: 'Apply patch', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  description: APPLY_PATCH_DESCRIPTION,
  inputSchema: applyPatchParameters,
  execute: async (args, ctx) => applyPatchOperations(ctx, applyPatchArgsToOperations(args as ApplyPatchArgs)),
});

/**
 * Arguments of `shell`, in any of the shapes OpenAI's models and SDKs send: the Agents SDK's
 * `{ commands, timeoutMs?, maxOutputLength? }`; the Responses API shell action's `{ commands,
 * timeout_ms?, max_output_length? }`, flat or as `{ action: {...} }`; the Responses API local shell
 * action `{ action: { type: 'exec', command: [...argv], timeout_ms?, working_directory?, env? } }`; and
 * Codex CLI's `{ command: [...argv], workdir?, timeout_ms? }`.
 */
export interface ShellArgs {
  commands?: string[];
  timeoutMs?: number;
  maxOutputLength?: number;
  timeout_ms?: number;
  max_output_length?: number;
  /** An argv (Codex CLI): run as one command, each word quoted for the shell. */
  command?: string[];
  /** Codex CLI's working directory, inside the workspace (default: the working directory). */
  workdir?: string;
  action?: ShellAction;
}

/** The `action` of a Responses API `shell_call` (`commands`) or `local_shell_call` (`command`). */
export interface ShellAction {
  type?: 'exec';
  commands?: string[];
  command?: string[];
  timeout_ms?: number;
  max_output_length?: number;
  working_directory?: string;
  env?: Record<string, string>;
  /** Accepted in the schema only to answer clearly: toolhost runs commands as the host's user. */
  user?: string;
}

/** One command's output in a `shell` result. */
export interface ShellCommandOutput {
  stdout: string;
  stderr: string;
  outcome: { type: 'exit'; exitCode: number | null } | { type: 'timeout' };
}

/** Result of `shell`: one entry per command run (a timeout stops the rest); a note where there is no shell. */
export interface ShellResult {
  output: ShellCommandOutput[];
  maxOutputLength?: number;
  note?: string;
}

/** What to run, whatever shape the arguments came in. */
interface ShellPlan {
  commands: string[];
  /** For each command, the apply_patch invocation it is (applied, not run), or null. */
  patches: Array<{ patch: string; cd?: string } | null>;
  timeoutMs: number | undefined;
  maxOutputLength: number | undefined;
  workdir: string | undefined;
}

/** The marker run_command leaves where it dropped the middle of a long output (see `OutputCapture`). */
const DROPPED_MARKER = /\n… \[(\d+) characters dropped\] …\n/;

/**
 * `text` cut to `max` characters with `… [N characters cut]` after it, N counting what the command
 * wrote and the answer leaves out: a marker of characters run_command already dropped from the
 * middle, when it falls in the part cut (or is cut through: then all of it goes), adds its count
 * instead of its own length.
 */
function capOutput(text: string, max: number | undefined): string {
  if (max === undefined) return text;
  let { text: kept, cut } = truncateText(text, max);
  if (cut === 0) return text;
  const marker = DROPPED_MARKER.exec(text);
  if (marker && kept.length < marker.index + marker[0].length) {
    kept = kept.slice(0, marker.index);
    cut = countCodePoints(text, kept.length) - countCodePoints(marker[0]) + Number(marker[1]);
  }
  return `${kept}\n… [${cut} characters cut]`;
}

const quoteWord = (word: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** An argv as one shell command line (each word quoted), with `env` as assignments before it. */
function argvToLine(argv: readonly string[], env: Record<string, string> | undefined, name: string): string {
  if (argv.length === 0) throw new ToolError('invalid_arguments', `${name} is empty; give the program and its arguments, e.g. ["ls", "-la"]`);
  const assignments = Object.entries(env ?? {}).map(([key, value]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new ToolError('invalid_arguments', `action.env has the name ${JSON.stringify(key)}; variable names are letters, digits and _, not starting with a digit`);
    return `${key}=${quoteWord(value)}`;
  });
  return [...assignments, ...argv.map(quoteWord)].join(' ');
}

/** The arguments of `shell` in one plan; `invalid_arguments` for a mix of shapes or none. */
function planShell(args: ShellArgs): ShellPlan {
  const shapes = [args.commands !== undefined, args.command !== undefined, args.action !== undefined].filter(Boolean).length;
  if (shapes !== 1) {
    throw new ToolError(
      'invalid_arguments',
      'give exactly one of commands (command lines, e.g. { "commands": ["ls -la"] }), command (an argv, e.g. { "command": ["ls", "-la"], "workdir": "src" }) ' +
        'or action (a Responses API shell or local shell action)',
    );
  }
  if (args.timeoutMs !== undefined && args.timeout_ms !== undefined) throw new ToolError('invalid_arguments', 'give timeoutMs or timeout_ms, not both');
  if (args.maxOutputLength !== undefined && args.max_output_length !== undefined) throw new ToolError('invalid_arguments', 'give maxOutputLength or max_output_length, not both');
  const timeoutMs = args.timeoutMs ?? args.timeout_ms;
  const maxOutputLength = args.maxOutputLength ?? args.max_output_length;
  if (args.commands !== undefined) return { commands: args.commands, patches: args.commands.map((line) => patchInvocation({ line })), timeoutMs, maxOutputLength, workdir: args.workdir };
  if (args.command !== undefined) {
    return { commands: [argvToLine(args.command, undefined, 'command')], patches: [patchInvocation({ argv: args.command })], timeoutMs, maxOutputLength, workdir: args.workdir };
  }
  if (timeoutMs !== undefined || maxOutputLength !== undefined || args.workdir !== undefined) {
    throw new ToolError('invalid_arguments', 'with action, put timeout_ms, max_output_length and working_directory inside the action');
  }
  const action = args.action as ShellAction;
  if (action.user !== undefined) {
    throw new ToolError('invalid_arguments', `action.user ${JSON.stringify(action.user)} cannot be honoured: commands run as the host's user. Leave user out`);
  }
  if ((action.commands === undefined) === (action.command === undefined)) {
    throw new ToolError('invalid_arguments', 'the action needs exactly one of commands (command lines) or command (an argv, as local shell sends it)');
  }
  if (action.commands !== undefined && action.env !== undefined) {
    throw new ToolError('invalid_arguments', 'action.env goes with an argv command; with command lines, set variables in the line itself (FOO=1 make)');
  }
  const commands = action.commands ?? [argvToLine(action.command as string[], action.env, 'action.command')];
  const patches = action.commands?.map((line) => patchInvocation({ line })) ?? [patchInvocation({ argv: action.command as string[] })];
  return { commands, patches, timeoutMs: action.timeout_ms, maxOutputLength: action.max_output_length, workdir: action.working_directory };
}

const PATCH_PROGRAMS = new Set(['apply_patch', 'applypatch']);
/** `apply_patch <<'EOF'` ... `EOF` as a whole script, optionally after `cd <dir> &&` (any heredoc word, quoted or not). */
const PATCH_SCRIPT = /^\s*(?:cd\s+(?:'([^']*)'|"([^"]*)"|([^\s;&|'"]+))\s*&&\s*)?(?:apply_patch|applypatch)\s*<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\4[ \t]*\n([\s\S]*?)\n[ \t]*\5\s*$/;

/** The patch (and `cd` folder) of a command that is an apply_patch invocation, as Codex recognises them; null otherwise. */
export function patchInvocation(command: { line: string } | { argv: readonly string[] }): { patch: string; cd?: string } | null {
  let script: string;
  if ('argv' in command) {
    const argv = command.argv;
    if (argv.length === 2 && PATCH_PROGRAMS.has(argv[0] as string)) return { patch: argv[1] as string };
    if (argv.length !== 3 || !/(^|\/)(ba|z)?sh$/.test(argv[0] as string) || !['-c', '-lc'].includes(argv[1] as string)) return null;
    script = argv[2] as string;
  } else script = command.line;
  const match = PATCH_SCRIPT.exec(script);
  if (match === null) return null;
  const cd = match[1] ?? match[2] ?? match[3];
  return cd === undefined ? { patch: match[6] as string } : { patch: match[6] as string, cd };
}

/**
 * Runs an apply_patch invocation given to `shell` (Codex intercepts these rather than running a
 * program): the patch is applied as `apply_patch` would, paths taken from `cwd` (and its `cd`). The
 * summary is stdout with exit code 0; a patch that does not apply is stderr with exit code 1 (in the
 * profile's words, as `apply_patch`'s own errors).
 */
async function interceptPatch(invocation: { patch: string; cd?: string }, cwd: string, ctx: ToolContext): Promise<ShellCommandOutput> {
  try {
    let dir = cwd;
    if (invocation.cd !== undefined) dir = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd }, invocation.cd, { argName: 'the cd folder' });
    // The call's context with another working directory (its members read from the context itself).
    const scoped = new Proxy(ctx, {
      get(target, key) {
        if (key === 'cwd') return dir;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const { output } = await applyPatchOperations(scoped, applyPatchArgsToOperations({ input: invocation.patch }));
    return { stdout: output, stderr: '', outcome: { type: 'exit', exitCode: 0 } };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    // stderr is not a message the profile's wrapper rewrites: put it in the profile's words here.
    return { stdout: '', stderr: `${speak(OPENAI_VOCABULARY, 'shell', error.message)}\n`, outcome: { type: 'exit', exitCode: 1 } };
  }
}

async function runEach(args: ShellArgs, ctx: ToolContext): Promise<ShellResult> {
  const plan = planShell(args);
  const platform = ctx.platform;
  if (plan.patches.every((p) => p !== null) && plan.commands.length > 0) {
    // Only patches: no shell is needed, so they apply on every platform.
    const output: ShellCommandOutput[] = [];
    for (const invocation of plan.patches) output.push(await interceptPatch(invocation as { patch: string; cd?: string }, await workingDirectory(plan, ctx), ctx));
    return { output };
  }
  if (!platform.capabilities.runCommand || typeof platform.runCommand !== 'function') {
    return { output: [], note: platform.name === 'web' ? 'shell is not available in the browser' : `shell is not available on the ${platform.name} platform` };
  }
  const cwd = await workingDirectory(plan, ctx);
  const output: ShellCommandOutput[] = [];
  const leftRunning: string[] = [];
  const timeoutMs = Math.min(plan.timeoutMs ?? RUN_COMMAND_DEFAULT_TIMEOUT_MS, RUN_COMMAND_MAX_TIMEOUT_MS);
  for (const [index, command] of plan.commands.entries()) {
    const invocation = plan.patches[index];
    if (invocation) {
      output.push(await interceptPatch(invocation, cwd, ctx));
      continue;
    }
    const run: RunCommandResult = await platform.runCommand({ command, cwd, timeoutMs }, ctx.signal);
    output.push({
      stdout: capOutput(run.stdout, plan.maxOutputLength),
      stderr: capOutput(run.stderr, plan.maxOutputLength),
      outcome: run.timed_out ? { type: 'timeout' } : { type: 'exit', exitCode: run.exit_code },
    });
    if (run.left_running !== undefined) leftRunning.push(`${plan.commands.length > 1 ? `Command ${index + 1}: ` : ''}${leftRunningSentence(run.left_running)}`);
    if (run.timed_out) break;
  }
  const result: ShellResult = { output };
  if (leftRunning.length > 0) result.note = `${leftRunning.join(' ')} ${leftRunningAdviceWithoutBackground('shell')}`;
  if (plan.maxOutputLength !== undefined) result.maxOutputLength = plan.maxOutputLength;
  return result;
}

/** The folder commands run in: the working directory, or the one the arguments give (inside the workspace). */
async function workingDirectory(plan: ShellPlan, ctx: ToolContext): Promise<string> {
  if (plan.workdir === undefined) return ctx.cwd;
  const cwd = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, plan.workdir, { argName: 'the working directory' });
  const stats = await statOrNull(ctx.fs, cwd);
  if (stats === null) throw new ToolError('not_found', `the working directory ${cwd} does not exist; give an existing folder inside the workspace`);
  if (!stats.isDirectory()) throw new ToolError('not_a_directory', `the working directory ${cwd} is a file; give a folder`);
  return cwd;
}

const timeoutSchema = { type: 'integer', minimum: 1, maximum: RUN_COMMAND_MAX_TIMEOUT_MS, description: 'Deadline of each command in ms.' } as const;
const maxOutputSchema = { type: 'integer', minimum: 1, description: 'Characters of stdout and of stderr kept per command.' } as const;
const commandLinesSchema = { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, description: 'Command lines to run, in order.' } as const;
const argvSchema = { type: 'array', items: { type: 'string' }, minItems: 1, description: 'A program and its arguments (an argv), run as one command.' } as const;

/**
 * `shell` as OpenAI's models call it, in each shape they use (see {@link ShellArgs}): command lines
 * (`commands`) or one argv (`command`, each word quoted for the shell, `env` as assignments before
 * it). Each command runs in turn through the platform's `run_command` machinery in the working
 * directory or the one given (`workdir` / `working_directory`, inside the workspace), in its own
 * process group, killed whole at the timeout (`timeoutMs` / `timeout_ms`, default 120,000, at most
 * 600,000); the result lists `{ stdout, stderr, outcome }` per command, `outcome` `{ type: 'exit',
 * exitCode }` or `{ type: 'timeout' }` (a timeout stops the remaining commands).
 * `maxOutputLength` / `max_output_length` caps each stream, in characters. A command that is an
 * apply_patch invocation (`["apply_patch", patch]`, or a script `apply_patch <<'EOF'` ... `EOF`,
 * optionally after `cd dir &&`, alone or as `bash -lc` / `sh -c`) is applied as a patch rather than
 * run, as Codex intercepts it: the summary on stdout with exit code 0, or the reason on stderr with
 * exit code 1. Where there is no shell (browser, memory) other commands succeed with no output and a note.
 * When a command left processes running (ended when its shell exited), the result's `note` names them
 * (with the command's number when there are several) and says to start and use a server within one command.
 *
 * Errors: `invalid_arguments` for no shape or two, both spellings of one option, an action `user`
 * (commands run as the host's user), a bad `env` name; `outside_workspace`, `not_found`,
 * `not_a_directory` for the working directory.
 */
export const shellTool: ExecuteTool<ShellArgs, ShellResult> = /* @__PURE__ */ defineTool({
  name: 'shell',
  annotations: { title: 'Shell', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  description:
    'Run shell commands in the workspace, one after another. Give commands (an array of command lines), or command (one ' +
    'program and its arguments as an array, optionally with workdir), optionally ' +
    `timeout_ms (per command, default ${RUN_COMMAND_DEFAULT_TIMEOUT_MS}) and max_output_length (characters kept per stream). ` +
    'Returns each command\'s stdout, stderr and outcome (exit code, or timeout). Commands are not interactive.',
  inputSchema: {
    type: 'object',
    properties: {
      commands: commandLinesSchema,
      command: argvSchema,
      workdir: { type: 'string', description: 'Working directory for command, inside the workspace.' },
      timeout_ms: timeoutSchema,
      max_output_length: maxOutputSchema,
      timeoutMs: timeoutSchema,
      maxOutputLength: maxOutputSchema,
      action: {
        type: 'object',
        description: 'A Responses API shell action ({ commands }) or local shell action ({ type: "exec", command }).',
        properties: {
          type: { type: 'string', enum: ['exec'] },
          commands: commandLinesSchema,
          command: argvSchema,
          timeout_ms: timeoutSchema,
          max_output_length: maxOutputSchema,
          working_directory: { type: 'string', description: 'Working directory, inside the workspace.' },
          env: { type: 'object', additionalProperties: { type: 'string' }, description: 'Environment variables for command.' },
          user: { type: 'string', description: 'Not supported: commands run as the host\'s user.' },
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  } as const,
  execute: async (args, ctx) => runEach(args as ShellArgs, ctx),
});

/** The OpenAI profile's tools: `apply_patch` and `shell` (a fresh array). */
export function openaiTools(): ExecuteTool[] {
  return [applyPatchTool, shellTool] as ExecuteTool[];
}
