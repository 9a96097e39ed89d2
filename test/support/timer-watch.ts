/**
 * Runs `fn` while a 5 ms `setInterval` ticks beside it, and returns its value with the elapsed time and
 * the longest gap between ticks (from the start to the end, in ms): work that blocks the thread shows
 * as a long gap, work that yields keeps it near 5 ms.
 */
export async function withTimerWatch<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; gap: number }> {
  const ticks: number[] = [];
  const timer = setInterval(() => ticks.push(performance.now()), 5);
  const started = performance.now();
  try {
    const value = await fn();
    const ended = performance.now();
    const all = [started, ...ticks, ended];
    let gap = 0;
    for (let i = 1; i < all.length; i += 1) gap = Math.max(gap, (all[i] as number) - (all[i - 1] as number));
    return { value, ms: ended - started, gap };
  } finally {
    clearInterval(timer);
  }
}
