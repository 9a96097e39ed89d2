import { describe, expect, it } from 'vitest';
import { fromGeminiFunctionCalls, geminiModel, toGeminiContents, toGeminiFunctionResponses } from './gemini.js';
import { captureFetch } from '../../../test/support/capture-fetch.js';

describe('Gemini converters', () => {
  it('reads functionCall parts: ids kept or generated, non-object args are a parse failure', () => {
    const calls = fromGeminiFunctionCalls([
      { text: 'thinking aloud' },
      { functionCall: { id: 'fc-1', name: 'list_dir', args: { dir_path: '.' } } },
      { functionCall: { name: 'finish' } },
      { functionCall: { name: 'view_file', args: 'README.md' as unknown as Record<string, unknown> } },
    ]);
    expect(calls[0]).toEqual({ id: 'fc-1', name: 'list_dir', args: { dir_path: '.' } });
    expect(calls[1]).toEqual({ id: expect.stringMatching(/^gemini_[0-9a-f]{24}$/), generatedId: true, name: 'finish', args: {} });
    expect(calls[2]).toMatchObject({ name: 'view_file', args: {}, argumentsError: 'args must be a JSON object', rawArguments: '"README.md"' });
  });

  it('writes functionResponse parts with { result } or { error, code }, ids only where Gemini gave them', () => {
    expect(
      toGeminiFunctionResponses(
        [
          { id: 'fc-1', name: 'list_dir', result: { entries: [] } },
          { id: 'gemini_x', name: 'view_file', error: 'no such file', code: 'not_found' },
        ],
        new Set(['gemini_x']),
      ),
    ).toEqual([
      { functionResponse: { id: 'fc-1', name: 'list_dir', response: { result: { entries: [] } } } },
      { functionResponse: { name: 'view_file', response: { error: 'no such file', code: 'not_found' } } },
    ]);
  });

  it('builds contents: replays Gemini parts (thought signatures kept), merges same-role turns', () => {
    const contents = toGeminiContents([
      { role: 'user', text: 'hi' },
      {
        role: 'assistant',
        toolCalls: [{ id: 'gemini_a', generatedId: true, name: 'list_dir', args: { dir_path: '.' } }],
        replay: { provider: 'gemini', content: [{ functionCall: { name: 'list_dir', args: { dir_path: '.' } }, thoughtSignature: 'sig' }] },
      },
      { role: 'tool', results: [{ id: 'gemini_a', name: 'list_dir', result: { n: 1 } }] },
      { role: 'user', text: 'and now?' },
      { role: 'assistant', text: 'Done.', toolCalls: [] },
      { role: 'assistant', toolCalls: [{ id: 'x', name: 'view_file', args: {}, argumentsError: 'bad' }], replay: { provider: 'gemini', content: [{ functionCall: { name: 'view_file', args: 'oops' } }] } },
    ]);
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ functionCall: { name: 'list_dir', args: { dir_path: '.' } }, thoughtSignature: 'sig' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'list_dir', response: { result: { n: 1 } } } }, { text: 'and now?' }] },
      { role: 'model', parts: [{ text: 'Done.' }, { functionCall: { name: 'view_file', args: {} } }] },
    ]);
  });
});

describe('geminiModel', () => {
  it('POSTs generateContent with the key header, system instruction and function declarations', async () => {
    const fetch = captureFetch(200, {
      candidates: [{ content: { role: 'model', parts: [{ text: 'plan', thought: true }, { text: 'Hi' }, { text: ' there' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 },
    });
    const model = geminiModel({ apiKey: 'k', model: 'gemini-2.5-flash', baseUrl: 'http://127.0.0.1:9/', fetch });
    const response = await model.generate({
      system: 'Be brief.',
      messages: [{ role: 'user', text: 'hello' }],
      tools: [{ name: 'ping', description: 'Ping.', parameters: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false } }],
    });
    expect(fetch.requests[0]?.url).toBe('http://127.0.0.1:9/v1beta/models/gemini-2.5-flash:generateContent');
    expect(fetch.requests[0]?.headers['x-goog-api-key']).toBe('k');
    expect(fetch.requests[0]?.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hello' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [{ functionDeclarations: [{ name: 'ping', description: 'Ping.', parameters: { type: 'object', properties: { n: { type: 'integer' } } } }] }],
    });
    expect(response).toMatchObject({ text: 'Hi there', toolCalls: [], finishReason: 'STOP', usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 } });
  });

  it('says what the API said on a 400, without retrying', async () => {
    const fetch = captureFetch(400, { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } });
    const model = geminiModel({ apiKey: 'bad', model: 'm', fetch });
    await expect(model.generate({ messages: [{ role: 'user', text: 'x' }], tools: [] })).rejects.toMatchObject({
      code: 'bad_request',
      status: 400,
      provider: 'gemini',
      message: 'Gemini API error 400: API key not valid. Please pass a valid API key.',
    });
    expect(fetch.requests).toHaveLength(1);
    expect(fetch.requests[0]?.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/m:generateContent');
  });

  it('reports a blocked prompt as invalid_response', async () => {
    const model = geminiModel({ apiKey: 'k', model: 'm', fetch: captureFetch(200, { promptFeedback: { blockReason: 'SAFETY' } }) });
    await expect(model.generate({ messages: [{ role: 'user', text: 'x' }], tools: [] })).rejects.toMatchObject({
      code: 'invalid_response',
      message: 'Gemini API returned no candidates (prompt blocked: SAFETY)',
    });
  });
});
