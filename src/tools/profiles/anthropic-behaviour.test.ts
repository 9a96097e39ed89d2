import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/memory.js';
import { ToolRunner, type ToolCallResult } from '../../runner.js';
import type { Platform } from '../../core/types.js';
import { toolProfiles } from './index.js';

// Behaviours of Anthropic's reference text editor (str_replace_based_edit_tool), each case naming the
// behaviour it checks; where toolhost differs on purpose, the case says so and why.

const TOOL = 'str_replace_based_edit_tool';
const ROOT = '/workspace';

function setup(files: Record<string, string> = {}): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: toolProfiles.anthropic() }) };
}

async function call(runner: ToolRunner, args: Record<string, unknown>): Promise<ToolCallResult> {
  const [outcome] = (await runner.processToolCalls([{ name: TOOL, args }], { conversationId: 'c' })) as [ToolCallResult];
  return outcome;
}

const text = async (platform: Platform, path: string): Promise<string> => new TextDecoder().decode(await platform.fs.readFile(`${ROOT}/${path}`));

const GREET = 'def greet(name):\n    return "hi " + name\n\n\ndef main():\n    print(greet("x"))\n';

describe('Anthropic text editor: view', () => {
  it('view of a file numbers every line from 1 ("N: line"), a final line break adding no empty line', async () => {
    const { runner } = setup({ 'greet.py': GREET });
    expect(await call(runner, { command: 'view', path: `${ROOT}/greet.py` })).toMatchObject({
      result: '1: def greet(name):\n2:     return "hi " + name\n3: \n4: \n5: def main():\n6:     print(greet("x"))',
    });
  });

  it('view_range [start, end] is 1-based and inclusive; [start, -1] reads to the end of the file', async () => {
    const { runner } = setup({ 'greet.py': GREET });
    expect(await call(runner, { command: 'view', path: 'greet.py', view_range: [2, 2] })).toMatchObject({ result: '2:     return "hi " + name' });
    expect(await call(runner, { command: 'view', path: 'greet.py', view_range: [5, -1] })).toMatchObject({ result: '5: def main():\n6:     print(greet("x"))' });
  });

  it('view_range outside the file is refused naming the element at fault and the valid range', async () => {
    const { runner } = setup({ 'greet.py': GREET });
    expect(await call(runner, { command: 'view', path: 'greet.py', view_range: [0, 2] })).toMatchObject({
      code: 'invalid_arguments',
      error: 'Invalid `view_range`: [0, 2]. Its first element `0` should be within the range of lines of the file: [1, 6]',
    });
    expect(await call(runner, { command: 'view', path: 'greet.py', view_range: [2, 60] })).toMatchObject({
      code: 'invalid_arguments',
      error: 'Invalid `view_range`: [2, 60]. Its second element `60` should be at most the number of lines in the file: `6` (or -1 for the end)',
    });
    expect(await call(runner, { command: 'view', path: 'greet.py', view_range: [4, 3] })).toMatchObject({
      code: 'invalid_arguments',
      error: 'Invalid `view_range`: [4, 3]. Its second element `3` should be larger than or equal to its first `4` (or -1 for the end)',
    });
  });

  it('view of a directory lists files and folders two levels deep, hidden ones left out', async () => {
    const { runner } = setup({ 'app/main.py': '', 'app/lib/util.py': '', 'app/lib/deep/x.py': '', 'app/.env': '', '.git/config': '', 'README.md': '' });
    expect(await call(runner, { command: 'view', path: ROOT })).toMatchObject({
      result: `Here are the files and directories up to 2 levels deep in ${ROOT}, excluding hidden items and node_modules:\nREADME.md\napp/\napp/lib/\napp/main.py`,
    });
  });

  it('view_range with a directory is refused as the reference refuses it', async () => {
    const { runner } = setup({ 'app/main.py': '' });
    expect(await call(runner, { command: 'view', path: 'app', view_range: [1, 2] })).toMatchObject({
      code: 'invalid_arguments',
      error: 'The `view_range` parameter is not allowed when `path` points to a directory.',
    });
  });

  it('view of a missing path says it does not exist, in the reference wording', async () => {
    const { runner } = setup();
    expect(await call(runner, { command: 'view', path: 'nope.py' })).toMatchObject({ code: 'not_found', error: `The path ${ROOT}/nope.py does not exist. Please provide a valid path.` });
  });

  it('tabs are shown as they are (deliberate: the reference expands them to spaces, which would not match the file in a later old_str)', async () => {
    const { runner } = setup({ 'Makefile': 'all:\n\tcc main.c\n' });
    expect(await call(runner, { command: 'view', path: 'Makefile' })).toMatchObject({ result: '1: all:\n2: \tcc main.c' });
  });

  it('relative paths are taken from the working directory (deliberate: the reference demands absolute paths; both stay inside the workspace)', async () => {
    const { runner } = setup({ 'greet.py': GREET });
    expect(await call(runner, { command: 'view', path: 'greet.py', view_range: [1, 1] })).toMatchObject({ result: '1: def greet(name):' });
    expect(await call(runner, { command: 'view', path: '../etc/passwd' })).toMatchObject({ code: 'outside_workspace', error: 'path "../etc/passwd" is outside the workspace; use a path inside /workspace' });
  });
});

describe('Anthropic text editor: create', () => {
  it('create writes a new file, making its folders, and answers "File created successfully at: <path>"', async () => {
    const { platform, runner } = setup();
    expect(await call(runner, { command: 'create', path: 'pkg/mod/new.py', file_text: 'x = 1\n' })).toMatchObject({ result: `File created successfully at: ${ROOT}/pkg/mod/new.py` });
    expect(await text(platform, 'pkg/mod/new.py')).toBe('x = 1\n');
  });

  it('create over an existing file is refused ("File already exists at: ...") and leaves the file as it was', async () => {
    const { platform, runner } = setup({ 'greet.py': GREET });
    expect(await call(runner, { command: 'create', path: 'greet.py', file_text: 'gone\n' })).toMatchObject({
      code: 'already_exists',
      error: `File already exists at: ${ROOT}/greet.py. Cannot overwrite files using command \`create\`; change it with str_replace or insert`,
    });
    expect(await text(platform, 'greet.py')).toBe(GREET);
  });

  it('create over an existing file is refused even after this conversation viewed it (the reference never overwrites with create)', async () => {
    const { platform, runner } = setup({ 'greet.py': GREET });
    await call(runner, { command: 'view', path: 'greet.py' });
    expect(await call(runner, { command: 'create', path: 'greet.py', file_text: 'gone\n' })).toMatchObject({ code: 'already_exists' });
    expect(await text(platform, 'greet.py')).toBe(GREET);
  });

  it('create without file_text names the parameter and the command, as the reference does', async () => {
    const { runner } = setup();
    expect(await call(runner, { command: 'create', path: 'a.py' })).toMatchObject({ code: 'invalid_arguments', error: 'Parameter `file_text` is required for command: create' });
  });

  it('create, str_replace and insert on a directory: only view can be used on directories', async () => {
    const { runner } = setup({ 'app/main.py': 'x\n' });
    for (const args of [
      { command: 'create', path: 'app', file_text: 'x' },
      { command: 'str_replace', path: 'app', old_str: 'x', new_str: 'y' },
      { command: 'insert', path: 'app', insert_line: 0, insert_text: 'x' },
    ]) {
      expect(await call(runner, args)).toMatchObject({ code: 'is_a_directory', error: `The path ${ROOT}/app is a directory and only the \`view\` command can be used on directories` });
    }
  });
});

describe('Anthropic text editor: str_replace', () => {
  it('str_replace replaces the one occurrence and answers as the documentation shows', async () => {
    const { platform, runner } = setup({ 'greet.py': GREET });
    expect(await call(runner, { command: 'str_replace', path: 'greet.py', old_str: '"hi "', new_str: '"hello "' })).toMatchObject({ result: 'Successfully replaced text at exactly one location.' });
    expect(await text(platform, 'greet.py')).toBe(GREET.replace('"hi "', '"hello "'));
  });

  it('str_replace without new_str deletes old_str', async () => {
    const { platform, runner } = setup({ 'greet.py': GREET });
    await call(runner, { command: 'str_replace', path: 'greet.py', old_str: '\n\ndef main():\n    print(greet("x"))\n' });
    expect(await text(platform, 'greet.py')).toBe('def greet(name):\n    return "hi " + name\n');
  });

  it('str_replace with no match quotes old_str and the whole path (no stray fragment of a dotted name), then the closest line', async () => {
    const { runner } = setup({ 'my.module.py': GREET });
    expect(await call(runner, { command: 'str_replace', path: 'my.module.py', old_str: 'return "hey " + name', new_str: 'x' })).toMatchObject({
      code: 'no_match',
      error:
        `No replacement was performed, old_str \`return "hey " + name\` did not appear verbatim in ${ROOT}/my.module.py. ` +
        'The closest line is 2: "    return \\"hi \\" + name". Text, whitespace and indentation must match exactly; view the lines around it and copy them.',
    });
  });

  it('str_replace with several occurrences is refused, listing the line of each', async () => {
    const { platform, runner } = setup({ 'greet.py': GREET });
    expect(await call(runner, { command: 'str_replace', path: 'greet.py', old_str: 'greet(', new_str: 'hello(' })).toMatchObject({
      code: 'ambiguous_match',
      error: 'No replacement was performed. Multiple occurrences of old_str `greet(` in lines [1, 6]. Please ensure it is unique: add lines around it.',
    });
    expect(await text(platform, 'greet.py')).toBe(GREET);
  });

  it('str_replace of a multi-line old_str occurring twice lists the line where each occurrence starts', async () => {
    const { runner } = setup({ 'twice.txt': 'a\nb\nc\na\nb\n' });
    expect(await call(runner, { command: 'str_replace', path: 'twice.txt', old_str: 'a\nb', new_str: 'z' })).toMatchObject({
      code: 'ambiguous_match',
      error: 'No replacement was performed. Multiple occurrences of old_str `a\nb` in lines [1, 4]. Please ensure it is unique: add lines around it.',
    });
  });

  it('str_replace of an old_str whose only occurrence overlaps another (closing braces) is refused, listing both (deliberate: the reference counts without overlaps and edits the first)', async () => {
    const { platform, runner } = setup({ 'b.js': 'f() {\n  if (x) {\n}\n}\n}\n' });
    expect(await call(runner, { command: 'str_replace', path: 'b.js', old_str: '}\n}', new_str: '}' })).toMatchObject({
      code: 'ambiguous_match',
      error: 'No replacement was performed. Multiple occurrences of old_str `}\n}` in lines [3, 4]. Please ensure it is unique: add lines around it.',
    });
    expect(await text(platform, 'b.js')).toBe('f() {\n  if (x) {\n}\n}\n}\n');
  });

  it('str_replace with an empty old_str is refused with what to do (deliberate: the reference answers that it occurs many times)', async () => {
    const { runner } = setup({ 'greet.py': GREET });
    expect(await call(runner, { command: 'str_replace', path: 'greet.py', old_str: '', new_str: 'x' })).toMatchObject({
      code: 'invalid_arguments',
      error: 'old_str is empty; give the exact text to replace (view the file to copy it), or use insert to add text at a line',
    });
  });

  it('str_replace without old_str names the parameter and the command', async () => {
    const { runner } = setup({ 'greet.py': GREET });
    expect(await call(runner, { command: 'str_replace', path: 'greet.py' })).toMatchObject({ code: 'invalid_arguments', error: 'Parameter `old_str` is required for command: str_replace' });
  });

  it('str_replace on a missing file says the path does not exist', async () => {
    const { runner } = setup();
    expect(await call(runner, { command: 'str_replace', path: 'gone.py', old_str: 'a' })).toMatchObject({ code: 'not_found', error: `The path ${ROOT}/gone.py does not exist. Please provide a valid path.` });
  });

  it('str_replace keeps the tabs of the file and of new_str (deliberate: the reference expands every tab of the file to spaces)', async () => {
    const { platform, runner } = setup({ 'Makefile': 'all:\n\tcc main.c\nclean:\n\trm -f a.out\n' });
    await call(runner, { command: 'str_replace', path: 'Makefile', old_str: '\tcc main.c', new_str: '\tcc -O2 main.c' });
    expect(await text(platform, 'Makefile')).toBe('all:\n\tcc -O2 main.c\nclean:\n\trm -f a.out\n');
  });

  it('str_replace keeps CRLF line breaks of the file when old_str and new_str use LF', async () => {
    const { platform, runner } = setup({ 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
    await call(runner, { command: 'str_replace', path: 'win.txt', old_str: 'one\ntwo', new_str: 'one\n2' });
    expect(await text(platform, 'win.txt')).toBe('one\r\n2\r\nthree\r\n');
  });
});

describe('Anthropic text editor: insert', () => {
  it('insert at line 0 puts the text at the top of the file', async () => {
    const { platform, runner } = setup({ 'list.txt': 'b\nc\n' });
    await call(runner, { command: 'insert', path: 'list.txt', insert_line: 0, insert_text: 'a' });
    expect(await text(platform, 'list.txt')).toBe('a\nb\nc\n');
  });

  it('insert at the last line appends the text at the end of the file', async () => {
    const { platform, runner } = setup({ 'list.txt': 'a\nb\n' });
    expect(await call(runner, { command: 'insert', path: 'list.txt', insert_line: 2, insert_text: 'c\nd' })).toMatchObject({ result: `The text was inserted after line 2 of ${ROOT}/list.txt.` });
    expect(await text(platform, 'list.txt')).toBe('a\nb\nc\nd\n');
  });

  it('insert takes the text as insert_text or as new_str (the name older tool versions use)', async () => {
    const { platform, runner } = setup({ 'list.txt': 'a\nc\n' });
    await call(runner, { command: 'insert', path: 'list.txt', insert_line: 1, new_str: 'b' });
    expect(await text(platform, 'list.txt')).toBe('a\nb\nc\n');
  });

  it('insert_line past the end is refused with the valid range', async () => {
    const { runner } = setup({ 'list.txt': 'a\nb\n' });
    expect(await call(runner, { command: 'insert', path: 'list.txt', insert_line: 5, insert_text: 'x' })).toMatchObject({
      code: 'invalid_arguments',
      error: 'Invalid `insert_line` parameter: 5. It should be within the range of lines of the file: [0, 2]',
    });
  });

  it('insert without insert_line or without the text names the missing parameter and the command', async () => {
    const { runner } = setup({ 'list.txt': 'a\n' });
    expect(await call(runner, { command: 'insert', path: 'list.txt', insert_text: 'x' })).toMatchObject({ error: 'Parameter `insert_line` is required for command: insert' });
    expect(await call(runner, { command: 'insert', path: 'list.txt', insert_line: 0 })).toMatchObject({ error: 'Parameter `insert_text` is required for command: insert' });
  });
});

describe('Anthropic text editor: commands', () => {
  it('undo_edit, which text_editor_20250728 does not have, is refused naming the commands there are', async () => {
    const { runner } = setup({ 'list.txt': 'a\n' });
    expect(await call(runner, { command: 'undo_edit', path: 'list.txt' })).toMatchObject({
      code: 'invalid_arguments',
      error: 'invalid arguments for str_replace_based_edit_tool: command must be one of: "view", "create", "str_replace", "insert"',
    });
  });
});
