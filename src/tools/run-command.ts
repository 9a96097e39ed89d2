import { ToolError } from '../core/errors.js';
import { quoteForMessage } from '../fs/text.js';
import { defineTool, type Tool } from '../core/tool.js';
import type { RunCommandResult } from '../core/types.js';
import { resolveWorkspacePath } from '../fs/paths.js';

/** Default deadline of one `run_command` call, in ms (SPEC §6.8). */
export const RUN_COMMAND_DEFAULT_TIMEOUT_MS = 120_000;

/** Largest `timeout_ms` a model may ask for, in ms (SPEC §6.8). */
export const RUN_COMMAND_MAX_TIMEOUT_MS = 600_000;

const parameters = {
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
      description: `Kill the command (and its whole process group) after this many milliseconds. Default ${RUN_COMMAND_DEFAULT_TIMEOUT_MS}, at most ${RUN_COMMAND_MAX_TIMEOUT_MS}.`,
    },
  },
  required: ['command'],
  additionalProperties: false,
} as const;

/**
 * The built-in `run_command` tool (SPEC §6.8; seed: the SDK's `RunCommand`).
 *
 * Args `{ command, cwd?, timeout_ms? = 120000 (1..600000 ms) }` → `{ stdout, stderr, exit_code, signal,
 * timed_out, truncated }` ({@link RunCommandResult}). `cwd` is a workspace path resolved with
 * `resolveWorkspacePath` (argName `cwd`) and must be a directory. The process side belongs to the platform:
 * the tool hands `{ command, cwd, timeoutMs }` and the call's abort signal to `platform.runCommand`.
 *
 * Where the platform cannot run commands (`capabilities.runCommand` false or no `runCommand`: the browser
 * and the memory platform) it succeeds with empty output and a `note`, as the seed's WASM build does.
 *
 * Errors: `outside_workspace` / `invalid_arguments` for a bad `cwd`, `not_found` when `cwd` does not exist,
 * `not_a_directory` when it is a file; `cancelled` / `timeout` from the runner; anything the platform throws.
 * Not read-only and not concurrency-safe: commands run alone, in call order.
 */
export const runCommandTool: Tool<{ command: string; cwd?: string; timeout_ms?: number }, RunCommandResult> = defineTool({
  name: 'run_command',
  description:
    'Run a shell command in the workspace and return { stdout, stderr, exit_code, signal, timed_out, truncated }. ' +
    'The command runs through the shell in its own process group; on timeout (timeout_ms, default 120000, max 600000) ' +
    'the whole group is killed and timed_out is true. Each of stdout and stderr keeps its first and last 15,000 ' +
    'characters with a marker saying what was dropped (truncated is then true). Commands are not interactive: ' +
    'give flags that avoid prompts and pagers. Where commands cannot run (the browser), the result is empty ' +
    'with a note saying so.',
  parameters,
  readOnly: false,
  concurrencySafe: false,
  callWithContext: async ({ command, cwd, timeout_ms }, ctx): Promise<RunCommandResult> => {
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
    return platform.runCommand(
      { command, cwd: dir, timeoutMs: timeout_ms ?? RUN_COMMAND_DEFAULT_TIMEOUT_MS },
      ctx.signal,
    );
  },
});
