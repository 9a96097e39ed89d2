import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { ToolError, toToolError } from '../src/core/errors.js';
import { truncateText } from '../src/core/message-text.js';
import type { BackgroundCommandOutput, BackgroundCommands, BackgroundCommandSummary, LeftRunning, RunCommandRequest, RunCommandResult } from '../src/core/types.js';

/** Characters kept at each end of a captured stream. */
export const OUTPUT_KEEP_CHARS = 15_000;

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

/**
 * Host variables a command sees by default (besides every `LC_*`): what shells and common tools need
 * to find programs, a home, a temporary directory, the locale and the terminal type.
 */
export const COMMAND_ENV_ALLOW_LIST: readonly string[] = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'NO_COLOR',
  'TMPDIR', 'TMP', 'TEMP', 'TZ', 'HOSTNAME',
];

/** Name of the variable that marks every process a command starts (its value is the command's id). */
export const COMMAND_MARKER_VARIABLE = 'TOOLHOST_COMMAND_ID';

/** The environment a command runs with: the allow-listed host variables (or all with `inheritEnv`), then `env`. */
export function commandEnvironment(options: Pick<RunShellCommandOptions, 'env' | 'inheritEnv'> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  const allowed = new Set(COMMAND_ENV_ALLOW_LIST);
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (options.inheritEnv === true || allowed.has(name) || name.startsWith('LC_')) out[name] = value;
  }
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete out[name];
    else out[name] = value;
  }
  return out;
}

/** One line of `/proc/<pid>/stat`: parent, group, session, state and start time (clock ticks since boot). */
export interface ProcStat {
  ppid: number;
  pgid: number;
  sid: number;
  state: string;
  start: string;
}

function readStat(pid: number): ProcStat | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid pgrp session ..." — comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]), start: fields[19] ?? '' };
}

const hasProc = ((): boolean => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/**
 * The process table as a {@link ProcessTracker} reads and signals it. The real one is
 * {@link PROC_TABLE} (`/proc` and `process.kill`); tests hand a tracker one of their own to show it
 * situations real processes cannot be put in on demand, such as a pid the kernel gave to another process.
 */
export interface ProcessTable {
  /** Whether `/proc` can be read; without it a tracker knows only the command's shell and its group. */
  readonly hasProc: boolean;
  /** Every pid listed now, or null when the table cannot be listed. */
  pids(): number[] | null;
  /** One process's stat line, or null once it is gone. */
  stat(pid: number): ProcStat | null;
  /** Whether the process's environment holds `needle` (false when unreadable or gone). */
  environIncludes(pid: number, needle: Buffer): boolean;
  /** The process's command line (its arguments joined by spaces), or null when unreadable or gone; a table without it names no process. */
  commandLine?(pid: number): string | null;
  /** `process.kill(target, signal)`: a negative target is the process group `-target`; throws when nothing has that id. */
  kill(target: number, signal: NodeJS.Signals | 0): void;
}

/** This machine's process table: `/proc` (where there is one) and `process.kill`. */
export const PROC_TABLE: ProcessTable = {
  hasProc,
  pids() {
    try {
      return readdirSync('/proc').map(Number).filter((pid) => Number.isInteger(pid) && pid > 0);
    } catch {
      return null;
    }
  },
  stat: readStat,
  environIncludes(pid, needle) {
    try {
      return readFileSync(`/proc/${pid}/environ`).includes(needle);
    } catch {
      return false;
    }
  },
  kill(target, signal) {
    process.kill(target, signal);
  },
  commandLine(pid) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      while (args.length > 0 && args[args.length - 1] === '') args.pop();
      if (args.length > 0) return args.join(' ');
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() || null;
    } catch {
      return null;
    }
  },
};

/** Most command lines a {@link LeftRunning} keeps, and the most characters of each (a longer one is cut, ending in `…`). */
const LEFT_RUNNING_KEEP = { commands: 10, chars: 200 } as const;

/**
 * Where per-command cgroups can be made: cgroup v2 at `/sys/fs/cgroup` (a child of this process's
 * own cgroup, where that is delegated) or cgroup v1's `pids` hierarchy; null where neither is writable.
 * Looked up once.
 */
let cgroupBase: string | null | undefined;
function findCgroupBase(): string | null {
  if (cgroupBase !== undefined) return cgroupBase;
  cgroupBase = null;
  const candidates: string[] = [];
  try {
    const own = readFileSync('/proc/self/cgroup', 'utf8').split('\n').find((line) => line.startsWith('0::'));
    if (own) candidates.push(`/sys/fs/cgroup${own.slice(3).trim()}`.replace(/\/$/, ''));
  } catch {
    // no procfs
  }
  candidates.push('/sys/fs/cgroup/pids');
  for (const dir of candidates) {
    const probe = `${dir}/toolhost-probe-${process.pid}`;
    try {
      mkdirSync(probe);
    } catch {
      continue;
    }
    const usable = existsSync(`${probe}/cgroup.procs`);
    try {
      rmdirSync(probe);
    } catch {
      // left for the kernel to reap when empty
    }
    if (usable) {
      cgroupBase = dir;
      break;
    }
  }
  return cgroupBase;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A fresh cgroup for one command, or null where none can be made. */
function makeCgroup(marker: string): string | null {
  const base = findCgroupBase();
  if (base === null) return null;
  const dir = `${base}/toolhost-${marker}`;
  try {
    mkdirSync(dir);
    return dir;
  } catch {
    return null;
  }
}

/**
 * The processes one command started, found through the command's cgroup where one could be made
 * (its shell joins it before the command runs, and no child can leave it) and through `/proc`: the
 * shell's process group, every descendant of a process already tracked, and every process whose
 * environment carries the command's marker variable — so a child that called `setsid`, changed group
 * or was reparented to init (`nohup … &`, a double fork) is still found. Each is remembered with its
 * start time, so a reused pid is never signalled.
 *
 * The group is trusted only while it is provably the command's. Its id is the shell's pid, and the
 * kernel hands a pid to a new process only once no process has it as its pid, group or session; so the
 * group is the command's while one of the command's start-verified processes (the shell itself, whose
 * start time was recorded when it was spawned, or any other member) still has the shell's pid as its
 * pid, group or session. Once none does, the number may belong to an unrelated process that leads a
 * group of its own: its members are no longer taken for the command's, and the group is no longer
 * signalled (`kill(-pgid)`); the members already proven by start time are still signalled one by one.
 * Without `/proc` the shell alone is the proof: the group is signalled until the command has ended
 * (its shell reaped, then the linger and kills that follow at once: a pid is handed out again only
 * after the whole pid space has wrapped, which takes far longer), never after.
 *
 * Module-internal: exported for tests, which pass their own {@link ProcessTable}.
 */
export class ProcessTracker {
  readonly #root: number;
  readonly #marker: Buffer;
  readonly #cgroup: string | null;
  readonly #table: ProcessTable;
  /** pid → start time. */
  readonly #known = new Map<number, string>();
  /** Whether the group `#root` was the command's at the last look (see the class comment); without `/proc`, until the shell is reaped. */
  #groupIsOurs = true;

  constructor(root: number, marker: string, cgroup: string | null, table: ProcessTable = PROC_TABLE) {
    this.#root = root;
    this.#cgroup = cgroup;
    this.#table = table;
    this.#marker = Buffer.from(`${COMMAND_MARKER_VARIABLE}=${marker}\0`);
    const stat = table.hasProc ? table.stat(root) : null;
    if (stat) this.#known.set(root, stat.start);
  }

  /** Tells the tracker that the command has ended (its shell reaped, its processes ended), so the shell's pid may be handed out again. */
  rootExited(): void {
    if (!this.#table.hasProc) this.#groupIsOurs = false; // with /proc, each look sees it for itself
  }

  /** Whether the process group may be signalled as the command's (as of the last look). */
  get groupIsOurs(): boolean {
    return this.#groupIsOurs;
  }

  /**
   * Looks through `/proc` once and remembers new members; returns the live (non-zombie) ones. Members
   * by group are taken only when the group is proven the command's by this look's other members.
   */
  scan(): number[] {
    if (!this.#table.hasProc) return [];
    const pids = this.#table.pids();
    if (pids === null) return [];
    const stats = new Map<number, ProcStat>();
    for (const pid of pids) {
      if (pid === process.pid) continue;
      const stat = this.#table.stat(pid);
      if (stat) stats.set(pid, stat);
    }
    for (const pid of this.#cgroupMembers()) {
      const stat = stats.get(pid);
      if (stat) this.#known.set(pid, stat.start);
    }
    const marked = new Map<number, boolean>();
    this.#grow(stats, marked, false);
    this.#groupIsOurs = this.#holdsRootPid(stats);
    if (this.#groupIsOurs) this.#grow(stats, marked, true);
    const live: number[] = [];
    for (const [pid, start] of this.#known) {
      const stat = stats.get(pid);
      if (!stat || stat.start !== start) {
        this.#known.delete(pid);
        continue;
      }
      if (stat.state !== 'Z' && stat.state !== 'X') live.push(pid);
    }
    return live;
  }

  /** Adds every process of `stats` that descends from a member or carries the marker (or, with `byGroup`, is in the group) until none is added. */
  #grow(stats: Map<number, ProcStat>, marked: Map<number, boolean>, byGroup: boolean): void {
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, stat] of stats) {
        if (this.#known.get(pid) === stat.start) continue;
        const member =
          (byGroup && stat.pgid === this.#root) ||
          (this.#known.has(stat.ppid) && this.#known.get(stat.ppid) === stats.get(stat.ppid)?.start) ||
          this.#carriesMarker(pid, marked);
        if (member) {
          this.#known.set(pid, stat.start);
          grew = true;
        }
      }
    }
  }

  /** Whether a member proven by start time (zombies too: they keep their ids) has the shell's pid as its pid, group or session. */
  #holdsRootPid(stats: Map<number, ProcStat>): boolean {
    for (const [pid, start] of this.#known) {
      const stat = stats.get(pid);
      if (stat === undefined || stat.start !== start) continue;
      if (pid === this.#root || stat.pgid === this.#root || stat.sid === this.#root) return true;
    }
    return false;
  }

  /** Every process in the command's cgroup, whatever it did to its group, session or environment. */
  #cgroupMembers(): number[] {
    if (this.#cgroup === null) return [];
    try {
      return readFileSync(`${this.#cgroup}/cgroup.procs`, 'utf8').split('\n').filter((line) => line.length > 0).map(Number);
    } catch {
      return [];
    }
  }

  /** Removes the cgroup once empty (a no-op without one). */
  release(): void {
    if (this.#cgroup === null) return;
    try {
      rmdirSync(this.#cgroup);
    } catch {
      // still has members (none should) or already gone
    }
  }

  /** Whether the process's environment carries the marker; read once per look (`marked`). */
  #carriesMarker(pid: number, marked: Map<number, boolean>): boolean {
    let carries = marked.get(pid);
    if (carries === undefined) {
      carries = this.#table.environIncludes(pid, this.#marker);
      marked.set(pid, carries);
    }
    return carries;
  }

  /**
   * Signals the group, while it is provably the command's, and every live member by pid; returns how
   * many members were signalled. The group goes first, straight after the look that proved it.
   */
  signal(signal: NodeJS.Signals): number {
    const live = this.scan();
    if (this.#groupIsOurs) {
      try {
        this.#table.kill(-this.#root, signal);
      } catch {
        // the group is gone
      }
    }
    for (const pid of live) {
      try {
        this.#table.kill(pid, signal);
      } catch {
        // ESRCH: gone meanwhile.
      }
    }
    return live.length;
  }

  /**
   * The members that still run, described for the command's result (undefined when none does): how
   * many, and the command lines of the first few, oldest first (each cut short). Without `/proc`:
   * `count` null and no command lines when the group still runs, while it is provably the command's.
   */
  leftRunning(): LeftRunning | undefined {
    if (!this.#table.hasProc) return this.alive() ? { count: null, commands: [] } : undefined;
    const live = this.scan();
    if (live.length === 0) return undefined;
    const started = (pid: number): number => Number(this.#known.get(pid) ?? 0);
    live.sort((a, b) => started(a) - started(b) || a - b);
    const commands: string[] = [];
    for (const pid of live.slice(0, LEFT_RUNNING_KEEP.commands)) {
      const line = this.#table.commandLine?.(pid);
      if (line === null || line === undefined) continue;
      const { text, cut } = truncateText(line, line.length > LEFT_RUNNING_KEEP.chars ? LEFT_RUNNING_KEEP.chars - 1 : line.length);
      commands.push(cut === 0 ? text : `${text}…`);
    }
    return { count: live.length, commands };
  }

  /** Whether any member still runs (zombies count as dead). Without `/proc`: whether the group runs, while it is provably the command's. */
  alive(): boolean {
    if (!this.#table.hasProc) return this.#groupIsOurs && groupRuns(this.#table, this.#root);
    return this.scan().length > 0;
  }

  /**
   * Ends every member now, synchronously: stops them all (SIGSTOP, so none can fork meanwhile),
   * looks again until no new member appears, then SIGKILLs them.
   */
  killNow(): void {
    for (let round = 0; round < 20; round += 1) {
      if (this.signal('SIGSTOP') === 0) break;
      const before = this.#known.size;
      this.scan();
      if (this.#known.size === before) break;
    }
    this.signal('SIGKILL');
  }
}

/** {@link isProcessGroupAlive} on `table`. */
function groupRuns(table: ProcessTable, pgid: number): boolean {
  try {
    table.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (!table.hasProc) return true; // no procfs: trust kill(0)
  for (const pid of table.pids() ?? []) {
    const stat = table.stat(pid);
    if (stat && stat.pgid === pgid && stat.state !== 'Z' && stat.state !== 'X') return true;
  }
  return false;
}

/**
 * Whether any process of group `pgid` is still running. Zombies count as dead: they run nothing, but
 * stay in the group until their new parent reaps them, and some container inits reap only every
 * second or two (measured: 1.5–1.9 s here), so `kill(-pgid, 0)` alone would report them alive.
 *
 * It answers for whichever group has that id now: once every process of a group has ended, the kernel
 * may give its number to an unrelated process, whose group then answers. A caller that must know the
 * group is still the one it started asks while one of that group's processes, known by its start time,
 * still holds the number (as {@link ProcessTracker} does).
 */
export function isProcessGroupAlive(pgid: number): boolean {
  return groupRuns(PROC_TABLE, pgid);
}

/** SIGTERM to every member, SIGKILL after `graceMs` if any still runs; resolves once none runs (or after 2 s more). */
async function terminate(tracker: ProcessTracker, graceMs: number): Promise<void> {
  tracker.signal('SIGTERM');
  const soft = Date.now() + graceMs;
  while (Date.now() < soft) {
    if (!tracker.alive()) return;
    await delay(20);
  }
  const hard = Date.now() + 2000;
  while (Date.now() < hard) {
    tracker.killNow();
    await delay(20);
    if (!tracker.alive()) return;
  }
}

/**
 * How long processes seen running once the shell has exited get to show that they were only ending
 * (a program closes its output before it exits, so its pipes can close a moment before it is gone), ms.
 */
const LEFT_RUNNING_SETTLE_MS = 100;

/** What the command left running ({@link ProcessTracker.leftRunning}), looked at again until none runs or {@link LEFT_RUNNING_SETTLE_MS} have passed. */
async function settledLeftRunning(tracker: ProcessTracker): Promise<LeftRunning | undefined> {
  const deadline = Date.now() + LEFT_RUNNING_SETTLE_MS;
  let left = tracker.leftRunning();
  while (left !== undefined && Date.now() < deadline) {
    await delay(20);
    left = tracker.leftRunning();
  }
  return left;
}

/** How often the process tree is looked at while a command runs, so children are known before they are reparented (ms). */
const TRACK_INTERVAL_MS = 100;

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
export async function startShellCommand(request: RunCommandRequest, options: RunShellCommandOptions = {}): Promise<StartedCommand> {
  const graceMs = options.killGraceMs ?? 500;
  const lingerMs = options.lingerMs ?? 250;
  const stdout = new OutputCapture(options.keepChars);
  const stderr = new OutputCapture(options.keepChars);
  const marker = randomUUID();

  const shell = options.shell ?? '/bin/sh';
  const cgroup = isExecutable(shell) ? makeCgroup(marker) : null;
  // With a cgroup, /bin/sh puts itself in it, then becomes the command's shell (same pid).
  const [file, args] = cgroup === null
    ? [shell, ['-c', request.command]]
    : ['/bin/sh', ['-c', 'echo $$ > "$1" 2>/dev/null; shift; exec "$@"', 'toolhost', `${cgroup}/cgroup.procs`, shell, '-c', request.command]];
  const child = spawn(file, args, {
    cwd: request.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...commandEnvironment(options), [COMMAND_MARKER_VARIABLE]: marker },
  });
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

  try {
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
  } catch (error) {
    if (cgroup !== null) rmdirSync(cgroup);
    const converted = toToolError(error);
    throw new ToolError(
      converted.code === 'not_found' ? 'not_found' : 'execution_failed',
      `could not start the shell in ${request.cwd}: ${converted.message}`,
    );
  }
  child.on('error', () => undefined); // later errors (e.g. from kill) are reflected in the exit status
  const tracker = new ProcessTracker(child.pid as number, marker, cgroup);
  const watch = setInterval(() => tracker.scan(), TRACK_INTERVAL_MS);
  watch.unref();

  let exit: [number | null, NodeJS.Signals | null] | null = null;
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (code, sig) => resolve((exit = [code, sig]))),
  );
  const closed = new Promise<true>((resolve) => child.once('close', () => resolve(true)));

  let timedOut = false;
  let ended = false;
  /** Set by an abort or a dispose (`killNow`): what still runs then was not left running by the command. */
  let endedNow = false;
  let leftRunning: LeftRunning | undefined;
  let killing: Promise<void> | undefined;
  const kill = (): Promise<void> => (killing ??= terminate(tracker, graceMs));
  const timer = setTimeout(() => {
    timedOut = true;
    void kill();
  }, request.timeoutMs);

  const snapshot = (): CommandSnapshot => {
    const out = stdout.result();
    const err = stderr.result();
    return {
      stdout: out.text,
      stderr: err.text,
      truncated: out.truncated || err.truncated,
      running: !ended,
      exit_code: exit?.[0] ?? null,
      signal: exit?.[1] ?? null,
      timed_out: timedOut,
      ...(leftRunning === undefined ? {} : { left_running: leftRunning }),
    };
  };

  const result = (async (): Promise<RunCommandResult> => {
    try {
      const [code, sig] = await exited;
      // Every process the command started ends with it: background children get a moment to
      // finish writing (`lingerMs`), then are ended.
      const drained = await Promise.race([closed, delay(killing ? graceMs : lingerMs).then(() => false)]);
      // What still runs now, when the command is not being ended (its timeout, a stop, an abort), is
      // what its shell left running: the result names it.
      if (killing === undefined && !endedNow) {
        const left = await settledLeftRunning(tracker);
        if (killing === undefined && !endedNow) leftRunning = left;
      }
      if (!drained || leftRunning !== undefined || tracker.alive()) await kill();
      await Promise.race([closed, delay(500)]);
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
        ...(leftRunning === undefined ? {} : { left_running: leftRunning }),
      };
    } finally {
      ended = true;
      // Without /proc the shell's exit is the last proof that the group is the command's: it is
      // still signalled for the command's own ending above (the linger and kills that follow the
      // exit at once, while its members hold the number), never after (a later stop of a finished
      // background command).
      tracker.rootExited();
      clearTimeout(timer);
      clearInterval(watch);
      tracker.release();
      child.stdout.destroy();
      child.stderr.destroy();
    }
  })();

  return {
    result,
    snapshot,
    killNow: () => {
      endedNow = true;
      tracker.killNow();
    },
    stop: async () => {
      await kill();
      return result;
    },
  };
}

/**
 * Runs `request.command` through `/bin/sh -c` in `request.cwd`. The shell leads its
 * own process group (`detached: true`), stdin is closed, stdout and stderr are drained as they arrive.
 *
 * Every process the command starts ends with the call, including ones that left the group (`setsid`,
 * `set -m`, `nohup … &`, a double fork): the shell joins a cgroup of its own where one can be made
 * (cgroup v2 under this process's cgroup, or v1 `pids`; no child can leave it), and they are also
 * tracked through `/proc` (descendants, the group, and a marker variable `TOOLHOST_COMMAND_ID` every
 * child inherits); all are killed by pid. The group (whose id is the shell's pid) is trusted, and
 * signalled whole, only while one of the command's processes known by its start time still has that
 * number as its pid, group or session, since only then can the kernel not have given it to an
 * unrelated process. Without `/proc` the group is all there is to go by and the shell alone proves it:
 * there it is signalled while the command ends (the linger and kills right after the shell's exit),
 * and a finished command's group is never signalled again. When the shell exits,
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
 * An abort still resolves with the output so far (`timed_out: false`). When the shell exited on its own
 * and processes it started still ran after the linger (`sleep 30 &`, `nohup server &`, a daemon that
 * forked), the result's `left_running` says how many were ended and names the first few by command
 * line ({@link LeftRunning}); a timeout, a stop or an abort ends them without it.
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
  const started = await startShellCommand(request, options);
  const onAbort = (): void => started.killNow();
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await started.result;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Most background commands one platform keeps (running or finished, oldest finished dropped first). */
export const MAX_BACKGROUND_COMMANDS = 32;

/**
 * The background commands of one Node platform: started with `run_in_background`, read and stopped by
 * id, all ended when the platform is disposed. A background command follows the same cleanup rules as
 * a foreground one once its shell exits or it is stopped.
 */
export class NodeBackgroundCommands implements BackgroundCommands {
  readonly #commands = new Map<string, { command: string; started: StartedCommand }>();
  readonly #options: RunShellCommandOptions;
  #next = 1;

  constructor(options: RunShellCommandOptions = {}) {
    this.#options = options;
  }

  /** Starts a command; returns its id (`bg-1`, `bg-2`, ...). Errors as {@link startShellCommand}, `unavailable` when too many run. */
  async start(request: RunCommandRequest): Promise<string> {
    if (this.#commands.size >= MAX_BACKGROUND_COMMANDS) {
      for (const [id, entry] of this.#commands) {
        if (!entry.started.snapshot().running) {
          this.#commands.delete(id);
          break;
        }
      }
      if (this.#commands.size >= MAX_BACKGROUND_COMMANDS) {
        throw new ToolError('unavailable', `${MAX_BACKGROUND_COMMANDS} background commands are running; stop one with stop_command first`);
      }
    }
    const started = await startShellCommand(request, this.#options);
    const id = `bg-${this.#next++}`;
    this.#commands.set(id, { command: request.command, started });
    started.result.catch(() => undefined);
    return id;
  }

  #get(id: string): StartedCommand {
    const entry = this.#commands.get(id);
    if (!entry) {
      const known = [...this.#commands.keys()];
      throw new ToolError('not_found', `no background command ${JSON.stringify(id)}; ${known.length > 0 ? `known: ${known.join(', ')}` : 'none was started'}`);
    }
    return entry.started;
  }

  /** Output so far of one command. Errors: `not_found` for an unknown id. */
  async output(id: string): Promise<BackgroundCommandOutput> {
    return { background_id: id, ...this.#get(id).snapshot() };
  }

  /** Every command, oldest first. */
  async list(): Promise<BackgroundCommandSummary[]> {
    return [...this.#commands].map(([id, { command, started }]) => {
      const snap = started.snapshot();
      const summary: BackgroundCommandSummary = { background_id: id, command, running: snap.running, exit_code: snap.exit_code, signal: snap.signal };
      if (snap.left_running !== undefined) summary.left_running = snap.left_running;
      return summary;
    });
  }

  /** Ends the command and every process it started; resolves with its final output. Errors: `not_found`. */
  async stop(id: string): Promise<BackgroundCommandOutput> {
    const started = this.#get(id);
    await started.stop();
    return { background_id: id, ...started.snapshot() };
  }

  /** Ends every command now. */
  async dispose(): Promise<void> {
    const all = [...this.#commands.values()].map((entry) => entry.started);
    for (const started of all) started.killNow();
    await Promise.allSettled(all.map((started) => started.result));
  }
}
