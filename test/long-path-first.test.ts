import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner, type ToolCallResult } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { isPathTooLong } from '../src/fs/paths.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { BuiltinTools } from '../src/tools/index.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from '../node/platform.js';

let root: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-long-first-')));
  await writeFile(join(root, 'a.txt'), 'alpha\n');
  // A folder `a`, so that every `a` of a/../ is there to look up.
  await mkdir(join(root, 'a'));
  await writeFile(join(root, 'a', 'keep.txt'), '');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** 100 KB that normalises to `a.txt`: 20,000 `a/../` steps, each a lookup when walked. */
const CLIMBING = `${'a/../'.repeat(20_000)}a.txt`;

const platforms: Array<[string, () => Platform]> = [
  ['memory', () => createMemoryPlatform({ files: { 'a.txt': 'alpha\n', 'a/keep.txt': '' } })],
  ['node (descriptors)', () => createNodePlatform({ root })],
  ['node (paths)', () => createNodePlatform({ root, confinement: 'paths' })],
];

function tooLong(name: string, argName: string, given: string): ToolCallResult {
  return { name, error: `${argName} "${given.slice(0, 200)}…" (${given.length - 200} more characters) is longer than the filesystem allows (a name or the whole path); use shorter names`, code: 'invalid_arguments' };
}

describe.each(platforms)('a path argument of 4,096 bytes or more (%s platform)', (_label, make) => {
  it('answers invalid_arguments for a 100 KB a/../ path that normalises to a short one, from every tool, before walking it', async () => {
    const platform = make();
    const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), ...toolProfiles.anthropic(), ...toolProfiles.openai()] });
    const calls: Array<[string, string, Record<string, unknown>]> = [
      ['view_file', 'file_path', { file_path: CLIMBING }],
      ['create_file', 'file_path', { file_path: CLIMBING, content: 'x' }],
      ['edit_file', 'file_path', { file_path: CLIMBING, old_string: 'alpha', new_string: 'beta' }],
      ['list_dir', 'dir_path', { dir_path: CLIMBING }],
      ['find_file', 'dir_path', { pattern: '*', dir_path: CLIMBING }],
      ['grep_search', 'dir_path', { pattern: 'alpha', dir_path: CLIMBING }],
      ['grep_search', 'dir_path', { pattern: 'alpha', dir_path: `${CLIMBING}/` }],
      ['search_dir', 'dir_path', { query: 'alpha', dir_path: CLIMBING }],
      ['str_replace_based_edit_tool', 'path', { command: 'view', path: CLIMBING }],
    ];
    for (const [name, argName, args] of calls) {
      const [result] = await runner.processToolCalls([{ name, args }]);
      expect(result as ToolCallResult, name).toEqual(tooLong(name, argName, (args.file_path ?? args.dir_path ?? args.path) as string));
    }
    // Absolute, and with the root in front: the same.
    const absolute = `${platform.root}/${CLIMBING}`;
    expect((await runner.processToolCalls([{ name: 'view_file', args: { file_path: absolute } }]))[0]).toEqual(tooLong('view_file', 'file_path', absolute));
    // Nothing changed, and a path under the limit that climbs the same way still works.
    const short = `${'a/../'.repeat(700)}a.txt`;
    expect(await runner.execute('view_file', { file_path: short })).toMatchObject({ content: 'alpha' });
    await platform.dispose?.();
  });

  it('answers invalid_arguments for one name over 255 bytes, however short the path', async () => {
    const platform = make();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const name = `${'é'.repeat(128)}.txt`;
    const [result] = await runner.processToolCalls([{ name: 'create_file', args: { file_path: name, content: 'x' } }]);
    expect(result).toEqual({ name: 'create_file', error: `file_path "${name}" is longer than the filesystem allows (a name or the whole path); use shorter names`, code: 'invalid_arguments' });
    await platform.dispose?.();
  });
});

describe('isPathTooLong', () => {
  it('counts UTF-8 bytes from 4,096 for the whole path and over 255 for a name, an escape as its one byte where names are bytes', () => {
    expect(isPathTooLong(`/${'a'.repeat(4094)}`.replace(/a{200}/g, (run) => `${run}/`).slice(0, 4095), false)).toBe(false);
    expect(isPathTooLong('/a'.repeat(2047) + '/', false)).toBe(false);
    expect(isPathTooLong('/a'.repeat(2048), false)).toBe(true);
    expect(isPathTooLong(`/${'a'.repeat(255)}`, false)).toBe(false);
    expect(isPathTooLong(`/${'a'.repeat(256)}`, false)).toBe(true);
    expect(isPathTooLong(`/${'é'.repeat(127)}a`, false)).toBe(false);
    expect(isPathTooLong(`/${'é'.repeat(128)}`, false)).toBe(true);
    expect(isPathTooLong(`/${'\u{1F600}'.repeat(63)}`, false)).toBe(false);
    expect(isPathTooLong(`/${'\u{1F600}'.repeat(64)}`, false)).toBe(true);
    // 255 escaped bytes are a name of 255 bytes on Node, of 1,020 characters where a backslash is a character.
    expect(isPathTooLong(`/${'\\xff'.repeat(255)}`, true)).toBe(false);
    expect(isPathTooLong(`/${'\\xff'.repeat(255)}`, false)).toBe(true);
  });
});
