import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolError, isToolError } from '../core/errors.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { connectToolRunner, exposeToolRunner, type Endpoint, type RemoteToolRunner } from './remote.js';
import { ToolRunner, type ToolMessage } from '../runner.js';
import { defineTool, type Tool } from '../core/tool.js';
import * as z from 'zod';
import type { Platform } from '../core/types.js';
import { stopwatch } from '../../test/support/starvation.js';

// The "worker" is the other end of a web-standard MessageChannel in this thread. A hung worker is
// simulated by an endpoint that freezes: it stops delivering and answering messages, as a thread
// stuck in `while (true) {}` would (node/worker.test.ts does the real thing with worker_threads).

interface FakeWorker {
  host: Endpoint;
  freeze(): void;
  readonly closed: boolean;
  close(): void;
}

const opened: FakeWorker[] = [];
const remotes: RemoteToolRunner[] = [];

afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.terminate()));
  for (const worker of opened.splice(0)) worker.close();
});

/** Starts a fake worker whose side runs `exposeToolRunner(setup)`; `freeze()` makes it unresponsive. */
function fakeWorker(setup: Parameters<typeof exposeToolRunner>[0]): FakeWorker {
  const { port1, port2 } = new MessageChannel();
  let frozen = false;
  let closed = false;
  const wrapped = new Map<unknown, (event: Event) => void>();
  const inside: Endpoint = {
    postMessage: (message: unknown, transfer?: Transferable[]) => {
      if (!frozen) port2.postMessage(message, transfer ?? []);
    },
    addEventListener: (type: string, listener: EventListenerOrEventListenerObject) => {
      const gated = (event: Event): void => {
        if (frozen) return;
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      wrapped.set(listener, gated);
      port2.addEventListener(type, gated as EventListener);
    },
    removeEventListener: (type: string, listener: EventListenerOrEventListenerObject) => {
      const gated = wrapped.get(listener);
      if (gated) port2.removeEventListener(type, gated as EventListener);
    },
    start: () => port2.start(),
  };
  exposeToolRunner(setup, inside);
  const worker: FakeWorker = {
    host: port1 as unknown as Endpoint,
    freeze: () => {
      frozen = true;
    },
    get closed() {
      return closed;
    },
    close: () => {
      closed = true;
      frozen = true;
      port1.close();
      port2.close();
    },
  };
  opened.push(worker);
  return worker;
}

/** The terminate hook for fake workers: closes both ports (a browser Worker would have `terminate()`). */
const closeHook = { terminate: (endpoint: Endpoint) => opened.find((worker) => worker.host === endpoint)?.close() };

function track(remote: RemoteToolRunner): RemoteToolRunner {
  remotes.push(remote);
  return remote;
}

const echoTool = defineTool({
  name: 'echo',
  description: 'returns its input',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' }, count: { type: 'integer' } },
    required: ['text'],
    additionalProperties: false,
  } as const,
  readOnly: true,
  call: async ({ text, count }) => ({ text, count: count ?? 1, nested: [1, 'two', { three: null }] }),
});

const missingTool = defineTool({
  name: 'lookup',
  description: 'fails with its own code',
  parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] } as const,
  call: async ({ key }) => {
    throw new ToolError('not_found', `no entry named ${key}; list the entries first`, { key });
  },
});

function workerTools(): Tool[] {
  return [echoTool as Tool, missingTool as Tool];
}

describe('connectToolRunner / exposeToolRunner', () => {
  it('round-trips declarations, execute and processToolCalls with exact values', async () => {
    const local = new ToolRunner({ tools: workerTools() });
    const worker = fakeWorker(() => new ToolRunner({ tools: workerTools() }));
    const remote = track(connectToolRunner(worker.host, closeHook));

    expect(await remote.declarations()).toEqual(local.declarations());
    expect(await remote.execute('echo', { text: 'hi', count: '3' })).toEqual({
      text: 'hi',
      count: 3,
      nested: [1, 'two', { three: null }],
    });
    const calls = [
      { id: 'a', name: 'echo', args: { text: 'x' } },
      { name: 'echo', args: { text: 'y', count: 2 } },
      { id: 'c', name: 'lookup', args: { key: 'k' } },
    ];
    const results = await remote.processToolCalls(calls);
    expect(results).toEqual(await local.processToolCalls(calls));
    expect(results).toEqual([
      { id: 'a', name: 'echo', result: { text: 'x', count: 1, nested: [1, 'two', { three: null }] } },
      { name: 'echo', result: { text: 'y', count: 2, nested: [1, 'two', { three: null }] } },
      { id: 'c', name: 'lookup', error: 'no entry named k; list the entries first', code: 'not_found' },
    ]);
    expect(remote.status).toBe('ready');
  });

  it('keeps error codes and messages across the boundary', async () => {
    const worker = fakeWorker(() => new ToolRunner({ tools: workerTools() }));
    const remote = track(connectToolRunner(worker.host, closeHook));

    const invalid = await remote.execute('echo', { text: 'x', count: 1.5 }).catch((error: unknown) => error);
    expect(isToolError(invalid)).toBe(true);
    expect(invalid).toBeInstanceOf(ToolError);
    expect((invalid as ToolError).code).toBe('invalid_arguments');
    expect((invalid as ToolError).message).toMatch(/count must be an integer, not 1.5/);

    const unknown = await remote.execute('nope', {}).catch((error: unknown) => error);
    expect((unknown as ToolError).code).toBe('unknown_tool');
    expect((unknown as ToolError).message).toMatch(/unknown tool "nope"; available tools: echo, lookup/);

    const own = await remote.execute('lookup', { key: 'k' }).catch((error: unknown) => error);
    expect(own).toMatchObject({ code: 'not_found', message: 'no entry named k; list the entries first', details: { key: 'k' } });

    const [missingArg] = await remote.processToolCalls([{ id: '1', name: 'echo', args: {} }]);
    expect(missingArg).toMatchObject({ id: '1', name: 'echo', code: 'invalid_arguments' });
    expect((missingArg as { error: string }).error).toMatch(/text/);

    const cloneFailure = await remote.execute('echo', { text: () => 1 }).catch((error: unknown) => error);
    expect((cloneFailure as ToolError).code).toBe('invalid_arguments');
    // The runner is still usable after every failure.
    expect(await remote.execute('echo', { text: 'ok' })).toMatchObject({ text: 'ok' });
  });

  it('runs a page-side tool on the page, after the worker validated its arguments', async () => {
    const worker = fakeWorker(() => new ToolRunner({ tools: workerTools() }));
    const remote = track(connectToolRunner(worker.host, closeHook));
    const seen: unknown[] = [];
    const messages: ToolMessage[] = [];
    remote.onMessage((m) => void messages.push(m));
    await remote.register(
      defineTool({
        name: 'page_clipboard',
        description: 'reads the page clipboard',
        parameters: { type: 'object', properties: { limit: { type: 'integer' } }, required: ['limit'] } as const,
        readOnly: true,
        callWithContext: async (args, ctx) => {
          seen.push({ args, callId: ctx.callId, conversationId: ctx.conversationId, cwd: ctx.cwd });
          await ctx.send({ from: 'page' });
          expect(() => ctx.fs).toThrow(/lives in the tool worker/);
          return { text: 'clip'.repeat(args.limit) };
        },
      }),
    );
    await remote.register(
      defineTool({
        name: 'page_fail',
        description: 'fails on the page',
        parameters: { type: 'object' },
        call: async () => {
          throw new ToolError('permission_denied', 'the user closed the dialog');
        },
      }),
    );
    const names = (await remote.declarations()).map((d) => d.name);
    expect(names).toEqual(['echo', 'lookup', 'page_clipboard', 'page_fail']);

    const results = await remote.processToolCalls(
      [
        { id: 'p1', name: 'page_clipboard', args: { limit: '2' } },
        { id: 'p2', name: 'page_clipboard', args: { limit: 'many' } },
        { id: 'p3', name: 'page_fail', args: {} },
      ],
      { conversationId: 'conv-9' },
    );
    expect(results[0]).toEqual({ id: 'p1', name: 'page_clipboard', result: { text: 'clipclip' } });
    expect(results[1]).toMatchObject({ id: 'p2', code: 'invalid_arguments' });
    expect(results[2]).toEqual({ id: 'p3', name: 'page_fail', error: 'the user closed the dialog', code: 'permission_denied' });
    // Only the valid call reached the page: the worker validated the other.
    expect(seen).toEqual([{ args: { limit: 2 }, callId: 'p1', conversationId: 'conv-9', cwd: '/workspace' }]);
    expect(messages).toEqual([{ conversationId: 'conv-9', callId: 'p1', tool: 'page_clipboard', message: { from: 'page' } }]);

    expect(await remote.unregister('page_fail')).toBe(true);
    expect(await remote.unregister('page_fail')).toBe(false);
    expect((await remote.declarations()).map((d) => d.name)).toEqual(['echo', 'lookup', 'page_clipboard']);
    await expect(remote.register({ ...echoTool, name: 'bad name!' } as Tool)).rejects.toThrow(TypeError);
  });

  it('delivers ctx.send messages to onMessage before the call resolves; unsubscribe stops them', async () => {
    const worker = fakeWorker(
      ({ onMessage }) =>
        new ToolRunner({
          onMessage,
          tools: [
            defineTool({
              name: 'progress',
              description: 'reports progress',
              parameters: { type: 'object', properties: { steps: { type: 'integer' } } } as const,
              callWithContext: async ({ steps = 2 }, ctx) => {
                for (let i = 1; i <= steps; i += 1) await ctx.send({ step: i, of: steps });
                return 'done';
              },
            }),
          ],
        }),
    );
    const fromOption: ToolMessage[] = [];
    const remote = track(connectToolRunner(worker.host, { ...closeHook, onMessage: (m) => void fromOption.push(m) }));
    const received: ToolMessage[] = [];
    const unsubscribe = remote.onMessage((m) => void received.push(m));
    const [result] = await remote.processToolCalls([{ id: 'c1', name: 'progress', args: { steps: 3 } }], { conversationId: 'k' });
    expect(result).toEqual({ id: 'c1', name: 'progress', result: 'done' });
    expect(received).toEqual([1, 2, 3].map((step) => ({ conversationId: 'k', callId: 'c1', tool: 'progress', message: { step, of: 3 } })));
    expect(fromOption).toEqual(received);
    unsubscribe();
    await remote.execute('progress', { steps: 1 });
    expect(received).toHaveLength(3);
    expect(fromOption).toHaveLength(4);
  });

  it('relays messages of a runner built before exposing, through the handle', async () => {
    const { port1, port2 } = new MessageChannel();
    let exposed: ReturnType<typeof exposeToolRunner> | undefined;
    const runner = new ToolRunner({
      onMessage: (m) => exposed?.relay(m),
      tools: [
        defineTool({
          name: 'ping',
          description: 'sends one message',
          parameters: { type: 'object' },
          callWithContext: async (_args, ctx) => {
            await ctx.send('hello');
            return 'pong';
          },
        }),
      ],
    });
    exposed = exposeToolRunner(runner, port2 as unknown as Endpoint);
    expect(await exposed.runner).toBe(runner);
    const remote = track(connectToolRunner(port1 as unknown as Endpoint, closeHook));
    const received: unknown[] = [];
    remote.onMessage((m) => void received.push(m.message));
    expect(await remote.execute('ping', {})).toBe('pong');
    expect(received).toEqual(['hello']);
    port2.close();
  });

  it('aborting the signal cancels the call: the worker tool sees its signal abort and the result is cancelled', async () => {
    let sawAbort: unknown;
    const worker = fakeWorker(
      () =>
        new ToolRunner({
          tools: [
            defineTool({
              name: 'wait',
              description: 'waits until aborted',
              parameters: { type: 'object' },
              callWithContext: (_args, ctx) =>
                new Promise((_, reject) => {
                  ctx.signal.addEventListener('abort', () => {
                    sawAbort = ctx.signal.reason;
                    reject(ctx.signal.reason);
                  });
                }),
            }),
          ],
        }),
    );
    const remote = track(connectToolRunner(worker.host, closeHook));
    await remote.declarations();
    const controller = new AbortController();
    const started = stopwatch();
    const pending = remote.processToolCalls([{ id: 'w', name: 'wait', args: {} }], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const [result] = await pending;
    expect(result).toMatchObject({ id: 'w', name: 'wait', code: 'cancelled' });
    expect(started.net()).toBeLessThan(1000);
    expect(sawAbort).toMatchObject({ code: 'cancelled' });

    const again = new AbortController();
    const execution = remote.execute('wait', {}, { signal: again.signal });
    setTimeout(() => again.abort(), 20);
    await expect(execution).rejects.toMatchObject({ code: 'cancelled' });
    // An already-aborted signal never reaches the worker.
    await expect(remote.execute('wait', {}, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'cancelled' });
    expect(remote.restarts).toBe(0);
  });

  it('sends one request and gets one answer per call; cancellation is set up only for a call with a signal', async () => {
    const worker = fakeWorker(() => new ToolRunner({ tools: workerTools() }));
    const toWorker: unknown[] = [];
    const toHost: unknown[] = [];
    const port = worker.host as unknown as MessagePort;
    port.addEventListener('message', (event) => toHost.push(event.data));
    const host: Endpoint = {
      postMessage: (message: unknown, transfer?: Transferable[]) => {
        toWorker.push(message);
        port.postMessage(message, transfer ?? []);
      },
      addEventListener: (type: string, listener: EventListenerOrEventListenerObject) => port.addEventListener(type, listener),
      removeEventListener: (type: string, listener: EventListenerOrEventListenerObject) => port.removeEventListener(type, listener),
      start: () => port.start(),
    };
    const remote = track(connectToolRunner(host, { terminate: () => worker.close() }));
    await remote.declarations();
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    await settle();
    toWorker.length = 0;
    toHost.length = 0;

    // No signal: the request leaves at once (the worker is ready), carries no request id, and neither
    // side creates an AbortController for it (the worker's runner takes its signal-free path).
    let controllers = 0;
    const Original = globalThis.AbortController;
    vi.stubGlobal(
      'AbortController',
      class extends Original {
        constructor() {
          super();
          controllers += 1;
        }
      },
    );
    try {
      const plain = remote.execute('echo', { text: 'one' });
      expect(toWorker).toHaveLength(1);
      expect(await plain).toMatchObject({ text: 'one' });
    } finally {
      vi.unstubAllGlobals();
    }
    await settle();
    expect(controllers).toBe(0);
    expect(toWorker).toHaveLength(1);
    expect(toHost).toHaveLength(1);
    expect(JSON.stringify(toWorker[0])).not.toContain('requestId');

    // With a signal that does not fire: still one message each way; the request names itself.
    toWorker.length = 0;
    toHost.length = 0;
    expect(await remote.execute('echo', { text: 'two' }, { signal: new AbortController().signal })).toMatchObject({ text: 'two' });
    await settle();
    expect(toWorker).toHaveLength(1);
    expect(toHost).toHaveLength(1);
    expect(JSON.stringify(toWorker[0])).toMatch(/"requestId":"[^"]+"/);
    expect(remote.restarts).toBe(0);
  });

  it('leaves a live worker alone: a tool that ignores its signal times out in the worker, no restart', async () => {
    const worker = fakeWorker(
      () =>
        new ToolRunner({
          tools: [
            defineTool({
              name: 'ignore',
              description: 'never settles, but leaves the thread free',
              parameters: { type: 'object' },
              call: () => new Promise(() => undefined),
            }),
            echoTool as Tool,
          ],
        }),
    );
    const remote = track(connectToolRunner(worker.host, { ...closeHook, defaultTimeoutMs: 100 }));
    await expect(remote.execute('ignore', {})).rejects.toMatchObject({ code: 'timeout', message: /within 100 ms/ });
    const results = await remote.processToolCalls([
      { name: 'ignore', args: {} },
      { name: 'ignore', args: {} },
      { name: 'ignore', args: {} },
      { name: 'echo', args: { text: 'after' } },
    ]);
    // Three sequential 100 ms timeouts outlast one deadline + grace: the probe finds the worker alive.
    expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['timeout', 'timeout', 'timeout', 'ok']);
    expect(remote.restarts).toBe(0);
    expect(worker.closed).toBe(false);
  });

  it('replaces a hung worker from the factory: timeout, in-flight calls unavailable, page tools and state kept', async () => {
    const platform: Platform = createMemoryPlatform(); // stands for the worker's persistent platform
    const workers: FakeWorker[] = [];
    const setup = (): ToolRunner =>
      new ToolRunner({
        platform,
        tools: [
          defineTool({
            name: 'hang',
            description: 'freezes its worker',
            parameters: { type: 'object' },
            call: () => {
              (workers.at(-1) as FakeWorker).freeze();
              return new Promise(() => undefined);
            },
          }),
          defineTool({
            name: 'slow',
            description: 'takes 2 s',
            parameters: { type: 'object' },
            readOnly: true,
            call: () => new Promise((resolve) => setTimeout(() => resolve('slow'), 2000)),
          }),
          defineTool({
            name: 'remember',
            description: 'sets state',
            parameters: { type: 'object', properties: { value: { type: 'string' } } } as const,
            callWithContext: async ({ value }, ctx) => {
              if (value !== undefined) ctx.setState('note', value);
              return ctx.getState('note') ?? null;
            },
          }),
        ],
      });
    const restarts: string[] = [];
    const remote = track(
      connectToolRunner(
        () => {
          const worker = fakeWorker(setup);
          workers.push(worker);
          return worker.host;
        },
        { ...closeHook, onRestart: (e) => void restarts.push(e.reason) },
      ),
    );
    await remote.register(
      defineTool({ name: 'page_tool', description: 'on the page', parameters: { type: 'object' }, call: async () => 'from page' }),
    );
    expect(await remote.execute('remember', { value: 'kept' })).toBe('kept');

    const slow = remote.execute('slow', {});
    const started = stopwatch();
    const hung = await remote.execute('hang', {}, { timeoutMs: 300 }).catch((error: unknown) => error);
    const [elapsed, net] = [started.elapsed(), started.net()];
    expect(hung).toMatchObject({ code: 'timeout' });
    expect((hung as Error).message).toMatch(/did not finish within 300 ms.*restarted/);
    expect(elapsed).toBeGreaterThanOrEqual(300);
    expect(net).toBeLessThan(1300);
    await expect(slow).rejects.toMatchObject({ code: 'unavailable' });
    expect(workers).toHaveLength(2);
    expect(workers[0]?.closed).toBe(true);
    expect(remote.restarts).toBe(1);
    expect(restarts).toHaveLength(1);

    // The next calls run in the new worker: state intact, page tool registered again.
    expect(await remote.execute('remember', {})).toBe('kept');
    expect(await remote.execute('page_tool', {})).toBe('from page');
    expect((await remote.declarations()).map((d) => d.name)).toEqual(['hang', 'slow', 'remember', 'page_tool']);
    expect(remote.status).toBe('ready');
  });

  it('marks a hung plain endpoint unavailable: timeout, then a clear unavailable for later calls', async () => {
    let worker: FakeWorker | undefined;
    worker = fakeWorker(
      () =>
        new ToolRunner({
          tools: [
            defineTool({
              name: 'hang',
              description: 'freezes its worker',
              parameters: { type: 'object' },
              call: () => {
                worker?.freeze();
                return new Promise(() => undefined);
              },
            }),
          ],
        }),
    );
    const terminated: Endpoint[] = [];
    const remote = track(connectToolRunner(worker.host, { terminate: (ep) => void terminated.push(ep), graceMs: 100 }));
    const [result] = await remote.processToolCalls([{ id: 'h', name: 'hang', args: {} }], { timeoutMs: 200 });
    expect(result).toMatchObject({ id: 'h', name: 'hang', code: 'timeout' });
    expect(terminated).toEqual([worker.host]);
    expect(remote.status).toBe('unavailable');
    const later = await remote.execute('hang', {}).catch((error: unknown) => error);
    expect(later).toMatchObject({ code: 'unavailable' });
    expect((later as Error).message).toMatch(/pass a factory/);
    await expect(remote.declarations()).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('terminate() ends the worker; later calls are unavailable', async () => {
    const worker = fakeWorker(() => new ToolRunner({ tools: workerTools() }));
    const ended: Endpoint[] = [];
    const remote = connectToolRunner(worker.host, { terminate: (ep) => void ended.push(ep) });
    expect(await remote.execute('echo', { text: 'a' })).toMatchObject({ text: 'a' });
    await remote.terminate();
    expect(ended).toEqual([worker.host]);
    expect(remote.status).toBe('terminated');
    await expect(remote.execute('echo', { text: 'a' })).rejects.toMatchObject({ code: 'unavailable', message: /terminated/ });
    expect(await remote.processToolCalls([{ name: 'echo', args: { text: 'a' } }])).toEqual([
      { name: 'echo', error: 'the remote tool runner was terminated', code: 'unavailable' },
    ]);
  });

  it('answers unavailable when the worker setup fails, and fails in-flight calls when the worker exits', async () => {
    const failing = fakeWorker(() => {
      throw new Error('platform could not open');
    });
    const broken = track(connectToolRunner(failing.host, closeHook));
    await expect(broken.execute('echo', {})).rejects.toMatchObject({ code: 'unavailable', message: /platform could not open/ });

    let exit: ((reason: string) => void) | undefined;
    const worker = fakeWorker(
      () =>
        new ToolRunner({
          tools: [defineTool({ name: 'forever', description: 'never ends', parameters: { type: 'object' }, call: () => new Promise(() => undefined) })],
        }),
    );
    const remote = track(
      connectToolRunner(worker.host, {
        ...closeHook,
        watch: (_ep, onExit) => {
          exit = onExit;
        },
      }),
    );
    await remote.declarations();
    const pending = remote.execute('forever', {});
    setTimeout(() => exit?.('exit code 1'), 20);
    await expect(pending).rejects.toMatchObject({ code: 'unavailable', message: /exited \(exit code 1\)/ });
  });

  it('lists the worker\'s tools with annotations, and runs an execute-form zod tool on the page beside classic ones', async () => {
    const worker = fakeWorker(() => new ToolRunner({ tools: workerTools() }));
    const remote = track(connectToolRunner(worker.host, closeHook));
    const seen: unknown[] = [];
    await remote.register(
      defineTool({
        name: 'page_pick',
        description: 'asks the user to pick',
        inputSchema: z.object({ choices: z.array(z.string()).min(1).refine((list) => new Set(list).size === list.length, 'choices must differ'), shout: z.boolean().transform((b) => (b ? '!' : '')) }),
        annotations: { readOnlyHint: true, title: 'Pick' },
        execute: (input, ctx) => {
          seen.push(input);
          return { picked: `${input.choices[0] ?? ''}${input.shout}`, conversation: ctx.conversationId };
        },
      }),
    );
    const tools = await remote.tools();
    expect(tools.map((t) => [t.name, t.annotations, t.concurrencySafe])).toEqual([
      ['echo', { readOnlyHint: true }, true],
      ['lookup', { readOnlyHint: false }, false],
      ['page_pick', { readOnlyHint: true, title: 'Pick' }, true],
    ]);
    expect(tools[2]?.parameters).toMatchObject({ type: 'object', required: ['choices', 'shout'], additionalProperties: false });
    const results = await remote.processToolCalls([
      { id: 'a', name: 'page_pick', args: { choices: ['x', 'y'], shout: 'true' } },
      { id: 'b', name: 'page_pick', args: { choices: ['x', 'x'], shout: false } },
      { id: 'b2', name: 'page_pick', args: { choices: [], shout: false } },
      { id: 'c', name: 'echo', args: { text: 'classic' } },
    ]);
    expect(results[0]).toEqual({ id: 'a', name: 'page_pick', result: { picked: 'x!', conversation: 'default' } });
    // The refinement runs on the page, in zod; what JSON Schema can say, the worker's ajv checks first.
    expect(results[1]).toEqual({ id: 'b', name: 'page_pick', error: 'invalid arguments for page_pick: choices must differ', code: 'invalid_arguments' });
    expect(results[2]).toEqual({ id: 'b2', name: 'page_pick', error: 'invalid arguments for page_pick: choices must not be empty', code: 'invalid_arguments' });
    expect(results[3]).toMatchObject({ id: 'c', name: 'echo', result: { text: 'classic' } });
    expect(seen).toEqual([{ choices: ['x', 'y'], shout: '!' }]);
  });

  it('changes permissions and plan mode of the worker\'s runner, and keeps them across a restart', async () => {
    const workers: FakeWorker[] = [];
    const setup = (): ToolRunner =>
      new ToolRunner({
        tools: [echoTool as Tool, defineTool({ name: 'write', description: 'mutates', inputSchema: { type: 'object' }, execute: () => 'written' }) as unknown as Tool],
      });
    const remote = track(
      connectToolRunner(
        () => {
          const worker = fakeWorker(setup);
          workers.push(worker);
          return worker.host;
        },
        { ...closeHook, graceMs: 50 },
      ),
    );
    expect(await remote.execute('write', {})).toBe('written');
    await remote.setPlanMode(true);
    await expect(remote.execute('write', {})).rejects.toMatchObject({ code: 'permission_denied', message: expect.stringContaining('plan mode is on') });
    await remote.setPlanMode(false);
    await remote.setPermissions({ deny: ['write'] });
    await expect(remote.execute('write', {})).rejects.toMatchObject({ code: 'permission_denied', message: 'write is denied by the permission rules' });
    await expect(remote.setPermissions({ ask: async () => 'allow_once' } as never)).rejects.toThrow(TypeError);
    // A hung worker is replaced; the new one gets the page's policy before it serves a call.
    workers[0]?.freeze();
    await expect(remote.execute('echo', { text: 'x' }, { timeoutMs: 30 })).rejects.toMatchObject({ code: 'timeout' });
    expect(remote.restarts).toBe(1);
    await expect(remote.execute('write', {})).rejects.toMatchObject({ code: 'permission_denied', message: 'write is denied by the permission rules' });
    expect(await remote.execute('echo', { text: 'y' })).toMatchObject({ text: 'y' });
  });

  it('tells the worker when the page leaves: the exposure\'s closed resolves', async () => {
    const { port1, port2 } = new MessageChannel();
    const exposure = exposeToolRunner(new ToolRunner({ tools: workerTools() }), port2 as unknown as Endpoint);
    port2.start();
    const remote = connectToolRunner(port1 as unknown as Endpoint);
    expect((await remote.declarations()).length).toBe(2);
    let closed = false;
    void exposure.closed.then(() => (closed = true));
    await remote.terminate();
    await exposure.closed;
    expect(closed).toBe(true);
    port2.close();
  });
});
