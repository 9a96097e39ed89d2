import { describe, expect, it } from 'vitest';
import { fingerprintBytes } from '../core/file-cache.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner, type ToolCallFailure, type ToolCallResult } from '../runner.js';
import { defineTool } from '../core/tool.js';
import type { Platform } from '../core/types.js';
import { createFileTool } from './create-file.js';
import { editFileTool, type EditFileResult } from './edit-file.js';
import { viewFileTool } from './view-file.js';
import { writeOutside } from '../../test/support/outside.js';

const decode = (bytes: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

function setup(files: Record<string, string | Uint8Array> = {}, platform?: Platform): { platform: Platform; runner: ToolRunner } {
  const p = platform ?? createMemoryPlatform({ files });
  return { platform: p, runner: new ToolRunner({ platform: p, tools: [editFileTool, viewFileTool, createFileTool] }) };
}

async function edit(runner: ToolRunner, args: Record<string, unknown>): Promise<EditFileResult> {
  return (await runner.execute('edit_file', args)) as EditFileResult;
}

async function failure(runner: ToolRunner, args: Record<string, unknown>): Promise<ToolCallFailure> {
  const [result] = (await runner.processToolCalls([{ id: 'e1', name: 'edit_file', args }])) as [ToolCallResult];
  expect(result).toHaveProperty('code');
  expect(result.id).toBe('e1');
  return result as ToolCallFailure;
}

async function read(platform: Platform, path: string): Promise<string> {
  return decode(await platform.fs.readFile(path));
}

describe('edit_file', () => {
  it('pins its model-facing schema', () => {
    expect(editFileTool.name).toBe('edit_file');
    expect(editFileTool.annotations?.readOnlyHint).toBe(false);
    expect(typeof editFileTool.execute).toBe('function');
    expect(editFileTool.inputSchema).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "expected_replacements": {
            "description": "How many occurrences you expect to replace; the edit fails without changing anything if old_string occurs a different number of times. When it matches, all of them are replaced.",
            "minimum": 1,
            "type": "integer",
          },
          "file_path": {
            "description": "The file to edit: an absolute workspace path (e.g. /workspace/src/index.ts) or a path relative to the working directory.",
            "type": "string",
          },
          "new_string": {
            "description": "The text that replaces old_string, taken literally ($&, $1 and backslashes are plain text). Its line breaks are written in the file's own style.",
            "type": "string",
          },
          "old_string": {
            "description": "The exact text to replace, copied from the file including indentation and whitespace (no line-number prefixes). It must occur exactly once unless replace_all or expected_replacements is set; include surrounding lines to make it unique. Line breaks may be written as \\n whatever the file uses. An empty old_string creates a file that does not exist yet.",
            "type": "string",
          },
          "replace_all": {
            "description": "Replace every occurrence of old_string, left to right and non-overlapping (default false: exactly one occurrence).",
            "type": "boolean",
          },
        },
        "required": [
          "file_path",
          "old_string",
          "new_string",
        ],
        "type": "object",
      }
    `);
  });

  it('replaces one occurrence and returns a unified diff', async () => {
    const { runner, platform } = setup({ 'a.txt': 'one\ntwo\nthree\n' });
    expect(await edit(runner, { file_path: 'a.txt', old_string: 'two', new_string: '2' })).toEqual({
      file_path: '/workspace/a.txt',
      replacements: 1,
      diff: '--- /workspace/a.txt\n+++ /workspace/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
    });
    expect(await read(platform, '/workspace/a.txt')).toBe('one\n2\nthree\n');
  });

  it('shows 3 lines of context and a missing final newline in the diff', async () => {
    const content = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7', 'l8', 'l9'].join('\n');
    const { runner } = setup({ 'a.txt': content });
    const result = await edit(runner, { file_path: 'a.txt', old_string: 'l9', new_string: 'nine' });
    expect(result.diff).toBe(
      '--- /workspace/a.txt\n+++ /workspace/a.txt\n@@ -6,4 +6,4 @@\n l6\n l7\n l8\n-l9\n\\ No newline at end of file\n+nine\n\\ No newline at end of file\n',
    );
  });

  describe('diff of long lines', () => {
    const header = (name: string): string => `--- /workspace/${name}\n+++ /workspace/${name}\n`;

    it('shows a changed 200,000-character line as an excerpt around the change', async () => {
      const { runner, platform } = setup({ 'min.js': 'x'.repeat(100_000) + 'MID' + 'y'.repeat(100_000) });
      const result = await edit(runner, { file_path: 'min.js', old_string: 'MID', new_string: 'NEW' });
      const window = (change: string): string =>
        `[... 99800 characters before] ${'x'.repeat(200)}${change}${'y'.repeat(200)} [... 99800 characters after]`;
      expect(result.diff).toBe(
        `${header('min.js')}@@ -1,1 +1,1 @@\n-${window('MID')}\n\\ No newline at end of file\n+${window('NEW')}\n\\ No newline at end of file\n`,
      );
      expect(await read(platform, '/workspace/min.js')).toBe('x'.repeat(100_000) + 'NEW' + 'y'.repeat(100_000));
      // A change longer than the window shows its first 2000 characters, from 200 before it.
      const big = await edit(runner, { file_path: 'min.js', old_string: 'y'.repeat(100_000), new_string: 'z'.repeat(100_000) });
      expect(big.diff.length).toBeLessThan(4300);
      expect(big.diff).toContain(`\n+[... 99803 characters before] ${'x'.repeat(197)}NEW${'z'.repeat(1800)} [... 98200 characters after]\n`);
    });

    it('cuts long context and added lines to their first 2000 characters', async () => {
      const { runner } = setup({ 'a.txt': `${'a'.repeat(3000)}\n${'b'.repeat(3000)}OLD${'c'.repeat(10)}\nend\n` });
      const changed = await edit(runner, { file_path: 'a.txt', old_string: 'OLD', new_string: 'NEW' });
      expect(changed.diff).toBe(
        `${header('a.txt')}@@ -1,3 +1,3 @@\n ${'a'.repeat(2000)} [... 1000 characters after]\n` +
          `-[... 2800 characters before] ${'b'.repeat(200)}OLD${'c'.repeat(10)}\n` +
          `+[... 2800 characters before] ${'b'.repeat(200)}NEW${'c'.repeat(10)}\n end\n`,
      );
      const inserted = await edit(runner, { file_path: 'a.txt', old_string: 'end\n', new_string: `end\n${'d'.repeat(2500)}\n` });
      expect(inserted.diff).toBe(
        `${header('a.txt')}@@ -1,3 +1,4 @@\n ${'a'.repeat(2000)} [... 1000 characters after]\n` +
          ` ${'b'.repeat(2000)} [... 1013 characters after]\n end\n+${'d'.repeat(2000)} [... 500 characters after]\n`,
      );
    });

    it('never starts an excerpt inside an emoji', async () => {
      const { runner } = setup({ 'e.txt': '😀'.repeat(1500) + '😃' + '😀'.repeat(10) + '\n' });
      const result = await edit(runner, { file_path: 'e.txt', old_string: '😃', new_string: '😁' });
      expect(result.diff).toBe(
        `${header('e.txt')}@@ -1,1 +1,1 @@\n` +
          `-[... 1400 characters before] ${'😀'.repeat(100)}😃${'😀'.repeat(10)}\n` +
          `+[... 1400 characters before] ${'😀'.repeat(100)}😁${'😀'.repeat(10)}\n`,
      );
    });
  });

  it('treats $&, $1, $$ and backslashes literally', async () => {
    const { runner, platform } = setup({ 'a.js': 'const price = X;\nconst re = /a\\d/;\n' });
    await edit(runner, { file_path: 'a.js', old_string: 'X', new_string: "'$&$1$$' + `$'` + \"$`\"" });
    expect(await read(platform, '/workspace/a.js')).toBe("const price = '$&$1$$' + `$'` + \"$`\";\nconst re = /a\\d/;\n");
    await edit(runner, { file_path: 'a.js', old_string: '/a\\d/', new_string: '/\\$1\\\\/' });
    expect(await read(platform, '/workspace/a.js')).toContain('const re = /\\$1\\\\/;');
    // old_string with regex/replacement metacharacters matches literally.
    await edit(runner, { file_path: 'a.js', old_string: "'$&$1$$'", new_string: 'ok' });
    expect(await read(platform, '/workspace/a.js')).toContain('const price = ok + ');
  });

  it('keeps tabs', async () => {
    const { runner, platform } = setup({ 'Makefile': 'all:\n\tcc -o a a.c\n\techo done\n' });
    await edit(runner, { file_path: 'Makefile', old_string: '\tcc -o a a.c', new_string: '\tcc -O2 -o a a.c\n\tstrip a' });
    expect(await read(platform, '/workspace/Makefile')).toBe('all:\n\tcc -O2 -o a a.c\n\tstrip a\n\techo done\n');
  });

  describe('line endings and BOM', () => {
    it('matches an old_string written with \\n in a CRLF file and keeps CRLF', async () => {
      const { runner, platform } = setup({ 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
      const result = await edit(runner, { file_path: 'win.txt', old_string: 'one\ntwo\n', new_string: 'uno\ndos\ndos y medio\n' });
      expect(result.replacements).toBe(1);
      expect(await read(platform, '/workspace/win.txt')).toBe('uno\r\ndos\r\ndos y medio\r\nthree\r\n');
      expect(result.diff).toBe(
        '--- /workspace/win.txt\n+++ /workspace/win.txt\n@@ -1,3 +1,4 @@\n-one\n-two\n+uno\n+dos\n+dos y medio\n three\n',
      );
    });

    it('gives new lines CRLF even when the edited span has no line break', async () => {
      const { runner, platform } = setup({ 'win.txt': 'a\r\nb\r\n' });
      await edit(runner, { file_path: 'win.txt', old_string: 'b', new_string: 'b\nc' });
      expect(await read(platform, '/workspace/win.txt')).toBe('a\r\nb\r\nc\r\n');
    });

    it('matches an old_string written with \\r\\n in an LF file and keeps LF', async () => {
      const { runner, platform } = setup({ 'unix.txt': 'one\ntwo\n' });
      await edit(runner, { file_path: 'unix.txt', old_string: 'one\r\ntwo', new_string: '1\r\n2' });
      expect(await read(platform, '/workspace/unix.txt')).toBe('1\n2\n');
    });

    it('changes only the edited span of a mixed-ending file', async () => {
      const { runner, platform } = setup({ 'mixed.txt': 'a\r\nb\r\nc\nd\ne\r\n' });
      await edit(runner, { file_path: 'mixed.txt', old_string: 'c\nd', new_string: 'C\nD\nD2' });
      expect(await read(platform, '/workspace/mixed.txt')).toBe('a\r\nb\r\nC\nD\nD2\ne\r\n');
      await edit(runner, { file_path: 'mixed.txt', old_string: 'a\nb', new_string: 'A\nB' });
      expect(await read(platform, '/workspace/mixed.txt')).toBe('A\r\nB\r\nC\nD\nD2\ne\r\n');
    });

    it('keeps CR-only endings', async () => {
      const { runner, platform } = setup({ 'mac.txt': 'x\ry\r' });
      await edit(runner, { file_path: 'mac.txt', old_string: 'x\ny', new_string: 'x\nnew\ny' });
      expect(await read(platform, '/workspace/mac.txt')).toBe('x\rnew\ry\r');
    });

    it('keeps the BOM bytes', async () => {
      const bom = [0xef, 0xbb, 0xbf];
      const { runner, platform } = setup({ 'bom.txt': new Uint8Array([...bom, ...new TextEncoder().encode('hello\n')]) });
      await edit(runner, { file_path: 'bom.txt', old_string: 'hello', new_string: 'bye' });
      const bytes = await platform.fs.readFile('/workspace/bom.txt');
      expect([...bytes]).toEqual([...bom, ...new TextEncoder().encode('bye\n')]);
    });

    it('says the BOM is not part of the text when old_string starts with one', async () => {
      const { runner, platform } = setup({ 'bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('hello world\nbye\n')]) });
      expect(await failure(runner, { file_path: 'bom.txt', old_string: '\uFEFFhello', new_string: 'hi' })).toMatchObject({
        code: 'no_match',
        error:
          'old_string was not found in /workspace/bom.txt. old_string starts with a byte order mark (U+FEFF), but the file\'s BOM ' +
          'is not part of its text: view_file hides it and edit_file keeps it as it is. Remove it from the start of old_string: ' +
          'without it, old_string is found at line 1.',
      });
      expect((await failure(runner, { file_path: 'bom.txt', old_string: '\uFEFFbye\n', new_string: 'x' })).error).toContain(
        'Remove it from the start of old_string: without it, old_string is found at line 2.',
      );
      expect((await failure(runner, { file_path: 'bom.txt', old_string: '\uFEFFzzz', new_string: 'x' })).error).toMatch(
        /not part of its text: view_file hides it and edit_file keeps it as it is\. Remove it from the start of old_string\.$/,
      );
      // Without it, the edit goes through and the BOM stays.
      await edit(runner, { file_path: 'bom.txt', old_string: 'hello', new_string: 'hi' });
      expect(Array.from((await platform.fs.readFile('/workspace/bom.txt')).subarray(0, 5))).toEqual([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    });

    it('says a file without a BOM does not have the one old_string starts with', async () => {
      const { runner } = setup({ 'a.txt': 'a\nb\n' });
      expect((await failure(runner, { file_path: 'a.txt', old_string: '\uFEFFb', new_string: 'c' })).error).toBe(
        'old_string was not found in /workspace/a.txt. old_string starts with a byte order mark (U+FEFF), which the file does not have. ' +
          'Remove it from the start of old_string: without it, old_string is found at line 2.',
      );
    });

    it('returns no_change when new_string differs only in line-break style', async () => {
      const { runner, platform } = setup({ 'unix.txt': 'a\nb\n' });
      const error = await failure(runner, { file_path: 'unix.txt', old_string: 'a\nb', new_string: 'a\r\nb' });
      expect(error.code).toBe('no_change');
      expect(await read(platform, '/workspace/unix.txt')).toBe('a\nb\n');
    });
  });

  describe('no_match', () => {
    it('names the closest line when only indentation differs', async () => {
      const { runner, platform } = setup({ 'a.py': 'def f():\n  return 1\n\ndef g():\n  return 2\n' });
      const error = await failure(runner, { file_path: 'a.py', old_string: '    return 2', new_string: '    return 3' });
      expect(error.code).toBe('no_match');
      expect(error.error).toContain('old_string was not found in /workspace/a.py');
      expect(error.error).toContain('closest line is 5: "  return 2"');
      expect(error.error).toContain('only in whitespace');
      expect(error.error).toContain('indentation differs (file: 2 spaces; old_string: 4 spaces)');
      expect(await read(platform, '/workspace/a.py')).toBe('def f():\n  return 1\n\ndef g():\n  return 2\n');
    });

    it('says when the file uses tabs and old_string spaces', async () => {
      const { runner } = setup({ 'a.go': 'func main() {\n\tfmt.Println("hi")\n}\n' });
      const error = await failure(runner, { file_path: 'a.go', old_string: '    fmt.Println("hi")', new_string: 'x' });
      expect(error.code).toBe('no_match');
      expect(error.error).toContain('closest line is 2: "\\tfmt.Println(\\"hi\\")"');
      expect(error.error).toContain('the file indents it with tabs, old_string with spaces');
    });

    it('points at the line where a multi-line old_string stops matching', async () => {
      const { runner } = setup({ 'a.ts': 'function f() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}\n' });
      const error = await failure(runner, {
        file_path: 'a.ts',
        old_string: 'function f() {\n  const a = 1;\n  const b = 3;\n',
        new_string: 'x',
      });
      expect(error.code).toBe('no_match');
      expect(error.error).toContain('Line 1 matches the start of old_string, but line 3 differs');
      expect(error.error).toContain('the file has "  const b = 2;" where old_string has "  const b = 3;"');
    });

    it('names the most similar line otherwise', async () => {
      const { runner } = setup({ 'a.ts': 'import x from "y";\nconst total = computeTotal(items);\nexport default total;\n' });
      const error = await failure(runner, { file_path: 'a.ts', old_string: 'const total = computeTotals(items)', new_string: 'x' });
      expect(error.code).toBe('no_match');
      expect(error.error).toContain('closest line is 2: "const total = computeTotal(items);"');
    });

    it('quotes at most 200 characters of a long line or old_string', async () => {
      const long = 'x'.repeat(5000) + ' = 1';
      const { runner } = setup({ 'long.txt': `  ${long}\n`, 'two.txt': `a\n${long}\n` });
      expect((await failure(runner, { file_path: 'long.txt', old_string: `    ${long}`, new_string: 'y' })).error).toBe(
        `old_string was not found in /workspace/long.txt. The closest line is 1: "  ${'x'.repeat(198)}…" (4806 more characters), ` +
          'which differs from old_string only in whitespace: the indentation differs (file: 2 spaces; old_string: 4 spaces). ' +
          'Copy indentation and whitespace exactly as the file has them.',
      );
      expect((await failure(runner, { file_path: 'two.txt', old_string: `a\n${long}!`, new_string: 'y' })).error).toBe(
        'old_string was not found in /workspace/two.txt. Line 1 matches the start of old_string, but line 2 differs: ' +
          `the file has "${'x'.repeat(200)}…" (4804 more characters) where old_string has "${'x'.repeat(200)}…" (4805 more characters). ` +
          'View lines 1-2 and copy them exactly.',
      );
    });

    it('says when nothing is similar, and when the file is empty', async () => {
      const { runner } = setup({ 'a.txt': 'alpha\nbeta\n', 'empty.txt': '' });
      const error = await failure(runner, { file_path: 'a.txt', old_string: 'zzzzqqqq', new_string: 'x' });
      expect(error.code).toBe('no_match');
      expect(error.error).toContain('No line resembles');
      const empty = await failure(runner, { file_path: 'empty.txt', old_string: 'a', new_string: 'b' });
      expect(empty.code).toBe('no_match');
      expect(empty.error).toContain('The file is empty');
    });
  });

  describe('several matches', () => {
    it('returns ambiguous_match with the count when old_string occurs more than once', async () => {
      const { runner, platform } = setup({ 'a.txt': 'x = 1\nx = 1\nx = 1\n' });
      const error = await failure(runner, { file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' });
      expect(error.code).toBe('ambiguous_match');
      expect(error.error).toContain('occurs 3 times');
      expect(error.error).toContain('add surrounding context');
      expect(error.error).toContain('replace_all');
      expect(await read(platform, '/workspace/a.txt')).toBe('x = 1\nx = 1\nx = 1\n');
    });

    it('refuses an old_string found once without overlaps but twice with them (aaa in aaaa, }\\n} in }\\n}\\n}): it names two places', async () => {
      const { runner, platform } = setup({ 'a.txt': 'aaaa\n', 'b.js': 'f() {\n  if (x) {\n}\n}\n}\n' });
      const error = await failure(runner, { file_path: 'a.txt', old_string: 'aaa', new_string: 'X' });
      expect(error).toMatchObject({
        code: 'ambiguous_match',
        error: 'old_string occurs at 2 overlapping places in /workspace/a.txt (from line 1, the second starting 1 character after the first); add surrounding context to make it unique',
      });
      const braces = await failure(runner, { file_path: 'b.js', old_string: '}\n}', new_string: '}' });
      expect(braces.error).toContain('occurs at 2 overlapping places in /workspace/b.js (from line 3, the second starting 2 characters after the first)');
      expect(await read(platform, '/workspace/a.txt')).toBe('aaaa\n');
      expect(await read(platform, '/workspace/b.js')).toBe('f() {\n  if (x) {\n}\n}\n}\n');
      // Context that makes it unique is taken; replace_all replaces left to right as always.
      expect((await edit(runner, { file_path: 'b.js', old_string: '}\n}\n}\n', new_string: '}\n}\n' })).replacements).toBe(1);
      expect((await edit(runner, { file_path: 'a.txt', old_string: 'aaa', new_string: 'X', replace_all: true })).replacements).toBe(1);
      expect(await read(platform, '/workspace/a.txt')).toBe('Xa\n');
    });

    it('replaces every occurrence with replace_all', async () => {
      const { runner, platform } = setup({ 'a.txt': 'x = 1\nx = 1\nx = 1\n' });
      const result = await edit(runner, { file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2', replace_all: true });
      expect(result.replacements).toBe(3);
      expect(await read(platform, '/workspace/a.txt')).toBe('x = 2\nx = 2\nx = 2\n');
    });

    it('replaces left to right without overlap: aa -> b in aaaa gives bb', async () => {
      const { runner, platform } = setup({ 'a.txt': 'aaaa' });
      const result = await edit(runner, { file_path: 'a.txt', old_string: 'aa', new_string: 'b', replace_all: true });
      expect(result.replacements).toBe(2);
      expect(await read(platform, '/workspace/a.txt')).toBe('bb');
      const { runner: r2, platform: p2 } = setup({ 'a.txt': 'aaa' });
      expect((await edit(r2, { file_path: 'a.txt', old_string: 'aa', new_string: 'b', replace_all: true })).replacements).toBe(1);
      expect(await read(p2, '/workspace/a.txt')).toBe('ba');
    });

    it('does not rescan replaced text (new_string containing old_string)', async () => {
      const { runner, platform } = setup({ 'a.txt': 'a a' });
      await edit(runner, { file_path: 'a.txt', old_string: 'a', new_string: 'aa', replace_all: true });
      expect(await read(platform, '/workspace/a.txt')).toBe('aa aa');
    });

    it('checks expected_replacements', async () => {
      const { runner, platform } = setup({ 'a.txt': 'k k k' });
      const error = await failure(runner, { file_path: 'a.txt', old_string: 'k', new_string: 'v', expected_replacements: 2 });
      expect(error.code).toBe('ambiguous_match');
      expect(error.error).toContain('occurs 3 times');
      expect(error.error).toContain('expected_replacements is 2');
      const withAll = await failure(runner, { file_path: 'a.txt', old_string: 'k', new_string: 'v', replace_all: true, expected_replacements: 1 });
      expect(withAll.code).toBe('ambiguous_match');
      expect(await read(platform, '/workspace/a.txt')).toBe('k k k');
      const result = await edit(runner, { file_path: 'a.txt', old_string: 'k', new_string: 'v', expected_replacements: 3 });
      expect(result.replacements).toBe(3);
      expect(await read(platform, '/workspace/a.txt')).toBe('v v v');
      const one = await failure(runner, { file_path: 'a.txt', old_string: 'v v v', new_string: 'w', expected_replacements: 2 });
      expect(one.code).toBe('ambiguous_match');
      expect(one.error).toContain('occurs 1 time in');
    });
  });

  it('returns no_change when old_string equals new_string', async () => {
    const { runner } = setup({ 'a.txt': 'same' });
    const error = await failure(runner, { file_path: 'a.txt', old_string: 'same', new_string: 'same' });
    expect(error.code).toBe('no_change');
    expect(error.error).toContain('the same');
  });

  describe('empty old_string', () => {
    it('creates a missing file (and its directories) with new_string', async () => {
      const { runner, platform } = setup();
      const result = await edit(runner, { file_path: 'new/dir/f.txt', old_string: '', new_string: 'hello\n' });
      expect(result).toEqual({
        file_path: '/workspace/new/dir/f.txt',
        replacements: 1,
        diff: '--- /workspace/new/dir/f.txt\n+++ /workspace/new/dir/f.txt\n@@ -0,0 +1,1 @@\n+hello\n',
      });
      expect(await read(platform, '/workspace/new/dir/f.txt')).toBe('hello\n');
    });

    it('returns invalid_arguments on an existing file', async () => {
      const { runner, platform } = setup({ 'a.txt': 'keep', 'empty.txt': '' });
      const error = await failure(runner, { file_path: 'a.txt', old_string: '', new_string: 'x' });
      expect(error.code).toBe('invalid_arguments');
      expect(error.error).toContain('already exists');
      expect(await read(platform, '/workspace/a.txt')).toBe('keep');
      expect((await failure(runner, { file_path: 'empty.txt', old_string: '', new_string: 'x' })).code).toBe('invalid_arguments');
    });
  });

  it('returns not_found for a missing file with a non-empty old_string', async () => {
    const { runner } = setup();
    const error = await failure(runner, { file_path: 'nope.txt', old_string: 'a', new_string: 'b' });
    expect(error.code).toBe('not_found');
    expect(error.error).toContain('create_file');
  });

  it('cuts a long file_path to 200 characters in its messages', async () => {
    const { runner } = setup();
    const deep = Array.from({ length: 5 }, (_, i) => String(i).repeat(99)).join('/');
    expect((await failure(runner, { file_path: deep, old_string: 'a', new_string: 'b' })).error).toBe(
      `/workspace/${deep.slice(0, 189)}… (310 more characters) does not exist; check the path with list_dir or find_file, ` +
        'or create the file with create_file (or edit_file with an empty old_string)',
    );
    expect((await failure(runner, { file_path: `${deep}/`, old_string: 'a', new_string: 'b' })).error).toBe(
      `file_path "${deep.slice(0, 200)}…" (300 more characters) ends with "/"; give a file name`,
    );
  });

  it('returns binary_file for a binary file and is_a_directory for a directory', async () => {
    const { runner, platform } = setup({ 'data.bin': new Uint8Array([0x61, 0x00, 0x62]), 'bad.txt': new Uint8Array([0xff, 0x61]), 'dir/x': 'x' });
    expect((await failure(runner, { file_path: 'data.bin', old_string: 'a', new_string: 'c' })).code).toBe('binary_file');
    expect((await failure(runner, { file_path: 'bad.txt', old_string: 'a', new_string: 'c' })).code).toBe('binary_file');
    expect([...(await platform.fs.readFile('/workspace/data.bin'))]).toEqual([0x61, 0x00, 0x62]);
    expect((await failure(runner, { file_path: 'dir', old_string: 'a', new_string: 'c' })).code).toBe('is_a_directory');
  });

  it('returns invalid_arguments for missing or unknown arguments', async () => {
    const { runner } = setup({ 'a.txt': 'a' });
    const missing = await failure(runner, { file_path: 'a.txt', old_string: 'a' });
    expect(missing.code).toBe('invalid_arguments');
    expect(missing.error).toContain('new_string');
    const unknown = await failure(runner, { file_path: 'a.txt', old_string: 'a', new_string: 'b', regex: true });
    expect(unknown.code).toBe('invalid_arguments');
    expect((await failure(runner, { file_path: 'a.txt', old_string: 'a', new_string: 'b', expected_replacements: 0 })).code).toBe(
      'invalid_arguments',
    );
  });

  it('records the hash of the bytes it wrote, so create_file overwrite after an edit is not stale', async () => {
    const { runner, platform } = setup({ 'a.txt': 'v1' });
    let cached: string | undefined;
    await runner.register(
      defineTool({
        name: 'peek',
        description: 'test helper',
        parameters: { type: 'object' },
        callWithContext: async (_args, ctx) => void (cached = ctx.fileCache.get('/workspace/a.txt')),
      }),
    );
    await runner.execute('view_file', { file_path: 'a.txt' });
    await edit(runner, { file_path: 'a.txt', old_string: 'v1', new_string: 'v2' });
    await runner.execute('peek', {});
    expect(cached).toBe(await fingerprintBytes(new TextEncoder().encode('v2')));
    await runner.execute('create_file', { file_path: 'a.txt', content: 'v3', overwrite: true });
    expect(await read(platform, '/workspace/a.txt')).toBe('v3');
  });

  describe('atomic writes', () => {
    function failingPlatform(method: 'rename' | 'writeFile'): Platform {
      const base = createMemoryPlatform({ files: { 'a.txt': 'line 1\nline 2\n' } });
      let failures = 1;
      const original = base.fs[method].bind(base.fs) as (...args: unknown[]) => Promise<void>;
      const fs = {
        ...base.fs,
        [method]: async (...args: unknown[]): Promise<void> => {
          if (failures > 0) {
            failures -= 1;
            throw new Error(`simulated ${method} failure`);
          }
          return original(...args);
        },
      };
      // This fs is not atomic for readers, so edits go through temp file + rename.
      return { ...base, fs, atomicWrites: false };
    }

    for (const method of ['rename', 'writeFile'] as const) {
      it(`leaves the old content whole and no temp file when ${method} fails`, async () => {
        const { runner, platform } = setup({}, failingPlatform(method));
        const error = await failure(runner, { file_path: 'a.txt', old_string: 'line 2', new_string: 'LINE TWO' });
        expect(error.code).toBe('execution_failed');
        expect(error.error).toContain(`simulated ${method} failure`);
        expect(await read(platform, '/workspace/a.txt')).toBe('line 1\nline 2\n');
        expect(await platform.fs.readdir('/workspace')).toEqual(['a.txt']);
        // The runner stays usable: the same edit now succeeds.
        await edit(runner, { file_path: 'a.txt', old_string: 'line 2', new_string: 'LINE TWO' });
        expect(await read(platform, '/workspace/a.txt')).toBe('line 1\nLINE TWO\n');
      });
    }
  });

  it('serialises concurrent edits of one file so neither is lost', async () => {
    const { runner, platform } = setup({ 'a.txt': 'alpha\nbeta\n' });
    await Promise.all([
      edit(runner, { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }),
      edit(runner, { file_path: '/workspace/a.txt', old_string: 'beta', new_string: 'BETA' }),
    ]);
    expect(await read(platform, '/workspace/a.txt')).toBe('ALPHA\nBETA\n');
  });

  it('refuses a file over 32 MiB with too_large, its size in MiB and what to do instead', async () => {
    const { runner } = setup({ 'big.txt': new Uint8Array(33 * 1_048_576).fill(0x61) });
    const [result] = await runner.processToolCalls([{ name: 'edit_file', args: { file_path: 'big.txt', old_string: 'a', new_string: 'b' } }]);
    expect(result).toEqual({
      name: 'edit_file',
      code: 'too_large',
      error:
        '/workspace/big.txt is 33.0 MiB (34603008 bytes); edit_file edits files up to 32 MiB: change it with run_command (sed, or a short script) where commands run, or split it into smaller files',
    });
  });

  describe('a result over the 32 MiB it edits', () => {
    const LIMIT = 32 * 1024 * 1024;
    const grown = (size: number, atLeast = ''): string =>
      `/workspace/big.txt would be ${atLeast}${(size / 1_048_576).toFixed(1)} MiB (${size} bytes) after the edit; edit_file edits files up to 32 MiB: ` +
      'make the change with run_command (sed, or a short script) where commands run, or split the file into smaller files; nothing was written';
    /** Every turn of the default conversation's journal: a refused call records none. */
    const turns = async (runner: ToolRunner): Promise<unknown[]> => (await runner.changes()).turns;

    it('refuses to create a file over it with an empty old_string: too_large, nothing written, not even its folder', async () => {
      const { runner, platform } = setup();
      expect(await failure(runner, { file_path: 'dir/big.txt', old_string: '', new_string: '\u00e9'.repeat(LIMIT / 2 + 1) })).toEqual({
        id: 'e1',
        name: 'edit_file',
        code: 'too_large',
        error:
          `/workspace/dir/big.txt would be 32.0 MiB (${LIMIT + 2} bytes); edit_file creates files up to 32 MiB, the largest it can edit afterwards: ` +
          'split the content into smaller files, or write it with run_command where commands run (a script that generates it, or appends it in parts); nothing was written',
      });
      expect(await platform.fs.lstat('/workspace/dir').then(() => true, () => false)).toBe(false);
      expect(await turns(runner)).toEqual([]);
    });

    it('refuses an edit that would take the file over it, and records nothing; one that makes exactly 32 MiB is written', async () => {
      const start = `a\n${'z'.repeat(LIMIT - 3)}`;
      const { runner, platform } = setup({ 'big.txt': start });
      expect(await failure(runner, { file_path: 'big.txt', old_string: 'a', new_string: 'b'.repeat(1_048_576) })).toMatchObject({
        code: 'too_large',
        error: grown(LIMIT - 2 + 1_048_576),
      });
      expect(await failure(runner, { file_path: 'big.txt', old_string: 'a', new_string: 'bcd' })).toMatchObject({ code: 'too_large', error: grown(LIMIT + 1) });
      expect(await read(platform, '/workspace/big.txt')).toBe(start);
      expect(await turns(runner)).toEqual([]);
      await edit(runner, { file_path: 'big.txt', old_string: 'a', new_string: 'bc' });
      expect((await platform.fs.stat('/workspace/big.txt')).size).toBe(LIMIT);
    });

    it('refuses a replace-all that would grow a small file many times over, before building it', async () => {
      const { runner, platform } = setup({ 'big.txt': 'a'.repeat(1_048_576) });
      expect(await failure(runner, { file_path: 'big.txt', old_string: 'a', new_string: 'b'.repeat(40), replace_all: true })).toMatchObject({
        code: 'too_large',
        error: grown(40 * 1_048_576),
      });
      expect((await platform.fs.stat('/workspace/big.txt')).size).toBe(1_048_576);
      expect(await turns(runner)).toEqual([]);
    });

    it('counts the bytes written: CRLF line breaks given to the new text, and a kept BOM', async () => {
      // 1 Mi lines of "x\r\n", each "x\n" to become 40 characters and a CRLF: 42 MiB in all.
      const { runner, platform } = setup({ 'big.txt': 'x\r\n'.repeat(1_048_576) });
      // Worked out before the text is built, the line breaks' style not yet known: at least 3 + 38 MiB.
      expect(await failure(runner, { file_path: 'big.txt', old_string: 'x\n', new_string: `${'y'.repeat(40)}\n`, replace_all: true })).toMatchObject({
        code: 'too_large',
        error: grown(41 * 1_048_576, 'at least '),
      });
      expect((await platform.fs.stat('/workspace/big.txt')).size).toBe(3 * 1_048_576);
      // One line break more, in CRLF, and a BOM: the 3 bytes of the BOM and the CR each count.
      const bom = '\ufeff';
      const body = `${'z'.repeat(1022)}\r\n`.repeat(LIMIT / 1024 - 1);
      const near = setup({ 'big.txt': `${bom}${body}${'z'.repeat(1016)}x\r\n` });
      expect((await near.platform.fs.stat('/workspace/big.txt')).size).toBe(LIMIT - 2);
      expect(await failure(near.runner, { file_path: 'big.txt', old_string: 'x', new_string: 'y\nz' })).toMatchObject({ code: 'too_large', error: grown(LIMIT + 1) });
      expect((await near.platform.fs.stat('/workspace/big.txt')).size).toBe(LIMIT - 2);
      expect(await turns(near.runner)).toEqual([]);
    });
  });

  describe('paths', () => {
    it('gives the same result for relative and absolute paths', async () => {
      const { runner: r1 } = setup({ 'src/a.ts': 'let x = 1;\n' });
      const { runner: r2 } = setup({ 'src/a.ts': 'let x = 1;\n' });
      const relative = await edit(r1, { file_path: 'src/a.ts', old_string: '1', new_string: '2' });
      const absolute = await edit(r2, { file_path: '/workspace/src/a.ts', old_string: '1', new_string: '2' });
      expect(relative).toEqual(absolute);
      expect(relative.file_path).toBe('/workspace/src/a.ts');
    });

    it('edits names with spaces, unicode and parentheses', async () => {
      const { runner, platform } = setup({ 'docs/Über (draft) 2.md': 'Hallo Welt\n' });
      const result = await edit(runner, { file_path: 'docs/Über (draft) 2.md', old_string: 'Welt', new_string: 'Wélt 🌍' });
      expect(result.file_path).toBe('/workspace/docs/Über (draft) 2.md');
      expect(await read(platform, '/workspace/docs/Über (draft) 2.md')).toBe('Hallo Wélt 🌍\n');
    });

    it('returns outside_workspace for .. escapes and symlinks out, changing nothing outside', async () => {
      const { runner, platform } = setup();
      await writeOutside(platform.fs, { '/outside/secret.txt': 'secret\n' });
      await platform.fs.symlink('/outside', '/workspace/out');
      await platform.fs.symlink('/outside/secret.txt', '/workspace/secret-link');
      await platform.fs.symlink('/etc', '/workspace/etc');
      for (const file_path of ['../outside/secret.txt', '/outside/secret.txt', 'out/secret.txt', 'secret-link', 'etc/hosts']) {
        const error = await failure(runner, { file_path, old_string: 'secret', new_string: 'pwned' });
        expect(error.code).toBe('outside_workspace');
      }
      expect((await failure(runner, { file_path: 'out/new.txt', old_string: '', new_string: 'pwned' })).code).toBe('outside_workspace');
      expect(await read(platform, '/outside/secret.txt')).toBe('secret\n');
      expect(await platform.fs.readdir('/outside')).toEqual(['secret.txt']);
    });

    it('fails fast on a symlink loop', async () => {
      const { runner, platform } = setup();
      await platform.fs.symlink('loop', '/workspace/loop');
      const error = await failure(runner, { file_path: 'loop', old_string: 'a', new_string: 'b' });
      expect(error.code).toBe('execution_failed');
    });

    it('edits the target through a symlink inside the workspace', async () => {
      const { runner, platform } = setup({ 'real/t.txt': 'old value\n' });
      await platform.fs.symlink('real/t.txt', '/workspace/link.txt');
      const result = await edit(runner, { file_path: 'link.txt', old_string: 'old', new_string: 'new' });
      expect(result.file_path).toBe('/workspace/real/t.txt');
      expect(await read(platform, '/workspace/real/t.txt')).toBe('new value\n');
      expect((await platform.fs.lstat('/workspace/link.txt')).isSymbolicLink()).toBe(true);
      expect(await platform.fs.readlink('/workspace/link.txt')).toBe('real/t.txt');
    });
  });
});

describe('edit_file and surrogate pairs', () => {
  it('refuses half of a surrogate pair instead of corrupting an emoji', async () => {
    const platform = createMemoryPlatform({ files: { 'e.txt': 'a😀b\n' } });
    const runner = new ToolRunner({ platform, tools: [editFileTool] });
    const [low, high] = await runner.processToolCalls([
      { name: 'edit_file', args: { file_path: 'e.txt', old_string: '\uDE00b', new_string: 'Z' } },
      { name: 'edit_file', args: { file_path: 'e.txt', old_string: 'a', new_string: '\uD83D' } },
    ]);
    expect(low).toEqual({
      name: 'edit_file',
      code: 'invalid_arguments',
      error: 'old_string contains half of a surrogate pair (a broken emoji or other character outside the BMP); copy whole characters from the file',
    });
    expect(high).toMatchObject({ code: 'invalid_arguments', error: expect.stringContaining('new_string contains half of a surrogate pair') });
    expect(new TextDecoder().decode(await platform.fs.readFile('/workspace/e.txt'))).toBe('a😀b\n');
    expect(await runner.execute('edit_file', { file_path: 'e.txt', old_string: '😀', new_string: '🎉' })).toMatchObject({ replacements: 1 });
  });
});
