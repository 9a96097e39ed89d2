import { describe, expect, it } from 'vitest';
import { fromOpenAIToolCalls, openAICompatibleModel, toOpenAIMessages, toOpenAITools, toOpenAIToolMessages } from './openai.js';
import { captureFetch } from '../../../test/support/capture-fetch.js';

describe('OpenAI converters', () => {
  it('declares function tools, strict only when the schema qualifies', () => {
    const { tools, notes } = toOpenAITools([
      { name: 'a', description: 'A.', parameters: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'], additionalProperties: false } },
      { name: 'b', description: 'B.', parameters: { type: 'object', properties: { x: { type: 'string' } } } },
    ]);
    expect(tools).toEqual([
      { type: 'function', function: { name: 'a', description: 'A.', parameters: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'], additionalProperties: false }, strict: true } },
      { type: 'function', function: { name: 'b', description: 'B.', parameters: { type: 'object', properties: { x: { type: 'string' } } }, strict: false } },
    ]);
    expect(notes.map((n) => `${n.tool} ${n.path || '/'} ${n.detail}`)).toEqual([
      'b / strict: false because additionalProperties is not false',
      'b / strict: false because optional properties x (strict mode needs every property required)',
    ]);
  });

  it('parses tool_calls arguments and keeps bad JSON as a parse failure', () => {
    expect(
      fromOpenAIToolCalls([
        { id: 'call_1', type: 'function', function: { name: 'list_dir', arguments: '{"dir_path":"."}' } },
        { id: 'call_2', type: 'function', function: { name: 'finish', arguments: '' } },
        { id: 'call_3', type: 'function', function: { name: 'view_file', arguments: '{"file_path": "a' } },
        { id: 'call_4', type: 'function', function: { name: 'view_file', arguments: '[1]' } },
      ]),
    ).toEqual([
      { id: 'call_1', name: 'list_dir', args: { dir_path: '.' } },
      { id: 'call_2', name: 'finish', args: {} },
      { id: 'call_3', name: 'view_file', args: {}, argumentsError: expect.stringMatching(/^arguments are not valid JSON \(/), rawArguments: '{"file_path": "a' },
      { id: 'call_4', name: 'view_file', args: {}, argumentsError: 'arguments must be a JSON object, got an array', rawArguments: '[1]' },
    ]);
    expect(fromOpenAIToolCalls(null)).toEqual([]);
  });

  it('writes tool messages and replays the model its own arguments text', () => {
    expect(toOpenAIToolMessages([
      { id: 'call_1', name: 'list_dir', result: { entries: [] } },
      { id: 'call_2', name: 'x', result: 'plain' },
      { id: 'call_3', name: 'view_file', error: 'gone', code: 'not_found' },
    ])).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '{"entries":[]}' },
      { role: 'tool', tool_call_id: 'call_2', content: 'plain' },
      { role: 'tool', tool_call_id: 'call_3', content: '{"error":"gone","code":"not_found"}' },
    ]);
    expect(toOpenAIMessages([
      { role: 'user', text: 'hi' },
      { role: 'assistant', toolCalls: [{ id: 'c', name: 'v', args: {}, argumentsError: 'bad', rawArguments: '{oops' }] },
      { role: 'tool', results: [{ id: 'c', name: 'v', error: 'bad', code: 'invalid_arguments' }] },
      { role: 'assistant', toolCalls: [] },
    ], 'sys')).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'v', arguments: '{oops' } }] },
      { role: 'tool', tool_call_id: 'c', content: '{"error":"bad","code":"invalid_arguments"}' },
      { role: 'assistant', content: '' },
    ]);
  });
});

describe('openAICompatibleModel', () => {
  it('POSTs chat completions, with a Bearer key only when given', async () => {
    const reply = {
      choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'finish', arguments: '{}' } }] }, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    };
    const keyed = captureFetch(200, reply);
    const response = await openAICompatibleModel({ apiKey: 'sk', model: 'gpt', baseUrl: 'http://127.0.0.1:9/v1/', fetch: keyed, extraBody: { temperature: 0 } })
      .generate({ messages: [{ role: 'user', text: 'go' }], tools: [] });
    expect(keyed.requests[0]?.url).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(keyed.requests[0]?.headers.authorization).toBe('Bearer sk');
    expect(keyed.requests[0]?.body).toEqual({ model: 'gpt', messages: [{ role: 'user', content: 'go' }], temperature: 0 });
    expect(response).toMatchObject({ toolCalls: [{ id: 'call_9', name: 'finish', args: {} }], finishReason: 'tool_calls', usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 } });
    expect(response.text).toBeUndefined();
    const local = captureFetch(200, reply);
    await openAICompatibleModel({ model: 'llama', baseUrl: 'http://127.0.0.1:11434/v1', fetch: local }).generate({ messages: [{ role: 'user', text: 'go' }], tools: [] });
    expect(local.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('says what the API said', async () => {
    const fetch = captureFetch(401, { error: { message: 'Incorrect API key provided: sk-bad.', type: 'invalid_request_error', code: 'invalid_api_key' } });
    await expect(openAICompatibleModel({ apiKey: 'sk-bad', model: 'gpt', fetch }).generate({ messages: [{ role: 'user', text: 'x' }], tools: [] })).rejects.toMatchObject({
      code: 'unauthorized',
      message: 'OpenAI API error 401: Incorrect API key provided: sk-bad.',
    });
    expect(fetch.requests[0]?.url).toBe('https://api.openai.com/v1/chat/completions');
  });
});
