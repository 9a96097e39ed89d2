import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineTool } from '../src/index.js';
import type { InferArgs } from '../src/core/tool.js';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    units: { enum: ['c', 'f'] },
    days: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
    detail: { type: 'object', properties: { hourly: { type: 'boolean' } }, required: ['hourly'] },
  },
  required: ['city'],
  additionalProperties: false,
} as const;

describe('defineTool', () => {
  it('infers the argument type from a schema written as const', () => {
    // Checked by `npm run typecheck` (tsc over test/): a wrong inference fails the build.
    expectTypeOf<InferArgs<typeof schema>>().toEqualTypeOf<{
      city: string;
      units?: 'c' | 'f';
      days?: number;
      tags?: string[];
      detail?: { hourly: boolean };
    }>();
    expectTypeOf<InferArgs<'{"type":"object"}'>>().toEqualTypeOf<unknown>();
    const tool = defineTool({ name: 'w', description: '', parameters: schema, call: async (args) => args.city.length });
    expectTypeOf(tool.call).parameter(0).toEqualTypeOf<InferArgs<typeof schema>>();
  });

  it('fills the defaults: readOnly false, concurrencySafe from readOnly, needsContext from callWithContext', async () => {
    const plain = defineTool({ name: 'a', description: 'A', parameters: schema, call: async () => 1 });
    expect([plain.readOnly, plain.concurrencySafe, plain.needsContext]).toEqual([false, false, false]);
    const reader = defineTool({ name: 'b', description: 'B', parameters: schema, readOnly: true, call: async () => 1 });
    expect([reader.readOnly, reader.concurrencySafe]).toEqual([true, true]);
    const unsafeReader = defineTool({ name: 'c', description: '', parameters: schema, readOnly: true, concurrencySafe: false, call: async () => 1 });
    expect(unsafeReader.concurrencySafe).toBe(false);
    const withCtx = defineTool({ name: 'd', description: '', parameters: schema, callWithContext: async () => 'ctx' });
    expect(withCtx.needsContext).toBe(true);
    await expect(withCtx.call({ city: 'x' })).rejects.toThrow('d needs a ToolContext: call it through a ToolRunner');
    expect(() => defineTool({ name: 'e', description: '', parameters: schema } as never)).toThrow(
      new TypeError(
        'defineTool(e): missing call (or callWithContext); the classic form is defineTool({ name, description, parameters, call(args) }), with callWithContext(args, ctx) for a tool that needs its context',
      ),
    );
  });
});
