import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import type { SearchCountResult } from '../src/search/line-search.js';
import { loadBuilt, makeTree, type Core, type NodeAdapter } from './support/built-search.js';

let core: Core;
let adapter: NodeAdapter;
let apples: string;
let bananas: string;

/** 600 files in 9 folders, file i holding 1 + i % 4 lines of `word i` and as many `bar` lines. */
function tree(word: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 600; i += 1) files[`d${i % 9}/f${i}.js`] = `${word} ${i}\nbar\n`.repeat(1 + (i % 4));
  return files;
}
/** Lines holding the word in either tree. */
const LINES = Array.from({ length: 600 }, (_, i) => 1 + (i % 4)).reduce((sum, n) => sum + n, 0);

beforeAll(async () => {
  ({ core, node: adapter } = await loadBuilt());
  apples = makeTree('platforms-apple', tree('apple'));
  bananas = makeTree('platforms-banana', tree('banana'));
}, 180_000);

afterAll(() => {
  for (const root of [apples, bananas]) if (root) rmSync(root, { recursive: true, force: true });
});

function runnerOn(platform: Platform): InstanceType<Core['ToolRunner']> {
  return new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
}

const sum = (result: SearchCountResult): number => result.counts.reduce((total, entry) => total + entry.count, 0);

describe('grep_search on many Node platforms (built package, counts shared with the helper thread)', () => {
  it('answers the same on a fresh platform per search, twelve in a row over two folders', async () => {
    for (let round = 0; round < 12; round += 1) {
      const [root, word] = round % 2 === 0 ? [apples, 'apple'] : [bananas, 'banana'];
      const platform = adapter.createNodePlatform({ root });
      try {
        const pattern = round % 3 === 0 ? `${word} \\d+` : word;
        const result = (await runnerOn(platform).execute('grep_search', { pattern, fixed_strings: round % 3 !== 0, output_mode: 'count', max_results: 2000 })) as SearchCountResult;
        expect(result).toMatchObject({ total_matches: LINES, total_files: 600, files_searched: 600, truncated: false });
        expect(sum(result)).toBe(LINES);
      } finally {
        await platform.dispose();
      }
    }
  }, 60_000);

  it('answers each of concurrent searches on two platforms as if it ran alone', async () => {
    const a = adapter.createNodePlatform({ root: apples });
    const b = adapter.createNodePlatform({ root: bananas });
    try {
      for (let round = 0; round < 4; round += 1) {
        const [counted, matched, listed] = await Promise.all([
          runnerOn(a).execute('grep_search', { pattern: 'apple', fixed_strings: true, output_mode: 'count', max_results: 2000 }),
          runnerOn(b).execute('grep_search', { pattern: String.raw`banana \d+`, output_mode: 'count', max_results: 2000 }),
          runnerOn(a).execute('grep_search', { pattern: 'appl[e]', output_mode: 'files_with_matches', max_results: 2000 }),
        ]);
        expect(counted).toMatchObject({ total_matches: LINES, total_files: 600 });
        expect(matched).toMatchObject({ total_matches: LINES, total_files: 600 });
        expect(sum(matched as SearchCountResult)).toBe(LINES);
        expect(listed).toMatchObject({ total_matches: LINES, total_files: 600 });
        expect((listed as { files: string[] }).files).toHaveLength(600);
      }
    } finally {
      await Promise.all([a.dispose(), b.dispose()]);
    }
  }, 60_000);

  it('answers a search whose platform is disposed while it runs with unavailable or its whole result, never a part', async () => {
    for (let round = 0; round < 12; round += 1) {
      const platform = adapter.createNodePlatform({ root: apples });
      const mode = (['count', 'files_with_matches', 'content'] as const)[round % 3];
      const answer = runnerOn(platform)
        .execute('grep_search', { pattern: 'a.p.e', output_mode: mode })
        .then(
          (result) => ({ total: (result as { total_matches: number }).total_matches, files: (result as { files_searched: number }).files_searched }),
          (error: { code?: string }) => ({ code: error.code }),
        );
      await new Promise((resolve) => setTimeout(resolve, round % 4));
      await platform.dispose();
      const got: { code?: string; total?: number; files?: number } = await answer;
      expect(got).toEqual(got.code === undefined ? { total: LINES, files: 600 } : { code: 'unavailable' });
    }
  }, 60_000);
});
