import { describe, expect, it, vi } from 'vitest';
import { Agent } from './agent.js';
import type { AgentEvent } from './loop.js';
import { scriptedModel } from './models/scripted.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolError } from '../core/errors.js';
import { ToolRunner, type CallOptions, type ToolCall } from '../runner.js';
import { defineTool } from '../core/tool.js';
import { BuiltinTools } from '../tools/index.js';

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const files = { 'notes.txt': 'alpha\nbeta\n' };

describe('Agent.run', () => {
  it('yields text, tool calls, results, finish and done in order', async () => {
    const model = scriptedModel([
      { text: 'Looking.', toolCalls: [{ name: 'view_file', args: { file_path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'finish', args: { result: 'two lines' } }] },
    ]);
    const agent = Agent.builder().platform(createMemoryPlatform({ files })).model(model).allowAll().build();
    const events = await collect(agent.run('How many lines?'));
    expect(events.map((e) => e.type)).toEqual(['text', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'finish', 'done']);
    expect(events[2]).toMatchObject({ result: { id: 'call_1_1', name: 'view_file', result: { content: 'alpha\nbeta' } } });
    expect(events.at(-2)).toEqual({ type: 'finish', result: 'two lines' });
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'finished', turns: 2 });
    const history = agent.history();
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', results: [{ name: 'view_file' }] });
  });

  it('ends with no_tool_calls when the model only answers, and keeps history per conversation', async () => {
    const model = scriptedModel([{ text: 'Hi!' }, { text: 'Hello again.' }, { text: 'Other chat.' }]);
    const agent = Agent.builder().model(model).system('Be brief.').build();
    expect((await collect(agent.run('hi', { conversationId: 'a' }))).at(-1)).toEqual({ type: 'done', reason: 'no_tool_calls', turns: 1 });
    await collect(agent.run('again', { conversationId: 'a' }));
    await collect(agent.run('new', { conversationId: 'b' }));
    expect(model.requests[1]?.messages).toEqual([
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: 'Hi!', toolCalls: [] },
      { role: 'user', text: 'again' },
    ]);
    expect(model.requests[1]?.system).toBe('Be brief.');
    expect(agent.history('b')).toEqual([{ role: 'user', text: 'new' }, { role: 'assistant', text: 'Other chat.', toolCalls: [] }]);
    expect(agent.clearHistory('a')).toBe(true);
    expect(agent.history('a')).toEqual([]);
  });

  it('runs all calls of one turn in one processToolCalls batch', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'list_dir', args: { dir_path: '.' } },
          { name: 'grep_search', args: { pattern: 'beta' } },
        ],
      },
      { toolCalls: [{ name: 'finish', args: {} }] },
    ]);
    const agent = Agent.builder().platform(createMemoryPlatform({ files })).model(model).build();
    const spy = vi.spyOn(agent.runner, 'processToolCalls');
    const events = await collect(agent.run('look'));
    expect(spy).toHaveBeenCalledTimes(2);
    expect(spy.mock.calls[0]?.[0].map((c) => c.name)).toEqual(['list_dir', 'grep_search']);
    expect(events.at(-2)).toEqual({ type: 'finish' });
  });

  it('runs both calls of a turn whose model repeats a call id, each result under the id the model gave', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'same', name: 'view_file', args: { file_path: 'notes.txt' } }, { id: 'same', name: 'list_dir', args: { dir_path: '.' } }] },
      { toolCalls: [{ name: 'finish', args: {} }] },
    ]);
    const agent = Agent.builder().platform(createMemoryPlatform({ files })).model(model).build();
    const events = await collect(agent.run('look'));
    const results = events.filter((e) => e.type === 'tool_result').map((e) => (e as { result: { id?: string; name: string; code?: string } }).result);
    expect(results.slice(0, 2).map((r) => [r.id, r.name, r.code])).toEqual([
      ['same', 'view_file', undefined],
      ['same', 'list_dir', undefined],
    ]);
    expect(events.at(-2)).toEqual({ type: 'finish' });
  });

  it('answers bad JSON arguments with invalid_arguments and lets the model recover', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'bad', name: 'view_file', args: '{"file_path": "notes.txt"' }] },
      (ctx) => {
        const last = ctx.messages.at(-1);
        expect(last).toMatchObject({ role: 'tool', results: [{ id: 'bad', code: 'invalid_arguments' }] });
        return { toolCalls: [{ name: 'view_file', args: '{"file_path": "notes.txt"}' }] };
      },
      { toolCalls: [{ name: 'finish', args: { result: 'ok' } }] },
    ]);
    const agent = Agent.builder().platform(createMemoryPlatform({ files })).model(model).build();
    const spy = vi.spyOn(agent.runner, 'processToolCalls');
    const events = await collect(agent.run('read it'));
    const results = events.filter((e) => e.type === 'tool_result').map((e) => (e as { result: unknown }).result);
    expect(results[0]).toEqual({
      id: 'bad',
      name: 'view_file',
      code: 'invalid_arguments',
      error: expect.stringMatching(/^arguments are not valid JSON \(.+\): "\{\\"file_path\\": \\"notes.txt\\""; call view_file again/),
    });
    expect(results[1]).toMatchObject({ result: { content: 'alpha\nbeta' } });
    // The unreadable call never reached the runner.
    expect(spy.mock.calls.map((c) => c[0].length)).toEqual([1, 1]);
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'finished', turns: 3 });
  });

  it('stops at maxTurns', async () => {
    const loop = { toolCalls: [{ name: 'list_dir', args: { dir_path: '.' } }] };
    const model = scriptedModel([loop, loop, loop, loop]);
    const agent = Agent.builder().model(model).maxTurns(10).build();
    const events = await collect(agent.run('loop', { maxTurns: 3 }));
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'max_turns', turns: 3 });
    expect(model.requests).toHaveLength(3);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(3);
  });

  it('makes no model or tool call after the signal fires', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Records its calls.',
      parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const,
      readOnly: true,
      call: async ({ n }) => {
        calls.push(`probe ${n}`);
        if (n === 1) controller.abort();
        return { n };
      },
    });
    const model = scriptedModel([
      { toolCalls: [{ name: 'probe', args: { n: 1 } }] },
      { toolCalls: [{ name: 'probe', args: { n: 2 } }] },
    ]);
    const agent = Agent.builder().tool(probe).model(model).build();
    const events = await collect(agent.run('go', { signal: controller.signal }));
    expect(calls).toEqual(['probe 1']);
    expect(model.requests).toHaveLength(1);
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'cancelled', turns: 1 });
    // The next run on the conversation is well-formed and works.
    expect(agent.history().at(-1)).toMatchObject({ role: 'tool' });
  });

  it('cancels the run when the consumer stops reading', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'list_dir', args: { dir_path: '.' } }] }, { text: 'again' }]);
    const agent = Agent.builder().model(model).build();
    for await (const event of agent.run('go')) if (event.type === 'tool_call') break;
    expect(model.requests).toHaveLength(1);
    // The conversation is free again, and its history stayed well-formed (every call has a result).
    expect(agent.history().map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect((await collect(agent.run('x'))).at(-1)).toEqual({ type: 'done', reason: 'no_tool_calls', turns: 1 });
  });

  it('yields permission_request events for the run and honours the answer', async () => {
    const asked: string[] = [];
    const model = scriptedModel([
      { toolCalls: [{ name: 'create_file', args: { file_path: 'a.txt', content: 'A' } }] },
      { toolCalls: [{ name: 'create_file', args: { file_path: 'b.txt', content: 'B' } }] },
      { text: 'done' },
    ]);
    const platform = createMemoryPlatform();
    let n = 0;
    const agent = Agent.builder()
      .platform(platform)
      .model(model)
      .onPermissionRequest(async (req) => {
        asked.push(req.tool);
        return n++ === 0 ? 'allow_once' : 'deny';
      })
      .build();
    const events = await collect(agent.run('write two files'));
    expect(events.map((e) => e.type)).toEqual([
      'tool_call', 'permission_request', 'tool_result', 'tool_call', 'permission_request', 'tool_result', 'text', 'done',
    ]);
    expect(events[1]).toMatchObject({ request: { tool: 'create_file', args: { file_path: 'a.txt', content: 'A' }, readOnly: false } });
    expect(events[5]).toMatchObject({ result: { code: 'permission_denied' } });
    expect(asked).toEqual(['create_file', 'create_file']);
  });

  it('reports a missing model, a bad maxTurns and a busy conversation as error + done', async () => {
    expect(await collect(Agent.builder().build().run('x'))).toEqual([
      { type: 'error', error: { code: 'no_model', message: expect.any(String) } },
      { type: 'done', reason: 'error', turns: 0 },
    ]);
    const model = scriptedModel([async () => new Promise((resolve) => setTimeout(() => resolve({ text: 'slow' }), 50))]);
    const agent = Agent.builder().model(model).build();
    expect((await collect(agent.run('x', { maxTurns: 0 })))[0]).toMatchObject({ error: { code: 'invalid_arguments' } });
    const first = collect(agent.run('one'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await collect(agent.run('two')))[0]).toMatchObject({ error: { code: 'busy' } });
    expect((await first).at(-1)).toMatchObject({ reason: 'no_tool_calls' });
  });

  it('reports a model failure as an error event and done reason error', async () => {
    const model = scriptedModel([]);
    const events = await collect(Agent.builder().model(model).build().run('x'));
    expect(events).toEqual([
      { type: 'error', error: { code: 'script_exhausted', message: 'scripted model has 0 turns and was asked for turn 1', provider: 'scripted' } },
      { type: 'done', reason: 'error', turns: 0 },
    ]);
  });
});

describe('start_subagent with subagents()', () => {
  it('runs a child agent with its own conversation and returns its finish result', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'start_subagent', args: { task: 'Count the lines of notes.txt', tools: ['view_file'] } }] },
      // The child's turns: same model, its own conversation.
      (ctx) => {
        expect(ctx.messages).toEqual([{ role: 'user', text: 'Count the lines of notes.txt' }]);
        expect(ctx.tools.map((t) => t.name)).toEqual(['view_file', 'finish']);
        return { toolCalls: [{ name: 'view_file', args: { file_path: 'notes.txt' } }] };
      },
      { toolCalls: [{ name: 'finish', args: { result: '2 lines' } }] },
      // Back in the parent.
      (ctx) => {
        expect(ctx.messages.at(-1)).toMatchObject({
          role: 'tool',
          results: [{ name: 'start_subagent', result: { result: { answer: '2 lines', reason: 'finished', turns: 2 } } }],
        });
        return { text: 'The file has 2 lines.' };
      },
    ]);
    const agent = Agent.builder().platform(createMemoryPlatform({ files })).model(model).allowAll().subagents().conversationId('main').build();
    const events = await collect(agent.run('How long is notes.txt? Use a subagent.'));
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'no_tool_calls', turns: 2 });
    const result = events.find((e) => e.type === 'tool_result') as { result: { result: { result: { conversationId: string } } } };
    expect(result.result.result.result.conversationId).toMatch(/^main\/subagent-[0-9a-f]{8}$/);
    expect(agent.history('main').map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('forwards permission requests of the child to the parent run, and an abort of the parent stops the child', async () => {
    const platform = createMemoryPlatform();
    const model = scriptedModel([
      { toolCalls: [{ name: 'start_subagent', args: { task: 'Write a.txt' } }] },
      { toolCalls: [{ name: 'create_file', args: { file_path: 'a.txt', content: 'A' } }] },
      { toolCalls: [{ name: 'finish', args: { result: 'wrote a.txt' } }] },
      { text: 'Done.' },
    ]);
    const agent = Agent.builder().platform(platform).model(model).subagents({ maxTurns: 5 }).onPermissionRequest(async () => 'allow_once').build();
    const events = await collect(agent.run('go'));
    const asked = events.filter((e) => e.type === 'permission_request') as { request: { tool: string; conversationId: string } }[];
    // start_subagent itself, then the child's create_file.
    expect(asked.map((e) => e.request.tool)).toEqual(['start_subagent', 'create_file']);
    expect(asked[1]?.request.conversationId).toMatch(/^default\/subagent-/);
    expect(new TextDecoder().decode(await platform.fs.readFile('/workspace/a.txt'))).toBe('A');

    const controller = new AbortController();
    const stopped = scriptedModel([
      { toolCalls: [{ name: 'start_subagent', args: { task: 'Write b.txt' } }] },
      () => {
        controller.abort();
        return { toolCalls: [{ name: 'create_file', args: { file_path: 'b.txt', content: 'B' } }] };
      },
      { text: 'never' },
    ]);
    const second = Agent.builder().platform(platform).model(stopped).allowAll().subagents().build();
    const run = await collect(second.run('go', { signal: controller.signal }));
    expect(run.at(-1)).toEqual({ type: 'done', reason: 'cancelled', turns: 1 });
    expect(stopped.requests).toHaveLength(2);
    await expect(platform.fs.stat('/workspace/b.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('answers with a note when subagents are off', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'start_subagent', args: { task: 'x' } }] }, { text: 'ok' }]);
    const events = await collect(Agent.builder().model(model).allowAll().build().run('x'));
    expect(events[1]).toMatchObject({ result: { result: { result: null, note: expect.stringContaining('no subagent host') } } });
  });

  it('refuses unknown tool names for the child', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'start_subagent', args: { task: 'x', tools: ['nope'] } }] }, { text: 'ok' }]);
    const events = await collect(Agent.builder().model(model).allowAll().subagents().build().run('x'));
    expect(events[1]).toMatchObject({ result: { code: 'invalid_arguments', error: expect.stringContaining('unknown tools for the subagent: nope') } });
  });
});

describe('Agent.builder().toolHost(): tools somewhere else (a RemoteToolRunner)', () => {
  it('declares the host’s (awaited) declarations and sends each turn’s calls to it in one batch', async () => {
    const worker = new ToolRunner({ platform: createMemoryPlatform({ files }), tools: BuiltinTools.all(), permissions: 'allow_all' });
    const batches: { names: string[]; conversationId: string | undefined; signal: boolean }[] = [];
    const host = {
      declarations: async () => worker.declarations().filter((d) => d.name !== 'run_command'),
      processToolCalls: (calls: readonly ToolCall[], options: CallOptions) => {
        batches.push({ names: calls.map((c) => c.name), conversationId: options.conversationId, signal: options.signal instanceof AbortSignal });
        return worker.processToolCalls(calls, options);
      },
    };
    const model = scriptedModel([
      { toolCalls: [{ name: 'view_file', args: { file_path: 'notes.txt' } }, { name: 'list_dir', args: { dir_path: '.' } }] },
      { toolCalls: [{ name: 'edit_file', args: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } }] },
      { text: 'Done.' },
    ]);
    // The agent's own runner would refuse edit_file (no allowAll, no onPermissionRequest): the host decides.
    const agent = Agent.builder().model(model).toolHost(host).build();
    expect(agent.toolHost).toBe(host);
    const events = await collect(agent.run('Edit it', { conversationId: 'remote-1' }));
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'no_tool_calls', turns: 3 });
    expect(batches).toEqual([
      { names: ['view_file', 'list_dir'], conversationId: 'remote-1', signal: true },
      { names: ['edit_file'], conversationId: 'remote-1', signal: true },
    ]);
    expect(model.requests[0]?.tools.map((t) => t.name)).not.toContain('run_command');
    expect(model.requests[0]?.tools.map((t) => t.name)).toContain('edit_file');
    expect(await worker.execute('view_file', { file_path: 'notes.txt' })).toMatchObject({ content: 'alpha\ngamma' });
    // Nothing ran on the agent's own runner.
    expect(await agent.execute('view_file', { file_path: 'notes.txt' }).catch((e: { code: string }) => e.code)).toBe('not_found');
  });

  it('ends the run with an error event when the host’s declarations reject (an unreachable worker)', async () => {
    const host = {
      declarations: () => Promise.reject(new ToolError('unavailable', 'the worker is gone')),
      processToolCalls: () => Promise.resolve([]),
    };
    const events = await collect(Agent.builder().model(scriptedModel([{ text: 'x' }])).toolHost(host).build().run('x'));
    expect(events).toEqual([
      { type: 'error', error: { code: 'unavailable', message: 'the worker is gone' } },
      { type: 'done', reason: 'error', turns: 0 },
    ]);
  });
});
