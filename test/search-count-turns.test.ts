import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import { loadBuilt, makeTree, type Core, type NodeAdapter } from './support/built-search.js';
import { MAX_SEARCH_TIME_MS } from '../src/search/line-search.js';

// A count of one large file whose every line holds the pattern's required literal decodes and matches
// those lines one at a time: about a second of work here. It must let the event loop turn meanwhile
// (timers, a cancel, other calls), as every other part of a search does. The counts checked whole get
// the longest time limit: a busy machine can take longer than the default 10 s.

let core: Core;
let adapter: NodeAdapter;
let root: string;

/** Lines every one of which holds `needle` and matches `needle\d+x`: 1,000,000 of them (13 MB), in `regex/`. */
const LINES = 1_000_000;
/**
 * Lines of just `needle`, in `literal/`: a literal count of each is far cheaper than decoding and
 * matching a line (a memchr for its rarest byte, then one for the line's end), so it takes more of
 * them to last several slices of work.
 */
const LITERAL_LINES = 4_000_000;
const FILES = { 'regex/many.txt': 'needle12345x\n'.repeat(LINES), 'literal/many.txt': 'needle\n'.repeat(LITERAL_LINES) };

beforeAll(async () => {
  ({ core, node: adapter } = await loadBuilt());
  root = makeTree('count-turns', FILES);
}, 180_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.each([
  ['memory', (): Platform => core.createMemoryPlatform({ files: FILES })],
  ['Node', (): Platform => adapter.createNodePlatform({ root })],
])('a grep_search count of a file of a million candidate lines (%s platform)', (_label, make) => {
  it('lets a timer fire before it answers, and answers the full count', async () => {
    const platform = make();
    const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
    try {
      const order: string[] = [];
      const timer = setTimeout(() => order.push('timer'), 5);
      const result = await runner.execute('grep_search', { pattern: String.raw`needle\d+x`, dir_path: 'regex', output_mode: 'count', max_time_ms: MAX_SEARCH_TIME_MS });
      order.push('answer');
      clearTimeout(timer);
      expect(order).toEqual(['timer', 'answer']);
      expect(result).toMatchObject({ total_matches: LINES, total_files: 1, truncated: false });
    } finally {
      await platform.dispose();
    }
  }, 60_000);

  it('lets a timer fire before it answers a literal count of every line, and answers it in full, twice', async () => {
    const platform = make();
    const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
    try {
      for (let round = 0; round < 2; round += 1) {
        const order: string[] = [];
        const timer = setTimeout(() => order.push('timer'), 5);
        const result = await runner.execute('grep_search', { pattern: 'needle', dir_path: 'literal', fixed_strings: true, output_mode: 'count', max_time_ms: MAX_SEARCH_TIME_MS });
        order.push('answer');
        clearTimeout(timer);
        // The second round may answer from the count remembered with the cached file, at once.
        if (round === 0) expect(order).toEqual(['timer', 'answer']);
        expect(result).toMatchObject({ total_matches: LITERAL_LINES, total_files: 1, truncated: false });
      }
    } finally {
      await platform.dispose();
    }
  }, 60_000);

  it('is cancelled by its signal while it counts a literal', async () => {
    const platform = make();
    const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 5);
      await expect(runner.execute('grep_search', { pattern: 'needle', dir_path: 'literal', fixed_strings: true, output_mode: 'count' }, { signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
    } finally {
      await platform.dispose();
    }
  }, 60_000);

  it('is cancelled by its signal while it counts', async () => {
    const platform = make();
    const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 5);
      await expect(runner.execute('grep_search', { pattern: String.raw`needle\d+x`, dir_path: 'regex', output_mode: 'files_with_matches' }, { signal: controller.signal })).rejects.toMatchObject({
        code: 'cancelled',
      });
    } finally {
      await platform.dispose();
    }
  }, 60_000);
});

describe('a grep_search count whose Node platform is disposed while it counts a cached file', () => {
  it("answers unavailable or the file's true count, never one taken from bytes the next platform's cache reused", async () => {
    // 4 MiB: a file that shares a slab of the cache, which the next platform takes over on dispose.
    const lines = Math.floor((4 * 1024 * 1024) / 13) - 8;
    const first = makeTree('dispose-count-a', { 'z.txt': 'needle12345x\n'.repeat(lines) });
    const second = makeTree('dispose-count-b', { 'b1.txt': 'QQQQQQQQQQQQ\n'.repeat(200_000), 'b2.txt': 'QQQQQQQQQQQQ\n'.repeat(200_000) });
    try {
      for (let round = 0; round < 3; round += 1) {
        const platform = adapter.createNodePlatform({ root: first });
        const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
        const answer: Promise<{ total?: number; code?: string }> = runner.execute('grep_search', { pattern: String.raw`needle\d+x`, output_mode: 'count', max_time_ms: MAX_SEARCH_TIME_MS }).then(
          (result) => ({ total: (result as { total_matches: number }).total_matches }),
          (error: { code?: string }) => ({ code: error.code }),
        );
        await new Promise((resolve) => setTimeout(resolve, 20 + 20 * round));
        await platform.dispose();
        const next = adapter.createNodePlatform({ root: second });
        try {
          const runnerB = new core.ToolRunner({ platform: next, tools: core.BuiltinTools.all() });
          expect(await runnerB.execute('grep_search', { pattern: 'QQQQ', fixed_strings: true, output_mode: 'count' })).toMatchObject({ total_matches: 400_000, total_files: 2 });
          const got = await answer;
          expect(got).toEqual(got.code === undefined ? { total: lines } : { code: 'unavailable' });
        } finally {
          await next.dispose();
        }
      }
    } finally {
      rmSync(first, { recursive: true, force: true });
      rmSync(second, { recursive: true, force: true });
    }
  }, 60_000);
});
