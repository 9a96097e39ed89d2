import type { ShellSession } from '../src/core/types.js';
import { type RunShellCommandOptions } from './run-command.js';
/** Options of {@link createShellSessions}. */
export interface ShellSessionsOptions {
    /** Process options of each command (shell, env, kill grace), as `run_command` takes them; the shell defaults to `/bin/bash`. */
    command?: RunShellCommandOptions;
}
/** The sessions of one platform: one per conversation, created on first use, removed on dispose. */
export interface ShellSessions {
    get(conversationId: string): ShellSession;
    dispose(): Promise<void>;
}
/**
 * Persistent shell sessions on Node, one per conversation. Each command runs through
 * `runShellCommand` (the same spawning as `run_command`: its own process group, killed whole on
 * timeout or abort, output capped), in bash, with the session's state put back first and saved
 * again when the shell exits: the working directory and every exported variable (a variable unset
 * in the session stays unset). State lives in a private temporary directory per session. Shell
 * functions, aliases, unexported variables and background jobs do not carry over. Commands of one
 * session run one at a time, in call order.
 */
export declare function createShellSessions(options?: ShellSessionsOptions): ShellSessions;
