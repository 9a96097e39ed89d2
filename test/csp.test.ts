import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from './support/build.js';
import { BuiltinTools } from '../src/tools/index.js';
import { defineTool } from '../src/core/tool.js';
import { precompileValidators } from '../node/precompile.js';

// Validators for schemas known at build time must work where eval is forbidden (a
// strict CSP). V8's --disallow-code-generation-from-strings is that policy on Node: `new Function` and
// `eval` throw EvalError, as under `script-src 'self'` in a browser. The built core (the shared build)
// runs in a child process with the flag.
const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'node_modules', '.cache', 'toolhost-csp');
const CHILD = join(OUT, 'csp-child.mjs');
const VALIDATORS = join(OUT, 'validators.generated.mjs');
/** A draft 2020-12 schema (as z.toJSONSchema writes): precompiled with ajv's 2020 dialect. */
const LATER = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] } },
  additionalProperties: false,
};

const CHILD_SOURCE = `
const LATER = ${JSON.stringify(LATER)};
const { ToolRunner, BuiltinTools, createMemoryPlatform, defineTool, registerPrecompiledValidators } = await import(process.argv[2]);
const out = {};
try {
  new Function('return 1')();
  out.evalBlocked = false;
} catch (error) {
  out.evalBlocked = true;
  out.evalError = error.name;
}
const runner = new ToolRunner({ platform: createMemoryPlatform(), tools: BuiltinTools.all() });
out.names = runner.declarations().map((d) => d.name);
out.create = await runner.processToolCalls([
  { id: 'c', name: 'create_file', args: { file_path: 'notes/a (1).txt', content: 'hello\\nworld\\n' } },
]);
out.view = await runner.processToolCalls([{ id: 'v', name: 'view_file', args: { file_path: '/workspace/notes/a (1).txt' } }]);
out.coerced = await runner.processToolCalls([
  { name: 'view_file', args: { file_path: 'notes/a (1).txt', start_line: '2', end_line: '2' } },
]);
out.bad = await runner.processToolCalls([
  { name: 'view_file', args: { file_path: 'notes/a (1).txt', start_line: 'one' } },
  { name: 'view_file', args: {} },
  { name: 'view_file', args: { file_path: 'notes/a (1).txt', bogus: 1 } },
]);
out.search = await runner.processToolCalls([{ name: 'web_search', args: { query: 'toolhost' } }]);
const schema = { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false };
try {
  await runner.register(defineTool({ name: 'custom_tool', description: 'A tool with a schema unknown at build time.', parameters: schema, call: async ({ n }) => ({ n }) }));
  out.custom = { registered: true, result: await runner.processToolCalls([{ name: 'custom_tool', args: { n: 1 } }]) };
} catch (error) {
  out.custom = { registered: false, name: error.name, code: error.code, message: error.message };
}
// A Standard Schema needs no compile: zod validates without eval.
const z = await import('zod');
try {
  await runner.register(defineTool({ name: 'zod_tool', description: '', inputSchema: z.object({ n: z.number().int().refine((n) => n > 0, 'n must be positive') }), execute: ({ n }) => ({ n }) }));
  out.zod = await runner.processToolCalls([{ name: 'zod_tool', args: { n: 2 } }, { name: 'zod_tool', args: { n: -1 } }]);
} catch (error) {
  out.zod = { name: error.name, message: error.message };
}
// The documented way out: validators generated ahead of time by precompileValidators (toolhost/node).
const { default: validators } = await import(process.argv[3]);
registerPrecompiledValidators(validators);
try {
  await runner.register(defineTool({ name: 'custom_tool', description: 'Now precompiled.', parameters: schema, call: async ({ n }) => ({ n }) }));
  await runner.register(defineTool({ name: 'later_tool', description: 'Draft 2020-12, precompiled.', inputSchema: LATER, execute: (input) => input }));
  out.customPrecompiled = await runner.processToolCalls([
    { name: 'custom_tool', args: { n: 2 } },
    { name: 'custom_tool', args: { n: 'two' } },
    { name: 'later_tool', args: { pair: ['a'] } },
    { name: 'later_tool', args: { pair: [1] } },
  ]);
} catch (error) {
  out.customPrecompiled = { code: error.code, message: error.message };
}
process.stdout.write(JSON.stringify(out));
`;

interface ChildOutput {
  evalBlocked: boolean;
  evalError?: string;
  names: string[];
  create: Array<Record<string, unknown>>;
  view: Array<Record<string, unknown>>;
  coerced: Array<Record<string, unknown>>;
  bad: Array<Record<string, unknown>>;
  search: Array<Record<string, unknown>>;
  custom: { registered: boolean; name?: string; code?: string; message?: string; result?: unknown };
  customPrecompiled: unknown;
  zod: unknown;
}

function runChild(flags: string[]): ChildOutput {
  const child = spawnSync(process.execPath, [...flags, CHILD, pathToFileURL(join(OUT, 'src', 'index.js')).href, pathToFileURL(VALIDATORS).href], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (child.status !== 0) throw new Error(`the CSP child failed (${child.status ?? child.signal}):\n${child.stderr}\n${child.stdout}`);
  return JSON.parse(child.stdout) as ChildOutput;
}

beforeAll(() => {
  // The shared build (dist/, test/support/build.ts), linked into OUT with the package's `imports`: the
  // `#lazy` import (what only some calls need, loaded on demand) resolves to the Node loaders, which
  // import toolhost's own such modules from the files beside them.
  expect(buildPackage('toolhost-csp')).toBe(OUT);
  if (!existsSync(join(OUT, 'src', 'index.js')) || !existsSync(join(OUT, 'src', 'tools', 'generated', 'validators.js'))) {
    throw new Error('the shared build has no core: run npm run build');
  }
  writeFileSync(CHILD, CHILD_SOURCE);
  const schema = { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false };
  writeFileSync(
    VALIDATORS,
    precompileValidators([
      defineTool({ name: 'custom_tool', description: '', parameters: schema, call: async () => null }),
      defineTool({ name: 'later_tool', description: '', inputSchema: LATER, execute: () => null }),
    ]),
  );
}, 120_000);

describe('built-in tools under a policy that forbids eval (node --disallow-code-generation-from-strings)', () => {
  let strict: ChildOutput;
  beforeAll(() => {
    strict = runChild(['--disallow-code-generation-from-strings']);
  }, 60_000);

  it('really blocks code generation from strings', () => {
    expect(strict.evalBlocked).toBe(true);
    expect(strict.evalError).toBe('EvalError');
  });

  it('registers every built-in, validating with the precompiled validators', () => {
    expect(strict.names).toEqual(BuiltinTools.all().map((tool) => tool.name));
  });

  it('runs create_file then view_file', () => {
    expect(strict.create).toEqual([{ id: 'c', name: 'create_file', result: expect.objectContaining({ file_path: '/workspace/notes/a (1).txt' }) }]);
    expect(strict.view[0]).toMatchObject({
      id: 'v',
      name: 'view_file',
      result: { file_path: '/workspace/notes/a (1).txt', content: expect.stringContaining('hello') },
    });
    expect(strict.view[0]).not.toHaveProperty('code');
  });

  it('coerces numbers sent as strings, as without the policy', () => {
    expect(strict.coerced[0]).toMatchObject({ result: { content: 'world', start_line: 2, end_line: 2 } });
  });

  it('turns bad arguments into invalid_arguments with the usual messages', () => {
    const allowed = Object.keys((BuiltinTools.ViewFile.inputSchema as { properties: object }).properties).join(', ');
    expect(strict.bad).toEqual([
      { name: 'view_file', code: 'invalid_arguments', error: 'invalid arguments for view_file: start_line must be an integer, not a string' },
      { name: 'view_file', code: 'invalid_arguments', error: 'invalid arguments for view_file: missing required argument "file_path" (the file to read)' },
      { name: 'view_file', code: 'invalid_arguments', error: `invalid arguments for view_file: unknown argument "bogus"; allowed: ${allowed}` },
    ]);
  });

  it('runs the web_search fallback, whose schema is precompiled too', () => {
    expect(strict.search).toEqual([
      { name: 'web_search', result: { results: [], note: 'Search is not available on the memory platform' } },
    ]);
  });

  it('refuses a custom tool whose schema was not precompiled with a TypeError (the host\'s error) naming the way out', () => {
    expect(strict.custom.registered).toBe(false);
    expect(strict.custom.name).toBe('TypeError');
    expect(strict.custom.code).toBeUndefined();
    expect(strict.custom.message).toMatch(/^tool custom_tool: its parameters schema cannot be compiled here because this environment forbids code generation from strings/);
    expect(strict.custom.message).toContain('precompileValidators');
    expect(strict.custom.message).toContain('registerPrecompiledValidators');
  });

  it('runs a zod tool with no compile at all', () => {
    expect(strict.zod).toEqual([
      { name: 'zod_tool', result: { n: 2 } },
      { name: 'zod_tool', code: 'invalid_arguments', error: 'invalid arguments for zod_tool: n must be positive' },
    ]);
  });

  it('accepts custom tools once precompileValidators output is registered, draft 2020-12 included', () => {
    expect(strict.customPrecompiled).toEqual([
      { name: 'custom_tool', result: { n: 2 } },
      { name: 'custom_tool', code: 'invalid_arguments', error: 'invalid arguments for custom_tool: n must be an integer, not a string' },
      { name: 'later_tool', result: { pair: ['a'] } },
      { name: 'later_tool', code: 'invalid_arguments', error: 'invalid arguments for later_tool: pair[0] must be a string, not a number' },
    ]);
  });

  it('compiles the same custom tool at runtime when eval is allowed', () => {
    const open = runChild([]);
    expect(open.evalBlocked).toBe(false);
    expect(open.custom).toEqual({ registered: true, result: [{ name: 'custom_tool', result: { n: 1 } }] });
    expect(open.bad).toEqual(strict.bad);
    expect(open.view).toEqual(strict.view);
  });
});
