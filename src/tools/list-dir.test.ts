import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner, type ToolCallFailure, type ToolCallResult } from '../runner.js';
import type { Platform } from '../core/types.js';
import { LIST_DIR_MAX_ENTRIES, listDirTool, type ListDirResult } from './list-dir.js';
import { writeOutside } from '../../test/support/outside.js';

function setup(files: Record<string, string | Uint8Array> = {}): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: [listDirTool] }) };
}

async function list(runner: ToolRunner, dir_path: string): Promise<ListDirResult> {
  return (await runner.execute('list_dir', { dir_path })) as ListDirResult;
}

async function failure(runner: ToolRunner, args: Record<string, unknown>): Promise<ToolCallFailure> {
  const [result] = (await runner.processToolCalls([{ name: 'list_dir', args }])) as [ToolCallResult];
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

describe('list_dir', () => {
  it('pins its model-facing schema', () => {
    expect(listDirTool.name).toBe('list_dir');
    expect(listDirTool.annotations?.readOnlyHint).toBe(true);
    expect(listDirTool.inputSchema).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "dir_path": {
            "description": "The directory to list: an absolute workspace path (e.g. /workspace/src) or a path relative to the working directory ("." for the working directory itself).",
            "type": "string",
          },
        },
        "required": [
          "dir_path",
        ],
        "type": "object",
      }
    `);
  });

  it('lists immediate children with types and byte sizes, sorted by UTF-16 code units, dot-files included', async () => {
    const { runner, platform } = setup({
      'b.txt': 'bb',
      'B.txt': 'B',
      'a.txt': 'héllo', // 6 bytes
      '.env': 'X=1',
      'src/deep/inner.ts': 'not listed',
      'Zeta/x': '',
      'émoji 🚀.md': '',
      '_under': '1234',
    });
    await platform.fs.symlink('a.txt', '/workspace/link');
    const result = await list(runner, '.');
    expect(result.dir_path).toBe('/workspace');
    expect(result.truncated).toBe(false);
    expect(result.entries.map((e) => e.name)).toEqual(['.env', 'B.txt', 'Zeta', '_under', 'a.txt', 'b.txt', 'link', 'src', 'émoji 🚀.md']);
    const byName = Object.fromEntries(result.entries.map((e) => [e.name, e]));
    expect(byName['a.txt']).toEqual({ name: 'a.txt', type: 'file', size: 6 });
    expect(byName['.env']).toEqual({ name: '.env', type: 'file', size: 3 });
    expect(byName['_under']).toEqual({ name: '_under', type: 'file', size: 4 });
    expect(byName['émoji 🚀.md']).toEqual({ name: 'émoji 🚀.md', type: 'file', size: 0 });
    expect(byName['src']).toMatchObject({ name: 'src', type: 'directory' });
    expect(byName['link']).toEqual({ name: 'link', type: 'symlink', size: (await platform.fs.lstat('/workspace/link')).size });
    expect(byName['link']?.size).toBe('a.txt'.length);
  });

  it('sorts by code units, not locale: uppercase before lowercase, astral characters by surrogates', async () => {
    const { runner } = setup({ 'a': '', 'B': '', '\uFF21': '', '😀': '', 'é': '' });
    const names = (await list(runner, '/workspace')).entries.map((e) => e.name);
    // U+1F600 is \uD83D\uDE00 in UTF-16, which sorts before U+FF21 (code point order would put it after).
    expect(names).toEqual(['B', 'a', 'é', '😀', '\uFF21']);
  });

  it('lists an empty directory', async () => {
    const { runner, platform } = setup();
    await platform.fs.mkdir('/workspace/empty');
    expect(await list(runner, 'empty')).toEqual({ dir_path: '/workspace/empty', entries: [], truncated: false });
  });

  it('gives the same result for relative and absolute paths', async () => {
    const { runner } = setup({ 'src/a.ts': 'x', 'src/b/c.ts': 'y' });
    const relative = await list(runner, 'src');
    expect(await list(runner, '/workspace/src')).toEqual(relative);
    expect(await list(runner, './src/b/..')).toEqual(relative);
    expect(relative).toEqual({
      dir_path: '/workspace/src',
      entries: [
        { name: 'a.ts', type: 'file', size: 1 },
        { name: 'b', type: 'directory', size: expect.any(Number) },
      ],
      truncated: false,
    });
  });

  it('lists names with spaces, unicode and parentheses', async () => {
    const { runner } = setup({ 'my dir (2)/ünï cödé.txt': 'ok' });
    expect(await list(runner, 'my dir (2)')).toEqual({
      dir_path: '/workspace/my dir (2)',
      entries: [{ name: 'ünï cödé.txt', type: 'file', size: 2 }],
      truncated: false,
    });
  });

  it('returns not_a_directory for a file and not_found for a missing path', async () => {
    const { runner } = setup({ 'a.txt': 'a' });
    const file = await failure(runner, { dir_path: 'a.txt' });
    expect(file.code).toBe('not_a_directory');
    expect(file.error).toContain('view_file');
    const missing = await failure(runner, { dir_path: 'nope' });
    expect(missing.code).toBe('not_found');
    expect(missing.error).toContain('/workspace/nope');
    expect((await failure(runner, {})).code).toBe('invalid_arguments');
  });

  it('cuts a long dir_path to 200 characters in its messages', async () => {
    const { runner } = setup();
    const deep = Array.from({ length: 5 }, (_, i) => String(i).repeat(99)).join('/');
    expect(await failure(runner, { dir_path: deep })).toMatchObject({
      code: 'not_found',
      error:
        `dir_path "${deep.slice(0, 200)}…" (299 more characters) does not exist ` +
        `(/workspace/${deep.slice(0, 189)}… (310 more characters)); list its parent directory to check the name`,
    });
  });

  it('caps the entries and reports truncated', async () => {
    const files: Record<string, string> = {};
    const count = LIST_DIR_MAX_ENTRIES + 5;
    for (let i = 0; i < count; i += 1) files[`many/f${String(i).padStart(4, '0')}`] = '';
    const { runner } = setup(files);
    const result = await list(runner, 'many');
    expect(result.entries).toHaveLength(LIST_DIR_MAX_ENTRIES);
    expect(result.entries[0]?.name).toBe('f0000');
    expect(result.entries.at(-1)?.name).toBe(`f${String(LIST_DIR_MAX_ENTRIES - 1).padStart(4, '0')}`);
    expect(result.truncated).toBe(true);
    expect(result.total_entries).toBe(count);
    expect(result.note).toContain(`first ${LIST_DIR_MAX_ENTRIES} of ${count}`);
  }, 60_000);

  describe('paths', () => {
    it('returns outside_workspace for .. and for symlinks out of the workspace', async () => {
      const { runner, platform } = setup();
      await writeOutside(platform.fs, { '/outside/secret.txt': 's' });
      await platform.fs.symlink('/outside', '/workspace/out');
      await platform.fs.symlink('/etc', '/workspace/etc');
      for (const dir_path of ['..', '../outside', '/outside', '/', 'out', 'etc']) {
        const error = await failure(runner, { dir_path });
        expect(error.code).toBe('outside_workspace');
        expect(error.error).toContain('dir_path');
      }
    });

    it('lists a symlink that leads out as a symlink without following it', async () => {
      const { runner, platform } = setup();
      await writeOutside(platform.fs, { '/outside/secret.txt': 's' });
      await platform.fs.symlink('/outside', '/workspace/out');
      expect((await list(runner, '.')).entries).toEqual([{ name: 'out', type: 'symlink', size: '/outside'.length }]);
    });

    it('fails fast on a symlink loop', async () => {
      const { runner, platform } = setup();
      await platform.fs.symlink('/workspace/b', '/workspace/a');
      await platform.fs.symlink('/workspace/a', '/workspace/b');
      expect((await failure(runner, { dir_path: 'a' })).code).toBe('execution_failed');
      // The loop itself lists fine from its parent.
      expect((await list(runner, '.')).entries.map((e) => e.type)).toEqual(['symlink', 'symlink']);
    });

    it('follows a symlinked directory inside the workspace and reports the real path', async () => {
      const { runner, platform } = setup({ 'real/x.txt': 'x' });
      await platform.fs.symlink('real', '/workspace/alias');
      expect(await list(runner, 'alias')).toEqual({
        dir_path: '/workspace/real',
        entries: [{ name: 'x.txt', type: 'file', size: 1 }],
        truncated: false,
      });
    });
  });
});
