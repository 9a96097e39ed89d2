import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../../src/runner.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { createNodePlatform } from '../../node/platform.js';
import { createMcpServer } from '../../bridges/mcp/index.js';
import { serveMcpHttp, type McpHttpEndpoint } from '../../bridges/mcp/node-http.js';
import type { Tool } from '../../src/core/tool.js';
import { ensureBuilt } from '../support/build.js';

const REPO = join(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'toolhost.mjs');
const FIXTURE_TOOLS = join(REPO, 'test', 'fixtures', 'mcp-tools.mjs');

/** The text of a tools/call result's text blocks. */
function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (predicate()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new Error('condition not met in time'));
      else setTimeout(tick, 10);
    };
    tick();
  });
}

/** Runs Node with `args` (in `cwd`, fed `input`); resolves with its exit code, stdout and stderr, whatever the code. */
function runNode(args: string[], options: { cwd?: string; input?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

interface Connection {
  client: Client;
  close(): Promise<void>;
}

/**
 * The behaviours both transports must show. `reuse` answers a connection the cases that need no fresh
 * session share (its close does nothing; the describe closes it); `connect` makes a new one each call.
 */
function sharedBehaviours(connect: () => Promise<Connection>, dir: () => string, customOrder: string[], reuse: () => Promise<Connection> = connect): void {
  it('lists the built-ins and the custom tools with annotations, in registration order', async () => {
    const { client, close } = await reuse();
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names.slice(0, 3)).toEqual(['create_file', 'edit_file', 'find_file']);
      expect(names.slice(-3)).toEqual(customOrder);
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('view_file')?.annotations?.readOnlyHint).toBe(true);
      expect(byName.get('edit_file')?.annotations?.readOnlyHint).toBe(false);
      expect(byName.get('count_calls')?.annotations).toEqual({ title: 'Count calls', idempotentHint: false, readOnlyHint: false });
      expect(byName.get('count_calls')?.title).toBe('Count calls');
      expect(byName.get('count_calls')?.outputSchema).toEqual({ type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] });
      expect(byName.get('grep_search')?.inputSchema.required).toEqual(['pattern']);
    } finally {
      await close();
    }
  });

  it('greps, then runs an edit and a view sent without waiting in order: the view sees the edit', async () => {
    writeFileSync(join(dir(), 'notes.txt'), 'alpha beta\n');
    const { client, close } = await reuse();
    try {
      const grep = await client.callTool({ name: 'grep_search', arguments: { pattern: 'beta', include: 'notes.txt' } });
      expect(grep.isError).toBeUndefined();
      expect((grep.structuredContent as { total_matches: number }).total_matches).toBe(1);
      const [edit, view] = await Promise.all([
        client.callTool({ name: 'edit_file', arguments: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } }),
        client.callTool({ name: 'view_file', arguments: { file_path: 'notes.txt' } }),
      ]);
      expect((edit.structuredContent as { replacements: number }).replacements).toBe(1);
      expect((view.structuredContent as { content: string }).content).toBe('alpha gamma');
      expect(JSON.parse(textOf(view)).content).toBe('alpha gamma');
    } finally {
      await close();
    }
  });

  it('answers an invalid call with isError, the code and the message', async () => {
    const { client, close } = await reuse();
    try {
      const result = await client.callTool({ name: 'view_file', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^invalid_arguments: invalid arguments for view_file: /);
      expect((result.structuredContent as { code: string }).code).toBe('invalid_arguments');
    } finally {
      await close();
    }
  });

  it('aborts the tool when the client cancels the call', async () => {
    const marker = join(dir(), `marker-${Math.random().toString(36).slice(2)}`);
    const { client, close } = await reuse();
    try {
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'wait_for_abort', arguments: { marker } },
        { signal: controller.signal, onprogress: () => controller.abort(new Error('user stopped it')) },
      );
      await expect(call).rejects.toThrow();
      // The tool rewrites the marker (truncated, then written): a read in between sees it empty.
      await until(() => existsSync(marker) && !['', 'started'].includes(readFileSync(marker, 'utf8')));
      expect(readFileSync(marker, 'utf8')).toBe('aborted:cancelled');
    } finally {
      await close();
    }
  });

  it('keeps tool state per session', async () => {
    const a = await connect();
    const b = await connect();
    try {
      const count = async (client: Client): Promise<unknown> => (await client.callTool({ name: 'count_calls', arguments: {} })).structuredContent;
      expect(await count(a.client)).toEqual({ count: 1 });
      expect(await count(a.client)).toEqual({ count: 2 });
      expect(await count(b.client)).toEqual({ count: 1 });
      expect(await count(a.client)).toEqual({ count: 3 });
    } finally {
      await a.close();
      await b.close();
    }
  });
}

/** The shared build (dist/), which the launcher bin/toolhost.mjs runs: checked, rebuilt once when stale. */
function buildIfNeeded(): void {
  ensureBuilt();
}

describe('toolhost mcp over stdio (the SDK Client spawning node bin/toolhost.mjs mcp)', () => {
  let dir = '';
  let stateDir = '';
  beforeAll(() => {
    buildIfNeeded();
    dir = mkdtempSync(join(tmpdir(), 'toolhost-mcp-stdio-'));
    stateDir = mkdtempSync(join(tmpdir(), 'toolhost-mcp-state-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  const connect = async (): Promise<Connection> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', dir, '--tools', FIXTURE_TOOLS, '--state-dir', stateDir],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    return { client, close: () => client.close() };
  };
  // One server process serves the cases that need no session of their own (each process is a session).
  let shared: Promise<Connection> | undefined;
  const reuse = async (): Promise<Connection> => {
    shared ??= connect();
    return { client: (await shared).client, close: async () => undefined };
  };
  afterAll(async () => {
    await (await shared)?.close();
  });
  // A --tools module's tools come in the order of its export names (a module namespace is sorted).
  sharedBehaviours(connect, () => dir, ['count_calls', 'progress_steps', 'wait_for_abort'], reuse);

  // The SDK Client hands progress notifications to onprogress a microtask late and forgets the token
  // when the response is read, so notifications that arrive in the same stdout chunk as the response
  // are dropped on its side; the wire order is checked here with the SDK's stdio transport itself.
  it('sends progress notifications before the result, on the wire', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir, '--tools', FIXTURE_TOOLS], stderr: 'pipe' });
    const received: Record<string, unknown>[] = [];
    transport.onmessage = (message) => received.push(message as Record<string, unknown>);
    await transport.start();
    try {
      await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
      await until(() => received.length === 1);
      await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'progress_steps', arguments: { steps: 3 }, _meta: { progressToken: 'p' } } });
      await until(() => received.length === 5);
      expect(received.slice(1)).toEqual([
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1, total: 3, message: 'step 1' } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 2, total: 3, message: 'step 2' } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 3, total: 3, message: 'step 3' } },
        { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '{"steps":3}' }], structuredContent: { steps: 3 } } },
      ]);
    } finally {
      await transport.close();
    }
  });

  it('exits with code 0 when its stdin closes', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.end();
    expect(await exited).toBe(0);
  });

  it('answers every request received before stdin closed (calls still running among them), then exits with code 0', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolhost-mcp-drain-'));
    try {
      for (let i = 0; i < 40; i++) writeFileSync(join(folder, `f${i}.ts`), `export const x${i} = ${i};\nconst other = 1;\n`);
      const lines = [
        { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
        { method: 'notifications/initialized' },
        { id: 2, method: 'tools/call', params: { name: 'grep_search', arguments: { pattern: 'export', output_mode: 'count' } } },
        { id: 3, method: 'tools/call', params: { name: 'list_dir', arguments: { dir_path: '.' } } },
        { id: 4, method: 'ping' },
      ];
      // All at once and stdin closed at once: the calls are still running when the input ends.
      const run = await runNode([BIN, 'mcp', '--root', folder], { input: lines.map((line) => JSON.stringify({ jsonrpc: '2.0', ...line })).join('\n') + '\n' });
      expect(run.code).toBe(0);
      const answers = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; result?: { structuredContent?: Record<string, unknown> }; error?: unknown });
      expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2, 3, 4]);
      expect(answers.every((answer) => answer.error === undefined)).toBe(true);
      const grep = answers.find((answer) => answer.id === 2)?.result?.structuredContent as { total_matches: number; total_files: number };
      expect([grep.total_matches, grep.total_files]).toEqual([40, 40]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('exits with code 0 when stdin closes after the client cancelled the call still running (which gets no answer)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolhost-mcp-cancel-'));
    try {
      const lines = [
        { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
        { method: 'notifications/initialized' },
        { id: 2, method: 'tools/call', params: { name: 'run_command', arguments: { command: 'sleep 600' } } },
        { method: 'notifications/cancelled', params: { requestId: 2, reason: 'the user pressed stop' } },
        { id: 3, method: 'ping' },
      ];
      const run = await runNode([BIN, 'mcp', '--root', folder], { input: lines.map((line) => JSON.stringify({ jsonrpc: '2.0', ...line })).join('\n') + '\n' });
      expect(run.stderr).not.toMatch(/unsettled top-level await/);
      expect(run.code).toBe(0);
      const answers = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number });
      expect(answers.map((answer) => answer.id).sort()).toEqual([1, 3]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('exits with code 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // A ping answered proves the server is up before the signal.
    child.stdout.once('data', () => child.kill('SIGTERM'));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    expect(await exited).toBe(0);
  });
});

describe('serveMcpHttp (Streamable HTTP on node:http)', () => {
  let dir = '';
  let endpoint: McpHttpEndpoint;
  let runner: ToolRunner;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolhost-mcp-http-'));
    const fixture = (await import(FIXTURE_TOOLS)) as Record<string, Tool>;
    runner = new ToolRunner({
      platform: createNodePlatform({ root: dir }),
      tools: [...BuiltinTools.all(), fixture['waitForAbort'] as Tool, fixture['progressSteps'] as Tool, fixture['counter'] as Tool],
    });
    endpoint = await serveMcpHttp(() => createMcpServer(runner));
  });
  afterAll(async () => {
    await endpoint.close();
    await runner.platform.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const connect = async (): Promise<Connection> => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    return { client, close: () => client.close() };
  };
  sharedBehaviours(connect, () => dir, ['wait_for_abort', 'progress_steps', 'count_calls']);

  it('sends progress notifications when the client asks for them', async () => {
    const { client, close } = await connect();
    try {
      const seen: unknown[] = [];
      const result = await client.callTool({ name: 'progress_steps', arguments: { steps: 3 } }, { onprogress: (p) => seen.push(p) });
      expect(result.structuredContent).toEqual({ steps: 3 });
      expect(seen).toEqual([
        { progress: 1, total: 3, message: 'step 1' },
        { progress: 2, total: 3, message: 'step 2' },
        { progress: 3, total: 3, message: 'step 3' },
      ]);
    } finally {
      await close();
    }
  });

  it('binds 127.0.0.1 by default', () => {
    expect(endpoint.url.hostname).toBe('127.0.0.1');
  });

  it('refuses a foreign Origin with 403 and accepts a localhost one', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const foreign = await fetch(endpoint.url, { method: 'POST', body, headers: { ...headers, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    await foreign.body?.cancel();
    const local = await fetch(endpoint.url, { method: 'POST', body, headers: { ...headers, origin: `http://localhost:${endpoint.url.port}` } });
    expect(local.status).toBe(200);
    await local.body?.cancel();
  });

  it('refuses a request without the bearer token when one is set', async () => {
    const guarded = await serveMcpHttp(() => createMcpServer(runner), { bearerToken: 's3cret' });
    try {
      const denied = await fetch(guarded.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      expect(denied.status).toBe(401);
      await denied.body?.cancel();
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(guarded.url, { requestInit: { headers: { authorization: 'Bearer s3cret' } } }));
      expect((await client.listTools()).tools.length).toBe(BuiltinTools.all().length + 3);
      await client.close();
    } finally {
      await guarded.close();
    }
  });

  it('serves statelessly with sessions: false', async () => {
    const stateless = await serveMcpHttp(() => createMcpServer(runner), { sessions: false });
    try {
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(stateless.url));
      const result = await client.callTool({ name: 'view_file', arguments: { file_path: 'missing.txt' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^not_found: /);
      expect(stateless.sessionCount()).toBe(0);
      await client.close();
    } finally {
      await stateless.close();
    }
  });
});

// The cases of this group and the next run side by side: each waits on CLI processes of its own (on a
// saturated machine longer than one at a time would, hence the time limit of 2 minutes).
describe.concurrent('toolhost mcp with the MCP Inspector CLI (@modelcontextprotocol/inspector-cli, SDK 1.x client)', { timeout: 120_000 }, () => {
  let dir = '';
  // The Inspector CLI finds its own package.json relative to the working directory, so it runs from its build folder.
  const inspectorDir = join(REPO, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build');
  beforeAll(() => {
    buildIfNeeded();
    dir = mkdtempSync(join(tmpdir(), 'toolhost-mcp-inspector-'));
    writeFileSync(join(dir, 'a.txt'), 'hello inspector\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const inspect = async (args: string[]): Promise<unknown> => {
    const { code, stdout, stderr } = await runNode(['index.js', process.execPath, BIN, 'mcp', '--root', dir, ...args], { cwd: inspectorDir });
    expect(code, stderr).toBe(0);
    return JSON.parse(stdout);
  };

  it('lists the tools', async () => {
    const listed = await inspect(['--method', 'tools/list']) as { tools: { name: string; annotations: { readOnlyHint: boolean } }[] };
    // The command serves the built-ins but the three that need a host's hook.
    const served = BuiltinTools.all().map((tool) => tool.name).filter((name) => !['start_subagent', 'generate_image', 'finish'].includes(name));
    expect(listed.tools.map((tool) => tool.name)).toEqual(served);
    expect(listed.tools.find((tool) => tool.name === 'grep_search')?.annotations.readOnlyHint).toBe(true);
  });

  it('calls a tool', async () => {
    const result = await inspect(['--method', 'tools/call', '--tool-name', 'view_file', '--tool-arg', 'file_path=a.txt']) as { structuredContent: { content: string } };
    expect(result.structuredContent.content).toBe('hello inspector');
  });
});

describe.concurrent('toolhost --tools', { timeout: 120_000 }, () => {
  let dir = '';
  beforeAll(() => {
    buildIfNeeded();
    dir = mkdtempSync(join(tmpdir(), 'toolhost-tools-flag-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('registers a module’s tools for call', async () => {
    const { code, stdout } = await runNode([BIN, 'call', 'progress_steps', '{"steps":2}', '--root', dir, '--tools', FIXTURE_TOOLS]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ name: 'progress_steps', result: { steps: 2 } });
  });

  it('registers a module’s tools for run, keeping state across lines', async () => {
    const input = '{"id":"1","name":"count_calls","args":{}}\n{"id":"2","name":"count_calls","args":{}}\n';
    const { code, stdout } = await runNode([BIN, 'run', '--root', dir, '--tools', FIXTURE_TOOLS], { input });
    expect(code).toBe(0);
    expect(stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { id: '1', name: 'count_calls', result: { count: 1 } },
      { id: '2', name: 'count_calls', result: { count: 2 } },
    ]);
  });

  it('refuses a module that exports no tool with exit code 2', async () => {
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, 'export const answer = 42;\n');
    const failure = await runNode([BIN, 'tools', '--tools', empty]);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/--tools .*empty.mjs exports no tool/);
  });

  it('denies a mutating tool with --read-only', async () => {
    const failure = await runNode([BIN, 'call', 'create_file', '{"file_path":"x.txt","content":"x"}', '--root', dir, '--read-only']);
    expect(failure.code).toBe(1);
    expect(JSON.parse(failure.stdout).code).toBe('permission_denied');
    expect(existsSync(join(dir, 'x.txt'))).toBe(false);
  });
});
