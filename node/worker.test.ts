import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../test/support/build.js';
import type { ToolMessage } from '../src/core/runner.js';
import type { RemoteToolRunner } from '../src/remote/remote.js';
import { exposeToolRunnerInWorker, spawnToolWorker } from './worker.js';
import { ToolRunner } from '../src/runner.js';
import { stopwatch } from '../test/support/starvation.js';

// Workers run built modules (the sources' imports name .js files): buildPackage gives a folder linked
// to the shared build, and a plain .mjs worker module written beside it imports the built entries.
let WORKER_MODULE: string;

const WORKER_SOURCE = `
import { threadId, workerData } from 'node:worker_threads';
import { ToolRunner, defineTool, BuiltinTools } from './src/index.js';
const { CreateFile: createFileTool, EditFile: editFileTool, ViewFile: viewFileTool } = BuiltinTools;
import { createNodePlatform, exposeToolRunnerInWorker } from './node/index.js';

exposeToolRunnerInWorker(({ onMessage }) => {
  const platform = createNodePlatform({ root: workerData.root, stateDir: workerData.stateDir });
  // What the last 'wait' call saw its signal abort with (state set by a call that fails is not kept).
  let lastAbort = null;
  return new ToolRunner({
    platform,
    onMessage,
    review: (conversationId) => conversationId.startsWith('review-'),
    tools: [
      createFileTool,
      editFileTool,
      viewFileTool,
      defineTool({ name: 'thread', description: 'the worker thread id', parameters: { type: 'object' }, readOnly: true,
        call: async () => threadId }),
      defineTool({ name: 'block', description: 'blocks its thread forever', parameters: { type: 'object' },
        call: async () => { while (true) {} } }),
      defineTool({ name: 'remember', description: 'sets and reads state', parameters: { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } },
        callWithContext: async ({ key = 'note', value }, ctx) => {
          if (value !== undefined) ctx.setState(key, value);
          return ctx.getState(key) ?? null;
        } }),
      defineTool({ name: 'progress', description: 'sends messages', parameters: { type: 'object' },
        callWithContext: async (_args, ctx) => { await ctx.send({ step: 1 }); await ctx.send({ step: 2 }); return 'done'; } }),
      defineTool({ name: 'crash', description: 'throws an uncaught error soon', parameters: { type: 'object' },
        call: () => { setTimeout(() => { throw new Error('boom in worker'); }, 20); return new Promise(() => {}); } }),
      defineTool({ name: 'wait', description: 'waits for its signal', parameters: { type: 'object' },
        callWithContext: (_args, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => {
          lastAbort = String(ctx.signal.reason?.code);
          reject(ctx.signal.reason);
        })) }),
      defineTool({ name: 'last_abort', description: 'the reason code the last wait call saw', parameters: { type: 'object' }, readOnly: true,
        call: async () => lastAbort }),
    ],
  });
});
`;

let dirs: { root: string; stateDir: string; base: string };
const remotes: RemoteToolRunner[] = [];

beforeAll(() => {
  WORKER_MODULE = join(buildPackage('toolhost-worker-test'), 'tool-worker.mjs');
  writeFileSync(WORKER_MODULE, WORKER_SOURCE);
}, 120_000);

afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.terminate()));
  if (dirs) rmSync(dirs.base, { recursive: true, force: true });
});

function tempDirs(): { root: string; stateDir: string; base: string } {
  const base = mkdtempSync(join(tmpdir(), 'toolhost-worker-'));
  const root = join(base, 'workspace');
  const stateDir = join(base, 'state');
  mkdirSync(root);
  mkdirSync(stateDir);
  dirs = { root, stateDir, base };
  return dirs;
}

function spawn(extra: Partial<Parameters<typeof spawnToolWorker>[0]> = {}): { remote: RemoteToolRunner; workers: Worker[]; exits: Promise<number>[] } {
  const { root, stateDir } = tempDirs();
  const workers: Worker[] = [];
  const exits: Promise<number>[] = [];
  const remote = spawnToolWorker({
    module: WORKER_MODULE,
    workerData: { root, stateDir },
    onSpawn: (worker) => {
      workers.push(worker);
      exits.push(new Promise((resolve) => worker.once('exit', resolve)));
    },
    ...extra,
  });
  remotes.push(remote);
  return { remote, workers, exits };
}

describe('spawnToolWorker', () => {
  it('replaces a worker stuck in while (true) {}: timeout within ~1.3 s, next call works, files and state intact', async () => {
    const { remote, workers, exits } = spawn();
    const first = (await remote.execute('thread', {})) as number;
    const file = join(dirs.root, 'notes', 'a b (ü).txt');
    expect(await remote.execute('create_file', { file_path: file, content: 'line 1\nline 2\n' })).toMatchObject({ created: true });
    expect(await remote.execute('remember', { value: 'acknowledged' })).toBe('acknowledged');

    const started = stopwatch();
    const [result] = await remote.processToolCalls([{ id: 'b', name: 'block', args: {} }], { timeoutMs: 300 });
    const elapsed = started.net();
    expect(result).toMatchObject({ id: 'b', name: 'block', code: 'timeout' });
    expect((result as { error: string }).error).toMatch(/within 300 ms.*restarted/);
    expect(elapsed).toBeLessThan(1300);
    expect(remote.restarts).toBe(1);
    expect(workers).toHaveLength(2);
    await expect(exits[0]).resolves.toBeTypeOf('number'); // the stuck thread was terminated

    const second = (await remote.execute('thread', {})) as number;
    expect(second).not.toBe(first);
    expect(await remote.execute('remember', {})).toBe('acknowledged');
    expect(await remote.execute('view_file', { file_path: file })).toMatchObject({ content: 'line 1\nline 2', total_lines: 2 });
    expect(readFileSync(file, 'utf8')).toBe('line 1\nline 2\n');

    await remote.terminate();
    await expect(exits[1]).resolves.toBeTypeOf('number');
    expect(remote.status).toBe('terminated');
    await expect(remote.execute('thread', {})).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('carries messages, page-side tools, error codes and cancellation across the thread', async () => {
    const messages: ToolMessage[] = [];
    const { remote } = spawn({ onMessage: (m) => void messages.push(m) });
    await remote.register({
      name: 'page_time',
      description: 'runs in the host thread',
      parameters: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
      call: async (args: unknown) => `host:${(args as { label: string }).label}`,
    });
    expect(await remote.processToolCalls([
      { id: '1', name: 'page_time', args: { label: 'x' } },
      { id: '2', name: 'progress', args: {} },
      { id: '3', name: 'view_file', args: { file_path: join(dirs.root, 'missing.txt') } },
      { id: '4', name: 'page_time', args: {} },
    ])).toEqual([
      { id: '1', name: 'page_time', result: 'host:x' },
      { id: '2', name: 'progress', result: 'done' },
      expect.objectContaining({ id: '3', name: 'view_file', code: 'not_found' }),
      expect.objectContaining({ id: '4', name: 'page_time', code: 'invalid_arguments' }),
    ]);
    expect(messages.map((m) => [m.callId, m.tool, m.message])).toEqual([
      ['2', 'progress', { step: 1 }],
      ['2', 'progress', { step: 2 }],
    ]);

    const controller = new AbortController();
    const waiting = remote.execute('wait', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
    // The worker tool saw its signal abort, reason code `cancelled`.
    expect(await remote.execute('last_abort', {})).toBe('cancelled');
    expect(remote.restarts).toBe(0);
  });

  it('carries the journal and review across the thread: changes, rewind, pendingChanges, accept, reject, and their TypeErrors', async () => {
    const { remote } = spawn();
    const file = join(dirs.root, 'plan.txt');
    await remote.execute('create_file', { file_path: file, content: 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n' }, { conversationId: 'chat' });
    await remote.execute('edit_file', { file_path: file, old_string: 'a', new_string: 'A' }, { conversationId: 'chat' });
    const changes = await remote.changes('chat');
    expect(changes.turns.map((t) => [t.turn, t.calls[0]?.tool])).toEqual([[1, 'create_file'], [2, 'edit_file']]);
    expect(changes.turns[1]?.calls[0]?.files[0]?.diff).toContain('-a\n+A\n');
    expect(await remote.rewind('chat', { toTurn: 1 })).toEqual({ restored: [file], conflicts: [], turn: 3 });
    expect(readFileSync(file, 'utf8')).toBe('a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n');
    await expect(remote.rewind('chat', { toTurn: 7 })).rejects.toBeInstanceOf(TypeError);

    await remote.processToolCalls([
      { id: 'x', name: 'edit_file', args: { file_path: file, old_string: 'a', new_string: 'first' } },
      { id: 'y', name: 'edit_file', args: { file_path: file, old_string: 'j', new_string: 'last' } },
    ], { conversationId: 'review-1' });
    expect(readFileSync(file, 'utf8')).toBe('a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n');
    const [staged] = (await remote.pendingChanges('review-1')).files;
    expect(staged?.hunks.map((h) => [h.oldStart, h.newLines])).toEqual([[1, 4], [7, 4]]);
    expect((await remote.reject('review-1', { hunks: [staged?.hunks[1]?.id as string] })).hunks).toEqual([staged?.hunks[1]?.id]);
    expect((await remote.accept('review-1', { paths: [file] })).written).toEqual([file]);
    expect(readFileSync(file, 'utf8')).toBe('first\nb\nc\nd\ne\nf\ng\nh\ni\nj\n');
    await expect(remote.accept('review-1', { hunks: ['gone'] })).rejects.toBeInstanceOf(TypeError);
    await expect(remote.pendingChanges('chat')).resolves.toEqual({ conversationId: 'chat', files: [] });
  });

  it('fails in-flight calls with unavailable when the worker crashes, then starts a new one', async () => {
    const errors: Error[] = [];
    const { remote, workers } = spawn({ onError: (e) => void errors.push(e) });
    await expect(remote.execute('crash', {})).rejects.toMatchObject({ code: 'unavailable', message: /exited .*boom in worker/ });
    expect(errors.map((e) => e.message)).toEqual(['boom in worker']);
    expect(await remote.execute('remember', { value: 'after crash' })).toBe('after crash');
    expect(workers).toHaveLength(2);
    expect(remote.restarts).toBe(1);
  });

  it('exposeToolRunnerInWorker outside a worker thread throws a TypeError (the host\'s mistake) saying where to call it', () => {
    let thrown: unknown;
    try {
      exposeToolRunnerInWorker(new ToolRunner());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as { code?: unknown }).code).toBeUndefined();
    expect((thrown as TypeError).message).toBe(
      'exposeToolRunnerInWorker runs inside a worker_threads Worker (parentPort is null); call it in the module you give spawnToolWorker, not in the main thread',
    );
  });

  it('refuses a module path with no file there, and other bad options, with a TypeError before any worker starts', () => {
    const missing = join(dirname(WORKER_MODULE), 'does-not-exist.mjs');
    expect(() => spawnToolWorker({ module: missing })).toThrow(
      new TypeError(`spawnToolWorker: module must be a path or file: URL of an existing module; there is no file at ${missing}`),
    );
    expect(() => spawnToolWorker({ module: pathToFileURL(missing) })).toThrow(
      new TypeError(`spawnToolWorker: module must be a path or file: URL of an existing module; there is no file at ${missing}`),
    );
    expect(() => spawnToolWorker({} as never)).toThrow(new TypeError('spawnToolWorker: module must be a path or file: URL of an existing module, not undefined'));
    expect(() => spawnToolWorker(undefined as never)).toThrow(
      new TypeError('spawnToolWorker: options must be an object with module (the path or URL of the worker module), not undefined'),
    );
    expect(() => spawnToolWorker({ module: WORKER_MODULE, graceMS: 5 } as never)).toThrow(new TypeError('spawnToolWorker: graceMS is not an option (did you mean graceMs?)'));
    expect(() => spawnToolWorker({ module: WORKER_MODULE, unref: 'yes' } as never)).toThrow(new TypeError('spawnToolWorker: unref must be true or false, not "yes"'));
  });

  it('reports a worker module that cannot load as unavailable', async () => {
    const broken = join(dirname(WORKER_MODULE), 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('this module cannot load');\n");
    const { remote } = spawn({ module: broken });
    const error = await remote.execute('thread', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect((error as Error).message).toMatch(/exited \(exit code 1/);
    expect(remote.restarts).toBe(0);
  });
});
