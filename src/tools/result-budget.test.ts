import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../runner.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { findFileTool } from './find-file.js';
import { grepSearchTool } from './grep-search.js';
import { listDirTool } from './list-dir.js';
import { fitResult, joinNotes, RESULT_MAX_CHARS } from './result-budget.js';
import { fitSearchResult } from './search-note.js';
import { searchDirTool } from './search-dir.js';

const DIR = `${'long-folder-name-'.repeat(12)}x`; // 205 characters
const size = (value: unknown): number => JSON.stringify(value).length;

function longTree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10_000; i += 1) {
    files[`${DIR}/${DIR}/${DIR}/file-${String(i).padStart(5, '0')}-${'n'.repeat(150)}.txt`] = `needle ${'x'.repeat(3000)}\n`;
  }
  return files;
}

describe('fitResult', () => {
  it('keeps the longest prefix that fits and says how many were left out', () => {
    const result = fitResult({ items: ['aaaa', 'bbbb', 'cccc'], truncated: false }, 'items', 'items', 'ask for fewer', 645);
    expect(result).toEqual({
      items: ['aaaa', 'bbbb'],
      truncated: true,
      note: 'Showing 2 of 3 items: the result is capped at 645 characters; ask for fewer.',
    });
  });

  it('leaves a result that fits untouched and appends to an existing note', () => {
    expect(fitResult({ items: [1, 2], truncated: false }, 'items', 'items', 'x')).toEqual({ items: [1, 2], truncated: false });
    expect(fitResult({ items: ['a'.repeat(100)], truncated: true, note: 'Stopped.' }, 'items', 'lines', 'narrow it', 700).note).toBe(
      'Stopped. Showing 0 of 1 lines: the result is capped at 700 characters; narrow it.',
    );
    expect(fitResult({ items: ['a'.repeat(100)], truncated: true, note: 'the walk stopped: raise max_time_ms' }, 'items', 'lines', 'narrow it', 700).note).toBe(
      'the walk stopped: raise max_time_ms. Showing 0 of 1 lines: the result is capped at 700 characters; narrow it.',
    );
  });
});

describe('joinNotes', () => {
  it('joins notes as separate sentences, adding a full stop only where the first has none', () => {
    expect(joinNotes(undefined, 'Showing 1 of 2 files.')).toBe('Showing 1 of 2 files.');
    expect(joinNotes('', 'Showing 1 of 2 files.')).toBe('Showing 1 of 2 files.');
    expect(joinNotes('or raise max_time_ms', 'Showing 1 of 2 files.')).toBe('or raise max_time_ms. Showing 1 of 2 files.');
    expect(joinNotes('Stopped.', 'Next.')).toBe('Stopped. Next.');
    expect(joinNotes('Really?', 'Next.')).toBe('Really? Next.');
  });

  it('keeps a time-limit note without a full stop apart from the max_results note grep_search adds after it', () => {
    const result = fitSearchResult(
      { matches: [{ file_path: '/w/a', line_number: 1, column: 1, line: 'x' }], total_matches: 8016, truncated: true, files_searched: 1, binary_files_skipped: 0, note: 'the search stopped: raise max_time_ms' },
      { maxResults: 1, narrow: 'narrow the pattern, dir_path or include' },
    );
    expect(result.note).toBe(
      'the search stopped: raise max_time_ms. Showing 1 of 8016 matching lines (max_results is 1): raise max_results (at most 2000), or narrow the pattern, dir_path or include.',
    );
  });
});

describe('result budget of the listing and search tools', () => {
  const platform = createMemoryPlatform({ files: longTree() });
  const runner = new ToolRunner({ platform, tools: [findFileTool, grepSearchTool, searchDirTool, listDirTool] });

  it('find_file of 10,000 long paths stays under the budget with a note', async () => {
    const result = (await runner.execute('find_file', { pattern: '*.txt', max_results: 10_000 })) as { files: string[]; total: number; truncated: boolean; note: string };
    expect(size(result)).toBeLessThanOrEqual(RESULT_MAX_CHARS);
    expect(result.total).toBe(10_000);
    expect(result.truncated).toBe(true);
    expect(result.files.length).toBe(124);
    expect(result.note).toBe('Showing 124 of 10000 paths: the result is capped at 100000 characters; narrow the pattern or dir_path to see the others.');
  });

  it('grep_search and search_dir of 10,000 long matching lines stay under the budget with a note', async () => {
    for (const [name, args] of [
      ['grep_search', { pattern: 'needle', max_results: 2000 }],
      ['search_dir', { query: 'needle', max_results: 2000 }],
    ] as const) {
      const result = (await runner.execute(name, args)) as { matches: unknown[]; total_matches: number; truncated: boolean; note: string };
      expect(size(result), name).toBeLessThanOrEqual(RESULT_MAX_CHARS);
      expect(result.total_matches, name).toBe(10_000);
      expect(result.truncated, name).toBe(true);
      expect(result.matches.length, name).toBeGreaterThan(0);
      expect(result.note, name).toMatch(/^Showing \d+ of \d+ matching lines: the result is capped at 100000 characters; narrow/);
    }
    const files = (await runner.execute('grep_search', { pattern: 'needle', output_mode: 'files_with_matches', max_results: 2000 })) as { files: string[]; note: string };
    expect(size(files)).toBeLessThanOrEqual(RESULT_MAX_CHARS);
    // Of total_files (10,000 matching files), not of the 2,000 that max_results let through.
    expect(files.note).toMatch(/^Showing \d+ of 10000 files: the result is capped at 100000 characters; narrow the pattern, dir_path or include, or use output_mode "count" /);
  });

  it('list_dir of a folder of long names stays under the budget with a note', async () => {
    const names: Record<string, string> = {};
    for (let i = 0; i < 1500; i += 1) names[`big/${String(i).padStart(4, '0')}-${'y'.repeat(240)}`] = '';
    const big = new ToolRunner({ platform: createMemoryPlatform({ files: names }), tools: [listDirTool] });
    const result = (await big.execute('list_dir', { dir_path: 'big' })) as { entries: unknown[]; total_entries: number; note: string };
    expect(size(result)).toBeLessThanOrEqual(RESULT_MAX_CHARS);
    expect(result.total_entries).toBe(1500);
    expect(result.note).toMatch(/^Showing the first 1000 of 1500 entries; use find_file with a pattern to find the others\. Showing \d+ of 1000 entries: the result is capped at 100000 characters; /);
  });
});
