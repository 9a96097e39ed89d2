import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { ToolError, toToolError } from '../src/core/errors.js';
/** Characters kept at each end of a captured stream. */
export const OUTPUT_KEEP_CHARS = 15_000;
/**
 * Captures one output stream: decodes UTF-8 as it arrives (a streaming TextDecoder, so a multi-byte
 * character split between chunks is never mangled; invalid bytes become U+FFFD) and keeps only the
 * first and last `keep` characters (UTF-16 code units), so memory stays bounded however much is printed.
 */
export class OutputCapture {
    #decoder = new TextDecoder('utf-8');
    #keep;
    #head = '';
    #tail = '';
    #total = 0;
    constructor(keep = OUTPUT_KEEP_CHARS) {
        this.#keep = keep;
    }
    /** Adds a chunk of raw bytes. */
    push(chunk) {
        this.#add(this.#decoder.decode(chunk, { stream: true }));
    }
    /** Flushes the decoder (an incomplete trailing sequence becomes U+FFFD). Call once, at the end. */
    end() {
        this.#add(this.#decoder.decode());
    }
    #add(text) {
        if (text.length === 0)
            return;
        this.#total += text.length;
        if (this.#head.length < this.#keep) {
            const room = this.#keep - this.#head.length;
            this.#head += text.slice(0, room);
            text = text.slice(room);
            if (text.length === 0)
                return;
        }
        this.#tail += text;
        // Trim rarely (amortised): only the last `keep` characters can ever be shown.
        if (this.#tail.length > 4 * this.#keep)
            this.#tail = this.#tail.slice(-this.#keep);
    }
    /**
     * The captured text: everything when it fits in `2 × keep` characters, else the first and last
     * `keep` characters around `\n… [N characters dropped] …\n`, N counting every character left out
     * (a surrogate pair cut by a boundary is dropped whole, and counted).
     */
    result() {
        let head = this.#head;
        let tail = this.#tail.length > this.#keep ? this.#tail.slice(-this.#keep) : this.#tail;
        if (this.#total === head.length + tail.length)
            return { text: head + tail, truncated: false };
        const last = head.charCodeAt(head.length - 1);
        if (last >= 0xd800 && last <= 0xdbff)
            head = head.slice(0, -1);
        const first = tail.charCodeAt(0);
        if (first >= 0xdc00 && first <= 0xdfff)
            tail = tail.slice(1);
        const dropped = this.#total - head.length - tail.length;
        return { text: `${head}\n… [${dropped} characters dropped] …\n${tail}`, truncated: true };
    }
}
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Host variables a command sees by default (besides every `LC_*`): what shells and common tools need
 * to find programs, a home, a temporary directory, the locale and the terminal type.
 */
export const COMMAND_ENV_ALLOW_LIST = [
    'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'NO_COLOR',
    'TMPDIR', 'TMP', 'TEMP', 'TZ', 'HOSTNAME',
];
/** Name of the variable that marks every process a command starts (its value is the command's id). */
export const COMMAND_MARKER_VARIABLE = 'TOOLHOST_COMMAND_ID';
/** The environment a command runs with: the allow-listed host variables (or all with `inheritEnv`), then `env`. */
export function commandEnvironment(options = {}) {
    const out = {};
    const allowed = new Set(COMMAND_ENV_ALLOW_LIST);
    for (const [name, value] of Object.entries(process.env)) {
        if (value === undefined)
            continue;
        if (options.inheritEnv === true || allowed.has(name) || name.startsWith('LC_'))
            out[name] = value;
    }
    for (const [name, value] of Object.entries(options.env ?? {})) {
        if (value === undefined)
            delete out[name];
        else
            out[name] = value;
    }
    return out;
}
function readStat(pid) {
    let stat;
    try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    }
    catch {
        return null;
    }
    // "pid (comm) state ppid pgrp ..." — comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] ?? '' };
}
const hasProc = (() => {
    try {
        readFileSync('/proc/self/stat');
        return true;
    }
    catch {
        return false;
    }
})();
/**
 * Where per-command cgroups can be made: cgroup v2 at `/sys/fs/cgroup` (a child of this process's
 * own cgroup, where that is delegated) or cgroup v1's `pids` hierarchy; null where neither is writable.
 * Looked up once.
 */
let cgroupBase;
function findCgroupBase() {
    if (cgroupBase !== undefined)
        return cgroupBase;
    cgroupBase = null;
    const candidates = [];
    try {
        const own = readFileSync('/proc/self/cgroup', 'utf8').split('\n').find((line) => line.startsWith('0::'));
        if (own)
            candidates.push(`/sys/fs/cgroup${own.slice(3).trim()}`.replace(/\/$/, ''));
    }
    catch {
        // no procfs
    }
    candidates.push('/sys/fs/cgroup/pids');
    for (const dir of candidates) {
        const probe = `${dir}/toolhost-probe-${process.pid}`;
        try {
            mkdirSync(probe);
        }
        catch {
            continue;
        }
        const usable = existsSync(`${probe}/cgroup.procs`);
        try {
            rmdirSync(probe);
        }
        catch {
            // left for the kernel to reap when empty
        }
        if (usable) {
            cgroupBase = dir;
            break;
        }
    }
    return cgroupBase;
}
function isExecutable(path) {
    try {
        accessSync(path, constants.X_OK);
        return true;
    }
    catch {
        return false;
    }
}
/** A fresh cgroup for one command, or null where none can be made. */
function makeCgroup(marker) {
    const base = findCgroupBase();
    if (base === null)
        return null;
    const dir = `${base}/toolhost-${marker}`;
    try {
        mkdirSync(dir);
        return dir;
    }
    catch {
        return null;
    }
}
/**
 * The processes one command started, found through the command's cgroup where one could be made
 * (its shell joins it before the command runs, and no child can leave it) and through `/proc`: the
 * shell's process group, every descendant of a process already tracked, and every process whose
 * environment carries the command's marker variable — so a child that called `setsid`, changed group or was reparented to init (`nohup …
 * &`, a double fork) is still found. Each is remembered with its start time, so a reused pid is never
 * signalled. Without `/proc`, only the process group is known.
 */
class ProcessTracker {
    #root;
    #marker;
    #cgroup;
    /** pid → start time. */
    #known = new Map();
    constructor(root, marker, cgroup) {
        this.#root = root;
        this.#cgroup = cgroup;
        this.#marker = Buffer.from(`${COMMAND_MARKER_VARIABLE}=${marker}\0`);
        const stat = hasProc ? readStat(root) : null;
        if (stat)
            this.#known.set(root, stat.start);
    }
    /** Looks through `/proc` once and remembers new members; returns the live (non-zombie) ones. */
    scan() {
        if (!hasProc)
            return [];
        let entries;
        try {
            entries = readdirSync('/proc');
        }
        catch {
            return [];
        }
        const stats = new Map();
        for (const entry of entries) {
            const pid = Number(entry);
            if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid)
                continue;
            const stat = readStat(pid);
            if (stat)
                stats.set(pid, stat);
        }
        for (const pid of this.#cgroupMembers()) {
            const stat = stats.get(pid);
            if (stat)
                this.#known.set(pid, stat.start);
        }
        let grew = true;
        while (grew) {
            grew = false;
            for (const [pid, stat] of stats) {
                if (this.#known.get(pid) === stat.start)
                    continue;
                const member = stat.pgid === this.#root ||
                    (this.#known.has(stat.ppid) && this.#known.get(stat.ppid) === stats.get(stat.ppid)?.start) ||
                    this.#carriesMarker(pid);
                if (member) {
                    this.#known.set(pid, stat.start);
                    grew = true;
                }
            }
        }
        const live = [];
        for (const [pid, start] of this.#known) {
            const stat = stats.get(pid);
            if (!stat || stat.start !== start) {
                this.#known.delete(pid);
                continue;
            }
            if (stat.state !== 'Z' && stat.state !== 'X')
                live.push(pid);
        }
        return live;
    }
    /** Every process in the command's cgroup, whatever it did to its group, session or environment. */
    #cgroupMembers() {
        if (this.#cgroup === null)
            return [];
        try {
            return readFileSync(`${this.#cgroup}/cgroup.procs`, 'utf8').split('\n').filter((line) => line.length > 0).map(Number);
        }
        catch {
            return [];
        }
    }
    /** Removes the cgroup once empty (a no-op without one). */
    release() {
        if (this.#cgroup === null)
            return;
        try {
            rmdirSync(this.#cgroup);
        }
        catch {
            // still has members (none should) or already gone
        }
    }
    #carriesMarker(pid) {
        try {
            return readFileSync(`/proc/${pid}/environ`).includes(this.#marker);
        }
        catch {
            return false;
        }
    }
    /** Signals every live member (and the group); returns how many were signalled. */
    signal(signal) {
        const live = this.scan();
        for (const pid of live) {
            try {
                process.kill(pid, signal);
            }
            catch {
                // ESRCH: gone meanwhile.
            }
        }
        try {
            process.kill(-this.#root, signal);
        }
        catch {
            // the group is gone
        }
        return live.length;
    }
    /** Whether any member still runs (zombies count as dead). */
    alive() {
        if (!hasProc)
            return isProcessGroupAlive(this.#root);
        return this.scan().length > 0;
    }
    /**
     * Ends every member now, synchronously: stops them all (SIGSTOP, so none can fork meanwhile),
     * looks again until no new member appears, then SIGKILLs them.
     */
    killNow() {
        for (let round = 0; round < 20; round += 1) {
            if (this.signal('SIGSTOP') === 0)
                break;
            const before = this.#known.size;
            this.scan();
            if (this.#known.size === before)
                break;
        }
        this.signal('SIGKILL');
    }
}
/**
 * Whether any process of group `pgid` is still running. Zombies count as dead: they run nothing, but
 * stay in the group until their new parent reaps them, and some container inits reap only every
 * second or two (measured: 1.5–1.9 s here), so `kill(-pgid, 0)` alone would report them alive.
 */
export function isProcessGroupAlive(pgid) {
    try {
        process.kill(-pgid, 0);
    }
    catch {
        return false;
    }
    if (!hasProc)
        return true; // no procfs: trust kill(0)
    for (const entry of readdirSync('/proc')) {
        const pid = Number(entry);
        if (!Number.isInteger(pid))
            continue;
        const stat = readStat(pid);
        if (stat && stat.pgid === pgid && stat.state !== 'Z' && stat.state !== 'X')
            return true;
    }
    return false;
}
/** SIGTERM to every member, SIGKILL after `graceMs` if any still runs; resolves once none runs (or after 2 s more). */
async function terminate(tracker, graceMs) {
    tracker.signal('SIGTERM');
    const soft = Date.now() + graceMs;
    while (Date.now() < soft) {
        if (!tracker.alive())
            return;
        await delay(20);
    }
    const hard = Date.now() + 2000;
    while (Date.now() < hard) {
        tracker.killNow();
        await delay(20);
        if (!tracker.alive())
            return;
    }
}
/** How often the process tree is looked at while a command runs, so children are known before they are reparented (ms). */
const TRACK_INTERVAL_MS = 100;
/**
 * Starts `request.command` through `/bin/sh -c` in `request.cwd`, in its own process group, stdin
 * closed, stdout and stderr drained as they arrive (see {@link runShellCommand} for the rules). Rejects
 * with `not_found` / `execution_failed` when the shell cannot be started.
 */
export async function startShellCommand(request, options = {}) {
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
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    try {
        await new Promise((resolve, reject) => {
            child.once('spawn', resolve);
            child.once('error', reject);
        });
    }
    catch (error) {
        if (cgroup !== null)
            rmdirSync(cgroup);
        const converted = toToolError(error);
        throw new ToolError(converted.code === 'not_found' ? 'not_found' : 'execution_failed', `could not start the shell in ${request.cwd}: ${converted.message}`);
    }
    child.on('error', () => undefined); // later errors (e.g. from kill) are reflected in the exit status
    const tracker = new ProcessTracker(child.pid, marker, cgroup);
    const watch = setInterval(() => tracker.scan(), TRACK_INTERVAL_MS);
    watch.unref();
    let exit = null;
    const exited = new Promise((resolve) => child.once('exit', (code, sig) => resolve((exit = [code, sig]))));
    const closed = new Promise((resolve) => child.once('close', () => resolve(true)));
    let timedOut = false;
    let ended = false;
    let killing;
    const kill = () => (killing ??= terminate(tracker, graceMs));
    const timer = setTimeout(() => {
        timedOut = true;
        void kill();
    }, request.timeoutMs);
    const snapshot = () => {
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
        };
    };
    const result = (async () => {
        try {
            const [code, sig] = await exited;
            // Every process the command started ends with it: background children get a moment to
            // finish writing (`lingerMs`), then are ended.
            const drained = await Promise.race([closed, delay(killing ? graceMs : lingerMs).then(() => false)]);
            if (!drained || tracker.alive())
                await kill();
            await Promise.race([closed, delay(500)]);
            if (killing)
                await killing;
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
        }
        finally {
            ended = true;
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
        killNow: () => tracker.killNow(),
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
export async function runShellCommand(request, signal, options = {}) {
    if (signal?.aborted)
        throw new ToolError('cancelled', 'run_command was cancelled before it started');
    const started = await startShellCommand(request, options);
    const onAbort = () => started.killNow();
    if (signal?.aborted)
        onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
        return await started.result;
    }
    finally {
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
export class NodeBackgroundCommands {
    #commands = new Map();
    #options;
    #next = 1;
    constructor(options = {}) {
        this.#options = options;
    }
    /** Starts a command; returns its id (`bg-1`, `bg-2`, ...). Errors as {@link startShellCommand}, `unavailable` when too many run. */
    async start(request) {
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
    #get(id) {
        const entry = this.#commands.get(id);
        if (!entry) {
            const known = [...this.#commands.keys()];
            throw new ToolError('not_found', `no background command ${JSON.stringify(id)}; ${known.length > 0 ? `known: ${known.join(', ')}` : 'none was started'}`);
        }
        return entry.started;
    }
    /** Output so far of one command. Errors: `not_found` for an unknown id. */
    async output(id) {
        return { background_id: id, ...this.#get(id).snapshot() };
    }
    /** Every command, oldest first. */
    async list() {
        return [...this.#commands].map(([id, { command, started }]) => {
            const snap = started.snapshot();
            return { background_id: id, command, running: snap.running, exit_code: snap.exit_code, signal: snap.signal };
        });
    }
    /** Ends the command and every process it started; resolves with its final output. Errors: `not_found`. */
    async stop(id) {
        const started = this.#get(id);
        await started.stop();
        return { background_id: id, ...started.snapshot() };
    }
    /** Ends every command now. */
    async dispose() {
        const all = [...this.#commands.values()].map((entry) => entry.started);
        for (const started of all)
            started.killNow();
        await Promise.allSettled(all.map((started) => started.result));
    }
}
//# sourceMappingURL=run-command.js.map