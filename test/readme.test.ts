import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = [...README.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);

/** Runs a README code block as a module, with `toolhost` pointing at the sources. */
async function runBlock(code: string, epilogue: string): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(ROOT, 'test', '.readme-'));
  try {
    const file = join(dir, 'block.ts');
    const source = code
      .replace(/from 'toolhost'/g, `from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))}`)
      .replace(/from 'toolhost\/agent'/g, `from ${JSON.stringify(join(ROOT, 'src', 'agent', 'index.ts'))}`);
    writeFileSync(file, `${source}\n${epilogue}\n`);
    return (await import(file)) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('README', () => {
  it('starts with the two fresh-machine commands', () => {
    const firstBlock = README.split('```')[1] ?? '';
    expect(firstBlock).toContain('npm ci && npm run demo');
    expect(firstBlock).toContain('npm ci && npm test');
  });

  it('runs the tour and the tool-state example as written', async () => {
    const [tour, state] = blocks;
    const mod = await runBlock(`${tour}\n${state}`, `
      export const decls = runner.declarations().map((d) => d.name);
      export const results = await runner.processToolCalls([
        { id: '1', name: 'grep_search', args: { pattern: 'answer' } },
        { id: '2', name: 'edit_file', args: { file_path: 'src/app.ts', old_string: '41', new_string: '42' } },
      ]);
      export const again = await runner.execute('counter', {}, { conversationId: 'chat-1' });
      export const forecastOut = await runner.execute('get_forecast', { city: 'Oslo' });
      export const forecastBad = await runner.execute('get_forecast', { city: 'O' }).catch((error) => ({ code: error.code, message: error.message }));
      export const annotations = runner.tools().find((t) => t.name === 'get_weather')?.annotations;`);
    expect(mod.decls).toEqual(expect.arrayContaining(['get_weather', 'get_forecast', 'view_file', 'counter']));
    const [grep, edit] = mod.results as Array<{ id: string; result: Record<string, unknown> }>;
    expect(grep?.result).toMatchObject({ total_matches: 1 });
    // The tour already made this edit once, so the same edit now finds no "41".
    expect(edit).toMatchObject({ id: '2', code: 'no_match' });
    expect(mod.again).toEqual({ count: 2 });
    expect(mod.forecastOut).toEqual({ city: 'Oslo', days: 3, conversation: 'default' });
    expect(mod.forecastBad).toEqual({ code: 'invalid_arguments', message: 'invalid arguments for get_forecast: /city: Too small: expected string to have >=2 characters' });
    expect(mod.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
  });
});
