import { describe, expect, it } from 'vitest';
import type { Cassette } from '../core/journal-port.js';
import { defineTool } from '../core/tool.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner as CoreToolRunner } from '../core/runner.js';
import { ToolRunner, TOOLHOST_DEFAULTS } from '../runner.js';
import { createChangeJournal, type ChangeJournal } from './journal.js';
import { MemoryJournalStore } from './store.js';
import { BuiltinTools } from '../tools/index.js';
import type { Platform } from '../core/platform.js';

const FILES = {
  'notes.txt': 'alpha\nbeta\ngamma\n',
  'src/main.ts': "export const greeting = 'hello beta';\n",
  'docs/guide.md': '# Guide\nbeta appears here too\n',
};

const read = async (platform: Platform, path: string): Promise<string> => new TextDecoder().decode(await platform.fs.readFile(`/workspace/${path}`));

/** A conversation of several turns: a create, views, an edit, a search, failures, a rejected execute. */
async function record(runner: ToolRunner): Promise<void> {
  await runner.execute('create_file', { file_path: 'todo.md', content: '- rename beta\n' });
  await runner.processToolCalls([
    { id: 'v1', name: 'view_file', args: { file_path: 'notes.txt' } },
    { id: 'g1', name: 'grep_search', args: { pattern: 'beta' } },
    { id: 'v2', name: 'view_file', args: { file_path: 'missing.txt' } },
  ]);
  await runner.processToolCalls([
    { id: 'e1', name: 'edit_file', args: { file_path: 'notes.txt', old_string: 'beta', new_string: 'delta' } },
    { id: 'e2', name: 'edit_file', args: { file_path: 'src/main.ts', old_string: 'no such text', new_string: 'x' } },
    { id: 'v3', name: 'view_file', args: { file_path: 'notes.txt' } },
  ]);
  await runner.processToolCalls([]);
  await runner.execute('edit_file', { file_path: 'nowhere.txt', old_string: 'a', new_string: 'b' }).catch(() => undefined);
  await runner.processToolCalls([{ id: 'f1', name: 'find_file', args: { pattern: '**/*.md' } }]);
}

async function recorded(): Promise<{ platform: Platform; runner: ToolRunner; cassette: Cassette }> {
  const platform = createMemoryPlatform({ files: FILES });
  const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
  await record(runner);
  return { platform, runner, cassette: await runner.cassette('default', { include: ['src', 'docs'] }) };
}

describe('cassettes: recording', () => {
  it('keeps every call in order with its turn, input and the outcome its caller received; seeds are the first pre-images plus included files', async () => {
    const { cassette } = await recorded();
    expect(cassette.version).toBe(1);
    expect(cassette.conversationId).toBe('default');
    expect(cassette.root).toBe('/workspace');
    expect(cassette.calls.map((call) => [call.turn, call.via, call.id ?? null, call.tool, call.error?.code ?? 'ok'])).toEqual([
      [1, 'execute', null, 'create_file', 'ok'],
      [2, 'batch', 'v1', 'view_file', 'ok'],
      [2, 'batch', 'g1', 'grep_search', 'ok'],
      [2, 'batch', 'v2', 'view_file', 'not_found'],
      [3, 'batch', 'e1', 'edit_file', 'ok'],
      [3, 'batch', 'e2', 'edit_file', 'no_match'],
      [3, 'batch', 'v3', 'view_file', 'ok'],
      [5, 'execute', null, 'edit_file', 'not_found'],
      [6, 'batch', 'f1', 'find_file', 'ok'],
    ]);
    expect(cassette.calls[4]?.input).toEqual({ file_path: 'notes.txt', old_string: 'beta', new_string: 'delta' });
    expect(cassette.calls[6]?.result).toMatchObject({ content: 'alpha\ndelta\ngamma' });
    // notes.txt as it was before the edit (from the journal), not as it is now; todo.md did not exist.
    expect(cassette.files).toEqual([
      { path: '/workspace/docs/guide.md', text: FILES['docs/guide.md'] },
      { path: '/workspace/notes.txt', text: FILES['notes.txt'] },
      { path: '/workspace/src/main.ts', text: FILES['src/main.ts'] },
      { path: '/workspace/todo.md', absent: true },
    ]);
    expect(cassette.incomplete).toBeUndefined();
  });

  it('copies a result when it is recorded: a caller changing the object afterwards does not change the cassette', async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: FILES }), tools: BuiltinTools.all() });
    const [answer] = await runner.processToolCalls([{ id: 'v', name: 'view_file', args: { file_path: 'notes.txt' } }]);
    (answer as { result: { content: string } }).result.content = 'tampered';
    const cassette = await runner.cassette();
    expect(cassette.calls[0]?.result).toMatchObject({ content: 'alpha\nbeta\ngamma' });
  });

  it('survives a JSON round trip: the parsed cassette is equal and replays green', async () => {
    const { cassette } = await recorded();
    const parsed = JSON.parse(JSON.stringify(cassette)) as Cassette;
    expect(parsed).toEqual(cassette);
    const result = await new ToolRunner({ tools: BuiltinTools.all() }).replay(parsed);
    expect(result.ok).toBe(true);
  });

  it('keeps bytes that are not UTF-8 as base64 and writes them back byte for byte', async () => {
    const bytes = new Uint8Array([0, 255, 1, 128, 10]);
    const platform = createMemoryPlatform();
    await platform.fs.writeFile('/workspace/blob.bin', bytes);
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await runner.execute('create_file', { file_path: 'blob.bin', content: 'text now\n', overwrite: true });
    const cassette = await runner.cassette();
    expect(cassette.files).toEqual([{ path: '/workspace/blob.bin', base64: 'AP8BgAo=' }]);
    const fresh = createMemoryPlatform();
    expect((await new ToolRunner({ platform: fresh, tools: BuiltinTools.all() }).replay(cassette)).ok).toBe(true);
    expect(await read(fresh, 'blob.bin')).toBe('text now\n');
  });
});

describe('cassettes: replay', () => {
  it('replays a recorded session green on a fresh memory workspace, leaving the same files and the same cassette', async () => {
    const { platform, cassette } = await recorded();
    const freshPlatform = createMemoryPlatform();
    const fresh = new ToolRunner({ platform: freshPlatform, tools: BuiltinTools.all() });
    const result = await fresh.replay(cassette);
    expect(result).toEqual({ ok: true, turns: 5, calls: 9, report: 'replay of "default": 9 calls over 5 turns answered as recorded' });
    for (const path of ['notes.txt', 'todo.md', 'src/main.ts']) expect(await read(freshPlatform, path)).toBe(await read(platform, path));
    // Turn numbers match the recording's (the empty turn 4 was run as an empty batch), so the journal agrees too.
    expect((await fresh.changes()).turns.map((turn) => turn.turn)).toEqual([1, 3]);
    expect(await fresh.cassette('default', { include: ['src', 'docs'] })).toEqual(cassette);
  });

  it('fails on the first call whose result differs when a seeded file differs, naming the turn, call and JSON path with a diff', async () => {
    const { cassette } = await recorded();
    const changed: Cassette = { ...cassette, files: cassette.files.map((file) => (file.path === '/workspace/notes.txt' ? { ...file, text: 'alpha\nbeta\nepsilon\n' } : file)) };
    const result = await new ToolRunner({ tools: BuiltinTools.all() }).replay(changed);
    expect(result.ok).toBe(false);
    expect(result.turns).toBe(2);
    expect(result.calls).toBe(2);
    expect(result.drift).toMatchObject({ turn: 2, index: 1, id: 'v1', tool: 'view_file', path: '$.result.content', expected: 'alpha\nbeta\ngamma', actual: 'alpha\nbeta\nepsilon' });
    expect(result.drift?.diff).toContain('-gamma');
    expect(result.drift?.diff).toContain('+epsilon');
    expect(result.report).toBe(`replay of "default" drifted at turn 2, call 2 of the cassette (id v1, tool view_file), at $.result.content:\n${result.drift?.diff}`);
  });

  it('fails with a drift report when a tool now answers otherwise; a normalize option accepts what legitimately varies', async () => {
    let version = 1;
    const stamp = defineTool({
      name: 'stamp',
      description: 'labels text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }: { text: string }) => ({ label: version === 1 ? `[${text}]` : `<${text}>`, requestId: `req-${Math.random()}` }),
    });
    const runner = new ToolRunner({ tools: [stamp] });
    await runner.processToolCalls([{ id: 's1', name: 'stamp', args: { text: 'a' } }]);
    const cassette = await runner.cassette();

    const dropId = (value: unknown): never => {
      const { requestId: _, ...rest } = value as { requestId?: string };
      return rest as never;
    };
    const unstable = await new ToolRunner({ tools: [stamp] }).replay(cassette);
    expect(unstable.drift).toMatchObject({ turn: 1, index: 0, id: 's1', tool: 'stamp', path: '$.result.requestId' });
    expect(unstable.drift?.diff).toMatch(/^- "req-[\d.]+"\n\+ "req-[\d.]+"$/);
    expect((await new ToolRunner({ tools: [stamp] }).replay(cassette, { normalize: dropId })).ok).toBe(true);

    version = 2;
    const changed = await new ToolRunner({ tools: [stamp] }).replay(cassette, { normalize: dropId });
    expect(changed.drift).toMatchObject({ path: '$.result.label', expected: '[a]', actual: '<a>', diff: '- "[a]"\n+ "<a>"' });
    expect(changed.report).toContain('drifted at turn 1, call 1 of the cassette (id s1, tool stamp), at $.result.label');
  });

  it('compares failures too: a call that now succeeds where it failed drifts at $, showing both answers', async () => {
    const runner = new ToolRunner({ tools: BuiltinTools.all() });
    await runner.processToolCalls([{ id: 'v', name: 'view_file', args: { file_path: 'missing.txt' } }]);
    const cassette = await runner.cassette();
    expect(cassette.calls[0]?.error?.code).toBe('not_found');
    const platform = createMemoryPlatform({ files: { 'missing.txt': 'here\n' } });
    const result = await new ToolRunner({ platform, tools: BuiltinTools.all() }).replay(cassette);
    expect(result.drift).toMatchObject({ turn: 1, id: 'v', tool: 'view_file', path: '$', expected: { error: { code: 'not_found' } }, actual: { result: { content: 'here' } } });
    expect(result.drift?.diff).toMatch(/^- \{"error":\{"code":"not_found","message":".*\n\+ \{"result":\{"file_path":"\/workspace\/missing.txt","content":"here"/);
  });

  it('a file the cassette does not know of, left in the workspace, makes the first search that counts it drift', async () => {
    const { cassette } = await recorded();
    const platform = createMemoryPlatform({ files: { 'stray.txt': 'beta\n' } });
    const result = await new ToolRunner({ platform, tools: BuiltinTools.all() }).replay(cassette);
    expect(result.drift).toMatchObject({ turn: 2, index: 2, id: 'g1', tool: 'grep_search' });
    expect(result.drift?.path).toMatch(/^\$\.result\./);
  });

  it('records a rewind as a call of its turn and replays it', async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: FILES }), tools: BuiltinTools.all() });
    await runner.execute('edit_file', { file_path: 'notes.txt', old_string: 'alpha', new_string: 'one' });
    await runner.execute('edit_file', { file_path: 'notes.txt', old_string: 'gamma', new_string: 'three' });
    await runner.rewind('default', { toTurn: 1 });
    await runner.processToolCalls([{ id: 'v', name: 'view_file', args: { file_path: 'notes.txt' } }]);
    const cassette = await runner.cassette();
    expect(cassette.calls.map((call) => [call.turn, call.via, call.tool])).toEqual([
      [1, 'execute', 'edit_file'],
      [2, 'execute', 'edit_file'],
      [3, 'rewind', 'rewind'],
      [4, 'batch', 'view_file'],
    ]);
    expect(cassette.calls[2]).toMatchObject({ input: { toTurn: 1 }, result: { restored: ['/workspace/notes.txt'], conflicts: [], turn: 3 } });
    const platform = createMemoryPlatform();
    expect((await new ToolRunner({ platform, tools: BuiltinTools.all() }).replay(cassette)).ok).toBe(true);
    expect(await read(platform, 'notes.txt')).toBe('one\nbeta\ngamma\n');
  });

  it('replays the session of any conversation, into another conversation when asked', async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: FILES }), tools: BuiltinTools.all() });
    await runner.processToolCalls([{ id: 'c', name: 'create_file', args: { file_path: 'x.txt', content: 'x\n' } }], { conversationId: 'chat-7' });
    const cassette = await runner.cassette('chat-7');
    expect(cassette.conversationId).toBe('chat-7');
    const fresh = new ToolRunner({ tools: BuiltinTools.all() });
    expect((await fresh.replay(cassette, { conversationId: 'again' })).ok).toBe(true);
    expect((await fresh.changes('again')).turns).toHaveLength(1);
  });
});

describe('cassettes: limits and mistakes', () => {
  it('orders calls by turn even when overlapping executes of one conversation end out of order', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = defineTool({ name: 'slow', description: 'waits', inputSchema: { type: 'object' }, execute: async () => (await gate, 'slow done') });
    const fast = defineTool({ name: 'fast', description: 'answers', inputSchema: { type: 'object' }, execute: () => 'fast done' });
    const runner = new ToolRunner({ tools: [slow, fast] });
    const first = runner.execute('slow', {});
    await runner.execute('fast', {});
    release();
    await first;
    expect((await runner.cassette()).calls.map((call) => [call.turn, call.tool, call.result])).toEqual([
      [1, 'slow', 'slow done'],
      [2, 'fast', 'fast done'],
    ]);
  });

  it('a journal taken up from a durable store has no calls of the turns before: its cassettes say so', async () => {
    const store = new MemoryJournalStore();
    const open = (): { runner: CoreToolRunner; journal: () => ChangeJournal } => {
      let made: ChangeJournal | undefined;
      const runner = new CoreToolRunner(
        { platform: createMemoryPlatform({ files: FILES }), tools: BuiltinTools.all() },
        { ...TOOLHOST_DEFAULTS, journal: (platform, setup) => (made = createChangeJournal(platform, setup, { store })) },
      );
      return { runner, journal: () => made as ChangeJournal };
    };
    const first = open();
    await first.runner.execute('edit_file', { file_path: 'notes.txt', old_string: 'beta', new_string: 'delta' });
    await first.runner.execute('create_file', { file_path: 'new.txt', content: 'n\n' });
    await first.journal().flushed();
    const second = open();
    await second.journal().load();
    await second.runner.processToolCalls([{ id: 'v', name: 'view_file', args: { file_path: 'new.txt' } }]);
    const cassette = await second.runner.cassette();
    expect(cassette.calls.map((call) => call.turn)).toEqual([3]);
    expect(cassette.incomplete).toMatchObject({ droppedThrough: 2 });
    // The cause is said as it is: no budget dropped them, so raising one would not help.
    expect(cassette.incomplete?.note).toBe(
      'this cassette does not hold the whole conversation: the calls of turns up to 2 were made by an earlier process (the journal on disk keeps their file changes; calls are kept in memory only, by the process that made them, so export the cassette before that process ends)',
    );
    expect(cassette.incomplete?.note).not.toMatch(/budget|maxBytes/);
  });


  it('drops the oldest turns past a quarter of the journal budget and says so; a replay refuses such a cassette', async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: { 'big.txt': 'x'.repeat(3000) } }), journal: { maxBytes: 16_000 }, tools: BuiltinTools.all() });
    for (let i = 0; i < 4; i += 1) await runner.processToolCalls([{ id: `v${i}`, name: 'view_file', args: { file_path: 'big.txt' } }]);
    const cassette = await runner.cassette();
    expect(cassette.calls.map((call) => call.turn)).toEqual([4]);
    expect(cassette.incomplete).toMatchObject({ droppedThrough: 3 });
    expect(cassette.incomplete?.note).toContain('turns up to 3 were dropped');
    await expect(new ToolRunner().replay(cassette)).rejects.toThrow(TypeError);
    await expect(new ToolRunner().replay(cassette)).rejects.toThrow(/ToolRunner.replay: this cassette does not hold the whole conversation: turns up to 3 were dropped/);
  });

  it('refuses what is not a cassette, a conversation that already has turns, and a runner without a journal, with TypeErrors', async () => {
    const { cassette } = await recorded();
    const runner = new ToolRunner({ tools: BuiltinTools.all() });
    await expect(runner.replay({ ...cassette, version: 2 } as unknown as Cassette)).rejects.toThrow('ToolRunner.replay: cassette version 2 is not one this toolhost reads (1)');
    await expect(runner.replay({ ...cassette, calls: [{ turn: 1, via: 'batch', tool: 'x' }] } as unknown as Cassette)).rejects.toThrow('calls[0] must be');
    const twoExecutes = [{ turn: 1, via: 'execute', tool: 'x', result: 1 }, { turn: 1, via: 'execute', tool: 'x', result: 1 }];
    await expect(runner.replay({ ...cassette, calls: twoExecutes } as unknown as Cassette)).rejects.toThrow("calls[1] shares turn 1 with the call before it, but only a batch's calls may");
    expect(() => runner.replay(cassette, { normalize: 'off' } as never)).toThrow('ToolRunner.replay: normalize must be a function, not "off"');
    await runner.processToolCalls([]);
    await expect(runner.replay(cassette)).rejects.toThrow('conversation "default" has had turns on this runner; replay on a fresh runner or pass another conversationId');
    expect(() => new ToolRunner({ journal: false }).cassette()).toThrow('ToolRunner.cassette: this runner keeps no change journal');
    expect(() => runner.cassette('default', { include: [5 as unknown as string] })).toThrow(TypeError);
    await expect(runner.cassette('default', { include: ['/etc'] })).rejects.toThrow('include path "/etc" is outside the platform root (/workspace)');
  });
});
