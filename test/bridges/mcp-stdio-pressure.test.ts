// `toolhost mcp` on stdio against clients that read stdout late, slowly or never: the server's own error
// answers wait behind the initialize result, memory stays bounded while nobody reads (the server stops
// reading stdin), and a SIGTERM finishes the line being written for a slow reader. Driven as a raw child
// process that writes JSON-RPC lines and reads what the built CLI writes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'toolhost.mjs');

interface Message {
  jsonrpc: '2.0';
  id?: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

const INITIALIZE = { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const INITIALIZED = { method: 'notifications/initialized' };
/** A line of the big file, and how many of them make an answer of about 300 KB. */
const BIG_LINE = `${'0123456789abcdef'.repeat(12)}\n`;
const BIG_LINES = 800;

/** One JSON-RPC 2.0 line per message, as a client writes them. */
const linesOf = (...messages: object[]): string => messages.map((message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`).join('');

/** `tools/call` of view_file on the big file under `id`: an answer of about 300 KB. */
const bigCall = (id: number): object => ({ id, method: 'tools/call', params: { name: 'view_file', arguments: { file_path: 'big.txt', end_line: BIG_LINES } } });

interface Server {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `toolhost mcp ...args` in `cwd`; stdout is left to the test (paused). */
function start(cwd: string, args: string[]): Server {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  child.stdout.pause();
  child.stdin.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, stderr: () => err, exited };
}

/** Reads all of stdout from now on, in flowing mode, counting its complete lines as they come. */
function readAll(child: ChildProcessWithoutNullStreams): { text(): string; count(): number } {
  let out = '';
  let count = 0;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', at + 1)) count += 1;
  });
  child.stdout.resume();
  return { text: () => out, count: () => count };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The peak resident memory of process `pid` so far, in kB (Linux). */
function peakKb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0);
}

/** Waits (up to 60 s) until stdout holds `count` complete lines; they, parsed. */
async function lines(out: { text(): string; count(): number }, count: number): Promise<Message[]> {
  const end = Date.now() + 60_000;
  while (out.count() < count && Date.now() < end) await sleep(20);
  return out
    .text()
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as Message);
}

describe.concurrent('toolhost mcp on stdio, a client slow to read', () => {
  let base = '';
  beforeAll(() => {
    ensureBuilt();
    base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-mcp-pressure-')));
    writeFileSync(join(base, 'big.txt'), BIG_LINE.repeat(BIG_LINES));
  });
  afterAll(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('answers initialize first when a line written with it reuses its id, is not JSON, or is over the cap', async () => {
    const server = start(base, ['--root', base, '--max-line-bytes', '1000']);
    server.child.stdin.write(`${linesOf(INITIALIZE, { id: 1, method: 'tools/list' })}not json\n${'x'.repeat(2000)}\n`);
    const out = readAll(server.child);
    const answers = await lines(out, 4);
    expect(answers[0]?.id).toBe(1);
    expect(answers[0]?.result?.protocolVersion).toBe('2025-11-25');
    expect(answers.slice(1).map((answer) => [answer.id, answer.error?.code])).toEqual([
      [1, -32600],
      [null, -32700],
      [null, -32600],
    ]);
    server.child.stdin.end();
    expect((await server.exited).code).toBe(0);
  }, 60_000);

  it('answers a line that is not JSON at once when no initialize came before it', async () => {
    const server = start(base, ['--root', base]);
    server.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize"\n');
    const out = readAll(server.child);
    const [answer] = await lines(out, 1);
    expect(answer?.error?.code).toBe(-32700);
    server.child.stdin.end();
    expect((await server.exited).code).toBe(0);
  }, 60_000);

  it('stays within bounded memory while the client writes 900 requests of big answers and reads nothing, then answers each whole', async () => {
    const server = start(base, ['--root', base]);
    const pid = server.child.pid as number;
    const ids = Array.from({ length: 900 }, (_, index) => index + 2);
    server.child.stdin.write(linesOf(INITIALIZE, INITIALIZED, ...ids.map(bigCall)));
    // Long enough for a server that reads on to take every request and answer them into its memory.
    let peak = 0;
    for (let i = 0; i < 40; i++) {
      await sleep(100);
      peak = Math.max(peak, peakKb(pid));
    }
    expect(peak).toBeLessThan(400 * 1024);
    const out = readAll(server.child);
    const answers = await lines(out, ids.length + 1);
    server.child.stdin.end();
    expect((await server.exited).code).toBe(0);
    expect(out.text().endsWith('\n')).toBe(true);
    // Each answer once, whole (the calls run side by side: they may end in any order).
    expect(answers[0]?.id).toBe(1);
    expect(answers.map((answer) => answer.id as number).sort((a, b) => a - b)).toEqual([1, ...ids]);
    for (const answer of answers.slice(1)) expect(JSON.stringify(answer.result)).toContain('0123456789abcdef');
    expect(server.stderr()).not.toMatch(/MaxListenersExceededWarning/);
  }, 120_000);

  it('on SIGTERM with a client reading 64 KB every 400 ms: finishes the line being written, exits 130', async () => {
    const server = start(base, ['--root', base]);
    server.child.stdin.write(linesOf(INITIALIZE, INITIALIZED, ...Array.from({ length: 20 }, (_, index) => bigCall(index + 2))));
    const chunks: Buffer[] = [];
    let ended = false;
    server.child.stdout.once('end', () => (ended = true));
    // A 'readable' listener keeps Node from letting the rest flow away unread once the child exits.
    server.child.stdout.on('readable', () => undefined);
    // The client reads 64 KB every 400 ms, to the end of stdout (which the exit leaves readable).
    const reading = (async () => {
      while (!ended) {
        const chunk = server.child.stdout.read(65536) as Buffer | null;
        if (chunk) chunks.push(chunk);
        await sleep(400);
      }
    })();
    // The first big answer has begun to arrive: the server is writing, with more answers behind.
    while (Buffer.concat(chunks).length < 100_000) await sleep(50);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    expect(code).toBe(130);
    // The line being written takes the client about 3 s to read: the exit waits for it (5 s at most).
    expect(Date.now() - signalled).toBeLessThan(7000);
    await reading;
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text.endsWith('\n')).toBe(true);
    const answers = text
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as Message);
    // The answers not yet begun were dropped.
    expect(answers.length).toBeLessThan(21);
    expect(answers[0]?.id).toBe(1);
    for (const answer of answers.slice(1)) expect(JSON.stringify(answer.result)).toContain('0123456789abcdef');
  }, 60_000);
});
