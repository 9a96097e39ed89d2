import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../test/support/build.js';
import { startRedisServer, type TestRedisServer } from '../test/support/redis-server.js';
import { main } from './cli.js';

const FIXTURE_TOOLS = join(import.meta.dirname, '..', 'test', 'fixtures', 'mcp-tools.mjs');

let server: TestRedisServer;
let root: string;
let launcher: string;
const processes: ChildProcess[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  root = mkdtempSync(join(tmpdir(), 'toolhost-mcp-redis-'));
  const built = buildPackage('toolhost-cli-redis-test');
  launcher = join(built, 'toolhost.mjs');
  writeFileSync(launcher, "import { main } from './node/cli.js';\nprocess.exitCode = await main(process.argv.slice(2));\n");
}, 120_000);

afterAll(async () => {
  await Promise.all(
    processes.map((child) => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    })),
  );
  await server?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Starts `toolhost mcp --http 127.0.0.1:0 --state <redis>` and resolves with its endpoint URL. */
function startMcp(): Promise<URL> {
  const child = spawn(process.execPath, [launcher, 'mcp', '--root', root, '--tools', FIXTURE_TOOLS, '--state', server.url, '--http', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  processes.push(child);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /at (http:\/\/\S+)/.exec(err);
      if (match) resolve(new URL(match[1]!));
    });
    child.once('exit', (code) => reject(new Error(`toolhost mcp exited with ${code}: ${err}`)));
  });
}

async function client(url: URL, conversation: string): Promise<Client> {
  const made = new Client({ name: 'test', version: '1.0.0' });
  await made.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'Toolhost-Conversation': conversation } } }));
  return made;
}

async function count(c: Client): Promise<number> {
  const result = await c.callTool({ name: 'count_calls', arguments: {} });
  return (result.structuredContent as { count: number }).count;
}

describe('toolhost mcp --http --state redis://', () => {
  it('runs as several stateless processes, any of which serves any conversation in order', async () => {
    const [first, second] = await Promise.all([startMcp(), startMcp()]);
    const a1 = await client(first!, 'chat-1');
    const a2 = await client(second!, 'chat-1');
    const b2 = await client(second!, 'chat-2');
    try {
      expect(await count(a1)).toBe(1);
      expect(await count(a2)).toBe(2);
      expect(await count(a1)).toBe(3);
      expect(await count(b2)).toBe(1);
      // 40 calls of one conversation at once, spread over both processes: each count is given once.
      const c1 = await client(first!, 'chat-3');
      const c2 = await client(second!, 'chat-3');
      const counts = await Promise.all(Array.from({ length: 40 }, (_, i) => count(i % 2 === 0 ? c1 : c2)));
      expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      await Promise.all([c1.close(), c2.close()]);
    } finally {
      await Promise.all([a1.close(), a2.close(), b2.close()]);
    }
  }, 60_000);

  it('refuses --state with --state-dir and a --state that is not a Redis URL', async () => {
    const run = async (argv: string[]): Promise<{ code: number; err: string }> => {
      let err = '';
      const stderr = new Writable({ write(chunk, _encoding, done) { err += String(chunk); done(); } });
      const code = await main(argv, { stderr, handleSignals: false });
      return { code, err };
    };
    expect(await run(['tools', '--state', server.url, '--state-dir', root])).toEqual({ code: 2, err: expect.stringContaining('not both') });
    expect(await run(['tools', '--state', '/tmp/x'])).toEqual({ code: 2, err: expect.stringContaining('--state takes a Redis URL') });
  });
});
