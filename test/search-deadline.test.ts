import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { grepSearchTool, type SearchContentResult } from '../src/tools/grep-search.js';
import { MAX_SEARCH_TIME_MS } from '../src/search/line-search.js';
import { findFileTool } from '../src/tools/find-file.js';
import { searchDirTool } from '../src/tools/search-dir.js';
import { createNodePlatform } from '../node/platform.js';
import { outsideStarvation } from './support/starvation.js';

/** 4,000 files of 120 lines of 120 characters (about 58 MB), every line matching the slow pattern at its end. */
const FILES = 4000;

function bigTree(): Record<string, string> {
  const files: Record<string, string> = {};
  const line = `${'a'.repeat(60)}${'ab'.repeat(29)}x\n`;
  for (let i = 0; i < FILES; i += 1) files[`d${String(i % 30).padStart(2, '0')}/f${String(i).padStart(4, '0')}.txt`] = line.repeat(120);
  return files;
}

/** A pattern re2js runs line by line (no literal, nested repetition): slow enough that the whole tree takes seconds. */
const SLOW = '(a|b)*(ab)+x';
const NOTE = /^the search stopped at its time limit \(\d+ ms, 80 % of what was left of the call's deadline\) (after \d+ of \d+ files; the results cover those files only|while listing files, after \d+ of the \d+ files listed so far; the results cover those files only|while listing files, before it had listed any; no file was searched): narrow dir_path or include, or use a simpler pattern\.$/;

/** What grep_search adds to the time-limit note when `max_results` (100) also left some of what was found out. */
function cutNote(shown: number, total: number, what: 'files' | 'matching lines'): string {
  if (shown >= total) return '';
  const summary = what === 'files' ? 'or narrow the pattern, dir_path or include' : 'narrow the pattern, dir_path or include, or use output_mode "count" for the number of matching lines per file';
  return ` Showing ${shown} of ${total} ${what} (max_results is 100): raise max_results (at most 2000), ${summary}.`;
}

let base: string;
let node: Platform;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-deadline-')));
  for (const [path, text] of Object.entries(bigTree())) {
    await mkdir(join(base, path, '..'), { recursive: true });
    await writeFile(join(base, path), text);
  }
  node = createNodePlatform({ root: base });
});

afterAll(async () => {
  await node?.dispose();
  await rm(base, { recursive: true, force: true });
});

describe('a search under a call deadline', () => {
  for (const [name, platform] of [
    ['the memory platform', () => createMemoryPlatform({ files: bigTree() })],
    ['the Node platform on a real folder', () => node],
  ] as const) {
    it(`answers with partial results and a note at a 300 ms deadline, not timeout, on ${name}`, async () => {
      const runner = new ToolRunner({ platform: platform(), tools: [grepSearchTool, searchDirTool] });
      // The search answers at 80 % of the deadline: a run in which a busy machine kept the process waiting
      // for more than the other 20 % (60 ms) may meet the deadline first, so such runs are repeated.
      const { value: [result], ms, waited, starved } = await outsideStarvation(60, () =>
        runner.processToolCalls([{ name: 'grep_search', args: { pattern: SLOW, output_mode: 'count' } }], { timeoutMs: 300 }),
      );
      expect(ms - waited).toBeLessThan(300 + 250);
      const value = (result as { result?: { truncated: boolean; note?: string; total_files: number; counts: unknown[] } }).result;
      if (value === undefined) {
        // Only when five runs in a row lost the margin to the machine may the deadline come first.
        expect(starved).toBe(true);
        expect(result).toMatchObject({ code: 'timeout' });
      } else {
        expect(value.truncated).toBe(true);
        const cut = cutNote(value.counts.length, value.total_files, 'files');
        expect(value.note?.endsWith(cut)).toBe(true);
        expect(value.note?.slice(0, (value.note?.length ?? 0) - cut.length)).toMatch(NOTE);
        expect(value.total_files).toBeLessThan(FILES);
      }
      // Without a deadline the same search covers every file (given the longest time limit, which even a
      // busy machine does not reach).
      // (1,000 paths stay under the 100,000-character cap of a result wherever the temporary folder is.)
      const full = (await runner.execute('grep_search', { pattern: SLOW, output_mode: 'files_with_matches', max_results: 1000, max_time_ms: MAX_SEARCH_TIME_MS })) as { total_files: number; note?: string };
      expect(full).toMatchObject({ total_files: FILES });
      // No time-limit note; only max_results (1,000 of the 4,000 files) left files out.
      expect(full.note).toBe(
        'Showing 1000 of 4000 files (max_results is 1000): raise max_results (at most 2000), narrow the pattern, dir_path or include, or use output_mode "count" for the number of matching lines per file.',
      );
    });
  }

  it('keeps max_time_ms and its note when it is below the share of the deadline', async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: bigTree() }), tools: [grepSearchTool] });
    const [result] = await runner.processToolCalls([{ name: 'grep_search', args: { pattern: SLOW, max_time_ms: 50 } }], { timeoutMs: 5000 });
    const value = (result as { result?: SearchContentResult }).result;
    expect(value?.truncated).toBe(true);
    const cut = cutNote(value?.matches.length ?? 0, value?.total_matches ?? 0, 'matching lines');
    expect(value?.note?.endsWith(cut)).toBe(true);
    expect(value?.note?.slice(0, (value?.note?.length ?? 0) - cut.length)).toMatch(
      // (On a busy machine 50 ms can pass while the files are still being listed.)
      /^the search stopped at its time limit \(50 ms\) (after \d+ of 4000 files|while listing files, after \d+ of the \d+ files listed so far); .*or raise max_time_ms\.$/,
    );
  });

  it('stops a slow walk at the share of the deadline: find_file, grep_search and search_dir answer with what they listed', async () => {
    const base = createMemoryPlatform({ files: bigTree() });
    // Every directory listing takes 30 ms (a slow disk): the 31 directories take about a second.
    const readdir = (async (path: string, options?: { withFileTypes: true }) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return options ? base.fs.readdir(path, options) : base.fs.readdir(path);
    }) as typeof base.fs.readdir;
    const platform = { ...base, fs: { ...base.fs, readdir }, search: undefined, changeCount: undefined };
    const runner = new ToolRunner({ platform, tools: [findFileTool, grepSearchTool, searchDirTool] });
    for (const call of [
      { name: 'find_file', args: { pattern: '*.txt' } },
      { name: 'grep_search', args: { pattern: 'x', fixed_strings: true, output_mode: 'files_with_matches' } },
      { name: 'search_dir', args: { query: 'x' } },
    ]) {
      // As above: runs in which the machine took the last 20 % of the deadline are repeated.
      const { value: [result], ms, waited, starved } = await outsideStarvation(60, () => runner.processToolCalls([call], { timeoutMs: 300 }));
      expect(ms - waited, call.name).toBeLessThan(300 + 250);
      const value = (result as { result?: { truncated: boolean; note?: string; total?: number; total_files?: number; files_searched?: number } }).result;
      if (value === undefined) {
        expect(starved, call.name).toBe(true);
        expect(result, call.name).toMatchObject({ code: 'timeout' });
        continue;
      }
      expect(value.truncated, call.name).toBe(true);
      expect(value.total ?? value.files_searched, call.name).toBeLessThan(FILES);
      // More than max_results (500) found before the stop: max_results' note follows the time limit's.
      const total = value.total ?? 0;
      const cut = call.name === 'find_file' && total > 500 ? `. Showing 500 of ${total} paths (max_results is 500): raise max_results (at most 10000), or narrow the pattern or dir_path.` : '';
      expect(value.note?.endsWith(cut), call.name).toBe(true);
      expect(value.note?.slice(0, (value.note?.length ?? 0) - cut.length), call.name).toMatch(
        call.name === 'find_file'
          ? /^the search stopped at its time limit \(\d+ ms, 80 % of what was left of the call's deadline\) after (1 directory|\d+ directories); the results cover those only: narrow dir_path or the pattern$/
          : /^the search stopped at its time limit \(\d+ ms, 80 % of what was left of the call's deadline\) while listing files, (after \d+ of the \d+ files listed so far; the results cover those files only|before it had listed any; no file was searched): narrow dir_path or include, or use a simpler pattern\.$/,
      );
    }
  });
});
