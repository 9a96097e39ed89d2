import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromClassicTool } from '../src/core/classic-tool.js';
import { createToolEntry } from '../src/core/entry.js';
import { ToolRunner, defineTool, type Tool, type ToolContext } from '../src/index.js';
import { Agent } from '../src/agent/index.js';
import { BuiltinTools } from '../src/tools/index.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { textEditorTool } from '../src/tools/profiles/anthropic.js';
import { webFetchTool } from '../src/tools/web-fetch.js';
import { webSearchFallbackTool } from '../src/tools/web-search.js';

const ROOT = join(import.meta.dirname, '..');
const CLASSIC_KEYS = ['parameters', 'call', 'callWithContext', 'needsContext', 'readOnly'];

/** Every tool toolhost ships: the built-ins, web_fetch, the web_search fallback, and every profile's tools (the Gemini aliases and a text editor with a view cap included). */
function shippedTools(): Array<{ where: string; tool: object }> {
  const lists: Record<string, readonly object[]> = {
    builtins: [...BuiltinTools.all(), webFetchTool, webSearchFallbackTool],
    toolhost: toolProfiles.toolhost(),
    anthropic: [...toolProfiles.anthropic(), textEditorTool({ maxCharacters: 100 })],
    openai: toolProfiles.openai(),
    gemini: toolProfiles.gemini(),
    geminiWithoutAliases: toolProfiles.gemini({ aliases: false }),
  };
  return Object.entries(lists).flatMap(([where, tools]) => tools.map((tool) => ({ where, tool })));
}

describe('the one tool shape', () => {
  it('every built-in and profile tool is { name, description, inputSchema, annotations with a boolean readOnlyHint, execute } with no classic key', () => {
    const shipped = shippedTools();
    expect(shipped.length).toBeGreaterThanOrEqual(30);
    const problems: string[] = [];
    for (const { where, tool } of shipped) {
      const t = tool as Record<string, unknown>;
      const label = `${where}/${String(t.name)}`;
      if (typeof t.name !== 'string' || typeof t.description !== 'string') problems.push(`${label}: name or description`);
      if (typeof t.inputSchema !== 'object' || t.inputSchema === null) problems.push(`${label}: no inputSchema`);
      if (typeof (t.annotations as { readOnlyHint?: unknown } | undefined)?.readOnlyHint !== 'boolean') problems.push(`${label}: no boolean annotations.readOnlyHint`);
      if (typeof t.execute !== 'function') problems.push(`${label}: no execute`);
      for (const key of CLASSIC_KEYS) if (key in t) problems.push(`${label}: has ${key}`);
    }
    expect(problems).toEqual([]);
  });

  it('a tool that differs per call keeps one name for the refinement, isReadOnlyCall (the text editor: view is read-only, create is not)', () => {
    const editor = textEditorTool();
    expect(editor.annotations?.readOnlyHint).toBe(false);
    expect([editor.isReadOnlyCall?.({ command: 'view', path: '/workspace' }), editor.isReadOnlyCall?.({ command: 'create', path: '/workspace/a', file_text: '' })]).toEqual([true, false]);
  });
});

describe('the classic form goes through one adapter at registration', () => {
  const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false } as const;

  it('fromClassicTool gives the execute shape: readOnly becomes annotations.readOnlyHint, concurrency follows it, no classic key is left', () => {
    const classic: Tool = { name: 'double', description: 'doubles', parameters: JSON.stringify(schema), readOnly: true, call: async (args) => (args as { n: number }).n * 2 };
    const { tool, usesContext } = fromClassicTool('double', classic);
    expect(Object.keys(tool).sort()).toEqual(['annotations', 'concurrencySafe', 'description', 'execute', 'inputSchema', 'name']);
    expect([tool.inputSchema, tool.annotations, tool.concurrencySafe, usesContext]).toEqual([schema, { readOnlyHint: true }, true, false]);
  });

  it('a classic read-only tool is read-only for plan mode, a classic mutating one is refused, as an execute tool would be', async () => {
    const reader = defineTool({ name: 'peek', description: '', parameters: schema, readOnly: true, call: async ({ n }) => n });
    const writer = defineTool({ name: 'poke', description: '', parameters: schema, call: async ({ n }) => n });
    {
      const runner = new ToolRunner({ tools: [reader, writer], planMode: true });
      const results = await runner.processToolCalls([{ name: 'peek', args: { n: 1 } }, { name: 'poke', args: { n: 2 } }]);
      expect(results.map((r) => ('code' in r ? r.code : r.result))).toEqual([1, 'permission_denied']);
      expect(runner.tools().map((t) => [t.name, t.annotations.readOnlyHint, t.concurrencySafe])).toEqual([['peek', true, true], ['poke', false, false]]);
    }
  });

  it('a classic needsContext tool gets the context and keeps its this; a call-only class tool keeps its this and gets no context', async () => {
    class Counter implements Tool<Record<string, never>> {
      readonly name = 'count';
      readonly description = 'counts';
      readonly parameters = '{"type":"object"}';
      readonly needsContext = true;
      readonly step = 5;
      async call(): Promise<unknown> {
        return 'call';
      }
      async callWithContext(_args: Record<string, never>, ctx: ToolContext): Promise<unknown> {
        const next = (ctx.getState<number>('n') ?? 0) + this.step;
        ctx.setState('n', next);
        return { next, conversation: ctx.conversationId };
      }
    }
    class Echo implements Tool<{ n: number }> {
      readonly name = 'echo';
      readonly description = 'echoes';
      readonly parameters = schema;
      readonly prefix = 'n=';
      async call(args: { n: number }, ...rest: unknown[]): Promise<unknown> {
        return `${this.prefix}${args.n}; extra arguments: ${rest.length}`;
      }
    }
    const runner = new ToolRunner({ tools: [new Counter(), new Echo()], conversationId: 'c1' });
    expect(await runner.execute('count', {})).toEqual({ next: 5, conversation: 'c1' });
    expect(await runner.execute('count', {})).toEqual({ next: 10, conversation: 'c1' });
    expect(await runner.execute('echo', { n: 3 })).toBe('n=3; extra arguments: 0');
  });

  it('errors stay those of the classic form: bad arguments, a throwing call, a tool without call, parameters that are not JSON', async () => {
    const failing = defineTool({ name: 'fails', description: '', parameters: schema, call: async () => {
      throw new Error('disk on fire');
    } });
    const runner = new ToolRunner({ tools: [failing] });
    const [bad, thrown] = await runner.processToolCalls([{ name: 'fails', args: { n: 'x' } }, { name: 'fails', args: { n: 1 } }]);
    expect(bad).toMatchObject({ code: 'invalid_arguments' });
    expect(thrown).toMatchObject({ code: 'execution_failed', error: expect.stringContaining('disk on fire') });
    expect(() => createToolEntry({ name: 'idle', description: '', parameters: schema } as unknown as Tool)).toThrow(new TypeError('tool idle has neither execute, call nor callWithContext'));
    expect(() => createToolEntry({ name: 'broken', description: '', parameters: '{nope', call: async () => 1 })).toThrow(/^tool broken: parameters is not valid JSON/);
  });

  it('untrusted annotations grant nothing, but a classic readOnly still does; isReadOnlyCall refines per call', async () => {
    const hinted: Tool = { name: 'hinted', description: '', parameters: schema, annotations: { readOnlyHint: true }, annotationsTrusted: false, call: async () => 1 };
    const declared: Tool = { name: 'declared', description: '', parameters: schema, readOnly: true, annotationsTrusted: false, call: async () => 1 };
    const perCall: Tool<{ n: number }> = { name: 'per_call', description: '', parameters: schema, isReadOnlyCall: (args) => args.n === 0, call: async () => 1 };
    const runner = new ToolRunner({ tools: [hinted, declared, perCall], planMode: true });
    expect(runner.tools().map((t) => t.annotations.readOnlyHint)).toEqual([false, true, false]);
    const results = await runner.processToolCalls([
      { name: 'hinted', args: { n: 1 } },
      { name: 'declared', args: { n: 1 } },
      { name: 'per_call', args: { n: 0 } },
      { name: 'per_call', args: { n: 1 } },
    ]);
    expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['permission_denied', 'ok', 'ok', 'permission_denied']);
  });
});

describe('read-only is read from the one shape everywhere', () => {
  it("the agent's readOnly() keeps the read-only tools of a profile and of a custom list, in either form, and drops the rest", () => {
    const schema = { type: 'object' } as const;
    const hinted = defineTool({ name: 'hinted', description: '', inputSchema: schema, annotations: { readOnlyHint: true }, execute: () => 1 });
    const classic = defineTool({ name: 'classic', description: '', parameters: schema, readOnly: true, call: () => 2 });
    const writer = defineTool({ name: 'writer', description: '', inputSchema: schema, execute: () => 3 });
    const custom = Agent.builder().toolProfile([hinted, classic, writer]).readOnly().allowAll().build();
    expect(custom.runner.declarations().map((d) => d.name)).toEqual(['hinted', 'classic', 'finish']);
    const gemini = Agent.builder().toolProfile('gemini').readOnly().allowAll().build();
    expect(gemini.runner.declarations().map((d) => d.name)).toEqual([
      'read_file',
      'read_many_files',
      'glob',
      'list_directory',
      'grep_search',
      'google_web_search',
      'web_fetch',
      'search_file_content',
      'finish',
    ]);
  });
});

/** The product's TypeScript files (tests left out). */
function productFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name === 'generated') return [];
    if (statSync(path).isDirectory()) return productFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the classic form is read in one place', () => {
  it('needsContext and callWithContext appear only in the adapter, the classic type, and the CLI check that reports a refused classic export', () => {
    const allowed = new Set(['src/core/classic-tool.ts', 'src/core/tool.ts', 'node/cli.ts']);
    const found = ['src', 'web', 'node', 'bridges']
      .flatMap((dir) => productFiles(join(ROOT, dir)))
      .filter((file) => /\b(needsContext|callWithContext)\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file).split('\\').join('/'));
    expect(found.filter((file) => !allowed.has(file))).toEqual([]);
    expect(found).toContain('src/core/classic-tool.ts');
  });
});
