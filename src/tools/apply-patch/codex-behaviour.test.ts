import { describe, expect, it } from 'vitest';
import { ToolRunner, type ToolCallFailure, type ToolCallResult } from '../../core/runner.js';
import type { Platform } from '../../core/types.js';
import { createMemoryPlatform } from '../../platform/memory.js';
import { toolProfiles } from '../profiles/index.js';

/**
 * apply_patch as Codex's own apply-patch crate behaves (its parser's leniencies, `seek_sequence`'s
 * passes, the order chunks are located in, its scenarios), in our words and data. Where toolhost
 * keeps a deliberate difference the test name says "toolhost keeps".
 */

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function setup(files: Record<string, string> = {}): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: toolProfiles.openai() }) };
}

async function call(runner: ToolRunner, input: string): Promise<ToolCallResult> {
  const [result] = (await runner.processToolCalls([{ id: 'c', name: 'apply_patch', args: { input } }])) as [ToolCallResult];
  return result;
}

async function ok(runner: ToolRunner, input: string): Promise<string> {
  const result = await call(runner, input);
  expect(result).not.toHaveProperty('code');
  return (result as { result: { output: string } }).result.output;
}

async function refused(runner: ToolRunner, input: string): Promise<ToolCallFailure> {
  const result = await call(runner, input);
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

const read = async (platform: Platform, path: string): Promise<string> => decode(await platform.fs.readFile(`/workspace/${path}`));
const exists = async (platform: Platform, path: string): Promise<boolean> => platform.fs.stat(`/workspace/${path}`).then(() => true, () => false);

const UPDATE = '*** Begin Patch\n*** Update File: f.txt\n@@\n-old\n+new\n*** End Patch';

describe('Codex parser leniencies', () => {
  it.each([
    ["<<'EOF'", 'EOF'],
    ['<<EOF', 'EOF'],
    ['<<"EOF"', 'EOF'],
    ["apply_patch <<'EOF'", 'EOF'],
  ])('heredoc wrapper %s ... %s around the patch is unwrapped', async (open, close) => {
    const { platform, runner } = setup({ 'f.txt': 'old\n' });
    await ok(runner, `${open}\n${UPDATE}\n${close}\n`);
    expect(await read(platform, 'f.txt')).toBe('new\n');
  });

  it('heredoc with mismatched quotes (<<"EOF\') is refused as a patch without "*** Begin Patch"', async () => {
    const { platform, runner } = setup({ 'f.txt': 'old\n' });
    const failure = await refused(runner, `<<"EOF'\n${UPDATE}\nEOF\n`);
    expect(failure.code).toBe('invalid_arguments');
    expect(failure.error).toMatch(/^the first line of the patch must be "\*\*\* Begin Patch"/);
    expect(await read(platform, 'f.txt')).toBe('old\n');
  });

  it('heredoc whose patch lacks "*** End Patch" is refused naming the missing last line', async () => {
    const { runner } = setup({ 'f.txt': 'old\n' });
    const failure = await refused(runner, "<<'EOF'\n*** Begin Patch\n*** Update File: f.txt\nEOF\n");
    expect(failure.error).toMatch(/^the last line of the patch must be "\*\*\* End Patch"/);
  });

  it('one or more blank lines after "*** End of File" are skipped', async () => {
    const { platform, runner } = setup({ 'f.txt': 'a\nz\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-z\n+Z\n*** End of File\n\n\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('a\nZ\n');
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n-Z\n+ZZ\n*** End of File\n\n@@\n+tail\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('a\nZZ\ntail\n');
  });

  it('indented "*** Update File:" header (whitespace-padded hunk header) is accepted', async () => {
    const { platform, runner } = setup({ 'f.txt': 'old\n' });
    await ok(runner, '*** Begin Patch\n  *** Update File: f.txt\n@@\n-old\n+new\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('new\n');
  });

  it('whitespace around "*** Begin Patch" / "*** End Patch" markers and around the whole patch is tolerated', async () => {
    const { platform, runner } = setup({ 'f.txt': 'old\n' });
    await ok(runner, '\n  *** Begin Patch \n*** Update File: f.txt\n@@\n-old\n+new\n *** End Patch\n\n');
    expect(await read(platform, 'f.txt')).toBe('new\n');
  });

  it('"*** Environment ID:" preamble right after "*** Begin Patch" is accepted; an empty or second one is refused', async () => {
    const { platform, runner } = setup({ 'f.txt': 'old\n' });
    await ok(runner, '*** Begin Patch\n*** Environment ID: remote\n*** Update File: f.txt\n@@\n-old\n+new\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('new\n');
    expect((await refused(runner, '*** Begin Patch\n*** Environment ID:   \n*** Add File: a\n+x\n*** End Patch')).error).toBe(
      'line 2: "*** Environment ID:" has no id; write one after it, or leave the line out',
    );
    expect((await refused(runner, '*** Begin Patch\n*** Environment ID: a\n*** Add File: a\n+x\n*** Environment ID: b\n*** End Patch')).error).toBe(
      'line 5: "*** Environment ID:" may appear once, right after "*** Begin Patch"; remove this one',
    );
  });

  it('first chunk of an update may leave out its "@@" line', async () => {
    const { platform, runner } = setup({ 'f.txt': 'import foo\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n import foo\n+bar\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('import foo\nbar\n');
  });

  it('empty update hunk ("@@" and nothing else) is refused and changes nothing', async () => {
    const { platform, runner } = setup({ 'f.txt': 'x\n' });
    const failure = await refused(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n*** End Patch');
    expect(failure).toMatchObject({ code: 'invalid_arguments', error: 'line 4: a hunk of "f.txt" has no lines; add its context, "-" and "+" lines' });
    expect(await read(platform, 'f.txt')).toBe('x\n');
  });

  it('invalid hunk header is refused naming the valid headers', async () => {
    const { runner } = setup({ 'f.txt': 'x\n' });
    expect((await refused(runner, '*** Begin Patch\n*** Frobnicate File: f.txt\n*** End Patch')).error).toBe(
      'line 2: "*** Frobnicate File: f.txt" is not a valid operation header; use "*** Add File: path", "*** Delete File: path" or "*** Update File: path"',
    );
  });

  it('empty patch (no operations) is refused and changes nothing', async () => {
    const { runner } = setup({ 'f.txt': 'x\n' });
    expect((await refused(runner, '*** Begin Patch\n*** End Patch')).code).toBe('invalid_arguments');
  });
});

describe('Codex paths: relative to the working directory, absolute accepted', () => {
  it('absolute path inside the workspace is accepted', async () => {
    const { platform, runner } = setup({ 'src/f.txt': 'old\n' });
    const output = await ok(runner, '*** Begin Patch\n*** Update File: /workspace/src/f.txt\n@@\n-old\n+new\n*** Add File: /workspace/g.txt\n+g\n*** End Patch');
    expect(output).toBe('Success. Updated the following files:\nM /workspace/src/f.txt\nA /workspace/g.txt\n');
    expect(await read(platform, 'src/f.txt')).toBe('new\n');
  });

  it.each([['/etc/passwd'], ['../outside.txt'], ['src/../../outside.txt']])('path outside the workspace (%s) is refused as outside_workspace and nothing is written', async (path) => {
    const { platform, runner } = setup({ 'f.txt': 'old\n' });
    const failure = await refused(runner, `*** Begin Patch\n*** Update File: f.txt\n@@\n-old\n+new\n*** Add File: ${path}\n+x\n*** End Patch`);
    expect(failure.code).toBe('outside_workspace');
    expect(await read(platform, 'f.txt')).toBe('old\n');
  });

  it('".." that stays inside the workspace is accepted', async () => {
    const { platform, runner } = setup({ 'a/f.txt': 'old\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: b/../a/f.txt\n@@\n-old\n+new\n*** End Patch');
    expect(await read(platform, 'a/f.txt')).toBe('new\n');
  });
});

describe('Codex seek_sequence passes', () => {
  it('exact match anywhere wins over a trailing-whitespace match earlier in the file (each pass scans the whole range)', async () => {
    const { platform, runner } = setup({ 'f.txt': 'v = 1   \nv = 1\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n-v = 1\n+v = 2\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('v = 1   \nv = 2\n');
  });

  it('trim-end pass: lines differing only in trailing whitespace match', async () => {
    const { platform, runner } = setup({ 'f.txt': 'if x:\t\n    go()  \n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n if x:\n-    go()\n+    stop()\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('if x:\t\n    stop()\n');
  });

  it('trim pass: lines differing in leading and trailing whitespace match', async () => {
    const { platform, runner } = setup({ 'f.txt': '        deep()\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n-deep()\n+        deeper()\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('        deeper()\n');
  });

  it.each([
    ['en dash', 'range 1\u20132', 'range 1-2'],
    ['em dash', 'wait\u2014what', 'wait-what'],
    ['minus sign', 'x = \u22121', 'x = -1'],
    ['curly double quotes', 'say \u201Chi\u201D', 'say "hi"'],
    ['curly single quotes', 'it\u2019s \u2018ok\u2019', "it's 'ok'"],
    ['no-break space', 'a\u00A0=\u00A01', 'a = 1'],
    ['narrow no-break and ideographic spaces', 'b\u202F=\u30002', 'b = 2'],
  ])('punctuation pass: %s in the file matches ASCII in the patch, and the context line keeps the file\'s text', async (_name, fileLine, patchLine) => {
    const { platform, runner } = setup({ 'f.txt': `${fileLine}\nnext\n` });
    await ok(runner, `*** Begin Patch\n*** Update File: f.txt\n@@\n ${patchLine}\n-next\n+NEXT\n*** End Patch`);
    expect(await read(platform, 'f.txt')).toBe(`${fileLine}\nNEXT\n`);
  });

  it('punctuation pass also works the other way: typographic punctuation in the patch matches ASCII in the file', async () => {
    const { platform, runner } = setup({ 'f.txt': 'say "hi" - now\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n-say \u201Chi\u201D \u2014 now\n+said\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('said\n');
  });
});

describe('Codex chunk location', () => {
  it('"@@ context" header seeks the header line first, so of two identical blocks the one after it changes', async () => {
    const { platform, runner } = setup({ 'f.py': 'def a():\n    return 0\ndef b():\n    return 0\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.py\n@@ def b():\n-    return 0\n+    return 1\n*** End Patch');
    expect(await read(platform, 'f.py')).toBe('def a():\n    return 0\ndef b():\n    return 1\n');
  });

  it('"@@ context" header not in the file is refused with Codex\'s "Failed to find context" wording', async () => {
    const { runner } = setup({ 'f.txt': 'a\n' });
    expect((await refused(runner, '*** Begin Patch\n*** Update File: f.txt\n@@ class Gone:\n-a\n+b\n*** End Patch')).error).toMatch(/^Failed to find context "class Gone:" in "f\.txt"/);
  });

  it('multiple chunks are located in order, each after the previous one', async () => {
    const { platform, runner } = setup({ 'f.txt': 'x\ny\nx\ny\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n-x\n+X1\n@@\n-x\n+X2\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('X1\ny\nX2\ny\n');
  });

  it('chunk that only matches before the previous chunk is refused (chunks must be in file order)', async () => {
    const { platform, runner } = setup({ 'f.txt': 'first\nsecond\n' });
    const failure = await refused(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n-second\n+2\n@@\n-first\n+1\n*** End Patch');
    expect(failure.code).toBe('no_match');
    expect(failure.error).toMatch(/^Failed to find expected lines in "f\.txt":\nfirst\n\(hunk 2 of 2/);
    expect(await read(platform, 'f.txt')).toBe('first\nsecond\n');
  });

  it('"*** End of File" chunk matches at the end of the file, not at an earlier equal block', async () => {
    const { platform, runner } = setup({ 'f.txt': 'end\nmid\nend\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n-end\n+END\n*** End of File\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('end\nmid\nEND\n');
  });

  it('"*** End of File" chunk whose lines are not the end of the file is refused, as Codex only tries the end', async () => {
    const { platform, runner } = setup({ 'f.txt': 'target\nlast\n' });
    const failure = await refused(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n-target\n+T\n*** End of File\n*** End Patch');
    expect(failure.code).toBe('no_match');
    expect(failure.error).toContain('at the end of the file (the hunk is marked "*** End of File")');
    expect(await read(platform, 'f.txt')).toBe('target\nlast\n');
  });

  it('pure addition (no context) is appended at the end of the file wherever it stands, and a later chunk still matches earlier lines', async () => {
    const { platform, runner } = setup({ 'f.txt': 'a\nb\nc\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n+x\n@@\n a\n-b\n+B\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('a\nB\nc\nx\n');
  });

  it('pure addition goes before a final blank line of the file', async () => {
    const { platform, runner } = setup({ 'f.txt': 'a\n\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n+x\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('a\nx\n\n');
  });

  it('toolhost keeps: a pure addition under a "@@ context" header goes right after that line (Codex appends it at the end)', async () => {
    const { platform, runner } = setup({ 'f.py': 'class A:\n    pass\nclass B:\n    pass\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.py\n@@ class A:\n+    x = 1\n*** End Patch');
    expect(await read(platform, 'f.py')).toBe('class A:\n    x = 1\n    pass\nclass B:\n    pass\n');
  });

  it('trailing empty context line that stands for the final line break is dropped when the lines are not found with it', async () => {
    const { platform, runner } = setup({ 'f.txt': 'one\ntwo\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n-two\n+2\n\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('one\n2\n');
  });

  it('deletion-only chunk removes the lines', async () => {
    const { platform, runner } = setup({ 'f.txt': 'keep\ndrop 1\ndrop 2\nkeep too\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n keep\n-drop 1\n-drop 2\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('keep\nkeep too\n');
  });

  it('toolhost keeps: a file without a final line break keeps having none (Codex adds one)', async () => {
    const { platform, runner } = setup({ 'f.txt': 'a\nb' });
    await ok(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n-a\n+A\n*** End Patch');
    expect(await read(platform, 'f.txt')).toBe('A\nb');
  });

  it('context lines that are not in the file are refused with Codex\'s "Failed to find expected lines in <path>:" and the hunk\'s old lines', async () => {
    const { runner } = setup({ 'f.txt': 'alpha\nbeta\n' });
    const failure = await refused(runner, '*** Begin Patch\n*** Update File: f.txt\n@@\n alpha\n-gamma\n+delta\n*** End Patch');
    expect(failure).toMatchObject({ code: 'no_match' });
    expect(failure.error).toBe(
      'Failed to find expected lines in "f.txt":\nalpha\ngamma\n(hunk 1 of 1: the line "gamma" was not found after line 1, where the hunk\'s earlier lines match, ' +
        'compared exactly, then ignoring trailing and surrounding whitespace, then typographic punctuation). Nothing was changed. Read the file and copy the context lines exactly.',
    );
  });
});

describe('Codex file operations, with toolhost\'s stale_file underneath', () => {
  it('"*** Add File" over an existing file the conversation never read overwrites it, as Codex does', async () => {
    const { platform, runner } = setup({ 'dup.txt': 'before\n' });
    expect(await ok(runner, '*** Begin Patch\n*** Add File: dup.txt\n+after\n*** End Patch')).toBe('Success. Updated the following files:\nA /workspace/dup.txt\n');
    expect(await read(platform, 'dup.txt')).toBe('after\n');
  });

  it('"*** Move to:" onto an existing file overwrites the destination, as Codex does', async () => {
    const { platform, runner } = setup({ 'old/name.txt': 'from\n', 'renamed/name.txt': 'taken\n' });
    expect(await ok(runner, '*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/name.txt\n@@\n-from\n+moved\n*** End Patch')).toBe(
      'Success. Updated the following files:\nM /workspace/renamed/name.txt\n',
    );
    expect(await read(platform, 'renamed/name.txt')).toBe('moved\n');
    expect(await exists(platform, 'old/name.txt')).toBe(false);
  });

  it('toolhost keeps stale_file: "*** Add File" over a file that changed since this conversation read it is refused and nothing is written', async () => {
    const { platform, runner } = setup({ 'a.txt': 'v1\n', 'b.txt': 'b\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: a.txt\n@@\n-v1\n+v2\n*** End Patch');
    await platform.fs.writeFile('/workspace/a.txt', 'edited elsewhere\n');
    const failure = await refused(runner, '*** Begin Patch\n*** Update File: b.txt\n@@\n-b\n+B\n*** Add File: a.txt\n+mine\n*** End Patch');
    expect(failure.code).toBe('stale_file');
    expect(failure.error).toBe('/workspace/a.txt has changed since you last read it, so it was not replaced by "*** Add File:"; read it again, then retry the patch');
    expect(await read(platform, 'a.txt')).toBe('edited elsewhere\n');
    expect(await read(platform, 'b.txt')).toBe('b\n');
  });

  it('toolhost keeps stale_file: "*** Move to:" onto a file that changed since this conversation read it is refused', async () => {
    const { platform, runner } = setup({ 'src.txt': 's\n', 'dst.txt': 'd1\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: dst.txt\n@@\n-d1\n+d2\n*** End Patch');
    await platform.fs.writeFile('/workspace/dst.txt', 'd3\n');
    expect((await refused(runner, '*** Begin Patch\n*** Update File: src.txt\n*** Move to: dst.txt\n@@\n-s\n+S\n*** End Patch')).code).toBe('stale_file');
    expect(await read(platform, 'dst.txt')).toBe('d3\n');
    expect(await read(platform, 'src.txt')).toBe('s\n');
  });

  it('deletion of a file removes it; deleting a missing file or a directory is refused', async () => {
    const { platform, runner } = setup({ 'obsolete.txt': 'x\n', 'keep.txt': 'k\n', 'dir/inner.txt': 'i\n' });
    expect(await ok(runner, '*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch')).toBe('Success. Updated the following files:\nD /workspace/obsolete.txt\n');
    expect(await exists(platform, 'obsolete.txt')).toBe(false);
    expect(await read(platform, 'keep.txt')).toBe('k\n');
    expect((await refused(runner, '*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch')).code).toBe('not_found');
    expect((await refused(runner, '*** Begin Patch\n*** Delete File: dir\n*** End Patch')).code).toBe('is_a_directory');
    expect(await read(platform, 'dir/inner.txt')).toBe('i\n');
  });

  it('update of a missing file is refused (Codex requires an existing file for update)', async () => {
    const { runner } = setup();
    expect((await refused(runner, UPDATE)).code).toBe('not_found');
  });

  it('toolhost keeps all-or-nothing: a patch failing at its last operation changes nothing (Codex leaves the earlier changes) and never reports success', async () => {
    const { platform, runner } = setup({ 'm.txt': 'm\n', 'gone.txt': 'g\n' });
    const failure = await refused(
      runner,
      '*** Begin Patch\n*** Add File: created.txt\n+new\n*** Update File: m.txt\n@@\n-m\n+M\n*** Delete File: gone.txt\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch',
    );
    expect(failure.code).toBe('not_found');
    expect(failure.error).not.toMatch(/Success/);
    expect(await exists(platform, 'created.txt')).toBe(false);
    expect(await read(platform, 'm.txt')).toBe('m\n');
    expect(await read(platform, 'gone.txt')).toBe('g\n');
  });
});

describe('toolhost leniencies beyond Codex', () => {
  it('toolhost keeps: blank lines after an Add File\'s lines or a Delete File line, before the next operation, are skipped', async () => {
    const { platform, runner } = setup({ 'old.txt': 'o\n', 'f.txt': 'old\n' });
    await ok(runner, '*** Begin Patch\n*** Add File: n.txt\n+n\n\n\n*** Delete File: old.txt\n\n*** Update File: f.txt\n@@\n-old\n+new\n*** End Patch');
    expect(await read(platform, 'n.txt')).toBe('n\n');
    expect(await exists(platform, 'old.txt')).toBe(false);
    expect(await read(platform, 'f.txt')).toBe('new\n');
  });

  it('a blank line inside an Add File\'s lines, followed by more lines, is refused (every line of a new file starts with "+")', async () => {
    const { runner } = setup();
    expect((await refused(runner, '*** Begin Patch\n*** Add File: n.txt\n+a\n\n+b\n*** End Patch')).error).toBe(
      'line 4: "" in "*** Add File: n.txt" does not start with "+"; every line of a new file starts with "+"',
    );
  });

  it('toolhost keeps: "*** Move to:" without hunks is a pure rename', async () => {
    const { platform, runner } = setup({ 'a.txt': 'same\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch');
    expect(await read(platform, 'b.txt')).toBe('same\n');
    expect(await exists(platform, 'a.txt')).toBe(false);
  });

  it('toolhost keeps: two operations on one path are refused with a message to merge them', async () => {
    const { runner } = setup({ 'a.txt': 'x\n' });
    expect((await refused(runner, '*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** Delete File: a.txt\n*** End Patch')).error).toBe(
      'line 6: "a.txt" appears in two operations of one patch; put all changes to a file in one "*** Update File:" section',
    );
  });

  it('toolhost keeps: two operations naming one file in two spellings (./a.txt, the absolute path, sub/../a.txt, a move onto it) are refused, nothing changed', async () => {
    const spellings = ['./a.txt', '/workspace/a.txt', 'sub/../a.txt', './/a.txt'];
    for (const other of spellings) {
      const { platform, runner } = setup({ 'a.txt': 'alpha\nbeta\n', 'sub/k.txt': 'k\n' });
      const answer = await refused(runner, `*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** Update File: ${other}\n@@\n-beta\n+BETA\n*** End Patch`);
      expect([answer.code, answer.error]).toEqual([
        'invalid_arguments',
        `"a.txt" and ${JSON.stringify(other)} name one file (/workspace/a.txt) in two operations of one patch; put all changes to a file in one "*** Update File:" section; nothing was changed`,
      ]);
      expect(await read(platform, 'a.txt')).toBe('alpha\nbeta\n');
    }
    // Two moves onto one target: the first file's content would be lost.
    const { platform, runner } = setup({ 'p.txt': 'p\n', 'q.txt': 'q\n' });
    const moves = await refused(runner, '*** Begin Patch\n*** Update File: p.txt\n*** Move to: t.txt\n*** Update File: q.txt\n*** Move to: ./t.txt\n*** End Patch');
    expect(moves.error).toBe('"t.txt" and "./t.txt" name one file (/workspace/t.txt) in two operations of one patch; put all changes to a file in one "*** Update File:" section; nothing was changed');
    expect([await read(platform, 'p.txt'), await read(platform, 'q.txt'), await exists(platform, 't.txt')]).toEqual(['p\n', 'q\n', false]);
  });

  it('toolhost keeps: a 20,000-line hunk that nearly matches a 40,000-line file nowhere is no_match within its call deadline, quoting the first missing line', async () => {
    // Every other line of the file: each position matches one line, then not. Compared line by line at
    // every position, and searched again for each shorter prefix to quote the missing line, this took
    // 80 s (the deadline could not fire: the search never yielded); by keys it is linear.
    const file = Array.from({ length: 40_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const hunk = Array.from({ length: 20_000 }, (_, i) => `-line ${2 * i}`).join('\n');
    const { platform, runner } = setup({ 'big.txt': file });
    const [result] = (await runner.processToolCalls([{ id: 'c', name: 'apply_patch', args: { input: `*** Begin Patch\n*** Update File: big.txt\n@@\n${hunk}\n*** End Patch` } }], { timeoutMs: 30_000 })) as [ToolCallFailure];
    expect(result.code).toBe('no_match');
    expect(result.error).toContain('(hunk 1 of 1: the line "line 2" was not found after line 1, where the hunk\'s earlier lines match');
    expect(await read(platform, 'big.txt')).toBe(file);
  });

  it('toolhost keeps: a no_match quotes at most the first 50 of the hunk\'s old lines and says how many more (Codex quotes them all), still naming the first missing line', async () => {
    const file = Array.from({ length: 2_000 }, (_, i) => `row ${i}`).join('\n') + '\n';
    // 1,000 lines that match from the top except line 700, which the file does not have.
    const old = Array.from({ length: 1_000 }, (_, i) => (i === 700 ? 'row seven hundred' : `row ${i}`));
    const { platform, runner } = setup({ 'rows.txt': file });
    const failure = await refused(runner, `*** Begin Patch\n*** Update File: rows.txt\n@@\n${old.map((line) => `-${line}`).join('\n')}\n*** End Patch`);
    expect(failure.code).toBe('no_match');
    expect(failure.error.startsWith(`Failed to find expected lines in "rows.txt":\n${old.slice(0, 50).join('\n')}\n[… 950 more lines of the hunk not quoted]\n(hunk 1 of 1: the line "row seven hundred" was not found after line 700, where the hunk's earlier lines match`)).toBe(true);
    expect(failure.error).not.toContain('row 50\n');
    expect(failure.error.length).toBeLessThan(1_000);
    // A hunk of exactly 50 old lines is quoted whole, as before.
    const fifty = await refused(runner, `*** Begin Patch\n*** Update File: rows.txt\n@@\n${[...old.slice(0, 49), 'absent'].map((line) => `-${line}`).join('\n')}\n*** End Patch`);
    expect(fifty.error.startsWith(`Failed to find expected lines in "rows.txt":\n${[...old.slice(0, 49), 'absent'].join('\n')}\n(hunk 1 of 1: the line "absent" was not found`)).toBe(true);
    expect(await read(platform, 'rows.txt')).toBe(file);
  });

  it('toolhost keeps: a unified diff\'s "@@ -1,2 +1,2 @@" header is answered with what this format takes instead', async () => {
    const { platform, runner } = setup({ 'u.txt': 'one\ntwo\n' });
    const answer = await refused(runner, '*** Begin Patch\n*** Update File: u.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n*** End Patch');
    expect(answer.code).toBe('no_match');
    expect(answer.error).toBe(
      'Failed to find context "-1,2 +1,2 @@" in "u.txt" (hunk 1 of 1: the line after "@@" was not found). Nothing was changed. ' +
        'That is a unified diff\'s line range: this patch format takes no ranges; write "@@" alone, or "@@" and a line of the file (a function\'s or class\'s first line) before the hunk.',
    );
    expect(await read(platform, 'u.txt')).toBe('one\ntwo\n');
  });

  it('toolhost keeps: CRLF line endings of the file stay CRLF when hunks are written with LF', async () => {
    const { platform, runner } = setup({ 'w.txt': 'one\r\ntwo\r\n' });
    await ok(runner, '*** Begin Patch\n*** Update File: w.txt\n@@\n one\n-two\n+2\n+3\n*** End Patch');
    expect(await read(platform, 'w.txt')).toBe('one\r\n2\r\n3\r\n');
  });
});

describe('Codex on symbolic links: a Delete and a Move act on the link named, not on the file it points to', () => {
  /** A workspace with `t.txt` and the link `ln.txt -> t.txt` (and what `files` adds). */
  async function linked(files: Record<string, string> = {}): Promise<{ platform: Platform; runner: ToolRunner }> {
    const made = setup({ 't.txt': 'kept\nline\n', ...files });
    await made.platform.fs.symlink('t.txt', '/workspace/ln.txt');
    return made;
  }
  const isLink = async (platform: Platform, path: string): Promise<boolean> =>
    platform.fs.lstat(`/workspace/${path}`).then((s) => s.isSymbolicLink(), () => false);

  it('"*** Delete File:" on a link removes the link; the file it pointed to stays as it was', async () => {
    const { platform, runner } = await linked();
    expect(await ok(runner, '*** Begin Patch\n*** Delete File: ln.txt\n*** End Patch')).toBe('Success. Updated the following files:\nD /workspace/ln.txt\n');
    expect([await isLink(platform, 'ln.txt'), await read(platform, 't.txt')]).toEqual([false, 'kept\nline\n']);
  });

  it('"*** Move to:" from a link writes the new content at the destination and removes the link; the file it pointed to stays', async () => {
    const { platform, runner } = await linked();
    const result = await call(runner, '*** Begin Patch\n*** Update File: ln.txt\n*** Move to: moved.txt\n@@\n-line\n+LINE\n*** End Patch');
    expect(result).toMatchObject({ result: { changes: [{ action: 'M', path: '/workspace/moved.txt', moved_from: '/workspace/ln.txt' }] } });
    expect([await read(platform, 'moved.txt'), await isLink(platform, 'moved.txt'), await isLink(platform, 'ln.txt'), await read(platform, 't.txt')]).toEqual([
      'kept\nLINE\n',
      false,
      false,
      'kept\nline\n',
    ]);
  });

  it('a pure rename of a link (no hunks) leaves a copy of the content under the new name and the old file in place', async () => {
    const { platform, runner } = await linked();
    await ok(runner, '*** Begin Patch\n*** Update File: ln.txt\n*** Move to: sub/renamed.txt\n*** End Patch');
    expect([await read(platform, 'sub/renamed.txt'), await exists(platform, 'ln.txt'), await read(platform, 't.txt')]).toEqual(['kept\nline\n', false, 'kept\nline\n']);
  });

  it('moving a link onto the file it points to writes that file and removes the link', async () => {
    const { platform, runner } = await linked();
    await ok(runner, '*** Begin Patch\n*** Update File: ln.txt\n*** Move to: t.txt\n@@\n-kept\n+KEPT\n*** End Patch');
    expect([await isLink(platform, 'ln.txt'), await read(platform, 't.txt')]).toEqual([false, 'KEPT\nline\n']);
  });

  it('an update in place through a link still writes the file it points to and keeps the link', async () => {
    const { platform, runner } = await linked();
    expect(await ok(runner, '*** Begin Patch\n*** Update File: ln.txt\n@@\n-line\n+LINE\n*** End Patch')).toBe('Success. Updated the following files:\nM /workspace/t.txt\n');
    expect([await isLink(platform, 'ln.txt'), await read(platform, 't.txt')]).toEqual([true, 'kept\nLINE\n']);
  });

  it('a link to a file outside the workspace: a Delete removes the link only; a Move or an update through it is outside_workspace and nothing changes', async () => {
    const { platform, runner } = setup({ 'a.txt': 'a\n' });
    await platform.fs.mkdir('/outside');
    await platform.fs.writeFile('/outside/secret.txt', 'secret\n');
    await platform.fs.symlink('/outside/secret.txt', '/workspace/out.txt');
    for (const patch of [
      '*** Update File: out.txt\n*** Move to: copy.txt',
      '*** Update File: out.txt\n@@\n-secret\n+changed',
      '*** Update File: a.txt\n*** Move to: out.txt',
    ]) {
      const failure = await refused(runner, `*** Begin Patch\n${patch}\n*** End Patch`);
      expect(failure.code).toBe('outside_workspace');
    }
    expect([await exists(platform, 'copy.txt'), await isLink(platform, 'out.txt'), await read(platform, 'a.txt')]).toEqual([false, true, 'a\n']);
    await ok(runner, '*** Begin Patch\n*** Delete File: out.txt\n*** End Patch');
    expect([await isLink(platform, 'out.txt'), decode(await platform.fs.readFile('/outside/secret.txt'))]).toEqual([false, 'secret\n']);
  });

  it('toolhost keeps: a Delete of a dangling link removes it (Codex reads the target before deleting, so it refuses one)', async () => {
    const { platform, runner } = setup({ 'a.txt': 'a\n' });
    await platform.fs.symlink('gone.txt', '/workspace/dangling.txt');
    await ok(runner, '*** Begin Patch\n*** Delete File: dangling.txt\n*** End Patch');
    expect(await isLink(platform, 'dangling.txt')).toBe(false);
  });

  it('a Delete of a link and an update of its target name two entries and both apply; a Move of a link and a change to its target are one file and refused', async () => {
    const both = await linked();
    await ok(both.runner, '*** Begin Patch\n*** Delete File: ln.txt\n*** Update File: t.txt\n@@\n-line\n+LINE\n*** End Patch');
    expect([await isLink(both.platform, 'ln.txt'), await read(both.platform, 't.txt')]).toEqual([false, 'kept\nLINE\n']);

    for (const [patch, message] of [
      ['*** Update File: t.txt\n@@\n-line\n+LINE\n*** Update File: ln.txt\n*** Move to: m.txt', '"t.txt" and "ln.txt" name one file (/workspace/t.txt)'],
      ['*** Update File: ln.txt\n*** Move to: m.txt\n*** Delete File: t.txt', '"ln.txt" and "t.txt" name one file (/workspace/t.txt)'],
      ['*** Delete File: t.txt\n*** Update File: ln.txt\n@@\n-line\n+LINE', '"t.txt" and "ln.txt" name one file (/workspace/t.txt)'],
      ['*** Delete File: ln.txt\n*** Update File: ./ln.txt\n*** Move to: m.txt', '"ln.txt" and "./ln.txt" name one file (/workspace/ln.txt)'],
    ] as const) {
      const { platform, runner } = await linked();
      const failure = await refused(runner, `*** Begin Patch\n${patch}\n*** End Patch`);
      expect([failure.code, failure.error.startsWith(message)]).toEqual(['invalid_arguments', true]);
      expect([await isLink(platform, 'ln.txt'), await read(platform, 't.txt'), await exists(platform, 'm.txt')]).toEqual([true, 'kept\nline\n', false]);
    }
  });

  it('all or nothing: a link moved or deleted before a later write fails is made again, and the destination removed', async () => {
    const { platform } = await linked();
    const fs = platform.fs;
    const failing = new Proxy(fs, {
      get: (target, key) =>
        key === 'writeFile' || key === 'writeFileAtomic' || key === 'rename'
          ? async (path: string, ...rest: unknown[]) => {
              if (String(path).includes('z.txt')) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
              return (target[key as 'rename'] as (...args: unknown[]) => Promise<void>).call(target, path, ...rest);
            }
          : (Reflect.get(target, key) as unknown),
    });
    const broken = new ToolRunner({ platform: { ...platform, fs: failing }, tools: toolProfiles.openai() });
    for (const patch of ['*** Update File: ln.txt\n*** Move to: moved.txt', '*** Delete File: ln.txt']) {
      const failure = await refused(broken, `*** Begin Patch\n${patch}\n*** Add File: z.txt\n+z\n*** End Patch`);
      expect(failure.error).toMatch(/^the patch could not be written .*the files it had changed were restored$/);
      expect([await isLink(platform, 'ln.txt'), await fs.readlink('/workspace/ln.txt'), await exists(platform, 'moved.txt'), await read(platform, 't.txt')]).toEqual([
        true,
        't.txt',
        false,
        'kept\nline\n',
      ]);
    }
  });
});
