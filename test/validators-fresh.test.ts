import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  VALIDATORS_DTS,
  VALIDATORS_DTS_TEXT,
  VALIDATORS_JS,
  collectSchemas,
  generateValidatorsModule,
} from '../scripts/build-validators.mjs';
import precompiledBuiltins from '../src/tools/generated/validators.js';
import { BUILTIN_VALIDATORS } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { webSearchFallbackTool } from '../src/tools/web-search.js';
import type { ExecuteTool } from '../src/core/tool.js';
import * as core from '../src/core/validation.js';
import type { JsonSchema } from '../src/core/types.js';

const ROOT = join(import.meta.dirname, '..');
const STALE = 'is stale: run npm run gen:validators';
const { AJV_OPTIONS, compileValidator, formatValidationErrors, parseSchema, precompiledValidator, stripAnnotations, validatorKey } = core;
const builtins = (): ExecuteTool[] => [...BuiltinTools.all(), webSearchFallbackTool as ExecuteTool];

describe('src/tools/generated/validators.js', () => {
  it('equals what scripts/build-validators.mjs generates from the current schemas', () => {
    const committed = readFileSync(join(ROOT, VALIDATORS_JS), 'utf8');
    const fresh = generateValidatorsModule(builtins(), core);
    expect(committed === fresh, `${VALIDATORS_JS} ${STALE}`).toBe(true);
    expect(readFileSync(join(ROOT, VALIDATORS_DTS), 'utf8') === VALIDATORS_DTS_TEXT, `${VALIDATORS_DTS} ${STALE}`).toBe(true);
  });

  it('holds no require() and no eval-style code generation', () => {
    const committed = readFileSync(join(ROOT, VALIDATORS_JS), 'utf8');
    expect(committed).not.toMatch(/\brequire\s*\(/);
    expect(committed).not.toMatch(/\bnew Function\b|\beval\s*\(/);
  });

  it('has a validator for every built-in schema, including the web_search fallback', () => {
    const keys = Object.keys(precompiledBuiltins);
    for (const tool of builtins()) {
      const key = validatorKey(parseSchema(tool.name, tool.inputSchema as JsonSchema));
      expect(keys, `no precompiled validator for ${tool.name}: run npm run gen:validators`).toContain(key);
    }
    expect(keys).toHaveLength(collectSchemas(builtins(), core).length);
  });

  it('is what compileValidator returns for a built-in schema, without compiling', async () => {
    for (const tool of builtins()) {
      const schema = parseSchema(tool.name, tool.inputSchema as JsonSchema);
      expect(precompiledValidator(schema, BUILTIN_VALIDATORS)).toBe(precompiledBuiltins[validatorKey(schema)]);
      expect(await compileValidator(tool.name, schema, 'parameters', BUILTIN_VALIDATORS)).toBe(precompiledBuiltins[validatorKey(schema)]);
    }
  });

  it('accepts and rejects exactly as a runtime-compiled validator, with the same errors', () => {
    const ajv = new Ajv({ ...AJV_OPTIONS });
    const samples: unknown[] = [
      {},
      null,
      [],
      'text',
      { file_path: 'a.txt' },
      { file_path: 7 },
      { file_path: 'a.txt', start_line: 2, end_line: 1.5 },
      { file_path: 'a.txt', content: 'x', overwrite: 'yes' },
      { pattern: '*.ts', max_results: -1, bogus: true },
      { query: 'x', case_sensitive: true, max_results: 0 },
      { pattern: 'a+', output_mode: 'lines', context_lines: 100000 },
      { command: '', timeout_ms: 600001 },
      { task: '', tools: [1, 'x'] },
      { prompt: 'p', image_paths: 'a.png' },
      { result: 3 },
      { dir_path: '' },
      { query: '' },
    ];
    for (const tool of builtins()) {
      const schema = parseSchema(tool.name, tool.inputSchema as JsonSchema) as JsonSchema;
      const runtime = ajv.compile(schema);
      const standalone = precompiledBuiltins[validatorKey(schema)];
      expect(standalone).toBeTypeOf('function');
      if (!standalone) continue;
      for (const sample of samples) {
        const expected = runtime(sample);
        expect(standalone(sample), `${tool.name} ${JSON.stringify(sample)}`).toBe(expected);
        expect(standalone.errors ?? null, `${tool.name} ${JSON.stringify(sample)}`).toEqual(runtime.errors ?? null);
        if (!expected) {
          expect(formatValidationErrors(standalone.errors ?? [], schema, { data: sample })).toBe(formatValidationErrors(runtime.errors ?? [], schema, { data: sample }));
        }
      }
    }
  });
});
