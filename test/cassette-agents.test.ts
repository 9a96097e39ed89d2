import { generateText, isStepCount } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../bridges/ai-sdk/index.js';
import { Agent, scriptedModel, type AgentEvent } from '../src/agent/index.js';
import { BuiltinTools, ToolRunner, createMemoryPlatform, type Cassette } from '../src/index.js';

// A conversation recorded as a cassette while a model drives it, then replayed on a fresh runner.

const FILES = { 'notes.txt': 'alpha beta\n', 'src/app.ts': "export const name = 'beta';\n" };

type GenerateResult = Awaited<ReturnType<NonNullable<MockLanguageModelV4['doGenerate']>>>;

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

function toolStep(...list: { id: string; name: string; input: unknown }[]): GenerateResult {
  return {
    content: list.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) })),
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage,
    warnings: [],
  };
}

async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const summary = (cassette: Cassette): unknown[] => cassette.calls.map((call) => [call.turn, call.id, call.tool, call.error?.code ?? 'ok']);

describe('cassettes recorded while a model drives the tools', () => {
  it("through toolhost's agent loop and scriptedModel: one turn per model step, replayed green on a fresh agent", async () => {
    const platform = createMemoryPlatform({ files: FILES });
    const model = scriptedModel([
      { toolCalls: [{ name: 'grep_search', args: { pattern: 'beta' } }, { name: 'view_file', args: { file_path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'edit_file', args: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } }] },
      { toolCalls: [{ name: 'view_file', args: { file_path: 'nope.txt' } }] },
      { text: 'Renamed beta in notes.txt.' },
    ]);
    const agent = Agent.builder().model(model).platform(platform).allowAll().build();
    const events = await drain(agent.run('Rename beta to gamma in notes.txt'));
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'no_tool_calls' });

    const cassette = JSON.parse(JSON.stringify(await agent.runner.cassette('default', { include: ['src'] }))) as Cassette;
    expect(summary(cassette)).toEqual([
      [1, 'call_1_1', 'grep_search', 'ok'],
      [1, 'call_1_2', 'view_file', 'ok'],
      [2, 'call_2_1', 'edit_file', 'ok'],
      [3, 'call_3_1', 'view_file', 'not_found'],
    ]);
    expect(cassette.files).toEqual([
      { path: '/workspace/notes.txt', text: 'alpha beta\n' },
      { path: '/workspace/src/app.ts', text: FILES['src/app.ts'] },
    ]);

    const freshPlatform = createMemoryPlatform();
    const fresh = Agent.builder().model(scriptedModel([])).platform(freshPlatform).allowAll().build();
    const result = await fresh.runner.replay(cassette);
    expect(result).toEqual({ ok: true, turns: 3, calls: 4, report: 'replay of "default": 4 calls over 3 turns answered as recorded' });
    expect(new TextDecoder().decode(await freshPlatform.fs.readFile('/workspace/notes.txt'))).toBe('alpha gamma\n');
  });

  it('an agent whose tools changed drifts at the first call they answer otherwise', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'view_file', args: { file_path: 'notes.txt' } }] }, { text: 'done' }]);
    const agent = Agent.builder().model(model).platform(createMemoryPlatform({ files: FILES })).build();
    await drain(agent.run('Read notes.txt'));
    const cassette = await agent.runner.cassette('default', { include: ['notes.txt'] });
    // The Gemini profile has no view_file (it reads with read_file).
    const gemini = Agent.builder().model(scriptedModel([])).toolProfile('gemini').build();
    const result = await gemini.runner.replay(cassette);
    expect(result.drift).toMatchObject({ turn: 1, index: 0, id: 'call_1_1', tool: 'view_file', path: '$', actual: { error: { code: 'unknown_tool' } } });
    expect(result.report).toMatch(
      /^replay of "default" drifted at turn 1, call 1 of the cassette \(id call_1_1, tool view_file\), at \$:\n- \{"result":\{"file_path":"\/workspace\/notes.txt","content":"alpha beta".*\n\+ \{"error":\{"code":"unknown_tool","message":"unknown tool \\"view_file\\"/,
    );
  });

  it("through the AI SDK's MockLanguageModelV4 and aiSdkTools: one turn per step, tool call ids kept, replayed green", async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: FILES }), tools: BuiltinTools.all() });
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolStep({ id: 'g1', name: 'grep_search', input: { pattern: 'beta' } }, { id: 'v1', name: 'view_file', input: { file_path: 'src/app.ts' } }),
        toolStep({ id: 'e1', name: 'edit_file', input: { file_path: 'src/app.ts', old_string: "'beta'", new_string: "'gamma'" } }),
        { content: [{ type: 'text', text: 'Done.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    const answer = await generateText({ model, tools: await aiSdkTools(runner), prompt: 'Rename beta', stopWhen: isStepCount(5) });
    expect(answer.text).toBe('Done.');

    const cassette = await runner.cassette('default', { include: ['notes.txt'] });
    expect(summary(cassette)).toEqual([
      [1, 'g1', 'grep_search', 'ok'],
      [1, 'v1', 'view_file', 'ok'],
      [2, 'e1', 'edit_file', 'ok'],
    ]);
    // What the model was given is what the cassette holds.
    expect(answer.steps[0]?.toolResults.map((result) => result.output)).toEqual([cassette.calls[0]?.result, cassette.calls[1]?.result]);

    const fresh = new ToolRunner({ tools: BuiltinTools.all() });
    expect((await fresh.replay(JSON.parse(JSON.stringify(cassette)) as Cassette)).ok).toBe(true);
    expect(new TextDecoder().decode(await fresh.platform.fs.readFile('/workspace/src/app.ts'))).toBe("export const name = 'gamma';\n");
  });
});
