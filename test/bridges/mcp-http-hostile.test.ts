// The MCP HTTP server (serveMcpHttp, `toolhost mcp --http`) under hostile input: refusals decided on the
// headers before any body is read, bounded bodies in flight, a session cap with idle expiry, no open
// non-loopback bind, an empty Host refused, the Bearer scheme in any case, the token from env or file.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../../src/runner.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { createNodePlatform } from '../../node/platform.js';
import { createMcpServer } from '../../bridges/mcp/index.js';
import { serveMcpHttp, type ServeMcpHttpOptions } from '../../bridges/mcp/node.js';
import type { Tool } from '../../src/core/tool.js';
import { dribble, memoryOf, rawRequest } from '../support/raw-http.js';

const REPO = join(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'toolhost.mjs');
const FIXTURE_TOOLS = join(REPO, 'test', 'fixtures', 'mcp-tools.mjs');
const MiB = 1024 * 1024;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A deadline on a behaviour: rejects with `what` when `promise` has not settled in `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function until(predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (predicate()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new Error('condition not met in time'));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

interface Served {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  exited: Promise<number | null>;
  /** The endpoint, once the server printed it (undefined when it exited first). */
  url: Promise<URL | undefined>;
}

/** Starts the real CLI `toolhost mcp --http …` with `args` and `env` added. */
function startCli(args: string[], env: Record<string, string> = {}): Served {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TOOLHOST_MCP_TOKEN: '', ...env } });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<URL | undefined>((resolve) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) resolve(new URL(match[1] as string));
    });
    void exited.then(() => resolve(undefined));
  });
  return { child, stderr: () => stderr, exited, url };
}

async function stop(served: Served): Promise<void> {
  if (served.child.exitCode === null) served.child.kill('SIGTERM');
  await served.exited;
}

async function initializeStatus(url: URL, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(url, { method: 'POST', body: INITIALIZE, headers: { ...JSON_HEADERS, ...headers } });
  await response.body?.cancel();
  return response.status;
}

describe('toolhost mcp --http under hostile input (the real CLI)', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolhost-mcp-hostile-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers 401 on the headers of a POST whose body never comes, without waiting for it', async () => {
    const served = startCli(['--root', dir, '--http', '127.0.0.1:0', '--token', 't0k']);
    try {
      const url = await served.url;
      expect(url).toBeDefined();
      const exchange = rawRequest(Number(url?.port), [
        'POST /mcp HTTP/1.1',
        `Host: 127.0.0.1:${url?.port}`,
        'Content-Type: application/json',
        `Content-Length: ${4 * MiB}`,
      ]);
      exchange.socket.write('{"jsonrpc":');
      expect(await within(exchange.status, 15_000, 'the answer to the headers')).toBe(401);
      expect(exchange.received()).toMatch(/\r\nwww-authenticate: Bearer\r\n/i);
      exchange.socket.destroy();
    } finally {
      await stop(served);
    }
  });

  it('keeps its RSS flat while 64 connections without a token or with a wrong one dribble 3 MiB bodies: each gets 401 on its headers', async () => {
    const served = startCli(['--root', dir, '--http', '127.0.0.1:0', '--token', 't0k']);
    try {
      const url = await served.url;
      const port = Number(url?.port);
      const pid = served.child.pid as number;
      // Warm the refusal path once, then take the baseline.
      const warm = rawRequest(port, ['POST /mcp HTTP/1.1', `Host: 127.0.0.1:${port}`, 'Content-Length: 2']);
      warm.socket.write('{}');
      expect(await within(warm.status, 15_000, 'the warm-up answer')).toBe(401);
      warm.socket.destroy();
      const before = memoryOf(pid, 'VmRSS', (path) => readFileSync(path, 'utf8'));
      let peak = before;
      const poll = setInterval(() => (peak = Math.max(peak, memoryOf(pid, 'VmRSS', (path) => readFileSync(path, 'utf8')))), 20);
      const exchanges = Array.from({ length: 64 }, (_, i) =>
        rawRequest(port, [
          'POST /mcp HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          'Content-Type: application/json',
          `Content-Length: ${4 * MiB}`,
          ...(i % 2 === 0 ? [] : ['Authorization: Bearer wrong']),
        ]),
      );
      try {
        await Promise.all(exchanges.map((exchange) => dribble(exchange, 3 * MiB, 64 * 1024, exchange.status)));
        // Give a server that reads the bodies the time to take in what was sent.
        await new Promise((resolve) => setTimeout(resolve, 500));
        peak = Math.max(peak, memoryOf(pid, 'VmRSS', (path) => readFileSync(path, 'utf8')));
        // Reading the bodies would hold 64 x 3 MiB = 192 MiB; refusing on the headers holds next to nothing.
        expect(peak - before).toBeLessThan(48 * MiB);
        const statuses = await within(Promise.all(exchanges.map((exchange) => exchange.status)), 30_000, 'the answers');
        expect(statuses).toEqual(exchanges.map(() => 401));
      } finally {
        clearInterval(poll);
        for (const exchange of exchanges) exchange.socket.destroy();
      }
    } finally {
      await stop(served);
    }
  }, 120_000);

  it('refuses to start on 0.0.0.0 without a token: exit 2 and a stderr line saying what to give', async () => {
    const served = startCli(['--root', dir, '--http', '0.0.0.0:0']);
    try {
      expect(await within(served.exited, 30_000, 'the exit')).toBe(2);
      expect(served.stderr()).toMatch(/^toolhost: --http 0\.0\.0\.0 is reachable from other machines and no token is set/);
      expect(served.stderr()).toMatch(/--token-file PATH .*TOOLHOST_MCP_TOKEN.*--allow-unauthenticated/);
    } finally {
      await stop(served);
    }
  });

  it('starts on 0.0.0.0 without a token only with --allow-unauthenticated, with a warning on stderr', async () => {
    const served = startCli(['--root', dir, '--http', '0.0.0.0:0', '--allow-unauthenticated']);
    try {
      const url = await within(served.url, 30_000, 'the endpoint line');
      expect(url).toBeDefined();
      expect(served.stderr()).toMatch(/^toolhost: warning: serving MCP on 0\.0\.0\.0 without a token \(--allow-unauthenticated\)/);
      expect(await initializeStatus(new URL(`http://127.0.0.1:${url?.port}/mcp`))).toBe(200);
    } finally {
      await stop(served);
    }
  });

  it('takes the token from TOOLHOST_MCP_TOKEN, and from --token-file (one trailing newline removed)', async () => {
    const fromEnv = startCli(['--root', dir, '--http', '127.0.0.1:0'], { TOOLHOST_MCP_TOKEN: 'env-t0k' });
    try {
      const url = (await fromEnv.url) as URL;
      expect(await initializeStatus(url)).toBe(401);
      expect(await initializeStatus(url, { authorization: 'Bearer wrong' })).toBe(401);
      expect(await initializeStatus(url, { authorization: 'Bearer env-t0k' })).toBe(200);
    } finally {
      await stop(fromEnv);
    }
    const file = join(dir, 'token.txt');
    writeFileSync(file, 'file-t0k\n');
    // The file wins over the environment.
    const fromFile = startCli(['--root', dir, '--http', '127.0.0.1:0', '--token-file', file], { TOOLHOST_MCP_TOKEN: 'env-t0k' });
    try {
      const url = (await fromFile.url) as URL;
      expect(await initializeStatus(url, { authorization: 'Bearer env-t0k' })).toBe(401);
      expect(await initializeStatus(url, { authorization: 'Bearer file-t0k' })).toBe(200);
    } finally {
      await stop(fromFile);
    }
    writeFileSync(file, '\n');
    const empty = startCli(['--root', dir, '--http', '127.0.0.1:0', '--token-file', file]);
    expect(await within(empty.exited, 30_000, 'the exit')).toBe(2);
    expect(empty.stderr()).toMatch(/^toolhost: --token-file .*token\.txt is empty; write the token into it/);
  });
});

describe('serveMcpHttp bounds', () => {
  let dir = '';
  let runner: ToolRunner;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolhost-mcp-bounds-'));
    const fixture = (await import(FIXTURE_TOOLS)) as Record<string, Tool>;
    runner = new ToolRunner({ platform: createNodePlatform({ root: dir }), tools: [...BuiltinTools.all(), fixture['waitForAbort'] as Tool] });
  });
  afterAll(async () => {
    await runner.platform.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const serve = (options: ServeMcpHttpOptions) => serveMcpHttp(() => createMcpServer(runner), options);

  /** A connected SDK client and its session id. */
  async function session(url: URL): Promise<{ client: Client; id: string }> {
    const transport = new StreamableHTTPClientTransport(url);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    return { client, id: transport.sessionId as string };
  }

  /** A session opened with raw requests (no event stream kept open, so its use is only what the test does). */
  async function rawSession(url: URL): Promise<string> {
    const opened = await fetch(url, { method: 'POST', body: INITIALIZE, headers: JSON_HEADERS });
    await opened.body?.cancel();
    const id = opened.headers.get('mcp-session-id') as string;
    const initialized = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      headers: { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    });
    await initialized.body?.cancel();
    expect(initialized.status).toBe(202);
    return id;
  }

  /** The status of a ping in session `id`. */
  async function pingStatus(url: URL, id: string): Promise<number> {
    const response = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
      headers: { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    });
    await response.body?.cancel();
    return response.status;
  }

  it('answers 413 on a declared Content-Length over maxBodyBytes at once, without reading the body', async () => {
    const endpoint = await serve({ maxBodyBytes: 1024 });
    try {
      const port = Number(endpoint.url.port);
      const exchange = rawRequest(port, ['POST /mcp HTTP/1.1', `Host: 127.0.0.1:${port}`, 'Content-Type: application/json', 'Content-Length: 5000']);
      expect(await within(exchange.status, 15_000, 'the answer to the headers')).toBe(413);
      expect(exchange.received()).toMatch(/larger than 1024 bytes/);
      exchange.socket.destroy();
    } finally {
      await endpoint.close();
    }
  });

  it('holds the bodies being received under maxBodyBytesInFlight: one over it gets 503 with Retry-After; the room comes back when the first ends', async () => {
    const endpoint = await serve({ maxBodyBytes: 600_000, maxBodyBytesInFlight: 1_000_000 });
    try {
      const port = Number(endpoint.url.port);
      const head = (length: number): string[] => ['POST /mcp HTTP/1.1', `Host: 127.0.0.1:${port}`, 'Content-Type: application/json', `Content-Length: ${length}`];
      const first = rawRequest(port, head(600_000));
      await dribble(first, 1000, 1000, first.status);
      // The first holds 600,000 bytes of the budget while its body comes in; 600,000 more would pass it.
      await until(() => first.socket.bytesWritten > 1000);
      const second = rawRequest(port, head(600_000));
      expect(await within(second.status, 15_000, 'the answer to the second')).toBe(503);
      expect(second.received()).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(second.received()).toMatch(/receiving 1000000 bytes of request bodies at once/);
      second.socket.destroy();
      // The first finishes (a JSON body padded with spaces) and is served; then a third fits again.
      const ping = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
      first.socket.write(Buffer.concat([Buffer.alloc(600_000 - 1000 - ping.length, 0x20), ping]));
      expect(await within(first.status, 15_000, 'the answer to the first')).not.toBe(503);
      first.socket.destroy();
      expect(await initializeStatus(endpoint.url)).toBe(200);
    } finally {
      await endpoint.close();
    }
  });

  it('caps sessions: at maxSessions a new client closes the session idle longest, whose next request gets 404', async () => {
    const endpoint = await serve({ maxSessions: 3 });
    try {
      const opened: string[] = [];
      for (let i = 0; i < 3; i += 1) opened.push(await rawSession(endpoint.url));
      expect(await pingStatus(endpoint.url, opened[0] as string)).toBe(200);
      // Session 1 is now the most recently used; session 2 is idle longest.
      const fourth = await session(endpoint.url);
      expect(endpoint.sessionCount()).toBe(3);
      expect(await pingStatus(endpoint.url, opened[1] as string)).toBe(404);
      expect(await pingStatus(endpoint.url, opened[0] as string)).toBe(200);
      expect(await pingStatus(endpoint.url, opened[2] as string)).toBe(200);
      expect(await pingStatus(endpoint.url, fourth.id)).toBe(200);
      await fourth.client.close();
    } finally {
      await endpoint.close();
    }
  });

  it('refuses a new session with 503 and Retry-After when every session at the cap is answering a request', async () => {
    const endpoint = await serve({ maxSessions: 1 });
    const busy = await session(endpoint.url);
    const marker = join(dir, 'busy-marker');
    const abort = new AbortController();
    try {
      const call = busy.client.callTool({ name: 'wait_for_abort', arguments: { marker, ms: 60_000 } }, { signal: abort.signal }).catch(() => undefined);
      await until(() => {
        try {
          return readFileSync(marker, 'utf8') === 'started';
        } catch {
          return false;
        }
      });
      const response = await fetch(endpoint.url, { method: 'POST', body: INITIALIZE, headers: JSON_HEADERS });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/has its 1 sessions open, each answering a request; retry shortly/);
      expect(endpoint.sessionCount()).toBe(1);
      abort.abort();
      await call;
    } finally {
      await busy.client.close().catch(() => undefined);
      await endpoint.close();
    }
  });

  it('closes a session idle for sessionIdleMs; its next request gets 404', async () => {
    const endpoint = await serve({ sessionIdleMs: 200 });
    const idle = await session(endpoint.url);
    try {
      expect(endpoint.sessionCount()).toBe(1);
      await until(() => endpoint.sessionCount() === 0);
      expect(await pingStatus(endpoint.url, idle.id)).toBe(404);
    } finally {
      await idle.client.close().catch(() => undefined);
      await endpoint.close();
    }
  });

  it('refuses an empty Host with 403, bound to loopback and to 0.0.0.0 with a token', async () => {
    for (const options of [{}, { host: '0.0.0.0', bearerToken: 'k' }] as ServeMcpHttpOptions[]) {
      const endpoint = await serve(options);
      try {
        const exchange = rawRequest(Number(endpoint.url.port), ['POST /mcp HTTP/1.1', 'Host: ', 'Authorization: Bearer k', 'Content-Type: application/json', `Content-Length: ${INITIALIZE.length}`]);
        exchange.socket.write(INITIALIZE);
        expect(await within(exchange.status, 15_000, 'the answer')).toBe(403);
        expect(exchange.received()).toMatch(/no Host header \(or an empty one\)/);
        exchange.socket.destroy();
      } finally {
        await endpoint.close();
      }
    }
  });

  it('matches the Bearer scheme in any case (RFC 7235) and still refuses a wrong token', async () => {
    const endpoint = await serve({ bearerToken: 's3cret' });
    try {
      expect(await initializeStatus(endpoint.url, { authorization: 'bearer s3cret' })).toBe(200);
      expect(await initializeStatus(endpoint.url, { authorization: 'BEARER s3cret' })).toBe(200);
      expect(await initializeStatus(endpoint.url, { authorization: 'bearer s3cre' })).toBe(401);
      expect(await initializeStatus(endpoint.url, { authorization: 'Basic s3cret' })).toBe(401);
    } finally {
      await endpoint.close();
    }
  });

  it('rejects a non-loopback host without bearerToken or allowUnauthenticated, and bad bounds, with a TypeError', async () => {
    await expect(serve({ host: '0.0.0.0' })).rejects.toThrow(
      new TypeError(
        'serveMcpHttp: host 0.0.0.0 is reachable from other machines and no bearerToken is set, so anyone there could run the tools; set bearerToken, bind 127.0.0.1, or pass allowUnauthenticated: true when something in front authenticates',
      ),
    );
    await expect(serve({ maxSessions: 0 })).rejects.toThrow(new TypeError('serveMcpHttp: maxSessions must be a positive integer, not 0'));
    await expect(serve({ sessionIdleMs: -1 })).rejects.toThrow(new TypeError('serveMcpHttp: sessionIdleMs must be a finite positive number of milliseconds, not -1'));
    const open = await serve({ host: '0.0.0.0', allowUnauthenticated: true });
    await open.close();
  });
});
