import { describe, expect, it } from 'vitest';
import {
  ToolRunner,
  defineTool,
  createMemoryPlatform,
  MemoryStateStore,
  type JsonValue,
  type ToolContext,
} from '../src/index.js';
import type { ToolMessage } from '../src/core/runner.js';

describe('ToolContext', () => {
  it('gives needsContext tools every member of ToolContext', async () => {
    let seen: ToolContext | undefined;
    const messages: ToolMessage[] = [];
    const platform = createMemoryPlatform();
    const runner = new ToolRunner({
      platform,
      conversationId: 'conv-default',
      planMode: false,
      verbose: true,
      isIdle: () => true,
      onMessage: (m) => void messages.push(m),
      tools: [
        defineTool({
          name: 'inspect',
          description: 'look at the context',
          parameters: { type: 'object' },
          readOnly: true,
          callWithContext: async (_args, ctx) => {
            seen = ctx;
            await ctx.send({ progress: 0.5 });
            return ctx.callId;
          },
        }),
      ],
    });
    const [result] = await runner.processToolCalls([{ id: 'call-7', name: 'inspect', args: {} }]);
    expect(result).toEqual({ id: 'call-7', name: 'inspect', result: 'call-7' });
    const ctx = seen as ToolContext;
    expect(ctx.conversationId).toBe('conv-default');
    expect(ctx.callId).toBe('call-7');
    expect(ctx.signal).toBeInstanceOf(AbortSignal);
    expect(ctx.signal.aborted).toBe(true); // the call has ended
    expect(ctx.deadline).toBeUndefined(); // no timeoutMs, no defaultTimeoutMs
    expect(ctx.cwd).toBe('/workspace');
    expect(ctx.fs).toBe(platform.fs);
    expect(ctx.platform).toBe(platform);
    expect(ctx.isIdle()).toBe(true);
    expect(ctx.planMode).toBe(false);
    expect(ctx.verbose).toBe(true);
    expect(ctx.permissions).toBe(runner.permissions);
    expect(ctx.denialTracker).toBe(runner.denialTracker);
    expect(typeof ctx.fileCache.get).toBe('function');
    expect(typeof ctx.withPathLock).toBe('function');
    expect(messages).toEqual([{ conversationId: 'conv-default', callId: 'call-7', tool: 'inspect', message: { progress: 0.5 } }]);
    // Generated call ids when the call has none.
    const ids = new Set<unknown>();
    for (let i = 0; i < 3; i += 1) ids.add(await runner.execute('inspect', {}, { conversationId: 'other' }));
    expect(ids.size).toBe(3);
    expect(seen?.conversationId).toBe('other');
  });

  it('gives the call its deadline as ctx.deadline: timeoutMs, else defaultTimeoutMs, after the call started', async () => {
    const seen: Array<number | undefined> = [];
    const runner = new ToolRunner({
      defaultTimeoutMs: 60_000,
      tools: [
        defineTool({
          name: 'when',
          description: 'report the deadline',
          parameters: { type: 'object' },
          readOnly: true,
          callWithContext: async (_args, ctx) => void seen.push(ctx.deadline),
        }),
      ],
    });
    const before = Date.now();
    await runner.execute('when', {}, { timeoutMs: 5000 });
    await runner.execute('when', {});
    await runner.execute('when', {}, { timeoutMs: Infinity });
    const after = Date.now();
    expect(seen[0]).toBeGreaterThanOrEqual(before + 5000);
    expect(seen[0]).toBeLessThanOrEqual(after + 5000);
    expect(seen[1]).toBeGreaterThanOrEqual(before + 60_000);
    expect(seen[1]).toBeLessThanOrEqual(after + 60_000);
    expect(seen[2]).toBeUndefined();
  });

  it('does not call callWithContext for tools that do not ask for a context', async () => {
    const runner = new ToolRunner({
      tools: [
        {
          name: 'plain',
          description: '',
          parameters: { type: 'object' },
          call: async () => 'call',
          callWithContext: async () => 'callWithContext',
        },
      ],
    });
    expect(await runner.execute('plain', {})).toBe('call');
  });

  it('rejects non-JSON state at setState and keeps state per conversation', async () => {
    const errors: string[] = [];
    const bad: unknown[] = [() => 1, NaN, Infinity, new Date(0), new Map(), 10n, Symbol('s'), { nested: [undefined] }];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    bad.push(cyclic);
    const runner = new ToolRunner({
      tools: [
        defineTool({
          name: 'bad_state',
          description: '',
          parameters: { type: 'object' },
          callWithContext: async (_args, ctx) => {
            for (const value of bad) {
              try {
                ctx.setState('k', value as JsonValue);
                errors.push('accepted');
              } catch (error) {
                errors.push(`${(error as Error).name}: ${(error as Error).message}`);
              }
            }
            // An undefined property is an omitted optional field: JSON drops it.
            ctx.setState('good', { list: [1, 'two', null, true], optional: undefined });
            return ctx.getState('k') ?? 'unset';
          },
        }),
      ],
    });
    expect(await runner.execute('bad_state', {})).toBe('unset');
    expect(errors).toHaveLength(bad.length);
    // The tool's mistake, never the model's: a TypeError naming the key and what the value is.
    expect(errors.every((e) => e.startsWith('TypeError: ctx.setState("k"): the value ('))).toBe(true);
    expect(errors.every((e) => e.includes('; state values must be JSON: store plain objects'))).toBe(true);
    expect(errors[0]).toContain('the value (a function) is not JSON (value: function is not JSON)');
    expect(errors[3]).toContain('the value (a Date) is not JSON');
    expect(errors[5]).toContain('the value (a bigint) is not JSON');
    expect(errors[0]).toContain('function is not JSON');
    expect(errors[1]).toContain('NaN is not a JSON number');
    expect(errors[3]).toContain('Date is not a plain JSON object');
    expect(errors[7]).toContain('.nested[0]: undefined is not JSON');
    expect(errors[8]).toContain('circular reference');
    expect(await runner.getState()).toEqual({ good: { list: [1, 'two', null, true] } });
  });

  it('isolates stored state from later mutation by the tool and deletes keys set to undefined', async () => {
    const state = new MemoryStateStore();
    const runner = new ToolRunner({
      platform: createMemoryPlatform({ state }),
      tools: [
        defineTool({
          name: 'mutate',
          description: '',
          parameters: { type: 'object', properties: { step: { type: 'integer' } }, required: ['step'] } as const,
          callWithContext: async ({ step }, ctx) => {
            if (step === 1) {
              const list = [1];
              ctx.setState('list', list);
              ctx.setState('gone', 'soon');
              list.push(2); // not stored
              const read = ctx.getState<number[]>('list');
              read?.push(3); // a copy: not stored either
              return ctx.getState('list');
            }
            ctx.setState('gone', undefined);
            return ctx.getState('gone') ?? null;
          },
        }),
      ],
    });
    expect(await runner.execute('mutate', { step: 1 })).toEqual([1]);
    expect(await state.getAll('default')).toEqual({ list: [1], gone: 'soon' });
    expect(await runner.execute('mutate', { step: 2 })).toBeNull();
    expect(await state.getAll('default')).toEqual({ list: [1] });
  });

  it('persists every key a call set before the result is returned, and none of a call that then fails', async () => {
    const order: string[] = [];
    const store = new MemoryStateStore();
    const slowStore = Object.assign(Object.create(store) as MemoryStateStore, {
      getAll: (id: string) => store.getAll(id),
      async setMany(id: string, entries: ReadonlyArray<readonly [string, JsonValue | undefined]>) {
        await new Promise((r) => setTimeout(r, 30));
        await store.setMany(id, entries);
        order.push(`stored ${entries.map(([k]) => k).join(',')}`);
      },
    });
    const runner = new ToolRunner({
      platform: createMemoryPlatform({ state: slowStore }),
      tools: [
        defineTool({
          name: 'two_keys',
          description: '',
          parameters: { type: 'object', properties: { fail: { type: 'boolean' } } } as const,
          callWithContext: async ({ fail }, ctx) => {
            ctx.setState('a', 1);
            ctx.setState('b', 2);
            if (fail) throw new Error('after setState');
            return 'ok';
          },
        }),
      ],
    });
    await runner.execute('two_keys', {}).then(() => order.push('result'));
    const failed = await runner.processToolCalls([{ name: 'two_keys', args: { fail: true } }]);
    order.push('failure result');
    expect(order).toEqual(['stored a,b', 'result', 'failure result']);
    expect(failed).toEqual([{ name: 'two_keys', code: 'execution_failed', error: 'after setState' }]);
  });

  it('reports a state store failure as the call result instead of acknowledging it', async () => {
    const store = new MemoryStateStore();
    const broken = Object.assign(Object.create(store) as MemoryStateStore, {
      getAll: (id: string) => store.getAll(id),
      async setMany() {
        throw Object.assign(new Error('QuotaExceededError: the quota has been exceeded'), { name: 'QuotaExceededError' });
      },
    });
    const runner = new ToolRunner({
      platform: createMemoryPlatform({ state: broken }),
      tools: [defineTool({ name: 'w', description: '', parameters: { type: 'object' }, callWithContext: async (_a, ctx) => (ctx.setState('x', 1), 'ok') })],
    });
    expect(await runner.processToolCalls([{ name: 'w', args: {} }])).toEqual([
      { name: 'w', code: 'quota_exceeded', error: 'QuotaExceededError: the quota has been exceeded' },
    ]);
    // What was not stored is not kept in the runner's cache either.
    expect(await runner.getState()).toEqual({});
  });

  it('serialises work on one path through withPathLock', async () => {
    const log: string[] = [];
    const runner = new ToolRunner({
      tools: [
        defineTool({
          name: 'locked',
          description: '',
          parameters: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] } as const,
          concurrencySafe: true,
          callWithContext: async ({ tag }, ctx) =>
            ctx.withPathLock('/workspace/same.txt', async () => {
              log.push(`in ${tag}`);
              await new Promise((r) => setTimeout(r, 10));
              log.push(`out ${tag}`);
              return tag;
            }),
        }),
      ],
    });
    await runner.processToolCalls([
      { name: 'locked', args: { tag: 'a' } },
      { name: 'locked', args: { tag: 'b' } },
      { name: 'locked', args: { tag: 'c' } },
    ]);
    expect(log).toEqual(['in a', 'out a', 'in b', 'out b', 'in c', 'out c']);
  });
});

describe('ctx.send', () => {
  it('never fails the tool or leaks a rejection when the host handler throws, even unawaited', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => void unhandled.push(reason);
    const proc = (globalThis as { process?: { on(e: string, f: (r: unknown) => void): void; off(e: string, f: (r: unknown) => void): void } }).process;
    proc?.on('unhandledRejection', record);
    try {
      const runner = new ToolRunner({
        onMessage: () => {
          throw new Error('host onMessage bug');
        },
        tools: [
          defineTool({
            name: 'progress',
            description: '',
            parameters: { type: 'object' },
            callWithContext: async (_args, ctx) => {
              void ctx.send({ progress: 50 });
              await ctx.send({ progress: 100 });
              return 'done';
            },
          }),
        ],
      });
      expect(await runner.processToolCalls([{ name: 'progress', args: {} }])).toEqual([{ name: 'progress', result: 'done' }]);
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      proc?.off('unhandledRejection', record);
    }
  });

  it('throws synchronously for a message that is not JSON', async () => {
    let thrown: unknown;
    const runner = new ToolRunner({
      tools: [
        defineTool({
          name: 'bad_send',
          description: '',
          parameters: { type: 'object' },
          callWithContext: async (_args, ctx) => {
            try {
              void ctx.send({ when: new Date(0) } as never);
            } catch (error) {
              thrown = error;
            }
            return 'survived';
          },
        }),
      ],
    });
    expect(await runner.execute('bad_send', {})).toBe('survived');
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toContain('ctx.send: the message (an object) is not JSON (.when: Date is not a plain JSON object); messages must be JSON');
  });
});
