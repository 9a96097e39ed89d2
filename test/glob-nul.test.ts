import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { BuiltinTools } from '../src/tools/index.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from '../node/platform.js';

let base: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-glob-nul-')));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const platforms: Array<[string, () => Promise<Platform>]> = [
  ['memory', async () => createMemoryPlatform({ files: { 'a.txt': 'hi\n' } })],
  [
    'node',
    async () => {
      const platform = createNodePlatform({ root: await mkdtemp(join(base, 'ws-')) });
      await platform.fs.writeFile(`${platform.root}/a.txt`, 'hi\n');
      return platform;
    },
  ],
];

const nul = (argName: string, pattern: string): string => `${argName} ${JSON.stringify(pattern)} contains a NUL byte, which no file name holds; remove it`;

describe.each(platforms)('a glob holding a NUL byte (%s platform)', (_label, make) => {
  it('is invalid_pattern naming the argument, for every glob argument, instead of an empty success', async () => {
    const platform = await make();
    const builtins = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const gemini = new ToolRunner({ platform, tools: toolProfiles.gemini() });
    const calls: Array<[ToolRunner, string, Record<string, unknown>, string]> = [
      [builtins, 'find_file', { pattern: '\0' }, nul('pattern', '\0')],
      [builtins, 'find_file', { pattern: '*.txt\0' }, nul('pattern', '*.txt\0')],
      [builtins, 'grep_search', { pattern: 'hi', include: 'a\0.txt' }, nul('include', 'a\0.txt')],
      [builtins, 'grep_search', { pattern: 'hi', exclude: '\0' }, nul('exclude', '\0')],
      [builtins, 'grep_search', { pattern: 'hi', exclude: '\0/' }, nul('exclude', '\0')],
      [builtins, 'search_dir', { query: 'hi', include: '**/\0' }, nul('include', '**/\0')],
      [gemini, 'glob', { pattern: '\0' }, nul('pattern', '\0')],
      [gemini, 'list_directory', { dir_path: '.', ignore: ['\0'] }, nul('ignore', '\0')],
    ];
    try {
      for (const [runner, name, args, error] of calls) {
        const [result] = await runner.processToolCalls([{ name, args }]);
        expect(result, `${name} ${JSON.stringify(args)}`).toEqual({ name, error, code: 'invalid_pattern' });
      }
      expect(await builtins.execute('find_file', { pattern: '*.txt' })).toEqual({ files: [`${platform.root}/a.txt`], total: 1, truncated: false });
    } finally {
      await platform.dispose();
    }
  });
});
