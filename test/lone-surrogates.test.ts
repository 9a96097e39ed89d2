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
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-surrogates-')));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A fresh workspace holding a.txt ("hello\n") on each platform. */
const platforms: Array<[string, () => Promise<Platform>]> = [
  ['memory', async () => createMemoryPlatform({ files: { 'a.txt': 'hello\n' } })],
  ...(['descriptors', 'paths'] as const).map((confinement): [string, () => Promise<Platform>] => [
    `node (${confinement})`,
    async () => {
      const root = await mkdtemp(join(base, `${confinement}-`));
      const platform = createNodePlatform({ root, confinement });
      await platform.fs.writeFile(`${platform.root}/a.txt`, 'hello\n');
      return platform;
    },
  ]),
];

const WRITE = 'send whole characters; nothing was written';
const COPY = 'copy whole characters from the file';
const refusal = (argument: string, next: string): string =>
  `${argument} contains half of a surrogate pair (a broken emoji or other character outside the BMP); ${next}`;

describe.each(platforms)('tools that write the model’s text, given half of a surrogate pair (%s platform)', (_label, make) => {
  it('refuse it with invalid_arguments naming the argument, and write nothing', async () => {
    const platform = await make();
    const runners = [
      new ToolRunner({ platform, tools: BuiltinTools.all() }),
      new ToolRunner({ platform, tools: toolProfiles.combine(toolProfiles.anthropic(), toolProfiles.openai()) }),
      new ToolRunner({ platform, tools: toolProfiles.gemini() }),
    ];
    const calls: Array<[number, string, Record<string, unknown>, string]> = [
      [0, 'create_file', { file_path: 's.txt', content: 'x\udc00y', overwrite: true }, refusal('content', WRITE)],
      [0, 'create_file', { file_path: 'a.txt', content: 'x\ud83d', overwrite: true }, refusal('content', WRITE)],
      [0, 'edit_file', { file_path: 'a.txt', old_string: 'hello', new_string: 'x\ud800y' }, refusal('new_string', COPY)],
      [0, 'edit_file', { file_path: 's.txt', old_string: '', new_string: '\udc00' }, refusal('new_string', COPY)],
      [1, 'str_replace_based_edit_tool', { command: 'create', path: 's.txt', file_text: 'x\udc00y' }, refusal('file_text', WRITE)],
      [1, 'str_replace_based_edit_tool', { command: 'str_replace', path: 'a.txt', old_str: 'hello', new_str: 'x\ud800' }, refusal('new_str', COPY)],
      [1, 'str_replace_based_edit_tool', { command: 'str_replace', path: 'a.txt', old_str: 'hel\udc00', new_str: 'y' }, refusal('old_str', COPY)],
      [1, 'str_replace_based_edit_tool', { command: 'insert', path: 'a.txt', insert_line: 0, insert_text: '\udc00' }, refusal('insert_text', WRITE)],
      [1, 'str_replace_based_edit_tool', { command: 'insert', path: 'a.txt', insert_line: 1, new_str: 'z\ud83d' }, refusal('new_str', WRITE)],
      [1, 'apply_patch', { input: '*** Begin Patch\n*** Add File: s.txt\n+x\udc00y\n*** End Patch' }, refusal('input', WRITE)],
      [1, 'apply_patch', { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+\ud800\n*** End Patch' }, refusal('input', WRITE)],
      [1, 'apply_patch', { operation: { type: 'create_file', path: 's.txt', diff: '+x\udc00y' } }, refusal('operation.diff', WRITE)],
      [1, 'apply_patch', { operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-hello\n+\udc00' } }, refusal('operation.diff', WRITE)],
      [2, 'write_file', { file_path: 's.txt', content: 'x\udc00y' }, refusal('content', WRITE)],
      [2, 'replace', { file_path: 'a.txt', old_string: 'hello', new_string: '\ud800' }, refusal('new_string', COPY)],
    ];
    try {
      for (const [runner, name, args, error] of calls) {
        const [result] = await (runners[runner] as ToolRunner).processToolCalls([{ name, args }]);
        expect(result, `${name} ${JSON.stringify(args)}`).toEqual({ name, error, code: 'invalid_arguments' });
      }
      expect(new TextDecoder().decode(await platform.fs.readFile(`${platform.root}/a.txt`))).toBe('hello\n');
      expect(await platform.fs.readdir(platform.root)).toEqual(['a.txt']);

      // Whole characters outside the BMP are written as they are.
      const runner = runners[0] as ToolRunner;
      expect(await runner.execute('create_file', { file_path: 's.txt', content: 'x😀y' })).toEqual({ file_path: `${platform.root}/s.txt`, bytes_written: 6, created: true });
      expect([...(await platform.fs.readFile(`${platform.root}/s.txt`))]).toEqual([0x78, 0xf0, 0x9f, 0x98, 0x80, 0x79]);
    } finally {
      await platform.dispose();
    }
  });
});
