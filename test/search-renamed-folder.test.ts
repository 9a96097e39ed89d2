import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import type { SearchCountResult } from '../src/search/line-search.js';
import { builtSearchSuite, type Core } from './support/built-search.js';

// The Node search source holds directories open between calls and reads files through them. A folder
// renamed or moved away keeps its descriptor: a new folder made at its path (`mv build build.old;
// mkdir build`) must be the one read, and a folder moved out of the workspace must never be.

const suite = builtSearchSuite();

beforeAll(async () => {
  // A helper thread already running takes its share of the first count below.
  const warm = suite.tree('renamed-warm', Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`w${i}.txt`, 'w\n'])));
  const platform = suite.node.createNodePlatform({ root: warm });
  await runnerOn(platform).execute('grep_search', { pattern: 'w', fixed_strings: true, output_mode: 'count' });
  await platform.dispose();
}, 180_000);

function runnerOn(platform: Platform): InstanceType<Core['ToolRunner']> {
  return new suite.core.ToolRunner({ platform, tools: suite.core.BuiltinTools.all() });
}

const FILES = 1000;

describe('grep_search on one Node platform after a searched folder is renamed and another made at its path', () => {
  it('counts the new folder’s files, on both search threads', async () => {
    const root = suite.tree('renamed', Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`build/f${i}.txt`, `old ${i}\n`])));
    const platform = suite.node.createNodePlatform({ root });
    const runner = runnerOn(platform);
    const count = async (pattern: string): Promise<SearchCountResult> =>
      (await runner.execute('grep_search', { pattern, fixed_strings: true, output_mode: 'count', max_results: 2000 })) as SearchCountResult;
    try {
      expect((await count('old')).total_matches).toBe(FILES);
      renameSync(join(root, 'build'), join(root, 'build.old'));
      mkdirSync(join(root, 'build'));
      for (let i = 0; i < FILES; i += 1) writeFileSync(join(root, `build/f${i}.txt`), `new ${i}\n`);
      const old = await count('old');
      expect(old).toMatchObject({ total_matches: FILES, total_files: FILES, files_searched: 2 * FILES });
      expect(old.counts.every((entry) => entry.file_path.startsWith(join(root, 'build.old/')))).toBe(true);
      const fresh = await count('new');
      expect(fresh).toMatchObject({ total_matches: FILES, total_files: FILES });
      expect(fresh.counts.every((entry) => entry.file_path.startsWith(join(root, 'build/')))).toBe(true);
    } finally {
      await platform.dispose();
    }
  }, 60_000);

  it('searches a file of the new folder named as dir_path, never the renamed folder’s file of that name', async () => {
    const root = suite.tree('renamed-file', { 'd1/f.txt': 'old line\n', 'd1/g.txt': 'other\n' });
    const platform = suite.node.createNodePlatform({ root });
    const runner = runnerOn(platform);
    try {
      expect(await runner.execute('grep_search', { pattern: 'line', fixed_strings: true })).toMatchObject({ total_matches: 1 });
      renameSync(join(root, 'd1'), join(root, 'd9'));
      mkdirSync(join(root, 'd1'));
      writeFileSync(join(root, 'd1/f.txt'), 'new line\n');
      const found = (await runner.execute('grep_search', { pattern: 'line', fixed_strings: true, dir_path: join(root, 'd1/f.txt') })) as { matches: Array<{ file_path: string; line: string }> };
      expect(found.matches.map(({ file_path, line }) => [file_path, line])).toEqual([[join(root, 'd1/f.txt'), 'new line']]);
      expect(await runner.execute('grep_search', { pattern: 'old', fixed_strings: true, dir_path: join(root, 'd1/f.txt'), output_mode: 'count' })).toMatchObject({ total_matches: 0 });
    } finally {
      await platform.dispose();
    }
  });

  it('never reads a folder moved out of the workspace, nor a file written there since', async () => {
    const outside = suite.tree('renamed-outside', {});
    const root = suite.tree('renamed-inside', { 'd1/secret.txt': 'harmless\n' });
    const platform = suite.node.createNodePlatform({ root });
    const runner = runnerOn(platform);
    try {
      expect(await runner.execute('grep_search', { pattern: 'harmless', fixed_strings: true, output_mode: 'count' })).toMatchObject({ total_matches: 1 });
      renameSync(join(root, 'd1'), join(outside, 'd1'));
      writeFileSync(join(outside, 'd1/secret.txt'), 'SECRET outside\n');
      mkdirSync(join(root, 'd1'));
      writeFileSync(join(root, 'd1/secret.txt'), 'inside again\n');
      for (const dirPath of [join(root, 'd1/secret.txt'), join(root, 'd1'), root]) {
        expect(await runner.execute('grep_search', { pattern: 'SECRET', fixed_strings: true, dir_path: dirPath, output_mode: 'count' })).toMatchObject({ total_matches: 0, files_searched: 1 });
        expect(await runner.execute('grep_search', { pattern: 'inside', fixed_strings: true, dir_path: dirPath, output_mode: 'count' })).toMatchObject({ total_matches: 1, files_searched: 1 });
      }
    } finally {
      await platform.dispose();
    }
  });
});
