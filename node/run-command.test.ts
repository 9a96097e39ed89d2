import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMAND_MARKER_VARIABLE,
  isProcessGroupAlive,
  OutputCapture,
  PROC_TABLE,
  type ProcessTable,
  ProcessTracker,
  type ProcStat,
  runShellCommand,
} from './run-command.js';

/**
 * The commands below sleep 30 s unless the runner stops them: an answer within this bound proves the
 * stop (the timeout, the abort, the kill of a background holder) without guessing how fast a busy
 * machine spawns and reaps a process group.
 */
const BEFORE_SLEEP_ENDS_MS = 15_000;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolhost-run-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Whether a process runs (a zombie — dead, waiting for the container's init to reap it — does not). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    expect((error as { code?: string }).code).toBe('ESRCH');
    return false;
  }
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = text.slice(text.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Waits until `kill(-pgid, 0)` throws ESRCH: gone from the process table (zombies reaped too). */
async function waitForEsrch(pgid: number, ms = 6000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch (error) {
      return (error as { code: string }).code;
    }
    if (Date.now() > deadline) return 'still present';
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function pidFrom(path: string): Promise<number> {
  for (let i = 0; i < 100; i += 1) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (/^\d+\s*$/.test(text)) return Number(text.trim());
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no pid in ${path}`);
}

describe('runShellCommand', () => {
  it('captures stdout, stderr and the exit code', async () => {
    const result = await runShellCommand({ command: 'echo out; echo err >&2; exit 3', cwd: dir, timeoutMs: 10_000 });
    expect(result).toEqual({ stdout: 'out\n', stderr: 'err\n', exit_code: 3, signal: null, timed_out: false, truncated: false });
  });

  it('runs in the given cwd', async () => {
    const result = await runShellCommand({ command: 'pwd', cwd: dir, timeoutMs: 10_000 });
    expect(result.stdout).toBe(`${dir}\n`);
    expect(result.exit_code).toBe(0);
  });

  it('kills the whole group on timeout, background grandchild included, long before its sleep 30 would end', async () => {
    const started = Date.now();
    const result = await runShellCommand({ command: 'sleep 30 & echo $! > grandchild.pid; echo $$ > shell.pid; wait', cwd: dir, timeoutMs: 500 });
    const elapsed = Date.now() - started;
    expect(result.timed_out).toBe(true);
    expect(result.exit_code).toBeNull();
    expect(result.signal).toBe('SIGTERM');
    expect(elapsed).toBeLessThan(BEFORE_SLEEP_ENDS_MS);
    const grandchild = await pidFrom(join(dir, 'grandchild.pid'));
    const pgid = await pidFrom(join(dir, 'shell.pid'));
    // At return: nothing of the group runs (a killed grandchild may be a zombie until init reaps it).
    expect(isProcessGroupAlive(pgid)).toBe(false);
    expect(running(grandchild)).toBe(false);
    // And once reaped, the group is gone from the process table.
    expect(await waitForEsrch(pgid)).toBe('ESRCH');
    expect(() => process.kill(grandchild, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('returns timed_out for a bare sleep 30 under a 500 ms timeout', async () => {
    const started = Date.now();
    const result = await runShellCommand({ command: 'echo $$ > bare.pid; exec sleep 30', cwd: dir, timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(BEFORE_SLEEP_ENDS_MS);
    expect(result).toMatchObject({ timed_out: true, exit_code: null, signal: 'SIGTERM', stdout: '' });
    const pgid = await pidFrom(join(dir, 'bare.pid'));
    expect(isProcessGroupAlive(pgid)).toBe(false);
    expect(await waitForEsrch(pgid)).toBe('ESRCH');
  });

  it('SIGKILLs a group that ignores SIGTERM after the grace period', async () => {
    const started = Date.now();
    const result = await runShellCommand(
      { command: "trap '' TERM; echo $$ > stubborn.pid; sh -c \"trap '' TERM; sleep 30\" & wait", cwd: dir, timeoutMs: 300 },
      undefined,
      { killGraceMs: 300 },
    );
    expect(Date.now() - started).toBeLessThan(BEFORE_SLEEP_ENDS_MS);
    expect(result.timed_out).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    const pgid = await pidFrom(join(dir, 'stubborn.pid'));
    expect(isProcessGroupAlive(pgid)).toBe(false);
  });

  it('caps 40 MB of output at 15,000 characters each end with the exact dropped count', async () => {
    const result = await runShellCommand({ command: "head -c 40000000 /dev/zero | tr '\\0' a", cwd: dir, timeoutMs: 60_000 });
    expect(result.exit_code).toBe(0);
    expect(result.truncated).toBe(true);
    const marker = `\n… [${40_000_000 - 30_000} characters dropped] …\n`;
    expect(result.stdout).toBe('a'.repeat(15_000) + marker + 'a'.repeat(15_000));
    expect(result.stderr).toBe('');
  }, 90_000); // 40 MB through a pipe: on a loaded 2-core machine this outlasted the default 30 s

  it('drains a chatty stderr while stdout is quiet', async () => {
    const result = await runShellCommand({ command: 'head -c 5000000 /dev/zero | tr "\\0" e >&2; echo done', cwd: dir, timeoutMs: 30_000 });
    expect(result.stdout).toBe('done\n');
    expect(result.stderr).toContain(`[${5_000_000 - 30_000} characters dropped]`);
    expect(result.truncated).toBe(true);
  });

  it('returns the output so far and leaves no survivors when aborted', async () => {
    const controller = new AbortController();
    const run = runShellCommand(
      { command: 'echo $$ > abort.pid; echo started; sleep 30 & echo $! > abort-child.pid; wait', cwd: dir, timeoutMs: 60_000 },
      controller.signal,
    );
    const pgid = await pidFrom(join(dir, 'abort.pid'));
    const child = await pidFrom(join(dir, 'abort-child.pid'));
    const started = Date.now();
    controller.abort();
    const result = await run;
    expect(Date.now() - started).toBeLessThan(BEFORE_SLEEP_ENDS_MS);
    expect(result).toMatchObject({ stdout: 'started\n', timed_out: false, exit_code: null, signal: 'SIGKILL' });
    expect(isProcessGroupAlive(pgid)).toBe(false);
    expect(running(child)).toBe(false);
    expect(await waitForEsrch(pgid)).toBe('ESRCH');
  });

  it('rejects with cancelled when the signal is already aborted', async () => {
    await expect(runShellCommand({ command: 'echo x', cwd: dir, timeoutMs: 1000 }, AbortSignal.abort())).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('kills background processes still holding the pipes after the shell exits', async () => {
    const started = Date.now();
    const result = await runShellCommand({ command: 'sleep 30 & echo $! > held.pid; echo bye', cwd: dir, timeoutMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(BEFORE_SLEEP_ENDS_MS);
    expect(result).toMatchObject({ stdout: 'bye\n', exit_code: 0, signal: null, timed_out: false });
    expect(running(await pidFrom(join(dir, 'held.pid')))).toBe(false);
  });

  it('rejects with not_found for a missing cwd', async () => {
    await expect(runShellCommand({ command: 'true', cwd: join(dir, 'missing'), timeoutMs: 1000 })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('OutputCapture', () => {
  it('never splits a multi-byte character between chunks', () => {
    const capture = new OutputCapture();
    const bytes = new TextEncoder().encode('é€😀');
    for (const byte of bytes) capture.push(new Uint8Array([byte]));
    capture.end();
    expect(capture.result()).toEqual({ text: 'é€😀', truncated: false });
  });

  it('keeps the first and last characters around a marker with the exact count', () => {
    const capture = new OutputCapture(3);
    capture.push(new TextEncoder().encode('abcdefghij'));
    capture.end();
    expect(capture.result()).toEqual({ text: 'abc\n… [4 characters dropped] …\nhij', truncated: true });
  });

  it('drops a surrogate pair cut by a boundary whole and counts it', () => {
    const capture = new OutputCapture(2);
    capture.push(new TextEncoder().encode('a😀bcdef😀'));
    capture.end();
    // 'a😀bcdef😀' is 10 UTF-16 units: head 'a' + lone high surrogate, tail low surrogate + ... → both halves dropped
    const { text, truncated } = capture.result();
    expect(truncated).toBe(true);
    expect(text).toBe('a\n… [7 characters dropped] …\n😀');
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)).toBe(false);
  });
});

/** A command that starts four children escaping the process group in four ways, each writing its pid to `<tag>-<n>.pid`. */
function escapees(tag: string): string {
  const child = (n: number): string => `sh -c 'echo $$ > ${tag}-${n}.pid; exec sleep 60'`;
  return [
    `setsid ${child(1)} > /dev/null 2>&1 &`,
    `nohup ${child(2)} > /dev/null 2>&1 &`,
    `${child(3)} > /dev/null 2>&1 &`,
    `(set -m; ${child(4)} > /dev/null 2>&1 &)`,
    `while [ ! -s ${tag}-1.pid ] || [ ! -s ${tag}-2.pid ] || [ ! -s ${tag}-3.pid ] || [ ! -s ${tag}-4.pid ]; do sleep 0.02; done`,
  ].join('\n');
}

async function escapeePids(tag: string): Promise<number[]> {
  return Promise.all([1, 2, 3, 4].map((n) => pidFrom(join(dir, `${tag}-${n}.pid`))));
}

/** The pids of `pids` still running, after giving SIGKILLed ones `ms` to be marked dead. */
async function survivors(pids: number[], ms = 1000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = pids.filter(running);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('runShellCommand ends every process it started', () => {
  it('after a normal exit: setsid, nohup &, & >/dev/null and set -m children are gone when it returns', async () => {
    const result = await runShellCommand({ command: `${escapees('exit')}\necho done`, cwd: dir, timeoutMs: 20_000 });
    expect(result).toMatchObject({ stdout: 'done\n', exit_code: 0, timed_out: false });
    const pids = await escapeePids('exit');
    expect(pids.filter(running)).toEqual([]);
  });

  it('on timeout', async () => {
    const result = await runShellCommand({ command: `${escapees('timeout')}\nsleep 60`, cwd: dir, timeoutMs: 1500 });
    expect(result.timed_out).toBe(true);
    expect((await escapeePids('timeout')).filter(running)).toEqual([]);
  });

  it('on abort, synchronously: none runs by the time the abort has been handled', async () => {
    const controller = new AbortController();
    const run = runShellCommand({ command: `${escapees('abort')}\nsleep 60`, cwd: dir, timeoutMs: 60_000 }, controller.signal);
    const pids = await escapeePids('abort');
    await new Promise((r) => setTimeout(r, 150)); // the tracker's next look at /proc
    controller.abort();
    expect(await survivors(pids)).toEqual([]);
    await run;
  });

  it('when the runner answers timeout at its deadline', async () => {
    const { createNodePlatform } = await import('./platform.js');
    const { ToolRunner } = await import('../src/runner.js');
    const { BuiltinTools } = await import('../src/index.js');
    const platform = createNodePlatform({ root: dir });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const [answer] = await runner.processToolCalls([{ id: 'r', name: 'run_command', args: { command: `${escapees('deadline')}\nsleep 60` } }], { timeoutMs: 2000 });
    expect(answer).toMatchObject({ code: 'timeout' });
    expect(await survivors(await escapeePids('deadline'))).toEqual([]);
    await platform.dispose();
  });
});

describe('run_command environment', () => {
  it('hides host variables outside the allow-list; env passes one in; inheritEnv passes all', async () => {
    process.env.FAKE_API_KEY = 'sk-host-secret';
    try {
      const request = { command: 'echo "[$FAKE_API_KEY] [$HOME] [$PATH]"', cwd: dir, timeoutMs: 10_000 };
      const expected = (key: string): string => `[${key}] [${process.env.HOME ?? ''}] [${process.env.PATH ?? ''}]\n`;
      expect((await runShellCommand(request)).stdout).toBe(expected(''));
      expect((await runShellCommand(request, undefined, { env: { FAKE_API_KEY: 'passed-in' } })).stdout).toBe(expected('passed-in'));
      expect((await runShellCommand(request, undefined, { inheritEnv: true })).stdout).toBe(expected('sk-host-secret'));
    } finally {
      delete process.env.FAKE_API_KEY;
    }
  });
});

describe('run_command run_in_background', () => {
  it('starts, lists, reads and stops a command, and ends its processes', async () => {
    const { createNodePlatform } = await import('./platform.js');
    const { ToolRunner } = await import('../src/runner.js');
    const { BuiltinTools } = await import('../src/index.js');
    const platform = createNodePlatform({ root: dir });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const call = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const [answer] = await runner.processToolCalls([{ id: 'b', name, args }], { timeoutMs: 10_000 });
      if (answer === undefined || 'code' in answer) throw new Error(JSON.stringify(answer));
      return answer.result as Record<string, unknown>;
    };
    const started = await call('run_command', {
      command: "echo $$ > bg.pid; setsid sh -c 'echo $$ > bg-child.pid; exec sleep 60' & i=0; while true; do echo tick $i; i=$((i+1)); sleep 0.05; done",
      run_in_background: true,
    });
    expect(started).toMatchObject({ background_id: 'bg-1' });
    const shell = await pidFrom(join(dir, 'bg.pid'));
    const child = await pidFrom(join(dir, 'bg-child.pid'));
    expect(await call('command_output', {})).toEqual({
      commands: [{ background_id: 'bg-1', command: expect.stringContaining('echo $$ > bg.pid'), running: true, exit_code: null, signal: null }],
    });
    await new Promise((r) => setTimeout(r, 300));
    const output = await call('command_output', { background_id: 'bg-1' });
    expect(output).toMatchObject({ background_id: 'bg-1', running: true, stderr: '' });
    expect(output.stdout).toMatch(/^tick 0\ntick 1\n/);
    expect([running(shell), running(child)]).toEqual([true, true]);
    const stopped = await call('stop_command', { background_id: 'bg-1' });
    expect(stopped).toMatchObject({ background_id: 'bg-1', running: false, exit_code: null, signal: 'SIGTERM' });
    expect([running(shell), running(child)]).toEqual([false, false]);
    const [unknown] = await runner.processToolCalls([{ id: 'u', name: 'command_output', args: { background_id: 'bg-9' } }]);
    expect(unknown).toMatchObject({ code: 'not_found' });
    await platform.dispose();
  });

  it('answers the empty result with a note where commands cannot run; command_output is unavailable there', async () => {
    const { ToolRunner } = await import('../src/runner.js');
    const { BuiltinTools } = await import('../src/index.js');
    const runner = new ToolRunner({ tools: BuiltinTools.all() });
    const [started] = await runner.processToolCalls([{ id: 'x', name: 'run_command', args: { command: 'sleep 1', run_in_background: true } }]);
    expect(started).toMatchObject({ result: { stdout: '', exit_code: null, note: 'run_command is not available on the memory platform' } });
    const [listed] = await runner.processToolCalls([{ id: 'y', name: 'command_output', args: {} }]);
    expect(listed).toMatchObject({ code: 'unavailable' });
  });
});

describe('runShellCommand in a cgroup', () => {
  it('ends a child that cleared its environment, left the session and was reparented (env -i setsid, double fork)', async () => {
    const command = `env -i /usr/bin/setsid /bin/sh -c '(echo $$ > /dev/null; /bin/sh -c "echo \\$\\$ > ${dir}/cg.pid; exec sleep 60" &) ' > /dev/null 2>&1 &
while [ ! -s cg.pid ]; do sleep 0.02; done; echo started`;
    const result = await runShellCommand({ command, cwd: dir, timeoutMs: 20_000 });
    expect(result.stdout).toBe('started\n');
    const pid = await pidFrom(join(dir, 'cg.pid'));
    // Neither marker (environment cleared) nor ancestry (reparented) nor group (setsid) finds it: the cgroup does.
    expect(running(pid)).toBe(false);
  });
});

/** A process of a {@link fakeTable}: its stat line, and whether its environment carries the tracker's marker. */
type FakeProcess = ProcStat & { marked?: boolean };

/** A process table of `procs` (changed in place by the test), recording every signal sent through it (not the 0 of a liveness check). */
function fakeTable(procs: Map<number, FakeProcess>, hasProc = true): ProcessTable & { sent: [number, string | 0][] } {
  const sent: [number, string | 0][] = [];
  return {
    hasProc,
    sent,
    pids: () => (hasProc ? [...procs.keys()] : null),
    stat: (pid) => {
      const proc = hasProc ? procs.get(pid) : undefined;
      return proc === undefined ? null : { ppid: proc.ppid, pgid: proc.pgid, sid: proc.sid, state: proc.state, start: proc.start };
    },
    environIncludes: (pid) => procs.get(pid)?.marked === true,
    kill: (target, signal) => {
      const found = target < 0 ? [...procs.values()].some((proc) => proc.pgid === -target) : procs.has(target);
      if (!found) throw Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' });
      if (signal !== 0) sent.push([target, signal]);
    },
  };
}

const proc = (ppid: number, pgid: number, sid: number, start: string, extra: Partial<FakeProcess> = {}): FakeProcess => ({
  ppid, pgid, sid, start, state: 'S', ...extra,
});

/** The targets `sent` signalled, each once, in order. */
const targets = (sent: [number, string | 0][]): number[] => [...new Set(sent.map(([target]) => target))];

describe('ProcessTracker trusts the group only while the command still holds its number', () => {
  it('leaves alone a group whose leader took the shell pid after the command ended, and still kills a member proven by start time', () => {
    // The command's shell was pid 100 (started at tick 500); it has exited and been reaped.
    const procs = new Map<number, FakeProcess>([[100, proc(1, 100, 100, '500')]]);
    const table = fakeTable(procs);
    const tracker = new ProcessTracker(100, 'marker', null, table);
    procs.delete(100);
    // The number is handed to an unrelated process, which leads a group (and session) of its own with a child in it...
    procs.set(100, proc(7, 100, 100, '900'));
    procs.set(101, proc(100, 100, 100, '901'));
    // ...while a straggler of the command (found by its marker) still runs in a group of its own.
    procs.set(200, proc(1, 200, 200, '600', { marked: true }));
    expect(tracker.scan()).toEqual([200]);
    expect(tracker.groupIsOurs).toBe(false);
    tracker.killNow();
    expect(targets(table.sent)).toEqual([200]);
    expect(table.sent).toContainEqual([200, 'SIGKILL']);
    expect(tracker.alive()).toBe(true); // the fake straggler does not die of the signal
    procs.delete(200);
    expect(tracker.alive()).toBe(false);
  });

  it('sends nothing at all when a finished command is stopped after its number was reused', () => {
    const procs = new Map<number, FakeProcess>([[100, proc(1, 100, 100, '500')]]);
    const table = fakeTable(procs);
    const tracker = new ProcessTracker(100, 'marker', null, table);
    procs.delete(100);
    expect(tracker.alive()).toBe(false);
    procs.set(100, proc(7, 100, 100, '900'));
    procs.set(101, proc(100, 100, 100, '901'));
    expect(tracker.signal('SIGTERM')).toBe(0);
    tracker.killNow();
    expect(table.sent).toEqual([]);
  });

  it('keeps the group while the shell runs: a member whose environment was cleared is found by its group alone', () => {
    const procs = new Map<number, FakeProcess>([[100, proc(1, 100, 100, '500')]]);
    const table = fakeTable(procs);
    const tracker = new ProcessTracker(100, 'marker', null, table);
    procs.set(150, proc(1, 100, 100, '510')); // reparented before any look, marker cleared: only its group tells
    expect(tracker.scan().sort((a, b) => a - b)).toEqual([100, 150]);
    expect(tracker.groupIsOurs).toBe(true);
    tracker.signal('SIGTERM');
    expect(table.sent).toEqual([[-100, 'SIGTERM'], [100, 'SIGTERM'], [150, 'SIGTERM']]);
  });

  it('keeps the group after the shell exits while a member proven by start time is still in it (a zombie too), or still in its session', () => {
    for (const holder of [proc(1, 100, 100, '510'), proc(1, 100, 100, '510', { state: 'Z' }), proc(1, 150, 100, '510')]) {
      const procs = new Map<number, FakeProcess>([[100, proc(1, 100, 100, '500')]]);
      const table = fakeTable(procs);
      const tracker = new ProcessTracker(100, 'marker', null, table);
      procs.set(150, proc(100, 100, 100, '510'));
      expect(tracker.scan()).toContain(150); // a child of the shell: proven by descent and start time
      procs.delete(100);
      procs.set(150, holder); // reparented; maybe dead and unreaped, maybe moved to a group of its own (set -m)
      procs.set(151, proc(1, 100, 100, '520')); // a member found by its group alone
      tracker.killNow();
      expect(tracker.groupIsOurs).toBe(true);
      expect(table.sent).toContainEqual([-100, 'SIGKILL']);
      expect(table.sent).toContainEqual([151, 'SIGKILL']);
    }
  });

  it('without /proc, signals the group until the shell has been reaped, never after', () => {
    const procs = new Map<number, FakeProcess>([[100, proc(1, 100, 100, '500')]]);
    const table = fakeTable(procs, false);
    const tracker = new ProcessTracker(100, 'marker', null, table);
    expect(tracker.alive()).toBe(true);
    tracker.signal('SIGTERM');
    expect(table.sent).toEqual([[-100, 'SIGTERM']]);
    tracker.rootExited();
    procs.set(100, proc(7, 100, 100, '900')); // the number, handed to an unrelated group leader
    expect(tracker.alive()).toBe(false);
    tracker.killNow();
    expect(table.sent).toEqual([[-100, 'SIGTERM']]);
  });
});

/** Waits until `condition` holds, failing after `ms`. */
async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A real process group of two: a leader (`sh`, then `exec sleep 60`) and a `sleep 60` child in its group,
 * started here as a command's shell would be (detached), with the child's pid once it runs.
 */
async function realGroup(): Promise<{ leader: number; member: number; child: ChildProcess }> {
  const child = spawn('/bin/sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await until(() => /^\d+\n/.test(out), 'the group member has started');
  const member = Number(out.trim());
  await until(() => running(member), 'the group member runs');
  return { leader: child.pid as number, member, child };
}

/** {@link PROC_TABLE}, recording what it signals; with `reused`, the leader's pid reads as a process started a tick after the one seen first. */
function realTable(leader: number): ProcessTable & { sent: [number, string | 0][]; reused: boolean } {
  const table = {
    ...PROC_TABLE,
    sent: [] as [number, string | 0][],
    reused: false,
    stat(pid: number): ProcStat | null {
      const stat = PROC_TABLE.stat(pid);
      return stat !== null && pid === leader && table.reused ? { ...stat, start: String(Number(stat.start) + 1) } : stat;
    },
    kill(target: number, signal: NodeJS.Signals | 0): void {
      table.sent.push([target, signal]);
      PROC_TABLE.kill(target, signal);
    },
  };
  return table;
}

describe('ProcessTracker on real processes', () => {
  it('kills the group of its shell and every member in it', async () => {
    const { leader, member } = await realGroup();
    const table = realTable(leader);
    const tracker = new ProcessTracker(leader, randomUUID(), null, table);
    tracker.killNow();
    expect(table.sent).toContainEqual([-leader, 'SIGKILL']);
    await until(() => !running(leader) && !running(member), 'the group has ended');
  });

  it('does not signal a group that merely holds the number of a shell that is gone; a straggler proven by its marker still ends', async () => {
    const { leader, member, child } = await realGroup();
    const marker = randomUUID();
    const straggler = spawn('sleep', ['60'], { detached: true, stdio: 'ignore', env: { ...process.env, [COMMAND_MARKER_VARIABLE]: marker } });
    const stragglerPid = straggler.pid as number;
    try {
      await until(() => running(stragglerPid), 'the straggler runs');
      const table = realTable(leader);
      const tracker = new ProcessTracker(leader, marker, null, table);
      // From here on the pid reads as another process than the shell the tracker was made for: an
      // unrelated group leader that took the number, with `member` in its group.
      table.reused = true;
      tracker.killNow();
      expect(targets(table.sent)).toEqual([stragglerPid]);
      await until(() => !running(stragglerPid), 'the straggler has ended');
      expect([running(leader), running(member)]).toEqual([true, true]);
    } finally {
      // Our own child, not reaped while exitCode and signalCode are null: its group is still ours.
      if (child.exitCode === null && child.signalCode === null) process.kill(-leader, 'SIGKILL');
      straggler.kill('SIGKILL');
    }
  });
});

describe('the result names the processes a command left running, which were ended', () => {
  /** A runner on a Node platform over `dir` with `tools`, and a call that answers the result (or throws the failure). */
  async function runnerWith(tools?: 'anthropic' | 'gemini' | 'openai'): Promise<{
    call: (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown> | string>;
    dispose: () => Promise<void>;
  }> {
    const { createNodePlatform } = await import('./platform.js');
    const { ToolRunner } = await import('../src/runner.js');
    const { BuiltinTools, toolProfiles } = await import('../src/index.js');
    const platform = createNodePlatform({ root: dir });
    const runner = new ToolRunner({ platform, tools: tools === undefined ? BuiltinTools.all() : toolProfiles[tools]() });
    return {
      call: async (name, args) => {
        const [answer] = await runner.processToolCalls([{ id: 'l', name, args }], { timeoutMs: 20_000 });
        if (answer === undefined || 'code' in answer) throw new Error(JSON.stringify(answer));
        return answer.result as Record<string, unknown> | string;
      },
      dispose: () => platform.dispose(),
    };
  }

  it('runShellCommand: left_running counts and names them, oldest first', async () => {
    const result = await runShellCommand({ command: 'sleep 31 & sleep 32 & echo started', cwd: dir, timeoutMs: 20_000 });
    expect(result).toMatchObject({ stdout: 'started\n', exit_code: 0, left_running: { count: 2, commands: ['sleep 31', 'sleep 32'] } });
  });

  it('run_command in the foreground: sh -c \'sleep 30 & echo started\' answers exit 0 with a note naming "sleep 30" and what to do instead', async () => {
    const { call, dispose } = await runnerWith();
    try {
      const result = (await call('run_command', { command: "sh -c 'sleep 30 & echo started'" })) as Record<string, unknown>;
      expect(result).toMatchObject({ stdout: 'started\n', exit_code: 0 });
      expect(result.left_running).toBeUndefined();
      expect(result.note).toBe(
        '1 process the command left running was ended when its shell exited: "sleep 30". Every process a run_command starts ends with the call. ' +
          'To keep a server running, start it with run_in_background: true and in the foreground of that command: without `&`, `nohup`, `setsid` ' +
          'or its own daemonize option (e.g. `redis-server --daemonize no`), so it lives as long as that background command; read its output with command_output.',
      );
    } finally {
      await dispose();
    }
  });

  it('a run_in_background command whose shell ran `nohup sleep 30 >/dev/null 2>&1 &`: command_output\'s final status carries the note, and so do the list and stop_command', async () => {
    const { call, dispose } = await runnerWith();
    try {
      const started = await call('run_command', { command: 'nohup sleep 30 >/dev/null 2>&1 & echo started', run_in_background: true });
      const id = (started as { background_id: string }).background_id;
      let output = (await call('command_output', { background_id: id })) as Record<string, unknown>;
      for (let i = 0; i < 200 && output.running === true; i += 1) {
        await new Promise((r) => setTimeout(r, 50));
        output = (await call('command_output', { background_id: id })) as Record<string, unknown>;
      }
      expect(output).toMatchObject({ stdout: 'started\n', running: false, exit_code: 0 });
      expect(output.note).toBe(
        '1 process the command left running was ended when its shell exited: "sleep 30". A background command lives as long as its shell: ' +
          'run the server in the foreground of the command, without `&`, `nohup`, `setsid` or its own daemonize option ' +
          '(e.g. `redis-server --daemonize no`), so it keeps running until stop_command ends it.',
      );
      const listed = (await call('command_output', {})) as { commands: Array<Record<string, unknown>> };
      expect(listed.commands[0]).toMatchObject({ background_id: id, running: false, note: output.note });
      expect(await call('stop_command', { background_id: id })).toMatchObject({ running: false, note: output.note });
    } finally {
      await dispose();
    }
  });

  it('no note when the command leaves nothing running (a child that ends in time, one waited for), nor when its own timeout or a stop ends it', async () => {
    const { call, dispose } = await runnerWith();
    try {
      const done = (await call('run_command', { command: 'sleep 0.1 & echo quick; wait' })) as Record<string, unknown>;
      expect(done).toEqual({ stdout: 'quick\n', stderr: '', exit_code: 0, signal: null, timed_out: false, truncated: false });
      const ended = (await call('run_command', { command: 'sleep 0.05 & echo quick' })) as Record<string, unknown>;
      expect(ended).toEqual({ stdout: 'quick\n', stderr: '', exit_code: 0, signal: null, timed_out: false, truncated: false });
      // The same shape of command, left running: only it has the note.
      const left = (await call('run_command', { command: 'sleep 30 & echo quick' })) as Record<string, unknown>;
      expect(left).toMatchObject({ stdout: 'quick\n', exit_code: 0, note: expect.stringContaining('"sleep 30"') });
      // A child that ignores SIGTERM still runs after the shell died of the timeout's: the timeout ended it, not the shell's exit.
      const timed = (await call('run_command', { command: "(trap '' TERM; sleep 30) >/dev/null 2>&1 & sleep 30", timeout_ms: 500 })) as Record<string, unknown>;
      expect(timed).toMatchObject({ timed_out: true });
      expect(timed.note).toBeUndefined();
      const started = await call('run_command', { command: 'sleep 30 & sleep 30', run_in_background: true });
      const stopped = (await call('stop_command', { background_id: (started as { background_id: string }).background_id })) as Record<string, unknown>;
      expect(stopped).toMatchObject({ running: false });
      expect(stopped.note).toBeUndefined();
    } finally {
      await dispose();
    }
  });

  it('names at most three, identical command lines once with their number, then "and N more"; a long line is cut', async () => {
    const long = `sleep 33 ${'x'.repeat(100)}`;
    const result = await runShellCommand({ command: `sleep 34 & sleep 34 & sleep 35 & sleep 36 & sleep 37 & (exec -a '${long}' sleep 38) & echo go`, cwd: dir, timeoutMs: 20_000 }, undefined, { shell: '/bin/bash' });
    const { leftRunningSentence } = await import('../src/tools/run-command.js');
    expect(result.left_running?.count).toBe(6);
    expect(leftRunningSentence(result.left_running!)).toBe('6 processes the command left running were ended when its shell exited: "sleep 34" (×2), "sleep 35", "sleep 36" and 2 more.');
    const cut = leftRunningSentence({ count: 1, commands: [long] });
    expect(cut).toBe(`1 process the command left running was ended when its shell exited: "${long.slice(0, 80)}…" (29 more characters).`);
  });

  it('in the profiles\' own words: bash (anthropic), run_shell_command (gemini), shell (openai)', async () => {
    const anthropic = await runnerWith('anthropic');
    try {
      const text = await anthropic.call('bash', { command: 'sleep 30 & echo started' });
      expect(text).toBe(
        'started\n[1 process the command left running was ended when its shell exited: "sleep 30". Every process a bash command starts ends with it, ' +
          'so a server started with `&`, `nohup`, `setsid` or its own daemonize option is ended too: start the server and use it within one command ' +
          '(e.g. `server & sleep 2; curl localhost:8000`).]',
      );
    } finally {
      await anthropic.dispose();
    }
    const gemini = await runnerWith('gemini');
    try {
      const result = (await gemini.call('run_shell_command', { command: 'sleep 30 & echo started' })) as Record<string, unknown>;
      expect(result.note).toBe(
        '1 process the command left running was ended when its shell exited: "sleep 30". Every process a run_shell_command command starts ends with it, ' +
          'so a server started with `&`, `nohup`, `setsid` or its own daemonize option is ended too: start the server and use it within one command ' +
          '(e.g. `server & sleep 2; curl localhost:8000`).',
      );
    } finally {
      await gemini.dispose();
    }
    const openai = await runnerWith('openai');
    try {
      const result = (await openai.call('shell', { commands: ['echo one', 'sleep 30 & echo two'] })) as Record<string, unknown>;
      expect(result.note).toBe(
        'Command 2: 1 process the command left running was ended when its shell exited: "sleep 30". Every process a shell command starts ends with it, ' +
          'so a server started with `&`, `nohup`, `setsid` or its own daemonize option is ended too: start the server and use it within one command ' +
          '(e.g. `server & sleep 2; curl localhost:8000`).',
      );
    } finally {
      await openai.dispose();
    }
  });
});

describe('ProcessTracker.leftRunning', () => {
  it('counts the live members, oldest first by start time, naming those whose command line it can read; none when only zombies are left', () => {
    const procs = new Map<number, FakeProcess>([[100, proc(1, 100, 100, '500')]]);
    const lines = new Map<number, string>([[300, 'python3 -m http.server'], [200, 'sleep 30'], [250, 'x'.repeat(300)]]);
    const table = { ...fakeTable(procs), commandLine: (pid: number) => lines.get(pid) ?? null };
    const tracker = new ProcessTracker(100, 'marker', null, table);
    procs.set(300, proc(100, 100, 100, '510'));
    procs.set(200, proc(100, 100, 100, '520'));
    procs.set(250, proc(100, 100, 100, '530'));
    procs.set(260, proc(100, 100, 100, '540')); // its command line cannot be read: counted, not named
    tracker.scan();
    procs.delete(100); // the shell exited and was reaped
    expect(tracker.leftRunning()).toEqual({ count: 4, commands: ['python3 -m http.server', 'sleep 30', `${'x'.repeat(199)}…`] });
    for (const pid of [200, 250, 260, 300]) procs.set(pid, { ...procs.get(pid)!, state: 'Z' });
    expect(tracker.leftRunning()).toBeUndefined();
  });

  it('without /proc: count null and no command lines while the group runs, nothing once it does not', () => {
    const procs = new Map<number, FakeProcess>([[100, proc(1, 100, 100, '500')], [150, proc(1, 100, 100, '510')]]);
    const tracker = new ProcessTracker(100, 'marker', null, fakeTable(procs, false));
    expect(tracker.leftRunning()).toEqual({ count: null, commands: [] });
    procs.clear();
    expect(tracker.leftRunning()).toBeUndefined();
  });
});
