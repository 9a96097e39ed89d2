import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../core/runner.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { findFileTool } from '../tools/find-file.js';
import { grepSearchTool } from '../tools/grep-search.js';
import { boundedIgnoreRules, MAX_IGNORE_RULES } from './walk.js';
import { withTimerWatch } from '../../test/support/timer-watch.js';

/** Runs one call with a deadline, a 5 ms timer ticking beside it; returns the outcome, its duration and the longest gap between ticks. */
async function timed(runner: ToolRunner, name: string, args: Record<string, unknown>, timeoutMs: number) {
  const { value, ms, gap } = await withTimerWatch(() => runner.processToolCalls([{ name, args }], { timeoutMs }));
  return { outcome: value[0], ms, gap };
}

describe('boundedIgnoreRules', () => {
  it('drops blank lines, comments, rules with more than two ** and rules past the cap', () => {
    expect(boundedIgnoreRules('# c\n\n**/build/**\na/**/a/**/a/**/b\ndist\r\n*.log')).toEqual(['**/build/**', 'dist', '*.log']);
    const many = Array.from({ length: MAX_IGNORE_RULES + 5 }, (_, i) => `f${i}`).join('\n');
    expect(boundedIgnoreRules(many)).toHaveLength(MAX_IGNORE_RULES);
  });
});

describe('walks under hostile .gitignore files', () => {
  const deep = Array.from({ length: 120 }, () => 'a').join('/');

  it('a rule of nested ** ends within the deadline, the timer still ticking', async () => {
    const rule = Array.from({ length: 6 }, () => 'a').join('/**/') + '/**/b';
    const platform = createMemoryPlatform({ files: { '.gitignore': `${rule}\n*.log\n`, [`${deep}/x.txt`]: 'hit\n', [`${deep}/y.log`]: 'hit\n' } });
    const runner = new ToolRunner({ platform, tools: [findFileTool, grepSearchTool] });
    for (const [name, args] of [['find_file', { pattern: '*' }], ['grep_search', { pattern: 'hit' }]] as const) {
      const { outcome, ms, gap } = await timed(runner, name, args, 3000);
      expect(ms, name).toBeLessThan(3250);
      expect(gap, name).toBeLessThan(1000);
      expect(JSON.stringify(outcome), name).toContain('x.txt');
      expect(JSON.stringify(outcome), name).not.toContain('y.log');
    }
  });

  it('20 MB of rules end within the deadline, the timer still ticking, and the first rules still apply', async () => {
    const lines: string[] = ['*.log'];
    while (lines.length < 1_000_000) lines.push(`rule-${lines.length}-${'z'.repeat(8)}`);
    const text = lines.join('\n');
    expect(text.length).toBeGreaterThan(20_000_000);
    const platform = createMemoryPlatform({ files: { '.gitignore': text, 'src/x.txt': 'hit\n', 'src/y.log': 'hit\n' } });
    const runner = new ToolRunner({ platform, tools: [findFileTool] });
    const { outcome, ms, gap } = await timed(runner, 'find_file', { pattern: '*.txt' }, 3000);
    expect(ms).toBeLessThan(3250);
    expect(gap).toBeLessThan(1000);
    expect(outcome).toMatchObject({ result: { files: ['/workspace/src/x.txt'], total: 1 } });
    expect(await runner.execute('find_file', { pattern: '*.log' })).toMatchObject({ files: [], total: 0 });
  });
});
