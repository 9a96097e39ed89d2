import { describe, expect, it } from 'vitest';
import type { FsPromises } from '../core/fs-port.js';
import type { Platform } from '../core/platform.js';
import { defineTool, type ToolContext } from '../core/tool.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner } from '../runner.js';
import { BuiltinTools } from '../tools/index.js';
import { toolProfiles } from '../tools/profiles/index.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

async function read(platform: Platform, path: string): Promise<string | null> {
  try {
    return text(await platform.fs.readFile(`/workspace/${path}`));
  } catch {
    return null;
  }
}

/** A runner with toolhost's writers and readers over a memory platform holding `files`. */
function setup(files: Record<string, string> = {}, journal?: { maxBytes: number } | false): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), ...toolProfiles.openai().filter((tool) => tool.name === 'apply_patch')], ...(journal === undefined ? {} : { journal }) });
  return { platform, runner };
}

/** A mutating tool that runs `body` with the call's context (for changes no built-in makes: renames of folders, rm -r). */
function fsTool(name: string, body: (fs: FsPromises) => Promise<void>) {
  return defineTool({ name, description: name, parameters: { type: 'object' }, callWithContext: async (_args: unknown, ctx: ToolContext) => body(ctx.fs) });
}

describe('change journal: turns', () => {
  it('numbers turns per conversation across execute and processToolCalls, counting turns that changed nothing without listing them', async () => {
    const { runner } = setup({ 'a.txt': 'one\n' });
    await runner.execute('create_file', { file_path: 'b.txt', content: 'bee\n' });
    await runner.processToolCalls([{ id: 'r1', name: 'view_file', args: { file_path: 'a.txt' } }]);
    await runner.processToolCalls([
      { id: 'w1', name: 'edit_file', args: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } },
      { id: 'r2', name: 'view_file', args: { file_path: 'a.txt' } },
      { id: 'w2', name: 'create_file', args: { file_path: 'c/d.txt', content: 'dee\n' } },
    ]);
    await runner.execute('create_file', { file_path: 'e.txt', content: 'other\n' }, { conversationId: 'other' });
    const changes = await runner.changes('default');
    expect(changes.turns.map((turn) => turn.turn)).toEqual([1, 3]);
    expect(changes.turns[1]!.calls.map((call) => [call.callId, call.tool, call.files.map((file) => file.path)])).toEqual([
      ['w1', 'edit_file', ['/workspace/a.txt']],
      ['w2', 'create_file', ['/workspace/c/d.txt']],
    ]);
    expect(changes.droppedThrough).toBeUndefined();
    const other = await runner.changes('other');
    expect(other.turns.map((turn) => [turn.turn, turn.calls[0]!.files[0]!.path])).toEqual([[1, '/workspace/e.txt']]);
  });

  it('lists each file with its hashes before and after and a unified diff; a created file diffs from empty text, a deleted one to empty', async () => {
    const { runner } = setup({ 'a.txt': 'one\ntwo\n', 'gone.txt': 'bye\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'two', new_string: 'three' });
    await runner.execute('create_file', { file_path: 'new.txt', content: 'hello\n' });
    await runner.execute('apply_patch', { input: '*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch' });
    const [edit, create, remove] = (await runner.changes()).turns.map((turn) => turn.calls[0]!.files[0]!);
    expect(edit!.before).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(edit!.after).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(edit!.diff).toBe('--- /workspace/a.txt\n+++ /workspace/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n');
    expect(create).toMatchObject({ before: 'absent', diff: '--- /workspace/new.txt\n+++ /workspace/new.txt\n@@ -0,0 +1,1 @@\n+hello\n' });
    expect(remove).toMatchObject({ after: 'absent', diff: '--- /workspace/gone.txt\n+++ /workspace/gone.txt\n@@ -1,1 +0,0 @@\n-bye\n' });
  });

  it('records a call that failed after it wrote: what it changed is in the journal and can be rewound', async () => {
    const platform = createMemoryPlatform({ files: { 'a.txt': 'a\n' } });
    const breaks = fsTool('breaks', async (fs) => {
      await fs.writeFile('/workspace/a.txt', 'half\n');
      throw new Error('boom');
    });
    const runner = new ToolRunner({ platform, tools: [breaks] });
    const [result] = await runner.processToolCalls([{ name: 'breaks', args: {} }]);
    expect(result).toMatchObject({ code: 'execution_failed' });
    expect((await runner.changes()).turns[0]!.calls[0]!.files[0]!.diff).toContain('-a\n+half\n');
    expect(await runner.rewind('default', { toTurn: 0 })).toEqual({ restored: ['/workspace/a.txt'], conflicts: [], turn: 2 });
    expect(await read(platform, 'a.txt')).toBe('a\n');
  });
});

describe('change journal: rewind', () => {
  it('restores every file the conversation changed after the turn, removing files it created', async () => {
    const { platform, runner } = setup({ 'a.txt': 'one\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    await runner.execute('create_file', { file_path: 'n/new.txt', content: 'new\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'two', new_string: 'three' });
    expect(await runner.rewind('default', { toTurn: 1 })).toEqual({ restored: ['/workspace/n/new.txt', '/workspace/a.txt'], conflicts: [], turn: 4 });
    expect(await read(platform, 'a.txt')).toBe('two\n');
    expect(await read(platform, 'n/new.txt')).toBeNull();
  });

  it('leaves a file someone else changed since, reporting a conflict with their change as a diff; force overwrites it', async () => {
    const { platform, runner } = setup({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    await runner.processToolCalls([
      { name: 'edit_file', args: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } },
      { name: 'edit_file', args: { file_path: 'b.txt', old_string: 'bee', new_string: 'wasp' } },
    ]);
    await platform.fs.writeFile('/workspace/a.txt', 'user\n');
    const result = await runner.rewind('default', { toTurn: 0 });
    expect(result).toEqual({
      restored: ['/workspace/b.txt'],
      conflicts: [{ path: '/workspace/a.txt', diff: '--- /workspace/a.txt\n+++ /workspace/a.txt\n@@ -1,1 +1,1 @@\n-two\n+user\n' }],
      turn: 2,
    });
    expect([await read(platform, 'a.txt'), await read(platform, 'b.txt')]).toEqual(['user\n', 'bee\n']);
    expect(await runner.rewind('default', { toTurn: 0, force: true })).toEqual({ restored: ['/workspace/a.txt'], conflicts: [], turn: 3 });
    expect(await read(platform, 'a.txt')).toBe('one\n');
  });

  it('reports a file another conversation changed after this one as a conflict', async () => {
    const { platform, runner } = setup({ 'a.txt': 'one\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'two' }, { conversationId: 'x' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'two', new_string: 'three' }, { conversationId: 'y' });
    const result = await runner.rewind('x', { toTurn: 0 });
    expect(result.restored).toEqual([]);
    expect(result.conflicts.map((conflict) => conflict.path)).toEqual(['/workspace/a.txt']);
    expect(await read(platform, 'a.txt')).toBe('three\n');
    // y's own rewind is free to go: y made the last change.
    expect((await runner.rewind('y', { toTurn: 0 })).restored).toEqual(['/workspace/a.txt']);
    expect(await read(platform, 'a.txt')).toBe('two\n');
  });

  it('counts a change another conversation makes while this one’s turn is still open as theirs: a conflict, not restored', async () => {
    const platform = createMemoryPlatform();
    let release = (): void => undefined;
    let started = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const running = new Promise<void>((resolve) => (started = resolve));
    const wait = defineTool({ name: 'wait', description: 'waits for the test', parameters: { type: 'object' }, readOnly: true, call: async () => (started(), await gate, 'ok') });
    const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), wait] });
    const batch = runner.processToolCalls([{ name: 'create_file', args: { file_path: 'f.txt', content: 'A\n' } }, { name: 'wait', args: {} }], { conversationId: 'A' });
    await running;
    await runner.execute('create_file', { file_path: 'f.txt', content: 'B\n', overwrite: true }, { conversationId: 'B' });
    release();
    expect((await batch).map((result) => 'result' in result)).toEqual([true, true]);
    const result = await runner.rewind('A', { toTurn: 0 });
    expect(result.restored).toEqual([]);
    expect(result.conflicts).toEqual([{ path: '/workspace/f.txt', diff: '--- /workspace/f.txt\n+++ /workspace/f.txt\n@@ -1,1 +1,1 @@\n-A\n+B\n' }]);
    expect(await read(platform, 'f.txt')).toBe('B\n');
  });

  it('changes nothing on dryRun and reports what it would restore and where it would meet conflicts', async () => {
    const { platform, runner } = setup({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    await runner.execute('edit_file', { file_path: 'b.txt', old_string: 'bee', new_string: 'wasp' });
    await platform.fs.writeFile('/workspace/b.txt', 'moth\n');
    const result = await runner.rewind('default', { toTurn: 0, dryRun: true });
    expect(result.restored).toEqual(['/workspace/a.txt']);
    expect(result.conflicts.map((conflict) => conflict.path)).toEqual(['/workspace/b.txt']);
    expect(result.turn).toBeUndefined();
    expect([await read(platform, 'a.txt'), await read(platform, 'b.txt')]).toEqual(['two\n', 'moth\n']);
    expect((await runner.changes()).turns.map((turn) => turn.turn)).toEqual([1, 2]);
  });

  it('is a turn of its own: rewinding to the turn before it undoes it', async () => {
    const { platform, runner } = setup({ 'a.txt': 'one\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    await runner.execute('create_file', { file_path: 'b.txt', content: 'bee\n' });
    const rewind = await runner.rewind('default', { toTurn: 0 });
    expect(rewind.turn).toBe(3);
    expect([await read(platform, 'a.txt'), await read(platform, 'b.txt')]).toEqual(['one\n', null]);
    const turns = (await runner.changes()).turns;
    expect(turns[2]!.calls.map((call) => [call.callId, call.tool])).toEqual([['rewind-3', 'rewind']]);
    expect(await runner.rewind('default', { toTurn: 2 })).toEqual({ restored: ['/workspace/a.txt', '/workspace/b.txt'], conflicts: [], turn: 4 });
    expect([await read(platform, 'a.txt'), await read(platform, 'b.txt')]).toEqual(['two\n', 'bee\n']);
  });

  it('restores the files of a folder a call renamed or removed, each under its own path', async () => {
    const platform = createMemoryPlatform({ files: { 'd/x.txt': 'x\n', 'd/e/y.txt': 'y\n', 'k/z.txt': 'z\n' } });
    const move = fsTool('move_dir', (fs) => fs.rename('/workspace/d', '/workspace/m'));
    const remove = fsTool('remove_dir', (fs) => fs.rm('/workspace/k', { recursive: true }));
    const runner = new ToolRunner({ platform, tools: [move, remove] });
    await runner.processToolCalls([{ name: 'move_dir', args: {} }, { name: 'remove_dir', args: {} }]);
    expect(await read(platform, 'm/e/y.txt')).toBe('y\n');
    const files = (await runner.changes()).turns[0]!.calls.flatMap((call) => call.files.map((file) => [file.path, file.before === 'absent', file.after === 'absent']));
    expect(files.sort()).toEqual([
      ['/workspace/d/e/y.txt', false, true],
      ['/workspace/d/x.txt', false, true],
      ['/workspace/k/z.txt', false, true],
      ['/workspace/m/e/y.txt', true, false],
      ['/workspace/m/x.txt', true, false],
    ]);
    expect((await runner.rewind('default', { toTurn: 0 })).restored.sort()).toEqual(['/workspace/d/e/y.txt', '/workspace/d/x.txt', '/workspace/k/z.txt', '/workspace/m/e/y.txt', '/workspace/m/x.txt']);
    expect([await read(platform, 'd/x.txt'), await read(platform, 'd/e/y.txt'), await read(platform, 'k/z.txt'), await read(platform, 'm/x.txt')]).toEqual(['x\n', 'y\n', 'z\n', null]);
  });

  it('is all or nothing: when a write fails, the files written before it are put back and it rejects with execution_failed', async () => {
    const base = createMemoryPlatform({ files: { 'a.txt': 'one\n', 'b.txt': 'bee\n' } });
    let failOn: string | undefined;
    const fs = new Proxy(base.fs, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        if (property !== 'writeFile') return (value as (...args: unknown[]) => unknown).bind(target);
        return async (path: string, data: Uint8Array | string) => {
          if (path === failOn) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          return target.writeFile(path, data);
        };
      },
    });
    const platform: Platform = { ...base, fs } as Platform;
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    await runner.execute('edit_file', { file_path: 'b.txt', old_string: 'bee', new_string: 'wasp' });
    failOn = '/workspace/b.txt';
    await expect(runner.rewind('default', { toTurn: 0 })).rejects.toMatchObject({ code: 'execution_failed', message: expect.stringContaining('every file written was put back') });
    expect([await read(platform, 'a.txt'), await read(platform, 'b.txt')]).toEqual(['two\n', 'wasp\n']);
    expect((await runner.changes()).turns.map((turn) => turn.turn)).toEqual([1, 2]);
    failOn = undefined;
    expect((await runner.rewind('default', { toTurn: 0 })).restored).toEqual(['/workspace/a.txt', '/workspace/b.txt']);
  });

  it('refuses bad options with a TypeError naming them', async () => {
    const { runner } = setup();
    await runner.execute('create_file', { file_path: 'a.txt', content: 'a\n' });
    await expect(runner.rewind('default', { toTurn: -1 })).rejects.toThrow(new TypeError('rewind: toTurn must be a turn number (an integer, 0 or more), not -1'));
    await expect(runner.rewind('default', { toTurn: 5 })).rejects.toThrow(
      new TypeError('rewind: conversation "default" has had 1 turn, the last turn 1; toTurn 5 is beyond it: give toTurn from 0 (before its first change) to 1; changes("default") lists the turns that changed files'),
    );
    await expect(runner.rewind('fresh', { toTurn: 1 })).rejects.toThrow(
      new TypeError('rewind: conversation "fresh" has had no turns yet; toTurn 1 is beyond it: give toTurn 0 (there is nothing to rewind yet); changes("fresh") lists the turns that changed files'),
    );
    await expect(runner.rewind('default', { toTurn: 0, dryrun: true } as never)).rejects.toThrow('rewind: dryrun is not an option (did you mean dryRun?)');
  });
});

describe('change journal: conflicts', () => {
  it('says a file the conversation created is now a directory, when someone put one in its place', async () => {
    const { platform, runner } = setup();
    await runner.execute('create_file', { file_path: 'made.txt', content: 'made\n' });
    await platform.fs.rm('/workspace/made.txt');
    await platform.fs.mkdir('/workspace/made.txt');
    const result = await runner.rewind('default', { toTurn: 0 });
    expect(result.restored).toEqual([]);
    expect(result.conflicts).toEqual([{ path: '/workspace/made.txt', diff: '(no text diff of /workspace/made.txt: before text, 5 characters; after now a directory)' }]);
  });
});

describe('change journal: content seen before', () => {
  it('takes the pre-image of what is there, not what the journal last wrote, when someone else rewrote the file to the same length', async () => {
    const { platform, runner } = setup();
    await runner.execute('create_file', { file_path: 'a.txt', content: 'aaaa\n' });
    await platform.fs.writeFile('/workspace/a.txt', 'bbbb\n');
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'bbbb', new_string: 'cccc' });
    const [create, edit] = (await runner.changes()).turns.map((turn) => turn.calls[0]!.files[0]!);
    expect(edit!.before).not.toBe(create!.after);
    expect(edit!.diff).toContain('-bbbb\n+cccc\n');
    expect(await runner.rewind('default', { toTurn: 1 })).toEqual({ restored: ['/workspace/a.txt'], conflicts: [], turn: 3 });
    expect(await read(platform, 'a.txt')).toBe('bbbb\n');
  });

  it('gives content written back unchanged the image it had: an edit undone by the next one records the first pre-image as the last post-image', async () => {
    const { runner } = setup({ 'a.txt': 'one\n' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'two', new_string: 'one' });
    const [first, second] = (await runner.changes()).turns.map((turn) => turn.calls[0]!.files[0]!);
    expect(second!.before).toBe(first!.after);
    expect(second!.after).toBe(first!.before);
  });
});

describe('change journal: budget and switch', () => {
  it('drops the oldest turns past its byte budget and says a rewind before them cannot be done, changing nothing', async () => {
    const { platform, runner } = setup({}, { maxBytes: 8000 });
    for (let i = 1; i <= 10; i += 1) await runner.execute('create_file', { file_path: `f${i}.txt`, content: `${String(i % 10).repeat(999)}\n` });
    const changes = await runner.changes();
    expect(changes.droppedThrough).toBe(2);
    expect(changes.turns.map((turn) => turn.turn)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    const refused = await runner.rewind('default', { toTurn: 1 });
    expect(refused).toEqual({
      restored: [],
      conflicts: [],
      unreachable: { droppedThrough: 2, note: 'turns up to 2 of this conversation were dropped to keep the journal within its byte budget; rewind to turn 2 or later' },
    });
    expect(await read(platform, 'f10.txt')).not.toBeNull();
    expect((await runner.rewind('default', { toTurn: 8 })).restored).toEqual(['/workspace/f9.txt', '/workspace/f10.txt']);
    expect([await read(platform, 'f8.txt'), await read(platform, 'f9.txt')]).toEqual([`${'8'.repeat(999)}\n`, null]);
  });

  it('keeps no content of a file over a quarter of its budget, so one huge file does not push the other turns out', async () => {
    const { platform, runner } = setup({ 'big.txt': `${'b'.repeat(3000)}\n` }, { maxBytes: 8000 });
    await runner.execute('create_file', { file_path: 'small.txt', content: 'small\n' });
    await runner.execute('edit_file', { file_path: 'big.txt', old_string: 'bbbb\n', new_string: 'cccc\n' });
    const changes = await runner.changes();
    expect(changes.droppedThrough).toBeUndefined();
    expect(changes.turns[1]!.calls[0]!.files[0]).toMatchObject({ before: 'unknown', after: 'unknown' });
    // Its content was not kept: a note in parentheses, not an empty diff.
    expect(changes.turns[1]!.calls[0]!.files[0]!.diff).toBe('(no text diff of /workspace/big.txt: before content not kept; after content not kept)');
    expect(await runner.rewind('default', { toTurn: 1 })).toEqual({
      restored: [],
      conflicts: [],
      unreachable: { note: expect.stringContaining('over a quarter of the journal budget'), paths: ['/workspace/big.txt'] },
    });
    expect((await read(platform, 'big.txt'))?.endsWith('cccc\n')).toBe(true);
    expect((await runner.rewind('default', { toTurn: 2 })).restored).toEqual([]);
  });

  it('keeps one copy of content shared between turns and conversations', async () => {
    const { runner } = setup({}, { maxBytes: 2500 });
    const content = `${'x'.repeat(999)}\n`;
    for (let i = 1; i <= 5; i += 1) await runner.execute('create_file', { file_path: `f${i}.txt`, content }, { conversationId: `c${i}` });
    // Five turns of 1,000 bytes each, but one blob: nothing is dropped.
    for (let i = 1; i <= 5; i += 1) expect((await runner.changes(`c${i}`)).droppedThrough).toBeUndefined();
  });

  it('costs nothing when off: ctx.fs is the platform’s own object, and changes() and rewind() say there is no journal', async () => {
    const platform = createMemoryPlatform();
    const seen: FsPromises[] = [];
    const probe = fsTool('probe', async (fs) => void seen.push(fs));
    const reader = defineTool({ name: 'reader', description: 'reads', parameters: { type: 'object' }, readOnly: true, callWithContext: async (_args: unknown, ctx: ToolContext) => void seen.push(ctx.fs) });
    const off = new ToolRunner({ platform, tools: [probe], journal: false });
    await off.execute('probe', {});
    expect(seen[0]).toBe(platform.fs);
    expect(() => off.changes()).toThrow(TypeError);
    expect(() => off.rewind('default', { toTurn: 0 })).toThrow('ToolRunner.rewind: this runner keeps no change journal');
    const on = new ToolRunner({ platform, tools: [probe, reader] });
    await on.execute('reader', {});
    await on.execute('probe', {});
    // A read-only call gets the platform's fs; a mutating one the journal's view.
    expect(seen[1]).toBe(platform.fs);
    expect(seen[2]).not.toBe(platform.fs);
  });
});
