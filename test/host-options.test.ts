import { describe, expect, it } from 'vitest';
import { ToolRunner, type ToolRunnerOptions } from '../src/runner.js';
import { defineTool } from '../src/core/tool.js';
import { checkOptions, closestName, describeValue, is } from '../src/core/options.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { PermissionChecker } from '../src/core/permissions.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { rejectionOf, typeErrorOf } from './support/type-errors.js';

const ECHO = defineTool({ name: 'echo', description: 'Echoes', inputSchema: { type: 'object' }, execute: (input) => input });
const ASK = "{ allow?: string[], deny?: string[], ask?: (request) => Promise<'allow_once' | 'allow_session' | 'deny'> }";

describe('ToolRunner options', () => {
  it('throws a TypeError at construction naming the option, the value and what is accepted', () => {
    const cases: Array<[unknown, string]> = [
      [{ defaultTimeoutMs: -1 }, 'defaultTimeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not -1'],
      [{ defaultTimeoutMs: Number.NaN }, 'defaultTimeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not NaN'],
      [{ defaultTimeoutMs: 0 }, 'defaultTimeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not 0'],
      [{ defaultTimeoutMs: -Infinity }, 'defaultTimeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not -Infinity'],
      [{ defaultTimeoutMs: '5000' }, 'defaultTimeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not "5000"'],
      [{ permissions: 'bogus' }, `permissions must be 'allow_all' or ${ASK}, not "bogus"`],
      [{ permissions: null }, `permissions must be 'allow_all' or ${ASK}, not null`],
      [{ permissions: 'read_only' }, "permissions 'read_only' is plan mode: pass planMode: true (or call setPlanMode(true)) instead, and leave permissions out"],
      [{ permissions: { allow: 5 } }, 'permissions.allow must be an array of tool-name patterns (strings such as "deploy_*"), not 5'],
      [{ permissions: { deny: ['a', 7] } }, 'permissions.deny[1] must be a string, not 7'],
      [{ permissions: { ask: 'create_*' } }, "permissions.ask must be a function (request) => Promise<'allow_once' | 'allow_session' | 'deny'>, not \"create_*\""],
      [{ planMode: 'yes' }, 'planMode must be true or false, not "yes"'],
      [{ verbose: 1 }, 'verbose must be true or false, not 1'],
      [{ conversationId: 7 }, 'conversationId must be a non-empty string, not 7'],
      [{ tools: {} }, 'tools must be an array of tools, not {}'],
      [{ tools: new Set([ECHO]) }, 'tools must be an array of tools, not a Set (1 item); pass an array: [...set] (or Array.from(set))'],
      [{ tools: new Map([['echo', ECHO]]) }, 'tools must be an array of tools, not a Map (1 entry); pass an array of its values: [...map.values()]'],
      [{ tools: [null] }, 'tools[0] must be a tool (defineTool({ name, description, inputSchema, execute }) or { name, description, parameters, call }), not null'],
      [{ defaultTimeoutMS: 5 }, 'defaultTimeoutMS is not an option (did you mean defaultTimeoutMs?)'],
      [{ permisions: 'read_only' }, 'permisions is not an option (did you mean permissions?)'],
      [{ colour: 'red' }, 'colour is not an option (the options are platform, tools, permissions, planMode, conversationId, defaultTimeoutMs, onMessage, isIdle, cwd, verbose, journal, review, startSubagent, generateImage, onFinish)'],
      [{ journal: 'off' }, 'journal must be true, false or { maxBytes } (a positive integer of bytes), not "off"'],
      [{ journal: { maxBytes: 0 } }, 'journal.maxBytes must be a positive integer, not 0'],
      [{ journal: { maxByte: 5 } }, 'journal.maxByte is not an option (did you mean journal.maxBytes?)'],
      [{ conversationId: '' }, 'conversationId must be a non-empty string, not ""'],
      [{ onMessage: 'log' }, 'onMessage must be a function, not "log"'],
      [{ isIdle: true }, 'isIdle must be a function, not true'],
      [{ startSubagent: {} }, 'startSubagent must be a function, not {}'],
      [{ generateImage: 1 }, 'generateImage must be a function, not 1'],
      [{ onFinish: [] }, 'onFinish must be a function, not []'],
      [{ cwd: 'src' }, 'cwd must be an absolute path (a directory inside the platform root), not "src"'],
      [{ cwd: '/etc' }, 'cwd must be a directory inside the platform root (/workspace), not "/etc"'],
      [{ platform: 'memory' }, 'platform must be a Platform such as createMemoryPlatform(), createNodePlatform() or createWebPlatform(), not "memory"'],
      [{ platform: { root: '/w', fs: {}, state: {} } }, 'platform.state must be a StateStore such as new MemoryStateStore(); it has no getAll, setMany methods'],
      [5, 'options must be an object, not 5'],
      [null, 'options must be an object, not null'],
    ];
    for (const [options, message] of cases) {
      expect(typeErrorOf(() => new ToolRunner(options as ToolRunnerOptions)).message, JSON.stringify(options)).toBe(`ToolRunner: ${message}`);
    }
  });

  it('accepts every documented form', () => {
    const ask = async (): Promise<'deny'> => 'deny';
    const good: ToolRunnerOptions[] = [
      {},
      { defaultTimeoutMs: Infinity },
      { defaultTimeoutMs: 0.5 },
      { permissions: 'allow_all' },
      { permissions: {} },
      { permissions: { allow: ['view_*'], deny: [], ask } },
      { planMode: true, verbose: false, conversationId: 'c', cwd: '/workspace/src', platform: createMemoryPlatform() },
      { defaultTimeoutMs: undefined, misspeltButUndefined: undefined } as ToolRunnerOptions,
      { onMessage: () => undefined, isIdle: () => false, onFinish: () => undefined },
    ];
    for (const options of good) expect(() => new ToolRunner(options), JSON.stringify(options)).not.toThrow();
  });

  it('setPermissions refuses a bad policy with the same TypeError and keeps the old one', async () => {
    const runner = new ToolRunner({ permissions: { deny: ['deploy_*'] } });
    expect(typeErrorOf(() => runner.setPermissions({ allow: 5 } as never)).message).toBe(
      'setPermissions: policy.allow must be an array of tool-name patterns (strings such as "deploy_*"), not 5',
    );
    expect(typeErrorOf(() => runner.setPermissions('bogus' as never)).message).toBe(`setPermissions: policy must be 'allow_all' or ${ASK}, not "bogus"`);
    expect(runner.permissions.policy).toEqual({ deny: ['deploy_*'] });
    expect(typeErrorOf(() => new PermissionChecker({ deny: 'x' } as never)).message).toBe(
      'PermissionChecker: policy.deny must be an array of tool-name patterns (strings such as "deploy_*"), not "x"',
    );
  });
});

describe('ToolRunner per-call options', () => {
  const setup = (): { runner: ToolRunner; runs: () => number } => {
    let count = 0;
    const runner = new ToolRunner({
      tools: [defineTool({ name: 'tick', description: 'counts', inputSchema: { type: 'object' }, execute: () => (count += 1) })],
    });
    return { runner, runs: () => count };
  };

  const cases: Array<[unknown, string]> = [
    [{ timeoutMs: -1 }, 'timeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not -1'],
    [{ timeoutMs: Number.NaN }, 'timeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not NaN'],
    [{ timeoutMs: '5000' }, 'timeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not "5000"'],
    [{ signal: {} }, 'signal must be an AbortSignal, not {}'],
    [{ signal: true }, 'signal must be an AbortSignal, not true'],
    [{ conversationId: 5 }, 'conversationId must be a non-empty string, not 5'],
    [{ conversationId: '' }, 'conversationId must be a non-empty string, not ""'],
    [{ timeoutMS: 5 }, 'timeoutMS is not an option (did you mean timeoutMs?)'],
    [{ signl: AbortSignal.timeout(1000) }, 'signl is not an option (did you mean signal?)'],
    [{ onMessage: 'log' }, 'onMessage must be a function, not "log"'],
    [null, 'options must be an object, not null'],
    ['fast', 'options must be an object, not "fast"'],
  ];

  it('rejects execute with a TypeError naming the option, and runs no tool', async () => {
    const { runner, runs } = setup();
    for (const [options, message] of cases) {
      expect((await rejectionOf(runner.execute('tick', {}, options as never))).message, JSON.stringify(options)).toBe(`ToolRunner.execute: ${message}`);
    }
    expect(runs()).toBe(0);
    // The runner stays usable.
    expect(await runner.execute('tick', {}, { timeoutMs: 5_000, signal: new AbortController().signal, conversationId: 'c' })).toBe(1);
  });

  it('rejects processToolCalls with a TypeError naming the option, and runs no call', async () => {
    const { runner, runs } = setup();
    for (const [options, message] of cases) {
      expect((await rejectionOf(runner.processToolCalls([{ name: 'tick', args: {} }], options as never))).message, JSON.stringify(options)).toBe(
        `ToolRunner.processToolCalls: ${message}`,
      );
    }
    expect(runs()).toBe(0);
    expect(await runner.processToolCalls([{ id: 'a', name: 'tick', args: {} }], { timeoutMs: Infinity })).toEqual([{ id: 'a', name: 'tick', result: 1 }]);
  });

  it('rejects processToolCalls with calls that are not an array as the host\'s mistake, not invalid_arguments', async () => {
    const { runner, runs } = setup();
    expect((await rejectionOf(runner.processToolCalls('x' as never))).message).toBe(
      'ToolRunner.processToolCalls: calls must be an array of tool calls { id?, name, args }, not "x"',
    );
    expect((await rejectionOf(runner.processToolCalls({ name: 'tick', args: {} } as never))).message).toBe(
      'ToolRunner.processToolCalls: calls must be an array of tool calls { id?, name, args }, not {"name":"tick","args":{}}',
    );
    expect(runs()).toBe(0);
  });

  it('rejects a call whose deadline is misspelled instead of running it with no deadline', async () => {
    const slow = defineTool({ name: 'slow', description: '', inputSchema: { type: 'object' }, execute: () => new Promise((r) => setTimeout(() => r('done'), 2_000)) });
    const runner = new ToolRunner({ tools: [slow] });
    expect((await rejectionOf(runner.execute('slow', {}, { timeoutMS: 5 } as never))).message).toBe('ToolRunner.execute: timeoutMS is not an option (did you mean timeoutMs?)');
  });

  it('takes the runner default deadline when a call gives none, and a bad default never reaches a call', async () => {
    const slow = defineTool({ name: 'slow', description: '', inputSchema: { type: 'object' }, execute: () => new Promise((r) => setTimeout(() => r('done'), 2_000)) });
    const runner = new ToolRunner({ tools: [slow], defaultTimeoutMs: 30 });
    await expect(runner.execute('slow', {})).rejects.toMatchObject({ code: 'timeout', message: 'slow did not finish within 30 ms (this call\'s time limit); narrow the request or split the work into smaller steps' });
  });
});

describe('checkOptions', () => {
  it('names nested options by path and refuses keys without a rule, suggesting the close one', () => {
    const rules = { command: is.options({ killGraceMs: is.nonNegativeMs }), mode: is.oneOf('a', 'b', 'c') };
    expect(typeErrorOf(() => checkOptions('f', { command: { killGraceMs: -1 } }, rules)).message).toBe(
      'f: command.killGraceMs must be a finite number of milliseconds, 0 or more, not -1',
    );
    expect(typeErrorOf(() => checkOptions('f', { mode: 'd' }, rules)).message).toBe("f: mode must be 'a', 'b' or 'c', not \"d\"");
    expect(typeErrorOf(() => checkOptions('f', { other: Symbol('x'), mode: undefined }, rules)).message).toBe('f: other is not an option (the options are command, mode)');
    expect(typeErrorOf(() => checkOptions('f', { command: { killGraceMS: 5 } }, rules)).message).toBe('f: command.killGraceMS is not an option (did you mean command.killGraceMs?)');
    expect(typeErrorOf(() => checkOptions('f', { Mode: 'a' }, rules)).message).toBe('f: Mode is not an option (did you mean mode?)');
    expect(() => checkOptions('f', { other: undefined, mode: undefined }, rules)).not.toThrow();
    expect(() => checkOptions('f', undefined, rules)).not.toThrow();
  });

  it('suggests a known name only when it is close', () => {
    expect(closestName('rooot', ['root', 'stateDir', 'state'])).toBe('root');
    expect(closestName('flies', ['root', 'files', 'state'])).toBe('files');
    expect(closestName('timeout', ['timeoutMs', 'signal'])).toBe('timeoutMs');
    expect(closestName('xyz', ['root', 'files', 'state'])).toBeUndefined();
  });

  it('describes values briefly', () => {
    expect([-0, Infinity, 10n, 'a"b', undefined, () => 1].map(describeValue)).toEqual(['-0', 'Infinity', '10n', '"a\\"b"', 'undefined', 'a function']);
    expect(describeValue({ a: 'x'.repeat(200) })).toBe(`${JSON.stringify({ a: 'x'.repeat(200) }).slice(0, 80)}…`);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe('[object Object]');
  });

  it('describes a Set, a Map, an iterator or a class instance as what it is, never as {}', () => {
    class Toolbox {}
    function* generate(): Generator<number> {
      yield 1;
    }
    const described = [new Set([1, 2]), new Set([1]), new Map(), generate(), [1].values(), new Toolbox(), Promise.resolve(1), Object.create(null)].map(describeValue);
    expect(described).toEqual(['a Set (2 items)', 'a Set (1 item)', 'a Map (0 entries)', 'a Generator', 'an Array Iterator', 'a Toolbox', 'a Promise', '{}']);
    expect([{}, [], { a: 1 }].map(describeValue)).toEqual(['{}', '[]', '{"a":1}']);
  });

  it('tells a host that passes a Set or a Map of tools where an array goes what to pass instead', async () => {
    const runner = new ToolRunner();
    await expect(rejectionOf(runner.registerAll(new Set([ECHO]) as never))).resolves.toEqual(
      new TypeError('ToolRunner.registerAll takes an array of tools, not a Set (1 item); pass an array: [...set] (or Array.from(set))'),
    );
    await expect(rejectionOf(runner.register(new Set([ECHO]) as never))).resolves.toEqual(
      new TypeError('register takes one tool, and this is a Set (1 item): register its tools with registerAll([...set]), or pass tools: [...set] to new ToolRunner'),
    );
    await expect(rejectionOf(runner.register(new Map([['echo', ECHO]]) as never))).resolves.toEqual(
      new TypeError('register takes one tool, and this is a Map (1 entry): register its tools with registerAll([...map.values()]), or pass tools: [...map.values()] to new ToolRunner'),
    );
    expect(typeErrorOf(() => toolProfiles.combine(new Set(toolProfiles.openai()) as never)).message).toBe(
      'toolProfiles.combine: argument 1 must be an array of tools such as toolProfiles.openai(), not a Set (2 items); pass an array: [...set] (or Array.from(set))',
    );
    expect(runner.declarations()).toEqual([]);
  });
});

describe('defineTool', () => {
  it('throws a TypeError naming what a definition is for a definition that is not an object', () => {
    for (const [value, shown] of [[null, 'null'], [undefined, 'undefined'], ['tool', '"tool"'], [[], '[]']] as const) {
      expect(typeErrorOf(() => defineTool(value as never)).message).toBe(
        `defineTool: definition must be an object { name, description, inputSchema, execute } (or { name, description, parameters, call }), not ${shown}`,
      );
    }
  });
});

describe('createMemoryPlatform options', () => {
  it('refuses a misspelled option, naming the one it probably meant', () => {
    expect(typeErrorOf(() => createMemoryPlatform({ flies: {} } as never)).message).toBe('createMemoryPlatform: flies is not an option (did you mean files?)');
  });
});
