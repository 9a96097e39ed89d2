import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../test/support/build.js';
import { createToolWorkerPool, type ToolWorkerPool } from './worker-pool.js';
import { stopwatch } from '../test/support/starvation.js';

const WORKER_SOURCE = `
import { threadId, workerData } from 'node:worker_threads';
import { ToolRunner, defineTool } from './src/index.js';
import { createNodePlatform, exposeToolRunnerInWorker } from './node/index.js';

exposeToolRunnerInWorker(() => new ToolRunner({
  platform: createNodePlatform({ stateDir: workerData.stateDir }),
  tools: [
    defineTool({ name: 'thread', description: 'the worker thread id', parameters: { type: 'object' }, readOnly: true, call: async () => threadId }),
    defineTool({ name: 'block', description: 'blocks its thread forever', parameters: { type: 'object' }, call: async () => { while (true) {} } }),
    defineTool({ name: 'sleep', description: 'answers after ms', parameters: { type: 'object', properties: { ms: { type: 'number' } } }, readOnly: true,
      call: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve('slept'), ms)) }),
    defineTool({ name: 'remember', description: 'sets and reads state', parameters: { type: 'object', properties: { value: { type: 'string' } } },
      callWithContext: async ({ value }, ctx) => {
        if (value !== undefined) ctx.setState('note', value);
        return ctx.getState('note') ?? null;
      } }),
  ],
}));
`;

let module: string;
let base: string;
const pools: ToolWorkerPool[] = [];

beforeAll(() => {
  const built = buildPackage('toolhost-pool-test');
  module = join(built, 'pool-worker.mjs');
  writeFileSync(module, WORKER_SOURCE);
  base = mkdtempSync(join(tmpdir(), 'toolhost-pool-'));
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close({ timeoutMs: 1_000 })));
  if (base) rmSync(base, { recursive: true, force: true });
});

function pool(size: number, name: string): ToolWorkerPool {
  const made = createToolWorkerPool({ module, size, workerData: { stateDir: join(base, name) } });
  pools.push(made);
  return made;
}

let routing: ToolWorkerPool | undefined;
/** The 3-worker pool of the cases that need no pool of their own (each worker thread loads the whole package). */
function routingPool(): ToolWorkerPool {
  routing ??= pool(3, 'route');
  return routing;
}

/** One conversation id per worker of `p`. */
function conversationsPerWorker(p: ToolWorkerPool): string[] {
  const found: string[] = new Array(p.size);
  for (let i = 0; found.filter(Boolean).length < p.size; i += 1) found[p.workerFor(`conversation ${i}`)] ??= `conversation ${i}`;
  return found;
}

describe('createToolWorkerPool', () => {
  it('refuses a bad size, a missing module and unknown options with a TypeError naming the option', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-pool-options-'));
    const module = join(dir, 'module.mjs');
    writeFileSync(module, 'export {};\n');
    for (const [size, shown] of [[0, '0'], [-1, '-1'], [1.5, '1.5'], [257, '257'], ['2', '"2"']] as const) {
      expect(() => createToolWorkerPool({ module, size: size as number })).toThrow(new TypeError(`createToolWorkerPool: size must be a whole number from 1 to 256, not ${shown}`));
    }
    expect(() => createToolWorkerPool({ module, sise: 2 } as never)).toThrow(new TypeError('createToolWorkerPool: sise is not an option (did you mean size?)'));
    rmSync(dir, { recursive: true });
    expect(() => createToolWorkerPool({ module, size: 1 })).toThrow(
      new TypeError(`createToolWorkerPool: module must be a path or file: URL of an existing module; there is no file at ${module}`),
    );
  });

  it('4 workers: a hung tool in one is replaced while the others keep serving, and its acknowledged state survives', async () => {
    const p = pool(4, 'hung');
    const conversations = conversationsPerWorker(p);
    const threads = await Promise.all(conversations.map((c) => p.execute('thread', {}, { conversationId: c }) as Promise<number>));
    expect(new Set(threads).size).toBe(4);
    await Promise.all(conversations.map((c, i) => p.execute('remember', { value: `note ${i}` }, { conversationId: c })));

    const hungStarted = stopwatch();
    const hung = p.processToolCalls([{ id: 'h', name: 'block', args: {} }], { conversationId: conversations[0]!, timeoutMs: 1_000 });
    let hungDone = 0;
    void hung.then(() => (hungDone = Date.now()));
    // While worker 0 is stuck, the other three answer, each from its own thread, more than once.
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(conversations.slice(1).map((c) => p.execute('remember', {}, { conversationId: c })));
      expect(answers).toEqual(['note 1', 'note 2', 'note 3']);
    }
    expect(hungDone).toBe(0);
    expect(await hung).toEqual([{ id: 'h', name: 'block', error: expect.stringContaining('1000 ms'), code: 'timeout' }]);
    expect(hungStarted.net()).toBeLessThan(1_000 + 2 * 250 + 250);
    expect(p.restarts).toBe(1);
    // The replacement serves worker 0's conversation with its acknowledged state, from a new thread.
    expect(await p.execute('remember', {}, { conversationId: conversations[0]! })).toBe('note 0');
    const after = await Promise.all(conversations.map((c) => p.execute('thread', {}, { conversationId: c }) as Promise<number>));
    expect(after[0]).not.toBe(threads[0]);
    expect(after.slice(1)).toEqual(threads.slice(1));
  });

  it('routes every call of a conversation to its one worker, also while calls are in flight', async () => {
    const p = routingPool();
    const calls = Array.from({ length: 6 }, () => p.execute('sleep', { ms: 100 }, { conversationId: 'one conversation' }));
    const index = p.workerFor('one conversation');
    expect(p.inFlight()[index]).toBe(6);
    expect(p.inFlight().reduce((a, b) => a + b, 0)).toBe(6);
    await Promise.all(calls);
    const threads = await Promise.all(Array.from({ length: 5 }, () => p.execute('thread', {}, { conversationId: 'one conversation' })));
    expect(new Set(threads).size).toBe(1);
    expect(p.inFlight()).toEqual([0, 0, 0]);
  });

  it('is a ToolHost: tools() lists the workers\' tools with their annotations, in registration order', async () => {
    const p = routingPool();
    const tools = await p.tools();
    expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint ?? false])).toEqual([
      ['thread', true],
      ['block', false],
      ['sleep', true],
      ['remember', false],
    ]);
    expect((await p.declarations()).map((declaration) => declaration.name)).toEqual(tools.map((tool) => tool.name));
  });

  it('drains on close: calls in flight finish, later calls are unavailable', async () => {
    const p = pool(2, 'drain');
    const conversations = conversationsPerWorker(p);
    const slow = conversations.map((c) => p.execute('sleep', { ms: 300 }, { conversationId: c }));
    const closed = p.close();
    await expect(p.execute('thread', {}, { conversationId: conversations[0]! })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('shutting down') });
    expect(await p.processToolCalls([{ id: 'x', name: 'thread', args: {} }])).toEqual([{ id: 'x', name: 'thread', error: expect.stringContaining('shutting down'), code: 'unavailable' }]);
    expect(await Promise.all(slow)).toEqual(['slept', 'slept']);
    await closed;
    expect(p.inFlight()).toEqual([0, 0]);
  });
});
