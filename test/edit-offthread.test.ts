// edit_file on files of 100,000-400,000 lines keeps the host's event loop free: the walks over the text
// (line breaks, matches, replacements, the diff's common ends) yield every few ms, and the diff library
// and the no_match hint run on a worker thread, ended by the call's deadline. The results are the same
// as the plain algorithms give.
import { describe, expect, it } from 'vitest';
import { ToolRunner, type ToolCallResult } from '../src/runner.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { noMatchHint } from '../src/tools/edit/hint.js';
import { BuiltinTools } from '../src/tools/index.js';
import { withTimerWatch } from './support/timer-watch.js';
import { stopwatch } from './support/starvation.js';

/**
 * Longest pause of the host's event loop allowed during a call: far under what these calls held it
 * for (0.8-2.6 s), generous for a busy machine, where a thread doing nothing but its timer was seen
 * paused up to 220 ms by the scheduler alone (load 9 on 2 cores).
 */
const MAX_STALL_MS = 500;

function lines(count: number, line: (i: number) => string, eol = '\n'): string {
  return Array.from({ length: count }, (_, i) => line(i)).join(eol) + eol;
}

async function timedEdit(text: string, args: Record<string, unknown>, timeoutMs = 60_000) {
  const platform = createMemoryPlatform({ files: { 'f.txt': text } });
  const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
  const { value, ms, gap } = await withTimerWatch(() => runner.processToolCalls([{ name: 'edit_file', args: { file_path: 'f.txt', ...args } }], { timeoutMs }));
  const after = new TextDecoder().decode(await platform.fs.readFile('/workspace/f.txt'));
  return { result: value[0] as ToolCallResult, ms, gap, after };
}

describe('edit_file on large files keeps the event loop free', () => {
  it('replaces two matches on every line of a 400,000-line file (LF and CRLF) with the plain result', async () => {
    for (const eol of ['\n', '\r\n']) {
      const text = lines(400_000, (i) => `const value${i} = compute(${i}) + compute(${i + 1}); // item ${i}`, eol);
      const { result, gap, after } = await timedEdit(text, { old_string: 'compute', new_string: 'calculate', replace_all: true });
      expect(result).toEqual({
        name: 'edit_file',
        result: {
          file_path: '/workspace/f.txt',
          replacements: 800_000,
          diff: `(diff left out: the change to /workspace/f.txt spans about 400000 old and 400000 new lines, ${text.length - (eol.length - 1) * 400_000 + after.length - (eol.length - 1) * 400_000} characters; view_file the file to check it)`,
        },
      });
      expect(after === text.split('compute').join('calculate')).toBe(true);
      expect(gap, `line breaks ${JSON.stringify(eol)}`).toBeLessThan(MAX_STALL_MS);
    }
  }, 120_000);

  it('diffs a change within the diff budget off the thread (100,000 short lines, every one changed)', async () => {
    const text = lines(100_000, () => 'x = 1;');
    const { result, gap, after } = await timedEdit(text, { old_string: 'x', new_string: 'y', replace_all: true });
    // Myers' algorithm gives up on 200,000 edits at the library's 2 s budget, as it did on the calling thread.
    expect(result).toEqual({
      name: 'edit_file',
      result: { file_path: '/workspace/f.txt', replacements: 100_000, diff: '(diff left out: the change to /workspace/f.txt is too large to diff quickly; view_file the file to check it)' },
    });
    expect(after === text.replaceAll('x', 'y')).toBe(true);
    expect(gap).toBeLessThan(MAX_STALL_MS);
  }, 60_000);

  it("ends a long diff at the call's deadline with timeout and writes nothing", async () => {
    const text = lines(100_000, () => 'x = 1;');
    const started = stopwatch();
    const { result, gap, after } = await timedEdit(text, { old_string: 'x', new_string: 'y', replace_all: true }, 500);
    expect(result).toMatchObject({ code: 'timeout' });
    expect(started.net()).toBeLessThan(500 + 1000);
    expect(gap).toBeLessThan(MAX_STALL_MS);
    // The diff was still running at the deadline (it takes 2 s), so the write never happened.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(after === text).toBe(true);
  }, 60_000);

  it('gives the same no_match hint from the worker thread as on the calling thread (a 100,000-line old_string over 400,000 equal lines)', async () => {
    const text = 'x\n'.repeat(400_000);
    const needle = `${'x\n'.repeat(100_000)}y`;
    const { result, gap, after } = await timedEdit(text, { old_string: needle, new_string: 'x' });
    const { hint } = noMatchHint(text, needle, false);
    expect(result).toEqual({ name: 'edit_file', code: 'no_match', error: `old_string was not found in /workspace/f.txt. ${hint}` });
    expect(gap).toBeLessThan(MAX_STALL_MS);
    expect(after === text).toBe(true);
  }, 60_000);
});
