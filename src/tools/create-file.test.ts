import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner, type ToolCallFailure, type ToolCallResult } from '../runner.js';
import type { Platform } from '../core/types.js';
import { createFileTool } from './create-file.js';
import { viewFileTool } from './view-file.js';
import { writeOutside } from '../../test/support/outside.js';

const decode = (bytes: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

function setup(files: Record<string, string | Uint8Array> = {}, platform?: Platform): { platform: Platform; runner: ToolRunner } {
  const p = platform ?? createMemoryPlatform({ files });
  return { platform: p, runner: new ToolRunner({ platform: p, tools: [createFileTool, viewFileTool] }) };
}

async function call(runner: ToolRunner, name: string, args: Record<string, unknown>, conversationId?: string): Promise<ToolCallResult> {
  const [result] = await runner.processToolCalls([{ name, args }], conversationId === undefined ? {} : { conversationId });
  return result as ToolCallResult;
}

async function failure(runner: ToolRunner, name: string, args: Record<string, unknown>, conversationId?: string): Promise<ToolCallFailure> {
  const result = await call(runner, name, args, conversationId);
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

async function read(platform: Platform, path: string): Promise<string> {
  return decode(await platform.fs.readFile(path));
}

async function exists(platform: Platform, path: string): Promise<boolean> {
  return platform.fs.lstat(path).then(
    () => true,
    () => false,
  );
}

describe('create_file', () => {
  it('pins its model-facing schema', () => {
    expect(createFileTool.name).toBe('create_file');
    expect(createFileTool.annotations?.readOnlyHint).toBe(false);
    expect(typeof createFileTool.execute).toBe('function');
    expect(createFileTool.inputSchema).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "content": {
            "description": "The complete text of the file, written as UTF-8.",
            "type": "string",
          },
          "file_path": {
            "description": "The file to create: an absolute workspace path (e.g. /workspace/src/new.ts) or a path relative to the working directory. Missing parent directories are created.",
            "type": "string",
          },
          "overwrite": {
            "description": "Replace the file if it already exists (default false). To change part of an existing file, use edit_file instead.",
            "type": "boolean",
          },
        },
        "required": [
          "file_path",
          "content",
        ],
        "type": "object",
      }
    `);
  });

  it('creates a file and its parent directories', async () => {
    const { runner, platform } = setup();
    const result = await runner.execute('create_file', { file_path: 'a/b/c/new.txt', content: 'héllo\n' });
    expect(result).toEqual({ file_path: '/workspace/a/b/c/new.txt', bytes_written: 7, created: true });
    expect(await read(platform, '/workspace/a/b/c/new.txt')).toBe('héllo\n');
    expect((await platform.fs.stat('/workspace/a/b')).isDirectory()).toBe(true);
  });

  it('creates an empty file', async () => {
    const { runner, platform } = setup();
    expect(await runner.execute('create_file', { file_path: 'empty', content: '' })).toEqual({
      file_path: '/workspace/empty',
      bytes_written: 0,
      created: true,
    });
    expect((await platform.fs.stat('/workspace/empty')).size).toBe(0);
  });

  it('returns already_exists for an existing file without overwrite, and leaves it alone', async () => {
    const { runner, platform } = setup({ 'a.txt': 'old' });
    const error = await failure(runner, 'create_file', { file_path: 'a.txt', content: 'new' });
    expect(error.code).toBe('already_exists');
    expect(error.error).toContain('overwrite');
    expect(error.error).toContain('edit_file');
    expect(await read(platform, '/workspace/a.txt')).toBe('old');
    expect((await failure(runner, 'create_file', { file_path: 'a.txt', content: 'new', overwrite: false })).code).toBe('already_exists');
  });

  it('overwrites a file never viewed when overwrite is true', async () => {
    const { runner, platform } = setup({ 'a.txt': 'old' });
    expect(await runner.execute('create_file', { file_path: 'a.txt', content: 'new!', overwrite: true })).toEqual({
      file_path: '/workspace/a.txt',
      bytes_written: 4,
      created: false,
    });
    expect(await read(platform, '/workspace/a.txt')).toBe('new!');
  });

  it('accepts overwrite sent as the string "true"', async () => {
    const { runner, platform } = setup({ 'a.txt': 'old' });
    await runner.execute('create_file', { file_path: 'a.txt', content: 'new', overwrite: 'true' });
    expect(await read(platform, '/workspace/a.txt')).toBe('new');
  });

  it('returns is_a_directory for a directory, with or without overwrite', async () => {
    const { runner } = setup({ 'dir/x.txt': 'x' });
    expect((await failure(runner, 'create_file', { file_path: 'dir', content: 'x' })).code).toBe('is_a_directory');
    expect((await failure(runner, 'create_file', { file_path: 'dir', content: 'x', overwrite: true })).code).toBe('is_a_directory');
    expect((await failure(runner, 'create_file', { file_path: '/workspace', content: 'x', overwrite: true })).code).toBe('is_a_directory');
  });

  it('returns invalid_arguments for a path ending in / and for missing content', async () => {
    const { runner } = setup();
    expect((await failure(runner, 'create_file', { file_path: 'newdir/', content: 'x' })).code).toBe('invalid_arguments');
    const missing = await failure(runner, 'create_file', { file_path: 'a.txt' });
    expect(missing.code).toBe('invalid_arguments');
    expect(missing.error).toContain('content');
  });

  it('returns invalid_arguments for a path whose last component is . or .., creating nothing', async () => {
    const { runner, platform } = setup({ 'a/b/keep.txt': 'k' });
    const dot = await failure(runner, 'create_file', { file_path: 'new/.', content: 'z' });
    expect(dot).toMatchObject({ code: 'invalid_arguments', error: 'file_path "new/." ends with ".", which names a directory; give a file name, e.g. new/./index.ts' });
    const dotdot = await failure(runner, 'create_file', { file_path: 'a/b/..', content: 'z', overwrite: true });
    expect(dotdot.code).toBe('invalid_arguments');
    expect((await failure(runner, 'create_file', { file_path: '.', content: 'z' })).code).toBe('invalid_arguments');
    expect(await platform.fs.readdir('/workspace')).toEqual(['a']);
    expect((await platform.fs.stat('/workspace/a')).isDirectory()).toBe(true);
  });

  it('returns not_a_directory when a parent is a file', async () => {
    const { runner } = setup({ 'file.txt': 'x' });
    expect((await failure(runner, 'create_file', { file_path: 'file.txt/child.txt', content: 'x' })).code).toBe('not_a_directory');
  });

  describe('stale_file', () => {
    it('refuses to overwrite a file whose content changed since this conversation viewed it', async () => {
      const { runner, platform } = setup({ 'a.txt': 'v1\n' });
      await runner.execute('view_file', { file_path: 'a.txt' });
      await platform.fs.writeFile('/workspace/a.txt', 'v2 by someone else\n');
      const error = await failure(runner, 'create_file', { file_path: 'a.txt', content: 'mine\n', overwrite: true });
      expect(error.code).toBe('stale_file');
      expect(error.error).toContain('view_file');
      expect(await read(platform, '/workspace/a.txt')).toBe('v2 by someone else\n');
      // Viewing it again makes the overwrite allowed.
      await runner.execute('view_file', { file_path: 'a.txt' });
      await runner.execute('create_file', { file_path: 'a.txt', content: 'mine\n', overwrite: true });
      expect(await read(platform, '/workspace/a.txt')).toBe('mine\n');
    });

    it('compares content hashes, not times: a rewrite with the same bytes is not stale', async () => {
      const { runner, platform } = setup({ 'a.txt': 'same\n' });
      await runner.execute('view_file', { file_path: 'a.txt' });
      const before = (await platform.fs.stat('/workspace/a.txt')).mtimeMs;
      await new Promise((resolve) => setTimeout(resolve, 15));
      await platform.fs.writeFile('/workspace/a.txt', 'same\n');
      expect((await platform.fs.stat('/workspace/a.txt')).mtimeMs).toBeGreaterThan(before);
      await runner.execute('create_file', { file_path: 'a.txt', content: 'new\n', overwrite: true });
      expect(await read(platform, '/workspace/a.txt')).toBe('new\n');
    });

    it('tracks what it wrote itself, so a second overwrite is not stale', async () => {
      const { runner, platform } = setup({ 'a.txt': 'v1' });
      await runner.execute('view_file', { file_path: 'a.txt' });
      await runner.execute('create_file', { file_path: 'a.txt', content: 'v2', overwrite: true });
      await runner.execute('create_file', { file_path: 'a.txt', content: 'v3', overwrite: true });
      expect(await read(platform, '/workspace/a.txt')).toBe('v3');
    });

    it('keeps file caches per conversation', async () => {
      const { runner, platform } = setup({ 'a.txt': 'v1' });
      await runner.execute('view_file', { file_path: 'a.txt' }, { conversationId: 'one' });
      await platform.fs.writeFile('/workspace/a.txt', 'changed');
      // Conversation "two" never viewed it: allowed. Conversation "one" viewed v1: stale.
      expect((await failure(runner, 'create_file', { file_path: 'a.txt', content: 'x', overwrite: true }, 'one')).code).toBe('stale_file');
      await runner.execute('create_file', { file_path: 'a.txt', content: 'from two', overwrite: true }, { conversationId: 'two' });
      expect(await read(platform, '/workspace/a.txt')).toBe('from two');
    });

    it('creates a file again after it was viewed and then deleted', async () => {
      const { runner, platform } = setup({ 'a.txt': 'v1' });
      await runner.execute('view_file', { file_path: 'a.txt' });
      await platform.fs.rm('/workspace/a.txt');
      expect(await runner.execute('create_file', { file_path: 'a.txt', content: 'v2' })).toMatchObject({ created: true });
    });
  });

  describe('file style on overwrite', () => {
    it('keeps the BOM and CRLF endings of the file it replaces', async () => {
      const bom = [0xef, 0xbb, 0xbf];
      const { runner, platform } = setup({ 'win.txt': new Uint8Array([...bom, ...new TextEncoder().encode('a\r\nb\r\n')]) });
      const result = await runner.execute('create_file', { file_path: 'win.txt', content: 'x\ny\n', overwrite: true });
      expect(result).toEqual({ file_path: '/workspace/win.txt', bytes_written: 9, created: false });
      const bytes = await platform.fs.readFile('/workspace/win.txt');
      expect([...bytes.subarray(0, 3)]).toEqual(bom);
      expect(decode(bytes.subarray(3))).toBe('x\r\ny\r\n');
    });

    it('writes new content as given in a new file', async () => {
      const { runner, platform } = setup();
      await runner.execute('create_file', { file_path: 'mixed.txt', content: 'a\r\nb\nc' });
      expect(await read(platform, '/workspace/mixed.txt')).toBe('a\r\nb\nc');
    });
  });

  describe('a file over the 32 MiB edit_file edits', () => {
    const LIMIT = 32 * 1024 * 1024;
    const refusal = (path: string, size: number): string =>
      `${path} would be ${(size / 1_048_576).toFixed(1)} MiB (${size} bytes); create_file writes files up to 32 MiB, the largest edit_file can edit afterwards: ` +
      'split the content into smaller files, or write it with run_command where commands run (a script that generates it, or appends it in parts); nothing was written';

    it('is refused as too_large, naming the size, the limit and what to do, and nothing is written', async () => {
      const { runner, platform } = setup({ 'old.txt': 'old\n' });
      expect(await failure(runner, 'create_file', { file_path: 'big.txt', content: 'z'.repeat(LIMIT + 1) })).toEqual({
        name: 'create_file',
        code: 'too_large',
        error: refusal('/workspace/big.txt', LIMIT + 1),
      });
      // UTF-8 bytes count, not characters: 16 Mi + 1 two-byte characters.
      expect(await failure(runner, 'create_file', { file_path: 'dir/wide.txt', content: '\u00e9'.repeat(LIMIT / 2 + 1) })).toMatchObject({
        code: 'too_large',
        error: refusal('/workspace/dir/wide.txt', LIMIT + 2),
      });
      expect(await failure(runner, 'create_file', { file_path: 'old.txt', content: 'z'.repeat(LIMIT + 1), overwrite: true })).toMatchObject({ code: 'too_large' });
      expect(await exists(platform, '/workspace/big.txt')).toBe(false);
      expect(await exists(platform, '/workspace/dir')).toBe(false);
      expect(await read(platform, '/workspace/old.txt')).toBe('old\n');
    });

    it('counts the bytes written: CRLF endings kept from the file it replaces can take it over', async () => {
      const { runner, platform } = setup({ 'win.txt': 'a\r\nb\r\n' });
      const content = `${'z'.repeat(LIMIT - 1)}\n`;
      expect(await failure(runner, 'create_file', { file_path: 'win.txt', content, overwrite: true })).toMatchObject({
        code: 'too_large',
        error: refusal('/workspace/win.txt', LIMIT + 1),
      });
      expect(await read(platform, '/workspace/win.txt')).toBe('a\r\nb\r\n');
    });

    it('takes content of exactly 32 MiB', async () => {
      const { runner } = setup();
      expect(await runner.execute('create_file', { file_path: 'edge.txt', content: 'z'.repeat(LIMIT) })).toEqual({ file_path: '/workspace/edge.txt', bytes_written: LIMIT, created: true });
    });
  });

  it('is never half-written: a failed rename leaves the old file whole and no temp file', async () => {
    const base = createMemoryPlatform({ files: { 'a.txt': 'old content\n' } });
    let failures = 1;
    const fs = {
      ...base.fs,
      rename: async (from: string, to: string): Promise<void> => {
        if (failures > 0) {
          failures -= 1;
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        }
        return base.fs.rename(from, to);
      },
    };
    // This fs is not atomic for readers, so the write goes through temp file + rename.
    const { runner, platform } = setup({}, { ...base, fs, atomicWrites: false });
    const error = await failure(runner, 'create_file', { file_path: 'a.txt', content: 'new content\n', overwrite: true });
    expect(error.code).toBe('quota_exceeded');
    expect(await read(platform, '/workspace/a.txt')).toBe('old content\n');
    expect(await platform.fs.readdir('/workspace')).toEqual(['a.txt']);
    // The runner stays usable and the next try succeeds.
    await runner.execute('create_file', { file_path: 'a.txt', content: 'new content\n', overwrite: true });
    expect(await read(platform, '/workspace/a.txt')).toBe('new content\n');
  });

  it('writes in place, without temp file or rename, where the platform says writeFile is atomic', async () => {
    const base = createMemoryPlatform({ files: { 'a.txt': 'old\n' } });
    expect(base.atomicWrites).toBe(true);
    const renames: string[] = [];
    const fs = { ...base.fs, rename: async (from: string, to: string) => void renames.push(`${from} -> ${to}`) };
    const { runner, platform } = setup({}, { ...base, fs });
    await runner.execute('create_file', { file_path: 'a.txt', content: 'new\n', overwrite: true });
    await runner.execute('create_file', { file_path: 'deep/er/b.txt', content: 'b\n' });
    expect(renames).toEqual([]);
    expect(await read(platform, '/workspace/a.txt')).toBe('new\n');
    expect(await read(platform, '/workspace/deep/er/b.txt')).toBe('b\n');
    expect(await platform.fs.readdir('/workspace')).toEqual(['a.txt', 'deep']);
  });

  it('serialises concurrent writes to one path: one creates, the other gets already_exists', async () => {
    const { runner, platform } = setup();
    const results = await Promise.all([
      call(runner, 'create_file', { file_path: 'race.txt', content: 'first' }),
      call(runner, 'create_file', { file_path: '/workspace/race.txt', content: 'second' }),
    ]);
    const codes = results.map((r) => ('code' in r ? r.code : 'ok')).sort();
    expect(codes).toEqual(['already_exists', 'ok']);
    expect(['first', 'second']).toContain(await read(platform, '/workspace/race.txt'));
  });

  describe('paths', () => {
    it('gives the same result for relative and absolute paths', async () => {
      const { runner } = setup();
      const relative = await runner.execute('create_file', { file_path: 'src/x.ts', content: '1' });
      const absolute = await runner.execute('create_file', { file_path: '/workspace/src/y.ts', content: '1' });
      expect(relative).toEqual({ file_path: '/workspace/src/x.ts', bytes_written: 1, created: true });
      expect(absolute).toEqual({ file_path: '/workspace/src/y.ts', bytes_written: 1, created: true });
    });

    it('writes names with spaces, unicode and parentheses', async () => {
      const { runner, platform } = setup();
      const result = await runner.execute('create_file', { file_path: 'my dir/naïve (copy) 🚀.md', content: 'ok' });
      expect(result).toMatchObject({ file_path: '/workspace/my dir/naïve (copy) 🚀.md' });
      expect(await read(platform, '/workspace/my dir/naïve (copy) 🚀.md')).toBe('ok');
    });

    it('returns outside_workspace for .. and absolute paths outside, and writes nothing there', async () => {
      const { runner, platform } = setup();
      await writeOutside(platform.fs, { '/outside/keep.txt': 'keep' });
      for (const file_path of ['../outside/keep.txt', '../outside/new.txt', '/outside/new.txt', 'a/../../evil.txt']) {
        const error = await failure(runner, 'create_file', { file_path, content: 'pwned', overwrite: true });
        expect(error.code).toBe('outside_workspace');
      }
      expect(await read(platform, '/outside/keep.txt')).toBe('keep');
      expect(await platform.fs.readdir('/outside')).toEqual(['keep.txt']);
      expect(await exists(platform, '/evil.txt')).toBe(false);
    });

    it('returns outside_workspace for a symlink out of the workspace, and changes nothing outside', async () => {
      const { runner, platform } = setup();
      await writeOutside(platform.fs, { '/outside/keep.txt': 'keep' });
      await platform.fs.symlink('/outside', '/workspace/out');
      await platform.fs.symlink('/outside/keep.txt', '/workspace/keep-link');
      await platform.fs.symlink('/etc', '/workspace/etc');
      for (const file_path of ['out/keep.txt', 'out/new.txt', 'out/sub/new.txt', 'keep-link', 'etc/passwd']) {
        const error = await failure(runner, 'create_file', { file_path, content: 'pwned', overwrite: true });
        expect(error.code).toBe('outside_workspace');
      }
      expect(await read(platform, '/outside/keep.txt')).toBe('keep');
      expect(await platform.fs.readdir('/outside')).toEqual(['keep.txt']);
      expect(await exists(platform, '/etc')).toBe(false);
    });

    it('still checks symlinks after a missing directory and .. (missing/../out/x)', async () => {
      const { runner, platform } = setup();
      await writeOutside(platform.fs, { '/outside/keep.txt': 'keep' });
      await platform.fs.symlink('/outside', '/workspace/out');
      await platform.fs.symlink('/workspace/loop', '/workspace/loop');
      for (const file_path of ['missing/../out/evil.txt', 'a/b/../../out/keep.txt']) {
        const error = await failure(runner, 'create_file', { file_path, content: 'pwned', overwrite: true });
        expect(error.code).toBe('outside_workspace');
      }
      expect((await failure(runner, 'create_file', { file_path: 'missing/../loop/x', content: 'x' })).code).toBe('execution_failed');
      expect(await platform.fs.readdir('/outside')).toEqual(['keep.txt']);
      expect(await read(platform, '/outside/keep.txt')).toBe('keep');
    });

    it('fails fast on a symlink loop', async () => {
      const { runner, platform } = setup();
      await platform.fs.symlink('/workspace/b', '/workspace/a');
      await platform.fs.symlink('/workspace/a', '/workspace/b');
      const error = await failure(runner, 'create_file', { file_path: 'a/new.txt', content: 'x' });
      expect(error.code).toBe('execution_failed');
      expect((await failure(runner, 'create_file', { file_path: 'a', content: 'x', overwrite: true })).code).toBe('execution_failed');
    });

    it('writes through a symlink inside the workspace to its target', async () => {
      const { runner, platform } = setup({ 'real/t.txt': 'old' });
      await platform.fs.symlink('real/t.txt', '/workspace/link.txt');
      await platform.fs.symlink('/workspace/real', '/workspace/dirlink');
      const result = await runner.execute('create_file', { file_path: 'link.txt', content: 'new', overwrite: true });
      expect(result).toEqual({ file_path: '/workspace/real/t.txt', bytes_written: 3, created: false });
      expect(await read(platform, '/workspace/real/t.txt')).toBe('new');
      expect((await platform.fs.lstat('/workspace/link.txt')).isSymbolicLink()).toBe(true);
      await runner.execute('create_file', { file_path: 'dirlink/n.txt', content: 'n' });
      expect(await read(platform, '/workspace/real/n.txt')).toBe('n');
    });
  });

  it('quotes at most 200 characters of a long file_path in its message', async () => {
    const { runner } = setup();
    const long = `${'d'.repeat(100_000)}/`;
    const failed = await failure(runner, 'create_file', { file_path: long, content: 'x' });
    expect(failed.code).toBe('invalid_arguments');
    expect(failed.error.length).toBeLessThan(400);
    expect(failed.error).toContain('(99801 more characters) ends with "/"; give a file name');
  });
});
