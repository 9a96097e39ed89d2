import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner, type ToolCallResult } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from '../node/platform.js';

let base: string;
let root: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-glob-climb-')));
  root = join(base, 'ws');
  await mkdir(join(root, 'src', 'lib'), { recursive: true });
  await writeFile(join(root, 'src', 'lib', 'passwd'), 'root:x:0:0\n');
  await writeFile(join(root, 'x.txt'), 'root here\n');
  // Outside the workspace, where `**/../passwd` would lead from the root.
  await writeFile(join(base, 'passwd'), 'root:x:0:0\n');
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function one(runner: ToolRunner, name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
  const [result] = await runner.processToolCalls([{ name, args }]);
  return result as ToolCallResult;
}

function climbsOut(name: string, argName: string, pattern: string, rootPath: string): ToolCallResult {
  return {
    name,
    error:
      `${argName} "${pattern}" points outside the workspace (${rootPath}): a ".." after a wildcard climbs back out of the folders ` +
      `the wildcard matched, up to above the root, and only files in the workspace are searched; give a glob relative to ` +
      `the searched directory with no ".." after a wildcard (such as *.ts or src/**/*.ts), or an absolute one under ${rootPath}`,
    code: 'outside_workspace',
  };
}

const platforms: Array<[string, () => Platform]> = [
  ['memory', () => createMemoryPlatform({ files: { 'src/lib/passwd': 'root:x:0:0\n', 'x.txt': 'root here\n' } })],
  ['node', () => createNodePlatform({ root })],
];

describe.each(platforms)('globs whose ".." after a wildcard climbs (%s platform)', (_label, make) => {
  it('find_file answers outside_workspace for a ".." after a wildcard that can climb above the root', async () => {
    const platform = make();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    for (const pattern of ['**/../../etc/passwd', '**/../passwd', '*/../../passwd', 'src/*/../../../passwd', '{..,src}/**/passwd', '!**/../../etc/passwd']) {
      expect(await one(runner, 'find_file', { pattern }), pattern).toEqual(climbsOut('find_file', 'pattern', pattern, platform.root));
    }
    // From src, one ".." after "**" could still climb out of the workspace through two more.
    expect(await one(runner, 'find_file', { pattern: '**/../../../passwd', dir_path: 'src' })).toEqual(climbsOut('find_file', 'pattern', '**/../../../passwd', platform.root));
    await platform.dispose?.();
  });

  it('find_file answers invalid_pattern for a ".." after a wildcard that stays inside (no path holds one), saying how to write it', async () => {
    const platform = make();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    expect(await one(runner, 'find_file', { pattern: 'src/*/../x.txt' })).toEqual({
      name: 'find_file',
      error:
        `pattern "src/*/../x.txt" has ".." after a wildcard, which no path matches (the search matches paths relative to ${platform.root}, ` +
        'which hold no ".."); write the glob without it, with any ".." at its start (../lib/**/*.ts), or set dir_path to the folder to search',
      code: 'invalid_pattern',
    });
    // A ".." at the start (or in the literal part) still works as before.
    expect(await one(runner, 'find_file', { pattern: '../**/passwd', dir_path: 'src/lib' })).toEqual({
      name: 'find_file',
      result: { files: [`${platform.root}/src/lib/passwd`], total: 1, truncated: false },
    });
    expect(await one(runner, 'find_file', { pattern: 'src/../**/passwd' })).toEqual({
      name: 'find_file',
      result: { files: [`${platform.root}/src/lib/passwd`], total: 1, truncated: false },
    });
    await platform.dispose?.();
  });

  it('grep_search include and exclude and search_dir include answer outside_workspace the same way', async () => {
    const platform = make();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    expect(await one(runner, 'grep_search', { pattern: 'root', include: '**/../../etc/passwd' })).toEqual(climbsOut('grep_search', 'include', '**/../../etc/passwd', platform.root));
    expect(await one(runner, 'grep_search', { pattern: 'root', exclude: '**/../passwd' })).toEqual(climbsOut('grep_search', 'exclude', '**/../passwd', platform.root));
    expect(await one(runner, 'search_dir', { query: 'root', include: '*/../../passwd' })).toEqual(climbsOut('search_dir', 'include', '*/../../passwd', platform.root));
    await platform.dispose?.();
  });
});
