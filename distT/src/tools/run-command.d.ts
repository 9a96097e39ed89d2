import { type Tool } from '../core/tool.js';
import type { BackgroundCommandOutput, BackgroundCommandSummary, RunCommandResult } from '../core/types.js';
/** What `run_command` returns for `run_in_background: true`. */
export interface RunCommandBackgroundResult {
    background_id: string;
    note: string;
}
/** Default deadline of one `run_command` call, in ms. */
export declare const RUN_COMMAND_DEFAULT_TIMEOUT_MS = 120000;
/** Largest `timeout_ms` a model may ask for, in ms. */
export declare const RUN_COMMAND_MAX_TIMEOUT_MS = 600000;
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
export declare const runCommandTool: Tool<{
    command: string;
    cwd?: string;
    timeout_ms?: number;
    run_in_background?: boolean;
}, RunCommandResult | RunCommandBackgroundResult>;
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
export declare const commandOutputTool: Tool<{
    background_id?: string;
}, BackgroundCommandOutput | CommandListResult>;
/**
 * `stop_command` (as Claude Code's KillShell): `{ background_id }` → ends a background command and every
 * process it started (SIGTERM, SIGKILL after a grace period) and returns its final output, as
 * `command_output`. Stopping one that has already ended returns its output.
 *
 * Errors: `not_found` for an unknown id; `unavailable` where commands cannot run in the background.
 */
export declare const stopCommandTool: Tool<{
    background_id: string;
}, BackgroundCommandOutput>;
