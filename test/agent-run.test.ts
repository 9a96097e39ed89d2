import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform, toolProfiles } from '../src/index.js';
import { Agent, anthropicModel, geminiModel, openAICompatibleModel, type AgentEvent, type Model } from '../src/agent/index.js';
import type { RetryOptions } from '../src/agent/models/types.js';
import { anthropicFormat } from './fixtures/model-servers/anthropic.js';
import { geminiFormat } from './fixtures/model-servers/gemini.js';
import { openAIFormat } from './fixtures/model-servers/openai.js';
import { startScriptedApi, type ScriptStep, type ScriptTurn, type ScriptedApi, type WireFormat } from './fixtures/model-servers/scripted-api.js';

const KEY = 'test-key-123';
const FAST: RetryOptions = { baseDelayMs: 1, maxDelayMs: 5 };

interface Provider {
  name: string;
  format: WireFormat;
  modelName: string;
  label: string;
  create(url: string, retry?: RetryOptions): Model;
}

const providers: Provider[] = [
  {
    name: 'Gemini generateContent',
    format: geminiFormat,
    modelName: 'gemini-test',
    label: 'Gemini',
    create: (url, retry = FAST) => geminiModel({ apiKey: KEY, model: 'gemini-test', baseUrl: url, retry }),
  },
  {
    name: 'OpenAI-compatible chat completions',
    format: openAIFormat,
    modelName: 'gpt-test',
    label: 'OpenAI',
    create: (url, retry = FAST) => openAICompatibleModel({ apiKey: KEY, model: 'gpt-test', baseUrl: `${url}/v1/`, retry }),
  },
  {
    name: 'Anthropic Messages',
    format: anthropicFormat,
    modelName: 'claude-test',
    label: 'Anthropic',
    create: (url, retry = FAST) => anthropicModel({ apiKey: KEY, model: 'claude-test', baseUrl: url, maxTokens: 1024, retry }),
  },
];

const FILES = {
  'src/greet.ts': "export function greet(name: string): string {\n  return 'Hello, ' + name;\n}\n",
  'src/main.ts': "import { greet } from './greet.js';\n\nconsole.log(greet('world'));\n",
  'README.md': '# demo\n',
};

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const servers: ScriptedApi[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(provider: Provider, steps: ScriptStep[]): Promise<ScriptedApi> {
  const server = await startScriptedApi(provider.format, steps, { model: provider.modelName, apiKey: KEY });
  servers.push(server);
  return server;
}

describe.each(providers)('agent.run against a local $name server', (provider) => {
  it('lists, greps, views two files in parallel, edits one and finishes', async () => {
    const callIds: string[][] = [];
    const steps: ScriptStep[] = [
      (turn) => {
        expect(provider.format.toolNames(turn.body)).toEqual(toolProfiles.toolhost().map((t) => t.name));
        expect(provider.format.system(turn.body)).toBe('You are a careful coding agent.');
        expect(turn.results).toEqual([]);
        return { text: 'Let me look around.', calls: [{ name: 'list_dir', args: { dir_path: '.' } }] };
      },
      (turn) => {
        expect(turn.results).toHaveLength(1);
        expect(turn.results[0]?.payload).toMatchObject({ dir_path: '/workspace', entries: [{ name: 'README.md' }, { name: 'src', type: 'directory' }] });
        return { calls: [{ name: 'grep_search', args: { pattern: 'greet\\(', dir_path: 'src', output_mode: 'files_with_matches' } }] };
      },
      (turn) => {
        expect(turn.results[0]?.payload).toMatchObject({ files: ['/workspace/src/greet.ts', '/workspace/src/main.ts'] });
        return {
          text: 'Reading both files.',
          calls: [
            { name: 'view_file', args: { file_path: 'src/greet.ts' } },
            { name: 'view_file', args: { file_path: 'src/main.ts' } },
          ],
        };
      },
      (turn) => {
        // Both results of the parallel turn come back together, in call order, in this one request.
        expect(turn.results.map((r) => (r.payload as { file_path: string }).file_path)).toEqual(['/workspace/src/greet.ts', '/workspace/src/main.ts']);
        expect(turn.results.every((r) => !r.isError)).toBe(true);
        callIds.push(turn.results.map((r) => r.id ?? '(no id)'));
        expect((turn.results[0]?.payload as { content: string }).content).toContain("return 'Hello, ' + name;");
        return { calls: [{ name: 'edit_file', args: { file_path: 'src/greet.ts', old_string: "'Hello, ' + name", new_string: '`Hello, ${name}!`' } }] };
      },
      (turn) => {
        expect(turn.results[0]?.payload).toMatchObject({ file_path: '/workspace/src/greet.ts', replacements: 1 });
        return { calls: [{ name: 'finish', args: { result: 'greet() now says Hello, <name>!' } }] };
      },
    ];
    const server = await serve(provider, steps);
    const platform = createMemoryPlatform({ files: FILES });
    const agent = Agent.builder().toolProfile('toolhost').platform(platform).model(provider.create(server.url)).system('You are a careful coding agent.').allowAll().build();
    const batches = vi.spyOn(agent.runner, 'processToolCalls');

    const events = await collect(agent.run('Make greet() add an exclamation mark.', { conversationId: 'task-1' }));

    expect(server.problems).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'finished', turns: 5 });
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text)).toEqual(['Let me look around.', 'Reading both files.']);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => (e as { call: { name: string } }).call.name)).toEqual([
      'list_dir', 'grep_search', 'view_file', 'view_file', 'edit_file', 'finish',
    ]);
    expect(events.at(-2)).toEqual({ type: 'finish', result: 'greet() now says Hello, <name>!' });
    // One processToolCalls batch per model turn: the two parallel view_file calls went in one.
    expect(batches.mock.calls.map(([calls]) => calls.map((c) => c.name))).toEqual([
      ['list_dir'], ['grep_search'], ['view_file', 'view_file'], ['edit_file'], ['finish'],
    ]);
    expect(new TextDecoder().decode(await platform.fs.readFile('/workspace/src/greet.ts'))).toBe(
      'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
    );
    expect(server.requests).toHaveLength(5);
    if (provider.format !== geminiFormat) expect(callIds[0]?.every((id) => id !== '(no id)')).toBe(true);
    const history = agent.history('task-1');
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
  });

  it('retries a 429 after the Retry-After it names, then succeeds', async () => {
    const server = await serve(provider, [
      { status: 429, headers: { 'retry-after': '1' }, body: provider.format.error(429, 'Rate limit reached') },
      { text: 'Hello.' },
    ]);
    const agent = Agent.builder().toolProfile('toolhost').model(provider.create(server.url, { baseDelayMs: 1, maxDelayMs: 2 })).build();
    const started = Date.now();
    const events = await collect(agent.run('hi'));
    const waited = Date.now() - started;
    expect(events).toEqual([{ type: 'text', text: 'Hello.' }, { type: 'done', reason: 'no_tool_calls', turns: 1 }]);
    expect(server.requests).toHaveLength(2);
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(server.problems).toEqual([]);
  });

  it('gives up with a clear error after three 500s', async () => {
    const server = await serve(provider, [
      { status: 500, body: provider.format.error(500, 'Internal error encountered.') },
      { status: 500, body: provider.format.error(500, 'Internal error encountered.') },
      { status: 500, body: provider.format.error(500, 'Internal error encountered.') },
      { text: 'too late' },
    ]);
    const agent = Agent.builder().toolProfile('toolhost').model(provider.create(server.url, { ...FAST, maxRetries: 2 })).build();
    const events = await collect(agent.run('hi'));
    expect(events).toEqual([
      {
        type: 'error',
        error: {
          code: 'server_error',
          status: 500,
          provider: provider.format === geminiFormat ? 'gemini' : provider.format === openAIFormat ? 'openai' : 'anthropic',
          message: `${provider.label} API error 500: Internal error encountered. (after 2 retries)`,
        },
      },
      { type: 'done', reason: 'error', turns: 0 },
    ]);
    expect(server.requests).toHaveLength(3);
  });

  it('sends malformed arguments back as invalid_arguments and the model recovers', async () => {
    const server = await serve(provider, [
      { calls: [{ name: 'view_file', rawArguments: provider.format === openAIFormat ? '{"file_path": "README.md"' : '"README.md"' }] },
      (turn: ScriptTurn) => {
        expect(turn.results).toHaveLength(1);
        expect(turn.results[0]?.isError).toBe(true);
        expect(turn.results[0]?.payload).toMatchObject({ code: 'invalid_arguments', error: expect.stringContaining('call view_file again') });
        return { calls: [{ name: 'view_file', args: { file_path: 'README.md' } }] };
      },
      (turn: ScriptTurn) => {
        expect(turn.results[0]?.payload).toMatchObject({ content: '# demo' });
        return { calls: [{ name: 'finish', args: { result: 'read it' } }] };
      },
    ]);
    const agent = Agent.builder().toolProfile('toolhost').platform(createMemoryPlatform({ files: FILES })).model(provider.create(server.url)).build();
    const batches = vi.spyOn(agent.runner, 'processToolCalls');
    const events = await collect(agent.run('Read the README.'));
    expect(server.problems).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'finished', turns: 3 });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ result: { name: 'view_file', code: 'invalid_arguments' } });
    // The malformed call never reached the runner.
    expect(batches.mock.calls.map(([calls]) => calls.map((c) => c.name))).toEqual([['view_file'], ['finish']]);
  });

  it('stops on abort mid-run: no further request reaches the server, no further tool runs', async () => {
    const server = await serve(provider, [
      { calls: [{ name: 'list_dir', args: { dir_path: '.' } }] },
      { status: 200, hang: true },
      { calls: [{ name: 'create_file', args: { file_path: 'late.txt', content: 'x' } }] },
    ]);
    const platform = createMemoryPlatform({ files: FILES });
    const agent = Agent.builder().toolProfile('toolhost').platform(platform).model(provider.create(server.url)).allowAll().build();
    const batches = vi.spyOn(agent.runner, 'processToolCalls');
    const controller = new AbortController();
    const run = collect(agent.run('Look around.', { signal: controller.signal }));
    await server.waitForRequests(2);
    controller.abort();
    const events = await run;
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'cancelled', turns: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requests).toHaveLength(2);
    expect(batches).toHaveBeenCalledTimes(1);
    await expect(platform.fs.stat('/workspace/late.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('stops at maxTurns', async () => {
    const again = { calls: [{ name: 'list_dir', args: { dir_path: '.' } }] };
    const server = await serve(provider, [again, again, again]);
    const agent = Agent.builder().toolProfile('toolhost').model(provider.create(server.url)).build();
    const events = await collect(agent.run('Loop.', { maxTurns: 2 }));
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'max_turns', turns: 2 });
    expect(server.requests).toHaveLength(2);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(2);
    expect(server.problems).toEqual([]);
  });

  it('continues a conversation across runs with a well-formed history', async () => {
    const server = await serve(provider, [
      { calls: [{ name: 'list_dir', args: { dir_path: '.' } }, { name: 'view_file', args: { file_path: 'README.md' } }] },
      { text: 'There is a README and a src directory.' },
      (turn) => {
        expect(turn.results).toEqual([]);
        return { text: 'You asked about the files.' };
      },
    ]);
    const agent = Agent.builder().toolProfile('toolhost').platform(createMemoryPlatform({ files: FILES })).model(provider.create(server.url)).build();
    await collect(agent.run('What is here?', { conversationId: 'c' }));
    const second = await collect(agent.run('What did I ask?', { conversationId: 'c' }));
    expect(second).toEqual([{ type: 'text', text: 'You asked about the files.' }, { type: 'done', reason: 'no_tool_calls', turns: 1 }]);
    expect(server.problems).toEqual([]);
  });
});

describe.each(providers)('the local $name server', (provider) => {
  it('refuses a wrong key and a history with an unanswered tool call, as the API does', async () => {
    const server = await serve(provider, [{ text: 'unused' }]);
    const wrongKey =
      provider.format === geminiFormat
        ? geminiModel({ apiKey: 'nope', model: provider.modelName, baseUrl: server.url, retry: FAST })
        : provider.format === openAIFormat
          ? openAICompatibleModel({ apiKey: 'nope', model: provider.modelName, baseUrl: `${server.url}/v1`, retry: FAST })
          : anthropicModel({ apiKey: 'nope', model: provider.modelName, baseUrl: server.url, retry: FAST });
    await expect(wrongKey.generate({ messages: [{ role: 'user', text: 'hi' }], tools: [] })).rejects.toMatchObject({ code: 'bad_request', status: 400 });
    const model = provider.create(server.url);
    const dangling = model.generate({
      messages: [
        { role: 'user', text: 'hi' },
        { role: 'assistant', toolCalls: [{ id: 'call_1', name: 'list_dir', args: { dir_path: '.' } }] },
        { role: 'user', text: 'never answered' },
      ],
      tools: [],
    });
    await expect(dangling).rejects.toMatchObject({ code: 'bad_request', status: 400 });
    expect(server.problems).toHaveLength(2);
    expect(server.problems[0]).toMatch(/request 1: (x-goog-api-key|authorization|x-api-key)/);
    expect(server.problems[1]).toMatch(/request 2: /);
  });
});
