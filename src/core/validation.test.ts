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
    expect(await problems(nested, { y: 1, opts: { z: 1, w: 2 } })).toBe('unknown argument "y"; allowed: opts; unknown arguments "z", "w" in opts; allowed: x');
  });

  it('cuts a long pointer into the arguments to 200 characters', async () => {
    const schema = {
      type: 'object',
      properties: { tags: { type: 'object', additionalProperties: { type: 'integer' } } },
    } as const;
    const key = 'g'.repeat(10_000);
    expect(await problems(schema, { tags: { [key]: 'x' } })).toBe(
      `tags.${'g'.repeat(195)}… (9805 more characters) must be an integer`,
    );
  });

  it('never repeats a value the model sent', async () => {
    const schema = { type: 'object', properties: { mode: { enum: ['a', 'b'] }, n: { type: 'integer' } } } as const;
    expect(await problems(schema, { mode: 'm'.repeat(100_000), n: 'n'.repeat(100_000) })).toBe(
      'mode must be one of: "a", "b"; n must be an integer',
    );
  });
});

describe('formatValidationErrors: words for the model', () => {
  async function said(schema: JsonSchema, args: unknown, advice = true): Promise<string> {
    const validate = await compileValidator('t', schema);
    expect(validate(args)).toBe(false);
    return formatValidationErrors(validate.errors ?? [], schema, { data: args, advice });
  }

  it('names the argument, what it is for (its description) and what was sent instead', async () => {
    const schema = { type: 'object', properties: { file_path: { type: 'string', description: 'The file to read: an absolute path.' }, n: { type: 'integer' } } } as const;
    expect(await said(schema, { file_path: 3 })).toBe('file_path must be a string (the file to read), not a number');
    expect(await said(schema, { n: 'x' })).toBe('n must be an integer, not a string');
    expect(await said(schema, { n: [1] })).toBe('n must be an integer, not an array');
    expect(await said(schema, { n: null })).toBe('n must be an integer, not null');
    expect(await said({ type: 'object', properties: { on: { type: ['boolean', 'null'] } } }, { on: 'yes' })).toBe('on must be true or false or null, not a string');
  });

  it('says an empty string or list must not be empty and what to give, and other lengths in words', async () => {
    const schema = {
      type: 'object',
      properties: { command: { type: 'string', minLength: 1, description: 'The shell command line to run (e.g. `ls`).' }, city: { type: 'string', minLength: 2, maxLength: 3 }, tags: { type: 'array', minItems: 1, maxItems: 1 } },
    } as const;
    expect(await said(schema, { command: '' })).toBe('command must not be empty; give the shell command line to run');
    expect(await said(schema, { city: 'x' })).toBe('city must have at least 2 characters');
    expect(await said(schema, { city: 'xxxx' })).toBe('city must have at most 3 characters');
    expect(await said(schema, { tags: [] })).toBe('tags must not be empty');
    expect(await said(schema, { tags: [1, 2] })).toBe('tags must have at most 1 item');
  });

  it('says what a missing argument is for, nested names as the model wrote them, and no advice when asked for none', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string', description: 'The city to look up.' }, edits: { type: 'array', items: { type: 'object', properties: { old: { type: 'string', description: 'The text to replace' } } } } },
      required: ['city'],
    } as const;
    expect(await said(schema, { edits: [{ old: 1 }] })).toBe('missing required argument "city" (the city to look up); edits[0].old must be a string (the text to replace), not a number');
    expect(await said(schema, { edits: [{ old: 1 }] }, false)).toBe('missing required argument "city"; edits[0].old must be a string, not a number');
  });

  it('leaves out a description that is no short noun phrase', async () => {
    const schema = { type: 'object', properties: { timeout_ms: { type: 'integer', description: 'Kill the command after this many ms.' } } } as const;
    expect(await said(schema, { timeout_ms: 'x' })).toBe('timeout_ms must be an integer, not a string');
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
