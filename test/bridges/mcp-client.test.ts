import { McpServer } from '@modelcontextprotocol/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MessagePortTransport, createMcpServer } from '../../bridges/mcp/index.js';
import { serveMcpHttp } from '../../bridges/mcp/node.js';
import { mcpTools, type McpTools } from '../../bridges/mcp/client.js';
import { ToolRunner } from '../../src/runner.js';
import { createMemoryPlatform } from '../../src/platform/memory.js';
import { BuiltinTools } from '../../src/tools/index.js';

function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (predicate()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new Error('condition not met in time'));
      else setTimeout(tick, 5);
    };
    tick();
  });
}

/** An MCP server written with the SDK the usual way (zod schemas), as a third party would. */
function remoteServer(events: string[]): McpServer {
  const server = new McpServer({ name: 'remote', version: '1.0.0' });
  server.registerTool(
    'lookup',
    { description: 'Looks a word up', inputSchema: z.object({ word: z.string() }), annotations: { readOnlyHint: true } },
    async ({ word }) => ({ content: [{ type: 'text', text: `${word}: a word` }] }),
  );
  server.registerTool(
    'write_note',
    { description: 'Writes a note', inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: false, destructiveHint: false } },
    async ({ text }) => {
      events.push(`wrote ${text}`);
      return { content: [{ type: 'text', text: 'ok' }], structuredContent: { written: text } };
    },
  );
  server.registerTool('slow', { description: 'Waits until cancelled', inputSchema: z.object({}), annotations: { readOnlyHint: true } }, async (_args, ctx) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 30_000);
      ctx.mcpReq.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        events.push('slow aborted');
        resolve();
      });
    });
    return { content: [{ type: 'text', text: 'finished' }] };
  });
  server.registerTool('fail', { description: 'Always fails', inputSchema: z.object({}) }, async () => ({
    content: [{ type: 'text', text: 'the backend is down' }],
    isError: true,
  }));
  return server;
}

describe('mcpTools: a remote MCP server’s tools in a ToolRunner', () => {
  let remote: McpTools | undefined;
  afterEach(async () => {
    await remote?.close();
    remote = undefined;
  });

  it('runs remote tools with the runner’s permissions and timeout, and follows list changes (MessagePort transport)', async () => {
    const events: string[] = [];
    const server = remoteServer(events);
    const channel = new MessageChannel();
    await server.connect(new MessagePortTransport(channel.port1));
    const runner = new ToolRunner({ permissions: { allow: ['remote.fail', 'remote.added'], deny: ['remote.write_note'] } });
    // The host runs this server, so it believes its readOnlyHint.
    remote = await mcpTools(new MessagePortTransport(channel.port2), { prefix: 'remote.', registry: runner, trustAnnotations: true });

    expect(runner.tools().map((t) => [t.name, t.annotations.readOnlyHint, t.concurrencySafe])).toEqual([
      ['remote.lookup', true, true],
      ['remote.write_note', false, false],
      ['remote.slow', true, true],
      ['remote.fail', false, false],
    ]);
    expect(runner.tools()[1]?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false });

    const results = await runner.processToolCalls([
      { id: '1', name: 'remote.lookup', args: { word: 'tree' } },
      { id: '2', name: 'remote.write_note', args: { text: 'hi' } },
      { id: '3', name: 'remote.fail', args: {} },
      { id: '4', name: 'remote.lookup', args: { word: 7 } },
    ]);
    expect(results[0]).toEqual({ id: '1', name: 'remote.lookup', result: 'tree: a word' });
    expect(results[1]).toMatchObject({ id: '2', code: 'permission_denied' });
    expect(results[2]).toEqual({ id: '3', name: 'remote.fail', error: 'the backend is down', code: 'execution_failed' });
    expect(results[3]).toMatchObject({ id: '4', code: 'invalid_arguments' });
    expect(events).toEqual([]);

    const [slow] = await runner.processToolCalls([{ id: '5', name: 'remote.slow', args: {} }], { timeoutMs: 150 });
    expect(slow).toMatchObject({ id: '5', code: 'timeout' });
    await until(() => events.includes('slow aborted'));

    server.registerTool('added', { description: 'Added later', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'new' }] }));
    await until(() => runner.has('remote.added'));
    expect(await runner.execute('remote.added', {})).toBe('new');
    await server.close();
  });

  it('reads a toolhost server’s code back from isError results (Streamable HTTP)', async () => {
    const backend = new ToolRunner({ platform: createMemoryPlatform({ files: { 'a.txt': 'one\n' } }), tools: BuiltinTools.all() });
    const endpoint = await serveMcpHttp(() => createMcpServer(backend));
    try {
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(endpoint.url));
      const runner = new ToolRunner({ planMode: true });
      // The default prefix is the server's name (createMcpServer calls itself `toolhost`).
      remote = await mcpTools(client, { registry: runner, trustAnnotations: true });
      expect(runner.has('toolhost__view_file')).toBe(true);
      expect(runner.has('view_file')).toBe(false);
      const [view, missing, create] = await runner.processToolCalls([
        { name: 'toolhost__view_file', args: { file_path: 'a.txt' } },
        { name: 'toolhost__view_file', args: { file_path: 'b.txt' } },
        { name: 'toolhost__create_file', args: { file_path: 'c.txt', content: 'x' } },
      ]);
      expect(view).toMatchObject({ name: 'toolhost__view_file', result: { content: 'one', total_lines: 1 } });
      expect(missing).toMatchObject({ name: 'toolhost__view_file', code: 'not_found' });
      expect(create).toMatchObject({ name: 'toolhost__create_file', code: 'permission_denied' });
      await client.close();
    } finally {
      await endpoint.close();
    }
  });
});
