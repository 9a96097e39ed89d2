import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/memory.js';
import { ToolRunner, type ToolCallResult } from '../../runner.js';
import { DEFAULT_MAX_CHARACTERS } from './anthropic.js';
import { toolProfiles } from './index.js';

const BIG = Array.from({ length: 300_000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const LONG = 'x'.repeat(500_000) + '\nafter\n';

function setup(maxCharacters?: number): ToolRunner {
  const platform = createMemoryPlatform({ files: { 'big.txt': BIG, 'long.txt': LONG, 'mid.txt': 'y'.repeat(150_000) } });
  return new ToolRunner({ platform, tools: toolProfiles.anthropic(maxCharacters === undefined ? {} : { maxCharacters }) });
}

const view = (runner: ToolRunner, args: Record<string, unknown>): Promise<string> =>
  runner.execute('str_replace_based_edit_tool', { command: 'view', ...args }) as Promise<string>;

/** The note a cut view ends with, and the view_range it says reads on. */
function readOn(text: string): { note: string; range: [number, number] | null } {
  const note = text.slice(text.lastIndexOf('\n[... ') + 1);
  const match = /view_range \[(\d+), (-?\d+)\] reads on/.exec(note);
  return { note, range: match === null ? null : [Number(match[1]), Number(match[2])] };
}

describe('Anthropic text editor: view is bounded by default', () => {
  it('cuts a 300,000-line file at the default and names the view_range that reads on, which does', async () => {
    const runner = setup();
    const text = await view(runner, { path: 'big.txt' });
    expect(DEFAULT_MAX_CHARACTERS).toBe(100_000);
    expect(text.length).toBeLessThan(DEFAULT_MAX_CHARACTERS + 300);
    expect(text.startsWith('1: line 1\n2: line 2\n')).toBe(true);
    const { note, range } = readOn(text);
    expect(note).toMatch(/^\[\.\.\. \d+ more characters not shown: the output is limited to 100000 characters\. Use view_range to read a part\. Lines 1-\d+ are shown whole; view_range \[\d+, -1\] reads on\.\]$/);
    const [from] = range as [number, number];
    // The last line shown whole is the one before `from`, and the cut part is not a whole line.
    expect(text).toContain(`\n${from - 1}: line ${from - 1}\n`);
    const next = await view(runner, { path: 'big.txt', view_range: range });
    expect(next.startsWith(`${from}: line ${from}\n`)).toBe(true);
    expect(next.length).toBeLessThan(DEFAULT_MAX_CHARACTERS + 300);
  });

  it('bounds a view_range of a huge file too, reading on within that range', async () => {
    const runner = setup();
    const text = await view(runner, { path: 'big.txt', view_range: [10, 290_000] });
    expect(text.length).toBeLessThan(DEFAULT_MAX_CHARACTERS + 300);
    expect(text.startsWith('10: line 10\n')).toBe(true);
    const { range } = readOn(text);
    expect(range?.[1]).toBe(290_000);
    expect(await view(runner, { path: 'big.txt', view_range: [299_999, -1] })).toBe('299999: line 299999\n300000: line 300000');
  });

  it('cuts one 500,000-character line and says to read parts of it with bash', async () => {
    const text = await view(setup(), { path: 'long.txt' });
    expect(text.length).toBeLessThan(DEFAULT_MAX_CHARACTERS + 300);
    expect(readOn(text).note).toBe(
      '[... 400012 more characters not shown: the output is limited to 100000 characters. Use view_range to read a part. Line 1 alone is longer than that: read parts of it with bash (cut -c, grep -o).]',
    );
  });

  it('lets the host raise or lower the bound, and says the bound in the description', async () => {
    expect((await view(setup(), { path: 'mid.txt' })).length).toBeLessThan(DEFAULT_MAX_CHARACTERS + 300);
    expect(await view(setup(200_000), { path: 'mid.txt' })).toBe(`1: ${'y'.repeat(150_000)}`);
    expect((await view(setup(1_000), { path: 'big.txt' })).length).toBeLessThan(1_300);
    const described = (runner: ToolRunner): string | undefined => runner.declarations().find((d) => d.name === 'str_replace_based_edit_tool')?.description;
    expect(described(setup())).toContain('View output is cut at 100000 characters.');
    expect(described(setup(200_000))).toContain('View output is cut at 200000 characters.');
  });
});

describe('Anthropic text editor: a directory view', () => {
  it('is cut at maxCharacters with a note saying to view a subdirectory, since view_range does not apply to directories', async () => {
    const files = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`dir/file-${String(i).padStart(2, '0')}.txt`, '']));
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files }), tools: toolProfiles.anthropic({ maxCharacters: 200 }) });
    const text = await view(runner, { path: '.' });
    expect(text).toMatch(/\n\[\.\.\. \d+ more characters not shown: the output is limited to 200 characters\. View a subdirectory to see the rest\.\]$/);
    expect(text.length).toBeLessThan(200 + 120);
  });
});

describe('Anthropic text editor: str_replace and insert', () => {
  const call = async (runner: ToolRunner, args: Record<string, unknown>): Promise<ToolCallResult> =>
    (await runner.processToolCalls([{ name: 'str_replace_based_edit_tool', args }]))[0] as ToolCallResult;

  it('lists a line with several occurrences of old_str once', async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: { 'f.txt': 'one\n\nthree\n' } }), tools: toolProfiles.anthropic() });
    expect(await call(runner, { command: 'str_replace', path: 'f.txt', old_str: 'e' })).toMatchObject({
      code: 'ambiguous_match',
      error: 'No replacement was performed. Multiple occurrences of old_str `e` in lines [1, 3]. Please ensure it is unique: add lines around it.',
    });
    const thrown = await runner.execute('str_replace_based_edit_tool', { command: 'str_replace', path: 'f.txt', old_str: 'e' }).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ code: 'ambiguous_match', details: { count: 3, lines: [1, 3] } });
  });

  it('refuses insert_text and new_str with different texts, naming both, and takes the same text given twice', async () => {
    const platform = createMemoryPlatform({ files: { 'f.txt': 'a\n' } });
    const runner = new ToolRunner({ platform, tools: toolProfiles.anthropic() });
    expect(await call(runner, { command: 'insert', path: 'f.txt', insert_line: 0, insert_text: 'x', new_str: 'y' })).toMatchObject({
      code: 'invalid_arguments',
      error: 'insert got both `insert_text` and `new_str` with different texts; give the text to insert once, as `insert_text`',
    });
    expect(new TextDecoder().decode(await platform.fs.readFile('/workspace/f.txt'))).toBe('a\n');
    expect(await call(runner, { command: 'insert', path: 'f.txt', insert_line: 0, insert_text: 'x', new_str: 'x' })).toMatchObject({
      result: 'The text was inserted after line 0 of /workspace/f.txt.',
    });
    expect(new TextDecoder().decode(await platform.fs.readFile('/workspace/f.txt'))).toBe('x\na\n');
  });
});
