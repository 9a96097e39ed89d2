import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpPermissionPrompt, createMcpServer } from '../../bridges/mcp/index.js';
import { serveMcpHttp, type McpHttpEndpoint } from '../../bridges/mcp/node-http.js';
import { ToolRunner } from '../../src/runner.js';
import { createMemoryPlatform } from '../../src/platform/memory.js';
import { BuiltinTools } from '../../src/tools/index.js';

describe('createMcpPermissionPrompt: the runner’s ask as MCP elicitation', () => {
  let endpoint: McpHttpEndpoint;
  let runner: ToolRunner;
  const asked: string[] = [];
  beforeAll(async () => {
    const prompt = createMcpPermissionPrompt();
    runner = new ToolRunner({ platform: createMemoryPlatform(), tools: BuiltinTools.all(), permissions: { ask: prompt.ask } });
    endpoint = await serveMcpHttp(() => createMcpServer(runner, { permissionPrompt: prompt }));
  });
  afterAll(() => endpoint.close());

  it('asks a client that declared elicitation and runs the call it allowed', async () => {
    const client = new Client({ name: 'asker', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { answer: 'allow_once' } };
    });
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    const result = await client.callTool({ name: 'create_file', arguments: { file_path: 'a.txt', content: 'yes' } });
    expect(result.isError).toBeUndefined();
    expect(asked).toEqual(['Allow create_file with {"file_path":"a.txt","content":"yes"}?']);
    expect(new TextDecoder().decode(await runner.platform.fs.readFile('/workspace/a.txt'))).toBe('yes');
    await client.close();
  });

  it('ends the call permission_denied when the user declines', async () => {
    const client = new Client({ name: 'asker', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    const result = await client.callTool({ name: 'create_file', arguments: { file_path: 'b.txt', content: 'no' } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { code: string }).code).toBe('permission_denied');
    await client.close();
  });

  it('refuses with permission_denied for a client without elicitation, saying why', async () => {
    const client = new Client({ name: 'plain', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    const result = await client.callTool({ name: 'create_file', arguments: { file_path: 'c.txt', content: 'no' } });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toEqual({
      type: 'text',
      text: 'permission_denied: the permission prompt failed: the MCP client cannot show a permission prompt (it did not declare the elicitation capability); allow create_file in the server\'s permission rules',
    });
    const read = await client.callTool({ name: 'list_dir', arguments: { dir_path: '.' } });
    expect(read.isError).toBeUndefined();
    await client.close();
  });
});
