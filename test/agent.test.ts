import { describe, expect, it } from 'vitest';
import { BuiltinTools, createMemoryPlatform, defineTool, toolProfiles, type PermissionRequest } from '../src/index.js';
import { Agent } from '../src/agent/index.js';

const weather = defineTool({
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const,
  readOnly: true,
  call: async ({ city }) => ({ temperature: 22, condition: 'sunny', city }),
});
const counter = defineTool({
  name: 'counter',
  description: 'Increment and return a counter',
  parameters: { type: 'object' },
  callWithContext: async (_args, ctx) => {
    const count = (ctx.getState<number>('count') ?? 0) + 1;
    ctx.setState('count', count);
    return { count };
  },
});

describe('Agent.builder', () => {
  it('registers the built-ins and the given tools, allowAll runs everything', async () => {
    const agent = Agent.builder().tool(weather).tools([counter]).allowAll().build();
    const names = agent.runner.declarations().map((d) => d.name);
    expect(names).toEqual([...toolProfiles.toolhost().map((t) => t.name), 'get_weather', 'counter']);
    expect(agent.toolProfile).toBe('toolhost');
    expect(await agent.processToolCalls([
      { id: 'a', name: 'get_weather', args: { city: 'Tokyo' } },
      { id: 'b', name: 'counter', args: {} },
      { id: 'c', name: 'create_file', args: { file_path: 'x.txt', content: 'x' } },
    ])).toEqual([
      { id: 'a', name: 'get_weather', result: { temperature: 22, condition: 'sunny', city: 'Tokyo' } },
      { id: 'b', name: 'counter', result: { count: 1 } },
      { id: 'c', name: 'create_file', result: { file_path: '/workspace/x.txt', bytes_written: 1, created: true } },
    ]);
  });

  it('without allowAll runs read-only tools and denies the rest when no one can be asked', async () => {
    const agent = Agent.builder().tool(weather).tool(counter).build();
    const [read, write] = await agent.processToolCalls([
      { name: 'get_weather', args: { city: 'Oslo' } },
      { name: 'counter', args: {} },
    ]);
    expect(read).toMatchObject({ result: { city: 'Oslo' } });
    expect(write).toEqual({ name: 'counter', code: 'permission_denied', error: 'counter needs permission and no one can grant it: the permission rules neither allow it nor give an ask handler' });
    expect(agent.runner.denialTracker.count('counter')).toBe(1);
  });

  it('asks onPermissionRequest and honours allow_once, allow_session and deny', async () => {
    const asked: string[] = [];
    const answers = ['allow_once', 'deny', 'allow_session'] as const;
    let i = 0;
    const agent = Agent.builder()
      .tool(counter)
      .onPermissionRequest(async (req: PermissionRequest) => {
        asked.push(req.tool);
        return answers[i++] ?? 'deny';
      })
      .build();
    const codes: unknown[] = [];
    for (let k = 0; k < 4; k += 1) {
      const [r] = await agent.processToolCalls([{ name: 'counter', args: {} }]);
      codes.push('result' in (r as object) ? (r as { result: unknown }).result : (r as { code: string }).code);
    }
    expect(codes).toEqual([{ count: 1 }, 'permission_denied', { count: 2 }, { count: 3 }]);
    expect(asked).toEqual(['counter', 'counter', 'counter']);
    // Read-only built-ins never ask.
    await agent.execute('list_dir', { dir_path: '.' });
    expect(asked).toHaveLength(3);
  });

  it('readOnly registers only the read-only built-ins; planMode refuses writers', async () => {
    const ro = Agent.builder().readOnly().allowAll().build();
    expect(ro.runner.declarations().map((d) => d.name)).toEqual(['find_file', 'list_dir', 'search_dir', 'view_file', 'grep_search']);
    const plan = Agent.builder().tool(counter).allowAll().planMode().build();
    expect(plan.runner.planMode).toBe(true);
    await expect(plan.execute('counter', {})).rejects.toMatchObject({ code: 'permission_denied', message: expect.stringContaining('plan mode is on') });
    expect(await plan.execute('list_dir', { dir_path: '/workspace' })).toEqual({ dir_path: '/workspace', entries: [], truncated: false });
  });

  it('uses the given platform and conversation', async () => {
    const platform = createMemoryPlatform({ files: { 'a.txt': 'hello' } });
    const agent = Agent.builder().platform(platform).conversationId('chat-9').tool(counter).allowAll().build();
    await agent.execute('counter', {});
    expect(await platform.state.getAll('chat-9')).toEqual({ count: 1 });
    expect(await agent.execute('view_file', { file_path: 'a.txt' })).toMatchObject({ content: 'hello' });
  });
});
