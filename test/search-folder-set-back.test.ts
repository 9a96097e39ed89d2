import { utimesSync, writeFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchCountResult } from '../src/search/line-search.js';
import { hasRg, TREE_TIME, builtSearchSuite, rgCounts } from './support/built-search.js';

const suite = builtSearchSuite();

function tree(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i += 1) files[`d${i % 5}/f${String(i).padStart(3, '0')}.txt`] = `alpha ${i}\n`;
  return files;
}

describe.each([
  ['40 files (one thread)', 40],
  ['320 files (shared with the helper thread)', 320],
])('grep_search on one Node platform after a folder changed and its mtime was set back, %s', (_label, size) => {
  it('lists the folder again: a file added is searched, a file removed is not', async () => {
    const root = suite.tree('setback-folder', tree(size));
    const platform = suite.node.createNodePlatform({ root });
    const runner = new suite.core.ToolRunner({ platform, tools: suite.core.BuiltinTools.all() });
    const search = async (): Promise<SearchCountResult> =>
      (await runner.execute('grep_search', { pattern: 'alpha', fixed_strings: true, output_mode: 'count', max_results: 2000 })) as SearchCountResult;
    try {
      expect((await search()).files_searched).toBe(size);
      const folder = join(root, 'd3');
      writeFileSync(join(folder, 'added.txt'), 'alpha added\nalpha\n');
      utimesSync(folder, TREE_TIME, TREE_TIME);
      const added = await search();
      expect(added.files_searched).toBe(size + 1);
      expect(added.total_matches).toBe(size + 2);
      expect(added.counts.find((entry) => entry.file_path === join(folder, 'added.txt'))?.count).toBe(2);
      unlinkSync(join(folder, 'f003.txt'));
      utimesSync(folder, TREE_TIME, TREE_TIME);
      const removed = await search();
      expect(removed.files_searched).toBe(size);
      expect(removed.total_matches).toBe(size + 1);
      expect((removed as SearchCountResult & { skipped_entries?: number }).skipped_entries).toBeUndefined();
      if (hasRg) expect(Object.fromEntries(removed.counts.map((entry) => [entry.file_path, entry.count]))).toEqual(rgCounts(root, 'alpha', { fixed: true }));
    } finally {
      await platform.dispose();
    }
  }, 30_000);
});
