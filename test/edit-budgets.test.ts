// edit_file on inputs built to make naive algorithms quadratic or huge: each call ends within its
// deadline with a bounded result, the thread keeps running timers, and memory stays bounded.
import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { BuiltinTools } from '../src/tools/index.js';
import { withTimerWatch } from './support/timer-watch.js';

const DEADLINE_MS = 5000;

/**
 * The 10-million-replacement edit's deadline: a quadratic replace_all over 21 MB would take hours, so
 * a minute tells linear from quadratic without guessing how fast a busy machine copies 31 MB.
 */
const BIG_DEADLINE_MS = 60_000;

async function timedEdit(files: Record<string, string>, args: Record<string, unknown>, deadlineMs = DEADLINE_MS) {
  const runner = new ToolRunner({ platform: createMemoryPlatform({ files }), tools: BuiltinTools.all() });
  const { value, ms, waited, gap } = await withTimerWatch(() => runner.processToolCalls([{ name: 'edit_file', args }], { timeoutMs: deadlineMs }));
  // How long the code took: the wall clock less the time a busy machine kept the process waiting.
  return { result: value[0], elapsed: ms - waited, longestGap: gap, runner };
}

describe('edit_file on hostile inputs', () => {
  it("replaces every ';' of a 200 KB minified line with ';\\n' in linear time", async () => {
    const { result, elapsed, longestGap, runner } = await timedEdit({ 'min.js': 'x=1;'.repeat(50_000) }, { file_path: 'min.js', old_string: ';', new_string: ';\n', replace_all: true });
    expect(result).toMatchObject({ name: 'edit_file', result: { file_path: '/workspace/min.js', replacements: 50_000 } });
    expect(elapsed).toBeLessThan(DEADLINE_MS + 250);
    expect(longestGap).toBeLessThan(1000);
    const view = (await runner.execute('view_file', { file_path: 'min.js', start_line: 49_999 })) as { content: string; total_lines: number };
    expect(view).toMatchObject({ total_lines: 50_000, content: 'x=1;\nx=1;' });
  });

  it('gives the no_match hint for a 100,000-line old_string over 200,000 equal lines in linear time', async () => {
    const { result, elapsed, longestGap } = await timedEdit({ 'same.txt': 'x\n'.repeat(200_000) }, { file_path: 'same.txt', old_string: `${'x\n'.repeat(100_000)}y`, new_string: 'z' });
    expect(result).toMatchObject({ code: 'no_match' });
    expect((result as { error: string }).error).toContain('Line 1 matches the start of old_string, but line 100001 differs');
    expect(elapsed).toBeLessThan(DEADLINE_MS + 250);
    expect(longestGap).toBeLessThan(1000);
  });

  it('replaces 10 million matches in a 21 MB one-line file with bounded memory and a summarised diff', async () => {
    const before = process.memoryUsage().rss;
    // 31.5 MB once edited: within the 32 MiB edit_file edits, and so writes.
    const { result, elapsed } = await timedEdit({ 'big.js': 'a;'.repeat(10_500_000) }, { file_path: 'big.js', old_string: ';', new_string: ';\n', replace_all: true }, BIG_DEADLINE_MS);
    expect(result).toMatchObject({ result: { replacements: 10_500_000 } });
    expect((result as { result: { diff: string } }).result.diff).toMatch(/^\(diff left out: the change to \/workspace\/big\.js spans about 1 old and 10500000 new lines/);
    expect(elapsed).toBeLessThan(BIG_DEADLINE_MS + 250);
    expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 * 1024);
  }, BIG_DEADLINE_MS + 10_000);

  it('refuses 10 million matches that would take a 31 MB file over 32 MiB, before building the new text', async () => {
    const before = process.memoryUsage().rss;
    const { result, elapsed, runner } = await timedEdit({ 'big.js': 'ab;'.repeat(10_500_000) }, { file_path: 'big.js', old_string: ';', new_string: ';\n', replace_all: true }, BIG_DEADLINE_MS);
    expect(result).toMatchObject({ code: 'too_large' });
    expect((result as { error: string }).error).toMatch(/^\/workspace\/big\.js would be 40\.1 MiB \(42000000 bytes\) after the edit; edit_file edits files up to 32 MiB: /);
    expect((await runner.platform.fs.stat('/workspace/big.js')).size).toBe(31_500_000);
    expect(elapsed).toBeLessThan(BIG_DEADLINE_MS + 250);
    expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 * 1024);
  }, BIG_DEADLINE_MS + 10_000);
});
