import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner, type ToolCallResult } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { pathTooLongMessage } from '../src/fs/fs-errors.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from '../node/platform.js';

let root: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-long-path-')));
  await writeFile(join(root, 'a.txt'), 'alpha\n');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** 5,000 short components: no single name is too long, the whole path is (over 4,096 bytes). */
const DEEP = `${'a/'.repeat(5000)}x`;

const platforms: Array<[string, () => Platform]> = [
  ['memory', () => createMemoryPlatform({ files: { 'a.txt': 'alpha\n' } })],
  ['node (descriptors)', () => createNodePlatform({ root })],
  ['node (paths)', () => createNodePlatform({ root, confinement: 'paths' })],
];

describe.each(platforms)('a path longer than the filesystem allows (%s platform)', (_label, make) => {
  it('answers invalid_arguments naming the path shortened to 200 characters, for every file tool', async () => {
    const platform = make();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const calls: Array<[string, Record<string, unknown>]> = [
      ['view_file', { file_path: DEEP }],
      ['create_file', { file_path: DEEP, content: 'x' }],
      ['edit_file', { file_path: DEEP, old_string: 'a', new_string: 'b' }],
      ['list_dir', { dir_path: DEEP }],
      ['find_file', { pattern: '*', dir_path: DEEP }],
      ['grep_search', { pattern: 'x', dir_path: DEEP }],
      ['search_dir', { query: 'x', dir_path: DEEP }],
    ];
    const message = pathTooLongMessage(`${platform.root}/${DEEP}`);
    expect(message).toBe(`"${`${platform.root}/${DEEP}`.slice(0, 200)}…" (${platform.root.length + 1 + DEEP.length - 200} more characters) is longer than the filesystem allows (a name or the whole path); use shorter names`);
    // The tools measure the path before anything else and name the argument as given.
    for (const [name, args] of calls) {
      const argName = 'file_path' in args ? 'file_path' : 'dir_path';
      const [result] = await runner.processToolCalls([{ name, args }]);
      expect(result as ToolCallResult, name).toEqual({
        name,
        error: `${argName} "${DEEP.slice(0, 200)}…" (${DEEP.length - 200} more characters) is longer than the filesystem allows (a name or the whole path); use shorter names`,
        code: 'invalid_arguments',
      });
    }
    // Nothing was created, and the runner keeps working.
    expect(await runner.execute('view_file', { file_path: 'a.txt' })).toMatchObject({ content: 'alpha' });
    expect(await runner.execute('list_dir', { dir_path: '.' })).toMatchObject({ entries: expect.not.arrayContaining([expect.objectContaining({ name: 'a' })]) });
  });

  it('gives the port an error that keeps its code and its full path, with the message shortened', async () => {
    const platform = make();
    const path = `${platform.root}/${DEEP}`;
    const error = await platform.fs.readFile(path).then(
      () => undefined,
      (reason: unknown) => reason as { code: string; message: string },
    );
    expect(error).toMatchObject({ code: 'ENAMETOOLONG', message: pathTooLongMessage(path) });
  });
});
