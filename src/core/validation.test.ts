import { describe, expect, it } from 'vitest';
import precompiledBuiltins, { checks as precompiledChecks } from '../tools/generated/validators.js';
import type { JsonSchema } from './types.js';
import {
  compileValidator,
  formatValidationErrors,
  precompiledValidator,
  stripAnnotations,
  validatorCheck,
  validatorKey,
  type ArgumentValidator,
} from './validation.js';

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

  it('says the allowed arguments once for several unknown ones of one object', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'], additionalProperties: false } as const;
    expect(await problems(schema, { town: 'x', weeks: 2 })).toBe('missing required argument "city"; unknown arguments "town", "weeks"; allowed: city, days');
    expect(await problems(schema, { city: 'x', a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1 })).toBe('unknown arguments "a", "b", "c", "d", "e" and 2 more; allowed: city, days');
    const nested = { type: 'object', properties: { opts: { type: 'object', properties: { x: { type: 'integer' } }, additionalProperties: false } }, additionalProperties: false } as const;
    expect(await problems(nested, { y: 1, opts: { z: 1, w: 2 } })).toBe('unknown argument "y"; allowed: opts; unknown arguments "z", "w" in /opts; allowed: x');
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

describe('stripAnnotations', () => {
  it('drops annotations at every depth and keeps property names, enum and const values and unknown keywords', () => {
    const schema = {
      title: 'T',
      description: 'top',
      type: 'object',
      properties: {
        description: { type: 'string', description: 'a property named description', default: 'x' },
        title: { enum: [{ description: 'data' }], examples: ['a'] },
        list: { type: 'array', items: { type: 'integer', $comment: 'c' }, deprecated: true },
      },
      anyOf: [{ required: ['description'], readOnly: true }, { not: { const: { title: 'data' }, writeOnly: true } }],
      $defs: { d: { type: 'number', description: 'gone' } },
      dependencies: { description: ['title'], title: { description: 'gone', required: ['list'] } },
      'x-vendor': { description: 'unknown keyword: kept' },
    };
    expect(stripAnnotations(schema)).toEqual({
      type: 'object',
      properties: {
        description: { type: 'string' },
        title: { enum: [{ description: 'data' }] },
        list: { type: 'array', items: { type: 'integer' } },
      },
      anyOf: [{ required: ['description'] }, { not: { const: { title: 'data' } } }],
      $defs: { d: { type: 'number' } },
      dependencies: { description: ['title'], title: { required: ['list'] } },
      'x-vendor': { description: 'unknown keyword: kept' },
    });
    expect(schema.properties.description.description).toBe('a property named description');
  });
});

describe('validatorKey', () => {
  it('is 16 hex digits, the same for schemas that differ only in annotations, different otherwise', () => {
    const base = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] };
    const key = validatorKey(base);
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(validatorKey({ ...base, description: 'reworded', properties: { n: { type: 'integer', minimum: 1, title: 'N' } } })).toBe(key);
    expect(validatorKey({ ...base, properties: { n: { type: 'integer', minimum: 2 } } })).not.toBe(key);
    expect(validatorKey({ ...base, properties: { m: { type: 'integer', minimum: 1 } } })).not.toBe(key);
    // A declared property named __proto__ counts (JSON.parse makes it an own property).
    expect(validatorKey(JSON.parse('{"type":"object","properties":{"n":{"type":"integer","minimum":1},"__proto__":{"type":"string"}},"required":["n"]}'))).not.toBe(key);
    expect(JSON.stringify(stripAnnotations(JSON.parse('{"properties":{"__proto__":{"type":"string","description":"d"}}}')))).toBe('{"properties":{"__proto__":{"type":"string"}}}');
  });
});

describe('validatorCheck', () => {
  it('is the key text length and 8 hex digits of a third lane, the same for schemas that differ only in annotations', () => {
    const base = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] };
    const text = JSON.stringify(base);
    expect(validatorCheck(base)).toMatch(new RegExp(`^${text.length}:[0-9a-f]{8}$`));
    expect(validatorCheck({ ...base, description: 'reworded' })).toBe(validatorCheck(base));
    expect(validatorCheck({ ...base, properties: { n: { type: 'integer', minimum: 2 } } })).not.toBe(validatorCheck(base));
    expect(validatorKey(base).slice(0, 8)).not.toBe(validatorCheck(base).split(':')[1]);
  });
});

describe('precompiledValidator', () => {
  it("does not give a schema whose key collides with a built-in's that built-in's validator: it compiles its own", async () => {
    const builtins = precompiledBuiltins as Record<string, ArgumentValidator>;
    const checks = precompiledChecks as Record<string, string>;
    const generated = { validators: builtins, checks };
    const [builtinKey] = Object.keys(builtins) as [string];
    const other = builtins[builtinKey]!;
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false };
    const key = validatorKey(schema);
    expect(Object.hasOwn(builtins, key)).toBe(false);
    // The table now holds the built-in's validator and check under this schema's key: a collision.
    builtins[key] = other;
    checks[key] = checks[builtinKey]!;
    try {
      expect(precompiledValidator(schema, generated)).toBe(undefined);
      const validate = await compileValidator('t', schema, 'parameters', generated);
      expect(validate).not.toBe(other);
      expect(validate({ n: 1 })).toBe(true);
      expect(validate({ n: 'x' })).toBe(false);
      // The same entry with this schema's own check is taken: the lookup reached it above.
      checks[key] = validatorCheck(schema);
      expect(precompiledValidator(schema, generated)).toBe(other);
    } finally {
      delete builtins[key];
      delete checks[key];
    }
  });
});
