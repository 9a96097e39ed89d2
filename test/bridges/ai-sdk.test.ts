import { generateText, isStepCount, simulateReadableStream, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkToolApproval, aiSdkTools, fromAiSdkTool } from '../../bridges/ai-sdk/index.js';
import { bridgeBatchSizes as aiSdkBatchSizes } from '../../bridges/shared.js';
import { ToolRunner } from '../../src/runner.js';
import { createMemoryPlatform } from '../../src/platform/memory.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { defineTool } from '../../src/core/tool.js';

type GenerateResult = Awaited<ReturnType<NonNullable<MockLanguageModelV4['doGenerate']>>>;
type StreamResult = Awaited<ReturnType<NonNullable<MockLanguageModelV4['doStream']>>>;
type LanguageModelV4StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** One model step that calls tools, in the given order. */
function calls(...list: { id: string; name: string; input: unknown }[]): GenerateResult {
  return {
    content: list.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) })),
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage,
    warnings: [],
  };
}

function text(value: string): GenerateResult {
  return { content: [{ type: 'text', text: value }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
}

/** A file's text, or 'absent'. */
async function readText(runner: ToolRunner, path: string): Promise<string> {
  try {
    return new TextDecoder().decode(await runner.platform.fs.readFile(path));
  } catch {
    return 'absent';
  }
}

/** The reason a call held back behind `name` (call `id`) gives the model. */
function HELD(name: string, id: string): string {
  return (
    `not run: it comes after ${name} (call ${id}) in the same step, which waits for the user's approval, ` +
    `and the calls of a step take effect in the order they were given; call it again after ${name}'s result, to see its effect`
  );
}

function newRunner(): ToolRunner {
  return new ToolRunner({ platform: createMemoryPlatform({ files: { 'notes.txt': 'alpha beta\n' } }), tools: BuiltinTools.all() });
}

describe('aiSdkTools with generateText and MockLanguageModelV4', () => {
  it('runs grep, then an edit and a view of one file in one step: the view sees the edit, 20 of 20 runs', async () => {
    let seen = 0;
    for (let run = 0; run < 20; run += 1) {
      const runner = newRunner();
      const tools = await aiSdkTools(runner);
      const model = new MockLanguageModelV4({
        doGenerate: [
          calls({ id: 'g1', name: 'grep_search', input: { pattern: 'beta' } }),
          calls(
            { id: 'e1', name: 'edit_file', input: { file_path: 'notes.txt', old_string: 'beta', new_string: `gamma${run}` } },
            { id: 'v1', name: 'view_file', input: { file_path: 'notes.txt' } },
          ),
          text('done'),
        ],
      });
      const result = await generateText({ model, tools, prompt: 'edit the notes', stopWhen: isStepCount(5) });
      expect(result.text).toBe('done');
      expect(result.steps.length).toBe(3);
      const grep = result.steps[0]?.toolResults[0];
      expect(grep?.toolName).toBe('grep_search');
      expect((grep?.output as { total_matches: number }).total_matches).toBe(1);
      const [edit, view] = result.steps[1]?.toolResults ?? [];
      expect(edit?.toolCallId).toBe('e1');
      expect((edit?.output as { replacements: number }).replacements).toBe(1);
      expect(view?.toolCallId).toBe('v1');
      if ((view?.output as { content: string }).content === `alpha gamma${run}`) seen += 1;
      expect(aiSdkBatchSizes(tools)).toEqual([1, 2]);
    }
    expect(seen).toBe(20);
  });

  it('runs every call of a step whose model repeated a call id, each answered under the id it was given', async () => {
    // Two calls of one id in a batch are the host's mistake to the runner (a TypeError); from a model
    // they are not, so the bridge runs both, in order, and answers each under the model's id.
    const runner = newRunner();
    const tools = await aiSdkTools(runner);
    const model = new MockLanguageModelV4({
      doGenerate: [
        calls(
          { id: 'same', name: 'edit_file', input: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } },
          { id: 'same', name: 'view_file', input: { file_path: 'notes.txt' } },
        ),
        text('done'),
      ],
    });
    const result = await generateText({ model, tools, prompt: 'edit', stopWhen: isStepCount(3) });
    expect(result.steps[0]?.content.filter((part) => part.type === 'tool-error')).toEqual([]);
    const [edit, view] = result.steps[0]?.toolResults ?? [];
    expect([edit?.toolCallId, view?.toolCallId]).toEqual(['same', 'same']);
    expect((edit?.output as { replacements: number }).replacements).toBe(1);
    expect((view?.output as { content: string }).content).toBe('alpha gamma');
    expect(aiSdkBatchSizes(tools)).toEqual([2]);
  });

  it('hands the model a failure as the tool error with its code', async () => {
    const tools = await aiSdkTools(newRunner());
    const model = new MockLanguageModelV4({ doGenerate: [calls({ id: 'x', name: 'view_file', input: { file_path: 'missing.txt' } }), text('ok')] });
    const result = await generateText({ model, tools, prompt: 'view', stopWhen: isStepCount(3) });
    const expected = 'not_found: file_path "missing.txt" does not exist (/workspace/missing.txt); check the name with list_dir or find_file';
    const error = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    expect(error?.type).toBe('tool-error');
    expect((error as { error: Error }).error.message).toBe(expected);
    expect((error as { error: { code: string } }).error.code).toBe('not_found');
    expect(String((error as { error: Error }).error)).toBe(expected);
    // The model's next prompt carries exactly `code: message`, without the error's class name.
    const toolMessage = model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'tool');
    expect(toolMessage?.role === 'tool' ? toolMessage.content : []).toEqual([
      { type: 'tool-result', toolCallId: 'x', toolName: 'view_file', output: { type: 'error-text', value: expected } },
    ]);
  });

  it('maps the ask rule to tool approval: a mutating call waits for approval, then runs', async () => {
    const runner = newRunner();
    const tools = await aiSdkTools(runner);
    const toolApproval = aiSdkToolApproval(tools);
    const model = new MockLanguageModelV4({
      doGenerate: [
        calls(
          { id: 'v0', name: 'view_file', input: { file_path: 'notes.txt' } },
          { id: 'e0', name: 'create_file', input: { file_path: 'new.txt', content: 'made' } },
        ),
        text('created'),
      ],
    });
    const first = await generateText({ model, tools, toolApproval, prompt: 'create', stopWhen: isStepCount(3) });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request?.type).toBe('tool-approval-request');
    expect((request as { toolCall: { toolName: string } }).toolCall.toolName).toBe('create_file');
    expect(first.toolResults.map((r) => r.toolName)).toEqual(['view_file']);
    expect(await readText(runner, '/workspace/new.txt')).toBe('absent');

    const messages: ModelMessage[] = [
      { role: 'user', content: 'create' },
      ...first.response.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: (request as { approvalId: string }).approvalId, approved: true }] },
    ];
    const second = await generateText({ model, tools, toolApproval, messages, stopWhen: isStepCount(3) });
    expect(second.text).toBe('created');
    expect(await readText(runner, '/workspace/new.txt')).toBe('made');
  });

  it('holds back the calls after one waiting for approval: a view after an approved edit sees the edit', async () => {
    const runner = newRunner();
    const tools = await aiSdkTools(runner);
    const toolApproval = aiSdkToolApproval(tools);
    const model = new MockLanguageModelV4({
      doGenerate: [
        calls(
          { id: 'e1', name: 'edit_file', input: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } },
          { id: 'v1', name: 'view_file', input: { file_path: 'notes.txt' } },
        ),
        calls({ id: 'v2', name: 'view_file', input: { file_path: 'notes.txt' } }),
        text('edited'),
      ],
    });
    const first = await generateText({ model, tools, toolApproval, prompt: 'edit', stopWhen: isStepCount(5) });
    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests.map((part) => [part.toolCall.toolCallId, part.isAutomatic === true])).toEqual([
      ['e1', false],
      ['v1', true],
    ]);
    // Nothing ran: the view waits with the edit instead of reading the old text.
    expect(first.toolResults).toEqual([]);
    expect(aiSdkBatchSizes(tools)).toEqual([]);
    expect(await readText(runner, '/workspace/notes.txt')).toBe('alpha beta\n');
    const held = HELD('edit_file', 'e1');
    expect(first.response.messages[1]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approvalId: requests[1]?.approvalId, approved: false, reason: held },
        { type: 'tool-result', toolCallId: 'v1', toolName: 'view_file', output: { type: 'execution-denied', reason: held } },
      ],
    });

    const messages: ModelMessage[] = [
      { role: 'user', content: 'edit' },
      ...first.response.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: requests[0]?.approvalId ?? '', approved: true }] },
    ];
    const second = await generateText({ model, tools, toolApproval, messages, stopWhen: isStepCount(5) });
    expect(second.text).toBe('edited');
    expect(await readText(runner, '/workspace/notes.txt')).toBe('alpha gamma\n');
    // The model learns why its view did not run, next to the edit's result, and views again.
    const toolMessage = model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'tool');
    const parts = toolMessage?.role === 'tool' ? toolMessage.content : [];
    expect(parts.map((part) => (part.type === 'tool-result' ? [part.toolCallId, part.output.type] : [part.type]))).toEqual([
      ['v1', 'execution-denied'],
      ['e1', 'json'],
    ]);
    expect(parts[0]).toEqual({ type: 'tool-result', toolCallId: 'v1', toolName: 'view_file', output: { type: 'execution-denied', reason: held } });
    expect((second.steps[0]?.toolResults[0]?.output as { content: string }).content).toBe('alpha gamma');
    expect(aiSdkBatchSizes(tools)).toEqual([1, 1]);
  });

  it('runs the calls before the first waiting one at once, and the approved calls of the step together in order', async () => {
    const runner = newRunner();
    const tools = await aiSdkTools(runner);
    const toolApproval = aiSdkToolApproval(tools);
    const model = new MockLanguageModelV4({
      doGenerate: [
        calls(
          { id: 'v0', name: 'view_file', input: { file_path: 'notes.txt' } },
          { id: 'e1', name: 'edit_file', input: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } },
          { id: 'g1', name: 'grep_search', input: { pattern: 'gamma' } },
          { id: 'e2', name: 'edit_file', input: { file_path: 'notes.txt', old_string: 'gamma', new_string: 'delta' } },
        ),
        text('edited twice'),
      ],
    });
    const first = await generateText({ model, tools, toolApproval, prompt: 'edit', stopWhen: isStepCount(5) });
    expect(first.toolResults.map((result) => [result.toolCallId, (result.output as { content: string }).content])).toEqual([['v0', 'alpha beta']]);
    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests.map((part) => [part.toolCall.toolCallId, part.isAutomatic === true])).toEqual([
      ['e1', false],
      ['g1', true],
      ['e2', false],
    ]);
    const denied = first.content.filter((part) => part.type === 'tool-approval-response');
    expect(denied.map((part) => [part.toolCall.toolCallId, part.approved, part.reason])).toEqual([['g1', false, HELD('edit_file', 'e1')]]);

    // The user answers the second request first: the SDK still runs the approved calls in the model's order.
    const answers = [requests[2], requests[0]].map((part) => ({ type: 'tool-approval-response' as const, approvalId: part?.approvalId ?? '', approved: true }));
    const messages: ModelMessage[] = [{ role: 'user', content: 'edit' }, ...first.response.messages, { role: 'tool', content: answers }];
    const second = await generateText({ model, tools, toolApproval, messages, stopWhen: isStepCount(5) });
    expect(second.text).toBe('edited twice');
    expect(await readText(runner, '/workspace/notes.txt')).toBe('alpha delta\n');
    expect(aiSdkBatchSizes(tools)).toEqual([1, 2]);
  });

  it('aborts the calls of a step when the run is aborted mid-step, a call that starts after the abort included', async () => {
    let sawAbort = '';
    const controller = new AbortController();
    const slow = defineTool({
      name: 'slow',
      description: 'waits until cancelled',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      callWithContext: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = (ctx.signal.reason as { code?: string }).code ?? 'no code';
            resolve('stopped');
          });
          // The user stops the run as soon as the step's first call is under way (not after a guessed
          // delay): the step's second call starts after the abort and must be cancelled, not left to wait.
          controller.abort(new Error('user stopped'));
        }),
    });
    const runner = new ToolRunner({ tools: [slow] });
    const tools = await aiSdkTools(runner);
    const model = new MockLanguageModelV4({ doGenerate: [calls({ id: 's1', name: 'slow', input: {} }, { id: 's2', name: 'slow', input: {} }), text('never')] });
    await expect(generateText({ model, tools, prompt: 'go', abortSignal: controller.signal, stopWhen: isStepCount(3) })).rejects.toThrow();
    expect(sawAbort).toBe('cancelled');
    expect(model.doGenerateCalls.length).toBe(1);
  });
});

describe('fromAiSdkTool', () => {
  it('runs an AI SDK tool with a zod schema inside a ToolRunner', async () => {
    const weather = tool({
      description: 'Weather in a city',
      inputSchema: z.object({ city: z.string().transform((s) => s.toUpperCase()) }),
      execute: async ({ city }) => ({ city, degrees: 21 }),
    });
    const runner = new ToolRunner({ tools: [await fromAiSdkTool(weather, { name: 'weather', readOnly: true })] });
    expect(runner.tools()[0]?.parameters).toMatchObject({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(await runner.processToolCalls([{ id: '1', name: 'weather', args: { city: 'oslo' } }])).toEqual([{ id: '1', name: 'weather', result: { city: 'OSLO', degrees: 21 } }]);
    const [bad] = await runner.processToolCalls([{ name: 'weather', args: { city: 3 } }]);
    expect(bad && 'code' in bad ? bad.code : '').toBe('invalid_arguments');
    const set: ToolSet = { weather };
    expect(Object.keys(set)).toEqual(['weather']);
  });

  it('refuses a tool without execute, or bad options, with a TypeError (the host\'s mistake)', async () => {
    const clientSide = tool({ description: 'asks the user', inputSchema: z.object({ q: z.string() }), outputSchema: z.string() });
    await expect(fromAiSdkTool(clientSide, { name: 'ask' })).rejects.toThrow(
      new TypeError('fromAiSdkTool: the AI SDK tool ask has no execute function (it runs on the client), so toolhost cannot run it; give a tool with execute'),
    );
    await expect(fromAiSdkTool(null as never, { name: 'ask' })).rejects.toThrow(
      new TypeError('fromAiSdkTool: tool must be an AI SDK tool (tool({ description, inputSchema, execute })), not null'),
    );
    await expect(fromAiSdkTool(clientSide, {} as never)).rejects.toThrow(new TypeError('fromAiSdkTool: name must be a non-empty string, not undefined'));
    await expect(fromAiSdkTool(clientSide, { name: 'ask', readonly: true } as never)).rejects.toThrow(
      new TypeError('fromAiSdkTool: readonly is not an option (did you mean readOnly?)'),
    );
  });
});

describe('aiSdkToolApproval refuses what is not a ToolSet, the host\'s mistake, with a TypeError', () => {
  const TOOL_SET = 'a ToolSet (an object of AI SDK tools by name, as aiSdkTools(host) resolves to)';
  const refused = (tools: unknown, options?: unknown): (() => unknown) => () => aiSdkToolApproval(tools as ToolSet, options as never);

  it('a promise of one: aiSdkTools not awaited', async () => {
    const pending = aiSdkTools(newRunner());
    expect(refused(pending)).toThrow(
      new TypeError('aiSdkToolApproval: tools is a promise (or another thenable), not a ToolSet: await it first (aiSdkToolApproval(await aiSdkTools(host)))'),
    );
    expect(typeof aiSdkToolApproval(await pending)).toBe('function');
  });

  it('the host itself, a Map, a Set, an array, nothing: named as the shared describer names them', async () => {
    const runner = newRunner();
    expect(refused(runner)).toThrow(new TypeError(`aiSdkToolApproval: tools must be ${TOOL_SET}, not the ToolHost itself; pass its tools: aiSdkToolApproval(await aiSdkTools(host))`));
    const tools = await aiSdkTools(runner);
    expect(refused(new Map(Object.entries(tools)))).toThrow(new TypeError(`aiSdkToolApproval: tools must be ${TOOL_SET}, not a Map (${Object.keys(tools).length} entries); pass Object.fromEntries(map)`));
    expect(refused(new Set(['a', 'b', 'c']))).toThrow(new TypeError(`aiSdkToolApproval: tools must be ${TOOL_SET}, not a Set (3 items)`));
    expect(refused(['view_file'])).toThrow(new TypeError(`aiSdkToolApproval: tools must be ${TOOL_SET}, not ["view_file"]`));
    expect(refused(undefined)).toThrow(new TypeError(`aiSdkToolApproval: tools must be ${TOOL_SET}, not undefined`));
    expect(refused({ ...tools, edit: 'edit_file' })).toThrow(
      new TypeError('aiSdkToolApproval: tools.edit must be an AI SDK tool (tool({ description, inputSchema, execute })), not "edit_file"'),
    );
  });

  it('bad options, as every host-facing function refuses them', async () => {
    const tools = await aiSdkTools(newRunner());
    expect(refused(tools, { ask: 'all' })).toThrow(
      new TypeError('aiSdkToolApproval: ask must be \'mutating\' or an array of tool-name patterns (strings such as "view_*"), not "all"'),
    );
    expect(refused(tools, { deny: 'run_command' })).toThrow(/^aiSdkToolApproval: deny must be an array of tool-name patterns/);
    expect(refused(tools, { denied: ['run_command'] })).toThrow(/^aiSdkToolApproval: denied is not an option/);
    expect(typeof aiSdkToolApproval(tools, { ask: ['edit_*'], deny: ['run_command'] })).toBe('function');
    expect(typeof aiSdkToolApproval(Object.create(null) as ToolSet)).toBe('function');
  });
});

describe('aiSdkTools images', () => {
  it('hands view_file images to the model as image parts (toModelOutput)', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: { 'dot.png': Uint8Array.from(atob(png), (c) => c.charCodeAt(0)) } }), tools: BuiltinTools.all() });
    const tools = await aiSdkTools(runner);
    const model = new MockLanguageModelV4({ doGenerate: [calls({ id: 'i1', name: 'view_file', input: { file_path: 'dot.png' } }), text('a dot')] });
    await generateText({ model, tools, prompt: 'look', stopWhen: isStepCount(3) });
    const toolMessage = model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'tool');
    const part = toolMessage?.role === 'tool' ? toolMessage.content[0] : undefined;
    expect(part?.type).toBe('tool-result');
    const output = part?.type === 'tool-result' ? part.output : undefined;
    expect(output?.type).toBe('content');
    const value = output?.type === 'content' ? output.value : [];
    expect(value[1]).toEqual({ type: 'file', data: { type: 'data', data: png }, mediaType: 'image/png' });
    expect(value[0]?.type === 'text' ? JSON.parse(value[0].text) : {}).toMatchObject({ binary: true, mime_type: 'image/png', size: 70 });
  });
});

describe('aiSdkTools with streamText', () => {
  it('runs a streamed step’s edit and view as one batch: the view sees the edit', async () => {
    const runner = newRunner();
    const tools = await aiSdkTools(runner);
    const streamed = (parts: LanguageModelV4StreamPart[]) => ({ stream: simulateReadableStream({ chunks: parts }) });
    const finish = (unified: 'tool-calls' | 'stop'): LanguageModelV4StreamPart => ({ type: 'finish', finishReason: { unified, raw: undefined }, usage });
    const model = new MockLanguageModelV4({
      doStream: [
        streamed([
          { type: 'stream-start', warnings: [] },
          { type: 'tool-call', toolCallId: 'e1', toolName: 'edit_file', input: JSON.stringify({ file_path: 'notes.txt', old_string: 'beta', new_string: 'delta' }) },
          { type: 'tool-call', toolCallId: 'v1', toolName: 'view_file', input: JSON.stringify({ file_path: 'notes.txt' }) },
          finish('tool-calls'),
        ]),
        streamed([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'done' },
          { type: 'text-end', id: 't' },
          finish('stop'),
        ]),
      ],
    });
    const result = streamText({ model, tools, prompt: 'edit', stopWhen: isStepCount(3) });
    expect(await result.text).toBe('done');
    const [first] = await result.steps;
    const view = first?.toolResults.find((r) => r.toolCallId === 'v1');
    expect((view?.output as { content: string }).content).toBe('alpha delta');
    expect(aiSdkBatchSizes(tools)).toEqual([2]);
  });

  it('holds back a streamed step’s view behind an edit waiting for approval', async () => {
    const runner = newRunner();
    const tools = await aiSdkTools(runner);
    const toolApproval = aiSdkToolApproval(tools);
    const streamed = (parts: LanguageModelV4StreamPart[]) => ({ stream: simulateReadableStream({ chunks: parts }) });
    const finish = (unified: 'tool-calls' | 'stop'): LanguageModelV4StreamPart => ({ type: 'finish', finishReason: { unified, raw: undefined }, usage });
    const model = new MockLanguageModelV4({
      doStream: [
        streamed([
          { type: 'stream-start', warnings: [] },
          { type: 'tool-call', toolCallId: 'e1', toolName: 'edit_file', input: JSON.stringify({ file_path: 'notes.txt', old_string: 'beta', new_string: 'delta' }) },
          { type: 'tool-call', toolCallId: 'v1', toolName: 'view_file', input: JSON.stringify({ file_path: 'notes.txt' }) },
          finish('tool-calls'),
        ]),
        streamed([
          { type: 'stream-start', warnings: [] },
          { type: 'tool-call', toolCallId: 'v2', toolName: 'view_file', input: JSON.stringify({ file_path: 'notes.txt' }) },
          finish('tool-calls'),
        ]),
        streamed([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'done' },
          { type: 'text-end', id: 't' },
          finish('stop'),
        ]),
      ],
    });
    const first = streamText({ model, tools, toolApproval, prompt: 'edit', stopWhen: isStepCount(5) });
    const content = await first.content;
    const requests = content.filter((part) => part.type === 'tool-approval-request');
    expect(requests.map((part) => [part.toolCall.toolCallId, part.isAutomatic === true])).toEqual([
      ['e1', false],
      ['v1', true],
    ]);
    expect(content.filter((part) => part.type === 'tool-result')).toEqual([]);
    expect(content.filter((part) => part.type === 'tool-approval-response').map((part) => [part.toolCall.toolCallId, part.approved, part.reason])).toEqual([
      ['v1', false, HELD('edit_file', 'e1')],
    ]);
    expect(await readText(runner, '/workspace/notes.txt')).toBe('alpha beta\n');

    const messages: ModelMessage[] = [
      { role: 'user', content: 'edit' },
      ...(await first.response).messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: requests[0]?.approvalId ?? '', approved: true }] },
    ];
    const second = streamText({ model, tools, toolApproval, messages, stopWhen: isStepCount(5) });
    expect(await second.text).toBe('done');
    const [step] = await second.steps;
    expect((step?.toolResults.find((r) => r.toolCallId === 'v2')?.output as { content: string }).content).toBe('alpha delta');
    expect(await readText(runner, '/workspace/notes.txt')).toBe('alpha delta\n');
    expect(aiSdkBatchSizes(tools)).toEqual([1, 1]);
  });
});
