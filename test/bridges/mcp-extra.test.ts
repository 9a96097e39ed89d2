import { mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../bridges/mcp/index.js';
import { serveMcpHttp, type McpHttpEndpoint } from '../../bridges/mcp/node-http.js';
import { createNodePlatform } from '../../node/platform.js';
import { ToolRunner } from '../../src/runner.js';
import type { Tool } from '../../src/core/tool.js';
import { BuiltinTools } from '../../src/tools/index.js';

const REPO = join(import.meta.dirname, '..', '..');
const FIXTURE_TOOLS = join(REPO, 'test', 'fixtures', 'mcp-tools.mjs');
/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

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

describe('createMcpServer: images and closed request streams', () => {
  let dir = '';
  let endpoint: McpHttpEndpoint;
  let runner: ToolRunner;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolhost-mcp-extra-'));
    writeFileSync(join(dir, 'dot.png'), Buffer.from(PNG_BASE64, 'base64'));
    const fixture = (await import(FIXTURE_TOOLS)) as Record<string, Tool>;
    runner = new ToolRunner({ platform: createNodePlatform({ root: dir }), tools: [...BuiltinTools.all(), fixture['waitForAbort'] as Tool] });
    endpoint = await serveMcpHttp(() => createMcpServer(runner));
  });
  afterAll(async () => {
    await endpoint.close();
    await runner.platform.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers view_file of an image with MCP image content and the rest as JSON', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    const result = await client.callTool({ name: 'view_file', arguments: { file_path: 'dot.png' } });
    expect(result.content[0]).toEqual({ type: 'image', data: PNG_BASE64, mimeType: 'image/png' });
    expect(result.content[1]?.type).toBe('text');
    expect(result.structuredContent).toMatchObject({ binary: true, mime_type: 'image/png', size: 70 });
    expect((result.structuredContent as Record<string, unknown>)['data_base64']).toBeUndefined();
    await client.close();
  });

  it('cancels a call whose HTTP request stream the client closes', async () => {
    const marker = join(dir, 'closed-stream-marker');
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(endpoint.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    const session = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    const withSession = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await (await fetch(endpoint.url, { method: 'POST', headers: withSession, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
    const controller = new AbortController();
    const call = fetch(endpoint.url, {
      method: 'POST',
      headers: withSession,
      signal: controller.signal,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for_abort', arguments: { marker } } }),
    });
    await until(() => existsSync(marker));
    controller.abort();
    await expect(call.then((response) => response.text())).rejects.toThrow();
    await until(() => readFileSync(marker, 'utf8') !== 'started');
    expect(readFileSync(marker, 'utf8')).toBe('aborted:cancelled');
  });
});

describe('serveMcpHttp and protocol 2026-07-28', () => {
  it('serves a client pinned to 2026-07-28 statelessly beside 2025-11-25 sessions', async () => {
    const runner = new ToolRunner({ tools: BuiltinTools.all() });
    const endpoint = await serveMcpHttp(() => createMcpServer(runner));
    try {
      const modern = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await modern.connect(new StreamableHTTPClientTransport(endpoint.url));
      expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const listed = await modern.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(BuiltinTools.all().map((tool) => tool.name));
      const created = await modern.callTool({ name: 'create_file', arguments: { file_path: 'm.txt', content: 'modern' } });
      expect(created.isError).toBeUndefined();
      const invalid = await modern.callTool({ name: 'view_file', arguments: {} });
      expect(invalid.isError).toBe(true);
      expect((invalid.structuredContent as { code: string }).code).toBe('invalid_arguments');
      await modern.close();
      const legacy = new Client({ name: 'legacy', version: '1' });
      await legacy.connect(new StreamableHTTPClientTransport(endpoint.url));
      expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const view = await legacy.callTool({ name: 'view_file', arguments: { file_path: 'm.txt' } });
      expect((view.structuredContent as { content: string }).content).toBe('modern');
      await legacy.close();
    } finally {
      await endpoint.close();
    }
  });
});

describe('toolhost mcp on stdio and protocol 2026-07-28', () => {
  it('serves a client pinned to 2026-07-28 as well as 2025-11-25 ones', async () => {
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-mcp-modern-'));
    writeFileSync(join(dir, 'a.txt'), 'modern stdio\n');
    const bin = join(REPO, 'bin', 'toolhost.mjs');
    try {
      for (const [mode, version] of [[{ pin: '2026-07-28' }, '2026-07-28'], ['legacy', '2025-11-25']] as const) {
        const client = new Client({ name: 'test', version: '1' }, { versionNegotiation: { mode } });
        await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--root', dir], stderr: 'pipe' }));
        try {
          expect(client.getNegotiatedProtocolVersion()).toBe(version);
          const view = await client.callTool({ name: 'view_file', arguments: { file_path: 'a.txt' } });
          expect((view.structuredContent as { content: string }).content).toBe('modern stdio');
        } finally {
          await client.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
