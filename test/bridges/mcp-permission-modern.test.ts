import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpPermissionPrompt, createMcpServer } from '../../bridges/mcp/index.js';
import { serveMcpHttp, type McpHttpEndpoint } from '../../bridges/mcp/node-http.js';
import { ToolRunner } from '../../src/runner.js';
import { createMemoryPlatform } from '../../src/platform/memory.js';
import { BuiltinTools } from '../../src/tools/index.js';

const PINNED = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

/** A raw 2026-07-28 tools/call (per-request _meta), its JSON-RPC answer. */
async function rawCall(url: URL, params: Record<string, unknown>, capabilities: Record<string, unknown>): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': String(params['name']) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text);
  return JSON.parse(json) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

describe('createMcpPermissionPrompt on protocol 2026-07-28: the permission prompt as an input_required round trip', () => {
  let endpoint: McpHttpEndpoint;
  let runner: ToolRunner;
  beforeAll(async () => {
    const prompt = createMcpPermissionPrompt();
    runner = new ToolRunner({ platform: createMemoryPlatform(), tools: BuiltinTools.all(), permissions: { ask: prompt.ask } });
    endpoint = await serveMcpHttp(() => createMcpServer(runner, { permissionPrompt: prompt }));
  });
  afterAll(() => endpoint.close());

  it('a pinned SDK client that answers elicitations gets the prompt and the call runs once allowed', async () => {
    const asked: string[] = [];
    const client = new Client({ name: 'asker', version: '1' }, { capabilities: { elicitation: { form: {} } }, ...PINNED });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { answer: 'allow_once' } };
    });
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const result = await client.callTool({ name: 'create_file', arguments: { file_path: 'a.txt', content: 'yes' } });
    expect(result.isError).toBeUndefined();
    expect(asked).toEqual(['Allow create_file with {"file_path":"a.txt","content":"yes"}?']);
    expect(new TextDecoder().decode(await runner.platform.fs.readFile('/workspace/a.txt'))).toBe('yes');
    await client.close();
  });

  it('a declined prompt ends the call permission_denied and writes nothing', async () => {
    const client = new Client({ name: 'asker', version: '1' }, { capabilities: { elicitation: { form: {} } }, ...PINNED });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    const result = await client.callTool({ name: 'create_file', arguments: { file_path: 'b.txt', content: 'no' } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { code: string }).code).toBe('permission_denied');
    await expect(runner.platform.fs.readFile('/workspace/b.txt')).rejects.toThrow();
    await client.close();
  });

  it('the first round answers input_required with the prompt keyed to the call; an answer for other arguments is asked again', async () => {
    const elicitation = { elicitation: { form: {} } };
    const first = await rawCall(endpoint.url, { name: 'create_file', arguments: { file_path: 'c.txt', content: 'one' } }, elicitation);
    expect(first.result?.['resultType']).toBe('input_required');
    const requests = first.result?.['inputRequests'] as Record<string, { method: string; params: { message: string } }>;
    const [key] = Object.keys(requests);
    expect(key).toMatch(/^permission_[0-9a-f]{16}$/);
    expect(requests[key as string]).toMatchObject({ method: 'elicitation/create', params: { message: 'Allow create_file with {"file_path":"c.txt","content":"one"}?' } });
    // The same answer sent with other arguments is for another call: asked again, nothing written.
    const other = await rawCall(
      endpoint.url,
      { name: 'create_file', arguments: { file_path: 'c.txt', content: 'two' }, inputResponses: { [key as string]: { action: 'accept', content: { answer: 'allow_once' } } } },
      elicitation,
    );
    expect(other.result?.['resultType']).toBe('input_required');
    await expect(runner.platform.fs.readFile('/workspace/c.txt')).rejects.toThrow();
    const allowed = await rawCall(
      endpoint.url,
      { name: 'create_file', arguments: { file_path: 'c.txt', content: 'one' }, inputResponses: { [key as string]: { action: 'accept', content: { answer: 'allow_once' } } } },
      elicitation,
    );
    expect(allowed.result?.['isError']).toBeUndefined();
    expect(new TextDecoder().decode(await runner.platform.fs.readFile('/workspace/c.txt'))).toBe('one');
  });

  it('a client without the elicitation capability gets permission_denied saying why, not an input request', async () => {
    const answer = await rawCall(endpoint.url, { name: 'create_file', arguments: { file_path: 'd.txt', content: 'no' } }, {});
    expect(answer.result?.['isError']).toBe(true);
    expect((answer.result?.['content'] as { text: string }[])[0]?.text).toBe(
      "permission_denied: the permission prompt failed: the MCP client cannot show a permission prompt (it did not declare the elicitation capability); allow create_file in the server's permission rules",
    );
  });
});
