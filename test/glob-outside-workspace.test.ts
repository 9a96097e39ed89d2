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
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-glob-out-')));
  root = join(base, 'ws');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src', 'passwd'), 'root:x:0:0\n');
  // Outside the workspace, where `../**/passwd` would lead.
  await writeFile(join(base, 'passwd'), 'root:x:0:0\n');
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function one(runner: ToolRunner, name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
  const [result] = await runner.processToolCalls([{ name, args }]);
  return result as ToolCallResult;
}

function outside(argName: string, pattern: string, rootPath: string): { name?: string; error: string; code: string } {
  return {
    error:
      `${argName} "${pattern}" points outside the workspace (${rootPath}); give a glob relative to the searched directory ` +
      `(such as *.ts or src/**/*.ts) or an absolute one under ${rootPath}`,
    code: 'outside_workspace',
  };
}

const platforms: Array<[string, () => Platform]> = [
  ['memory', () => createMemoryPlatform({ files: { 'src/passwd': 'root:x:0:0\n' } })],
  ['node', () => createNodePlatform({ root })],
];

describe.each(platforms)('glob arguments that climb out of the workspace (%s platform)', (_label, make) => {
  it('find_file answers outside_workspace for a ../ pattern above the root, as for a dir_path outside', async () => {
    const platform = make();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    for (const pattern of ['../../**/passwd', '../**/passwd', '../**']) {
      expect(await one(runner, 'find_file', { pattern }), pattern).toEqual({ name: 'find_file', ...outside('pattern', pattern, platform.root) });
    }
    // From a subdirectory, a ../ that stays inside the workspace is still taken.
    expect(await one(runner, 'find_file', { pattern: '../**/passwd', dir_path: 'src' })).toEqual({
      name: 'find_file',
      result: { files: [`${platform.root}/src/passwd`], total: 1, truncated: false },
    });
    // An absolute `/**` pattern still means every matching file of the workspace.
    expect(await one(runner, 'find_file', { pattern: '/**/passwd' })).toEqual({
      name: 'find_file',
      result: { files: [`${platform.root}/src/passwd`], total: 1, truncated: false },
    });
  });

  it('grep_search include and exclude and search_dir include answer outside_workspace the same way', async () => {
    const platform = make();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    expect(await one(runner, 'grep_search', { pattern: 'root', include: '../../**/passwd' })).toEqual({
      name: 'grep_search',
      ...outside('include', '../../**/passwd', platform.root),
    });
    expect(await one(runner, 'grep_search', { pattern: 'root', exclude: '../**/passwd' })).toEqual({
      name: 'grep_search',
      ...outside('exclude', '../**/passwd', platform.root),
    });
    expect(await one(runner, 'search_dir', { query: 'root', include: '../../**/passwd' })).toEqual({
      name: 'search_dir',
      ...outside('include', '../../**/passwd', platform.root),
    });
  });
});
