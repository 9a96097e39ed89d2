import { Agent, Runner, Usage, setTracingDisabled, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { openAIAgentsTools } from '../../bridges/openai-agents/index.js';
import { bridgeBatchSizes as openAIAgentsBatchSizes } from '../../bridges/shared.js';
import { ToolRunner } from '../../src/runner.js';
import { createMemoryPlatform } from '../../src/platform/memory.js';
import { BuiltinTools } from '../../src/tools/index.js';

setTracingDisabled(true);

type Turn = { calls: { id: string; name: string; input: unknown; raw?: string }[] } | { text: string };

/** The output of a call held back behind edit_file call e1. */
const HELD =
  "not run: it comes after edit_file (call e1) in the same turn, which waits for the user's approval, " +
  "and the calls of a turn take effect in the order they were given; call it again after edit_file's result, to see its effect";

/** An offline Model that answers each turn from a script (no network). */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  #turn = 0;
  constructor(readonly script: Turn[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.script[this.#turn];
    this.#turn += 1;
    if (!turn) throw new Error('the script has no more turns');
    const output: ModelResponse['output'] =
      'text' in turn
        ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text }] }]
        : turn.calls.map((call) => ({ type: 'function_call', callId: call.id, name: call.name, arguments: call.raw ?? JSON.stringify(call.input), status: 'completed' }));
    return { usage: new Usage(), output, responseId: `r${this.#turn}` };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in these tests');
  }
}

/** A file's text, or 'absent'. */
async function readText(runner: ToolRunner, path: string): Promise<string> {
  try {
    return new TextDecoder().decode(await runner.platform.fs.readFile(path));
  } catch {
    return 'absent';
  }
}

function newRunner(): ToolRunner {
  return new ToolRunner({ platform: createMemoryPlatform({ files: { 'notes.txt': 'alpha beta\n' } }), tools: BuiltinTools.all() });
}

/** The function_call_result outputs of a run, by call id. */
function outputsById(items: readonly { type: string; rawItem?: unknown }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of items) {
    const raw = item.rawItem as { type?: string; callId?: string; output?: { type?: string; text?: string } | string } | undefined;
    if (raw?.type !== 'function_call_result' || raw.callId === undefined) continue;
    const output = raw.output;
    out.set(raw.callId, typeof output === 'string' ? output : (output?.text ?? ''));
  }
  return out;
}

describe('openAIAgentsTools with run() and an offline scripted Model', () => {
  it('runs grep, then an edit and a view of one file in one turn: the view sees the edit, 10 of 10 runs', async () => {
    let seen = 0;
    for (let run = 0; run < 10; run += 1) {
      const host = newRunner();
      const tools = await openAIAgentsTools(host);
      const model = new ScriptedModel([
        { calls: [{ id: 'g1', name: 'grep_search', input: { pattern: 'beta' } }] },
        {
          calls: [
            { id: 'e1', name: 'edit_file', input: { file_path: 'notes.txt', old_string: 'beta', new_string: `gamma${run}` } },
            { id: 'v1', name: 'view_file', input: { file_path: 'notes.txt' } },
          ],
        },
        { text: 'done' },
      ]);
      const agent = new Agent({ name: 'editor', instructions: 'edit', model, tools });
      const result = await new Runner().run(agent, 'edit the notes');
      expect(result.finalOutput).toBe('done');
      const outputs = outputsById(result.newItems);
      expect(JSON.parse(outputs.get('g1') ?? '{}').total_matches).toBe(1);
      expect(JSON.parse(outputs.get('e1') ?? '{}').replacements).toBe(1);
      if (JSON.parse(outputs.get('v1') ?? '{}').content === `alpha gamma${run}`) seen += 1;
      expect(openAIAgentsBatchSizes(tools)).toEqual([1, 2]);
    }
    expect(seen).toBe(10);
  });

  it('gives the model a failure as code: message', async () => {
    const tools = await openAIAgentsTools(newRunner());
    const model = new ScriptedModel([{ calls: [{ id: 'x', name: 'view_file', input: { file_path: 'missing.txt' } }] }, { text: 'ok' }]);
    const result = await new Runner().run(new Agent({ name: 'a', model, tools }), 'view');
    expect(outputsById(result.newItems).get('x')).toBe('not_found: file_path "missing.txt" does not exist (/workspace/missing.txt); check the name with list_dir or find_file');
  });

  it('leaves arguments that are not JSON to the Agents SDK, which answers its own fixed text', async () => {
    const tools = await openAIAgentsTools(newRunner());
    const model = new ScriptedModel([{ calls: [{ id: 'b', name: 'view_file', input: null, raw: '{not json' }] }, { text: 'ok' }]);
    const result = await new Runner().run(new Agent({ name: 'a', model, tools }), 'view');
    expect(outputsById(result.newItems).get('b')).toBe('An error occurred while parsing tool arguments. Please try again with valid JSON.');
    expect(openAIAgentsBatchSizes(tools)).toEqual([]);
  });

  it('with ask, has arguments that are not a JSON object approved before the SDK answers its fixed text', async () => {
    const tools = await openAIAgentsTools(newRunner(), { ask: 'mutating' });
    const model = new ScriptedModel([{ calls: [{ id: 'b', name: 'view_file', input: null, raw: '{not json' }] }, { text: 'ok' }]);
    const agent = new Agent({ name: 'a', model, tools });
    const runner = new Runner();
    const first = await runner.run(agent, 'view');
    expect(first.interruptions.map((item) => item.rawItem.type === 'function_call' && item.rawItem.callId)).toEqual(['b']);
    for (const interruption of first.interruptions) first.state.approve(interruption);
    const second = await runner.run(agent, first.state);
    expect(outputsById(second.newItems).get('b')).toBe('An error occurred while parsing tool arguments. Please try again with valid JSON.');
    expect(second.finalOutput).toBe('ok');
  });

  it('holds back the calls after one waiting for approval: a view after an approved edit sees the edit', async () => {
    const host = newRunner();
    const tools = await openAIAgentsTools(host, { ask: 'mutating' });
    const model = new ScriptedModel([
      {
        calls: [
          { id: 'e1', name: 'edit_file', input: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } },
          { id: 'v1', name: 'view_file', input: { file_path: 'notes.txt' } },
        ],
      },
      { calls: [{ id: 'v2', name: 'view_file', input: { file_path: 'notes.txt' } }] },
      { text: 'edited' },
    ]);
    const agent = new Agent({ name: 'a', model, tools });
    const runner = new Runner();
    const first = await runner.run(agent, 'edit');
    expect(first.interruptions.map((item) => item.rawItem.type === 'function_call' && item.rawItem.callId)).toEqual(['e1']);
    expect([...outputsById(first.newItems)]).toEqual([['v1', HELD]]);
    expect(await readText(host, '/workspace/notes.txt')).toBe('alpha beta\n');
    expect(openAIAgentsBatchSizes(tools)).toEqual([]);
    for (const interruption of first.interruptions) first.state.approve(interruption);
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe('edited');
    expect(await readText(host, '/workspace/notes.txt')).toBe('alpha gamma\n');
    const outputs = outputsById(second.newItems);
    expect(outputs.get('v1')).toBe(HELD);
    expect(JSON.parse(outputs.get('v2') ?? '{}').content).toBe('alpha gamma');
    expect(openAIAgentsBatchSizes(tools)).toEqual([1, 1]);
  });

  it('runs the calls before the first waiting one at once, and the approved calls of the turn together in order', async () => {
    const host = newRunner();
    const tools = await openAIAgentsTools(host, { ask: 'mutating' });
    const model = new ScriptedModel([
      {
        calls: [
          { id: 'v0', name: 'view_file', input: { file_path: 'notes.txt' } },
          { id: 'e1', name: 'edit_file', input: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } },
          { id: 'g1', name: 'grep_search', input: { pattern: 'gamma' } },
          { id: 'e2', name: 'edit_file', input: { file_path: 'notes.txt', old_string: 'gamma', new_string: 'delta' } },
        ],
      },
      { text: 'edited twice' },
    ]);
    const agent = new Agent({ name: 'a', model, tools });
    const runner = new Runner();
    const first = await runner.run(agent, 'edit');
    expect(first.interruptions.map((item) => item.rawItem.type === 'function_call' && item.rawItem.callId)).toEqual(['e1', 'e2']);
    const outputs = outputsById(first.newItems);
    expect(JSON.parse(outputs.get('v0') ?? '{}').content).toBe('alpha beta');
    expect(outputs.get('g1')).toBe(HELD);
    expect(openAIAgentsBatchSizes(tools)).toEqual([1]);
    for (const interruption of [...first.interruptions].reverse()) first.state.approve(interruption);
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe('edited twice');
    expect(await readText(host, '/workspace/notes.txt')).toBe('alpha delta\n');
    expect(openAIAgentsBatchSizes(tools)).toEqual([1, 2]);
  });

  it('maps ask to needsApproval: the run stops for a mutating call, and runs it once approved', async () => {
    const host = newRunner();
    const tools = await openAIAgentsTools(host, { ask: 'mutating' });
    const model = new ScriptedModel([
      { calls: [{ id: 'c1', name: 'create_file', input: { file_path: 'new.txt', content: 'made' } }] },
      { text: 'created' },
    ]);
    const agent = new Agent({ name: 'a', model, tools });
    const runner = new Runner();
    const first = await runner.run(agent, 'create');
    expect(first.interruptions.map((item) => item.rawItem.type === 'function_call' && item.rawItem.name)).toEqual(['create_file']);
    expect(await readText(host, '/workspace/new.txt')).toBe('absent');
    for (const interruption of first.interruptions) first.state.approve(interruption);
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe('created');
    expect(await readText(host, '/workspace/new.txt')).toBe('made');
  });

  it('declares the host JSON Schemas, non-strict', async () => {
    const tools = await openAIAgentsTools(newRunner(), { include: ['view_file'] });
    expect(tools.map((t) => t.name)).toEqual(['view_file']);
    expect(tools[0]?.strict).toBe(false);
    expect(tools[0]?.parameters.required).toEqual(['file_path']);
  });
});
