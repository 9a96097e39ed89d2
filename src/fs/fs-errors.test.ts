import { describe, expect, it } from 'vitest';
import { ToolError } from '../core/errors.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { pathTooLongMessage, tidyFsError, withTidyFsErrors } from './fs-errors.js';
import type { FsPromises } from '../core/types.js';

const nodeError = (code: string, message: string, path?: string): Error & { code: string; path?: string } =>
  Object.assign(new Error(message), { code }, path === undefined ? {} : { path });

describe('tidyFsError', () => {
  it('replaces an ENAMETOOLONG message by one sentence naming the path shortened', () => {
    const path = `/w/${'b'.repeat(300)}`;
    const error = nodeError('ENAMETOOLONG', `ENAMETOOLONG: name too long, open '${path}'`, path);
    expect(tidyFsError(error)).toBe(error);
    expect(error).toMatchObject({
      code: 'ENAMETOOLONG',
      path,
      message: `"/w/${'b'.repeat(197)}…" (103 more characters) is longer than the filesystem allows (a name or the whole path); use shorter names`,
    });
    expect(pathTooLongMessage(undefined)).toBe('a path is longer than the filesystem allows (a name or the whole path); use shorter names');
    // The path the caller gave wins over the one the port failed on.
    const fromPort = nodeError('ENAMETOOLONG', 'ENAMETOOLONG: name too long, mkdir', '/proc/self/fd/21/x');
    expect((tidyFsError(fromPort, '/w/x') as Error).message).toBe(pathTooLongMessage('/w/x'));
  });

  it('shortens each long quoted path of any other long message and leaves short ones alone', () => {
    const from = `/w/${'c'.repeat(400)}`;
    const to = `/w/${'d'.repeat(400)}`;
    const error = nodeError('EXDEV', `EXDEV: cross-device link not permitted, rename '${from}' -> '${to}'`);
    expect((tidyFsError(error) as Error).message).toBe(
      `EXDEV: cross-device link not permitted, rename '/w/${'c'.repeat(197)}… (203 more characters)' -> '/w/${'d'.repeat(197)}… (203 more characters)'`,
    );
    const short = nodeError('ENOENT', "ENOENT: no such file or directory, open '/w/a'");
    expect((tidyFsError(short) as Error).message).toBe("ENOENT: no such file or directory, open '/w/a'");
  });

  it('passes ToolErrors and values without a code through untouched', () => {
    const tool = new ToolError('outside_workspace', `"${'e'.repeat(900)}" is outside`);
    expect(tidyFsError(tool)).toBe(tool);
    expect(tool.message).toBe(`"${'e'.repeat(900)}" is outside`);
    expect(tidyFsError('boom')).toBe('boom');
    expect(tidyFsError(null)).toBe(null);
  });

  it("is what the memory platform's fs rejects with for a too-long path", async () => {
    const platform = createMemoryPlatform();
    const path = `/workspace/${'g'.repeat(256)}`;
    await expect(platform.fs.writeFile(path, 'x')).rejects.toMatchObject({ code: 'ENAMETOOLONG', message: pathTooLongMessage(path) });
  });
});

describe('withTidyFsErrors', () => {
  it('tidies rejections and synchronous throws, naming the path argument (the longer one for rename)', async () => {
    const long = `/w/${'f'.repeat(300)}`;
    const failing = {
      readFile: async () => {
        throw nodeError('ENAMETOOLONG', 'ENAMETOOLONG: name too long, open', '/proc/self/fd/3/x');
      },
      rename: () => {
        throw nodeError('ENAMETOOLONG', 'ENAMETOOLONG: name too long, rename');
      },
      stat: async () => ({ size: 1 }),
    } as unknown as FsPromises;
    const fs = withTidyFsErrors(failing);
    await expect(fs.readFile('/w/short')).rejects.toMatchObject({ code: 'ENAMETOOLONG', message: pathTooLongMessage('/w/short') });
    expect(() => fs.rename('/w/a', long)).toThrow(pathTooLongMessage(long));
    expect(await fs.stat('/w/a')).toEqual({ size: 1 });
  });

});
