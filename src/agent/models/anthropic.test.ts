import { describe, expect, it } from 'vitest';
import { anthropicModel, fromAnthropicToolUses, toAnthropicMessages, toAnthropicToolResults, toAnthropicTools } from './anthropic.js';
import { captureFetch } from '../../../test/support/capture-fetch.js';

describe('Anthropic converters', () => {
  it('declares tools with input_schema, adding type object where missing', () => {
    expect(toAnthropicTools([
      { name: 'a', description: 'A.', parameters: { type: 'object', properties: {} } },
      { name: 'b', description: 'B.', parameters: { properties: { x: { type: 'string' } } } },
    ])).toEqual({
      tools: [
        { name: 'a', description: 'A.', input_schema: { type: 'object', properties: {} } },
        { name: 'b', description: 'B.', input_schema: { type: 'object', properties: { x: { type: 'string' } } } },
      ],
      notes: [{ tool: 'b', path: '', keyword: 'type', action: 'converted', detail: 'input_schema needs type "object"; added' }],
    });
  });

  it('reads tool_use blocks and writes tool_result blocks with is_error for failures', () => {
    expect(fromAnthropicToolUses([
      { type: 'text', text: 'Sure.' },
      { type: 'tool_use', id: 'toolu_1', name: 'list_dir', input: { dir_path: '.' } },
      { type: 'tool_use', id: 'toolu_2', name: 'view_file', input: 'README.md' },
    ])).toEqual([
      { id: 'toolu_1', name: 'list_dir', args: { dir_path: '.' } },
      { id: 'toolu_2', name: 'view_file', args: {}, argumentsError: 'input must be a JSON object', rawArguments: 'README.md' },
    ]);
    expect(toAnthropicToolResults([
      { id: 'toolu_1', name: 'list_dir', result: { entries: [] } },
      { id: 'toolu_2', name: 'view_file', error: 'gone', code: 'not_found' },
    ])).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"entries":[]}' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: '{"error":"gone","code":"not_found"}', is_error: true },
    ]);
  });

  it('builds alternating messages with tool results first in the user turn', () => {
    expect(toAnthropicMessages([
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: 'Looking.', toolCalls: [{ id: 't1', name: 'list_dir', args: { dir_path: '.' } }] },
      { role: 'tool', results: [{ id: 't1', name: 'list_dir', result: 'ok' }] },
      { role: 'user', text: 'more' },
      { role: 'assistant', toolCalls: [] },
      { role: 'user', text: 'again' },
    ])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 't1', name: 'list_dir', input: { dir_path: '.' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }, { type: 'text', text: 'more' }, { type: 'text', text: 'again' }] },
    ]);
  });
});

describe('anthropicModel', () => {
  it('POSTs /v1/messages with x-api-key, anthropic-version, max_tokens and system', async () => {
    const fetch = captureFetch(200, {
      id: 'msg_1', type: 'message', role: 'assistant', model: 'claude',
      content: [{ type: 'text', text: 'Hi' }, { type: 'tool_use', id: 'toolu_1', name: 'finish', input: {} }],
      stop_reason: 'tool_use', usage: { input_tokens: 4, output_tokens: 6 },
    });
    const response = await anthropicModel({ apiKey: 'ak', model: 'claude', baseUrl: 'http://127.0.0.1:9', fetch })
      .generate({ system: 'sys', messages: [{ role: 'user', text: 'go' }], tools: [] });
    expect(fetch.requests[0]?.url).toBe('http://127.0.0.1:9/v1/messages');
    expect(fetch.requests[0]?.headers).toMatchObject({ 'x-api-key': 'ak', 'anthropic-version': '2023-06-01' });
    expect(fetch.requests[0]?.body).toEqual({ model: 'claude', max_tokens: 4096, system: 'sys', messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] });
    expect(response).toMatchObject({ text: 'Hi', toolCalls: [{ id: 'toolu_1', name: 'finish', args: {} }], finishReason: 'tool_use', usage: { inputTokens: 4, outputTokens: 6, totalTokens: 10 } });
  });

  it('says what the API said', async () => {
    const fetch = captureFetch(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    await expect(anthropicModel({ apiKey: 'bad', model: 'claude', fetch }).generate({ messages: [{ role: 'user', text: 'x' }], tools: [] })).rejects.toMatchObject({
      code: 'unauthorized',
      provider: 'anthropic',
      message: 'Anthropic API error 401: invalid x-api-key',
    });
    expect(fetch.requests[0]?.url).toBe('https://api.anthropic.com/v1/messages');
  });
});
