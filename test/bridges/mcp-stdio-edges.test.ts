// `toolhost mcp` on stdio at the edges of a connection, driven as a raw child process that writes
// JSON-RPC lines and reads what the built CLI writes: a client that writes its opening messages at
// once, SIGTERM while the server drains after stdin closed, and two requests under one id.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'toolhost.mjs');

interface Message {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

const INITIALIZE = { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'raw', version: '1' } } };
const INITIALIZED = { method: 'notifications/initialized' };

/** One JSON-RPC 2.0 line per message, as a client writes them. */
const linesOf = (...messages: object[]): string => messages.map((message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`).join('');

interface Server {
  child: ChildProcessWithoutNullStreams;
  /** Everything the server wrote to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** The complete lines of stdout so far, parsed. */
  messages(): Message[];
  /** Waits (up to 30 s) for a message of stdout that `match` takes; rejects saying what there was. */
  next(match: (message: Message) => boolean): Promise<Message>;
  /** The exit code and signal, once the process has exited and its pipes closed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `toolhost mcp ...args` in `cwd`, its stdio pipes to this test. */
function start(cwd: string, args: string[]): Server {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const messages = (): Message[] =>
    out
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as Message);
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    messages,
    exited,
    async next(match) {
      const end = Date.now() + 30_000;
      for (;;) {
        const found = messages().find(match);
        if (found) return found;
        if (Date.now() > end || child.exitCode !== null) throw new Error(`no such message; stdout: ${out.slice(0, 2000)}\nstderr: ${err}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

/** Whether process `pid` still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.concurrent('toolhost mcp on stdio, a raw client', () => {
  let base = '';
  let project = '';
  beforeAll(() => {
    ensureBuilt();
    base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-mcp-edges-')));
    project = join(base, 'project');
    mkdirSync(project);
    writeFileSync(join(base, 'where.txt'), 'the current directory\n');
    writeFileSync(join(project, 'where.txt'), 'the client root\n');
  });
  afterAll(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('answers initialize before it asks roots/list, when the client writes initialize, initialized and a request at once', async () => {
    const server = start(base, []);
    server.child.stdin.write(linesOf(INITIALIZE, INITIALIZED, { id: 2, method: 'tools/list' }));
    const ask = await server.next((message) => message.method === 'roots/list');
    await server.next((message) => message.id === 2);
    const order = server.messages().map((message) => message.method ?? `answer ${String(message.id)}`);
    // The initialize result is the first line; the server's request comes after it (the tools/list
    // answer may come before or after the request).
    expect(order[0]).toBe('answer 1');
    expect(server.messages()[0]?.result?.['protocolVersion']).toBe('2025-11-25');
    expect(order.indexOf('roots/list')).toBeGreaterThan(0);
    expect(order.filter((entry) => entry === 'roots/list')).toHaveLength(1);
    // The roots answered, calls run in the client's root.
    server.child.stdin.write(linesOf({ id: ask.id, result: { roots: [{ uri: pathToFileURL(project).href }] } }, { id: 3, method: 'tools/call', params: { name: 'view_file', arguments: { file_path: 'where.txt' } } }));
    const view = await server.next((message) => message.id === 3);
    expect(JSON.stringify(view.result)).toContain('the client root');
    server.child.stdin.end();
    expect((await server.exited).code).toBe(0);
  }, 60_000);

  it('asks roots/list only once the client sent notifications/initialized', async () => {
    const server = start(base, []);
    server.child.stdin.write(linesOf(INITIALIZE, { id: 2, method: 'ping' }));
    await server.next((message) => message.id === 2);
    // Time for a request the server would have sent unprompted.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.messages().map((message) => message.method ?? message.id)).toEqual([1, 2]);
    server.child.stdin.write(linesOf(INITIALIZED));
    const ask = await server.next((message) => message.method === 'roots/list');
    server.child.stdin.write(linesOf({ id: ask.id, result: { roots: [] } }));
    server.child.stdin.end();
    expect((await server.exited).code).toBe(0);
  }, 60_000);

  it('on SIGTERM while draining after stdin closed: aborts the call still running, writes the answers already given whole, exits 130 at once', async () => {
    const dir = join(base, 'drain');
    mkdirSync(dir);
    // An answer of about 1 MB: more than a pipe holds, so it is still being written while the client
    // does not read.
    writeFileSync(join(dir, 'big.txt'), `${'0123456789abcdef'.repeat(12).concat('\n').repeat(8000)}`);
    const server = start(dir, ['--root', dir]);
    // The client reads nothing until after the signal.
    server.child.stdout.pause();
    server.child.stdin.end(
      linesOf(
        INITIALIZE,
        INITIALIZED,
        { id: 2, method: 'tools/call', params: { name: 'view_file', arguments: { file_path: 'big.txt', end_line: 8000 } } },
        // A mutating call runs after the calls before it have answered: once it has written its pid,
        // the answer to 2 is written (or being written).
        { id: 3, method: 'tools/call', params: { name: 'run_command', arguments: { command: 'echo $$ > sleeper.pid; exec sleep 600' } } },
      ),
    );
    const pidFile = join(dir, 'sleeper.pid');
    const end = Date.now() + 30_000;
    while (!(existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n')) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
    const sleeper = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(sleeper)).toBe(true);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    // 1.2 s more without reading (longer than the launcher's second of grace after the command): the
    // exit waits for the answer written to go out whole.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    server.child.stdout.resume();
    const { code } = await server.exited;
    expect(code).toBe(130);
    expect(Date.now() - signalled).toBeLessThan(5000);
    expect(server.stdout().endsWith('\n')).toBe(true);
    const answers = server.messages();
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(JSON.stringify(answers[1]?.result)).toContain('0123456789abcdef');
    // The call cut short was aborted: its command is gone.
    const gone = Date.now() + 5000;
    while (alive(sleeper) && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive(sleeper)).toBe(false);
  }, 60_000);

  it('on SIGTERM with every request answered exits 0', async () => {
    const server = start(base, ['--root', base]);
    server.child.stdin.write(linesOf(INITIALIZE, INITIALIZED, { id: 2, method: 'ping' }));
    await server.next((message) => message.id === 2);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  }, 60_000);

  it('answers a second request under the id of one still running with an error, and the first with its result, when stdin closes at once', async () => {
    const server = start(base, ['--root', base]);
    server.child.stdin.end(
      linesOf(
        { ...INITIALIZE, params: { ...INITIALIZE.params, capabilities: {} } },
        INITIALIZED,
        { id: 5, method: 'tools/call', params: { name: 'run_command', arguments: { command: 'sleep 0.3; echo first' } } },
        { id: 5, method: 'tools/call', params: { name: 'run_command', arguments: { command: 'echo second' } } },
      ),
    );
    const { code } = await server.exited;
    expect(code).toBe(0);
    const answers = server.messages().filter((message) => message.id === 5);
    expect(answers).toHaveLength(2);
    const refused = answers.find((answer) => answer.error !== undefined);
    expect(refused?.error?.code).toBe(-32600);
    expect(refused?.error?.message).toMatch(/reuses the id 5 of a request still unanswered/);
    const served = answers.find((answer) => answer.result !== undefined);
    expect(JSON.stringify(served?.result)).toContain('first');
    expect(server.stdout()).not.toContain('second');
  }, 60_000);
});
