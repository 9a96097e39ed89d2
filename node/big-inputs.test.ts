import { open, mkdtemp, realpath, rm, truncate, writeFile, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { createFileTool } from '../src/tools/create-file.js';
import { viewFileTool } from '../src/tools/view-file.js';
import { createNodePlatform } from './platform.js';
import { withTimerWatch } from '../test/support/timer-watch.js';

const MiB = 1024 * 1024;
const PEAK_LIMIT = 512 * MiB;

let base: string;
let platform: Platform;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-big-')));
  platform = createNodePlatform({ root: base });
});

afterAll(async () => {
  await platform?.dispose();
  await rm(base, { recursive: true, force: true });
});

/** Runs `work` and returns its result with how far the process's peak RSS rose above the RSS at the start, in bytes. */
async function peakRise<T>(work: () => Promise<T>): Promise<{ value: T; rise: number }> {
  global.gc?.();
  const start = process.memoryUsage().rss;
  const value = await work();
  const peak = process.resourceUsage().maxRSS * 1024;
  return { value, rise: Math.max(0, peak - start) };
}

describe('big inputs on a real folder (Node)', () => {
  it('view_file serves a 200 MB one-line file as an excerpt for under 5 s of CPU time, streaming it', async () => {
    const path = join(base, 'one-line.txt');
    const handle = await open(path, 'w');
    const chunk = Buffer.alloc(MiB, 'a');
    for (let i = 0; i < 200; i += 1) await handle.write(chunk);
    await handle.close();
    const runner = new ToolRunner({ platform, tools: [viewFileTool] });
    const { value: { value, rise }, cpu } = await withTimerWatch(() => peakRise(() => runner.processToolCalls([{ name: 'view_file', args: { file_path: 'one-line.txt' } }], { timeoutMs: 60_000 })));
    expect(cpu).toBeLessThan(5000);
    expect(value[0]).toMatchObject({ result: { content: `${'a'.repeat(2000)}… [${200 * MiB - 2000} characters cut]`, total_lines: 1, lines_cut: 1 } });
    expect(rise).toBeLessThan(PEAK_LIMIT);
  });

  it('create_file overwrites a sparse 1.9 GB file for under 5 s of CPU time without reading the old content', async () => {
    const path = join(base, 'sparse.bin');
    await writeFile(path, '');
    await truncate(path, 1900 * 1000 * 1000);
    const runner = new ToolRunner({ platform, tools: [createFileTool] });
    const { value: { value, rise }, cpu } = await withTimerWatch(() => peakRise(() =>
      runner.processToolCalls([{ name: 'create_file', args: { file_path: 'sparse.bin', content: 'small\n', overwrite: true } }], { timeoutMs: 60_000 }),
    ));
    expect(cpu).toBeLessThan(5000);
    expect(value[0]).toMatchObject({ result: { bytes_written: 6, created: false } });
    expect(await readFile(path, 'utf8')).toBe('small\n');
    expect(rise).toBeLessThan(PEAK_LIMIT);
  });

  it('create_file refuses a viewed file grown to a sparse 1.9 GB as stale_file from its size alone', async () => {
    const path = join(base, 'grown.txt');
    await writeFile(path, 'v1\n');
    const runner = new ToolRunner({ platform, tools: [createFileTool, viewFileTool] });
    expect(await runner.execute('view_file', { file_path: 'grown.txt' })).toMatchObject({ content: 'v1' });
    await truncate(path, 1900 * 1000 * 1000);
    const { value: { value, rise }, cpu } = await withTimerWatch(() => peakRise(() =>
      runner.processToolCalls([{ name: 'create_file', args: { file_path: 'grown.txt', content: 'v2\n', overwrite: true } }], { timeoutMs: 60_000 }),
    ));
    expect(cpu).toBeLessThan(5000);
    expect(value[0]).toMatchObject({ code: 'stale_file' });
    expect((await stat(path)).size).toBe(1900 * 1000 * 1000);
    expect(rise).toBeLessThan(PEAK_LIMIT);
  });
});
