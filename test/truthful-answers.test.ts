import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BuiltinTools, ToolRunner, createMemoryPlatform, defineTool } from '../src/index.js';
import { createNodePlatform } from '../node/index.js';
import { FileStateStore } from '../node/state-store.js';
import { stopwatch } from './support/starvation.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolhost-truth-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const halfDone = defineTool({
  name: 'half_done',
  description: 'sets state, then fails in the way it is told',
  parameters: { type: 'object', properties: { how: { type: 'string' } }, required: ['how'] } as const,
  callWithContext: async ({ how }, ctx) => {
    ctx.setState('half_done', true);
    if (how === 'throw') throw new Error('failed after setState');
    return new Promise<never>(() => undefined); // hangs: the deadline or the caller's signal ends it
  },
});

describe('answers of stopped calls', () => {
  it('never answers timeout for a create_file of 20 MB whose file was written, at 40 deadlines from 5 to 200 ms', async () => {
    const root = await tempDir();
    const platform = await createNodePlatform({ root });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const content = 'y'.repeat(20_000_000);
    const outcomes = { written: 0, stopped: 0 };
    const answers: { name: string; result: unknown }[] = [];
    for (let i = 0; i < 40; i++) {
      const timeoutMs = Math.round(5 + (195 * i) / 39);
      const name = `huge-${i}.txt`;
      const [result] = await runner.processToolCalls([{ name: 'create_file', args: { file_path: name, content } }], { timeoutMs });
      answers.push({ name, result });
    }
    // A write left in flight behind a `timeout` answer would land meanwhile.
    await new Promise((r) => setTimeout(r, 3000));
    for (const { name, result } of answers) {
      const size = await stat(join(platform.root, name)).then((s) => s.size, () => null);
      if ('code' in (result as object)) {
        expect(result).toMatchObject({ code: 'timeout' });
        expect(size).toBeNull();
        outcomes.stopped++;
      } else {
        expect(result).toMatchObject({ result: { bytes_written: 20_000_000, created: true } });
        expect(size).toBe(20_000_000);
        outcomes.written++;
      }
    }
    expect(outcomes.written + outcomes.stopped).toBe(40);
    await platform.dispose();
  }, 120_000);

  it('keeps no state of a call that throws, times out or is cancelled, in memory and in the state directory', async () => {
    const stateDir = await tempDir();
    const platform = await createNodePlatform({ stateDir });
    const runner = new ToolRunner({ platform, tools: [halfDone] });
    const [thrown] = await runner.processToolCalls([{ name: 'half_done', args: { how: 'throw' } }]);
    expect(thrown).toEqual({ name: 'half_done', code: 'execution_failed', error: 'failed after setState' });
    const [late] = await runner.processToolCalls([{ name: 'half_done', args: { how: 'hang' } }], { timeoutMs: 30 });
    expect(late).toEqual({ name: 'half_done', code: 'timeout', error: 'half_done did not finish within 30 ms (this call\'s time limit); narrow the request or split the work into smaller steps' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const [stopped] = await runner.processToolCalls([{ name: 'half_done', args: { how: 'hang' } }], { signal: controller.signal });
    expect(stopped).toEqual({ name: 'half_done', code: 'cancelled', error: 'half_done was cancelled before it finished' });
    expect(await runner.getState()).toEqual({});
    expect(await new FileStateStore(stateDir).getAll('default')).toEqual({});
    await platform.dispose();
  });

  it('returns the result of a mutating call stopped after it began writing, and refuses a first write attempted after the stop', async () => {
    const root = await tempDir();
    const platform = await createNodePlatform({ root });
    // Ordered by the call's own signal, not by timers racing the deadline: `early` writes its first
    // file before the stop and its second after it; `late` attempts its first write only after the stop.
    const stopped = (signal: AbortSignal): Promise<void> => new Promise((r) => (signal.aborted ? r() : signal.addEventListener('abort', () => r(), { once: true })));
    const writer = (name: string, firstWriteAfterStop: boolean) =>
      defineTool({
        name,
        description: 'writes two files, one of them after the call was stopped, without giving up',
        parameters: { type: 'object' },
        callWithContext: async (_args, ctx) => {
          if (firstWriteAfterStop) await stopped(ctx.signal);
          await ctx.fs.writeFile(join(ctx.platform.root, `${name}-1.txt`), 'one');
          await stopped(ctx.signal);
          await ctx.fs.writeFile(join(ctx.platform.root, `${name}-2.txt`), 'two');
          return 'both written';
        },
      });
    const runner = new ToolRunner({ platform, tools: [writer('early', false), writer('late', true)] });
    expect(await runner.processToolCalls([{ name: 'early', args: {} }], { timeoutMs: 40 })).toEqual([{ name: 'early', result: 'both written' }]);
    expect(await readFile(join(platform.root, 'early-2.txt'), 'utf8')).toBe('two');
    expect(await runner.processToolCalls([{ name: 'late', args: {} }], { timeoutMs: 40 })).toEqual([
      { name: 'late', code: 'timeout', error: 'late did not finish within 40 ms (this call\'s time limit); narrow the request or split the work into smaller steps' },
    ]);
    await new Promise((r) => setTimeout(r, 250));
    await expect(stat(join(platform.root, 'late-1.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    await platform.dispose();
  });

  it('answers execution_failed naming the files changed by a call that writes, sets state, then hangs past its deadline', async () => {
    const hanging = defineTool({
      name: 'write_then_hang',
      description: 'writes two files and sets state, then hangs for 5 s without looking at its signal',
      parameters: { type: 'object' },
      callWithContext: async (_args, ctx) => {
        await ctx.fs.writeFile(join(ctx.platform.root, 'made.txt'), 'made');
        await ctx.fs.mkdir(join(ctx.platform.root, 'dir'));
        ctx.setState('half_done', true);
        await new Promise((r) => setTimeout(r, 5000));
        return 'finished';
      },
    });
    for (const platform of [createNodePlatform({ root: await tempDir() }), createMemoryPlatform()]) {
      const runner = new ToolRunner({ platform, tools: [hanging] });
      const started = stopwatch();
      const [answer] = await runner.processToolCalls([{ name: 'write_then_hang', args: {} }], { timeoutMs: 200 });
      expect(started.net(), platform.name).toBeLessThan(450);
      expect(answer, platform.name).toEqual({
        name: 'write_then_hang',
        code: 'execution_failed',
        error:
          `write_then_hang did not finish within 200 ms, after it had begun changing these files: ${join(platform.root, 'made.txt')}, ${join(platform.root, 'dir')}. ` +
          'They are as the call left them, possibly partway: look at them again before retrying.',
      });
      expect(new TextDecoder().decode(await platform.fs.readFile(join(platform.root, 'made.txt')))).toBe('made');
      expect(await runner.getState()).toEqual({});
      await platform.dispose();
    }
  });
});
