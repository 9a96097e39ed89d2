import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../../bridges/ai-sdk/index.js';
import { createMcpServer } from '../../bridges/mcp/index.js';
import { mcpTools } from '../../bridges/mcp/client.js';
import { openAIAgentsTools } from '../../bridges/openai-agents/index.js';
import { ToolRunner } from '../../src/runner.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { rejectionOf } from '../support/type-errors.js';

const HOST = 'host must be a ToolHost such as new ToolRunner({ tools })';

describe('bridge entry points', () => {
  const entries: Array<[string, (host: unknown, options?: unknown) => Promise<unknown>]> = [
    ['aiSdkTools', (host, options) => aiSdkTools(host as never, options as never)],
    ['openAIAgentsTools', (host, options) => openAIAgentsTools(host as never, options as never)],
    ['createMcpServer', (host, options) => createMcpServer(host as never, options as never)],
  ];

  it('reject a host that is not a ToolHost with a TypeError naming it', async () => {
    for (const [where, entry] of entries) {
      expect((await rejectionOf(entry(null))).message, where).toBe(`${where}: ${HOST}, not null`);
      expect((await rejectionOf(entry(undefined))).message, where).toBe(`${where}: ${HOST}, not undefined`);
      expect((await rejectionOf(entry({ tools: () => [] }))).message, where).toBe(`${where}: ${HOST}; it has no processToolCalls method`);
    }
  });

  it('reject bad and misspelled options with a TypeError naming the option', async () => {
    const runner = new ToolRunner({ tools: BuiltinTools.readOnly() });
    for (const where of ['aiSdkTools', 'openAIAgentsTools']) {
      const [, entry] = entries.find(([name]) => name === where) as (typeof entries)[number];
      expect((await rejectionOf(entry(runner, { conversationId: 5 }))).message).toBe(`${where}: conversationId must be a non-empty string, not 5`);
      expect((await rejectionOf(entry(runner, { timeoutMs: -1 }))).message).toBe(
        `${where}: timeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not -1`,
      );
      expect((await rejectionOf(entry(runner, { timeoutMS: 5 }))).message).toBe(`${where}: timeoutMS is not an option (did you mean timeoutMs?)`);
      expect((await rejectionOf(entry(runner, { include: 'view_*' }))).message).toBe(
        `${where}: include must be an array of tool-name patterns (strings such as "view_*"), not "view_*"`,
      );
    }
    expect((await rejectionOf(openAIAgentsTools(runner, { ask: 'always' } as never))).message).toBe(
      "openAIAgentsTools: ask must be 'mutating' or an array of tool-name patterns, not \"always\"",
    );
    expect((await rejectionOf(createMcpServer(runner, { timeoutMS: 5 } as never))).message).toBe('createMcpServer: timeoutMS is not an option (did you mean timeoutMs?)');
    expect((await rejectionOf(createMcpServer(runner, { conversation: '' }))).message).toBe('createMcpServer: conversation must be a non-empty string, not ""');
    // Good options still work.
    expect(Object.keys(await aiSdkTools(runner, { include: ['view_file'], timeoutMs: 1_000 }))).toEqual(['view_file']);
    expect((await openAIAgentsTools(runner, { include: ['view_file'], ask: 'mutating' })).map((t) => t.name)).toEqual(['view_file']);
  });

  it('mcpTools rejects a source that is neither a Client nor a Transport, and bad options', async () => {
    const source = 'source must be an MCP Client or Transport (stdio, Streamable HTTP, MessagePortTransport)';
    expect((await rejectionOf(mcpTools(null as never))).message).toBe(`mcpTools: ${source}, not null`);
    expect((await rejectionOf(mcpTools({ start: async () => undefined } as never))).message).toBe(`mcpTools: ${source}; it has no send, close methods`);
    const transport = { start: async () => undefined, send: async () => undefined, close: async () => undefined };
    expect((await rejectionOf(mcpTools(transport as never, { prefx: 'docs.' } as never))).message).toBe('mcpTools: prefx is not an option (did you mean prefix?)');
    expect((await rejectionOf(mcpTools(transport as never, { registry: {} } as never))).message).toBe(
      'mcpTools: registry must be a ToolRegistry such as a ToolRunner; it has no registerAll method',
    );
  });
});
