import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { editFileTool } from '../src/tools/edit-file.js';
import { createNodePlatform } from './platform.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-locks-test-')));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
  rmSync(base, { recursive: true, force: true });
});

/** A workspace with `a.txt`, its platform using a lock directory of its own, and the lock file of a.txt. */
function workspace(name: string) {
  const root = join(base, name);
  const lockDir = join(base, `${name}-locks`);
  mkdirSync(root);
  mkdirSync(lockDir);
  writeFileSync(join(root, 'a.txt'), 'alpha\n');
  const platform = createNodePlatform({ root, fileLocks: { dir: lockDir } });
  const lockFile = join(lockDir, `${createHash('sha256').update(join(root, 'a.txt')).digest('hex').slice(0, 40)}.lock`);
  const runner = new ToolRunner({ platform, tools: [editFileTool] });
  const edit = (timeoutMs: number) =>
    runner.processToolCalls([{ name: 'edit_file', args: { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' } }], { timeoutMs });
  return { root, platform, lockFile, edit, text: () => readFileSync(join(root, 'a.txt'), 'utf8') };
}

/** A process that stays alive (until the test ends), to stand as a lock's holder. */
function liveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid as number;
}

const landed = (root: string) => {
  const path = join(root, 'a.txt');
  return [{ name: 'edit_file', result: { file_path: path, replacements: 1, diff: `--- ${path}\n+++ ${path}\n@@ -1,1 +1,1 @@\n-alpha\n+beta\n` } }];
};

describe('cross-process file locks (node/file-lock.ts)', () => {
  it('takes over a lock whose holder process is gone, and the edit lands', async () => {
    const ws = workspace('dead');
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    writeFileSync(ws.lockFile, `${dead.pid}:abandoned-1:${Date.now()}`);
    expect(await ws.edit(5000)).toEqual(landed(ws.root));
    expect(ws.text()).toBe('beta\n');
    expect(existsSync(ws.lockFile)).toBe(false);
    await ws.platform.dispose();
  });

  it('takes over a lock older than the takeover age although its holder still runs, and the edit lands', async () => {
    const ws = workspace('old');
    writeFileSync(ws.lockFile, `${liveProcess()}:forgotten-1:${Date.now() - 120_000}`);
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(ws.lockFile, twoMinutesAgo, twoMinutesAgo);
    expect(await ws.edit(5000)).toEqual(landed(ws.root));
    expect(ws.text()).toBe('beta\n');
    await ws.platform.dispose();
  });

  it('waits for a live holder instead of stealing its lock, then lands once it releases', async () => {
    const ws = workspace('live');
    const holder = `${liveProcess()}:holding-1:${Date.now()}`;
    writeFileSync(ws.lockFile, holder);
    // Past its deadline the edit gives up waiting: timeout, the file and the holder's lock untouched.
    expect(await ws.edit(300)).toEqual([{ name: 'edit_file', code: 'timeout', error: 'edit_file did not finish within 300 ms (this call\'s time limit); narrow the request or split the work into smaller steps' }]);
    expect([ws.text(), readFileSync(ws.lockFile, 'utf8')]).toEqual(['alpha\n', holder]);
    // With time to spare it waits: still nothing written while the lock is held, the edit lands once released.
    const waiting = ws.edit(10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([ws.text(), readFileSync(ws.lockFile, 'utf8')]).toEqual(['alpha\n', holder]);
    unlinkSync(ws.lockFile);
    expect(await waiting).toEqual(landed(ws.root));
    expect(ws.text()).toBe('beta\n');
    await ws.platform.dispose();
  });
});
