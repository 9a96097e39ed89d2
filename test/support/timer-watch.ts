/** This thread's CPU time in ms (user + system), where the runtime can tell it (`process.threadCpuUsage` on Node 22 and 24); undefined elsewhere. */
function threadCpuMs(): number | undefined {
  const usage = (globalThis as { process?: { threadCpuUsage?: () => { user: number; system: number } } }).process?.threadCpuUsage?.();
  return usage === undefined ? undefined : (usage.user + usage.system) / 1000;
}

import { isNode } from './env.js';
import { runQueueWait, waitedSince } from './starvation.js';

/**
 * In a browser test, the run-queue waits (ns) of Chromium's renderer threads, through the
 * `rendererRunQueueWait` command (vite.config.ts); undefined under Node, or where it cannot be asked.
 */
async function rendererWaits(): Promise<Record<string, number> | undefined> {
  if (isNode) return undefined;
  try {
    const { commands } = (await import('vitest/browser')) as unknown as { commands: { rendererRunQueueWait?: () => Promise<Record<string, number>> } };
    return await commands.rendererRunQueueWait?.();
  } catch {
    return undefined;
  }
}

/** The longest wait (ms) any renderer thread added between `before` and `after`. */
function longestAdded(before: Record<string, number>, after: Record<string, number>): number {
  let longest = 0;
  for (const [key, wait] of Object.entries(after)) longest = Math.max(longest, wait - (before[key] ?? 0));
  return longest / 1e6;
}

/**
 * Runs `fn` while a 5 ms `setInterval` ticks beside it, and returns its value with the elapsed time and
 * the longest stretch this thread spent working between two ticks (from the start to the end, in ms):
 * work that blocks the thread shows as a long stretch, work that yields keeps it near a few ms.
 *
 * `gap` is measured in this thread's own CPU time where the runtime gives it (Node), so a machine so
 * busy that the scheduler leaves the process waiting does not count as the thread being held: only
 * work done on it does. In a browser it is the longest gap in wall-clock time less the longest time a
 * thread of Chromium's renderer waited for a CPU meanwhile (Linux's schedstat, read on the Node side
 * by the `rendererRunQueueWait` command), and `waited` that wait. `wallGap` is the longest gap between
 * ticks in wall-clock time. `waited` is how many of the `ms` the process
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
  const rendererBefore = await rendererWaits();
  const usage = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process?.cpuUsage?.();
  const timer = setInterval(tick, 5);
  tick();
  try {
    const value = await fn();
    tick();
    const rendererAfter = rendererBefore === undefined ? undefined : await rendererWaits();
    let wallGap = 0;
    let cpuGap = 0;
    for (let i = 1; i < wall.length; i += 1) {
      wallGap = Math.max(wallGap, (wall[i] as number) - (wall[i - 1] as number));
      const [before, after] = [cpu[i - 1], cpu[i]];
      if (before !== undefined && after !== undefined) cpuGap = Math.max(cpuGap, after - before);
    }
    const measuredCpu = cpu[0] !== undefined;
    const used = usage === undefined ? undefined : process.cpuUsage(usage);
    // In a browser, the renderer's longest wait for a CPU, taken off the wall-clock gap (an upper bound
    // of how much of that gap the machine, not the code, held the thread).
    const rendererWaited = rendererBefore && rendererAfter ? longestAdded(rendererBefore, rendererAfter) : 0;
    return {
      value,
      ms: (wall[wall.length - 1] as number) - (wall[0] as number),
      gap: measuredCpu ? cpuGap : Math.max(0, wallGap - rendererWaited),
      wallGap,
      waited: measuredCpu ? waitedSince(waits) : Math.max(waitedSince(waits), rendererWaited),
      cpu: used === undefined ? undefined : (used.user + used.system) / 1000,
    };
  } finally {
    clearInterval(timer);
  }
}
