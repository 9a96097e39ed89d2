import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { grepSearchTool } from '../src/tools/grep-search.js';
import { MAX_SEARCH_TIME_MS } from '../src/search/line-search.js';
import { createNodePlatform } from './platform.js';
import { stopwatch } from '../test/support/starvation.js';

const MiB = 1024 * 1024;
const FILES = 600;
const DEADLINE_MS = 60_000;
/** 100 KiB of short lines, every one containing `a`. */
const CONTENT = 'a quick line of text\n'.repeat(Math.ceil((100 * 1024) / 21)).slice(0, 100 * 1024);

let base: string;
let platform: Platform;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-big-tree-')));
  for (let d = 0; d < 20; d += 1) {
    await mkdir(join(base, `dir${d}`));
    for (let f = 0; f < FILES / 20; f += 1) await writeFile(join(base, `dir${d}`, `file${f}.txt`), CONTENT);
  }
  platform = createNodePlatform({ root: base });
}, 60_000);

afterAll(async () => {
  await platform?.dispose();
  await rm(base, { recursive: true, force: true });
});

describe('grep_search over a 60 MB tree on a real folder (Node)', () => {
  it.each(['content', 'count'] as const)('answers %s mode within its deadline with a bounded result and memory', async (mode) => {
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    global.gc?.();
    const start = process.memoryUsage().rss;
    const started = stopwatch();
    // A deadline far above the search's time on an idle machine (about a second), and the search's
    // longest time limit instead of its default 10 s, so that a busy one still searches every file: the
    // call must end within it, with the whole tree counted.
    const [call] = await runner.processToolCalls([{ name: 'grep_search', args: { pattern: 'a', output_mode: mode, max_time_ms: MAX_SEARCH_TIME_MS } }], { timeoutMs: DEADLINE_MS });
    const elapsed = started.net();
    const rise = Math.max(0, process.resourceUsage().maxRSS * 1024 - start);
    expect(elapsed).toBeLessThan(DEADLINE_MS + 250);
    expect(call).not.toHaveProperty('error');
    const result = (call as { result?: unknown }).result as { total_matches?: number; truncated?: boolean; matches?: unknown[]; counts?: unknown[]; files_searched?: number };
    expect(JSON.stringify(result).length).toBeLessThanOrEqual(100_000);
    const lines = FILES * CONTENT.split('\n').filter((line) => line.includes('a')).length;
    const listed = mode === 'content' ? result.matches : result.counts;
    expect({ listed: listed?.length, total_matches: result.total_matches, truncated: result.truncated, files_searched: result.files_searched }).toEqual({
      listed: 100,
      total_matches: lines,
      truncated: true,
      files_searched: FILES,
    });
    expect(rise).toBeLessThan(512 * MiB);
  }, DEADLINE_MS + 10_000);
});
