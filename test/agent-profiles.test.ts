import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../src/index.js';
import { Agent, anthropicModel, geminiModel, openAICompatibleModel, scriptedModel, type AgentEvent } from '../src/agent/index.js';
import { anthropicFormat } from './fixtures/model-servers/anthropic.js';
import { geminiFormat } from './fixtures/model-servers/gemini.js';
import { openAIFormat } from './fixtures/model-servers/openai.js';
import { startScriptedApi, type ScriptStep, type ScriptedApi, type WireFormat } from './fixtures/model-servers/scripted-api.js';

const KEY = 'test-key-123';
const FAST = { baseDelayMs: 1, maxDelayMs: 5 };
const GREET = "export function greet(name: string): string {\n  return 'Hello, ' + name;\n}\n";
const DONE = 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n';

const servers: ScriptedApi[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(format: WireFormat, model: string, steps: ScriptStep[]): Promise<ScriptedApi> {
  const server = await startScriptedApi(format, steps, { model, apiKey: KEY });
  servers.push(server);
  return server;
}

async function run(agent: Agent, prompt: string): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of agent.run(prompt)) out.push(event);
  return out;
}

const read = async (platform: ReturnType<typeof createMemoryPlatform>): Promise<string> => new TextDecoder().decode(await platform.fs.readFile('/workspace/src/greet.ts'));

describe('agent.run uses each provider\'s native tool profile', () => {
  it('Anthropic: the text editor and bash declared as built-in tool types, then view and str_replace', async () => {
    const server = await serve(anthropicFormat, 'claude-test', [
      (turn) => {
        expect(turn.body.tools).toEqual([
          { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 100_000 },
          { type: 'bash_20250124', name: 'bash' },
          expect.objectContaining({ name: 'finish' }),
        ]);
        return { calls: [{ name: 'str_replace_based_edit_tool', args: { command: 'view', path: 'src/greet.ts' } }] };
      },
      (turn) => {
        expect(turn.results[0]?.payload).toBe("1: export function greet(name: string): string {\n2:   return 'Hello, ' + name;\n3: }");
        return { calls: [{ name: 'str_replace_based_edit_tool', args: { command: 'str_replace', path: 'src/greet.ts', old_str: "'Hello, ' + name", new_str: '`Hello, ${name}!`' } }] };
      },
      (turn) => {
        expect(turn.results[0]?.payload).toBe('Successfully replaced text at exactly one location.');
        return { calls: [{ name: 'finish', args: { result: 'done' } }] };
      },
    ]);
    const platform = createMemoryPlatform({ files: { 'src/greet.ts': GREET } });
    const agent = Agent.builder().platform(platform).model(anthropicModel({ apiKey: KEY, model: 'claude-test', baseUrl: server.url, retry: FAST })).allowAll().build();
    expect(agent.toolProfile).toBe('anthropic');
    const events = await run(agent, 'Add an exclamation mark.');
    expect(server.problems).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'finished', turns: 3 });
    expect(await read(platform)).toBe(DONE);
  });

  it('OpenAI: apply_patch declared as a function with one input string, and a V4A patch applied', async () => {
    const server = await serve(openAIFormat, 'gpt-test', [
      (turn) => {
        const tools = turn.body.tools as Array<{ function: { name: string; parameters: unknown } }>;
        expect(tools.map((t) => t.function.name)).toEqual(['apply_patch', 'shell', 'finish']);
        expect(tools[0]?.function.parameters).toEqual({
          type: 'object',
          properties: { input: { type: 'string', description: 'The entire contents of the apply_patch command: "*** Begin Patch" ... "*** End Patch".' } },
          required: ['input'],
          additionalProperties: false,
        });
        const input = "*** Begin Patch\n*** Update File: src/greet.ts\n@@ export function greet(name: string): string {\n-  return 'Hello, ' + name;\n+  return `Hello, ${name}!`;\n }\n*** End Patch";
        return { calls: [{ name: 'apply_patch', args: { input } }] };
      },
      (turn) => {
        expect(turn.results[0]?.payload).toEqual({
          output: 'Success. Updated the following files:\nM /workspace/src/greet.ts\n',
          changes: [{ action: 'M', path: '/workspace/src/greet.ts' }],
        });
        return { calls: [{ name: 'finish', args: { result: 'done' } }] };
      },
    ]);
    const platform = createMemoryPlatform({ files: { 'src/greet.ts': GREET } });
    const model = openAICompatibleModel({ apiKey: KEY, model: 'gpt-test', baseUrl: `${server.url}/v1`, retry: FAST, toolProfile: 'openai' });
    const agent = Agent.builder().platform(platform).model(model).allowAll().build();
    expect(agent.toolProfile).toBe('openai');
    const events = await run(agent, 'Add an exclamation mark.');
    expect(server.problems).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'finished', turns: 2 });
    expect(await read(platform)).toBe(DONE);
  });

  it('Gemini: Gemini CLI\'s read_file and replace', async () => {
    const server = await serve(geminiFormat, 'gemini-test', [
      (turn) => {
        expect(geminiFormat.toolNames(turn.body)).toEqual([
          'read_file', 'read_many_files', 'write_file', 'replace', 'glob', 'list_directory', 'grep_search', 'run_shell_command', 'google_web_search', 'web_fetch', 'search_file_content', 'finish',
        ]);
        return { calls: [{ name: 'read_file', args: { file_path: 'src/greet.ts' } }] };
      },
      (turn) => {
        expect(turn.results[0]?.payload).toMatchObject({ content: "export function greet(name: string): string {\n  return 'Hello, ' + name;\n}" });
        return { calls: [{ name: 'replace', args: { file_path: 'src/greet.ts', instruction: 'Add an exclamation mark', old_string: "'Hello, ' + name", new_string: '`Hello, ${name}!`' } }] };
      },
      (turn) => {
        expect(turn.results[0]?.payload).toMatchObject({ replacements: 1 });
        return { calls: [{ name: 'finish', args: { result: 'done' } }] };
      },
    ]);
    const platform = createMemoryPlatform({ files: { 'src/greet.ts': GREET } });
    const agent = Agent.builder().platform(platform).model(geminiModel({ apiKey: KEY, model: 'gemini-test', baseUrl: server.url, retry: FAST })).allowAll().build();
    expect(agent.toolProfile).toBe('gemini');
    const events = await run(agent, 'Add an exclamation mark.');
    expect(server.problems).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'finished', turns: 3 });
    expect(await read(platform)).toBe(DONE);
  });

  it('picks toolhost for a local OpenAI-compatible server and a scripted model, and lets the builder override', () => {
    const local = openAICompatibleModel({ model: 'qwen', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(Agent.builder().model(local).build().toolProfile).toBe('toolhost');
    expect(Agent.builder().model(openAICompatibleModel({ model: 'gpt-5', apiKey: 'k' })).build().toolProfile).toBe('openai');
    expect(Agent.builder().model(scriptedModel([])).build().toolProfile).toBe('toolhost');
    const overridden = Agent.builder().model(anthropicModel({ apiKey: KEY, model: 'c' })).toolProfile('gemini').build();
    expect(overridden.toolProfile).toBe('gemini');
    expect(overridden.runner.declarations().map((d) => d.name)).toContain('read_file');
    const readOnly = Agent.builder().toolProfile('gemini').readOnly().build();
    expect(readOnly.runner.declarations().map((d) => d.name)).toEqual(['read_file', 'read_many_files', 'glob', 'list_directory', 'grep_search', 'google_web_search', 'web_fetch', 'search_file_content', 'finish']);
  });
});
