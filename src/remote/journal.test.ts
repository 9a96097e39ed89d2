import { afterEach, describe, expect, it } from 'vitest';
import { isToolError } from '../core/errors.js';
import type { Platform } from '../core/platform.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner } from '../runner.js';
import { BuiltinTools } from '../tools/index.js';
import { connectToolRunner, exposeToolRunner, type Endpoint, type RemoteToolRunner } from './remote.js';

// The journal, review and replay methods of a runner in a "worker" (the other end of a MessageChannel
// in this thread), called through connectToolRunner: every answer is compared with what the worker's
// runner itself answers, and every host mistake must arrive as a TypeError.

const remotes: RemoteToolRunner[] = [];
const ports: MessagePort[] = [];

afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.terminate()));
  for (const port of ports.splice(0)) port.close();
});

const read = async (platform: Platform, path: string): Promise<string> => new TextDecoder().decode(await platform.fs.readFile(`/workspace/${path}`));

/** A runner on a memory platform served over a MessageChannel, and the remote runner of the other end. */
function served(options: { review?: boolean | ((id: string) => boolean); journal?: false } = {}): { runner: ToolRunner; platform: Platform; remote: RemoteToolRunner } {
  const platform = createMemoryPlatform({ files: { 'notes.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n' } });
  const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), ...options });
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  exposeToolRunner(runner, port2 as unknown as Endpoint);
  const remote = connectToolRunner(port1 as unknown as Endpoint, { terminate: () => port1.close() });
  remotes.push(remote);
  return { runner, platform, remote };
}

/** The TypeError a call rejects with (fails the test when it rejects otherwise or resolves). */
async function typeErrorOf(promise: Promise<unknown>): Promise<TypeError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TypeError);
  return error as TypeError;
}

describe('RemoteToolRunner: journal, review and replay of the worker\'s runner', () => {
  it('changes lists the worker\'s turns with per-call diffs, equal to the runner\'s own answer', async () => {
    const { runner, remote } = served();
    await remote.execute('create_file', { file_path: 'todo.md', content: '- a\n' }, { conversationId: 'chat' });
    await remote.processToolCalls([{ id: 'e1', name: 'edit_file', args: { file_path: 'notes.txt', old_string: 'two', new_string: 'TWO' } }], { conversationId: 'chat' });

    const remoteChanges = await remote.changes('chat');
    expect(remoteChanges).toEqual(await runner.changes('chat'));
    expect(remoteChanges.turns.map((t) => [t.turn, t.calls.map((c) => [c.tool, c.files.map((f) => f.path)])])).toEqual([
      [1, [['create_file', ['/workspace/todo.md']]]],
      [2, [['edit_file', ['/workspace/notes.txt']]]],
    ]);
    expect(remoteChanges.turns[1]?.calls[0]?.callId).toBe('e1');
    expect(remoteChanges.turns[1]?.calls[0]?.files[0]?.diff).toContain('-two\n+TWO\n');
    // Without an id: the worker runner's default conversation, which made no change.
    expect(await remote.changes()).toEqual({ conversationId: 'default', turns: [] });
  });

  it('rewind restores the file in the worker and reports a conflict the same way; a bad toTurn is a TypeError', async () => {
    const { platform, remote } = served();
    await remote.execute('edit_file', { file_path: 'notes.txt', old_string: 'one', new_string: 'ONE' }, { conversationId: 'chat' });
    await remote.execute('edit_file', { file_path: 'notes.txt', old_string: 'twelve', new_string: 'TWELVE' }, { conversationId: 'chat' });

    const preview = await remote.rewind('chat', { toTurn: 1, dryRun: true });
    expect(preview).toEqual({ restored: ['/workspace/notes.txt'], conflicts: [] });
    expect(await read(platform, 'notes.txt')).toContain('TWELVE');

    const done = await remote.rewind('chat', { toTurn: 1 });
    expect(done).toEqual({ restored: ['/workspace/notes.txt'], conflicts: [], turn: 3 });
    expect(await read(platform, 'notes.txt')).toBe('ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n');

    // Someone else changes the file: rewinding over it is a conflict with a diff, and nothing is written.
    await platform.fs.writeFile('/workspace/notes.txt', 'edited by the user\n');
    const conflicted = await remote.rewind('chat', { toTurn: 0 });
    expect(conflicted.restored).toEqual([]);
    expect(conflicted.conflicts.map((c) => c.path)).toEqual(['/workspace/notes.txt']);
    expect(conflicted.conflicts[0]?.diff).toContain('+edited by the user');
    expect(await read(platform, 'notes.txt')).toBe('edited by the user\n');

    const tooFar = await typeErrorOf(remote.rewind('chat', { toTurn: 9 }));
    expect(tooFar.message).toMatch(/toTurn/);
    await typeErrorOf(remote.rewind('chat', { toTurn: -1 }));
  });

  it('review: pendingChanges, accept of one hunk and reject of another leave exactly the accepted text; errors keep their kind', async () => {
    const { runner, platform, remote } = served({ review: (id) => id === 'reviewed' });
    await remote.processToolCalls(
      [
        { id: 'a', name: 'edit_file', args: { file_path: 'notes.txt', old_string: 'one', new_string: 'uno' } },
        { id: 'b', name: 'edit_file', args: { file_path: 'notes.txt', old_string: 'twelve', new_string: 'doce' } },
      ],
      { conversationId: 'reviewed' },
    );
    expect(await read(platform, 'notes.txt')).toContain('one\n'); // staged: the workspace is unchanged

    const pending = await remote.pendingChanges('reviewed');
    expect(pending).toEqual(await runner.pendingChanges('reviewed'));
    const [file] = pending.files;
    expect(file?.kind).toBe('modify');
    expect(file?.hunks).toHaveLength(2);
    const [first, second] = file?.hunks ?? [];

    const accepted = await remote.accept('reviewed', { hunks: [first?.id as string] });
    expect(accepted).toMatchObject({ written: ['/workspace/notes.txt'], hunks: [first?.id], conflicts: [] });
    expect(accepted.turn).toBeTypeOf('number');
    // Hunk ids change when the file's staged change does: list again before the next selection.
    const again = await remote.pendingChanges('reviewed');
    expect(again.files[0]?.hunks).toHaveLength(1);
    expect(again.files[0]?.hunks[0]?.diff).toContain('+doce');
    const rejected = await remote.reject('reviewed', { hunks: [again.files[0]?.hunks[0]?.id as string], reason: 'keep twelve' });
    expect(rejected.hunks).toEqual([again.files[0]?.hunks[0]?.id]);
    expect(await read(platform, 'notes.txt')).toBe('uno\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n');
    expect(await remote.pendingChanges('reviewed')).toEqual({ conversationId: 'reviewed', files: [] });

    // A stale hunk id, a bad selection: TypeErrors (the host's mistake), as on the runner.
    expect((await typeErrorOf(remote.accept('reviewed', { hunks: [second?.id as string] }))).message).toMatch(/list again|pending/);
    await typeErrorOf(remote.reject('reviewed', { paths: 'notes.txt' } as never));
    // The model hears of the rejection on its next call.
    const [next] = await remote.processToolCalls([{ id: 'v', name: 'view_file', args: { file_path: 'notes.txt' } }], { conversationId: 'reviewed' });
    expect(JSON.stringify(next)).toContain('keep twelve');
  });

  it('a runner without review or journal answers TypeErrors; arguments that cannot be cloned are a TypeError too', async () => {
    const { remote } = served({ journal: false });
    expect((await typeErrorOf(remote.pendingChanges('chat'))).message).toMatch(/not in review mode/);
    expect((await typeErrorOf(remote.changes('chat'))).message).toMatch(/keeps no change journal/);
    expect((await typeErrorOf(remote.rewind('chat', { toTurn: 0, force: (() => true) as never }))).message).toMatch(/cannot be sent to the tool worker/);
  });

  it('cassette and replay cross the boundary: a recorded conversation replays on a fresh worker runner, a drift is reported', async () => {
    const recording = served();
    await recording.remote.processToolCalls([{ id: 'v1', name: 'view_file', args: { file_path: 'notes.txt' } }], { conversationId: 'rec' });
    await recording.remote.processToolCalls([{ id: 'e1', name: 'edit_file', args: { file_path: 'notes.txt', old_string: 'two', new_string: 'deux' } }], { conversationId: 'rec' });
    const cassette = await recording.remote.cassette('rec', { include: ['notes.txt'] });
    expect(cassette).toEqual(await recording.runner.cassette('rec', { include: ['notes.txt'] }));
    expect(cassette.calls.map((c) => [c.turn, c.via, c.id, c.tool])).toEqual([
      [1, 'batch', 'v1', 'view_file'],
      [2, 'batch', 'e1', 'edit_file'],
    ]);

    const fresh = served();
    const replayed = await fresh.remote.replay(cassette);
    expect(replayed).toMatchObject({ ok: true, turns: 2, calls: 2 });
    expect(replayed.report).toBe('replay of "rec": 2 calls over 2 turns answered as recorded');
    expect(await read(fresh.platform, 'notes.txt')).toContain('deux');

    const edited = JSON.parse(JSON.stringify(cassette)) as typeof cassette;
    const notes = edited.files.find((f) => f.path === '/workspace/notes.txt') as { text: string };
    notes.text = notes.text.replace('three', 'drei');
    const drifted = await served().remote.replay(edited, { conversationId: 'other' });
    expect(drifted.ok).toBe(false);
    expect(drifted.drift).toMatchObject({ turn: 1, index: 0, id: 'v1', tool: 'view_file', path: '$.result.content' });

    // Replaying into a conversation that already has turns, a non-cassette, a normalize function: TypeErrors.
    expect((await typeErrorOf(fresh.remote.replay(cassette))).message).toMatch(/already has turns|turns/);
    await typeErrorOf(fresh.remote.replay({ version: 2 } as never));
    expect((await typeErrorOf(fresh.remote.replay(cassette, { normalize: (v: unknown) => v } as never))).message).toMatch(/normalize/);
  });

  it('a failed write keeps its ToolError code across the boundary', async () => {
    const { platform, remote } = served();
    await remote.execute('create_file', { file_path: 'made.txt', content: 'x\n' }, { conversationId: 'chat' });
    await remote.execute('edit_file', { file_path: 'made.txt', old_string: 'x', new_string: 'y' }, { conversationId: 'chat' });
    const writeFile = platform.fs.writeFile.bind(platform.fs);
    platform.fs.writeFile = (async (path: string, ...rest: unknown[]) => {
      if (String(path).endsWith('made.txt')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      return (writeFile as (...a: unknown[]) => Promise<void>)(path, ...rest);
    }) as typeof platform.fs.writeFile;
    const error = await remote.rewind('chat', { toTurn: 1 }).catch((reason: unknown) => reason);
    expect(isToolError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'execution_failed' });
    expect((error as Error).message).toContain('made.txt');
  });
});
