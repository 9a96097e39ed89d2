import { describe, expect, it } from 'vitest';
import { createMcpServer, toCallToolResult } from '../../bridges/mcp/index.js';
import { ToolRunner } from '../../src/runner.js';
import { createMemoryPlatform } from '../../src/platform/memory.js';

describe('toCallToolResult: tool outputs as MCP content blocks', () => {
  it('an output with data_base64 and an audio mime_type is an audio block, the rest JSON text and structuredContent', () => {
    expect(toCallToolResult({ name: 'clip', result: { data_base64: 'UklGRg==', mime_type: 'audio/wav', seconds: 0 } })).toEqual({
      content: [
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        { type: 'text', text: '{"mime_type":"audio/wav","seconds":0}' },
      ],
      structuredContent: { mime_type: 'audio/wav', seconds: 0 },
    });
  });

  it('an output with data_base64 and a mime_type that is neither image nor audio stays JSON', () => {
    const result = toCallToolResult({ name: 'doc', result: { data_base64: 'JVBE', mime_type: 'application/pdf' } });
    expect(result.content).toEqual([{ type: 'text', text: '{"data_base64":"JVBE","mime_type":"application/pdf"}' }]);
  });

  it('an output that is already an MCP answer ({ content: [blocks] }) is sent as it is, embedded resources included', () => {
    const answer = {
      content: [
        { type: 'text', text: 'two blocks' },
        { type: 'resource', resource: { uri: 'test://r', mimeType: 'text/plain', text: 'inside' } },
      ],
      structuredContent: { count: 2 },
    };
    expect(toCallToolResult({ name: 'mixed', result: answer })).toEqual(answer);
  });

  it('an output whose content is a string (as view_file’s) is not taken for an MCP answer', () => {
    const result = toCallToolResult({ name: 'view_file', result: { content: 'hello', total_lines: 1 } });
    expect(result.structuredContent).toEqual({ content: 'hello', total_lines: 1 });
    expect(result.content).toEqual([{ type: 'text', text: '{"content":"hello","total_lines":1}' }]);
  });

  it('an output with content blocks beside other fields, or blocks of an unknown type, stays JSON', () => {
    const extra = toCallToolResult({ name: 't', result: { content: [{ type: 'text', text: 'a' }], note: 'x' } });
    expect(extra.structuredContent).toEqual({ content: [{ type: 'text', text: 'a' }], note: 'x' });
    const unknown = toCallToolResult({ name: 't', result: { content: [{ type: 'video', data: 'AA' }] } });
    expect(unknown.structuredContent).toEqual({ content: [{ type: 'video', data: 'AA' }] });
    const empty = toCallToolResult({ name: 't', result: { content: [] } });
    expect(empty.structuredContent).toEqual({ content: [] });
  });
});

describe('createMcpServer requestState option', () => {
  it('refuses a requestState without verify with a TypeError naming the option', async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform(), tools: [] });
    await expect(createMcpServer(runner, { requestState: 5 as never })).rejects.toThrow(TypeError);
    await expect(createMcpServer(runner, { requestState: 5 as never })).rejects.toThrow(/createMcpServer: requestState must be an object with verify\(state, ctx\)/);
  });
});
