// How long this process waited for a CPU, so a deadline test can tell "the code was late" from "the
// machine was busy". Linux counts, per thread, the time it was ready to run but left waiting in the
// run queue (the second field of /proc/<pid>/task/<tid>/schedstat, in ns). A test that runs beside a
// second full suite on two cores waits there for hundreds of milliseconds at a time; a tool that
// ignores its deadline does not: it runs. So an answer's lateness is measured without that wait:
//
//   const before = runQueueWait();
//   ... the call with its deadline ...
//   expect(Date.now() - started - waitedSince(before)).toBeLessThan(deadline + 250);
//
// Where there is no schedstat (another OS, a kernel without it, a browser) every wait reads 0 and
// the test measures the wall clock as before.

/** Per thread of this process, the nanoseconds it has waited in the run queue so far. */
export type RunQueueWait = ReadonlyMap<string, number>;

const TASKS = '/proc/self/task';

/** Node's fs where there is one (this module also loads in browsers, where there is not). */
const fs = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:fs') as
  | typeof import('node:fs')
  | undefined;

/** This process's threads' run-queue waits now (an empty map where Linux's schedstat is not there). */
export function runQueueWait(): RunQueueWait {
  const waits = new Map<string, number>();
  if (!fs) return waits;
  let tids: string[];
  try {
    tids = fs.readdirSync(TASKS);
  } catch {
    return waits;
  }
  for (const tid of tids) {
    try {
      const fields = fs.readFileSync(`${TASKS}/${tid}/schedstat`, 'utf8').trim().split(/\s+/);
      const wait = Number(fields[1]);
      if (Number.isFinite(wait)) waits.set(tid, wait);
    } catch {
      // the thread ended meanwhile
    }
  }
  return waits;
}

/**
 * Milliseconds of waiting for a CPU since `before`: the longest wait any one thread of the process
 * (the event loop, a helper thread) added since then, a thread started since counting in full. The
 * longest rather than the sum, since threads wait side by side: a call is late by at most the wait
 * of the thread it waited for.
 */
export function waitedSince(before: RunQueueWait): number {
  let longest = 0;
  for (const [tid, wait] of runQueueWait()) longest = Math.max(longest, wait - (before.get(tid) ?? 0));
  return longest / 1e6;
}

/**
 * A stopwatch for deadline tests: `elapsed()` is the wall-clock ms since it started, `waited()` the
 * ms of that the process spent waiting for a CPU, and `net()` the difference: how long the code
 * itself took, which is what a deadline test bounds.
 */
export function stopwatch(): { elapsed(): number; waited(): number; net(): number } {
  const before = runQueueWait();
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  return {
    elapsed,
    waited: () => waitedSince(before),
    net() {
      const ms = elapsed();
      return ms - waitedSince(before);
    },
  };
}

/**
 * For a call whose outcome depends on a deadline's margin (a search answering what it found at 80 % of
 * a 300 ms deadline rather than timeout): runs `call` until the process waited for a CPU less than
 * `marginMs` during it, at most `attempts` times, and answers the last run with `starved`: whether every
 * run was kept waiting past the margin. A run that waited longer says nothing of the code (the machine
 * took the margin away), so the test checks its outcome only when `starved` is false; no wait is
 * counted where Linux's schedstat is not there, so there every run counts.
 */
export async function outsideStarvation<T>(marginMs: number, call: () => Promise<T>, attempts = 5): Promise<{ value: T; ms: number; waited: number; starved: boolean }> {
  for (let attempt = 1; ; attempt += 1) {
    const clock = stopwatch();
    const value = await call();
    const [ms, waited] = [clock.elapsed(), clock.waited()];
    if (waited < marginMs || attempt >= attempts) return { value, ms, waited, starved: waited >= marginMs };
  }
}

/**
 * Every process now (Linux's /proc; undefined elsewhere): each one's parent, and those whose command
 * line holds `marker`.
 */
function scanProcesses(marker: string): { parents: Map<number, number>; marked: number[] } | undefined {
  if (!fs) return undefined;
  const parents = new Map<number, number>();
  const marked: number[] = [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: the parent's pid is the second field after it.
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) marked.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return { parents, marked };
}

/** The processes whose command line holds `marker` (a browser's profile folder, say), and all their descendants (Linux's /proc; none elsewhere). */
export function processTree(marker: string): number[] {
  const scan = scanProcesses(marker);
  if (!scan) return [];
  const tree = new Set(scan.marked);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of scan.parents) {
      if (!tree.has(pid) && tree.has(parent)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

/** The run-queue waits of every thread of the processes `pids` now, keyed `pid/tid` (see {@link runQueueWait}). */
export function runQueueWaitOf(pids: readonly number[]): RunQueueWait {
  const waits = new Map<string, number>();
  if (!fs) return waits;
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const wait = Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(/\s+/)[1]);
        if (Number.isFinite(wait)) waits.set(`${pid}/${tid}`, wait);
      } catch {
        // gone meanwhile
      }
    }
  }
  return waits;
}

/** The longest time (ms) any thread of `pids` waited for a CPU since `before` (from {@link runQueueWaitOf}). */
export function waitedSinceOf(before: RunQueueWait, pids: readonly number[]): number {
  let longest = 0;
  for (const [key, wait] of runQueueWaitOf(pids)) longest = Math.max(longest, wait - (before.get(key) ?? 0));
  return longest / 1e6;
}

/**
 * The run-queue waits (ns) of every thread of the Chromium renderer processes this process started
 * (descendants of it whose command line holds `--type=renderer`), keyed `pid/tid`: what a browser test
 * asks through the `rendererRunQueueWait` command (vite.config.ts) to tell a thread held by its code
 * from one the machine left waiting. Empty where Linux's /proc is not there.
 */
export function rendererRunQueueWait(): Record<string, number> {
  const scan = scanProcesses('--type=renderer');
  if (!scan) return {};
  const mine = (pid: number): boolean => {
    for (let at = scan.parents.get(pid), hops = 0; at !== undefined && at > 1 && hops < 64; at = scan.parents.get(at), hops += 1) if (at === process.pid) return true;
    return false;
  };
  return Object.fromEntries(runQueueWaitOf(scan.marked.filter(mine)));
}
