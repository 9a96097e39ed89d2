import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/memory.js';
import { ToolRunner, type ToolCallFailure, type ToolCallResult } from '../../runner.js';
import type { Platform } from '../../core/types.js';
import { toolProfiles } from './index.js';

const decode = (bytes: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

function setup(files: Record<string, string | Uint8Array> = {}, maxCharacters?: number): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  const tools = toolProfiles.anthropic(maxCharacters === undefined ? {} : { maxCharacters });
  return { platform, runner: new ToolRunner({ platform, tools }) };
}

const edit = (runner: ToolRunner, args: Record<string, unknown>): Promise<unknown> => runner.execute('str_replace_based_edit_tool', args);

async function fails(runner: ToolRunner, args: Record<string, unknown>): Promise<ToolCallFailure> {
  const [result] = (await runner.processToolCalls([{ name: 'str_replace_based_edit_tool', args }])) as [ToolCallResult];
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

const read = async (platform: Platform, path: string): Promise<string> => decode(await platform.fs.readFile(`/workspace/${path}`));

const PRIMES = 'def is_prime(n):\n    """Check if a number is prime."""\n    if n <= 1:\n        return False\n    return True\n';

describe('str_replace_based_edit_tool (Anthropic text editor)', () => {
  it('counts view as read-only and the other commands as writes, in plan mode and under permission rules without ask', async () => {
    const platform = createMemoryPlatform({ files: { 'primes.py': PRIMES } });
    for (const runner of [new ToolRunner({ platform, tools: toolProfiles.anthropic(), planMode: true }), new ToolRunner({ platform, tools: toolProfiles.anthropic(), permissions: {} })]) {
      const [view, create, replace] = await runner.processToolCalls([
        { name: 'str_replace_based_edit_tool', args: { command: 'view', path: 'primes.py', view_range: [1, 1] } },
        { name: 'str_replace_based_edit_tool', args: { command: 'create', path: 'new.py', file_text: 'x = 1\n' } },
        { name: 'str_replace_based_edit_tool', args: { command: 'str_replace', path: 'primes.py', old_str: 'True', new_str: 'False' } },
      ]);
      expect(view).toEqual({ name: 'str_replace_based_edit_tool', result: '1: def is_prime(n):' });
      expect(create).toMatchObject({ code: 'permission_denied' });
      expect(replace).toMatchObject({ code: 'permission_denied' });
    }
    expect(await read(platform, 'primes.py')).toBe(PRIMES);
    await expect(platform.fs.stat('/workspace/new.py')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('views a file with line numbers', async () => {
    const { runner } = setup({ 'primes.py': PRIMES });
    expect(await edit(runner, { command: 'view', path: 'primes.py' })).toBe(
      '1: def is_prime(n):\n2:     """Check if a number is prime."""\n3:     if n <= 1:\n4:         return False\n5:     return True',
    );
  });

  it('views a range, -1 meaning the end of the file', async () => {
    const { runner } = setup({ 'primes.py': PRIMES });
    expect(await edit(runner, { command: 'view', path: 'primes.py', view_range: [2, 3] })).toBe('2:     """Check if a number is prime."""\n3:     if n <= 1:');
    expect(await edit(runner, { command: 'view', path: '/workspace/primes.py', view_range: [4, -1] })).toBe('4:         return False\n5:     return True');
    expect(await fails(runner, { command: 'view', path: 'primes.py', view_range: [9, -1] })).toMatchObject({
      code: 'invalid_arguments',
      error: 'Invalid `view_range`: [9, -1]. Its first element `9` should be within the range of lines of the file: [1, 5]',
    });
  });

  it('views a directory two levels deep without hidden entries', async () => {
    const { runner } = setup({ 'src/a.ts': '', 'src/deep/b.ts': '', 'src/deep/deeper/c.ts': '', '.hidden': '', 'README.md': '' });
    expect(await edit(runner, { command: 'view', path: '.' })).toBe(
      'Here are the files and directories up to 2 levels deep in /workspace, excluding hidden items and node_modules:\n' +
        'README.md\nsrc/\nsrc/a.ts\nsrc/deep/',
    );
  });

  it('cuts a view at max_characters with a note', async () => {
    const { runner } = setup({ 'big.txt': 'abcdefghij\n'.repeat(10) }, 30);
    expect(await edit(runner, { command: 'view', path: 'big.txt' })).toBe(
      '1: abcdefghij\n2: abcdefghij\n3:\n[... 110 more characters not shown: the output is limited to 30 characters. Use view_range to read a part. Lines 1-2 are shown whole; view_range [3, -1] reads on.]',
    );
  });

  it('creates a file, and refuses to overwrite an existing one, viewed or not', async () => {
    const { platform, runner } = setup({ 'seen.txt': 'v1\n' });
    expect(await edit(runner, { command: 'create', path: 'new/file.txt', file_text: 'hello\n' })).toBe('File created successfully at: /workspace/new/file.txt');
    expect(await read(platform, 'new/file.txt')).toBe('hello\n');
    await edit(runner, { command: 'view', path: 'seen.txt' });
    expect(await fails(runner, { command: 'create', path: 'seen.txt', file_text: 'mine\n' })).toMatchObject({ code: 'already_exists' });
    expect(await read(platform, 'seen.txt')).toBe('v1\n');
  });

  it("replaces a unique match and answers with the reference editor's texts for none and several", async () => {
    const { platform, runner } = setup({ 'primes.py': PRIMES, 'dup.txt': 'x = 1\nx = 1\nx = 1\n' });
    expect(await edit(runner, { command: 'str_replace', path: 'primes.py', old_str: '    if n <= 1:', new_str: '    if n < 2:' })).toBe(
      'Successfully replaced text at exactly one location.',
    );
    expect(await read(platform, 'primes.py')).toBe(PRIMES.replace('n <= 1', 'n < 2'));
    const none = await fails(runner, { command: 'str_replace', path: 'primes.py', old_str: 'return Maybe', new_str: 'x' });
    expect(none.code).toBe('no_match');
    expect(none.error.startsWith('No replacement was performed, old_str `return Maybe` did not appear verbatim in /workspace/primes.py.')).toBe(true);
    expect(await fails(runner, { command: 'str_replace', path: 'dup.txt', old_str: 'x = 1', new_str: 'x = 2' })).toMatchObject({
      code: 'ambiguous_match',
      error: 'No replacement was performed. Multiple occurrences of old_str `x = 1` in lines [1, 2, 3]. Please ensure it is unique: add lines around it.',
    });
    expect(await read(platform, 'dup.txt')).toBe('x = 1\nx = 1\nx = 1\n');
  });

  it('inserts after insert_line, 0 being the top, under both names of the text', async () => {
    const { platform, runner } = setup({ 'f.txt': 'one\ntwo\n', 'crlf.txt': 'a\r\nb' });
    expect(await edit(runner, { command: 'insert', path: 'f.txt', insert_line: 0, insert_text: 'zero' })).toBe('The text was inserted after line 0 of /workspace/f.txt.');
    expect(await read(platform, 'f.txt')).toBe('zero\none\ntwo\n');
    await edit(runner, { command: 'insert', path: 'f.txt', insert_line: 3, new_str: 'three\nfour\n' });
    expect(await read(platform, 'f.txt')).toBe('zero\none\ntwo\nthree\nfour\n');
    await edit(runner, { command: 'insert', path: 'crlf.txt', insert_line: 1, insert_text: 'mid' });
    expect(await read(platform, 'crlf.txt')).toBe('a\r\nmid\r\nb');
    expect(await fails(runner, { command: 'insert', path: 'f.txt', insert_line: 9, insert_text: 'x' })).toMatchObject({
      code: 'invalid_arguments',
      error: 'Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 5]',
    });
  });

  it('is confined to the workspace and reports a missing file', async () => {
    const { runner } = setup();
    expect(await fails(runner, { command: 'view', path: '/etc/passwd' })).toMatchObject({ code: 'outside_workspace' });
    expect(await fails(runner, { command: 'view', path: '../x' })).toMatchObject({ code: 'outside_workspace' });
    expect(await fails(runner, { command: 'view', path: 'missing.txt' })).toMatchObject({ code: 'not_found', error: 'The path /workspace/missing.txt does not exist. Please provide a valid path.' });
  });
});

describe('bash (Anthropic)', () => {
  it('says what to do when a command times out: bash has no time limit of its own to raise', async () => {
    const platform = createMemoryPlatform();
    const timedOut = { stdout: 'partial\n', stderr: '', exit_code: null, signal: 'SIGKILL', timed_out: true, truncated: false } as const;
    const withShell = Object.assign(Object.create(platform) as Platform, {
      shellSession: () => ({ run: async () => timedOut, restart: async () => undefined }),
    });
    const runner = new ToolRunner({ platform: withShell, tools: toolProfiles.anthropic() });
    expect(await runner.execute('bash', { command: 'sleep 500' })).toBe(
      'partial\n[the command timed out after 120000 ms; its process group was killed. Split the work into shorter commands]',
    );
  });
});
