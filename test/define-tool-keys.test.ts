import { describe, expect, it } from 'vitest';
import * as z3 from 'zod/v3';
import { defineTool, ToolRunner } from '../src/index.js';

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;

/** The TypeError `fn` throws (fails the test when it throws nothing, or something else). */
function typeErrorOf(fn: () => unknown): TypeError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return error as TypeError;
  }
  throw new Error('expected a TypeError, nothing was thrown');
}

describe('defineTool refuses keys its form does not take, saying what was meant', () => {
  it('input_schema (the Anthropic API spelling) beside execute: did you mean inputSchema?', () => {
    const error = typeErrorOf(() => defineTool({ name: 'get_weather', description: 'd', input_schema: schema, execute: () => 1 } as never));
    expect(error.message).toBe('defineTool(get_weather): input_schema is not an option (did you mean inputSchema?)');
  });

  it('parameters beside execute: give the schema as inputSchema', () => {
    const error = typeErrorOf(() => defineTool({ name: 'get_weather', description: 'd', parameters: schema, execute: () => 1 } as never));
    expect(error.message).toBe(
      'defineTool(get_weather): parameters goes with call; with execute, give the schema as inputSchema',
    );
  });

  it('readOnly beside execute: annotations: { readOnlyHint: true }', () => {
    const error = typeErrorOf(() => defineTool({ name: 'w', description: 'd', inputSchema: schema, readOnly: true, execute: () => 1 } as never));
    expect(error.message).toBe(
      'defineTool(w): readOnly goes with call; with execute, use annotations: { readOnlyHint: true }',
    );
  });

  it('a misspelled key of the classic form, and a key it does not take, listing its options', () => {
    expect(typeErrorOf(() => defineTool({ name: 'c', description: 'd', parameters: schema, readonly: true, call: async () => 1 } as never)).message).toBe(
      'defineTool(c): readonly is not an option (did you mean readOnly?)',
    );
    expect(typeErrorOf(() => defineTool({ name: 'c', description: 'd', parameters: schema, jsonSchema: {}, call: async () => 1 } as never)).message).toBe(
      'defineTool(c): jsonSchema is not an option (the options are name, description, parameters, readOnly, concurrencySafe, needsContext, annotations, isReadOnlyCall, outputSchema, call, callWithContext)',
    );
    expect(typeErrorOf(() => defineTool({ name: 'c', description: 'd', parameters: schema, zzz: 1, call: async () => 1 } as never)).message).toBe(
      'defineTool(c): zzz is not an option (the options are name, description, parameters, readOnly, concurrencySafe, needsContext, annotations, isReadOnlyCall, outputSchema, call, callWithContext)',
    );
  });

  it('still takes every documented key of both forms, and keys left undefined', () => {
    const execute = defineTool({
      name: 'e',
      description: 'd',
      inputSchema: schema,
      jsonSchema: undefined,
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      isReadOnlyCall: () => true,
      concurrencySafe: true,
      execute: ({ city }) => ({ city }),
    });
    expect(execute.name).toBe('e');
    const classic = defineTool({
      name: 'c',
      description: 'd',
      parameters: schema,
      readOnly: true,
      concurrencySafe: true,
      needsContext: false,
      annotations: {},
      isReadOnlyCall: () => true,
      outputSchema: { type: 'object' },
      call: async () => ({}),
      callWithContext: async () => ({}),
    });
    expect(classic.readOnly).toBe(true);
  });
});

describe('a zod 3 schema is refused with the zod advice, not the valibot one', () => {
  it('zod 3.24+ (a Standard Schema without JSON Schema output): use zod 4.2 or later, or pass jsonSchema', () => {
    const tool = defineTool({ name: 'old_zod', description: 'd', inputSchema: z3.object({ city: z3.string() }), execute: (input) => input });
    const error = typeErrorOf(() => new ToolRunner({ tools: [tool] }));
    expect(error.message).toContain(
      "tool old_zod: its input schema is a zod 3 schema, which has no JSON Schema output (~standard.jsonSchema) to show the model; use zod 4.2 or later (npm install zod@^4.2; import from 'zod', not 'zod/v3'), or pass its JSON Schema as jsonSchema",
    );
    expect(error.message).not.toContain('valibot');
  });

  it('zod 3 with jsonSchema given is taken, and zod 3 validates', async () => {
    const tool = defineTool({
      name: 'old_zod',
      description: 'd',
      inputSchema: z3.object({ city: z3.string().min(2) }),
      jsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: (input) => input,
    });
    const runner = new ToolRunner({ tools: [tool] });
    expect(await runner.execute('old_zod', { city: 'Oslo' })).toEqual({ city: 'Oslo' });
    await expect(runner.execute('old_zod', { city: 'O' })).rejects.toMatchObject({ code: 'invalid_arguments' });
  });

  it('a zod 3 schema from before 3.24 (no ~standard) is not taken for a JSON Schema object', () => {
    const legacy = z3.object({ city: z3.string() });
    const bare = Object.create(Object.getPrototypeOf(legacy), Object.getOwnPropertyDescriptors(legacy));
    Object.defineProperty(bare, '~standard', { value: undefined });
    const error = typeErrorOf(() => defineTool({ name: 'older', description: 'd', inputSchema: bare, execute: () => 1 }));
    expect(error.message).toBe(
      "defineTool(older): inputSchema is a zod 3 schema from before 3.24, which is not a Standard Schema; use zod 4.2 or later (npm install zod@^4.2; import from 'zod', not 'zod/v3'), or pass its JSON Schema as jsonSchema",
    );
  });
});
