import { describe, expect, it } from 'vitest';
import { BuiltinTools, ToolRunner, createMemoryPlatform, defineTool } from '../src/index.js';
import { stopwatch } from './support/starvation.js';

const never = defineTool({
  name: 'never',
  description: 'never settles and ignores its signal',
  parameters: { type: 'object' },
  call: () => new Promise<never>(() => undefined),
});

describe('cancellation and timeouts', () => {
  it('returns timeout at the deadline for a tool that never settles and ignores its signal', async () => {
    const runner = new ToolRunner({ tools: [never] });
    const started = stopwatch();
    const [result] = await runner.processToolCalls([{ id: 't', name: 'never', args: {} }], { timeoutMs: 100 });
    const [elapsed, net] = [started.elapsed(), started.net()];
    expect(result).toEqual({ id: 't', name: 'never', code: 'timeout', error: 'never did not finish within 100 ms (this call\'s time limit); narrow the request or split the work into smaller steps' });
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(net).toBeLessThan(1000);
  });

  it('applies the runner default timeout and lets a call override it', async () => {
    const runner = new ToolRunner({ tools: [never], defaultTimeoutMs: 50 });
    await expect(runner.execute('never', {})).rejects.toMatchObject({ code: 'timeout', message: expect.stringContaining('within 50 ms') });
    await expect(runner.execute('never', {}, { timeoutMs: 80 })).rejects.toMatchObject({ message: expect.stringContaining('within 80 ms') });
  });

  it('aborts ctx.signal with a timeout reason that the tool sees', async () => {
    let reason: unknown;
    const runner = new ToolRunner({
      tools: [
        defineTool({
          name: 'polite',
          description: '',
          parameters: { type: 'object' },
          callWithContext: (_args, ctx) =>
            new Promise((_resolve, reject) => {
              ctx.signal.addEventListener('abort', () => {
                reason = ctx.signal.reason;
                reject(new Error('stopped'));
              });
            }),
        }),
      ],
    });
    await expect(runner.execute('polite', {}, { timeoutMs: 30 })).rejects.toMatchObject({ code: 'timeout' });
    expect(reason).toMatchObject({ code: 'timeout' });
  });

  it('returns cancelled when the caller aborts, before or during the call', async () => {
    const runner = new ToolRunner({ tools: [never] });
    const before = new AbortController();
    before.abort();
    await expect(runner.execute('never', {}, { signal: before.signal })).rejects.toMatchObject({
      code: 'cancelled',
      message: 'never was cancelled before it started; it did not run, so nothing changed',
    });
    const during = new AbortController();
    setTimeout(() => during.abort(), 20);
    const results = await runner.processToolCalls(
      [
        { id: '1', name: 'never', args: {} },
        { id: '2', name: 'never', args: {} },
      ],
      { signal: during.signal },
    );
    expect(results).toEqual([
      { id: '1', name: 'never', code: 'cancelled', error: 'never was cancelled before it finished' },
      // The second call (mutating, so run after the first) never started.
      { id: '2', name: 'never', code: 'cancelled', error: 'never was cancelled before it started; it did not run, so nothing changed' },
    ]);
  });

  it('stops a timed-out tool from writing state afterwards', async () => {
    let late: unknown;
    const runner = new ToolRunner({
      tools: [
        defineTool({
          name: 'late_writer',
          description: '',
          parameters: { type: 'object' },
          callWithContext: async (_args, ctx) => {
            await new Promise((r) => setTimeout(r, 60));
            try {
              ctx.setState('late', true);
            } catch (error) {
              late = (error as { code: string }).code;
            }
            return 'done';
          },
        }),
      ],
    });
    await expect(runner.execute('late_writer', {}, { timeoutMs: 20 })).rejects.toMatchObject({ code: 'timeout' });
    await new Promise((r) => setTimeout(r, 80));
    expect(late).toBe('cancelled');
    expect(await runner.getState()).toEqual({});
  });

  it('treats Infinity and delays beyond the timer range as no deadline, and rejects 0, negatives, NaN and strings with a TypeError', async () => {
    const slow = defineTool({ name: 'slow', description: '', parameters: { type: 'object' }, call: () => new Promise((r) => setTimeout(() => r('slow done'), 50)) });
    const runner = new ToolRunner({ tools: [slow] });
    expect(await runner.execute('slow', {}, { timeoutMs: Infinity })).toBe('slow done');
    expect(await runner.execute('slow', {}, { timeoutMs: 3e9 })).toBe('slow done');
    expect(await new ToolRunner({ tools: [slow], defaultTimeoutMs: Infinity }).execute('slow', {})).toBe('slow done');
    for (const [bad, shown] of [[0, '0'], [-5, '-5'], [Number.NaN, 'NaN'], ['5000', '"5000"']] as const) {
      const rejected = await runner.execute('slow', {}, { timeoutMs: bad as number }).catch((error: unknown) => error);
      expect(rejected).toBeInstanceOf(TypeError);
      expect((rejected as TypeError).message).toBe(`ToolRunner.execute: timeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not ${shown}`);
      expect((rejected as { code?: unknown }).code).toBeUndefined();
    }
  });

  it('reports timeout for a read-only tool that blocked its thread past the deadline and then returned', async () => {
    const runner = new ToolRunner({
      tools: [
        defineTool({
          name: 'blocker',
          description: '',
          parameters: { type: 'object' },
          readOnly: true,
          call: async () => {
            const end = Date.now() + 150;
            while (Date.now() < end) {
              /* a catastrophic regex in this thread looks like this */
            }
            return 'late';
          },
        }),
      ],
    });
    await expect(runner.execute('blocker', {}, { timeoutMs: 50 })).rejects.toMatchObject({ code: 'timeout' });
  });

  it('returns the result of a mutating call that blocked past its deadline: its change was made', async () => {
    let changed = false;
    const runner = new ToolRunner({
      tools: [
        defineTool({
          name: 'mutator',
          description: '',
          parameters: { type: 'object' },
          call: async () => {
            const end = Date.now() + 150;
            while (Date.now() < end) {
              /* a long synchronous write */
            }
            changed = true;
            return 'written';
          },
        }),
      ],
    });
    await expect(runner.execute('mutator', {}, { timeoutMs: 50 })).resolves.toBe('written');
    expect(changed).toBe(true);
  });

  it('never answers timeout for an edit_file or create_file whose change was made', async () => {
    const platform = createMemoryPlatform();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const read = async (path: string): Promise<string | null> =>
      platform.fs.readFile(path).then((b) => new TextDecoder().decode(b), () => null);
    const big = `${'x'.repeat(99)}\n`.repeat(200_000) + 'TARGET\n';
    for (const timeoutMs of [1, 5, 20, 80]) {
      await platform.fs.writeFile('/workspace/big.txt', big);
      const [edit] = await runner.processToolCalls([{ name: 'edit_file', args: { file_path: 'big.txt', old_string: 'TARGET', new_string: 'DONE' } }], { timeoutMs });
      const after = await read('/workspace/big.txt');
      if ('code' in (edit as object)) {
        expect(edit).toMatchObject({ code: 'timeout' });
        expect(after).toBe(big);
      } else expect(after?.endsWith('DONE\n')).toBe(true);
      const name = `huge-${timeoutMs}.txt`;
      const [create] = await runner.processToolCalls([{ name: 'create_file', args: { file_path: name, content: 'y'.repeat(20_000_000) } }], { timeoutMs });
      const created = await read(`/workspace/${name}`);
      if ('code' in (create as object)) {
        expect(create).toMatchObject({ code: 'timeout' });
        expect(created).toBeNull();
      } else expect(created?.length).toBe(20_000_000);
    }
  });

  it('cancels a call whose permission prompt is still open and tells the prompt through its signal', async () => {
    let promptSignal: AbortSignal | undefined;
    let requestSeen: object | undefined;
    const runner = new ToolRunner({
      tools: [defineTool({ name: 'deploy', description: '', parameters: { type: 'object' }, call: async () => 'deployed' })],
      permissions: {
        ask: (request) => {
          promptSignal = request.signal;
          requestSeen = request;
          return new Promise(() => undefined); // the user never answers
        },
      },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const [result] = await runner.processToolCalls([{ id: 'd', name: 'deploy', args: {} }], { signal: controller.signal });
    // It never ran: it was still waiting for its permission.
    expect(result).toEqual({ id: 'd', name: 'deploy', code: 'cancelled', error: 'deploy was cancelled before it started; it did not run, so nothing changed' });
    expect(promptSignal?.aborted).toBe(true);
    expect(Object.keys(requestSeen ?? {})).toEqual(['tool', 'args', 'conversationId', 'callId', 'readOnly']);
    expect(() => structuredClone(requestSeen)).not.toThrow();
  });
});
