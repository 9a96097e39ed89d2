import { describe, expect, it } from 'vitest';
import type { JsonSchema } from './types.js';
import { compileValidator, formatValidationErrors } from './validation.js';

async function problems(schema: JsonSchema, args: unknown): Promise<string> {
  const validate = await compileValidator('t', schema);
  expect(validate(args)).toBe(false);
  return formatValidationErrors(validate.errors ?? [], schema);
}

describe('formatValidationErrors', () => {
  it('cuts an unknown argument name the model sent to 200 characters', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false } as const;
    expect(await problems(schema, { ['k'.repeat(100_000)]: 1 })).toBe(
      `unknown argument "${'k'.repeat(200)}…" (99800 more characters); allowed: city`,
    );
  });

  it('cuts a long pointer into the arguments to 200 characters', async () => {
    const schema = {
      type: 'object',
      properties: { tags: { type: 'object', additionalProperties: { type: 'integer' } } },
    } as const;
    const key = 'g'.repeat(10_000);
    expect(await problems(schema, { tags: { [key]: 'x' } })).toBe(
      `/tags/${'g'.repeat(194)}… (9806 more characters) must be integer`,
    );
  });

  it('never repeats a value the model sent', async () => {
    const schema = { type: 'object', properties: { mode: { enum: ['a', 'b'] }, n: { type: 'integer' } } } as const;
    expect(await problems(schema, { mode: 'm'.repeat(100_000), n: 'n'.repeat(100_000) })).toBe(
      '/mode must be one of: "a", "b"; /n must be integer',
    );
  });
});
