import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { grepSearchTool } from '../src/tools/grep-search.js';
import { createNodePlatform } from './platform.js';
import { withTimerWatch } from '../test/support/timer-watch.js';

let base: string;
let platform: Platform;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-needle-')));
  // 20 MB of 5,000-character lines, and 400 lines of 50,000 characters: Buffer#indexOf alone takes
  // seconds per megabyte for a needle one character longer than the lines.
  await writeFile(join(base, 'lines.txt'), `${'a'.repeat(5000)}\n`.repeat(4000));
  await writeFile(join(base, 'long.txt'), `${'a'.repeat(50_000)}!\n`.repeat(400));
  platform = createNodePlatform({ root: base });
});

afterAll(async () => {
  await platform?.dispose();
  await rm(base, { recursive: true, force: true });
});

describe('grep_search with a pattern longer than the lines on a real folder (Node)', () => {
  it.each([
    ['lines.txt', 5001],
    ['long.txt', 60_000],
  ])('%s, a %i-character literal and regex: no match, for under 2 s of CPU time', async (file, length) => {
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    for (const fixed_strings of [true, false]) {
      // What the search costs is its CPU time (all threads): a busy machine stretches the wall clock,
      // not that, so the call gets a deadline such a machine still meets, and the answer is whole.
      const { value, cpu } = await withTimerWatch(() =>
        runner.processToolCalls([{ name: 'grep_search', args: { pattern: 'a'.repeat(length), dir_path: file, fixed_strings } }], { timeoutMs: 60_000 }),
      );
      expect(cpu).toBeLessThan(2000);
      expect(value[0]).toMatchObject({ result: { matches: [], total_matches: 0, truncated: false } });
    }
  });

  it('still finds a long literal where it occurs, with its line number', async () => {
    await writeFile(join(base, 'found.txt'), `${'a'.repeat(5000)}\n`.repeat(10) + `x${'a'.repeat(5001)}\n`);
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    const result = (await runner.execute('grep_search', { pattern: 'a'.repeat(5001), dir_path: 'found.txt', fixed_strings: true, output_mode: 'count' })) as { total_matches: number; counts: { count: number }[] };
    expect(result.total_matches).toBe(1);
    const content = (await runner.execute('grep_search', { pattern: 'a'.repeat(5001), dir_path: 'found.txt', fixed_strings: true })) as { matches: { line_number: number; column: number }[] };
    expect(content.matches.map((m) => [m.line_number, m.column])).toEqual([[11, 2]]);
  });
});
