import { readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchCountResult } from '../src/search/line-search.js';
import { hasRg, TREE_TIME, builtSearchSuite, type Core, rgCounts } from './support/built-search.js';

// A cached file or listing is validated by (size, mtime, inode). A tool that writes a file and sets
// its mtime back (rsync -t, cp -p, tar, an editor keeping times), or an atomic replace whose inode
// number the filesystem reuses (ext4 hands a freed inode out again at once), must still be seen.

const suite = builtSearchSuite();

function tree(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i += 1) files[`d${i % 5}/f${String(i).padStart(3, '0')}.txt`] = `alpha ${i}\nbeta\n`;
  return files;
}

async function alphaCounts(runner: InstanceType<Core['ToolRunner']>): Promise<{ total: number; files: number; perFile: Record<string, number> }> {
  const result = (await runner.execute('grep_search', { pattern: 'alpha', fixed_strings: true, output_mode: 'count', max_results: 2000 })) as SearchCountResult;
  return { total: result.total_matches, files: result.files_searched, perFile: Object.fromEntries(result.counts.map((entry) => [entry.file_path, entry.count])) };
}

describe.each([
  ['40 files (one thread)', 40],
  ['320 files (shared with the helper thread)', 320],
])('grep_search on one Node platform after a change whose mtime was set back, %s', (_label, size) => {
  it('counts a file edited in place to the same size anew', async () => {
    const root = suite.tree('setback-edit', tree(size));
    const platform = suite.node.createNodePlatform({ root });
    const runner = new suite.core.ToolRunner({ platform, tools: suite.core.BuiltinTools.all() });
    try {
      expect((await alphaCounts(runner)).total).toBe(size);
      const edited = join(root, 'd1/f001.txt');
      writeFileSync(edited, 'ALPHA 1\nbeta\n');
      utimesSync(edited, TREE_TIME, TREE_TIME);
      expect(statSync(edited).mtimeMs).toBe(TREE_TIME * 1000);
      const after = await alphaCounts(runner);
      expect(after.total).toBe(size - 1);
      expect(after.perFile[edited]).toBeUndefined();
      if (hasRg) expect(after.perFile).toEqual(rgCounts(root, 'alpha', { fixed: true }));
    } finally {
      await platform.dispose();
    }
  }, 30_000);

  it('counts a file atomically replaced twice between searches (its first inode number reused) anew', async () => {
    const root = suite.tree('setback-replace', tree(size));
    const platform = suite.node.createNodePlatform({ root });
    const runner = new suite.core.ToolRunner({ platform, tools: suite.core.BuiltinTools.all() });
    try {
      expect((await alphaCounts(runner)).total).toBe(size);
      const replaced = join(root, 'd2/f002.txt');
      for (const text of ['gamma 2\nbeta\n', 'delta 2\nbeta\n']) {
        writeFileSync(`${replaced}.new`, text);
        utimesSync(`${replaced}.new`, TREE_TIME, TREE_TIME);
        renameSync(`${replaced}.new`, replaced);
      }
      const after = await alphaCounts(runner);
      expect(readFileSync(replaced, 'utf8')).toBe('delta 2\nbeta\n');
      expect(statSync(replaced).mtimeMs).toBe(TREE_TIME * 1000);
      expect(after.total).toBe(size - 1);
      expect(after.perFile[replaced]).toBeUndefined();
    } finally {
      await platform.dispose();
    }
  }, 30_000);
});
