import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import * as v from 'valibot';
import { toJsonSchema, toStandardJsonSchema } from '@valibot/to-json-schema';
import type { StandardSchemaV1 as SpecStandardSchemaV1 } from '@standard-schema/spec';
import { ToolRunner } from '../src/runner.js';
import { defineTool, type Tool, type ToolContext } from '../src/core/tool.js';
import { isStandardSchema, type StandardSchemaV1 } from '../src/core/standard-schema.js';

const weatherZod = z.object({
  city: z.string().min(2, 'city needs at least 2 letters'),
  days: z.number().int().max(7).default(1),
  units: z.enum(['c', 'f']).optional(),
  when: z.string().transform((text) => text.toUpperCase()),
});

describe('Standard Schema interface', () => {
  it('accepts what the official @standard-schema/spec types describe', () => {
    expectTypeOf<SpecStandardSchemaV1<{ a: string }>>().toExtend<StandardSchemaV1<{ a: string }>>();
    expect(isStandardSchema(weatherZod)).toBe(true);
    expect(isStandardSchema(v.object({}))).toBe(true);
    expect(isStandardSchema({ type: 'object' })).toBe(false);
  });
});

describe('a zod 4 tool', () => {
  const seen: unknown[] = [];
  const tool = defineTool({
    name: 'weather',
    description: 'Weather for a city.',
    inputSchema: weatherZod,
    annotations: { readOnlyHint: true, openWorldHint: true, title: 'Weather' },
    execute: async (input, ctx) => {
      expectTypeOf(input).toEqualTypeOf<{ city: string; days: number; units?: 'c' | 'f' | undefined; when: string }>();
      expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
      seen.push(input);
      return { city: input.city, days: input.days, when: input.when, conversation: ctx.conversationId };
    },
  });

  it('declares the JSON Schema zod derives, closed to unknown arguments', () => {
    const runner = new ToolRunner({ tools: [tool] });
    expect(runner.declarations()).toEqual([
      {
        name: 'weather',
        description: 'Weather for a city.',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string', minLength: 2 },
            days: { type: 'integer', maximum: 7, default: 1, minimum: -9007199254740991 },
            units: { type: 'string', enum: ['c', 'f'] },
            when: { type: 'string' },
          },
          required: ['city', 'when'],
          additionalProperties: false,
        },
      },
    ]);
    expect(runner.tools()[0]?.annotations).toEqual({ readOnlyHint: true, openWorldHint: true, title: 'Weather' });
  });

  it('keeps a loose object open', () => {
    const runner = new ToolRunner({
      tools: [defineTool({ name: 'loose', description: '', inputSchema: z.looseObject({ a: z.string() }), execute: (input) => input })],
    });
    expect(runner.declarations()[0]?.parameters).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: {} });
  });

  it('validates with zod: defaults and transforms reach execute, a refinement failure is invalid_arguments naming the field', async () => {
    const runner = new ToolRunner({ tools: [tool] });
    expect(await runner.execute('weather', { city: 'Oslo', when: 'today' })).toEqual({ city: 'Oslo', days: 1, when: 'TODAY', conversation: 'default' });
    expect(seen.at(-1)).toEqual({ city: 'Oslo', days: 1, when: 'TODAY' });
    const results = await runner.processToolCalls([
      { id: 'a', name: 'weather', args: { city: 'O', when: 'now' } },
      { id: 'b', name: 'weather', args: { city: 'Oslo', when: 'now', days: '3' } },
      { id: 'c', name: 'weather', args: { city: 'Oslo', when: 'now', days: 9 } },
    ]);
    expect(results).toEqual([
      { id: 'a', name: 'weather', code: 'invalid_arguments', error: 'invalid arguments for weather: city needs at least 2 letters' },
      // The model's numbers-as-strings slip is coerced before zod validates, as for a JSON Schema.
      { id: 'b', name: 'weather', result: { city: 'Oslo', days: 3, when: 'NOW', conversation: 'default' } },
      { id: 'c', name: 'weather', code: 'invalid_arguments', error: 'invalid arguments for weather: days: Too big: expected number to be <=7' },
    ]);
  });

  it('checks the output against a zod outputSchema: a mismatch is execution_failed', async () => {
    const liar = defineTool({
      name: 'liar',
      description: '',
      inputSchema: z.object({ n: z.number() }),
      outputSchema: z.object({ doubled: z.number() }),
      execute: ({ n }) => (n > 0 ? { doubled: n * 2 } : { doubled: 'none' }),
    });
    const runner = new ToolRunner({ tools: [liar] });
    expect(runner.tools()[0]?.outputSchema).toEqual({ type: 'object', properties: { doubled: { type: 'number' } }, required: ['doubled'], additionalProperties: false });
    expect(await runner.execute('liar', { n: 2 })).toEqual({ doubled: 4 });
    await expect(runner.execute('liar', { n: -1 })).rejects.toMatchObject({
      code: 'execution_failed',
      message: "liar's output broke its outputSchema: doubled: Invalid input: expected number, received string; the tool must return what its outputSchema describes",
    });
  });
});

describe('a valibot tool', () => {
  const schema = v.object({
    path: v.pipe(v.string(), v.minLength(1), v.endsWith('.md', 'path must end in .md')),
    count: v.pipe(v.string(), v.transform((text) => text.length)),
  });

  it('derives its JSON Schema through toStandardJsonSchema, or takes it as jsonSchema', async () => {
    const wrapped = defineTool({ name: 'notes', description: 'Notes.', inputSchema: toStandardJsonSchema(schema), execute: (input) => input });
    const explicit = defineTool({ name: 'notes2', description: 'Notes.', inputSchema: schema, jsonSchema: toJsonSchema(schema, { errorMode: 'ignore' }), execute: (input) => input });
    const runner = new ToolRunner({ tools: [wrapped, explicit] });
    const expected = {
      type: 'object',
      properties: { path: { type: 'string', minLength: 1, pattern: '\\.md$' }, count: { type: 'string' } },
      required: ['path', 'count'],
    };
    expect(runner.declarations().map((d) => d.parameters)).toEqual([expected, expected]);
    expectTypeOf(explicit.execute).parameter(0).toEqualTypeOf<{ path: string; count: number }>();
  });

  it('validates with valibot: transforms reach execute, a failure names the field with valibot\'s message', async () => {
    const runner = new ToolRunner({
      tools: [defineTool({ name: 'notes', description: '', inputSchema: toStandardJsonSchema(schema), execute: (input) => input })],
    });
    expect(await runner.execute('notes', { path: 'a.md', count: 'abc' })).toEqual({ path: 'a.md', count: 3 });
    await expect(runner.execute('notes', { path: 'a.txt', count: '' })).rejects.toMatchObject({
      code: 'invalid_arguments',
      message: 'invalid arguments for notes: path must end in .md',
    });
  });

  it('refuses a schema that cannot describe itself, naming the tool', () => {
    expect(() => new ToolRunner({ tools: [defineTool({ name: 'bare', description: '', inputSchema: schema, execute: (input) => input })] })).toThrow(
      new TypeError(
        'tool bare: its valibot schema cannot describe itself as JSON Schema (no ~standard.jsonSchema); pass the JSON Schema as jsonSchema (valibot: toJsonSchema(schema) from @valibot/to-json-schema, or wrap the schema in its toStandardJsonSchema)',
      ),
    );
  });
});

describe("a Standard Schema's issues, worded as the JSON Schema problems", () => {
  const editsJson = {
    type: 'object',
    properties: { edits: { type: 'array', items: { type: 'object', properties: { old_string: { type: 'string' } }, required: ['old_string'] } } },
    required: ['edits'],
  } as const;

  it('name the argument as a JSON Schema names it (edits[0].old_string, never /edits/0/old_string) and keep zod\'s message', async () => {
    const runner = new ToolRunner({
      tools: [
        defineTool({ name: 'edit_json', description: '', inputSchema: editsJson, execute: () => 'ok' }),
        defineTool({ name: 'edit_zod', description: '', inputSchema: z.object({ edits: z.array(z.object({ old_string: z.string() })) }), execute: () => 'ok' }),
      ],
    });
    const results = await runner.processToolCalls([
      { name: 'edit_json', args: { edits: [{ old_string: 5 }] } },
      { name: 'edit_zod', args: { edits: [{ old_string: 5 }] } },
      { name: 'edit_zod', args: { edits: 'none' } },
    ]);
    expect(results.map((r) => ('error' in r ? r.error : r))).toEqual([
      'invalid arguments for edit_json: edits[0].old_string must be a string, not a number',
      'invalid arguments for edit_zod: edits[0].old_string: Invalid input: expected string, received number',
      'invalid arguments for edit_zod: edits: Invalid input: expected array, received string',
    ]);
  });

  it("word any library's issues the same way: keys or { key } segments, the root as arguments, a long key cut", async () => {
    const longKey = 'k'.repeat(300);
    const issues = [
      { message: 'Too long', path: [{ key: 'edits' }, { key: 0 }, { key: 'new_string' }] },
      { message: 'Required', path: ['a/b', 2] },
      { message: 'Expected an object' },
      { message: '', path: ['x'] },
      { message: 'mode must be "fast" or "slow"', path: ['mode'] },
      { message: 'Unknown key', path: [longKey] },
      { message: 'Too long', path: ['edits', 0, 'new_string'] },
    ];
    const handmade: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'handmade', validate: () => ({ issues }) } };
    const runner = new ToolRunner({
      tools: [defineTool({ name: 'handmade', description: '', inputSchema: handmade, jsonSchema: { type: 'object' }, execute: () => 'ok' })],
    });
    await expect(runner.execute('handmade', {})).rejects.toMatchObject({
      code: 'invalid_arguments',
      message:
        'invalid arguments for handmade: edits[0].new_string: Too long; a/b[2]: Required; arguments: Expected an object; x is invalid; ' +
        `mode must be "fast" or "slow"; and 1 more`,
    });
    const one = (issue: (typeof issues)[number]): StandardSchemaV1 => ({ '~standard': { version: 1, vendor: 'handmade', validate: () => ({ issues: [issue] }) } });
    const runOne = new ToolRunner({
      tools: [defineTool({ name: 'one', description: '', inputSchema: one(issues[5] as (typeof issues)[number]), jsonSchema: { type: 'object' }, execute: () => 'ok' })],
    });
    await expect(runOne.execute('one', {})).rejects.toMatchObject({ message: `invalid arguments for one: ${'k'.repeat(200)}… (100 more characters): Unknown key` });
    const output = new ToolRunner({
      tools: [defineTool({ name: 'out', description: '', inputSchema: { type: 'object' }, outputSchema: one(issues[2] as (typeof issues)[number]), execute: () => 'ok' })],
    });
    await expect(output.execute('out', {})).rejects.toMatchObject({
      code: 'execution_failed',
      message: "out's output broke its outputSchema: result: Expected an object; the tool must return what its outputSchema describes",
    });
  });
});

describe('a JSON Schema in draft 2020-12', () => {
  it('validates z.toJSONSchema() output (draft 2020-12): as zod gives it, and as plain JSON with ajv\'s 2020 dialect', async () => {
    const generated = z.toJSONSchema(z.object({ pair: z.tuple([z.string(), z.number()]), tag: z.string().optional() }));
    expect(generated.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    // zod's output also carries a hidden ~standard (it validates itself); a copy read from a file does not.
    const plain = JSON.parse(JSON.stringify(generated)) as Record<string, unknown>;
    expect(plain.properties).toEqual({
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 2, maxItems: 2 },
      tag: { type: 'string' },
    });
    const runner = await ToolRunner.create({
      tools: [
        defineTool({ name: 'pairs', description: '', inputSchema: plain, execute: (input) => input }),
        defineTool({ name: 'pairs_zod', description: '', inputSchema: generated, execute: (input) => input }),
      ],
    });
    expect(runner.declarations()[0]?.parameters).toEqual(plain);
    expect(await runner.execute('pairs', { pair: ['a', 1] })).toEqual({ pair: ['a', 1] });
    expect(await runner.execute('pairs_zod', { pair: ['a', 1] })).toEqual({ pair: ['a', 1] });
    const results = await runner.processToolCalls([
      { name: 'pairs', args: { pair: [1, 'a'] } },
      { name: 'pairs', args: { pair: ['a', 1], extra: true } },
      { name: 'pairs_zod', args: { pair: [1, 2] } },
    ]);
    expect(results).toEqual([
      { name: 'pairs', code: 'invalid_arguments', error: 'invalid arguments for pairs: pair[0] must be a string, not a number; pair[1] must be a number, not a string' },
      { name: 'pairs', code: 'invalid_arguments', error: 'invalid arguments for pairs: unknown argument "extra"; allowed: pair, tag' },
      { name: 'pairs_zod', code: 'invalid_arguments', error: 'invalid arguments for pairs_zod: pair[0]: Invalid input: expected string, received number' },
    ]);
  });

  it('uses the 2020 dialect for its keywords even without $schema (dependentRequired, prefixItems)', async () => {
    const runner = await ToolRunner.create({
      tools: [
        defineTool({
          name: 'later',
          description: '',
          inputSchema: { type: 'object', properties: { a: {}, b: {}, t: { type: 'array', prefixItems: [{ type: 'string' }] } }, dependentRequired: { a: ['b'] } },
          execute: () => 'ok',
        }),
      ],
    });
    const results = await runner.processToolCalls([
      { name: 'later', args: { a: 1 } },
      { name: 'later', args: { t: [1] } },
      { name: 'later', args: { a: 1, b: 2, t: ['x'] } },
    ]);
    expect(results).toEqual([
      { name: 'later', code: 'invalid_arguments', error: 'invalid arguments for later: arguments must have property b when property a is present' },
      { name: 'later', code: 'invalid_arguments', error: 'invalid arguments for later: t[0] must be a string, not a number' },
      { name: 'later', result: 'ok' },
    ]);
  });
});

describe('execute-form and classic tools side by side', () => {
  it('run in one runner, each with its own shape, context and state', async () => {
    const classic: Tool<{ n: number }> = {
      name: 'classic_counter',
      description: 'Counts (classic form).',
      parameters: JSON.stringify({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }),
      needsContext: true,
      async call() {
        return null;
      },
      async callWithContext(args, ctx) {
        const count = (ctx.getState<number>('count') ?? 0) + args.n;
        ctx.setState('count', count);
        return { count };
      },
    };
    const modern = defineTool({
      name: 'modern_counter',
      description: 'Counts (execute form).',
      inputSchema: z.object({ n: z.number().int() }),
      execute: ({ n }, ctx) => {
        const count = (ctx.getState<number>('count') ?? 0) + n;
        ctx.setState('count', count);
        return { count };
      },
    });
    const runner = new ToolRunner({ tools: [classic, modern] });
    const results = await runner.processToolCalls([
      { id: '1', name: 'classic_counter', args: { n: 1 } },
      { id: '2', name: 'modern_counter', args: { n: 10 } },
      { id: '3', name: 'classic_counter', args: { n: '100' } },
    ]);
    expect(results).toEqual([
      { id: '1', name: 'classic_counter', result: { count: 1 } },
      { id: '2', name: 'modern_counter', result: { count: 11 } },
      { id: '3', name: 'classic_counter', result: { count: 111 } },
    ]);
    expect(await runner.platform.state.get('default', 'count')).toBe(111);
    expect(runner.tools().map((t) => [t.name, t.annotations.readOnlyHint, t.concurrencySafe])).toEqual([
      ['classic_counter', false, false],
      ['modern_counter', false, false],
    ]);
  });
});
