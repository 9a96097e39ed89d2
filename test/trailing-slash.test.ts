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
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-slash-')));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A fresh workspace holding a.txt ("hi\n") and d/b.txt ("hi there\n") on each platform. */
const platforms: Array<[string, () => Promise<Platform>]> = [
  ['memory', async () => createMemoryPlatform({ files: { 'a.txt': 'hi\n', 'd/b.txt': 'hi there\n' } })],
  ...(['descriptors', 'paths'] as const).map((confinement): [string, () => Promise<Platform>] => [
    `node (${confinement})`,
    async () => {
      const root = await mkdtemp(join(base, `${confinement}-`));
      const platform = createNodePlatform({ root, confinement });
      await platform.fs.writeFile(`${platform.root}/a.txt`, 'hi\n');
      await platform.fs.mkdir(`${platform.root}/d`);
      await platform.fs.writeFile(`${platform.root}/d/b.txt`, 'hi there\n');
      return platform;
    },
  ]),
];

describe.each(platforms)('a path ending in "/" that names a file (%s platform)', (_label, make) => {
  it('is refused by the read tools as create_file refuses it: invalid_arguments saying the path ends with "/"', async () => {
    const platform = await make();
    const runners = [
      new ToolRunner({ platform, tools: BuiltinTools.all() }),
      new ToolRunner({ platform, tools: toolProfiles.anthropic() }),
      new ToolRunner({ platform, tools: toolProfiles.gemini() }),
    ];
    const calls: Array<[number, string, Record<string, unknown>, string]> = [
      [0, 'create_file', { file_path: 'a.txt/', content: 'x' }, 'file_path "a.txt/" ends with "/"; give a file name, e.g. a.txt/index.ts'],
      [0, 'view_file', { file_path: 'a.txt/' }, 'file_path "a.txt/" ends with "/"; give a file name, e.g. a.txt'],
      [0, 'view_file', { file_path: `${platform.root}/a.txt//` }, `file_path "${platform.root}/a.txt//" ends with "/"; give a file name, e.g. ${platform.root}/a.txt`],
      [0, 'view_file', { file_path: 'd/b.txt/', start_line: 1 }, 'file_path "d/b.txt/" ends with "/"; give a file name, e.g. d/b.txt'],
      [0, 'grep_search', { pattern: 'hi', dir_path: 'a.txt/' }, 'dir_path "a.txt/" ends with "/"; give a directory, or a.txt to search that one file'],
      [0, 'search_dir', { query: 'hi', dir_path: 'a.txt/' }, 'dir_path "a.txt/" ends with "/"; give a directory, or a.txt to search that one file'],
      [1, 'str_replace_based_edit_tool', { command: 'view', path: 'a.txt/' }, 'path "a.txt/" ends with "/"; give a file name, e.g. a.txt'],
      [2, 'read_file', { file_path: 'a.txt/' }, 'file_path "a.txt/" ends with "/"; give a file name, e.g. a.txt'],
      [2, 'grep_search', { pattern: 'hi', dir_path: 'a.txt/' }, 'dir_path "a.txt/" ends with "/"; give a directory, or a.txt to search that one file'],
    ];
    try {
      for (const [runner, name, args, error] of calls) {
        const [result] = await (runners[runner] as ToolRunner).processToolCalls([{ name, args }]);
        expect(result, `${name} ${JSON.stringify(args)}`).toEqual({ name, error, code: 'invalid_arguments' });
      }

      // A directory keeps its "/", a file without one is read, a missing path is not_found.
      const runner = runners[0] as ToolRunner;
      const root = platform.root;
      const results = await runner.processToolCalls([
        { name: 'view_file', args: { file_path: 'd/' } },
        { name: 'view_file', args: { file_path: 'a.txt' } },
        { name: 'view_file', args: { file_path: 'nope/' } },
        { name: 'grep_search', args: { pattern: 'hi', dir_path: 'd/' } },
        { name: 'grep_search', args: { pattern: 'hi', dir_path: 'a.txt' } },
        { name: 'list_dir', args: { dir_path: 'd/' } },
      ]);
      expect(results).toEqual([
        { name: 'view_file', error: `${root}/d is a directory, not a file; use list_dir to see what it holds`, code: 'is_a_directory' },
        { name: 'view_file', result: { file_path: `${root}/a.txt`, content: 'hi', start_line: 1, end_line: 1, total_lines: 1, truncated: false, line_ending: 'lf' } },
        { name: 'view_file', error: `file_path "nope/" does not exist (${root}/nope); check the name with list_dir or find_file`, code: 'not_found' },
        {
          name: 'grep_search',
          result: { matches: [{ file_path: `${root}/d/b.txt`, line_number: 1, column: 1, line: 'hi there' }], total_matches: 1, truncated: false, files_searched: 1, binary_files_skipped: 0 },
        },
        {
          name: 'grep_search',
          result: { matches: [{ file_path: `${root}/a.txt`, line_number: 1, column: 1, line: 'hi' }], total_matches: 1, truncated: false, files_searched: 1, binary_files_skipped: 0 },
        },
        { name: 'list_dir', result: { dir_path: `${root}/d`, entries: [{ name: 'b.txt', type: 'file', size: 9 }], truncated: false } },
      ]);
    } finally {
      await platform.dispose();
    }
  });
});
