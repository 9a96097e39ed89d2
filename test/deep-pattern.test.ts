import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRunner, type ToolCallFailure } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { findFileTool } from '../src/tools/find-file.js';
import { grepSearchTool } from '../src/tools/grep-search.js';
import { searchDirTool } from '../src/tools/search-dir.js';
import { createNodePlatform } from '../node/platform.js';

const FILES = { 'a.txt': 'a\nb\nxyz\n', 'b.txt': 'no\n' };
const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-deep-pattern-')));
for (const [name, content] of Object.entries(FILES)) writeFileSync(join(base, name), content);
const many = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-deep-pattern-many-')));
for (let i = 0; i < 300; i += 1) writeFileSync(join(many, `f${String(i).padStart(3, '0')}.txt`), i % 3 === 0 ? 'a\n' : 'b\n');
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync(many, { recursive: true, force: true });
});

const platforms: Array<[string, () => Platform, string]> = [
  ['memory', () => createMemoryPlatform({ files: FILES }), '/workspace'],
  ['node', () => createNodePlatform({ root: base }), base],
];

const nest = (open: string, middle: string, close: string, n: number): string => open.repeat(n) + middle + close.repeat(n);

/**
 * Patterns nested `n` deep, each matching line 1 of a.txt (`a`) and nothing else, with the most
 * levels each may have: 1,000 groups, or as many as keep RE2's height (each alternation, sequence and
 * repetition inside another is a level) at 1,000.
 */
const SHAPES: Array<[string, (n: number) => string, number]> = [
  ['plain groups', (n) => nest('(', 'a', ')', n), 1000],
  ['non-capturing groups', (n) => nest('(?:', 'a', ')', n), 1000],
  ['alternations in groups', (n) => nest('(q|', 'a', ')', n), 1000],
  ['case-insensitive groups', (n) => nest('(?i:', 'A', ')', n), 1000],
  ['named groups', (n) => Array.from({ length: n }, (_, i) => `(?P<g${i}>`).join('') + 'a' + ')'.repeat(n), 1000],
  ['repeated groups', (n) => nest('(', 'a', ')+', n), 999],
  ['sequences in alternations', (n) => nest('(xq|y?', 'a', ')', n), 499],
];

const MODES = ['content', 'count', 'files_with_matches'] as const;

function expected(root: string, mode: (typeof MODES)[number]): Record<string, unknown> {
  if (mode === 'content') return { matches: [{ file_path: `${root}/a.txt`, line_number: 1, line: 'a' }], total_matches: 1 };
  if (mode === 'count') return { counts: [{ file_path: `${root}/a.txt`, count: 1 }], total_matches: 1 };
  return { files: [`${root}/a.txt`], total_files: 1 };
}

const TOO_DEEP =
  /^pattern .{200}… \(\d+ more characters\) nests more than 1000 levels deep \(groups, alternations and repetitions inside one another\), the most RE2 allows; write a flatter pattern \(drop groups that only wrap one item, or list alternatives side by side as a\|b\|c instead of nesting them\)$/;

describe.each(platforms)('grep_search with deeply nested patterns (%s platform)', (_name, make, root) => {
  const platform = make();
  const runner = new ToolRunner({ platform, tools: [grepSearchTool, searchDirTool, findFileTool] });
  afterAll(() => platform.dispose?.());

  it.each(SHAPES)('runs %s at the deepest level allowed in every output mode, either case', async (_shape, build, levels) => {
    for (const mode of MODES) {
      for (const case_sensitive of [true, false]) {
        const [outcome] = await runner.processToolCalls([{ name: 'grep_search', args: { pattern: build(levels), output_mode: mode, case_sensitive } }], { timeoutMs: 20_000 });
        expect(outcome, `${mode} case_sensitive=${case_sensitive}`).toMatchObject({ result: expected(root, mode) });
      }
    }
  });

  it.each(SHAPES)('refuses %s one level deeper with invalid_pattern naming the limit', async (_shape, build, levels) => {
    for (const mode of MODES) {
      const [outcome] = (await runner.processToolCalls([{ name: 'grep_search', args: { pattern: build(levels + 1), output_mode: mode } }])) as ToolCallFailure[];
      expect(outcome?.code).toBe('invalid_pattern');
      expect(outcome?.error).toMatch(TOO_DEEP);
    }
  });

  it('refuses 5,000 groups and 3,000 nested alternations, as the tester sent them, without overflowing the stack', async () => {
    for (const pattern of [nest('(', 'a', ')', 5000), nest('(a|', 'b', ')', 3000)]) {
      for (const mode of MODES) {
        const [outcome] = (await runner.processToolCalls([{ name: 'grep_search', args: { pattern, output_mode: mode } }])) as ToolCallFailure[];
        expect(outcome?.code).toBe('invalid_pattern');
        expect(outcome?.error).toMatch(TOO_DEEP);
      }
    }
  });
});

describe('grep_search with deeply nested patterns, counted with the Node search helper thread', () => {
  it.each(SHAPES)('counts %s at the deepest level allowed over 300 files', async (_shape, build, levels) => {
    const platform = createNodePlatform({ root: many });
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    for (const mode of ['count', 'files_with_matches'] as const) {
      const [outcome] = await runner.processToolCalls([{ name: 'grep_search', args: { pattern: build(levels), output_mode: mode, max_results: 2000 } }], { timeoutMs: 20_000 });
      expect(outcome, mode).toMatchObject({ result: { total_files: 100, total_matches: 100, files_searched: 300 } });
    }
    await platform.dispose?.();
  });
});
