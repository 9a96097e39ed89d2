import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../runner.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { findFileTool } from '../tools/find-file.js';
import { grepSearchTool } from '../tools/grep-search.js';
import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodePlatform } from '../../node/platform.js';
import { boundedIgnoreRules, boundIgnoreRules } from './ignore.js';
import { MAX_IGNORE_RULES } from './walk-report.js';
import { withTimerWatch } from '../../test/support/timer-watch.js';

/**
 * Runs one call with a deadline, a 5 ms timer ticking beside it; returns the outcome, the longest
 * stretch the thread was held between ticks, and the CPU time the call cost (ms). Hostile rules must
 * cost little CPU: a busy machine stretches the wall clock, not that, and the deadline is long enough
 * that such a machine still gets the whole answer.
 */
async function timed(runner: ToolRunner, name: string, args: Record<string, unknown>, timeoutMs = 60_000) {
  const { value, gap, cpu } = await withTimerWatch(() => runner.processToolCalls([{ name, args }], { timeoutMs }));
  return { outcome: value[0], gap, cpu };
}

describe('boundedIgnoreRules', () => {
  it('drops blank lines, comments, rules with more than two ** and rules past the cap', () => {
    expect(boundedIgnoreRules('# c\n\n**/build/**\na/**/a/**/a/**/b\ndist\r\n*.log')).toEqual(['**/build/**', 'dist', '*.log']);
    const many = Array.from({ length: MAX_IGNORE_RULES + 5 }, (_, i) => `f${i}`).join('\n');
    expect(boundedIgnoreRules(many)).toHaveLength(MAX_IGNORE_RULES);
  });

  it('counts what it leaves out, by reason', () => {
    const many = Array.from({ length: MAX_IGNORE_RULES + 5 }, (_, i) => `f${i}`).join('\n');
    const text = `a/**/b/**/c/**/d\n${'x'.repeat(4097)}\n# comment\n\n${many}`;
    const bounded = boundIgnoreRules(text);
    expect([bounded.rules.length, bounded.pastCap, bounded.globstars, bounded.tooLong]).toEqual([MAX_IGNORE_RULES, 5, 1, 1]);
  });
});

const KEEP = 'Keep a .gitignore under 1048576 bytes and 10000 rules, each rule under 4096 characters with at most two **.';

/** 20 MB of rules, `*.log` first, and the note a walk over it gives (counted here from the text). */
function twentyMegabytes(file: string): { text: string; note: string } {
  const lines: string[] = ['*.log'];
  while (lines.length < 1_000_000) lines.push(`rule-${lines.length}-${'z'.repeat(8)}`);
  const text = lines.join('\n');
  const head = text.slice(0, 1024 * 1024);
  const read = head.slice(0, head.lastIndexOf('\n') + 1).split('\n').filter((line) => line !== '').length;
  const note =
    `Some .gitignore rules were not applied, so files they would ignore may be included: ${file} (${text.length} bytes, only the first 1048576 read; ` +
    `${read - MAX_IGNORE_RULES} rules past the first 10000 left out). ${KEEP}`;
  return { text, note };
}

describe('walks under hostile .gitignore files', () => {
  const deep = Array.from({ length: 120 }, () => 'a').join('/');

  it('a rule of nested ** costs under 3 s of CPU time, the timer still ticking', async () => {
    const rule = Array.from({ length: 6 }, () => 'a').join('/**/') + '/**/b';
    const platform = createMemoryPlatform({ files: { '.gitignore': `${rule}\n*.log\n`, [`${deep}/x.txt`]: 'hit\n', [`${deep}/y.log`]: 'hit\n' } });
    const runner = new ToolRunner({ platform, tools: [findFileTool, grepSearchTool] });
    for (const [name, args] of [['find_file', { pattern: '*' }], ['grep_search', { pattern: 'hit' }]] as const) {
      const { outcome, cpu, gap } = await timed(runner, name, args);
      expect(cpu, name).toBeLessThan(3000);
      expect(gap, name).toBeLessThan(1000);
      expect(JSON.stringify(outcome), name).toContain('x.txt');
      expect(JSON.stringify(outcome), name).not.toContain('y.log');
      expect((outcome as { result: { note?: string } }).result.note, name).toBe(
        `Some .gitignore rules were not applied, so files they would ignore may be included: /workspace/.gitignore (1 rule with more than two ** left out). ${KEEP}`,
      );
    }
  });

  // 20 MB of rules cost what the first mebibyte costs (under a second of CPU time on an idle machine).
  it('20 MB of rules cost under 3 s of CPU time, the timer still ticking, and the first rules still apply', async () => {
    const { text, note } = twentyMegabytes('/workspace/.gitignore');
    expect(text.length).toBeGreaterThan(20_000_000);
    const platform = createMemoryPlatform({ files: { '.gitignore': text, 'src/x.txt': 'hit\n', 'src/y.log': 'hit\n' } });
    const runner = new ToolRunner({ platform, tools: [findFileTool] });
    const { outcome, cpu, gap } = await timed(runner, 'find_file', { pattern: '*.txt' });
    expect(cpu).toBeLessThan(3000);
    expect(gap).toBeLessThan(1000);
    expect(outcome).toEqual({ name: 'find_file', result: { files: ['/workspace/src/x.txt'], total: 1, truncated: false, note } });
    expect(await runner.execute('find_file', { pattern: '*.log' })).toEqual({ files: [], total: 0, truncated: false, note });
  });

  it('20 MB of rules in a real folder: find_file and grep_search cost under 3 s of CPU time each, with the exact note', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-ignore-')));
    try {
      const { text, note } = twentyMegabytes(join(root, '.gitignore'));
      writeFileSync(join(root, '.gitignore'), text);
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'src/x.txt'), 'hit\n');
      writeFileSync(join(root, 'src/y.log'), 'hit\n');
      const platform = createNodePlatform({ root });
      const runner = new ToolRunner({ platform, tools: [findFileTool, grepSearchTool] });
      const found = await timed(runner, 'find_file', { pattern: '*.txt' });
      expect(found.cpu).toBeLessThan(3000);
      expect(found.gap).toBeLessThan(1000);
      expect(found.outcome).toEqual({ name: 'find_file', result: { files: [join(root, 'src/x.txt')], total: 1, truncated: false, note } });
      const grep = await timed(runner, 'grep_search', { pattern: 'hit', output_mode: 'files_with_matches' });
      expect(grep.cpu).toBeLessThan(3000);
      expect(grep.gap).toBeLessThan(1000);
      expect(grep.outcome).toEqual({
        name: 'grep_search',
        result: { files: [join(root, 'src/x.txt')], total_files: 1, total_matches: 1, truncated: false, files_searched: 2, binary_files_skipped: 0, note },
      });
      await platform.dispose();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
