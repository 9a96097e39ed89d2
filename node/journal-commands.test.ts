import { mkdir, mkdtemp, readFile, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FsPromises } from '../src/core/fs-port.js';
import type { Platform, RunCommandRequest } from '../src/core/platform.js';
import { MAX_LISTED_ENTRIES } from '../src/journal/commands.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { ToolRunner, type ToolCallResult } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from './platform.js';

let base: string;
const platforms: Platform[] = [];
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-journal-commands-')));
});
afterAll(async () => {
  for (const platform of platforms) await platform.dispose();
  await rm(base, { recursive: true, force: true });
});

/** A fresh folder under the test's base and a Node platform on it. */
async function workspace(name: string): Promise<{ root: string; platform: Platform }> {
  const root = join(base, name);
  await mkdir(root);
  const platform = createNodePlatform({ root });
  platforms.push(platform);
  return { root, platform };
}

/** Writes files as someone else would (not through a tool), dated long ago: the journal knows nothing of them. */
async function seedOld(root: string, files: Record<string, string>): Promise<void> {
  const long = new Date('2001-02-03T04:05:06Z');
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(root, name), text);
    await utimes(join(root, name), long, long);
  }
}

const image = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** Runs one batch and answers its results, failing the test on a call that failed. */
async function run(runner: ToolRunner, calls: { id: string; name: string; args: unknown }[], conversationId = 'chat'): Promise<ToolCallResult[]> {
  const results = await runner.processToolCalls(calls, { conversationId });
  for (const result of results) expect(result).not.toHaveProperty('code');
  return results;
}

describe('change journal: files changed by commands (Node)', () => {
  it('a run_command that creates, edits and deletes files is journaled as exactly those file changes of that call', async () => {
    const { root, platform } = await workspace('create-edit-delete');
    await seedOld(root, { 'keep.txt': 'untouched\n', 'edit.txt': 'first\n', 'gone.txt': 'bye\n' });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await run(runner, [{ id: 'c1', name: 'run_command', args: { command: 'echo new > made.txt && echo more >> edit.txt && rm gone.txt && cat keep.txt' } }]);

    const changes = await runner.changes('chat');
    expect(changes.turns.map((turn) => [turn.turn, turn.calls.map((call) => [call.callId, call.tool])])).toEqual([[1, [['c1', 'run_command']]]]);
    const files = changes.turns[0]!.calls[0]!.files;
    expect(files.map(({ path, before, after }) => ({ path, before, after }))).toEqual([
      { path: join(root, 'edit.txt'), before: 'unknown', after: image('first\nmore\n') },
      { path: join(root, 'gone.txt'), before: 'unknown', after: 'absent' },
      { path: join(root, 'made.txt'), before: 'absent', after: image('new\n') },
    ]);
    expect(files.map((file) => file.diff.includes('(changed by a command; earlier content not kept)'))).toEqual([true, true, false]);
    expect(files[2]!.diff).toContain('+new');
  });

  it('rewind restores a file created by create_file then changed by sed -i and echo >>, and removes a file the command created', async () => {
    const { root, platform } = await workspace('known-pre-image');
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await run(runner, [{ id: 'w1', name: 'create_file', args: { file_path: 'a.txt', content: 'one\n' } }]);
    await run(runner, [{ id: 'c2', name: 'run_command', args: { command: "sed -i 's/one/two/' a.txt && echo three >> a.txt && echo fresh > new.txt" } }]);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('two\nthree\n');

    const turn2 = (await runner.changes('chat')).turns.find((turn) => turn.turn === 2)!;
    expect(turn2.calls[0]!.files.map(({ path, before, after }) => ({ path, before, after }))).toEqual([
      { path: join(root, 'a.txt'), before: image('one\n'), after: image('two\nthree\n') },
      { path: join(root, 'new.txt'), before: 'absent', after: image('fresh\n') },
    ]);
    expect(turn2.calls[0]!.files[0]!.diff).toContain('-one\n+two\n+three');

    const result = await runner.rewind('chat', { toTurn: 1 });
    expect(result).toEqual({ restored: [join(root, 'a.txt'), join(root, 'new.txt')], conflicts: [], turn: 3 });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\n');
    await expect(readFile(join(root, 'new.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('rewind restores what it can and reports a command-modified file whose earlier content was not kept in unreachable, leaving it as it is', async () => {
    const { root, platform } = await workspace('unknown-pre-image');
    await seedOld(root, { 'old.txt': 'theirs\n' });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await run(runner, [{ id: 'w1', name: 'create_file', args: { file_path: 'a.txt', content: 'one\n' } }]);
    await run(runner, [{ id: 'c2', name: 'run_command', args: { command: 'echo two >> a.txt && echo changed > old.txt && echo x > made.txt' } }]);

    const preview = await runner.rewind('chat', { toTurn: 1, dryRun: true });
    expect(preview.restored).toEqual([join(root, 'a.txt'), join(root, 'made.txt')]);
    expect(preview.unreachable?.paths).toEqual([join(root, 'old.txt')]);

    const result = await runner.rewind('chat', { toTurn: 1 });
    expect(result.restored).toEqual([join(root, 'a.txt'), join(root, 'made.txt')]);
    expect(result.conflicts).toEqual([]);
    expect(result.turn).toBe(3);
    expect(result.unreachable?.paths).toEqual([join(root, 'old.txt')]);
    expect(result.unreachable?.note).toMatch(/a command changed these files and the journal did not keep what they held before it/);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(await readFile(join(root, 'old.txt'), 'utf8')).toBe('changed\n');
    await expect(readFile(join(root, 'made.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    // Undoing the rewind works as for any other rewind.
    expect((await runner.rewind('chat', { toTurn: 2 })).restored).toEqual([join(root, 'a.txt'), join(root, 'made.txt')]);
    expect(await readFile(join(root, 'made.txt'), 'utf8')).toBe('x\n');
  });

  it("a command's after-image is its next change's pre-image: a file dated long ago by one command and appended to by the next is restored", async () => {
    const { root, platform } = await workspace('stamp-memory');
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await run(runner, [{ id: 'c1', name: 'run_command', args: { command: 'echo base > c.txt && touch -d 2001-02-03T04:05:06Z c.txt' } }]);
    await run(runner, [{ id: 'c2', name: 'run_command', args: { command: 'echo more >> c.txt' } }]);
    const turn2 = (await runner.changes('chat')).turns.find((turn) => turn.turn === 2)!;
    expect(turn2.calls[0]!.files.map(({ path, before, after }) => ({ path, before, after }))).toEqual([
      { path: join(root, 'c.txt'), before: image('base\n'), after: image('base\nmore\n') },
    ]);
    expect(await runner.rewind('chat', { toTurn: 1 })).toEqual({ restored: [join(root, 'c.txt')], conflicts: [], turn: 3 });
    expect(await readFile(join(root, 'c.txt'), 'utf8')).toBe('base\n');
  });

  it('a file modified just before a command is read before it runs: its earlier content is known though the journal never saw it, also when the command gives it back its size and time', async () => {
    const { root, platform } = await workspace('same-stamp');
    await writeFile(join(root, 'r.txt'), 'A\n');
    const later = new Date('2100-01-01T00:00:00Z');
    await utimes(join(root, 'r.txt'), later, later);
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    // Rewritten in place (same inode), same size, then dated back to the same time.
    await run(runner, [{ id: 'c1', name: 'run_command', args: { command: "printf 'B\\n' > r.txt && touch -d 2100-01-01T00:00:00Z r.txt" } }]);
    const files = (await runner.changes('chat')).turns[0]!.calls[0]!.files;
    expect(files.map(({ path, before, after }) => ({ path, before, after }))).toEqual([{ path: join(root, 'r.txt'), before: image('A\n'), after: image('B\n') }]);
    expect(await runner.rewind('chat', { toTurn: 0 })).toEqual({ restored: [join(root, 'r.txt')], conflicts: [], turn: 2 });
    expect(await readFile(join(root, 'r.txt'), 'utf8')).toBe('A\n');
  });

  it("a file another conversation's tool writes while a command runs is that call's change, not the command's", async () => {
    const { root, platform } = await workspace('concurrent-writer');
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    // The command says it started, then waits for go.txt, which the other conversation writes after b.txt.
    const command = run(runner, [{ id: 'c1', name: 'run_command', args: { command: 'echo > started.txt; while [ ! -f go.txt ]; do sleep 0.01; done; echo cmd > c.txt', timeout_ms: 60_000 } }], 'a');
    for (let i = 0; i < 6_000 && !(await stat(join(root, 'started.txt')).then(() => true, () => false)); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await run(runner, [{ id: 'w1', name: 'create_file', args: { file_path: 'b.txt', content: 'from b\n' } }], 'b');
    await run(runner, [{ id: 'w2', name: 'create_file', args: { file_path: 'go.txt', content: 'go\n' } }], 'b');
    await command;
    const paths = async (conversationId: string): Promise<string[]> =>
      (await runner.changes(conversationId)).turns.flatMap((turn) => turn.calls.flatMap((call) => call.files.map((file) => file.path)));
    expect(await paths('a')).toEqual([join(root, 'c.txt'), join(root, 'started.txt')]);
    expect(await paths('b')).toEqual([join(root, 'b.txt'), join(root, 'go.txt')]);
  });

  it('changes under .git and node_modules are not listed; a command that changes nothing records no call', async () => {
    const { root, platform } = await workspace('skipped-folders');
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await run(runner, [{ id: 'c1', name: 'run_command', args: { command: 'mkdir -p .git node_modules/pkg && echo ref > .git/HEAD && echo x > node_modules/pkg/index.js && echo y > kept.txt' } }]);
    await run(runner, [{ id: 'c2', name: 'run_command', args: { command: 'ls > /dev/null' } }]);
    const changes = await runner.changes('chat');
    expect(changes.turns.map((turn) => [turn.turn, turn.calls.flatMap((call) => call.files.map((file) => file.path))])).toEqual([[1, [join(root, 'kept.txt')]]]);
  });

  it("the Anthropic profile's bash and the OpenAI profile's shell are journaled as their own calls", async () => {
    const { root, platform } = await workspace('profiles');
    const anthropic = new ToolRunner({ platform, tools: toolProfiles.anthropic() });
    await run(anthropic, [{ id: 'b1', name: 'bash', args: { command: 'echo hi > b.txt' } }]);
    const bashFiles = (await anthropic.changes('chat')).turns[0]!.calls;
    expect(bashFiles.map((call) => [call.callId, call.tool, call.files.map(({ path, before, after }) => ({ path, before, after }))])).toEqual([
      ['b1', 'bash', [{ path: join(root, 'b.txt'), before: 'absent', after: image('hi\n') }]],
    ]);

    const openai = new ToolRunner({ platform, tools: toolProfiles.openai() });
    await run(openai, [{ id: 's1', name: 'shell', args: { commands: ['echo x > s.txt', 'echo y >> s.txt'] } }]);
    const shellCalls = (await openai.changes('chat')).turns[0]!.calls;
    // Two commands in one call: the call's first pre-image and its last post-image.
    expect(shellCalls.map((call) => [call.callId, call.tool, call.files.map(({ path, before, after }) => ({ path, before, after }))])).toEqual([
      ['s1', 'shell', [{ path: join(root, 's.txt'), before: 'absent', after: image('x\ny\n') }]],
    ]);
  });

  it('a background command is not journaled: its files are not in changes()', async () => {
    const { root, platform } = await workspace('background');
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const [started] = await run(runner, [{ id: 'c1', name: 'run_command', args: { command: 'echo bg > bg.txt', run_in_background: true } }]);
    const id = (started as unknown as { result: { background_id: string } }).result.background_id;
    // Until the command has ended (bounded: a command that never ends fails the test, as it would any host).
    let output: { running: boolean; exit_code: number | null } = { running: true, exit_code: null };
    for (let i = 0; i < 3_000 && output.running; i += 1) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      output = (await runner.execute('command_output', { background_id: id }, { conversationId: 'chat' })) as typeof output;
    }
    expect(output).toMatchObject({ running: false, exit_code: 0 });
    expect(await readFile(join(root, 'bg.txt'), 'utf8')).toBe('bg\n');
    expect((await runner.changes('chat')).turns).toEqual([]);
    // A later rewind does not know the file: it is left as it is.
    expect(await runner.rewind('chat', { toTurn: 0 })).toEqual({ restored: [], conflicts: [] });
    expect(await readFile(join(root, 'bg.txt'), 'utf8')).toBe('bg\n');
  });

  it(`a workspace of more than ${MAX_LISTED_ENTRIES} entries is not listed: the call records the root as changed by a command, and a rewind reports it unreachable`, async () => {
    const { root, platform } = await workspace('over-budget');
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    // Made by the test's own shell: the listing gives up before it reads the folder's files.
    await mkdir(join(root, 'many'));
    await run(new ToolRunner({ platform, tools: BuiltinTools.all(), journal: false }), [
      { id: 'seed', name: 'run_command', args: { command: `cd many && seq 1 ${MAX_LISTED_ENTRIES + 1} | xargs touch` } },
    ]);
    await run(runner, [{ id: 'c1', name: 'run_command', args: { command: 'echo x > small.txt' } }]);
    const files = (await runner.changes('chat')).turns[0]!.calls[0]!.files;
    expect(files.map(({ path, before, after }) => ({ path, before, after }))).toEqual([{ path: root, before: 'unknown', after: 'unknown' }]);
    expect(files[0]!.diff).toBe(`(a command ran here; the folder holds more than ${MAX_LISTED_ENTRIES} entries, so the files it changed were not listed)`);
    const result = await runner.rewind('chat', { toTurn: 0 });
    expect(result).toMatchObject({ restored: [], conflicts: [], unreachable: { paths: [root] } });
    expect(await readFile(join(root, 'small.txt'), 'utf8')).toBe('x\n');
    await rm(join(root, 'many'), { recursive: true, force: true });
  }, 60_000);
});

describe('change journal: no listing where files change only through fs', () => {
  it('a memory platform that runs commands is never listed (no readdir), and its command leaves no journal entry', async () => {
    const memory = createMemoryPlatform({ files: { 'a.txt': 'one\n' } });
    let readdirs = 0;
    const fs = new Proxy(memory.fs, {
      get(target, property) {
        if (property === 'readdir') {
          return (...args: Parameters<FsPromises['readdir']>) => {
            readdirs += 1;
            return (target.readdir as (...a: unknown[]) => Promise<unknown>)(...args);
          };
        }
        return Reflect.get(target, property, target);
      },
    });
    const commands: string[] = [];
    const platform: Platform = {
      ...memory,
      fs,
      capabilities: { ...memory.capabilities, runCommand: true },
      runCommand: async (request: RunCommandRequest) => {
        commands.push(request.command);
        await memory.fs.writeFile(`${memory.root}/a.txt`, 'two\n');
        return { stdout: '', stderr: '', exit_code: 0, signal: null, timed_out: false, truncated: false };
      },
    };
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await run(runner, [{ id: 'c1', name: 'run_command', args: { command: 'change a.txt' } }]);
    expect(commands).toEqual(['change a.txt']);
    expect(readdirs).toBe(0);
    expect((await runner.changes('chat')).turns).toEqual([]);
  });
});
