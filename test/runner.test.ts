import { describe, expect, it } from 'vitest';
import { ToolRunner, defineTool, ToolError, BuiltinTools, type Tool } from '../src/index.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echo',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' }, times: { type: 'integer' }, loud: { type: 'boolean' } },
    required: ['text'],
    additionalProperties: false,
  } as const,
  readOnly: true,
  call: async ({ text, times, loud }) => ({ text: (loud ? text.toUpperCase() : text).repeat(times ?? 1) }),
});

function recorder(name: string, log: string[], opts: { readOnly?: boolean; delayMs?: number } = {}): Tool {
  return defineTool({
    name,
    description: name,
    parameters: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false } as const,
    readOnly: opts.readOnly ?? false,
    call: async ({ n }) => {
      log.push(`start ${name} ${n}`);
      await new Promise((r) => setTimeout(r, opts.delayMs ?? 10));
      log.push(`end ${name} ${n}`);
      return { n };
    },
  });
}

describe('ToolRunner', () => {
  it('registers, replaces, unregisters and declares tools in registration order', async () => {
    const runner = new ToolRunner();
    await runner.register(echo);
    await runner.register(defineTool({ name: 'b', description: 'B', parameters: '{"type":"object"}', call: async () => 1 }));
    await runner.register(defineTool({ name: 'echo', description: 'Echo 2', parameters: { type: 'object' }, call: async () => 2 }), { replace: true });
    expect(runner.declarations().map((d) => [d.name, d.description])).toEqual([
      ['echo', 'Echo 2'],
      ['b', 'B'],
    ]);
    expect(runner.declarations()[1]?.parameters).toEqual({ type: 'object' });
    expect(await runner.execute('echo', {})).toBe(2);
    expect(runner.unregister('echo')).toBe(true);
    expect(runner.unregister('echo')).toBe(false);
    await expect(runner.execute('echo', {})).rejects.toMatchObject({ code: 'unknown_tool', message: 'unknown tool "echo"; available tools: b' });
    const huge = await runner.execute('x'.repeat(100_000), {}).catch((error: Error) => error.message);
    expect(huge).toBe(`unknown tool "${'x'.repeat(200)}…" (99800 more characters); available tools: b`);
  });

  it('rejects bad tool names and schemas with a TypeError naming the tool, never invalid_arguments', async () => {
    const runner = new ToolRunner();
    await expect(runner.register(defineTool({ name: 'has space', description: '', parameters: {}, call: async () => 1 }))).rejects.toThrow(
      new TypeError('tool name "has space" must match /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/ (letters, digits, _ . -; at most 64)'),
    );
    await expect(runner.register(defineTool({ name: 'x', description: '', parameters: '{nope', call: async () => 1 }))).rejects.toThrow(TypeError);
    await expect(runner.register(defineTool({ name: 'x', description: '', parameters: '{nope', call: async () => 1 }))).rejects.toThrow(/^tool x: parameters is not valid JSON/);
    await expect(runner.register(defineTool({ name: 'y', description: '', parameters: { type: 'object', properties: { a: { type: 'nonsense' } } }, call: async () => 1 }))).rejects.toThrow(
      /^tool y: its parameters schema cannot be compiled \(schema is invalid: data\/properties\/a\/type must be equal to one of the allowed values/,
    );
    expect(runner.declarations()).toEqual([]);
  });

  it('tells a host that registers a set or an array of tools as one tool what to pass instead', async () => {
    const runner = new ToolRunner();
    await expect(runner.register(BuiltinTools as never)).rejects.toThrow(
      new TypeError('register takes one tool, and this is a set of tools (BuiltinTools, say): register its tools with registerAll(set.all()), or pass tools: set.all() to new ToolRunner'),
    );
    await expect(runner.register(BuiltinTools.readOnly() as never)).rejects.toThrow(
      new TypeError('register takes one tool, and this is an array of them: pass it to registerAll(tools), or to new ToolRunner({ tools })'),
    );
    await runner.registerAll(BuiltinTools.readOnly());
    expect(runner.declarations().map((tool) => tool.name)).toEqual(['find_file', 'list_dir', 'search_dir', 'view_file', 'grep_search']);
  });

  it('refuses a schema that does not compile at construction: ready() rejects naming the tool, calls answer unavailable, never invalid_arguments', async () => {
    const broken = defineTool({ name: 'broken', description: '', parameters: { type: 'object', properties: { a: { type: 'nonsense' } } }, call: async () => 1 });
    const fine = defineTool({ name: 'fine', description: '', parameters: { type: 'object', properties: { n: { type: 'integer' } } }, call: async () => 'ok' });
    const runner = new ToolRunner({ tools: [fine, broken] });
    await expect(runner.ready()).rejects.toThrow(/^tool broken: its parameters schema cannot be compiled/);
    await expect(ToolRunner.create({ tools: [broken] })).rejects.toThrow(TypeError);
    const results = await runner.processToolCalls([{ name: 'broken', args: { a: 1 } }, { name: 'fine', args: { n: 1 } }]);
    expect(results[0]).toMatchObject({ name: 'broken', code: 'unavailable', error: expect.stringMatching(/^broken cannot run: tool broken: its parameters schema cannot be compiled .*The host must fix the tool$/) });
    expect(results[1]).toEqual({ name: 'fine', result: 'ok' });
    expect(() => new ToolRunner({ tools: [defineTool({ name: 'bad name', description: '', parameters: {}, call: async () => 1 })] })).toThrow(TypeError);
    expect(() => new ToolRunner({ tools: [defineTool({ name: 'arr', description: '', parameters: { type: 'array' }, call: async () => 1 })] })).toThrow(
      `tool arr: parameters must describe an object (type: 'object'), as every model API passes arguments by name; got type "array"`,
    );
  });

  it("words a built-in's schema problems for the model: the argument, what it is for, what was sent", async () => {
    const runner = new ToolRunner({ tools: BuiltinTools.all() });
    const results = await runner.processToolCalls([
      { id: '1', name: 'run_command', args: { command: '' } },
      { id: '2', name: 'view_file', args: { file_path: 3 } },
      { id: '3', name: 'view_file', args: {} },
    ]);
    expect(results.map((r) => ('error' in r ? r.error : r))).toEqual([
      'invalid arguments for run_command: command must not be empty; give the shell command line to run',
      'invalid arguments for view_file: file_path must be a string (the file to read), not a number',
      'invalid arguments for view_file: missing required argument "file_path" (the file to read)',
    ]);
  });

  it('validates arguments with messages that name the argument', async () => {
    const runner = new ToolRunner({ tools: [echo] });
    const results = await runner.processToolCalls([
      { id: '1', name: 'echo', args: {} },
      { id: '2', name: 'echo', args: { text: 'a', colour: 'red' } },
      { id: '3', name: 'echo', args: { text: 'a', times: 1.5 } },
      { id: '4', name: 'echo', args: 'not an object' },
      { id: '5', name: 'echo', args: { text: 'ab', times: '2', loud: 'true' } },
      { id: '6', name: 'echo', args: { text: 5 } },
    ]);
    expect(results).toEqual([
      { id: '1', name: 'echo', code: 'invalid_arguments', error: 'invalid arguments for echo: missing required argument "text"' },
      { id: '2', name: 'echo', code: 'invalid_arguments', error: 'invalid arguments for echo: unknown argument "colour"; allowed: text, times, loud' },
      { id: '3', name: 'echo', code: 'invalid_arguments', error: 'invalid arguments for echo: times must be an integer, not 1.5' },
      { id: '4', name: 'echo', code: 'invalid_arguments', error: 'invalid arguments for echo: arguments must be a JSON object, not a string; call echo again with a JSON object that matches its parameters' },
      { id: '5', name: 'echo', result: { text: 'ABAB' } },
      // Numbers are never coerced to strings: only strings become numbers/booleans.
      { id: '6', name: 'echo', code: 'invalid_arguments', error: 'invalid arguments for echo: text must be a string, not a number' },
    ]);
  });

  it('treats missing arguments as an empty object', async () => {
    const runner = new ToolRunner({ tools: [defineTool({ name: 'now', description: '', parameters: { type: 'object' }, call: async () => 'ok' })] });
    expect(await runner.processToolCalls([{ name: 'now', args: undefined }, { name: 'now', args: null }])).toEqual([
      { name: 'now', result: 'ok' },
      { name: 'now', result: 'ok' },
    ]);
  });

  it('runs consecutive concurrency-safe calls together and the rest alone, in call order', async () => {
    const log: string[] = [];
    const runner = new ToolRunner({
      tools: [recorder('read', log, { readOnly: true, delayMs: 20 }), recorder('write', log, { delayMs: 5 })],
    });
    const results = await runner.processToolCalls([
      { id: 'a', name: 'read', args: { n: 1 } },
      { id: 'b', name: 'read', args: { n: 2 } },
      { id: 'c', name: 'write', args: { n: 3 } },
      { id: 'd', name: 'write', args: { n: 4 } },
      { id: 'e', name: 'read', args: { n: 5 } },
    ]);
    expect(results.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(results.map((r) => ('result' in r ? r.result : r.code))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }]);
    expect(log).toEqual([
      'start read 1',
      'start read 2',
      'end read 1',
      'end read 2',
      'start write 3',
      'end write 3',
      'start write 4',
      'end write 4',
      'start read 5',
      'end read 5',
    ]);
  });

  it('turns a throw into execution_failed with its message and keeps working', async () => {
    const runner = new ToolRunner({
      tools: [
        defineTool({ name: 'boom', description: '', parameters: { type: 'object' }, call: async () => { throw new Error('disk on fire'); } }),
        defineTool({ name: 'sync_boom', description: '', parameters: { type: 'object' }, call: () => { throw 'plain string'; } }),
        defineTool({ name: 'coded', description: '', parameters: { type: 'object' }, call: async () => { throw new ToolError('not_found', 'no such thing'); } }),
        defineTool({ name: 'fn_out', description: '', parameters: { type: 'object' }, call: async () => ({ f: () => 1 }) }),
        echo,
      ],
    });
    expect(await runner.processToolCalls([
      { name: 'boom', args: {} },
      { name: 'sync_boom', args: {} },
      { name: 'coded', args: {} },
      { name: 'fn_out', args: {} },
      { name: 'nope', args: {} },
      { name: 'echo', args: { text: 'still here' } },
    ])).toEqual([
      { name: 'boom', code: 'execution_failed', error: 'disk on fire' },
      { name: 'sync_boom', code: 'execution_failed', error: 'plain string' },
      { name: 'coded', code: 'not_found', error: 'no such thing' },
      { name: 'fn_out', code: 'execution_failed', error: 'fn_out returned a value that is not JSON (.f: function is not JSON); tools must return JSON-serialisable values' },
      { name: 'nope', code: 'unknown_tool', error: 'unknown tool "nope"; available tools: boom, sync_boom, coded, fn_out, echo' },
      { name: 'echo', result: { text: 'still here' } },
    ]);
    await expect(runner.execute('boom', {})).rejects.toBeInstanceOf(ToolError);
  });

  it('answers malformed batches with results instead of rejecting', async () => {
    const runner = new ToolRunner({ tools: [echo] });
    const calls = [null, { name: 42 }, { id: 'x', name: 'echo', args: { text: 'ok' } }] as never;
    expect(await runner.processToolCalls(calls)).toEqual([
      { name: '', code: 'invalid_arguments', error: 'each tool call must be an object { id?, name: string, args }' },
      { name: '', code: 'invalid_arguments', error: 'each tool call must be an object { id?, name: string, args }' },
      { id: 'x', name: 'echo', result: { text: 'ok' } },
    ]);
    await expect(runner.processToolCalls('junk' as never)).rejects.toThrow(
      new TypeError('ToolRunner.processToolCalls: calls must be an array of tool calls { id?, name, args }, not "junk"'),
    );
  });

  it('routes web_search and google_search to the fallback unless a tool claims the name', async () => {
    const runner = new ToolRunner();
    expect(await runner.processToolCalls([
      { name: 'web_search', args: { query: 'toolhost' } },
      { name: 'google_search', args: { query: '  ' } },
      { name: 'web_search', args: {} },
    ])).toEqual([
      { name: 'web_search', result: { results: [], note: 'Search is not available on the memory platform' } },
      { name: 'google_search', result: { results: [], note: 'Empty query' } },
      { name: 'web_search', code: 'invalid_arguments', error: 'invalid arguments for web_search: missing required argument "query"' },
    ]);
    await runner.register(defineTool({ name: 'web_search', description: 'mine', parameters: { type: 'object' }, call: async () => 'custom' }));
    expect(await runner.execute('web_search', { query: 'x' })).toBe('custom');
    expect(await runner.execute('google_search', { query: 'x' })).toEqual({ results: [], note: 'Search is not available on the memory platform' });
  });

  it('hands web_search to the platform search and caps it at 10 results', async () => {
    const base = (await import('../src/index.js')).createMemoryPlatform();
    const seen: string[] = [];
    const platform = {
      ...base,
      capabilities: { ...base.capabilities, webSearch: true },
      async webSearch(query: string) {
        seen.push(query);
        return { results: Array.from({ length: 12 }, (_, i) => ({ title: `t${i}`, url: `https://e.test/${i}`, snippet: '' })) };
      },
    };
    const runner = new ToolRunner({ platform });
    const out = (await runner.execute('google_search', { query: 'zen' })) as { results: unknown[] };
    expect(seen).toEqual(['zen']);
    expect(out.results).toHaveLength(10);
    const failing = new ToolRunner({ platform: { ...platform, webSearch: async () => { throw new Error('ECONNREFUSED'); } } });
    await expect(failing.execute('web_search', { query: 'zen' })).rejects.toMatchObject({
      code: 'unavailable',
      message: 'Search failed: ECONNREFUSED; try again later, or go on without web results',
    });
    const erring = new ToolRunner({ platform: { ...platform, webSearch: async () => ({ results: [], error: 'quota used up.' }) } });
    await expect(erring.execute('web_search', { query: 'zen' })).rejects.toMatchObject({
      code: 'unavailable',
      message: 'quota used up; try again later, or go on without web results',
    });
  });

  it('accepts outputs with undefined properties and refuses absurdly deep ones with a clear message', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 5000; i += 1) deep = { deep };
    const runner = new ToolRunner({
      tools: [
        defineTool({ name: 'optional', description: '', parameters: { type: 'object' }, call: async () => ({ a: 1, b: undefined }) }),
        defineTool({ name: 'deep', description: '', parameters: { type: 'object' }, call: async () => deep }),
      ],
    });
    expect(await runner.execute('optional', {})).toEqual({ a: 1 });
    await expect(runner.execute('deep', {})).rejects.toMatchObject({ code: 'execution_failed', message: expect.stringContaining('nested deeper than 1000 levels') });
  });

  it('refuses parameter schemas that do not describe an object', async () => {
    const runner = new ToolRunner();
    await expect(runner.register(defineTool({ name: 'arr', description: '', parameters: { type: 'array' }, call: async () => 1 }))).rejects.toThrow(
      new TypeError(`tool arr: parameters must describe an object (type: 'object'), as every model API passes arguments by name; got type "array"`),
    );
  });

  it('checks a classic tool\'s JSON outputSchema on the way out: a mismatch is execution_failed', async () => {
    const tool = defineTool({
      name: 'sized',
      description: '',
      parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      outputSchema: { type: 'object', properties: { size: { type: 'integer', minimum: 0 } }, required: ['size'] },
      call: async ({ n }) => ({ size: n }),
    });
    const runner = await ToolRunner.create({ tools: [tool] });
    expect(runner.tools()[0]?.outputSchema).toEqual({ type: 'object', properties: { size: { type: 'integer', minimum: 0 } }, required: ['size'] });
    expect(await runner.execute('sized', { n: 3 })).toEqual({ size: 3 });
    expect(await runner.processToolCalls([{ name: 'sized', args: { n: -1 } }])).toEqual([
      { name: 'sized', code: 'execution_failed', error: "sized's output broke its outputSchema: size must be at least 0, not -1; the tool must return what its outputSchema describes" },
    ]);
  });
});
