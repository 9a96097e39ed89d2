import type { BackgroundCommandOutput, BackgroundCommands, BackgroundCommandSummary, RunCommandRequest, RunCommandResult } from '../src/core/types.js';
/** Characters kept at each end of a captured stream. */
export declare const OUTPUT_KEEP_CHARS = 15000;
/** Options of {@link runShellCommand}; all optional, for hosts and tests. */
export interface RunShellCommandOptions {
    /** Shell executable, run as `<shell> -c <command>` (default `/bin/sh`). */
    shell?: string;
    /**
     * Variables added to the command's environment. By default a command sees only the host variables
     * named in {@link COMMAND_ENV_ALLOW_LIST} (and `LC_*`), so a secret in the host's environment
     * (`OPENAI_API_KEY`, ...) stays out of reach; pass what a command needs here.
     */
    env?: Record<string, string | undefined>;
    /** Give commands the host's whole environment (plus `env`) instead of the allow-list (default false). */
    inheritEnv?: boolean;
    /** ms between SIGTERM and SIGKILL of the process group (default 500). */
    killGraceMs?: number;
    /** ms to wait, after the shell exits, for background processes to release stdout/stderr before they are killed (default 250). */
    lingerMs?: number;
    /** Characters kept at each end of each stream (default {@link OUTPUT_KEEP_CHARS}). */
    keepChars?: number;
}
/**
 * Captures one output stream: decodes UTF-8 as it arrives (a streaming TextDecoder, so a multi-byte
 * character split between chunks is never mangled; invalid bytes become U+FFFD) and keeps only the
 * first and last `keep` characters (UTF-16 code units), so memory stays bounded however much is printed.
 */
export declare class OutputCapture {
    #private;
    constructor(keep?: number);
    /** Adds a chunk of raw bytes. */
    push(chunk: Uint8Array): void;
    /** Flushes the decoder (an incomplete trailing sequence becomes U+FFFD). Call once, at the end. */
    end(): void;
    /**
     * The captured text: everything when it fits in `2 × keep` characters, else the first and last
     * `keep` characters around `\n… [N characters dropped] …\n`, N counting every character left out
     * (a surrogate pair cut by a boundary is dropped whole, and counted).
     */
    result(): {
        text: string;
        truncated: boolean;
    };
}
/**
 * Host variables a command sees by default (besides every `LC_*`): what shells and common tools need
 * to find programs, a home, a temporary directory, the locale and the terminal type.
 */
export declare const COMMAND_ENV_ALLOW_LIST: readonly string[];
/** Name of the variable that marks every process a command starts (its value is the command's id). */
export declare const COMMAND_MARKER_VARIABLE = "TOOLHOST_COMMAND_ID";
/** The environment a command runs with: the allow-listed host variables (or all with `inheritEnv`), then `env`. */
export declare function commandEnvironment(options?: Pick<RunShellCommandOptions, 'env' | 'inheritEnv'>): Record<string, string>;
/**
 * Whether any process of group `pgid` is still running. Zombies count as dead: they run nothing, but
 * stay in the group until their new parent reaps them, and some container inits reap only every
 * second or two (measured: 1.5–1.9 s here), so `kill(-pgid, 0)` alone would report them alive.
 */
export declare function isProcessGroupAlive(pgid: number): boolean;
/** What a started command has printed so far, and whether it still runs. */
export type CommandSnapshot = Omit<BackgroundCommandOutput, 'background_id'>;
/** A command started by {@link startShellCommand}. */
export interface StartedCommand {
    /** Settles once the shell has exited and every process it started has ended. */
    readonly result: Promise<RunCommandResult>;
    /** The output so far. */
    snapshot(): CommandSnapshot;
    /** Ends every process of the command now (SIGKILL after a SIGSTOP of all); `result` then settles. */
    killNow(): void;
    /** SIGTERM, then SIGKILL after the grace period; resolves with the final result. */
    stop(): Promise<RunCommandResult>;
}
/**
 * Starts `request.command` through `/bin/sh -c` in `request.cwd`, in its own process group, stdin
 * closed, stdout and stderr drained as they arrive (see {@link runShellCommand} for the rules). Rejects
 * with `not_found` / `execution_failed` when the shell cannot be started.
 */
export declare function startShellCommand(request: RunCommandRequest, options?: RunShellCommandOptions): Promise<StartedCommand>;
/**
 * Runs `request.command` through `/bin/sh -c` in `request.cwd`. The shell leads its
 * own process group (`detached: true`), stdin is closed, stdout and stderr are drained as they arrive.
 *
 * Every process the command starts ends with the call, including ones that left the group (`setsid`,
 * `set -m`, `nohup … &`, a double fork): the shell joins a cgroup of its own where one can be made
 * (cgroup v2 under this process's cgroup, or v1 `pids`; no child can leave it), and they are also
 * tracked through `/proc` (descendants, the group, and a marker variable `TOOLHOST_COMMAND_ID` every
 * child inherits); all are killed by pid. When the shell exits,
 * background processes get `lingerMs` (250 ms) to finish, then SIGTERM and, after `killGraceMs` (500 ms),
 * SIGKILL. On timeout (`request.timeoutMs`, ms) the same. When `signal` aborts (the runner's deadline or a
 * cancel, which answer at once), every process is stopped and SIGKILLed synchronously, so none runs by
 * the time the call has answered. The promise settles only once no process of the command runs.
 *
 * The environment is {@link commandEnvironment}: the allow-listed host variables plus `options.env`
 * (the whole host environment only with `inheritEnv: true`).
 *
 * Returns `{ stdout, stderr, exit_code, signal, timed_out, truncated }`: `exit_code` is null and `signal`
 * the name (`'SIGTERM'`, `'SIGKILL'`) when the shell died of a signal; each stream keeps its first and last
 * 15,000 characters around `\n… [N characters dropped] …\n` and `truncated` says whether either was cut.
 * An abort still resolves with the output so far (`timed_out: false`).
 *
 * Errors: `cancelled` when `signal` is already aborted (nothing is started); `not_found` / `execution_failed`
 * when the shell cannot be started (missing `cwd`, missing shell).
 */
export declare function runShellCommand(request: RunCommandRequest, signal?: AbortSignal, options?: RunShellCommandOptions): Promise<RunCommandResult>;
/** Most background commands one platform keeps (running or finished, oldest finished dropped first). */
export declare const MAX_BACKGROUND_COMMANDS = 32;
/**
 * The background commands of one Node platform: started with `run_in_background`, read and stopped by
 * id, all ended when the platform is disposed. A background command follows the same cleanup rules as
 * a foreground one once its shell exits or it is stopped.
 */
export declare class NodeBackgroundCommands implements BackgroundCommands {
    #private;
    constructor(options?: RunShellCommandOptions);
    /** Starts a command; returns its id (`bg-1`, `bg-2`, ...). Errors as {@link startShellCommand}, `unavailable` when too many run. */
    start(request: RunCommandRequest): Promise<string>;
    /** Output so far of one command. Errors: `not_found` for an unknown id. */
    output(id: string): Promise<BackgroundCommandOutput>;
    /** Every command, oldest first. */
    list(): Promise<BackgroundCommandSummary[]>;
    /** Ends the command and every process it started; resolves with its final output. Errors: `not_found`. */
    stop(id: string): Promise<BackgroundCommandOutput>;
    /** Ends every command now. */
    dispose(): Promise<void>;
}
