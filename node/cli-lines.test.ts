// Framing of the CLI's line inputs under hostile input: `toolhost mcp` on stdio answers an over-long or
// malformed message and goes on; reading is linear; `toolhost run` skips an over-long line unread, with
// its peak memory far below the line's size, and serves the next line.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';
import { memoryOf } from '../test/support/raw-http.js';

const REPO = join(import.meta.dirname, '..');
const BIN = join(REPO, 'bin', 'toolhost.mjs');
const MiB = 1024 * 1024;

/** A child `toolhost …` whose stdout is collected as lines. */
function start(args: string[], cwd: string) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  // A child that stops reading fails the write (EPIPE), which the test reports; not an unhandled error.
  child.stdin.on('error', () => undefined);
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() as string;
    lines.push(...parts);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, stderr: () => stderr, exited };
}

/** Resolves once `predicate` holds; rejects after `timeoutMs` (a deadline on behaviour, not speed). */
function until(predicate: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (predicate()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new Error(`${what}: not seen in ${timeoutMs} ms`));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

/** Writes `total` bytes of `fill` in 1 MiB pieces, each after the stream took the last. */
async function writeFiller(stream: NodeJS.WritableStream, total: number, fill: string): Promise<void> {
  const piece = Buffer.alloc(MiB, fill);
  for (let written = 0; written < total; written += piece.length) {
    const part = piece.subarray(0, Math.min(piece.length, total - written));
    await new Promise<void>((resolve, reject) => stream.write(part, (error) => (error ? reject(error) : resolve())));
  }
}

describe('toolhost mcp on stdio: framing under hostile input', () => {
  let dir = '';
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-cli-lines-')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a message line over the 16 MiB default cap with a JSON-RPC error naming the cap, skips it, and answers the ping after it', async () => {
    const run = start(['mcp', '--root', dir], dir);
    try {
      run.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"');
      await writeFiller(run.child.stdin, 17 * MiB, 'a');
      run.child.stdin.write('"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
      await until(() => run.lines.length >= 2, 'two answers');
      const [error, pong] = run.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(error).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringMatching(/^Invalid Request: message 1 is longer than the 16777216-byte line cap; it was skipped up to its newline/) as unknown },
      });
      expect(pong).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
      run.child.stdin.end();
      expect(await run.exited).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 120_000);

  it('answers a line that is not JSON with -32700, JSON that is not JSON-RPC with -32600 and a line over --max-line-bytes with -32600, serving each next message', async () => {
    const run = start(['mcp', '--root', dir, '--max-line-bytes', '100'], dir);
    try {
      const long = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', params: { pad: 'x'.repeat(150) } });
      run.child.stdin.write(['{"jsonrpc":', '{"jsonrpc":"2.0","id":7}', long, '{"jsonrpc":"2.0","id":4,"method":"ping"}', ''].join('\n'));
      await until(() => run.lines.length >= 4, 'four answers');
      const answers = run.lines.map((line) => JSON.parse(line) as { id: unknown; error?: { code: number; message: string }; result?: unknown });
      expect(answers.map((answer) => [answer.id, answer.error?.code ?? answer.result])).toEqual([
        [null, -32700],
        [7, -32600],
        [null, -32600],
        [4, {}],
      ]);
      expect(answers[0]?.error?.message).toMatch(/^Parse error: message 1 is not JSON \(.*\); send one JSON-RPC message per line$/);
      expect(answers[1]?.error?.message).toBe('Invalid Request: message 2 is not a JSON-RPC 2.0 request, notification or response');
      expect(answers[2]?.error?.message).toMatch(/^Invalid Request: message 3 is longer than the 100-byte line cap/);
      run.child.stdin.end();
      expect(await run.exited).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('reads a 4 MiB message sent in 4 KiB pieces copying it about once, not once per piece', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out: string[] = [];
    stdout.setEncoding('utf8').on('data', (chunk: string) => out.push(chunk));
    const done = main(['mcp', '--root', dir], { stdin, stdout, stderr: new PassThrough(), handleSignals: false });
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await until(() => out.join('').includes('"id":1'), 'the first answer');
    const message = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'p'.repeat(4 * MiB) } })}\n`);
    const concat = Buffer.concat;
    let copied = 0;
    Buffer.concat = ((list: readonly Uint8Array[], totalLength?: number) => {
      const joined = concat(list, totalLength);
      copied += joined.length;
      return joined;
    }) as typeof Buffer.concat;
    try {
      for (let at = 0; at < message.length; at += 4096) {
        stdin.write(message.subarray(at, at + 4096));
        if (at % (64 * 4096) === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await until(() => out.join('').includes('"id":2'), 'the answer to the large message');
    } finally {
      Buffer.concat = concat;
    }
    expect(JSON.parse(out.join('').trim().split('\n')[1] as string)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    // A reader that joins its buffer with each piece copies ~ n²/2 bytes (about 2 GiB here).
    expect(copied).toBeLessThan(3 * message.length);
    stdin.end();
    expect(await done).toBe(0);
  }, 120_000);
});

describe('toolhost run: the line cap', () => {
  let dir = '';
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-run-lines-')));
    writeFileSync(join(dir, 'ok.txt'), 'ok\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('skips a 100 MB line unread, answering it too_large, with peak RSS under 3x the line, and serves the next line', async () => {
    const run = start(['run', '--root', dir], dir);
    const size = 100 * 1000 * 1000;
    try {
      run.child.stdin.write('{"id":"big","name":"view_file","args":{"file_path":"');
      await writeFiller(run.child.stdin, size, 'a');
      run.child.stdin.write('"}}\n{"id":"after","name":"view_file","args":{"file_path":"ok.txt"}}\n');
      await until(() => run.lines.length >= 2, 'two result lines', 120_000);
      const peak = memoryOf(run.child.pid as number, 'VmHWM', (path) => readFileSync(path, 'utf8'));
      expect(peak).toBeLessThan(3 * size);
      expect(run.lines.map((line) => JSON.parse(line) as unknown)).toEqual([
        {
          line: 1,
          error: 'line 1 is longer than 16777216 bytes (--max-line-bytes); it was skipped unread. Put large content in a file the call names, or raise --max-line-bytes',
          code: 'too_large',
        },
        { id: 'after', name: 'view_file', result: expect.objectContaining({ content: 'ok' }) as unknown },
      ]);
      run.child.stdin.end();
      expect(await run.exited).toBe(0);
      expect(run.stderr()).toBe('');
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 180_000);

  it('takes --max-line-bytes: a longer line gets the error line with its number, blank and CRLF lines still count', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let text = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    const long = JSON.stringify({ id: 'long', name: 'view_file', args: { file_path: 'x'.repeat(100) } });
    // 60 bytes: under the cap.
    stdin.end(`\r\n${long}\r\n{"id":"ok","name":"view_file","args":{"file_path":"ok.txt"}}\r\n`);
    const code = await main(['run', '--root', dir, '--max-line-bytes', '64'], { stdin, stdout, stderr: new PassThrough(), handleSignals: false });
    expect(code).toBe(0);
    expect(text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      { line: 2, error: expect.stringMatching(/^line 2 is longer than 64 bytes \(--max-line-bytes\); it was skipped unread/) as unknown, code: 'too_large' },
      { id: 'ok', name: 'view_file', result: expect.objectContaining({ content: 'ok' }) as unknown },
    ]);
  });
});
