import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchCountResult } from '../src/search/line-search.js';
import { loadBuilt, makeTree, type Core, type NodeAdapter } from './support/built-search.js';

// A count shared with the helper thread that has counted every file when its time limit comes
// must not say it stopped: nothing was left out.

let core: Core;
let adapter: NodeAdapter;
let root: string;

function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 600; i += 1) files[`d${i % 9}/f${i}.js`] = `banana ${i}\nbar\n`.repeat(1 + (i % 4));
  return files;
}
const LINES = Array.from({ length: 600 }, (_, i) => 1 + (i % 4)).reduce((sum, n) => sum + n, 0);

beforeAll(async () => {
  ({ core, node: adapter } = await loadBuilt());
  root = makeTree('deadline-complete', tree());
}, 180_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('grep_search count at a small max_time_ms over 600 files (shared with the helper thread)', () => {
  it('is truncated, with the time-limit note, only when it left files or lines out, and its counts add up to its total', async () => {
    const note = /^the search stopped at its time limit \(\d+ ms\) (after (\d+) of 600 files|while listing files, (before it had listed any|after \d+ of the \d+ files listed so far))/;
    for (let round = 0; round < 10; round += 1) {
      for (const ms of [3, 5, 8, 13]) {
        const platform = adapter.createNodePlatform({ root });
        try {
          const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
          const result = (await runner.execute('grep_search', { pattern: 'b(an)+a', output_mode: 'count', max_time_ms: ms, max_results: 2000 })) as SearchCountResult;
          expect(result.counts.reduce((sum, entry) => sum + entry.count, 0)).toBe(result.total_matches);
          if (result.truncated) {
            expect(result.note).toMatch(note);
            expect({ ms, total: result.total_matches, note: result.note }).not.toMatchObject({ total: LINES });
          } else {
            expect(result).toMatchObject({ total_matches: LINES, total_files: 600, files_searched: 600 });
          }
        } finally {
          await platform.dispose();
        }
      }
    }
  }, 120_000);
});
