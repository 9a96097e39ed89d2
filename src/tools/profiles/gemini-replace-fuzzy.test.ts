import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/memory.js';
import { ToolRunner, type ToolCallResult } from '../../core/runner.js';
import type { Platform } from '../../core/types.js';
import { toolProfiles } from './index.js';

// Gemini's `replace` with a fuzzy match at several places: only places with the same text may be
// replaced together; places that are merely near old_string are refused, whatever allow_multiple says.

function setup(files: Record<string, string>): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: toolProfiles.gemini() }) };
}

async function call(runner: ToolRunner, args: Record<string, unknown>): Promise<unknown> {
  const [outcome] = (await runner.processToolCalls([{ name: 'replace', args }])) as [ToolCallResult];
  return 'result' in outcome ? outcome.result : outcome;
}

async function read(platform: Platform, path: string): Promise<string> {
  return new TextDecoder().decode(await platform.fs.readFile(`${platform.root}/${path}`));
}

/** A class of 3,400 near-identical methods: `def method_N(self, x):` / `return x + N`, method N at lines 2N+2 to 2N+3. */
const methods = `class Calc:\n${Array.from({ length: 3_400 }, (_, n) => `    def method_${n}(self, x):\n        return x + ${n}\n`).join('')}`;
/** method_1701 with its spaces dropped: neither exact, nor equal once trimmed, nor the same tokens (`,` and `+` are no token splits). */
const near = 'def method_1701(self,x):\nreturn x+1701';

describe('replace: approximate matches at several places', () => {
  it('refuses fuzzy matches whose text differs, names the closest line ranges, and does not advise allow_multiple', async () => {
    const { platform, runner } = setup({ 'calc.py': methods });
    const refused = (await call(runner, { file_path: 'calc.py', instruction: 'zero', old_string: near, new_string: 'def method_1701(self, x):\n    return 0' })) as {
      code: string;
      error: string;
    };
    expect(refused.code).toBe('ambiguous_match');
    expect(refused.error).toMatch(/^old_string was not found exactly in .*calc\.py; it only approximately matches \d+ places whose text differs \(a fuzzy match, closest first: lines 3404-3405, /);
    expect(refused.error).toMatch(/\(and \d+ more\)\), so nothing was changed\./);
    expect(refused.error).toContain('read_file the lines you mean, copy them exactly into old_string, and retry.');
    expect(refused.error).not.toMatch(/set allow_multiple|Expected 1 occurrence/);
    expect(await read(platform, 'calc.py')).toBe(methods);
  });

  it('allow_multiple does not fan a fuzzy replacement out to different methods: refused, nothing written', async () => {
    const { platform, runner } = setup({ 'calc.py': methods });
    const refused = (await call(runner, { file_path: 'calc.py', instruction: 'zero', old_string: near, new_string: 'def method_1701(self, x):\n    return 0', allow_multiple: true })) as {
      code: string;
      error: string;
    };
    expect(refused).toMatchObject({ code: 'ambiguous_match' });
    expect(refused.error).toContain('allow_multiple does not apply to them');
    expect(await read(platform, 'calc.py')).toBe(methods);
  });

  it('the exact lines, copied as the refusal asks, replace the one method meant', async () => {
    const { platform, runner } = setup({ 'calc.py': methods });
    const done = await call(runner, {
      file_path: 'calc.py',
      instruction: 'zero',
      old_string: '    def method_1701(self, x):\n        return x + 1701\n',
      new_string: '    def method_1701(self, x):\n        return 0\n',
    });
    expect(done).toMatchObject({ replacements: 1 });
    expect(await read(platform, 'calc.py')).toBe(methods.replace('        return x + 1701\n', '        return 0\n'));
  });

  it('fuzzy matches at places with the same text are occurrences: allow_multiple is advised, and replaces them all', async () => {
    const block = '  addItem(item) {\n    this.items.push(item);\n    this.total += item.price;\n  }\n';
    const file = `class A {\n${block}}\nclass B {\n${block}}\nclass C {\n${block}}\n`;
    const { platform, runner } = setup({ 'c.js': file });
    const args = {
      file_path: 'c.js',
      instruction: 'count',
      old_string: '  addItem(item) {\n    this.items.push(iten);\n    this.total += item.price;\n  }',
      new_string: '  addItem(item) {\n    this.items.push(item);\n    this.count += 1;\n  }',
    };
    const refused = (await call(runner, args)) as { code: string; error: string };
    expect(refused.code).toBe('ambiguous_match');
    expect(refused.error).toContain('Expected 1 occurrence but found 3');
    expect(refused.error).toContain('set allow_multiple to true');
    expect(await read(platform, 'c.js')).toBe(file);
    expect(await call(runner, { ...args, allow_multiple: true })).toMatchObject({ replacements: 3, strategy: 'fuzzy' });
    expect(await read(platform, 'c.js')).toBe(file.replaceAll('this.total += item.price;', 'this.count += 1;'));
  });
});
