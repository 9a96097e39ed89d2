/**
 * A host's (or a tool author's) mistake is a TypeError that says what to do next, thrown at
 * construction or answered as `execution_failed` when found during a call; never the model's
 * `invalid_arguments`. And a call that never ran says so.
 */
import { describe, expect, it } from 'vitest';
import { defineTool } from '../src/core/tool.js';
import type { JsonValue } from '../src/core/json.js';
import { ToolRunner } from '../src/runner.js';
import { Agent } from '../src/agent/agent.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { BuiltinTools } from '../src/tools/index.js';

function named(name: string, answer = name) {
  return defineTool({ name, description: 'A tool', parameters: { type: 'object' }, readOnly: true, call: async () => answer });
}

const CONSTRUCTOR_SAME_NAME = (name: string): string =>
  `ToolRunner: two different tools given are named "${name}"; give each tool its own name; to replace one on purpose (a built-in, say), leave the one replaced out of tools (tools.filter((tool) => tool.name !== "${name}")), or register the new one afterwards with runner.register(tool, { replace: true })`;

describe('two tools of one name at construction', () => {
  it('are refused with a TypeError naming the name and the ways to replace on purpose, never one silently dropped', async () => {
    const mine = defineTool({ name: 'view_file', description: 'Mine', inputSchema: { type: 'object' }, execute: () => 'mine' });
    expect(() => new ToolRunner({ tools: [...BuiltinTools.all(), mine] })).toThrow(new TypeError(CONSTRUCTOR_SAME_NAME('view_file')));
    expect(() => new ToolRunner({ tools: [named('same', 'one'), named('same', 'two')] })).toThrow(new TypeError(CONSTRUCTOR_SAME_NAME('same')));
    await expect(ToolRunner.create({ tools: [named('same', 'one'), named('same', 'two')] })).rejects.toEqual(new TypeError(CONSTRUCTOR_SAME_NAME('same')));
  });

  it('the escape hatches the message names both work', async () => {
    const mine = defineTool({ name: 'view_file', description: 'Mine', inputSchema: { type: 'object' }, execute: () => 'mine' });
    const filtered = new ToolRunner({ tools: [...BuiltinTools.all().filter((tool) => tool.name !== 'view_file'), mine] });
    expect(await filtered.execute('view_file', {})).toBe('mine');
    const replaced = new ToolRunner({ tools: BuiltinTools.all() });
    await replaced.register(mine, { replace: true });
    expect(await replaced.execute('view_file', {})).toBe('mine');
    expect(replaced.declarations().map((d) => d.name)).toEqual(BuiltinTools.all().map((tool) => tool.name));
  });

  it('takes the same tool object listed twice once, at its first place (as joined sets that share a tool)', async () => {
    const a = named('a');
    const runner = new ToolRunner({ tools: [a, named('b'), a, ...BuiltinTools.readOnly(), ...BuiltinTools.all()] });
    expect(runner.declarations().map((d) => d.name)).toEqual(['a', 'b', ...BuiltinTools.readOnly().map((t) => t.name), ...BuiltinTools.all().map((t) => t.name).filter((n) => !BuiltinTools.readOnly().some((t) => t.name === n))]);
    await runner.registerAll([named('c'), named('d')].flatMap((tool) => [tool, tool]));
    expect(runner.has('c') && runner.has('d')).toBe(true);
  });

  it('takes a tool object registered again once too, at its place, as the constructor takes one listed twice; another tool of its name is still refused', async () => {
    const a = named('a');
    const b = named('b');
    const runner = new ToolRunner({ tools: [a, a] });
    await runner.register(a);
    await runner.register(b);
    await runner.register(b);
    await runner.registerAll([b, a]);
    expect(runner.declarations().map((d) => d.name)).toEqual(['a', 'b']);
    expect(await runner.execute('a', {})).toBe('a');
    await expect(runner.register(named('a', 'other'))).rejects.toThrow(/^ToolRunner\.register: a tool named "a" is already registered; /);
    await expect(runner.registerAll([b, named('b', 'other')])).rejects.toThrow(/^ToolRunner\.registerAll: two different tools given are named "b"; /);
    expect(await runner.execute('b', {})).toBe('b');
  });

  it("keeps the Agent's documented rule: a tool of the host's with a built-in's name takes its place", async () => {
    const mine = defineTool({ name: 'view_file', description: 'Mine', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, execute: () => 'mine' });
    const agent = Agent.builder().tool(mine).build();
    expect(agent.runner.declarations().filter((d) => d.name === 'view_file')).toHaveLength(1);
    expect(await agent.runner.execute('view_file', {})).toBe('mine');
    expect(() => Agent.builder().tool(mine).tool(named('view_file')).build()).toThrow(TypeError);
  });
});

describe('defineTool without what its form needs', () => {
  const EXECUTE = 'a tool is defineTool({ name, description, inputSchema, execute(input, ctx) })';
  const EITHER = `${EXECUTE}, or in the classic form { name, description, parameters, call(args) }`;

  it('names every missing field of the form the definition uses', () => {
    expect(() => defineTool({} as never)).toThrow(new TypeError(`defineTool: missing name, description, inputSchema and execute; ${EITHER}`));
    expect(() => defineTool({ name: 'x' } as never)).toThrow(new TypeError(`defineTool(x): missing description, inputSchema and execute; ${EITHER}`));
    expect(() => defineTool({ name: 'x', description: 'X', execute: () => 1 } as never)).toThrow(new TypeError(`defineTool(x): missing inputSchema; ${EXECUTE}`));
    expect(() => defineTool({ name: 'x', inputSchema: { type: 'object' } } as never)).toThrow(new TypeError(`defineTool(x): missing description and execute; ${EXECUTE}`));
    expect(() => defineTool({ name: 'x', description: 'X', parameters: { type: 'object' } } as never)).toThrow(
      new TypeError(
        'defineTool(x): missing call (or callWithContext); the classic form is defineTool({ name, description, parameters, call(args) }), with callWithContext(args, ctx) for a tool that needs its context',
      ),
    );
    expect(() => defineTool({ description: 'X', call: () => 1 } as never)).toThrow(/^defineTool: missing name and parameters; the classic form/);
  });
});

describe('ctx.setState with a value that is not JSON', () => {
  it("is the tool's mistake: execution_failed naming the key and what the value is, never invalid_arguments", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const values: Record<string, unknown> = { date: new Date(0), big: 10n, fn: () => 1, cycle: cyclic };
    const runner = new ToolRunner({
      tools: [
        defineTool({
          name: 'keep',
          description: 'Keeps a value',
          inputSchema: { type: 'object', properties: { which: { type: 'string' } }, required: ['which'] } as const,
          execute: ({ which }, ctx) => {
            ctx.setState('v', values[which] as JsonValue);
            return 'kept';
          },
        }),
      ],
    });
    const results = await runner.processToolCalls(Object.keys(values).map((which) => ({ id: which, name: 'keep', args: { which } })));
    expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['execution_failed', 'execution_failed', 'execution_failed', 'execution_failed']);
    const errors = results.map((r) => ('error' in r ? r.error : ''));
    expect(errors[0]).toMatch(/^ctx\.setState\("v"\): the value \(a Date\) is not JSON \(value: Date is not a plain JSON object\); state values must be JSON: .*toISOString\(\)/);
    expect(errors[1]).toMatch(/^ctx\.setState\("v"\): the value \(a bigint\) is not JSON/);
    expect(errors[2]).toMatch(/^ctx\.setState\("v"\): the value \(a function\) is not JSON/);
    expect(errors[3]).toMatch(/^ctx\.setState\("v"\): the value \(an object\) is not JSON \(\.self: circular reference\)/);
    expect(await runner.getState()).toEqual({});
  });
});

describe('processToolCalls given a model API’s call shape', () => {
  const runner = (): ToolRunner => new ToolRunner({ platform: createMemoryPlatform({ files: { 'a.txt': 'a\n' } }), tools: BuiltinTools.all() });

  it('throws a TypeError saying to pass the parsed object as args, before any call runs', async () => {
    const calls = [{ id: 'c1', name: 'list_dir', arguments: '{"dir_path":"."}' }] as never;
    await expect(runner().processToolCalls(calls)).rejects.toEqual(
      new TypeError(
        `ToolRunner.processToolCalls: call 0 ("list_dir") has arguments and no args; pass the tool's arguments as args, the parsed object (JSON.parse the model's arguments string first: { id, name, args: JSON.parse(arguments) })`,
      ),
    );
    await expect(runner().processToolCalls([{ id: 't', name: 'list_dir', input: { dir_path: '.' } }] as never)).rejects.toThrow(
      /^ToolRunner\.processToolCalls: call 0 \("list_dir"\) has input and no args; .*rename it: \{ id, name, args: input \}/,
    );
    await expect(runner().processToolCalls([{ id: 'c', type: 'function', function: { name: 'list_dir', arguments: '{}' } }] as never)).rejects.toThrow(
      /^ToolRunner\.processToolCalls: call 0 is a chat-completions tool call .*pass \{ id, name: call\.function\.name, args: JSON\.parse\(call\.function\.arguments\) \} instead$/,
    );
  });

  it('answers a string in args per call (bridges pass on what the model sent), naming an object’s JSON text as such', async () => {
    const results = await runner().processToolCalls([
      { id: '1', name: 'list_dir', args: '{"dir_path":"."}' },
      { id: '2', name: 'list_dir', args: { dir_path: '.' } },
    ]);
    expect(results[0]).toEqual({
      id: '1',
      name: 'list_dir',
      code: 'invalid_arguments',
      error:
        "invalid arguments for list_dir: arguments must be a JSON object, not a string holding one's JSON text; send the object itself (a host passing a model's raw arguments text must JSON.parse it into args first)",
    });
    expect(results[1]).toMatchObject({ id: '2', result: expect.anything() });
  });
});

describe('a call cancelled before it starts', () => {
  it('says it was cancelled before it started, and its tool never runs, with or without a deadline', async () => {
    let ran = 0;
    const tool = defineTool({ name: 'work', description: 'Works', inputSchema: { type: 'object' }, execute: () => (ran += 1) });
    const runner = new ToolRunner({ tools: [tool] });
    const stopped = AbortSignal.abort();
    const expected = { id: 'w', name: 'work', code: 'cancelled', error: 'work was cancelled before it started; it did not run, so nothing changed' };
    expect(await runner.processToolCalls([{ id: 'w', name: 'work', args: {} }], { signal: stopped })).toEqual([expected]);
    expect(await runner.processToolCalls([{ id: 'w', name: 'work', args: {} }], { signal: stopped, timeoutMs: 5_000 })).toEqual([expected]);
    await expect(runner.execute('work', {}, { signal: stopped })).rejects.toMatchObject({ code: 'cancelled', message: expected.error });
    expect(ran).toBe(0);
  });
});

describe('a platform given as a promise', () => {
  it('is a TypeError saying to await it', () => {
    const pending = Promise.resolve(createMemoryPlatform());
    expect(() => new ToolRunner({ platform: pending as never })).toThrow(
      new TypeError('ToolRunner: platform is a promise (or another thenable), not a Platform: await it first and pass what it resolves to (new ToolRunner({ platform: await promise }))'),
    );
  });
});

describe('call ids in one batch', () => {
  it('must differ: two calls sharing an id are a TypeError naming it, before any call runs', async () => {
    let ran = 0;
    const tool = defineTool({ name: 'count', description: 'Counts', inputSchema: { type: 'object' }, execute: () => (ran += 1) });
    const runner = new ToolRunner({ tools: [tool] });
    await expect(
      runner.processToolCalls([
        { id: 'a', name: 'count', args: {} },
        { id: 'b', name: 'count', args: {} },
        { id: 'a', name: 'count', args: {} },
      ]),
    ).rejects.toEqual(new TypeError('ToolRunner.processToolCalls: calls 0 and 2 share the id "a"; answers are matched by id, so give each call of a batch its own id (or leave ids out)'));
    expect(ran).toBe(0);
    // Calls without ids, and one id in two batches, are fine.
    expect(await runner.processToolCalls([{ name: 'count', args: {} }, { name: 'count', args: {} }, { id: 'a', name: 'count', args: {} }])).toHaveLength(3);
    expect(await runner.processToolCalls([{ id: 'a', name: 'count', args: {} }])).toEqual([{ id: 'a', name: 'count', result: 4 }]);
  });

  it('are strings: a number (which the answer would drop) or another value is a TypeError, before any call runs', async () => {
    let ran = 0;
    const tool = defineTool({ name: 'count', description: 'Counts', inputSchema: { type: 'object' }, execute: () => (ran += 1) });
    const runner = new ToolRunner({ tools: [tool] });
    await expect(runner.processToolCalls([{ id: 7, name: 'count', args: {} } as never])).rejects.toEqual(
      new TypeError('ToolRunner.processToolCalls: call 0 ("count") has the id 7; a call\'s id is a string, echoed in its answer, or left out; pass String(id) ("7")'),
    );
    await expect(runner.processToolCalls([{ name: 'count', args: {} }, { id: { n: 1 }, name: 'count', args: {} } as never])).rejects.toThrow(/^ToolRunner\.processToolCalls: call 1 \("count"\) has the id .*; a call's id is a string, echoed in its answer, or left out$/);
    expect(ran).toBe(0);
  });
});

describe('defineTool with a call that is not a function', () => {
  it('says call must be a function', () => {
    expect(() => defineTool({ name: 'x', description: 'X', parameters: { type: 'object' }, call: null } as never)).toThrow(
      new TypeError('defineTool(x): call must be a function (args) => result, or give callWithContext(args, ctx) instead'),
    );
  });
});
