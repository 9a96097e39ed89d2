import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import type { SearchCountResult } from '../src/search/line-search.js';
import { hasRg, builtSearchSuite, type Core, rgCounts } from './support/built-search.js';

const suite = builtSearchSuite();

/** `count` files in 5 folders: every file has `alpha` and `beta` lines and a require(); every third a second `alpha` line. */
function tree(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i += 1) {
    const name = `d${i % 5}/f${String(i).padStart(3, '0')}.txt`;
    files[name] = `alpha ${i}\nbeta\nrequire('m${i}')\n` + (i % 3 === 0 ? 'alpha again\n' : '');
  }
  return files;
}

/** Moves the built caches (and the helper thread's) past their one-second racy window, as a real wait of 1.1 s would. */
const settle = (): void => suite.node.pauseRacyClockForTests(1100);

interface Search {
  pattern: string;
  fixed_strings?: boolean;
  case_sensitive?: boolean;
}

function runnerOn(platform: Platform): InstanceType<Core['ToolRunner']> {
  return new suite.core.ToolRunner({ platform, tools: suite.core.BuiltinTools.all() });
}

function countsOf(result: SearchCountResult): Record<string, number> {
  return Object.fromEntries(result.counts.map(({ file_path, count }) => [file_path, count]));
}

async function count(runner: InstanceType<Core['ToolRunner']>, search: Search, mode: 'count' | 'files_with_matches' = 'count'): Promise<SearchCountResult> {
  return (await runner.execute('grep_search', { ...search, output_mode: mode, max_results: 2000 })) as SearchCountResult;
}

/** The same search on a platform made for it and disposed after. */
async function fresh(root: string, search: Search): Promise<SearchCountResult> {
  const platform = suite.node.createNodePlatform({ root });
  try {
    return await count(runnerOn(platform), search);
  } finally {
    await platform.dispose();
  }
}

/** Checks one search on the long-lived runner against a fresh platform and against ripgrep; returns its total. */
async function agrees(runner: InstanceType<Core['ToolRunner']>, root: string, search: Search): Promise<number> {
  const result = await count(runner, search);
  const baseline = await fresh(root, search);
  expect(countsOf(result)).toEqual(countsOf(baseline));
  expect(result.total_matches).toBe(baseline.total_matches);
  expect(result.files_searched).toBe(baseline.files_searched);
  expect(result.truncated).toBe(false);
  if (hasRg) expect(countsOf(result)).toEqual(rgCounts(root, search.pattern, { fixed: search.fixed_strings === true, ignoreCase: search.case_sensitive === false }));
  const files = (await runner.execute('grep_search', { ...search, output_mode: 'files_with_matches', max_results: 2000 })) as { files: string[]; total_files: number };
  expect(files.files).toEqual(result.counts.map((entry) => entry.file_path));
  return result.total_matches;
}

const ALPHA: Search = { pattern: 'alpha', fixed_strings: true };
const BETA: Search = { pattern: 'beta', fixed_strings: true };
const REQUIRE: Search = { pattern: String.raw`require\(['"]` };
const ALPHA_ANY_CASE: Search = { pattern: 'ALPHA', case_sensitive: false };

describe.each([
  ['40 files (one thread)', 40],
  ['320 files (shared with the helper thread)', 320],
])('grep_search repeated on one Node platform while files change, %s', (_label, size) => {
  const extra = Math.ceil(size / 3);

  it('answers as a fresh platform and ripgrep after same-size edits, appends, truncation, deletion, atomic replaces, symlink and folder swaps and new files', async () => {
    const root = suite.tree('repeat-change', tree(size));
    const platform = suite.node.createNodePlatform({ root });
    const runner = runnerOn(platform);
    try {
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra);
      settle();
      // Unchanged since the first search and settled: from the caches.
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra);
      const edited = join(root, 'd1/f001.txt');
      writeFileSync(edited, readFileSync(edited, 'utf8').replace('alpha', 'ALPHA'));
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra - 1);
      appendFileSync(join(root, 'd2/f002.txt'), 'alpha appended\n');
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra);
      truncateSync(join(root, 'd3/f003.txt'), 0);
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra - 2);
      unlinkSync(join(root, 'd4/f004.txt'));
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra - 3);
      // An atomic replace (write aside, rename over) that keeps the old mtime.
      const replaced = join(root, 'd0/f005.txt');
      const before = statSync(replaced);
      writeFileSync(`${replaced}.new`, readFileSync(replaced, 'utf8').replace('alpha', 'omega'));
      utimesSync(`${replaced}.new`, before.atime, before.mtime);
      renameSync(`${replaced}.new`, replaced);
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra - 4);
      // A file replaced by a symlink (not followed) and another by a folder holding a file.
      const linked = join(root, 'd1/f006.txt');
      unlinkSync(linked);
      symlinkSync(join(root, 'd0/f000.txt'), linked);
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra - 6);
      const folder = join(root, 'd2/f007.txt');
      unlinkSync(folder);
      mkdirSync(folder);
      writeFileSync(join(folder, 'inner.txt'), 'alpha inner\n');
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra - 6);
      writeFileSync(join(root, 'd3/new.txt'), 'alpha new\nalpha\n');
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra - 4);
      rmSync(join(root, 'd4'), { recursive: true });
      const gone = Object.keys(tree(size)).filter((rel) => rel.startsWith('d4/') && rel !== 'd4/f004.txt');
      const goneAlpha = gone.reduce((sum, rel) => sum + ((tree(size)[rel] as string).match(/alpha/g) ?? []).length, 0);
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra - 4 - goneAlpha);
      settle();
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra - 4 - goneAlpha);
      expect(await agrees(runner, root, BETA)).toBe(size - 4 - gone.length);
    } finally {
      await platform.dispose();
    }
  }, 60_000);

  it('remembers counts of several literals and regexes per file, and forgets them when a file changes', async () => {
    const root = suite.tree('repeat-remember', tree(size));
    const platform = suite.node.createNodePlatform({ root });
    const runner = runnerOn(platform);
    try {
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra);
      expect(await agrees(runner, root, BETA)).toBe(size);
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra);
      expect(await agrees(runner, root, REQUIRE)).toBe(size);
      expect(await agrees(runner, root, ALPHA_ANY_CASE)).toBe(size + extra);
      // Nine more literals: more than a file remembers, so the first ones are forgotten and counted again.
      for (let k = 0; k < 9; k += 1) expect(await agrees(runner, root, { pattern: `m${k}'`, fixed_strings: true })).toBe(1);
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra);
      settle();
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra);
      expect(await agrees(runner, root, BETA)).toBe(size);
      // One file changed (same literals, other counts): every remembered count of it is dropped.
      const changed = join(root, 'd1/f011.txt');
      writeFileSync(changed, 'alpha alpha\nalpha\nbeta beta\nALPHA\n');
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra + 1);
      expect(await agrees(runner, root, BETA)).toBe(size);
      expect(await agrees(runner, root, REQUIRE)).toBe(size - 1);
      expect(await agrees(runner, root, ALPHA_ANY_CASE)).toBe(size + extra + 2);
      expect(await agrees(runner, root, { pattern: "m11'", fixed_strings: true })).toBe(0);
      settle();
      expect(await agrees(runner, root, ALPHA)).toBe(size + extra + 1);
      expect(await agrees(runner, root, REQUIRE)).toBe(size - 1);
      const content = (await runner.execute('grep_search', { pattern: 'alpha', fixed_strings: true, dir_path: join(root, 'd1'), include: 'f011.txt' })) as {
        matches: Array<{ line_number: number; column: number; line: string }>;
      };
      expect(content.matches.map(({ line_number, column, line }) => [line_number, column, line])).toEqual([
        [1, 1, 'alpha alpha'],
        [2, 1, 'alpha'],
      ]);
    } finally {
      await platform.dispose();
    }
  }, 60_000);
});
