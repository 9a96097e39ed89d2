import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { defineTool } from '../src/core/tool.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import type { JsonValue } from '../src/core/types.js';
import { describePlatformContract } from '../test/contract/platform-contract.js';
import { buildPackage } from '../test/support/build.js';
import { startFaultyProxy, startRedisServer, type FaultyProxy, type TestRedisServer } from '../test/support/redis-server.js';
import { createNodePlatform } from './platform.js';
import { createRedisStateStore, type RedisStateStore } from './redis-state-store.js';
import { stopwatch } from '../test/support/starvation.js';

let server: TestRedisServer;
let raw: Redis;
let root: string;
let prefixes = 0;
const stores: RedisStateStore[] = [];

/** A store on the test's server with a prefix of its own, closed after the file. */
function store(extra: Partial<Parameters<typeof createRedisStateStore>[0]> = {}, on: TestRedisServer = server): RedisStateStore {
  prefixes += 1;
  const made = createRedisStateStore({ url: on.url, prefix: `t${prefixes}:`, ...extra });
  stores.push(made);
  return made;
}

beforeAll(async () => {
  server = await startRedisServer();
  raw = new Redis(server.url, { lazyConnect: true });
  await raw.connect();
  root = mkdtempSync(join(tmpdir(), 'toolhost-redis-root-'));
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  raw?.disconnect();
  await server?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A tool that sets every key of `args.set` (JSON values). */
const put = defineTool({
  name: 'put',
  description: 'sets keys',
  parameters: { type: 'object', properties: { set: { type: 'object' } } },
  callWithContext: async (args, ctx) => {
    for (const [key, value] of Object.entries(args.set ?? {})) ctx.setState(key, value as JsonValue);
    return null;
  },
});

const counter = defineTool({
  name: 'increment',
  description: 'adds one to count',
  parameters: { type: 'object' },
  callWithContext: async (_args, ctx) => {
    const next = (ctx.getState<number>('count') ?? 0) + 1;
    ctx.setState('count', next);
    return next;
  },
});

const peek = defineTool({
  name: 'peek',
  description: 'reads a key',
  parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
  readOnly: true,
  callWithContext: async (args, ctx) => ctx.getState(args.key) ?? null,
});

/** Promises a test resolves by name, so a tool can wait at a known point. */
const gates = new Map<string, { promise: Promise<void>; open(): void; reached: Promise<void>; arrive(): void }>();
function gate(name: string): { open(): void; reached: Promise<void> } {
  let open!: () => void;
  let arrive!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  gates.set(name, {
    promise: promise.then(() => undefined),
    open,
    reached,
    arrive,
  });
  return { open, reached };
}

const waiting = defineTool({
  name: 'wait_then_put',
  description: 'sets keys, tells the test, waits for its gate',
  parameters: { type: 'object', properties: { set: { type: 'object' }, gate: { type: 'string' } }, required: ['gate'] },
  callWithContext: async (args, ctx) => {
    for (const [key, value] of Object.entries(args.set ?? {})) ctx.setState(key, value as JsonValue);
    const entry = gates.get(args.gate)!;
    entry.arrive();
    await entry.promise;
    return 'done';
  },
});

describePlatformContract(
  'node + Redis state',
  () => createNodePlatform({ root, state: store() }),
  { name: 'node', capabilities: { runCommand: true, webSearch: true, persistent: true } },
);

describe('createRedisStateStore', () => {
  it('refuses bad options with a TypeError naming the option, the value and what is accepted', () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'give url (redis://host:port) or client (an ioredis client); neither was given'],
      [{ url: server.url, client: {} }, 'client must be an ioredis client; it has no call, connect, duplicate, on, off, quit methods'],
      [{ client: { call() {}, connect() {}, duplicate() {}, on() {}, quit() {} } }, 'client must be an ioredis client; it has no off method'],
      [{ url: 'http://x' }, 'url must be a redis:// or rediss:// URL, not "http://x"'],
      [{ url: 'redis://[::1' }, 'url must be a redis:// or rediss:// URL, not "redis://[::1"'],
      [{ url: server.url, ttlSeconds: -5 }, 'ttlSeconds must be a positive integer, not -5'],
      [{ url: server.url, ttlSeconds: 1.5 }, 'ttlSeconds must be a positive integer, not 1.5'],
      [{ url: server.url, timeoutMs: 0 }, 'timeoutMs must be a finite positive number of milliseconds, not 0'],
      [{ url: server.url, lockTtlMs: Number.NaN }, 'lockTtlMs must be a finite positive number of milliseconds, not NaN'],
      [{ url: server.url, prefix: 5 }, 'prefix must be a string, not 5'],
      [{ url: server.url, ttl: 5 }, 'ttl is not an option (the options are url, client, prefix, workspace, ttlSeconds, timeoutMs, lockTtlMs)'],
      [{ url: server.url, timeoutMS: 5 }, 'timeoutMS is not an option (did you mean timeoutMs?)'],
      [null, 'options must be an object, not null'],
    ];
    for (const [options, message] of cases) {
      expect(() => createRedisStateStore(options as never), JSON.stringify(options)).toThrow(new TypeError(`createRedisStateStore: ${message}`));
    }
  });

  it("refuses a host's mistakes in its methods with a TypeError (never a tool error)", async () => {
    const state = store();
    await expect(state.get(5 as never, 'k')).rejects.toThrow(new TypeError('RedisStateStore: a conversation id must be a string, not 5'));
    await expect(state.setMany('c', [[7 as never, 1]])).rejects.toThrow(new TypeError('RedisStateStore: a state key must be a string, not 7'));
    const lease = await state.lock('reused', undefined);
    await lease.commit([['k', 1]]);
    await expect(lease.commit([['k', 2]])).rejects.toThrow(
      new TypeError('RedisStateStore: this state lease has already been committed or released; take a new one with lock()'),
    );
    expect(await state.getAll('reused')).toEqual({ k: 1 });
    expect(await state.getAll('c')).toEqual({});
  });

  it('waits for its connection with one listener however many calls arrive first: 20 calls before connect, no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const state = store();
      await raw.hset(state.keyOf('early'), 'k3', '"three"');
      const values = await Promise.all(Array.from({ length: 20 }, (_, i) => state.get('early', `k${i}`)));
      expect(values).toEqual(Array.from({ length: 20 }, (_, i) => (i === 3 ? 'three' : undefined)));
      // 20 state-changing calls of a second store, also before it connects.
      const second = store();
      const runner = new ToolRunner({ platform: createMemoryPlatform({ state: second }), tools: [counter] });
      const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => runner.execute('increment', {}, { conversationId: `early ${i % 2}` })));
      expect(counts.sort((a, b) => (a as number) - (b as number))).toEqual(Array.from({ length: 10 }, (_, i) => [i + 1, i + 1]).flat());
      // Node emits warnings on the next tick.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning').map((warning) => warning.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a caller retrying at once on a connection that just failed does not spin: the store waits for the reconnect', async () => {
    const given = new Redis(server.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    given.on('error', () => undefined);
    try {
      const state = createRedisStateStore({ client: given, prefix: 'spin:' });
      await state.set('c', 'k', 1);
      let ticked = false;
      setTimeout(() => (ticked = true), 0);
      // This side's half of the connection ends: nothing can be written, and ioredis still says
      // `ready` until the event loop turns and it sees the close.
      (given as unknown as { stream: Socket }).stream.end();
      let spins = 0;
      let value: unknown;
      while (value === undefined && spins < 10_000) {
        spins += 1;
        value = await state.get('c', 'k').catch(() => undefined);
      }
      expect({ ticked, value }).toEqual({ ticked: true, value: 1 });
      expect(spins).toBeLessThan(10_000);
    } finally {
      given.disconnect();
    }
  });

  it('keeps each workspace and conversation apart under its prefix, and serves a memory platform', async () => {
    const a = store({ prefix: 'ns:', workspace: 'ws a' });
    const b = createRedisStateStore({ url: server.url, prefix: 'ns:', workspace: 'ws b' });
    stores.push(b);
    const runner = new ToolRunner({ platform: createMemoryPlatform({ state: a }), tools: [put] });
    await runner.execute('put', { set: { k: 'one' } }, { conversationId: 'c {1}' });
    await runner.execute('put', { set: { k: 'two' } }, { conversationId: 'c2' });
    expect(await a.getAll('c {1}')).toEqual({ k: 'one' });
    expect(await a.getAll('c2')).toEqual({ k: 'two' });
    expect(await b.getAll('c {1}')).toEqual({});
    expect(a.keyOf('c {1}')).toBe('ns:ws%20a:{c%20%7B1%7D}:state');
    expect(await raw.hgetall('ns:ws%20a:{c%20%7B1%7D}:state')).toEqual({ k: '"one"' });
  });

  it('uses a given ioredis client and leaves it open on close', async () => {
    const given = new Redis(server.url);
    try {
      const state = createRedisStateStore({ client: given, prefix: 'given:' });
      await state.set('c', 'k', { v: 1 });
      await state.close();
      expect(await given.hget(state.keyOf('c'), 'k')).toBe('{"v":1}');
      await expect(state.get('c', 'k')).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('closed') });
    } finally {
      given.disconnect();
    }
  });

  it('commits every key a call set in one step, and expires state ttlSeconds after its last change', async () => {
    const state = store({ ttlSeconds: 120 });
    const runner = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [put] });
    await runner.execute('put', { set: { a: 1, b: [2], c: { d: 3 } } }, { conversationId: 'ttl' });
    expect(await raw.hgetall(state.keyOf('ttl'))).toEqual({ a: '1', b: '[2]', c: '{"d":3}' });
    const ttl = await raw.ttl(state.keyOf('ttl'));
    expect(ttl > 110 && ttl <= 120).toBe(true);
  });

  it('sees commits made through another runner (another process) before each call', async () => {
    const state = store();
    const first = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [counter, peek] });
    const second = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [counter, peek] });
    expect(await first.execute('increment', {}, { conversationId: 'x' })).toBe(1);
    expect(await second.execute('increment', {}, { conversationId: 'x' })).toBe(2);
    expect(await first.execute('peek', { key: 'count' }, { conversationId: 'x' })).toBe(2);
    expect(await first.execute('increment', {}, { conversationId: 'x' })).toBe(3);
    expect(await second.getState('x')).toEqual({ count: 3 });
  });

  it('serialises state-changing calls of a conversation while read-only calls run beside them', async () => {
    const state = store();
    const holder = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [waiting, peek, counter] });
    const other = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [waiting, peek, counter] });
    await holder.execute('increment', {}, { conversationId: 'ser' });
    const held = gate('ser');
    const holding = holder.execute('wait_then_put', { gate: 'ser', set: { count: 10 } }, { conversationId: 'ser' });
    await held.reached;
    // A read-only call does not wait for the lock and sees the last commit.
    expect(await other.execute('peek', { key: 'count' }, { conversationId: 'ser' })).toBe(1);
    const blocked = other.execute('increment', {}, { conversationId: 'ser' });
    let settled = false;
    void blocked.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(settled).toBe(false);
    held.open();
    expect(await holding).toBe('done');
    expect(await blocked).toBe(11);
    expect(await state.getAll('ser')).toEqual({ count: 11 });
  });

  it('answers timeout when another holder keeps the lock past the deadline, within deadline + 250 ms', async () => {
    const state = store();
    const holder = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [waiting] });
    const other = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [counter] });
    const held = gate('busy');
    const holding = holder.execute('wait_then_put', { gate: 'busy', set: { count: 5 } }, { conversationId: 'busy' });
    await held.reached;
    const started = stopwatch();
    const result = await other.processToolCalls([{ name: 'increment', args: {} }], { conversationId: 'busy', timeoutMs: 400 });
    expect(result[0]).toMatchObject({ code: 'timeout' });
    expect(started.net()).toBeLessThan(400 + 250);
    held.open();
    await holding;
    expect(await state.getAll('busy')).toEqual({ count: 5 });
  });

  it('fences a commit: a lease whose lock was lost stores nothing', async () => {
    const state = store({ lockTtlMs: 60_000 });
    const lease = await state.lock('fence', undefined);
    await raw.del(`${state.keyOf('fence').slice(0, -'state'.length)}lock`);
    const next = await state.lock('fence', undefined);
    await expect(lease.commit([['k', 'stale']])).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('lock expired') });
    await next.commit([['k', 'fresh']]);
    expect(await state.getAll('fence')).toEqual({ k: 'fresh' });
  });

  it('answers unavailable within the deadline when Redis stops answering, and stores nothing late', async () => {
    const paused = await startRedisServer();
    try {
      const state = store({ timeoutMs: 2_000 }, paused);
      const runner = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [put, counter, waiting] });
      await runner.execute('put', { set: { kept: 'before' } }, { conversationId: 'slow' });
      const held = gate('slow');
      const started = stopwatch();
      const call = runner.processToolCalls([{ name: 'wait_then_put', args: { gate: 'slow', set: { kept: 'after' } } }], { conversationId: 'slow', timeoutMs: 600 });
      await held.reached;
      paused.pause();
      held.open();
      const [result] = await call;
      expect(started.net()).toBeLessThan(600 + 250);
      // The commit was sent and Redis never answered: it cannot tell whether it ran, and says so.
      expect(result).toMatchObject({ code: 'unavailable', error: expect.stringContaining('Redis did not answer the state commit in time, and Redis could not be asked again before the deadline: the outcome is unknown') });
      // Timed as the first: less the time this process waited for a core (a busy machine took 651 ms by the wall clock).
      const second = stopwatch();
      const next = await runner.processToolCalls([{ name: 'increment', args: {} }], { conversationId: 'slow', timeoutMs: 400 });
      expect(next[0]).toMatchObject({ code: 'unavailable' });
      expect(second.net()).toBeLessThan(400 + 250);
      paused.resume();
      // The scripts that reached Redis late refused to run: the state is the acknowledged one and the lock is free.
      expect(await state.getAll('slow')).toEqual({ kept: 'before' });
      expect(await runner.execute('increment', {}, { conversationId: 'slow', timeoutMs: 5_000 })).toBe(1);
      expect(await state.getAll('slow')).toEqual({ kept: 'before', count: 1 });
    } finally {
      paused.resume();
      await paused.stop();
    }
  });

  it('a Redis killed mid-batch gives unavailable and no partial commit; after a restart the state is the last acknowledged one', async () => {
    const durable = await startRedisServer({ durable: true });
    try {
      const state = store({ timeoutMs: 1_000, lockTtlMs: 1_000 }, durable);
      const runner = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [put, waiting, counter, peek] });
      const held = gate('kill');
      const batch = runner.processToolCalls(
        [
          { id: '1', name: 'put', args: { set: { a: 1, b: 1 } } },
          { id: '2', name: 'put', args: { set: { a: 2, b: 2, c: 2 } } },
          { id: '3', name: 'wait_then_put', args: { gate: 'kill', set: { a: 3, b: 3, c: 3, d: 3 } } },
          { id: '4', name: 'put', args: { set: { a: 4 } } },
        ],
        { conversationId: 'kill' },
      );
      await held.reached;
      await durable.kill9();
      held.open();
      const results = await batch;
      expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['ok', 'ok', 'unavailable', 'unavailable']);
      await durable.restart();
      // A read with a deadline waits for the reconnect (the store's own operations wait 1 s at most).
      expect(await runner.execute('peek', { key: 'c' }, { conversationId: 'kill', timeoutMs: 5_000 })).toBe(2);
      expect(await state.getAll('kill')).toEqual({ a: 2, b: 2, c: 2 });
      // It reconnected by itself; the dead call's lock runs out after its 1 s lease.
      expect(await runner.execute('put', { set: { d: 'later' } }, { conversationId: 'kill', timeoutMs: 5_000 })).toBe(null);
      expect(await state.getAll('kill')).toEqual({ a: 2, b: 2, c: 2, d: 'later' });
    } finally {
      await durable.stop();
    }
  });
});

describe('createRedisStateStore: a commit whose connection fails before its answer', () => {
  let proxy: FaultyProxy;
  beforeAll(async () => {
    proxy = await startFaultyProxy(server);
  });
  afterAll(async () => {
    proxy?.setDown(false);
    await proxy?.close();
  });

  /** What `lose` does to the connection once the tool has run (the runner's next command is the commit). */
  const faults = {
    reply: () => proxy.loseNextReply(),
    command: () => proxy.loseNextCommand(),
    'reply, then down': () => {
      proxy.setDown(true);
      proxy.loseNextReply();
    },
    'command, then down': () => {
      proxy.setDown(true);
      proxy.loseNextCommand();
    },
  };
  const putThenLose = defineTool({
    name: 'put_then_lose',
    description: 'sets keys, then makes the proxy lose the commit',
    parameters: { type: 'object', properties: { set: { type: 'object' }, lose: { type: 'string' } }, required: ['lose'] },
    callWithContext: async (args, ctx) => {
      for (const [key, value] of Object.entries(args.set ?? {})) ctx.setState(key, value as JsonValue);
      faults[args.lose as keyof typeof faults]();
      return 'done';
    },
  });

  /** A runner on a store reached through the proxy, its scripts loaded by a first call. */
  async function proxied(): Promise<{ state: RedisStateStore; runner: ToolRunner }> {
    const state = store({ url: proxy.url });
    const runner = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [put, putThenLose] });
    await runner.execute('put', { set: { warm: 1 } }, { conversationId: 'warm-up' });
    return { state, runner };
  }

  it('a commit that landed but whose reply was lost answers success, found by its mark after the reconnect', async () => {
    const { state, runner } = await proxied();
    await runner.execute('put', { set: { n: 1 } }, { conversationId: 'landed' });
    const accepted = proxy.accepted;
    const [result] = await runner.processToolCalls([{ name: 'put_then_lose', args: { set: { n: 2 }, lose: 'reply' } }], { conversationId: 'landed', timeoutMs: 10_000 });
    expect(result).toEqual({ name: 'put_then_lose', result: 'done' });
    expect(proxy.accepted).toBeGreaterThan(accepted);
    expect(await state.getAll('landed')).toEqual({ n: 2 });
    // The runner's cache holds the committed version: the next call builds on it.
    expect(await runner.execute('put', { set: { m: 3 } }, { conversationId: 'landed' })).toBe(null);
    expect(await raw.hgetall(state.keyOf('landed'))).toEqual({ n: '2', m: '3' });
  });

  it('a commit lost on its way to Redis is sent again after the reconnect and lands once', async () => {
    const { state, runner } = await proxied();
    const accepted = proxy.accepted;
    const [result] = await runner.processToolCalls([{ name: 'put_then_lose', args: { set: { n: 1 }, lose: 'command' } }], { conversationId: 'resent', timeoutMs: 10_000 });
    expect(result).toEqual({ name: 'put_then_lose', result: 'done' });
    expect(proxy.accepted).toBeGreaterThan(accepted);
    expect(await state.getAll('resent')).toEqual({ n: 1 });
  });

  it('a store write (setMany, no lock) whose reply was lost resolves the same way', async () => {
    const { state } = await proxied();
    proxy.loseNextReply();
    await state.setMany('plain', [['a', 1], ['b', [2]]]);
    expect(await state.getAll('plain')).toEqual({ a: 1, b: [2] });
  });

  it('Redis lost during the commit and down past the deadline: the answer says the outcome is unknown, never that nothing changed', async () => {
    const { state, runner } = await proxied();
    const unknown = {
      code: 'unavailable',
      message: expect.stringContaining('the outcome is unknown, the write may or may not have been applied; read the state before retrying'),
      details: { outcome: 'unknown' },
    };
    try {
      // The commit ran in Redis; its reply was lost and Redis stayed out of reach until the deadline.
      const started = stopwatch();
      await expect(runner.execute('put_then_lose', { set: { n: 1 }, lose: 'reply, then down' }, { conversationId: 'unknown', timeoutMs: 800 })).rejects.toMatchObject(unknown);
      expect(started.net()).toBeLessThan(800 + 1_000);
      proxy.setDown(false);
      expect(await state.getAll('unknown')).toEqual({ n: 1 });
      // Lost on the way: it did not land, but the store cannot tell either, so it says the same.
      const [lost] = await runner.processToolCalls([{ name: 'put_then_lose', args: { set: { n: 2 }, lose: 'command, then down' } }], { conversationId: 'unknown', timeoutMs: 800 });
      expect(lost).toMatchObject({ code: 'unavailable', error: unknown.message });
      proxy.setDown(false);
      expect(await state.getAll('unknown')).toEqual({ n: 1 });
      // The runner rereads the state after an unknown outcome: the next call sees what Redis holds.
      expect(await runner.execute('put', { set: { m: 3 } }, { conversationId: 'unknown', timeoutMs: 10_000 })).toBe(null);
      expect(await state.getAll('unknown')).toEqual({ n: 1, m: 3 });
    } finally {
      proxy.setDown(false);
    }
  });

  it('a lease commit sent again after Redis answered it refuses nothing and applies nothing twice (its mark)', async () => {
    const { state } = await proxied();
    const lease = await state.lock('twice', undefined);
    proxy.loseNextReply();
    const version = await lease.commit([['k', 'once']], { deadline: Date.now() + 10_000 });
    expect(await raw.get(`${state.keyOf('twice').slice(0, -'state'.length)}version`)).toBe(version);
    const mark = `${state.keyOf('twice').slice(0, -'state'.length)}commit:${version}`;
    expect(await raw.get(mark)).toBe('1');
    // The mark outlives the deadline by a minute, then expires.
    const ttl = await raw.pttl(mark);
    expect(ttl > 60_000 && ttl <= 70_000).toBe(true);
  });
});

describe('createRedisStateStore across processes', () => {
  it('two processes, 200 interleaved increments of one conversation: the final count is 200', async () => {
    const built = buildPackage('toolhost-redis-test');
    const child = join(built, 'increment-child.mjs');
    writeFileSync(
      child,
      `import { ToolRunner, defineTool, createMemoryPlatform } from './src/index.js';
import { createRedisStateStore } from './node/index.js';
const [url, prefix, count, tag] = process.argv.slice(2);
const state = createRedisStateStore({ url, prefix });
const increment = defineTool({ name: 'increment', description: '', parameters: { type: 'object', properties: { i: { type: 'number' } } },
  callWithContext: async ({ i }, ctx) => {
    const next = (ctx.getState('count') ?? 0) + 1;
    // Yield between the read and the write, so an unserialised store would lose updates.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
    ctx.setState('count', next);
    ctx.setState('log', [...(ctx.getState('log') ?? []), tag + ':' + i]);
    return next;
  } });
const runner = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [increment] });
await state.getAll('warm-up');
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const seen = [];
// A pause after each call: the other process, however late a busy machine starts it, finds this one
// still counting (half a second in all), so the two interleave.
for (let i = 0; i < Number(count); i++) {
  seen.push(await runner.execute('increment', { i }, { conversationId: 'shared counter' }));
  await new Promise((resolve) => setTimeout(resolve, 5));
}
process.stdout.write(JSON.stringify(seen) + '\\n');
await state.close();
`,
    );
    const prefix = 'two-processes:';
    const children = ['p', 'q'].map((tag) => {
      const proc = spawn(process.execPath, [child, server.url, prefix, '100', tag], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      const ready = new Promise<void>((resolve) => proc.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.startsWith('ready\n')) resolve();
      }));
      const done = new Promise<number[]>((resolve, reject) => proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.split('\n')[1]!) as number[]) : reject(new Error(`child exited ${code}`)))));
      return { proc, ready, done };
    });
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.proc.stdin.end('go\n');
    const [p, q] = await Promise.all(children.map((c) => c.done));
    const state = createRedisStateStore({ url: server.url, prefix });
    stores.push(state);
    const final = (await state.getAll('shared counter')) as { count: number; log: string[] };
    expect(final.count).toBe(200);
    expect([...p!, ...q!].sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // Each process's own calls landed in its order, and both processes took turns.
    expect(final.log.filter((e) => e.startsWith('p:'))).toEqual(Array.from({ length: 100 }, (_, i) => `p:${i}`));
    expect(final.log.filter((e) => e.startsWith('q:'))).toEqual(Array.from({ length: 100 }, (_, i) => `q:${i}`));
    const turns = final.log.filter((e, i) => i > 0 && e[0] !== final.log[i - 1]![0]).length;
    expect(turns).toBeGreaterThan(1);
  }, 120_000);
});
