import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../runner.js';
import { finishTool } from './finish.js';

describe('finishTool', () => {
  it('is named finish and has a closed schema with an optional result', () => {
    expect(finishTool.name).toBe('finish');
    const schema = finishTool.inputSchema as { additionalProperties?: unknown; required?: unknown };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toBeUndefined();
  });

  it("fires the runner's onFinish with the call's conversationId and result, and returns finished: true", async () => {
    const events: unknown[] = [];
    const runner = new ToolRunner({ tools: [finishTool], conversationId: 'runner-conv', onFinish: (event) => void events.push(event) });
    expect(await runner.execute('finish', { result: 'all tests pass' }, { conversationId: 'conv-42' })).toEqual({ finished: true });
    expect(events).toEqual([{ conversationId: 'conv-42', result: 'all tests pass' }]);
  });

  it("uses the runner's conversationId when the call names none, and omits an absent result", async () => {
    const events: object[] = [];
    const runner = new ToolRunner({ tools: [finishTool], conversationId: 'runner-conv', onFinish: (event) => void events.push(event) });
    const [result] = await runner.processToolCalls([{ id: 'f', name: 'finish', args: {} }]);
    expect(result).toEqual({ id: 'f', name: 'finish', result: { finished: true } });
    expect(events).toEqual([{ conversationId: 'runner-conv' }]);
    expect(Object.keys(events[0] ?? {})).toEqual(['conversationId']);
  });

  it('returns finished: true without an onFinish hook', async () => {
    const runner = new ToolRunner({ tools: [finishTool] });
    expect(await runner.execute('finish', null)).toEqual({ finished: true });
  });

  it('runs after the earlier calls of a batch have ended', async () => {
    const order: string[] = [];
    const runner = new ToolRunner({ onFinish: () => void order.push('finish') });
    await runner.register(finishTool);
    await runner.register({
      name: 'slow_read',
      description: 'reads slowly',
      parameters: { type: 'object' },
      readOnly: true,
      call: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push('slow_read');
        return null;
      },
    });
    await runner.processToolCalls([
      { name: 'slow_read', args: {} },
      { name: 'finish', args: {} },
    ]);
    expect(order).toEqual(['slow_read', 'finish']);
  });

  it('is allowed in plan mode', async () => {
    const runner = new ToolRunner({ tools: [finishTool], planMode: true });
    expect(await runner.execute('finish', {})).toEqual({ finished: true });
  });
});
