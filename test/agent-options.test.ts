import { describe, expect, it } from 'vitest';
import { createMemoryPlatform, defineTool, type PermissionRequest } from '../src/index.js';
import { Agent, scriptedModel, type AgentOptions } from '../src/agent/index.js';

const counter = defineTool({
  name: 'counter',
  description: 'Counts',
  inputSchema: { type: 'object' },
  execute: async (_input, ctx) => {
    const count = (ctx.getState<number>('count') ?? 0) + 1;
    ctx.setState('count', count);
    return { count };
  },
});

/** What an agent is made of, as far as its runner and model show it. */
async function shape(agent: Agent): Promise<unknown> {
  return {
    tools: agent.runner.declarations().map((d) => d.name),
    planMode: agent.runner.planMode,
    conversationId: agent.runner.conversationId,
    defaultTimeoutMs: agent.runner.defaultTimeoutMs,
    toolProfile: agent.toolProfile,
    model: agent.model?.provider,
    counter: await agent.processToolCalls([{ name: 'counter', args: {} }]),
  };
}

describe('Agent.create(options) and Agent.builder()', () => {
  it('the builder is a thin layer over the options object: the same fields make the same agent', async () => {
    const asked: string[] = [];
    const ask = async (request: PermissionRequest): Promise<'allow_once'> => {
      asked.push(request.tool);
      return 'allow_once';
    };
    const model = scriptedModel([{ text: 'done' }]);
    const options: AgentOptions = {
      model,
      tools: [counter],
      toolProfile: 'toolhost',
      onPermissionRequest: ask,
      platform: createMemoryPlatform(),
      conversationId: 'chat-1',
      defaultTimeoutMs: 5000,
      subagents: true,
    };
    const created = Agent.create(options);
    const built = Agent.builder()
      .model(model)
      .tool(counter)
      .toolProfile('toolhost')
      .onPermissionRequest(ask)
      .platform(createMemoryPlatform())
      .conversationId('chat-1')
      .defaultTimeoutMs(5000)
      .subagents()
      .build();
    const expected = {
      tools: expect.arrayContaining(['view_file', 'start_subagent', 'counter']),
      planMode: false,
      conversationId: 'chat-1',
      defaultTimeoutMs: 5000,
      toolProfile: 'toolhost',
      model: 'scripted',
      counter: [{ name: 'counter', result: { count: 1 } }],
    };
    expect(await shape(created)).toEqual(expected);
    expect(await shape(built)).toEqual(expected);
    expect(asked).toEqual(['counter', 'counter']);
  });

  it('takes the read-only profile, plan mode and allowAll from the options as the builder does', async () => {
    const created = Agent.create({ readOnly: true, allowAll: true });
    expect(created.runner.declarations().map((d) => d.name)).toEqual(['find_file', 'list_dir', 'search_dir', 'view_file', 'grep_search']);
    const plan = Agent.create({ tools: [counter], allowAll: true, planMode: true });
    await expect(plan.execute('counter', {})).rejects.toMatchObject({ code: 'permission_denied', message: expect.stringContaining('plan mode is on') });
    const open = Agent.create({ tools: [counter], allowAll: true });
    expect(await open.execute('counter', {})).toEqual({ count: 1 });
    // Without allowAll and without onPermissionRequest, a call that is not read-only is denied.
    await expect(Agent.create({ tools: [counter] }).execute('counter', {})).rejects.toMatchObject({ code: 'permission_denied' });
  });

  it('keeps the options object it was given unchanged', () => {
    const options: AgentOptions = { tools: [counter], subagents: { maxTurns: 3 } };
    const before = JSON.stringify(options);
    Agent.create(options);
    Agent.create(options);
    expect(JSON.stringify(options)).toBe(before);
    expect(options.tools).toHaveLength(1);
  });
});
