import { describe, expect, it } from 'vitest';
import type { FsPromises } from '../core/fs-port.js';
import type { Platform } from '../core/platform.js';
import { defineTool, type ToolContext } from '../core/tool.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner } from '../runner.js';
import { BuiltinTools } from '../tools/index.js';
import { toolProfiles } from '../tools/profiles/index.js';
import { ANTHROPIC_VOCABULARY, GEMINI_VOCABULARY, OPENAI_VOCABULARY, speak } from '../tools/profiles/vocabulary.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** The workspace's text of `path` (relative to /workspace), or null when there is no file. */
async function onDisk(platform: Platform, path: string): Promise<string | null> {
  try {
    return text(await platform.fs.readFile(`/workspace/${path}`));
  } catch {
    return null;
  }
}

/** A mutating tool that runs `body` with the call's fs (for changes no built-in makes: folder renames, rm -r). */
function fsTool(name: string, body: (fs: FsPromises) => Promise<void>) {
  return defineTool({ name, description: name, parameters: { type: 'object' }, callWithContext: async (_args: unknown, ctx: ToolContext) => body(ctx.fs) });
}

/** A reviewed runner with the built-ins and apply_patch over a memory platform holding `files`. */
function setup(files: Record<string, string> = {}, extra: ReturnType<typeof fsTool>[] = []): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  const apply = toolProfiles.openai().filter((tool) => tool.name === 'apply_patch');
  const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), ...apply, ...extra], review: true });
  return { platform, runner };
}

/** The model's view of a file: view_file's content in that conversation, or its error code. */
async function modelSees(runner: ToolRunner, path: string, conversationId = 'default'): Promise<string> {
  const [result] = await runner.processToolCalls([{ name: 'view_file', args: { file_path: path } }], { conversationId });
  return 'code' in result! ? `(${result.code})` : (result!.result as { content: string }).content;
}

/** Twenty numbered lines, the last without a newline: changes far apart are separate hunks. */
const LINES = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
const BASE = `${LINES.join('\n')}`;

/** BASE with line `n` (1-based) replaced by `by` (several lines joined by \n). */
function replaced(source: string, n: number, by: string): string {
  const lines = source.split('\n');
  lines[n - 1] = by;
  return lines.join('\n');
}

describe('review mode: hunks', () => {
  it('accepting hunks 1 and 3 and rejecting hunk 2 of one file writes exactly the accepted text, and the model then sees the same', async () => {
    const { platform, runner } = setup({ 'a.txt': BASE });
    const edits: [string, string][] = [
      ['line 2\n', 'line 2 changed\nline 2b\n'],
      ['line 10\n', 'ten\n'],
      ['line 20', 'line twenty'],
    ];
    for (const [old_string, new_string] of edits) await runner.execute('edit_file', { file_path: 'a.txt', old_string, new_string });
    expect(await onDisk(platform, 'a.txt')).toBe(BASE);
    const [file] = (await runner.pendingChanges()).files;
    expect(file!.kind).toBe('modify');
    expect(file!.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [1, 5, 1, 6],
      [7, 7, 8, 7],
      [17, 4, 18, 4],
    ]);
    expect(file!.hunks[2]!.diff).toBe('@@ -17,4 +18,4 @@\n line 17\n line 18\n line 19\n-line 20\n\\ No newline at end of file\n+line twenty\n\\ No newline at end of file\n');
    const [first, second, third] = file!.hunks.map((h) => h.id);
    const accepted = await runner.accept('default', { hunks: [first!, third!] });
    expect(accepted).toEqual({ written: ['/workspace/a.txt'], hunks: [first, third], conflicts: [], turn: 4 });
    const expected = LINES.map((line) => (line === 'line 2' ? 'line 2 changed\nline 2b' : line === 'line 20' ? 'line twenty' : line)).join('\n');
    expect(await onDisk(platform, 'a.txt')).toBe(expected);
    // The second hunk is still pending, under a new id (the file's change moved on).
    const still = (await runner.pendingChanges()).files[0]!;
    expect(still.hunks.map((h) => h.diff)).toEqual(['@@ -8,7 +8,7 @@\n line 7\n line 8\n line 9\n-line 10\n+ten\n line 11\n line 12\n line 13\n']);
    expect(still.hunks[0]!.id).not.toBe(second);
    await expect(runner.reject('default', { hunks: [second!] })).rejects.toThrow(/no longer pending.*list pendingChanges\(\) again/);
    expect(await runner.reject('default', { hunks: [still.hunks[0]!.id] })).toEqual({ reverted: ['/workspace/a.txt'], hunks: [still.hunks[0]!.id] });
    expect((await runner.pendingChanges()).files).toEqual([]);
    expect(await onDisk(platform, 'a.txt')).toBe(expected);
    expect(await modelSees(runner, 'a.txt')).toBe(expected);
  });

  it('rejecting one hunk keeps the others staged (CRLF lines kept byte for byte); accepting the rest then writes them exactly', async () => {
    const base = 'a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\ni\r\nj\r\n';
    const { platform, runner } = setup({ 'w.txt': base });
    await runner.execute('create_file', { file_path: 'w.txt', content: 'A\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\ni\r\nJ\r\nk\r\n', overwrite: true });
    const file = (await runner.pendingChanges()).files[0]!;
    expect(file.hunks.length).toBe(2);
    await runner.reject('default', { hunks: [file.hunks[0]!.id] });
    expect(await onDisk(platform, 'w.txt')).toBe(base);
    await runner.accept('default', {});
    expect(await onDisk(platform, 'w.txt')).toBe('a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\ni\r\nJ\r\nk\r\n');
    expect((await runner.pendingChanges()).files).toEqual([]);
  });
});

describe('review mode: files', () => {
  it('accepts one file and rejects another by path: the first is written as staged, the second never reaches the workspace and the model sees it as it was', async () => {
    const { platform, runner } = setup({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    await runner.processToolCalls([
      { name: 'edit_file', args: { file_path: 'a.txt', old_string: 'one', new_string: 'uno' } },
      { name: 'edit_file', args: { file_path: 'b.txt', old_string: 'bee', new_string: 'abeja' } },
    ]);
    expect((await runner.pendingChanges()).files.map((f) => [f.path, f.kind])).toEqual([
      ['/workspace/a.txt', 'modify'],
      ['/workspace/b.txt', 'modify'],
    ]);
    expect(await runner.accept('default', { paths: ['/workspace/a.txt'] })).toMatchObject({ written: ['/workspace/a.txt'], conflicts: [] });
    expect(await runner.reject('default', { paths: ['/workspace/b.txt'] })).toMatchObject({ reverted: ['/workspace/b.txt'] });
    expect([await onDisk(platform, 'a.txt'), await onDisk(platform, 'b.txt')]).toEqual(['uno\n', 'bee\n']);
    expect([await modelSees(runner, 'a.txt'), await modelSees(runner, 'b.txt')]).toEqual(['uno', 'bee']);
  });

  it('stages a created file and a deletion: the workspace keeps neither until accepted; a rejected deletion brings the file back for the model', async () => {
    const { platform, runner } = setup({ 'old.txt': 'old\n', 'keep.txt': 'keep\n' });
    await runner.execute('create_file', { file_path: 'src/new.txt', content: 'new\n' });
    await runner.execute('apply_patch', { input: '*** Begin Patch\n*** Delete File: old.txt\n*** Delete File: keep.txt\n*** End Patch' });
    expect([await onDisk(platform, 'src/new.txt'), await onDisk(platform, 'old.txt'), await onDisk(platform, 'keep.txt')]).toEqual([null, 'old\n', 'keep\n']);
    const listing = await runner.execute('list_dir', { dir_path: '.' });
    expect((listing as { entries: { name: string }[] }).entries.map((e) => e.name).sort()).toEqual(['src']);
    expect(await modelSees(runner, 'old.txt')).toBe('(not_found)');
    const pending = (await runner.pendingChanges()).files;
    expect(pending.map((f) => [f.path, f.kind, f.hunks.length])).toEqual([
      ['/workspace/keep.txt', 'delete', 1],
      ['/workspace/old.txt', 'delete', 1],
      ['/workspace/src/new.txt', 'create', 1],
    ]);
    expect(pending[2]!.diff).toBe('--- /dev/null\n+++ /workspace/src/new.txt\n@@ -0,0 +1,1 @@\n+new\n');
    await runner.accept('default', { paths: ['/workspace/src/new.txt', '/workspace/old.txt'] });
    await runner.reject('default', { paths: ['/workspace/keep.txt'] });
    expect([await onDisk(platform, 'src/new.txt'), await onDisk(platform, 'old.txt'), await onDisk(platform, 'keep.txt')]).toEqual(['new\n', null, 'keep\n']);
    expect(await modelSees(runner, 'keep.txt')).toBe('keep');
  });

  it('stages a folder removed and a folder renamed: the model sees the tree as it left it; accepting all makes the workspace so', async () => {
    const rmTree = fsTool('rm_tree', (fs) => fs.rm('/workspace/gone', { recursive: true }));
    const moveTree = fsTool('move_tree', (fs) => fs.rename('/workspace/from', '/workspace/to'));
    const { platform, runner } = setup({ 'gone/a.txt': 'a\n', 'gone/sub/b.txt': 'b\n', 'from/c.txt': 'c\n', 'from/deep/d.txt': 'd\n' }, [rmTree, moveTree]);
    await runner.processToolCalls([{ name: 'rm_tree', args: {} }, { name: 'move_tree', args: {} }]);
    const found = (await runner.execute('find_file', { pattern: '**/*.txt' })) as { files: string[] };
    expect(found.files.sort()).toEqual(['/workspace/to/c.txt', '/workspace/to/deep/d.txt']);
    expect(await modelSees(runner, 'gone')).toBe('(not_found)');
    expect(await onDisk(platform, 'from/deep/d.txt')).toBe('d\n');
    await runner.accept('default', {});
    expect([await onDisk(platform, 'gone/a.txt'), await onDisk(platform, 'from/c.txt'), await onDisk(platform, 'to/c.txt'), await onDisk(platform, 'to/deep/d.txt')]).toEqual([null, null, 'c\n', 'd\n']);
  });
});

describe('review mode: what the model sees', () => {
  it("the model's view_file, grep_search, search_dir, find_file and list_dir see its staged content; platform.fs and another conversation do not", async () => {
    const { platform, runner } = setup({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'alpha', new_string: 'gamma' });
    await runner.execute('create_file', { file_path: 'n/c.txt', content: 'gamma too\n' });
    const results = await runner.processToolCalls([
      { name: 'view_file', args: { file_path: 'a.txt' } },
      { name: 'grep_search', args: { pattern: 'gamma' } },
      { name: 'grep_search', args: { pattern: 'alpha' } },
      { name: 'search_dir', args: { query: 'gamma' } },
      { name: 'find_file', args: { pattern: '**/c.txt' } },
      { name: 'list_dir', args: { dir_path: 'n' } },
    ]);
    const [view, grep, oldGrep, count, find, list] = results.map((r) => (r as { result: Record<string, unknown> }).result);
    expect(view!.content).toBe('gamma');
    expect((grep!.matches as { file_path: string; line: string }[]).map((m) => [m.file_path, m.line])).toEqual([
      ['/workspace/a.txt', 'gamma'],
      ['/workspace/n/c.txt', 'gamma too'],
    ]);
    expect(oldGrep!.total_matches).toBe(0);
    expect(JSON.stringify(count)).toContain('/workspace/n/c.txt');
    expect(find!.files).toEqual(['/workspace/n/c.txt']);
    expect((list!.entries as { name: string }[]).map((e) => e.name)).toEqual(['c.txt']);
    expect([await onDisk(platform, 'a.txt'), await onDisk(platform, 'n/c.txt')]).toEqual(['alpha\n', null]);
    const other = await runner.processToolCalls([{ name: 'grep_search', args: { pattern: 'alpha' } }], { conversationId: 'other-chat' });
    expect(((other[0] as { result: { matches: { file_path: string }[] } }).result.matches).map((m) => m.file_path)).toEqual(['/workspace/a.txt']);
    expect(await modelSees(runner, 'a.txt', 'other-chat')).toBe('alpha');
  });

  it('review chosen per conversation: only the chosen conversation is staged, the other writes the workspace', async () => {
    const platform = createMemoryPlatform({ files: { 'a.txt': 'one\n' } });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), review: (id) => id.startsWith('review-') });
    await runner.execute('create_file', { file_path: 'r.txt', content: 'r\n' }, { conversationId: 'review-1' });
    await runner.execute('create_file', { file_path: 'p.txt', content: 'p\n' }, { conversationId: 'plain' });
    expect([await onDisk(platform, 'r.txt'), await onDisk(platform, 'p.txt')]).toEqual([null, 'p\n']);
    expect((await runner.pendingChanges('review-1')).files.map((f) => f.path)).toEqual(['/workspace/r.txt']);
    expect((await runner.pendingChanges('plain')).files).toEqual([]);
  });

  it('a command in a reviewed conversation is refused with unavailable, saying why', async () => {
    const platform = createMemoryPlatform();
    const base = platform;
    const runner = new ToolRunner({ platform: Object.assign(Object.create(base) as Platform, { capabilities: { ...base.capabilities, runCommand: true }, runCommand: async () => ({ stdout: 'ran', stderr: '', exit_code: 0, signal: null, timed_out: false, truncated: false }) }), tools: BuiltinTools.all(), review: true });
    const [result] = await runner.processToolCalls([{ name: 'run_command', args: { command: 'echo hi' } }]);
    expect(result).toMatchObject({ code: 'unavailable' });
    expect((result as { error: string }).error).toMatch(/^commands cannot run while this conversation works in review mode/);
  });
});

describe('review mode: rejection notes', () => {
  it("a rejected hunk is told to the model on its next call, with the hunk's diff and the reason, exactly once", async () => {
    const { runner } = setup({ 'a.txt': BASE });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'line 2\n', new_string: 'two\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'line 15\n', new_string: 'fifteen\n' });
    const hunks = (await runner.pendingChanges()).files[0]!.hunks;
    await runner.reject('default', { hunks: [hunks[1]!.id], reason: 'keep the numbers spelled as digits' });
    const first = (await runner.execute('view_file', { file_path: 'a.txt', start_line: 1, end_line: 3 })) as { note?: string };
    expect(first.note).toBe(
      'Showing lines 1-3 of 20. To read more, call view_file with start_line 4.\n\n' +
        'Review: the user rejected changes you made. The files below are as described now; read them again before changing them further.\n' +
        '- /workspace/a.txt: 1 of your 2 changes were rejected (lines 12-18 of your version); these were undone, your other changes stay:\n' +
        '@@ -12,7 +12,7 @@\n line 12\n line 13\n line 14\n-line 15\n+fifteen\n line 16\n line 17\n line 18\n' +
        "The user's reason: keep the numbers spelled as digits",
    );
    const second = (await runner.execute('view_file', { file_path: 'a.txt', start_line: 1, end_line: 3 })) as { note?: string };
    expect(second.note).toBe('Showing lines 1-3 of 20. To read more, call view_file with start_line 4.');
    expect(await modelSees(runner, 'a.txt')).toBe(replaced(BASE, 2, 'two'));
  });

  it('in a batch of concurrent reads the note goes with the first call of the batch, and only that one', async () => {
    const { runner } = setup({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    await runner.execute('create_file', { file_path: 'c.txt', content: 'c\n' });
    await runner.reject('default', {});
    const results = await runner.processToolCalls([
      { id: 'r1', name: 'view_file', args: { file_path: 'a.txt' } },
      { id: 'r2', name: 'view_file', args: { file_path: 'b.txt' } },
      { id: 'r3', name: 'list_dir', args: { dir_path: '.' } },
    ]);
    expect(results.map((r) => typeof (r as { result: { note?: string } }).result.note)).toEqual(['string', 'undefined', 'undefined']);
  });

  it('a note rides on a failed call as part of its error, and on a text result as a last line in brackets', async () => {
    const platform = createMemoryPlatform({ files: { 'a.txt': 'one\n' } });
    const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), ...toolProfiles.anthropic()], review: true });
    await runner.execute('create_file', { file_path: 'x.txt', content: 'x\n' });
    await runner.reject('default', {});
    const [failed] = await runner.processToolCalls([{ name: 'view_file', args: { file_path: 'x.txt' } }]);
    expect((failed as { code: string; error: string }).code).toBe('not_found');
    expect((failed as { error: string }).error).toMatch(/\n\nReview: the user rejected changes you made\..*\n- \/workspace\/x\.txt: your new file was rejected; it does not exist\.$/s);
    await runner.execute('create_file', { file_path: 'y.txt', content: 'y\n' });
    await runner.reject('default', { paths: ['/workspace/y.txt'] });
    const [viewed] = await runner.processToolCalls([{ name: 'str_replace_based_edit_tool', args: { command: 'view', path: '/workspace/a.txt' } }]);
    expect((viewed as { result: string }).result).toMatch(/one\n\[Review: the user rejected changes you made\..*\/workspace\/y\.txt: your new file was rejected; it does not exist\.\]$/s);
    const [again] = await runner.processToolCalls([{ name: 'str_replace_based_edit_tool', args: { command: 'view', path: '/workspace/a.txt' } }]);
    expect((again as { result: string }).result).not.toContain('Review');
  });
});

describe('review mode: notes wait for a result that can carry them', () => {
  it('a result of a tool with an output schema, or an array, is left as it is: the note goes to the next call that can carry it', async () => {
    const sized = defineTool({
      name: 'sized',
      description: 'sized',
      parameters: { type: 'object' },
      outputSchema: { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'], additionalProperties: false },
      call: async () => ({ size: 1 }),
    });
    const listed = defineTool({ name: 'listed', description: 'listed', parameters: { type: 'object' }, call: async () => [1, 2] });
    const platform = createMemoryPlatform();
    const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), sized, listed], review: true });
    await runner.execute('create_file', { file_path: 'x.txt', content: 'x\n' });
    await runner.reject('default', {});
    expect(await runner.execute('sized', {})).toEqual({ size: 1 });
    expect(await runner.execute('listed', {})).toEqual([1, 2]);
    const listing = (await runner.execute('list_dir', { dir_path: '.' })) as { note?: string };
    expect(listing.note).toMatch(/^Review: the user rejected changes you made\..*x\.txt: your new file was rejected/s);
  });
});

describe('review mode: profiles', () => {
  it("a Gemini profile's model gets the note on its next call; the note names no tool, so no profile has a word of it to rewrite", async () => {
    const platform = createMemoryPlatform({ files: { 'a.txt': 'one\n' } });
    const runner = new ToolRunner({ platform, tools: toolProfiles.gemini(), review: true });
    await runner.execute('replace', { file_path: '/workspace/a.txt', old_string: 'one', new_string: 'uno' });
    await runner.execute('write_file', { file_path: '/workspace/b.txt', content: 'b\n' });
    const grep = (await runner.execute('grep_search', { pattern: 'uno' })) as unknown;
    expect(JSON.stringify(grep)).toContain('a.txt');
    await runner.reject('default', { paths: ['/workspace/b.txt'] });
    const [read] = await runner.processToolCalls([{ name: 'read_file', args: { file_path: '/workspace/a.txt' } }]);
    const shown = JSON.stringify(read);
    expect(shown).toContain('uno');
    const note = 'Review: the user rejected changes you made. The files below are as described now; read them again before changing them further.\n- /workspace/b.txt: your new file was rejected; it does not exist.';
    expect(shown).toContain(JSON.stringify(note).slice(1, -1));
    for (const vocabulary of [ANTHROPIC_VOCABULARY, GEMINI_VOCABULARY, OPENAI_VOCABULARY]) {
      for (const tool of Object.values(vocabulary.tools)) expect(speak(vocabulary, tool, note)).toBe(note);
    }
    const [again] = await runner.processToolCalls([{ name: 'read_file', args: { file_path: '/workspace/a.txt' } }]);
    expect(JSON.stringify(again)).not.toContain('Review:');
  });
});

describe('review mode: conflicts and the journal', () => {
  it('accept reports a conflict instead of overwriting a file the workspace changed under the staged change; the change stays pending and can be rejected', async () => {
    const { platform, runner } = setup({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'uno' });
    await runner.execute('edit_file', { file_path: 'b.txt', old_string: 'bee', new_string: 'abeja' });
    await platform.fs.writeFile('/workspace/a.txt', 'one\nsomeone else\n');
    const listed = (await runner.pendingChanges()).files;
    expect(listed[0]!.conflict).toBe('--- /workspace/a.txt\n+++ /workspace/a.txt\n@@ -1,1 +1,2 @@\n one\n+someone else\n');
    expect(listed[1]!.conflict).toBeUndefined();
    const result = await runner.accept('default', {});
    expect(result.written).toEqual(['/workspace/b.txt']);
    expect(result.conflicts).toEqual([{ path: '/workspace/a.txt', diff: listed[0]!.conflict }]);
    expect([await onDisk(platform, 'a.txt'), await onDisk(platform, 'b.txt')]).toEqual(['one\nsomeone else\n', 'abeja\n']);
    expect((await runner.pendingChanges()).files.map((f) => f.path)).toEqual(['/workspace/a.txt']);
    await runner.reject('default', { paths: ['/workspace/a.txt'] });
    expect(await modelSees(runner, 'a.txt')).toBe('one\nsomeone else');
  });

  it('accepted changes are a journal turn (tool accept): a rewind to the turn before undoes them', async () => {
    const { platform, runner } = setup({ 'a.txt': 'one\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'uno' });
    const { turn } = await runner.accept('default', {});
    const changes = await runner.changes();
    expect(changes.turns.map((t) => [t.turn, t.calls.map((c) => [c.tool, c.files.map((f) => f.path)])])).toEqual([[turn, [['accept', ['/workspace/a.txt']]]]]);
    await runner.rewind('default', { toTurn: turn! - 1 });
    expect(await onDisk(platform, 'a.txt')).toBe('one\n');
  });

  it('a binary file is one whole-file hunk with a note for a diff; accepting it writes its exact bytes', async () => {
    const bytes = new Uint8Array([0, 1, 2, 255, 10, 0]);
    const writeBytes = fsTool('write_bytes', (fs) => fs.writeFile('/workspace/blob.bin', bytes));
    const { platform, runner } = setup({}, [writeBytes]);
    await runner.execute('write_bytes', {});
    const [file] = (await runner.pendingChanges()).files;
    expect([file!.kind, file!.diff, file!.hunks.length]).toEqual(['create', '(binary file /workspace/blob.bin: absent before, 6 bytes staged)', 1]);
    await runner.accept('default', { hunks: [file!.hunks[0]!.id] });
    expect([...(await platform.fs.readFile('/workspace/blob.bin'))]).toEqual([...bytes]);
  });

  it('without a journal, accept still writes (no turn); a conversation whose review was switched off keeps its staged view while changes are pending', async () => {
    let reviewing = true;
    const platform = createMemoryPlatform({ files: { 'a.txt': 'one\n' } });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), review: () => reviewing, journal: false });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'uno' });
    reviewing = false;
    await runner.execute('create_file', { file_path: 'b.txt', content: 'b\n' });
    expect(await modelSees(runner, 'a.txt')).toBe('uno');
    expect((await runner.pendingChanges()).files.map((f) => f.path)).toEqual(['/workspace/a.txt', '/workspace/b.txt']);
    expect(await runner.accept('default', {})).toEqual({ written: ['/workspace/a.txt', '/workspace/b.txt'], hunks: expect.any(Array), conflicts: [] });
    await runner.execute('create_file', { file_path: 'c.txt', content: 'c\n' });
    expect([await onDisk(platform, 'a.txt'), await onDisk(platform, 'b.txt'), await onDisk(platform, 'c.txt')]).toEqual(['uno\n', 'b\n', 'c\n']);
  });

  it('host mistakes are TypeErrors: a bad selection, a path with nothing pending, a runner not in review mode', async () => {
    const { runner } = setup({ 'a.txt': 'one\n' });
    await expect(runner.accept('default', { paths: '/workspace/a.txt' } as never)).rejects.toThrow(TypeError);
    await expect(runner.accept('default', { paths: ['/workspace/a.txt'] })).rejects.toThrow('accept: "/workspace/a.txt" has no pending change; take paths as pendingChanges() lists them');
    await expect(runner.reject('default', { hunks: ['9.9.9'] })).rejects.toThrow(/no pending hunk has the id "9\.9\.9"/);
    const plain = new ToolRunner({ tools: BuiltinTools.all() });
    expect(() => plain.pendingChanges()).toThrow('ToolRunner.pendingChanges: this runner is not in review mode; create it with review: true (or a function choosing the conversations)');
    expect(() => new ToolRunner({ review: 'yes' as never })).toThrow(TypeError);
  });
});

