import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../bridges/mcp/index.js';
import { serveMcpHttp, type McpHttpEndpoint } from '../../bridges/mcp/node-http.js';
import { ToolRunner } from '../../src/runner.js';
import { createMemoryPlatform } from '../../src/platform/memory.js';
import { BuiltinTools } from '../../src/tools/index.js';

type Answer = { id?: number; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** A raw JSON-RPC session with a fresh server on protocol 2025-11-25: each request's answer. */
async function session(): Promise<{ ask(method: string, params: unknown): Promise<Answer>; close(): Promise<void> }> {
  const runner = new ToolRunner({ platform: createMemoryPlatform({ files: { 'a.txt': 'alpha\n' } }), tools: BuiltinTools.all() });
  const server = await createMcpServer(runner);
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<number, (answer: Answer) => void>();
  client.onmessage = (message: JSONRPCMessage) => {
    const answer = message as Answer;
    if (typeof answer.id === 'number') waiting.get(answer.id)?.(answer);
  };
  await server.connect(serverSide);
  await client.start();
  let ids = 0;
  const ask = (method: string, params: unknown): Promise<Answer> => {
    ids += 1;
    const id = ids;
    const answered = new Promise<Answer>((resolve) => waiting.set(id, resolve));
    void client.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    return answered;
  };
  await ask('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  return { ask, close: () => server.close() };
}

const UNKNOWN = 'Unknown tool: nonexistent: this server has no tool of that name; tools/list lists the tools it has';

describe('MCP tools/call mistakes: -32602 as the SDK answers them, in one line with the next step', () => {
  it('a tool the server does not have: says so, names tools/list, and the close name when there is one', async () => {
    const { ask, close } = await session();
    try {
      expect(await ask('tools/call', { name: 'nonexistent', arguments: {} })).toMatchObject({ error: { code: -32602, message: UNKNOWN } });
      expect((await ask('tools/call', { name: 'view_fil', arguments: { file_path: 'a.txt' } })).error).toEqual({
        code: -32602,
        message: 'Unknown tool: view_fil: this server has no tool of that name (did you mean view_file?); tools/list lists the tools it has',
      });
      // A known tool still answers as before.
      expect((await ask('tools/call', { name: 'view_file', arguments: { file_path: 'a.txt' } })).result?.['isError']).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('arguments that are not an object: one line saying they must be the tool arguments by name, as its inputSchema says', async () => {
    const { ask, close } = await session();
    try {
      const answer = await ask('tools/call', { name: 'view_file', arguments: 'x' });
      expect(answer.error).toEqual({
        code: -32602,
        message: `tools/call arguments must be a JSON object of view_file's arguments by name, as its inputSchema in tools/list describes (e.g. { "file_path": ... }), not a string`,
      });
      expect((await ask('tools/call', { name: 'view_file', arguments: [1] })).error?.message).toMatch(/^tools\/call arguments must be a JSON object .*, not an array$/);
      expect((await ask('tools/call', { name: 'view_file', arguments: null })).error?.message).toMatch(/, not null$/);
      expect((await ask('tools/call', { arguments: {} })).error).toEqual({ code: -32602, message: 'tools/call params.name must be the name of a tool (a string; tools/list lists them), not missing' });
      expect((await ask('tools/call', { name: 7 })).error?.message).toBe('tools/call params.name must be the name of a tool (a string; tools/list lists them), not a number');
      // Arguments left out are an empty object, as the spec has them.
      expect((await ask('tools/call', { name: 'view_file' })).result?.['isError']).toBe(true);
    } finally {
      await close();
    }
  });
});

describe('MCP tools/call mistakes on protocol 2026-07-28 (Streamable HTTP)', () => {
  let endpoint: McpHttpEndpoint;
  let runner: ToolRunner;
  beforeAll(async () => {
    runner = new ToolRunner({ platform: createMemoryPlatform(), tools: BuiltinTools.all() });
    endpoint = await serveMcpHttp(() => createMcpServer(runner));
  });
  afterAll(() => endpoint.close());

  async function rawCall(params: Record<string, unknown>): Promise<Answer> {
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': String(params['name']) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } } },
      }),
    });
    const text = await response.text();
    return JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text)) as Answer;
  }

  it('answers the same texts', async () => {
    expect((await rawCall({ name: 'nonexistent', arguments: {} })).error).toEqual({ code: -32602, message: UNKNOWN });
    expect((await rawCall({ name: 'view_file', arguments: 'x' })).error?.message).toMatch(/^tools\/call arguments must be a JSON object of view_file's arguments by name, .*, not a string$/);
  });
});
