import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE, TOOLS_DOC, generateToolsDoc, loadToolsDocInputs } from '../scripts/gen-tools-doc.mjs';
import { TOOL_ERROR_CODES } from '../src/core/errors.js';

const ROOT = join(import.meta.dirname, '..');
type Inputs = Awaited<ReturnType<typeof loadToolsDocInputs>>;
let inputs: Inputs;

beforeAll(async () => {
  inputs = await loadToolsDocInputs((path) => import(join(ROOT, `${path}.ts`)));
});

describe('docs/tools.md', () => {
  it('equals what scripts/gen-tools-doc.mjs generates from the current declarations', () => {
    const committed = readFileSync(join(ROOT, TOOLS_DOC), 'utf8');
    expect(committed, `${TOOLS_DOC} is stale: run npm run gen:tools-doc`).toBe(generateToolsDoc(inputs));
  });

  it('documents exactly the built-ins and the web_search fallback', () => {
    expect(Object.keys(REFERENCE).sort()).toEqual(inputs.tools.map((tool: { name: string }) => tool.name).sort());
  });

  it('names only real error codes', () => {
    for (const [name, ref] of Object.entries(REFERENCE)) {
      for (const [code] of ref.errors) expect(TOOL_ERROR_CODES, `${name}: ${code}`).toContain(code);
    }
  });

  it('runs every example as documented, and documents every field its result has', () => {
    for (const [name, ref] of Object.entries(REFERENCE)) {
      const outcome = inputs.examples[name] as { result?: Record<string, unknown>; code?: string };
      expect(outcome.code, `${name}'s example`).toBe(ref.exampleCode);
      if (ref.exampleCode) expect(ref.errors.map(([code]) => code)).toContain(ref.exampleCode);
      const documented = ref.result.map(([field]) => field);
      for (const field of Object.keys(outcome.result ?? {})) expect(documented, `${name}: result field ${field}`).toContain(field);
    }
  });
});
