import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { ToolError, toToolError } from '../src/core/errors.js';
import type { RunCommandRequest, RunCommandResult } from '../src/core/types.js';

/** Characters kept at each end of a captured stream (SPEC §6.8). */
export const OUTPUT_KEEP_CHARS = 15_000;

/** Options of {@link runShellCommand}; all optional, for hosts and tests. */
export interface RunShellCommandOptions {
  /** Shell executable, run as `<shell> -c <command>` (default `/bin/sh`). */
  shell?: string;
  /** Environment of the command (default: this process's `process.env`). */
  env?: NodeJS.ProcessEnv;
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
export class OutputCapture {
  readonly #decoder = new TextDecoder('utf-8');
  readonly #keep: number;
  #head = '';
  #tail = '';
  #total = 0;

  constructor(keep: number = OUTPUT_KEEP_CHARS) {
    this.#keep = keep;
  }

  /** Adds a chunk of raw bytes. */
  push(chunk: Uint8Array): void {
    this.#add(this.#decoder.decode(chunk, { stream: true }));
  }

  /** Flushes the decoder (an incomplete trailing sequence becomes U+FFFD). Call once, at the end. */
  end(): void {
    this.#add(this.#decoder.decode());
  }

  #add(text: string): void {
    if (text.length === 0) return;
    this.#total += text.length;
    if (this.#head.length < this.#keep) {
      const room = this.#keep - this.#head.length;
      this.#head += text.slice(0, room);
      text = text.slice(room);
      if (text.length === 0) return;
    }
    this.#tail += text;
    // Trim rarely (amortised): only the last `keep` characters can ever be shown.
    if (this.#tail.length > 4 * this.#keep) this.#tail = this.#tail.slice(-this.#keep);
  }

  /**
   * The captured text: everything when it fits in `2 × keep` characters, else the first and last
   * `keep` characters around `\n… [N characters dropped] …\n`, N counting every character left out
   * (a surrogate pair cut by a boundary is dropped whole, and counted).
   */
  result(): { text: string; truncated: boolean } {
    let head = this.#head;
    let tail = this.#tail.length > this.#keep ? this.#tail.slice(-this.#keep) : this.#tail;
    if (this.#total === head.length + tail.length) return { text: head + tail, truncated: false };
    const last = head.charCodeAt(head.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
    const first = tail.charCodeAt(0);
    if (first >= 0xdc00 && first <= 0xdfff) tail = tail.slice(1);
    const dropped = this.#total - head.length - tail.length;
    return { text: `${head}\n… [${dropped} characters dropped] …\n${tail}`, truncated: true };
  }
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Whether any process of group `pgid` is still running. Zombies count as dead: they run nothing, but
 * stay in the group until their new parent reaps them, and some container inits reap only every
 * second or two (measured: 1.5–1.9 s here), so `kill(-pgid, 0)` alone would report them alive.
 */
export function isProcessGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // no procfs: trust kill(0)
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ..." — comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

/** SIGTERM to the whole group, SIGKILL after `graceMs` if any member still runs; resolves once none runs (or after 2 s more). */
async function killGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  const soft = Date.now() + graceMs;
  while (Date.now() < soft) {
    if (!isProcessGroupAlive(pgid)) return;
    await delay(20);
  }
  signalGroup(pgid, 'SIGKILL');
  const hard = Date.now() + 2000;
  while (Date.now() < hard) {
    if (!isProcessGroupAlive(pgid)) return;
    await delay(20);
  }
}

/**
 * Runs `request.command` through `/bin/sh -c` in `request.cwd` (SPEC §6.8, Node). The shell leads its
 * own process group (`detached: true`), stdin is closed, stdout and stderr are drained as they arrive.
 *
 * On timeout (`request.timeoutMs`, ms) or when `signal` aborts, the WHOLE group gets SIGTERM, then
 * SIGKILL after `killGraceMs` (500 ms) if anything still runs; the promise settles only once no process
 * of the group runs, background grandchildren included. When the shell exits on its own but background
 * processes still hold stdout/stderr after `lingerMs` (250 ms), they are killed the same way, so nothing
 * started by the call outlives it while holding its pipes (a process that calls `setsid` leaves the group
 * and is not tracked).
 *
 * Returns `{ stdout, stderr, exit_code, signal, timed_out, truncated }`: `exit_code` is null and `signal`
 * the name (`'SIGTERM'`, `'SIGKILL'`) when the shell died of a signal; each stream keeps its first and last
 * 15,000 characters around `\n… [N characters dropped] …\n` and `truncated` says whether either was cut.
 * An abort still resolves with the output so far (`timed_out: false`).
 *
 * Errors: `cancelled` when `signal` is already aborted (nothing is started); `not_found` / `execution_failed`
 * when the shell cannot be started (missing `cwd`, missing shell).
 */
export async function runShellCommand(
  request: RunCommandRequest,
  signal?: AbortSignal,
  options: RunShellCommandOptions = {},
): Promise<RunCommandResult> {
  if (signal?.aborted) throw new ToolError('cancelled', 'run_command was cancelled before it started');
  const graceMs = options.killGraceMs ?? 500;
  const lingerMs = options.lingerMs ?? 250;
  const stdout = new OutputCapture(options.keepChars);
  const stderr = new OutputCapture(options.keepChars);

  const child = spawn(options.shell ?? '/bin/sh', ['-c', request.command], {
    cwd: request.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  });
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

  try {
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
  } catch (error) {
    const converted = toToolError(error);
    throw new ToolError(
      converted.code === 'not_found' ? 'not_found' : 'execution_failed',
      `could not start the shell in ${request.cwd}: ${converted.message}`,
    );
  }
  child.on('error', () => undefined); // later errors (e.g. from kill) are reflected in the exit status
  const pgid = child.pid as number;

  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (code, sig) => resolve([code, sig])),
  );
  const closed = new Promise<true>((resolve) => child.once('close', () => resolve(true)));

  let timedOut = false;
  let killing: Promise<void> | undefined;
  const kill = (): Promise<void> => (killing ??= killGroup(pgid, graceMs));
  const timer = setTimeout(() => {
    timedOut = true;
    void kill();
  }, request.timeoutMs);
  const onAbort = (): void => void kill();
  signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const [code, sig] = await exited;
    // Background processes may still hold the pipes after the shell has gone.
    const drained = await Promise.race([closed, delay(killing ? graceMs : lingerMs).then(() => false)]);
    if (!drained) {
      await kill();
      await Promise.race([closed, delay(500)]);
    }
    if (killing) await killing;
    stdout.end();
    stderr.end();
    const out = stdout.result();
    const err = stderr.result();
    return {
      stdout: out.text,
      stderr: err.text,
      exit_code: code,
      signal: sig,
      timed_out: timedOut,
      truncated: out.truncated || err.truncated,
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    child.stdout.destroy();
    child.stderr.destroy();
  }
}
