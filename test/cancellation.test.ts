import { describe, expect, it } from 'vitest';
import { ToolRunner, defineTool } from '../src/index.js';

const never = defineTool({
  name: 'never',
  description: 'never settles and ignores its signal',
  parameters: { type: 'object' },
  call: () => new Promise<never>(() => undefined),
});

describe('cancellation and timeouts', () => {
  it('returns timeout at the deadline for a tool that never settles and ignores its signal', async () => {
    const runner = new ToolRunner({ tools: [never] });
    const started = performance.now();
    const [result] = await runner.processToolCalls([{ id: 't', name: 'never', args: {} }], { timeoutMs: 100 });
    const elapsed = performance.now() - started;
    expect(result).toEqual({ id: 't', name: 'never', code: 'timeout', error: 'never did not finish within 100 ms; narrow the request or raise timeoutMs' });
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(1000);
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
      message: 'never was cancelled before it finished',
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
      { id: '2', name: 'never', code: 'cancelled', error: 'never was cancelled before it finished' },
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
});
