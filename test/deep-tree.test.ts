import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { createFileTool } from '../src/tools/create-file.js';
import { findFileTool } from '../src/tools/find-file.js';
import { grepSearchTool } from '../src/tools/grep-search.js';
import { listDirTool } from '../src/tools/list-dir.js';
import { viewFileTool } from '../src/tools/view-file.js';
import { createNodePlatform } from '../node/platform.js';
import { withTimerWatch } from './support/timer-watch.js';

const LEVELS = 2000;
const DEEP = Array.from({ length: LEVELS }, () => 'd').join('/');
const tools = [viewFileTool, createFileTool, findFileTool, grepSearchTool, listDirTool];

const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-deep-')));
let dir = base;
for (let i = 0; i < LEVELS; i += 1) {
  dir = join(dir, 'd');
  mkdirSync(dir);
}
writeFileSync(join(dir, 'x.txt'), 'hi\n');
const platforms: Array<[string, () => Platform]> = [
  ['memory', () => createMemoryPlatform({ files: { [`${DEEP}/x.txt`]: 'hi\n' } })],
  ['node', () => createNodePlatform({ root: base })],
];

// rm -rf: Node's recursive rm recurses once per level.
afterAll(() => void execFileSync('rm', ['-rf', base]));

/** One call with a deadline and a 5 ms timer beside it: the outcome, its duration and the longest gap between ticks. */
async function timed(runner: ToolRunner, name: string, args: Record<string, unknown>, timeoutMs: number) {
  const { value, ms, waited, gap } = await withTimerWatch(() => runner.processToolCalls([{ name, args }], { timeoutMs }));
  // How long the code took: the wall clock less the time a busy machine kept the process waiting.
  return { outcome: value[0], ms: ms - waited, gap };
}

describe.each(platforms)('a 2,000-level tree (%s platform)', (_name, make) => {
  it('every tool answers within its deadline, the timer still ticking', async () => {
    const platform = make();
    const runner = new ToolRunner({ platform, tools });
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['view_file', { file_path: `${DEEP}/x.txt` }, '"content":"hi"'],
      ['create_file', { file_path: `${DEEP}/y.txt`, content: 'new\n' }, '"created":true'],
      ['list_dir', { dir_path: DEEP }, '"name":"x.txt"'],
      ['find_file', { pattern: 'x.txt' }, '/d/x.txt"'],
      ['grep_search', { pattern: 'hi' }, '"line":"hi"'],
    ];
    for (const [name, args, expected] of calls) {
      const { outcome, ms, gap } = await timed(runner, name, args, 10_000);
      expect(ms, name).toBeLessThan(10_250);
      expect(gap, name).toBeLessThan(1000);
      expect(JSON.stringify(outcome), name).toContain(expected);
    }
    await platform.dispose?.();
  });

  it('a deadline shorter than the resolution still fires on time', async () => {
    const platform = make();
    const runner = new ToolRunner({ platform, tools });
    const { outcome, ms } = await timed(runner, 'view_file', { file_path: `${DEEP}/x.txt` }, 100);
    expect(ms).toBeLessThan(350);
    expect(JSON.stringify(outcome)).toMatch(/"content":"hi"|"code":"timeout"/);
    await platform.dispose?.();
  });
});
