import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMcpServer, MessagePortTransport, type CreateMcpServerOptions } from '../../bridges/mcp/index.js';
import { defineTool } from '../../src/core/tool.js';
import { ToolRunner } from '../../src/runner.js';

// createMcpServer names the server's own conversation (`mcp-<n>-<uuid>`, for a connection whose calls
// bring none) when a call first needs it, not when the server is made: a random UUID is drawn only
// then, and once per server.

/** A tool that answers the conversation its call ran in. */
const whichConversation = defineTool({
  name: 'which_conversation',
  description: 'Answers the conversation of the call',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  callWithContext: (_args, ctx) => ctx.conversationId,
});

const runner = new ToolRunner({ tools: [whichConversation] });
const open: Client[] = [];

/** A client connected over a MessagePort to a new server on `runner`. */
async function connect(options?: CreateMcpServerOptions): Promise<Client> {
  const server = await createMcpServer(runner, options);
  const channel = new MessageChannel();
  await server.connect(new MessagePortTransport(channel.port1));
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new MessagePortTransport(channel.port2));
  open.push(client);
  return client;
}

/** The conversation one call of `client` ran in. */
async function conversationOf(client: Client): Promise<string> {
  const result = (await client.callTool({ name: 'which_conversation', arguments: {} })) as CallToolResult;
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((client) => client.close()));
});

describe("createMcpServer's own conversation", () => {
  it('draws its UUID at the first call, not when the server is made, and keeps it for every later call', async () => {
    const uuid = vi.spyOn(crypto, 'randomUUID');
    const client = await connect();
    await client.listTools();
    expect(uuid).not.toHaveBeenCalled();
    const first = await conversationOf(client);
    expect(first).toMatch(/^mcp-\d+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await conversationOf(client)).toBe(first);
    expect(uuid).toHaveBeenCalledTimes(1);
  });

  it('is one per server: two connections run in two conversations', async () => {
    const one = await connect();
    const two = await connect();
    const [a, b] = [await conversationOf(one), await conversationOf(two)];
    expect(a).not.toBe(b);
    // The number counts the servers made, in order.
    const n = (id: string): number => Number(id.split('-')[1]);
    expect(n(b)).toBeGreaterThan(n(a));
  });

  it('is never drawn when the conversation option names one', async () => {
    const uuid = vi.spyOn(crypto, 'randomUUID');
    const client = await connect({ conversation: 'ide-7' });
    expect(await conversationOf(client)).toBe('ide-7');
    expect(uuid).not.toHaveBeenCalled();
  });
});
