/** This thread's CPU time in ms (user + system), where the runtime can tell it (`process.threadCpuUsage` on Node 22 and 24); undefined elsewhere. */
function threadCpuMs(): number | undefined {
  const usage = (globalThis as { process?: { threadCpuUsage?: () => { user: number; system: number } } }).process?.threadCpuUsage?.();
  return usage === undefined ? undefined : (usage.user + usage.system) / 1000;
}

import { runQueueWait, waitedSince } from './starvation.js';

/**
 * Runs `fn` while a 5 ms `setInterval` ticks beside it, and returns its value with the elapsed time and
 * the longest stretch this thread spent working between two ticks (from the start to the end, in ms):
 * work that blocks the thread shows as a long stretch, work that yields keeps it near a few ms.
 *
 * `gap` is measured in this thread's own CPU time where the runtime gives it (Node), so a machine so
 * busy that the scheduler leaves the process waiting does not count as the thread being held: only
 * work done on it does. `wallGap` is the longest gap between ticks in wall-clock time (what `gap` is
 * where no thread CPU time is to be had, as in browsers). `waited` is how many of the `ms` the process
 * spent waiting for a CPU (see starvation.ts: `ms - waited` is how late the code itself was), and
 * `cpu` the CPU time all its threads used meanwhile, in ms: what the work cost, however busy the
 * machine (undefined where the runtime cannot tell).
 */
export async function withTimerWatch<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; gap: number; wallGap: number; waited: number; cpu: number | undefined }> {
  const wall: number[] = [];
  const cpu: (number | undefined)[] = [];
  const tick = (): void => {
    wall.push(performance.now());
    cpu.push(threadCpuMs());
  };
  const waits = runQueueWait();
  const usage = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process?.cpuUsage?.();
  const timer = setInterval(tick, 5);
  tick();
  try {
    const value = await fn();
    tick();
    let wallGap = 0;
    let cpuGap = 0;
    for (let i = 1; i < wall.length; i += 1) {
      wallGap = Math.max(wallGap, (wall[i] as number) - (wall[i - 1] as number));
      const [before, after] = [cpu[i - 1], cpu[i]];
      if (before !== undefined && after !== undefined) cpuGap = Math.max(cpuGap, after - before);
    }
    const measuredCpu = cpu[0] !== undefined;
    const used = usage === undefined ? undefined : process.cpuUsage(usage);
    return {
      value,
      ms: (wall[wall.length - 1] as number) - (wall[0] as number),
      gap: measuredCpu ? cpuGap : wallGap,
      wallGap,
      waited: waitedSince(waits),
      cpu: used === undefined ? undefined : (used.user + used.system) / 1000,
    };
  } finally {
    clearInterval(timer);
  }
}
