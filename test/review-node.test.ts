import { mkdtemp, readFile, realpath, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/platform.js';
import { ToolRunner } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from '../node/platform.js';

// Review mode on a real directory: the staged view sits over node:fs, whose search tools otherwise
// read through the platform's fast search source (which cannot see staged files).

let dir: string;
let platform: Platform | undefined;

afterEach(async () => {
  await platform?.dispose();
  platform = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function onDisk(path: string): Promise<string | null> {
  return readFile(join(dir, path), 'utf8').catch(() => null);
}

async function setup(files: Record<string, string>): Promise<ToolRunner> {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'review-')));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  platform = createNodePlatform({ root: dir });
  return new ToolRunner({ platform, tools: [...BuiltinTools.all(), ...toolProfiles.anthropic().filter((tool) => tool.name === 'bash')], review: true });
}

describe('review mode on Node', () => {
  it('staged writes leave the directory untouched while the model reads and greps them; accepting hunks writes exactly their text to disk', async () => {
    const base = Array.from({ length: 12 }, (_, i) => `row ${i + 1}\n`).join('');
    const runner = await setup({ 'src/a.txt': base, 'src/b.txt': 'needle in the workspace\n' });
    await runner.execute('edit_file', { file_path: 'src/a.txt', old_string: 'row 1\n', new_string: 'row one\n' });
    await runner.execute('edit_file', { file_path: 'src/a.txt', old_string: 'row 12\n', new_string: 'row twelve\n' });
    await runner.execute('create_file', { file_path: 'src/c.txt', content: 'staged needle\n' });
    expect([await onDisk('src/a.txt'), await onDisk('src/c.txt')]).toEqual([base, null]);
    const grep = (await runner.execute('grep_search', { pattern: 'needle|row one' })) as { matches: { file_path: string; line: string }[] };
    expect(grep.matches.map((m) => [m.file_path.slice(dir.length), m.line])).toEqual([
      ['/src/a.txt', 'row one'],
      ['/src/b.txt', 'needle in the workspace'],
      ['/src/c.txt', 'staged needle'],
    ]);
    const hunks = (await runner.pendingChanges()).files.find((f) => f.path.endsWith('/a.txt'))!.hunks;
    expect(hunks.length).toBe(2);
    const result = await runner.accept('default', { hunks: [hunks[1]!.id] });
    expect(result.written).toEqual([join(dir, 'src/a.txt')]);
    expect(await onDisk('src/a.txt')).toBe(base.replace('row 12\n', 'row twelve\n'));
    await runner.reject('default', {});
    expect([await onDisk('src/a.txt'), await onDisk('src/c.txt')]).toEqual([base.replace('row 12\n', 'row twelve\n'), null]);
    expect((await runner.pendingChanges()).files).toEqual([]);
  });

  it('run_command and bash are refused in a reviewed conversation (a command would bypass the staged view)', async () => {
    const runner = await setup({ 'a.txt': 'one\n' });
    const results = await runner.processToolCalls([
      { name: 'run_command', args: { command: 'echo hi > made.txt' } },
      { name: 'bash', args: { command: 'echo hi > made.txt' } },
    ]);
    expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['unavailable', 'unavailable']);
    expect(await onDisk('made.txt')).toBeNull();
  });
});
