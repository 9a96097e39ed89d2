import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileSearchPattern, loadSearchPatternParser } from './dialect.js';
import { scanText, YIELD_EVERY_MS } from './line-scan.js';

// The scan reads the clock every 64 units of work; here the clock is the test's, one ms a reading, so
// where the scan pauses and where it stops is exact whatever the machine.
afterEach(() => vi.restoreAllMocks());

async function scanWithClock(deadlineAfter: number): Promise<{ pauses: number[]; stopped: boolean; hits: number }> {
  await loadSearchPatternParser();
  // A pattern re2js runs line by line (no literal, nested repetition): a clock reading every 64 lines.
  const pattern = compileSearchPattern('(a|b)*(ab)+x', { literal: false, caseSensitive: true });
  let now = 1_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => (now += 1));
  const start = now;
  const pauses: number[] = [];
  const text = 'ababx\n'.repeat(200_000);
  const result = await scanText(text, pattern, {
    deadline: start + deadlineAfter,
    wantOffsets: 0,
    maxHits: Infinity,
    pause: async () => {
      pauses.push(now - start);
    },
  });
  return { pauses, stopped: result.stopped, hits: result.count };
}

describe('scanText near its deadline', () => {
  it('pauses about every slice while the deadline is far', async () => {
    const { pauses, stopped } = await scanWithClock(10 * YIELD_EVERY_MS);
    expect(stopped).toBe(true);
    expect(pauses.length).toBeGreaterThanOrEqual(5);
    for (const at of pauses) expect(at).toBeLessThan(10 * YIELD_EVERY_MS - YIELD_EVERY_MS + 2);
  });

  it('stops instead of pausing when less than a slice is left, so a late thread never meets the deadline first', async () => {
    const { pauses, stopped, hits } = await scanWithClock(YIELD_EVERY_MS + YIELD_EVERY_MS / 2);
    expect(pauses).toEqual([]);
    expect(stopped).toBe(true);
    expect(hits).toBeGreaterThan(0);
  });
});
