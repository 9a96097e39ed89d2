import { mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { createFileTool } from '../src/tools/create-file.js';
import { makeDirectories } from './fs/make-dirs.js';
import { createNodePlatform } from './platform.js';
import { stopwatch } from '../test/support/starvation.js';

let base: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-dirs-')));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

// Node's recursive mkdir never returns for a path under /proc (ENOENT from a parent that exists).
describe('directories the Node platform creates', () => {
  it('makeDirectories creates missing ancestors, accepts an existing folder, and throws for /proc and a file in the way', async () => {
    makeDirectories(join(base, 'a', 'b', 'c'), 0o700);
    expect((await stat(join(base, 'a', 'b', 'c'))).isDirectory()).toBe(true);
    expect((await stat(join(base, 'a', 'b'))).mode & 0o777).toBe(0o700);
    makeDirectories(join(base, 'a', 'b'));
    expect(() => makeDirectories('/proc/toolhost-nope/x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    await writeFile(join(base, 'file'), 'x');
    expect(() => makeDirectories(join(base, 'file', 'sub'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it('a stateDir under /proc is refused at creation with unavailable naming it, instead of never returning', () => {
    expect(() => createNodePlatform({ root: base, stateDir: '/proc/toolhost-nope' })).toThrow(
      expect.objectContaining({ code: 'unavailable', message: expect.stringContaining('the state directory /proc/toolhost-nope cannot be written (ENOENT)') }),
    );
  });

  it('a lock directory under /proc answers unavailable on the first write, within its deadline, writing nothing', async () => {
    const platform = createNodePlatform({ root: base, fileLocks: { dir: '/proc/toolhost-nope' } });
    const runner = new ToolRunner({ platform, tools: [createFileTool] });
    const started = stopwatch();
    const [call] = await runner.processToolCalls([{ name: 'create_file', args: { file_path: 'x.txt', content: 'x' } }], { timeoutMs: 3000 });
    expect(started.net()).toBeLessThan(3250);
    expect(call).toMatchObject({ code: 'unavailable', error: expect.stringContaining('the lock directory /proc/toolhost-nope cannot be used (ENOENT)') });
    await expect(stat(join(base, 'x.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    await platform.dispose();
  });
});
