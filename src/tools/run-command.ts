import { ToolError } from '../core/errors.js';
import { quoteForMessage } from '../fs/text.js';
import { defineTool, type ExecuteTool } from '../core/tool.js';
import type { BackgroundCommandOutput, BackgroundCommandSummary, LeftRunning, Platform, RunCommandResult } from '../core/types.js';
import { resolveWorkspacePath } from '../fs/paths.js';

/** What `run_command` returns for `run_in_background: true`. */
export interface RunCommandBackgroundResult {
  background_id: string;
  note: string;
}

function backgroundHost(platform: Platform, tool: string): NonNullable<Platform['backgroundCommands']> {
  if (!platform.capabilities.runCommand || platform.backgroundCommands === undefined) {
    throw new ToolError('unavailable', `${tool}: background commands are not available on the ${platform.name} platform`);
  }
  return platform.backgroundCommands;
}

/** Most processes a note about processes left running names (the others are counted: "and 3 more"). */
export const LEFT_RUNNING_NAMED = 3;

/** Characters of each command line such a note shows. */
export const LEFT_RUNNING_LINE_CHARS = 80;

/**
 * What `run_command` tells the model to do instead of leaving a server running behind a foreground
 * command: start it with `run_in_background`, in the foreground of that command.
 */
export const LEFT_RUNNING_ADVICE_FOREGROUND =
  'Every process a run_command starts ends with the call. To keep a server running, start it with run_in_background: true ' +
  'and in the foreground of that command: without `&`, `nohup`, `setsid` or its own daemonize option (e.g. `redis-server --daemonize no`), ' +
  'so it lives as long as that background command; read its output with command_output.';

/** What a background command's status tells the model: a background command lives as long as its shell. */
export const LEFT_RUNNING_ADVICE_BACKGROUND =
  'A background command lives as long as its shell: run the server in the foreground of the command, without `&`, `nohup`, `setsid` ' +
  'or its own daemonize option (e.g. `redis-server --daemonize no`), so it keeps running until stop_command ends it.';

/**
 * The advice of a shell tool that cannot run commands in the background (`bash`, `shell`,
 * `run_shell_command`): nothing outlives the command, so a server is started and used within one.
 */
export function leftRunningAdviceWithoutBackground(tool: string): string {
  return (
    `Every process a ${tool} command starts ends with it, so a server started with \`&\`, \`nohup\`, \`setsid\` or its own daemonize option ` +
    'is ended too: start the server and use it within one command (e.g. `server & sleep 2; curl localhost:8000`).'
  );
}

/**
 * The first sentence of a note about processes a command left running, which were ended: how many,
 * and the command lines of the first {@link LEFT_RUNNING_NAMED} (each cut to
 * {@link LEFT_RUNNING_LINE_CHARS} characters; identical ones once, with their number), then how many
 * more: `2 processes the command left running were ended when its shell exited: "sleep 30" (×2).`
 */
export function leftRunningSentence(left: LeftRunning): string {
  if (left.count === null) return 'Processes the command left running were ended when its shell exited.';
  const seen = new Map<string, number>();
  for (const line of left.commands) seen.set(line, (seen.get(line) ?? 0) + 1);
  const named = [...seen].slice(0, LEFT_RUNNING_NAMED);
  const shown = named.map(([line, times]) => `${quoteForMessage(line, { max: LEFT_RUNNING_LINE_CHARS, json: true })}${times > 1 ? ` (×${times})` : ''}`);
  const more = left.count - named.reduce((sum, [, times]) => sum + times, 0);
  const what = left.count === 1 ? '1 process the command left running was' : `${left.count} processes the command left running were`;
  const names = shown.length === 0 ? '' : `: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return `${what} ended when its shell exited${names}.`;
}

/**
 * `result` with its `left_running` (see {@link LeftRunning}) turned into a `note` for the model, after
 * the note it already has: {@link leftRunningSentence} then `advice`. A result without one is returned as is.
 */
export function withLeftRunningNote<T extends { left_running?: LeftRunning; note?: string }>(result: T, advice: string): T {
  const { left_running: left, ...rest } = result;
  if (left === undefined) return result;
  const note = `${leftRunningSentence(left)} ${advice}`;
  return { ...rest, note: rest.note === undefined ? note : `${rest.note} ${note}` } as T;
}

/** Default deadline of one `run_command` call, in ms. */
export const RUN_COMMAND_DEFAULT_TIMEOUT_MS = 120_000;

/** Largest `timeout_ms` a model may ask for, in ms. */
export const RUN_COMMAND_MAX_TIMEOUT_MS = 600_000;

const inputSchema = {
  type: 'object',
  properties: {
    command: {
      type: 'string',
      minLength: 1,
      description: 'The shell command line to run (through the platform shell, e.g. `npm test -- --run`).',
    },
    cwd: {
      type: 'string',
      description: 'Directory to run in: a workspace path, absolute or relative to the workspace. Default: the workspace directory.',
    },
    timeout_ms: {
      type: 'integer',
      minimum: 1,
      maximum: RUN_COMMAND_MAX_TIMEOUT_MS,
      description: `Kill the command (and every process it started) after this many milliseconds. Default ${RUN_COMMAND_DEFAULT_TIMEOUT_MS}, at most ${RUN_COMMAND_MAX_TIMEOUT_MS}; a background command runs until stopped unless timeout_ms is given.`,
    },
    run_in_background: {
      type: 'boolean',
      description:
        'Start the command and return { background_id } at once, for servers and watchers that keep running. ' +
        'Run the server in the command\'s foreground (no &, nohup or daemonize option): it lives as long as the command. ' +
        'Read its output with command_output and end it with stop_command. Default false: the call waits, and every process the command started ends with it.',
    },
  },
  required: ['command'],
  additionalProperties: false,
} as const;

/**
 * The built-in `run_command` tool.
 *
 * Args `{ command, cwd?, timeout_ms? = 120000 (1..600000 ms), run_in_background? = false }` → `{ stdout,
 * stderr, exit_code, signal, timed_out, truncated }` ({@link RunCommandResult}). With `run_in_background`
 * (as Claude Code's Bash tool): `{ background_id, note }` at once, the command handed to
 * `platform.backgroundCommands` (read with {@link commandOutputTool}, ended with {@link stopCommandTool};
 * `unavailable` where the platform has none). `cwd` is a workspace path resolved with
 * `resolveWorkspacePath` (argName `cwd`) and must be a directory. The process side belongs to the platform:
 * the tool hands `{ command, cwd, timeoutMs }` and the call's abort signal to `platform.runCommand`.
 *
 * Where the platform cannot run commands (`capabilities.runCommand` false or no `runCommand`: the browser
 * and the memory platform) it succeeds with empty output and a `note`, as the original WASM build does.
 *
 * Errors: `outside_workspace` / `invalid_arguments` for a bad `cwd`, `not_found` when `cwd` does not exist,
 * `not_a_directory` when it is a file; `cancelled` / `timeout` from the runner; anything the platform throws.
 * Not read-only and not concurrency-safe: commands run alone, in call order.
 */
export const runCommandTool: ExecuteTool<
  { command: string; cwd?: string; timeout_ms?: number; run_in_background?: boolean },
  RunCommandResult | RunCommandBackgroundResult
> = defineTool({
  name: 'run_command',
  annotations: { title: 'Run shell command', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  description:
    'Run a shell command in the workspace and return { stdout, stderr, exit_code, signal, timed_out, truncated }. ' +
    'The command runs through the shell in its own process group; on timeout (timeout_ms, default 120000, max 600000) ' +
    'the whole group is killed and timed_out is true. Each of stdout and stderr keeps its first and last 15,000 ' +
    'characters with a marker saying what was dropped (truncated is then true). Commands are not interactive: ' +
    'give flags that avoid prompts and pagers. Every process the command starts (background ones included) is ended ' +
    'when the call ends; for a server or watcher that must keep running, set run_in_background and use ' +
    'command_output / stop_command. Where commands cannot run (the browser), the result is empty with a note saying so.',
  inputSchema,
  execute: async ({ command, cwd, timeout_ms, run_in_background }, ctx): Promise<RunCommandResult | RunCommandBackgroundResult> => {
    const platform = ctx.platform;
    if (!platform.capabilities.runCommand || typeof platform.runCommand !== 'function') {
      return {
        stdout: '',
        stderr: '',
        exit_code: null,
        signal: null,
        timed_out: false,
        truncated: false,
        note:
          platform.name === 'web'
            ? 'run_command is not available in the browser'
            : `run_command is not available on the ${platform.name} platform`,
      };
    }
    const scope = { fs: ctx.fs, root: platform.root, cwd: ctx.cwd };
    const dir = await resolveWorkspacePath(scope, cwd ?? ctx.cwd, { argName: 'cwd' });
    let stats;
    try {
      stats = await ctx.fs.stat(dir);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === 'ENOENT') {
        throw new ToolError('not_found', `cwd ${quoteForMessage(cwd ?? dir)} does not exist; give an existing directory (e.g. ${platform.root})`);
      }
      throw error;
    }
    if (!stats.isDirectory()) {
      throw new ToolError('not_a_directory', `cwd ${quoteForMessage(cwd ?? dir)} is a file, not a directory; give the directory that holds it`);
    }
    if (run_in_background === true) {
      const host = backgroundHost(platform, 'run_command');
      const id = await host.start({ command, cwd: dir, timeoutMs: timeout_ms ?? 2 ** 31 - 1 });
      return {
        background_id: id,
        note: `Started in the background as ${id}; read its output with command_output { background_id: "${id}" } and end it with stop_command.`,
      };
    }
    const result = await platform.runCommand(
      { command, cwd: dir, timeoutMs: timeout_ms ?? RUN_COMMAND_DEFAULT_TIMEOUT_MS },
      ctx.signal,
    );
    return withLeftRunningNote(result, LEFT_RUNNING_ADVICE_FOREGROUND);
  },
});

/** Result of `command_output` without an id: every background command of the platform. */
export interface CommandListResult {
  commands: BackgroundCommandSummary[];
}

/**
 * `command_output` (as Claude Code's BashOutput): `{ background_id? }` → the output so far of a command
 * started with `run_command` `run_in_background` ({@link BackgroundCommandOutput}: `stdout`, `stderr` with
 * their first and last 15,000 characters, `running`, `exit_code`, `signal`, `timed_out`, `truncated`);
 * without `background_id`, `{ commands }` lists them all. Read-only.
 *
 * Errors: `not_found` for an unknown id; `unavailable` where commands cannot run in the background.
 */
export const commandOutputTool: ExecuteTool<{ background_id?: string }, BackgroundCommandOutput | CommandListResult> = defineTool({
  name: 'command_output',
  annotations: { title: 'Background command output', readOnlyHint: true, openWorldHint: false },
  description:
    'Read the output so far of a command started with run_command run_in_background: { stdout, stderr, running, exit_code, signal }. ' +
    'Without background_id, list every background command with its id and whether it still runs.',
  inputSchema: {
    type: 'object',
    properties: {
      background_id: { type: 'string', minLength: 1, description: 'The background_id run_command returned. Leave out to list all.' },
    },
    additionalProperties: false,
  },
  execute: async ({ background_id }, ctx) => {
    const host = backgroundHost(ctx.platform, 'command_output');
    if (background_id === undefined) return { commands: (await host.list()).map((entry) => withLeftRunningNote(entry, LEFT_RUNNING_ADVICE_BACKGROUND)) };
    return withLeftRunningNote(await host.output(background_id), LEFT_RUNNING_ADVICE_BACKGROUND);
  },
});

/**
 * `stop_command` (as Claude Code's KillShell): `{ background_id }` → ends a background command and every
 * process it started (SIGTERM, SIGKILL after a grace period) and returns its final output, as
 * `command_output`. Stopping one that has already ended returns its output.
 *
 * Errors: `not_found` for an unknown id; `unavailable` where commands cannot run in the background.
 */
export const stopCommandTool: ExecuteTool<{ background_id: string }, BackgroundCommandOutput> = defineTool({
  name: 'stop_command',
  annotations: { title: 'Stop background command', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  description: 'Stop a command started with run_command run_in_background (and every process it started); returns its final output.',
  inputSchema: {
    type: 'object',
    properties: {
      background_id: { type: 'string', minLength: 1, description: 'The background_id run_command returned.' },
    },
    required: ['background_id'],
    additionalProperties: false,
  },
  execute: async ({ background_id }, ctx) => withLeftRunningNote(await backgroundHost(ctx.platform, 'stop_command').stop(background_id), LEFT_RUNNING_ADVICE_BACKGROUND),
});
