import { describe, expect, it } from 'vitest';
import { scriptedModel } from './scripted.js';

describe('scriptedModel', () => {
  it('plays turns in order, records requests and parses string arguments', async () => {
    const model = scriptedModel([
      { text: 'one', toolCalls: [{ name: 'a', args: { x: 1 } }, { id: 'mine', name: 'b', args: '{"y":2}' }] },
      ({ turn, messages }) => ({ text: `turn ${turn} saw ${messages.length} messages`, toolCalls: [{ name: 'c', args: '{bad' }] }),
    ]);
    const first = await model.generate({ messages: [{ role: 'user', text: 'hi' }], tools: [], system: 's' });
    expect(first).toEqual({ text: 'one', toolCalls: [{ id: 'call_1_1', name: 'a', args: { x: 1 } }, { id: 'mine', name: 'b', args: { y: 2 } }] });
    const second = await model.generate({ messages: [{ role: 'user', text: 'hi' }, { role: 'assistant', toolCalls: [] }], tools: [] });
    expect(second.text).toBe('turn 1 saw 2 messages');
    expect(second.toolCalls[0]).toMatchObject({ id: 'call_2_1', argumentsError: expect.stringContaining('not valid JSON'), rawArguments: '{bad' });
    expect(model.requests.map((r) => r.messages.length)).toEqual([1, 2]);
    expect(model.requests[0]?.system).toBe('s');
  });

  it('rejects when the script runs out or the signal has fired', async () => {
    const model = scriptedModel([{ text: 'only' }]);
    await expect(model.generate({ messages: [], tools: [], signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'cancelled' });
    await model.generate({ messages: [], tools: [] });
    await expect(model.generate({ messages: [], tools: [] })).rejects.toMatchObject({
      code: 'script_exhausted',
      message: 'scripted model has 1 turns and was asked for turn 2',
    });
  });
});
