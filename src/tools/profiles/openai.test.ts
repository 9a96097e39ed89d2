import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/memory.js';
import { ToolRunner, type ToolCallFailure, type ToolCallResult } from '../../runner.js';
import type { Platform } from '../../core/types.js';
import { toolProfiles } from './index.js';
import { applyPatchTool } from './openai.js';

const decode = (bytes: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

function setup(files: Record<string, string | Uint8Array> = {}): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: [...toolProfiles.openai(), ...toolProfiles.toolhost()] }) };
}

async function patch(runner: ToolRunner, input: string): Promise<{ output: string }> {
  return (await runner.execute('apply_patch', { input })) as { output: string };
}

async function fails(runner: ToolRunner, args: Record<string, unknown>): Promise<ToolCallFailure> {
  const [result] = (await runner.processToolCalls([{ id: 'p', name: 'apply_patch', args }])) as [ToolCallResult];
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

const read = async (platform: Platform, path: string): Promise<string> => decode(await platform.fs.readFile(`/workspace/${path}`));

describe('apply_patch (V4A)', () => {
  it('adds a file', async () => {
    const { platform, runner } = setup();
    const result = await patch(runner, '*** Begin Patch\n*** Add File: hello.txt\n+Hello world\n+second line\n*** End Patch');
    expect(result.output).toBe('Success. Updated the following files:\nA /workspace/hello.txt\n');
    expect(await read(platform, 'hello.txt')).toBe('Hello world\nsecond line\n');
  });

  it('updates a file with two hunks, each located after the previous one', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const { platform, runner } = setup({ 'src/a.txt': lines.join('\n') + '\n' });
    await patch(
      runner,
      [
        '*** Begin Patch',
        '*** Update File: src/a.txt',
        '@@',
        ' line 2',
        '-line 3',
        '+LINE THREE',
        ' line 4',
        '@@ line 15',
        ' line 16',
        '-line 17',
        '+line 17a',
        '+line 17b',
        ' line 18',
        '*** End Patch',
      ].join('\n'),
    );
    const expected = lines.slice();
    expected.splice(16, 1, 'line 17a', 'line 17b');
    expected[2] = 'LINE THREE';
    expect(await read(platform, 'src/a.txt')).toBe(expected.join('\n') + '\n');
  });

  it('puts a pure addition without context at the end of the file wherever it stands, as Codex does (a later hunk still matches the earlier lines)', async () => {
    const { platform, runner } = setup({ 'f.txt': 'a\nb\nc\n' });
    const result = await patch(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n+x\n@@\n a\n-b\n+B\n*** End Patch');
    expect(result.output).toBe('Success. Updated the following files:\nM /workspace/f.txt\n');
    expect(await read(platform, 'f.txt')).toBe('a\nB\nc\nx\n');
  });

  it('keeps the patch order of two pure additions at the end of the file, around a hunk in the middle', async () => {
    const { platform, runner } = setup({ 'f.txt': 'a\nb\nc\n' });
    await patch(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n+x\n@@\n b\n-c\n+C\n@@\n+y\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('a\nb\nC\nx\ny\n');
  });

  it('moves a file while updating it', async () => {
    const { platform, runner } = setup({ 'old/name.py': 'def f():\n    return 1\n' });
    const result = await patch(runner, '*** Begin Patch\n*** Update File: old/name.py\n*** Move to: new/name.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch');
    expect(result.output).toBe('Success. Updated the following files:\nM /workspace/new/name.py\n');
    expect(await read(platform, 'new/name.py')).toBe('def f():\n    return 2\n');
    await expect(platform.fs.stat('/workspace/old/name.py')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('deletes a file', async () => {
    const { platform, runner } = setup({ 'gone.txt': 'bye\n' });
    expect((await patch(runner, '*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch')).output).toBe('Success. Updated the following files:\nD /workspace/gone.txt\n');
    await expect(platform.fs.stat('/workspace/gone.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('changes nothing when one hunk of a multi-file patch does not apply, and quotes the missing line', async () => {
    const { platform, runner } = setup({ 'a.txt': 'alpha\nbeta\n', 'b.txt': 'one\ntwo\nthree\n', 'c.txt': 'keep\n' });
    const failure = await fails(runner, {
      input: [
        '*** Begin Patch',
        '*** Update File: a.txt',
        '-alpha',
        '+ALPHA',
        '*** Update File: b.txt',
        '@@',
        ' one',
        '-TWO',
        '+2',
        '*** Delete File: c.txt',
        '*** Add File: d.txt',
        '+new',
        '*** End Patch',
      ].join('\n'),
    });
    expect(failure.code).toBe('no_match');
    expect(failure.error).toBe(
      'Failed to find expected lines in "b.txt":\none\nTWO\n(hunk 1 of 1: the line "TWO" was not found after line 1, where the hunk\'s earlier lines match, ' +
        'compared exactly, then ignoring trailing and surrounding whitespace, then typographic punctuation). Nothing was changed. Read the file and copy the context lines exactly.',
    );
    expect(await read(platform, 'a.txt')).toBe('alpha\nbeta\n');
    expect(await read(platform, 'b.txt')).toBe('one\ntwo\nthree\n');
    expect(await read(platform, 'c.txt')).toBe('keep\n');
    await expect(platform.fs.stat('/workspace/d.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps a CRLF file CRLF and its BOM', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const body = new TextEncoder().encode('first\r\nsecond\r\nthird\r\n');
    const { platform, runner } = setup({ 'win.txt': new Uint8Array([...bom, ...body]) });
    await patch(runner, '*** Begin Patch\n*** Update File: win.txt\n@@\n first\n-second\n+SECOND\n+inserted\n third\n*** End Patch');
    const bytes = await platform.fs.readFile('/workspace/win.txt');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(decode(bytes.subarray(3))).toBe('first\r\nSECOND\r\ninserted\r\nthird\r\n');
  });

  it('matches context that differs in trailing whitespace, then in surrounding whitespace', async () => {
    const { platform, runner } = setup({ 't.py': 'def f():   \n    x = 1\t\n    return x\n' });
    await patch(runner, '*** Begin Patch\n*** Update File: t.py\n@@ def f():\n-    x = 1\n+    x = 2\n*** End Patch');
    expect(await read(platform, 't.py')).toBe('def f():   \n    x = 2\n    return x\n');
    await patch(runner, '*** Begin Patch\n*** Update File: t.py\n@@\n-x = 2\n+    x = 3\n  return x\n*** End Patch');
    expect(await read(platform, 't.py')).toBe('def f():   \n    x = 3\n    return x\n');
  });

  it('anchors a hunk marked *** End of File at the end of the file', async () => {
    const { platform, runner } = setup({ 'e.txt': 'x\ny\nx\n' });
    await patch(runner, '*** Begin Patch\n*** Update File: e.txt\n@@\n-x\n+z\n*** End of File\n*** End Patch');
    expect(await read(platform, 'e.txt')).toBe('x\ny\nz\n');
  });

  it('answers malformed patches with errors that say what is wrong', async () => {
    const { runner } = setup({ 'a.txt': 'a\n' });
    const cases: Array<[string, string]> = [
      ['*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n', 'the last line of the patch must be "*** End Patch"; the patch looks cut off. Send the whole patch again, ending with "*** End Patch"'],
      ['*** Update File: a.txt\n-a\n+b\n*** End Patch', 'the first line of the patch must be "*** Begin Patch"; wrap the changes in "*** Begin Patch" ... "*** End Patch"'],
      ['*** Begin Patch\n+stray\n*** End Patch', 'line 2: "+stray" is outside any file operation; hunk lines belong after "*** Update File: path" (or "+" lines after "*** Add File: path")'],
      ['*** Begin Patch\n*** Update File: a.txt\n*** End Patch', 'line 2: the update of "a.txt" has no hunks; add "@@" hunks, or leave the file out of the patch'],
      ['*** Begin Patch\n*** Frobnicate: a.txt\n*** End Patch', 'line 2: "*** Frobnicate: a.txt" is not a valid operation header; use "*** Add File: path", "*** Delete File: path" or "*** Update File: path"'],
      ['*** Begin Patch\n*** Update File: a.txt\n@@\n a\n?b\n*** End Patch', 'line 5: unexpected line "?b" in the update of "a.txt"; every line of a hunk starts with " " (context), "-" (removed) or "+" (added), and hunks start with "@@"'],
    ];
    for (const [input, message] of cases) {
      expect(await fails(runner, { input })).toMatchObject({ code: 'invalid_arguments', error: message });
    }
  });

  it('adds over an existing file as Codex does, and refuses to update a missing one', async () => {
    const { platform, runner } = setup({ 'a.txt': 'a\n' });
    await patch(runner, '*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch');
    expect(await read(platform, 'a.txt')).toBe('x\n');
    expect(await fails(runner, { input: '*** Begin Patch\n*** Update File: nope.txt\n@@\n-x\n+y\n*** End Patch' })).toMatchObject({ code: 'not_found' });
  });

  it('quotes the @@ context line that is not in the file', async () => {
    const { runner } = setup({ 'a.txt': 'a\nb\n' });
    expect(await fails(runner, { input: '*** Begin Patch\n*** Update File: a.txt\n@@ class Missing:\n-b\n+c\n*** End Patch' })).toMatchObject({
      code: 'no_match',
      error: 'Failed to find context "class Missing:" in "a.txt" (hunk 1 of 1: the line after "@@" was not found). Nothing was changed. Read the file and copy the line exactly.',
    });
  });

  it('takes Responses API operations: create_file, update_file with a headerless diff, delete_file', async () => {
    const { platform, runner } = setup({ 'u.txt': 'one\ntwo\n', 'd.txt': 'x\n' });
    await runner.execute('apply_patch', { operation: { type: 'create_file', path: 'c.txt', diff: '+made\n+here\n' } });
    await runner.execute('apply_patch', { operation: { type: 'update_file', path: 'u.txt', diff: '@@\n one\n-two\n+2\n' } });
    await runner.execute('apply_patch', { operation: { type: 'delete_file', path: 'd.txt' } });
    expect(await read(platform, 'c.txt')).toBe('made\nhere\n');
    expect(await read(platform, 'u.txt')).toBe('one\n2\n');
    await expect(platform.fs.stat('/workspace/d.txt')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await fails(runner, {})).toMatchObject({ code: 'invalid_arguments' });
  });

  it('is refused in plan mode and by a read-only policy, as every writing built-in', async () => {
    const platform = createMemoryPlatform();
    const planned = new ToolRunner({ platform, tools: [applyPatchTool], planMode: true });
    const [result] = (await planned.processToolCalls([{ name: 'apply_patch', args: { input: '*** Begin Patch\n*** Add File: a\n+x\n*** End Patch' } }])) as [ToolCallFailure];
    expect(result.code).toBe('permission_denied');
  });
});

describe('shell (OpenAI)', () => {
  it('applies an apply_patch invocation instead of running it, as Codex intercepts one: argv, bash -lc heredoc with cd, and a command line', async () => {
    const { platform, runner } = setup({ 'f.txt': 'a\n', 'sub/g.txt': 'g\n' });
    const patch = '*** Begin Patch\n*** Update File: f.txt\n@@\n-a\n+A\n*** End Patch';
    expect(await runner.execute('shell', { command: ['apply_patch', patch] })).toEqual({
      output: [{ stdout: 'Success. Updated the following files:\nM /workspace/f.txt\n', stderr: '', outcome: { type: 'exit', exitCode: 0 } }],
    });
    expect(await read(platform, 'f.txt')).toBe('A\n');
    await runner.execute('shell', { command: ['bash', '-lc', "cd sub && apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: g.txt\n@@\n-g\n+G\n*** End Patch\nPATCH\n"] });
    expect(await read(platform, 'sub/g.txt')).toBe('G\n');
    await runner.execute('shell', { commands: ['applypatch <<"EOF"\n*** Begin Patch\n*** Add File: h.txt\n+h\n*** End Patch\nEOF'] });
    expect(await read(platform, 'h.txt')).toBe('h\n');
  });

  it('reports an intercepted patch that does not apply as exit code 1 with the reason on stderr, and changes nothing', async () => {
    const { platform, runner } = setup({ 'f.txt': 'a\n' });
    expect(await runner.execute('shell', { command: ['apply_patch', '*** Begin Patch\n*** Update File: f.txt\n@@\n-zzz\n+y\n*** End Patch'] })).toEqual({
      output: [
        {
          stdout: '',
          stderr:
            'Failed to find expected lines in "f.txt":\nzzz\n(hunk 1 of 1: the line "zzz" was not found anywhere, compared exactly, then ignoring trailing and surrounding whitespace, ' +
            'then typographic punctuation). Nothing was changed. Read the file and copy the context lines exactly.\n',
          outcome: { type: 'exit', exitCode: 1 },
        },
      ],
    });
    expect(await read(platform, 'f.txt')).toBe('a\n');
  });

  it('answers with no output and a note where the platform has no shell', async () => {
    const { runner } = setup();
    expect(await runner.execute('shell', { commands: ['echo hi'] })).toEqual({ output: [], note: 'shell is not available on the memory platform' });
  });
});
