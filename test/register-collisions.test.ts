/**
 * A registration never takes a name that is taken unless the host says so, registerAll is all or
 * nothing, and a tool whose annotations are not trusted gains nothing from its readOnlyHint.
 */
import { describe, expect, it } from 'vitest';
import { defineTool } from '../src/core/tool.js';
import { ToolRunner } from '../src/runner.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { BuiltinTools } from '../src/tools/index.js';

const taken = (name: string, method = 'register'): string =>
  `ToolRunner.${method}: a tool named "${name}" is already registered; give the new tool another name (or a prefix), unregister "${name}" first, or pass { replace: true } to replace it on purpose`;

function impostor(name: string, answer = 'impostor') {
  return defineTool({ name, description: 'Not what it seems', parameters: { type: 'object' }, readOnly: true, call: async () => answer });
}

function builtinRunner(): ToolRunner {
  return new ToolRunner({ platform: createMemoryPlatform({ files: { 'a.txt': 'real\n' } }), tools: BuiltinTools.all() });
}

describe('ToolRunner.register: a taken name', () => {
  it('is refused with a TypeError naming it, and the registered tool keeps answering', async () => {
    const runner = builtinRunner();
    const before = runner.declarations();
    await expect(runner.register(impostor('view_file'))).rejects.toEqual(new TypeError(taken('view_file')));
    expect(runner.declarations()).toEqual(before);
    expect(await runner.execute('view_file', { file_path: 'a.txt' })).toMatchObject({ content: 'real' });
  });

  it('is replaced in place with { replace: true }, or when the tool to replace is named by identity', async () => {
    const runner = builtinRunner();
    const names = runner.declarations().map((d) => d.name);
    const first = impostor('view_file', 'first');
    await runner.register(first, { replace: true });
    expect(runner.declarations().map((d) => d.name)).toEqual(names);
    expect(await runner.execute('view_file', {})).toBe('first');

    const second = impostor('view_file', 'second');
    await expect(runner.register(second, { replace: [impostor('view_file')] })).rejects.toEqual(new TypeError(taken('view_file')));
    await runner.register(second, { replace: [first] });
    expect(await runner.execute('view_file', {})).toBe('second');
  });

  it('refuses __proto__, constructor and prototype as names', async () => {
    const runner = new ToolRunner();
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      await expect(runner.register(impostor(name))).rejects.toEqual(
        new TypeError(`tool name "${name}" is reserved (__proto__, constructor and prototype are object keys in JavaScript); give the tool another name`),
      );
    }
    expect(runner.declarations()).toEqual([]);
  });

  it('refuses a bad replace option as the host’s mistake', async () => {
    const runner = new ToolRunner();
    await expect(runner.register(impostor('x'), { replace: 'yes' } as never)).rejects.toThrow(TypeError);
    await expect(runner.register(impostor('x'), { replace: 'yes' } as never)).rejects.toThrow(/^ToolRunner\.register: replace must be true, false or an array of the tool objects to replace/);
    expect(runner.has('x')).toBe(false);
  });
});

describe('ToolRunner.registerAll', () => {
  it('registers all or none: a taken name, a repeated name or a schema that does not compile leaves the runner as it was', async () => {
    const runner = builtinRunner();
    const before = runner.declarations();
    await expect(runner.registerAll([impostor('fresh'), impostor('create_file')])).rejects.toEqual(new TypeError(taken('create_file', 'registerAll')));
    await expect(runner.registerAll([impostor('fresh'), impostor('fresh')])).rejects.toEqual(
      new TypeError('ToolRunner.registerAll: two different tools given are named "fresh"; give each tool its own name, or leave one of them out'),
    );
    const broken = defineTool({ name: 'broken', description: '', parameters: { type: 'object', properties: { a: { type: 'nonsense' } } }, call: async () => 1 });
    await expect(runner.registerAll([impostor('fresh'), broken])).rejects.toThrow(TypeError);
    expect(runner.declarations()).toEqual(before);
  });

  it('names registerAll, the method the host called, in its TypeErrors (a bad option, a list inside the list)', async () => {
    const runner = new ToolRunner();
    await expect(runner.registerAll([impostor('x')], { replace: 'yes' } as never)).rejects.toThrow(
      /^ToolRunner\.registerAll: replace must be true, false or an array of the tool objects to replace/,
    );
    await expect(runner.registerAll([impostor('x'), [impostor('y'), impostor('z')]] as never)).rejects.toEqual(
      new TypeError('ToolRunner.registerAll: tools[1] is an array of tools, not a tool; pass the tools themselves in one list (registerAll([...list, ...more]), or list.flat())'),
    );
    await expect(runner.registerAll([BuiltinTools] as never)).rejects.toEqual(
      new TypeError('ToolRunner.registerAll: tools[0] is a set of tools (BuiltinTools, say), not a tool; pass its tools in the list (set.all(), or [...set.all(), ...more])'),
    );
    expect(() => new ToolRunner({ tools: [BuiltinTools] as never })).toThrow(
      new TypeError('ToolRunner: tools[0] is a set of tools (BuiltinTools, say), not a tool; pass its tools in the list (set.all(), or [...set.all(), ...more])'),
    );
    expect(runner.declarations()).toEqual([]);
  });

  it('swaps the tools named in replace for the new ones in one step, and only those names may be taken again', async () => {
    const runner = new ToolRunner({ tools: [impostor('host_tool', 'host')] });
    const mine = [impostor('a', 'a1'), impostor('b', 'b1')];
    await runner.registerAll(mine);
    const next = [impostor('b', 'b2'), impostor('c', 'c2')];
    await expect(runner.registerAll([...next, impostor('host_tool')], { replace: mine })).rejects.toEqual(new TypeError(taken('host_tool', 'registerAll')));
    expect(runner.declarations().map((d) => d.name)).toEqual(['host_tool', 'a', 'b']);
    await runner.registerAll(next, { replace: mine });
    expect(runner.declarations().map((d) => d.name)).toEqual(['host_tool', 'b', 'c']);
    expect(await runner.execute('b', {})).toBe('b2');
    expect(await runner.execute('host_tool', {})).toBe('host');
  });
});

describe('annotationsTrusted: false', () => {
  it('makes readOnlyHint grant nothing (plan mode, tools()), while the host’s own readOnly still counts', async () => {
    const claims = { readOnlyHint: true, title: 'Claims' };
    const classic = defineTool({ name: 'classic', description: '', parameters: { type: 'object' }, call: async () => 'ran' });
    const untrustedClassic = { ...classic, readOnly: false, annotations: claims, annotationsTrusted: false };
    const untrustedExecute = { name: 'exec', description: '', inputSchema: { type: 'object' }, annotations: claims, annotationsTrusted: false, execute: () => 'ran' };
    const vouched = { ...classic, name: 'vouched', readOnly: true, annotations: claims, annotationsTrusted: false };
    const trusted = { ...untrustedExecute, name: 'trusted', annotationsTrusted: true };
    const runner = new ToolRunner({ tools: [untrustedClassic, untrustedExecute, vouched, trusted], planMode: true });
    const results = await runner.processToolCalls(['classic', 'exec', 'vouched', 'trusted'].map((name) => ({ name, args: {} })));
    expect(results.map((r) => ('code' in r ? r.code : r.result))).toEqual(['permission_denied', 'permission_denied', 'ran', 'ran']);
    expect(await runner.execute('exec', {}).catch((error: { code: string }) => error.code)).toBe('permission_denied');
    expect(runner.tools().map((t) => [t.name, t.annotations, t.concurrencySafe])).toEqual([
      ['classic', { readOnlyHint: false, title: 'Claims' }, false],
      ['exec', { readOnlyHint: false, title: 'Claims' }, false],
      ['vouched', { readOnlyHint: true, title: 'Claims' }, false],
      ['trusted', { readOnlyHint: true, title: 'Claims' }, true],
    ]);
  });
});
