import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import type { FsPromises } from '../core/types.js';
import { resolveWorkspacePath, type WorkspaceScope } from './paths.js';
import { writeOutside } from '../../test/support/outside.js';

function scope(files: Record<string, string> = {}): WorkspaceScope {
  const platform = createMemoryPlatform({ files });
  return { fs: platform.fs, root: platform.root, cwd: platform.root };
}

async function failure(at: WorkspaceScope, input: string, argName?: string): Promise<{ code: string; message: string }> {
  try {
    await resolveWorkspacePath(at, input, argName === undefined ? {} : { argName });
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error(`${input} resolved`);
}

const ADVICE =
  'links out of the workspace are not followed. Use a path inside /workspace that does not go through this link ' +
  '(list_dir shows links as type "symlink")';

describe('resolveWorkspacePath', () => {
  describe('a symbolic link that leads out of the workspace', () => {
    it('names the link and its target when it is the last component', async () => {
      const at = scope();
      await writeOutside(at.fs, { '/outside/secret.txt': 's' });
      await at.fs.symlink('/outside/secret.txt', '/workspace/abs_out');
      expect(await failure(at, 'abs_out')).toMatchObject({
        code: 'outside_workspace',
        message: `file_path "abs_out" is a symbolic link (/workspace/abs_out) that leads outside the workspace, to /outside/secret.txt; ${ADVICE}`,
      });
    });

    it('names the link a longer path goes through, and the argument', async () => {
      const at = scope({ 'sub/keep.txt': 'k' });
      await writeOutside(at.fs, { '/outside/secret.txt': 's' });
      await at.fs.symlink('../../outside', '/workspace/sub/up');
      expect(await failure(at, '/workspace/sub/up/secret.txt', 'dir_path')).toMatchObject({
        code: 'outside_workspace',
        message: `dir_path "/workspace/sub/up/secret.txt" goes through /workspace/sub/up, a symbolic link that leads outside the workspace, to /outside; ${ADVICE}`,
      });
    });

    it('names the link that leads out at the end of a chain of links inside', async () => {
      const at = scope({ 'd/x': 'x' });
      await at.fs.symlink('/etc', '/workspace/d/etc');
      await at.fs.symlink('d/etc', '/workspace/first');
      expect((await failure(at, 'first/passwd')).message).toBe(
        `file_path "first/passwd" goes through /workspace/d/etc, a symbolic link that leads outside the workspace, to /etc; ${ADVICE}`,
      );
    });

    it('cuts a long target to 200 characters', async () => {
      const at = scope({ 'a.txt': 'a' });
      const target = '/outside/' + Array.from({ length: 20 }, () => 't'.repeat(100)).join('/');
      await at.fs.symlink(target, '/workspace/far');
      const { message } = await failure(at, 'far');
      expect(message).toBe(
        `file_path "far" is a symbolic link (/workspace/far) that leads outside the workspace, to ${target.slice(0, 200)}… (${target.length - 200} more characters); ${ADVICE}`,
      );
    });

    it('still calls a path that is itself outside just that', async () => {
      expect((await failure(scope(), '../etc/passwd')).message).toBe(
        'file_path "../etc/passwd" is outside the workspace; use a path inside /workspace',
      );
    });

    it('says how to write a path whose .. climbs above the root and comes back in (still refused)', async () => {
      const at = scope({ 'Case.txt': 'c' });
      const climbed = await failure(at, '../workspace/Case.txt');
      expect({ code: climbed.code, message: climbed.message }).toEqual({
        code: 'outside_workspace',
        message: 'file_path "../workspace/Case.txt" climbs above the workspace root with .. before coming back in; write it from inside the workspace: "Case.txt" ("/workspace/Case.txt")',
      });
      expect((await failure(at, '/workspace/../workspace')).message).toBe(
        'file_path "/workspace/../workspace" climbs above the workspace root with .. before coming back in; write it from inside the workspace: "." ("/workspace")',
      );
    });
  });

  describe('a path holding half of a surrogate pair', () => {
    it('is refused: its name cannot be written (it would become U+FFFD, so two such paths would name one file)', async () => {
      for (const input of ['sur\ud800.txt', 'sur\udfff.txt', 'dir\udc00/a.txt']) {
        const refused = await failure(scope(), input);
        expect([refused.code, refused.message]).toEqual(['invalid_arguments', 'file_path contains half of a surrogate pair (a broken emoji or other character outside the BMP); no file name can hold it; send whole characters']);
      }
      expect(await resolveWorkspacePath(scope(), 'emoji-\ud83d\ude00.txt')).toBe('/workspace/emoji-\ud83d\ude00.txt');
    });
  });

  describe('a link changed while the path is resolved', () => {
    it('looks again at a link removed between its lstat and its readlink (as when it is replaced), not failing with ENOENT', async () => {
      const at = scope({ 'a.txt': 'a' });
      await at.fs.symlink('a.txt', '/workspace/ln');
      const readlink = at.fs.readlink.bind(at.fs);
      let raced = false;
      const fs = Object.assign(Object.create(at.fs) as FsPromises, {
        readlink: async (path: string) => {
          if (!raced) {
            raced = true;
            await at.fs.unlink(path);
          }
          return readlink(path);
        },
      });
      expect(await resolveWorkspacePath({ ...at, fs }, 'ln')).toBe('/workspace/ln');
      expect(raced).toBe(true);
    });
  });

  describe('long input in messages', () => {
    it('cuts the path in outside_workspace, not_a_directory and symlink-loop messages', async () => {
      const at = scope({ 'file.txt': 'f' });
      const long = 'n'.repeat(150);
      // Twenty names of 200 characters: within the filesystem's limits (a longer path is invalid_arguments first).
      const outside = `/tmp/${Array.from({ length: 20 }, () => 'x'.repeat(200)).join('/')}`;
      expect((await failure(at, outside)).message).toBe(
        `file_path "/tmp/${'x'.repeat(195)}…" (${outside.length - 200} more characters) is outside the workspace; use a path inside /workspace`,
      );
      await at.fs.mkdir(`/workspace/${long}`);
      await at.fs.writeFile(`/workspace/${long}/${long}`, 'f');
      expect(await failure(at, `${long}/${long}/child`)).toMatchObject({
        code: 'not_a_directory',
        message: `/workspace/${long}/${'n'.repeat(38)}… (112 more characters) is a file, not a directory`,
      });
      await at.fs.symlink('loop', '/workspace/loop');
      const looped = `loop/${Array.from({ length: 5 }, () => 'y'.repeat(200)).join('/')}`;
      const loop = await failure(at, looped);
      expect(loop.code).toBe('execution_failed');
      expect(loop.message).toBe(
        `file_path "loop/${'y'.repeat(195)}…" (${looped.length - 200} more characters) has too many levels of symbolic links (a symlink loop?); fix or remove the link`,
      );
      expect((await failure(at, `https://example.com/${'u'.repeat(5000)}`)).message).toBe(
        `file_path is a URL (https://example.com/${'u'.repeat(20)}… (4980 more characters)); give a workspace path such as /workspace/src/index.ts`,
      );
    });

    it('turns a name the filesystem finds too long into invalid_arguments with the path cut', async () => {
      const at = scope();
      const tooLong = Object.assign(new Error(`ENAMETOOLONG: name too long, lstat '/workspace/${'z'.repeat(100_000)}'`), { code: 'ENAMETOOLONG' });
      const fs = { ...at.fs, lstat: () => Promise.reject(tooLong) } as FsPromises;
      expect(await failure({ ...at, fs }, 'z'.repeat(100_000))).toMatchObject({
        code: 'invalid_arguments',
        message: `file_path "${'z'.repeat(200)}…" (99800 more characters) is longer than the filesystem allows (a name or the whole path); use shorter names`,
      });
    });
  });

  describe("the filesystem's spelling of a path", () => {
    it("puts the path in the port's canonical spelling before walking, for the result and for messages", async () => {
      const at = scope({ 'a.txt': 'a' });
      const calls: string[] = [];
      const canonicalPath = (path: string): string => {
        calls.push(path);
        return path.replaceAll('\\x61', 'a').replaceAll('\\x2e', '.');
      };
      const fs = Object.assign(Object.create(at.fs) as FsPromises, { canonicalPath });
      expect(await resolveWorkspacePath({ ...at, fs }, '\\x61.txt')).toBe('/workspace/a.txt');
      expect(await failure({ ...at, fs }, '\\x2e\\x2e/b.txt', 'dir_path')).toMatchObject({
        code: 'outside_workspace',
        message: 'dir_path "../b.txt" is outside the workspace; use a path inside /workspace',
      });
      expect(calls).toEqual(['\\x61.txt', '\\x2e\\x2e/b.txt']);
    });

    it('keeps a backslash as an ordinary character on the memory platform, whose names are text', async () => {
      const at = scope({ 'a.txt': 'a', '\\x61.txt': 'literal' });
      expect(at.fs.canonicalPath).toBeUndefined();
      expect(await resolveWorkspacePath(at, '\\x61.txt')).toBe('/workspace/\\x61.txt');
      expect(new TextDecoder().decode(await at.fs.readFile('/workspace/\\x61.txt'))).toBe('literal');
      expect((await at.fs.readdir('/workspace')).sort()).toEqual(['\\x61.txt', 'a.txt']);
    });
  });
});
