import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../runner.js';
import { startSubagentTool } from './start-subagent.js';

describe('startSubagentTool', () => {
  it('is named start_subagent, is not read-only and has a closed schema', () => {
    expect(startSubagentTool.name).toBe('start_subagent');
    expect(startSubagentTool.annotations?.readOnlyHint).toBe(false);
    expect((startSubagentTool.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false);
  });

  it('hands task, tools and the conversation id to the startSubagent hook and returns its answer', async () => {
    const requests: unknown[] = [];
    const runner = new ToolRunner({
      tools: [startSubagentTool],
      conversationId: 'conv-default',
      startSubagent: async (request) => {
        requests.push(request);
        return { summary: 'done', files: ['a.ts'] };
      },
    });
    const result = await runner.execute('start_subagent', { task: 'refactor a.ts', tools: ['view_file', 'edit_file'] }, { conversationId: 'conv-7' });
    expect(result).toEqual({ result: { summary: 'done', files: ['a.ts'] } });
    expect(requests).toEqual([{ task: 'refactor a.ts', tools: ['view_file', 'edit_file'], conversationId: 'conv-7' }]);
  });

  it('leaves tools out of the request when the model gives none and uses the runner conversation', async () => {
    const requests: object[] = [];
    const runner = new ToolRunner({
      tools: [startSubagentTool],
      conversationId: 'conv-default',
      startSubagent: async (request) => {
        requests.push(request);
        return 'ok';
      },
    });
    expect(await runner.execute('start_subagent', { task: 'look around' })).toEqual({ result: 'ok' });
    expect(requests).toHaveLength(1);
    expect(Object.keys(requests[0] ?? {}).sort()).toEqual(['conversationId', 'task']);
    expect(requests[0]).toEqual({ task: 'look around', conversationId: 'conv-default' });
  });

  it('returns a null result with a note when the host has no subagent hook', async () => {
    const runner = new ToolRunner({ tools: [startSubagentTool] });
    const [result] = await runner.processToolCalls([{ id: 's1', name: 'start_subagent', args: { task: 'x' } }]);
    expect(result).toEqual({
      id: 's1',
      name: 'start_subagent',
      result: { result: null, note: expect.stringMatching(/^no subagent host: /) },
    });
  });

  it('turns a throwing hook into execution_failed with its message', async () => {
    const runner = new ToolRunner({
      tools: [startSubagentTool],
      startSubagent: async () => {
        throw new Error('subagent pool is full');
      },
    });
    const [result] = await runner.processToolCalls([{ name: 'start_subagent', args: { task: 'x' } }]);
    expect(result).toMatchObject({ code: 'execution_failed', error: 'subagent pool is full' });
  });

  it('rejects an empty task and a tools list of non-strings with invalid_arguments', async () => {
    const runner = new ToolRunner({ tools: [startSubagentTool], startSubagent: async () => null });
    const results = await runner.processToolCalls([
      { name: 'start_subagent', args: { task: '' } },
      { name: 'start_subagent', args: { task: 'x', tools: [1] } },
      { name: 'start_subagent', args: {} },
    ]);
    expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['invalid_arguments', 'invalid_arguments', 'invalid_arguments']);
    expect(results[0]).toMatchObject({ error: expect.stringContaining('task must not be empty') });
    expect(results[1]).toMatchObject({ error: expect.stringContaining('tools[0] must be a string, not a number') });
    expect(results[2]).toMatchObject({ error: expect.stringContaining('missing required argument "task"') });
  });
});
