import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../../test/support/build.js';
import type { ToolCallResult } from '../../src/core/runner.js';
import type { RemoteToolRunner } from '../../src/remote/remote.js';
import { spawnToolWorker } from '../worker.js';
import { stopwatch } from '../../test/support/starvation.js';

// Child processes and workers run built modules (the sources' imports name .js files): buildPackage
// gives a folder linked to the shared build, and plain .mjs modules run beside it.
const REPO = join(import.meta.dirname, '..', '..');
const BUILD = join(REPO, 'node_modules', '.cache', 'toolhost-safety-test');

const HOST_SCRIPT = `
import { ToolRunner, BuiltinTools } from './src/index.js';
import { createNodePlatform } from './node/index.js';
const [root, mode, ...rest] = process.argv.slice(2);
const platform = createNodePlatform({ root });
const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
const calls = JSON.parse(rest[0]);
const results = await runner.processToolCalls(calls, { timeoutMs: 2000 });
process.stdout.write(JSON.stringify({ uid: process.getuid(), results }));
if (mode === 'dispose') await platform.dispose();
// no process.exit: the process must be able to end on its own
`;

const WORKER_SCRIPT = `
import { workerData } from 'node:worker_threads';
import { ToolRunner, BuiltinTools } from './src/index.js';
import { createNodePlatform, exposeToolRunnerInWorker } from './node/index.js';
exposeToolRunnerInWorker(({ onMessage }) => new ToolRunner({ platform: createNodePlatform({ root: workerData.root }), onMessage, tools: BuiltinTools.all() }));
`;

let base: string;
let root: string;
let server: Server;
let writer: ChildProcess;

beforeAll(async () => {
  expect(buildPackage('toolhost-safety-test')).toBe(BUILD);
  fs.writeFileSync(join(BUILD, 'host.mjs'), HOST_SCRIPT);
  fs.writeFileSync(join(BUILD, 'worker.mjs'), WORKER_SCRIPT);
  base = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), 'toolhost-safety-')));
  fs.chmodSync(base, 0o755);
  root = join(base, 'root');
  fs.mkdirSync(root);
  fs.writeFileSync(join(root, 'plain.txt'), 'plain\n');
  for (const name of ['fifo1', 'fifo2', 'fifo3', 'fifo4', 'endless']) run('mkfifo', [join(root, name)]);
  run('mknod', [join(root, 'zero'), 'c', '1', '5']);
  run('mknod', [join(root, 'urandom'), 'c', '1', '9']);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(join(root, 'sock'), resolve));
  writer = spawn('/bin/sh', ['-c', `exec cat /dev/zero > '${join(root, 'endless')}'`], { stdio: 'ignore' });
}, 180_000);

afterAll(async () => {
  writer.kill('SIGKILL');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(base, { recursive: true, force: true });
});

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr.toString()}`);
}

/** Runs the host script in a child process (optionally as another user); resolves with its output and how it ended. */
function host(args: string[], calls: unknown[], prefix: string[] = []): Promise<{ out: { uid: number; results: ToolCallResult[] } | null; code: number | null; ms: number }> {
  const started = stopwatch();
  const [command, ...rest] = [...prefix, process.execPath, join(BUILD, 'host.mjs'), ...args, JSON.stringify(calls)];
  const child = spawn(command as string, rest, { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', (code) => {
      clearTimeout(kill);
      resolve({ out: text ? JSON.parse(text) : null, code, ms: started.net() });
    });
  });
}

const specialCalls = (dir: string): { id: string; name: string; args: Record<string, unknown> }[] =>
  ['fifo1', 'fifo2', 'fifo3', 'fifo4', 'endless', 'zero', 'urandom', 'sock'].map((name) => ({ id: name, name: 'view_file', args: { file_path: `${dir}/${name}` } }));

describe('the Node platform with special files, in other processes and threads', () => {
  it('lets the host process exit on its own after view_file of FIFOs, devices and a socket', async () => {
    const { out, code, ms } = await host([root, 'keep'], [...specialCalls(root), { id: 'after', name: 'view_file', args: { file_path: `${root}/plain.txt` } }]);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(8000);
    expect(out?.results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual([
      'invalid_arguments', 'invalid_arguments', 'invalid_arguments', 'invalid_arguments', 'invalid_arguments', 'invalid_arguments', 'invalid_arguments', 'invalid_arguments', 'ok',
    ]);
  }, 20_000);

  it('answers in a spawnToolWorker within the deadline, four FIFOs at once, and stays usable', async () => {
    const remote: RemoteToolRunner = spawnToolWorker({ module: join(BUILD, 'worker.mjs'), workerData: { root } });
    try {
      const rss = process.memoryUsage().rss;
      const started = stopwatch();
      const results = await remote.processToolCalls(specialCalls(root), { timeoutMs: 2000 });
      expect(started.net()).toBeLessThan(2000 + 250);
      expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(Array(8).fill('invalid_arguments'));
      const after = performance.now();
      const next = await remote.processToolCalls([
        { id: 'v', name: 'view_file', args: { file_path: `${root}/plain.txt` } },
        { id: 'l', name: 'list_dir', args: { dir_path: root } },
        { id: 'c', name: 'create_file', args: { file_path: `${root}/from-worker.txt`, content: 'w\n', overwrite: true } },
        { id: 'r', name: 'run_command', args: { command: 'echo ok' } },
      ], { timeoutMs: 2000 });
      expect(performance.now() - after).toBeLessThan(2000);
      expect(next.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
      expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
    } finally {
      await remote.terminate();
    }
  }, 20_000);
});

/** Runs the host script as nobody: the machine runs tests as root, which may read and write any file. */
const NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];

/**
 * Lets nobody reach the compiled host script and node_modules: a checkout under a 0700 folder (mktemp
 * -d) is given traverse-only permission (o+x) for one call. Returns the function that puts it back.
 */
function traversable(): () => void {
  const restore: Array<[string, number]> = [];
  for (let at = REPO; at !== dirname(at); at = dirname(at)) {
    const mode = fs.statSync(at).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      restore.push([at, mode]);
      fs.chmodSync(at, mode | 0o001);
    }
  }
  return () => {
    for (const [at, mode] of restore) fs.chmodSync(at, mode);
  };
}

describe('the Node platform run by a non-root user', () => {
  it('refuses to edit or overwrite a 0444 file with permission_denied and leaves it unchanged', async () => {
    // The machine runs tests as root, which may write any file: the host runs as nobody (setpriv).
    const dir = join(base, 'nobody');
    fs.mkdirSync(dir);
    fs.writeFileSync(join(dir, 'ro.txt'), 'read only\n');
    fs.chmodSync(join(dir, 'ro.txt'), 0o444);
    fs.writeFileSync(join(dir, 'rw.txt'), 'writable\n');
    for (const name of ['', 'ro.txt', 'rw.txt']) fs.chownSync(join(dir, name), 65534, 65534);
    const restore = traversable();
    const { out, code } = await host([dir, 'dispose'], [
      { id: 'e', name: 'edit_file', args: { file_path: `${dir}/ro.txt`, old_string: 'read', new_string: 'changed' } },
      { id: 'c', name: 'create_file', args: { file_path: `${dir}/ro.txt`, content: 'replaced\n', overwrite: true } },
      { id: 'w', name: 'edit_file', args: { file_path: `${dir}/rw.txt`, old_string: 'writable', new_string: 'edited' } },
    ], NOBODY).finally(restore);
    expect(code).toBe(0);
    expect(out?.uid).toBe(65534);
    expect(out?.results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['permission_denied', 'permission_denied', 'ok']);
    expect(fs.readFileSync(join(dir, 'ro.txt'), 'utf8')).toBe('read only\n');
    expect(fs.statSync(join(dir, 'ro.txt')).mode & 0o7777).toBe(0o444);
    expect(fs.readFileSync(join(dir, 'rw.txt'), 'utf8')).toBe('edited\n');
    expect(fs.readdirSync(dir).sort()).toEqual(['ro.txt', 'rw.txt']);
  }, 20_000);

  it('answers unreadable files and folders with permission_denied naming the workspace path and what to do', async () => {
    const dir = join(base, 'nobody-unreadable');
    fs.mkdirSync(join(dir, 'locked'), { recursive: true });
    fs.writeFileSync(join(dir, 'noread.txt'), 'secret\n');
    fs.writeFileSync(join(dir, 'locked', 'b.txt'), 'hidden\n');
    for (const name of ['', 'noread.txt', 'locked', 'locked/b.txt']) fs.chownSync(join(dir, name), 65534, 65534);
    fs.chmodSync(join(dir, 'noread.txt'), 0o000);
    fs.chmodSync(join(dir, 'locked'), 0o000);
    const restore = traversable();
    const { out, code } = await host([dir, 'dispose'], [
      { id: 'v', name: 'view_file', args: { file_path: 'noread.txt' } },
      { id: 'l', name: 'list_dir', args: { dir_path: 'locked' } },
      { id: 'b', name: 'view_file', args: { file_path: 'locked/b.txt' } },
      { id: 'e', name: 'edit_file', args: { file_path: 'noread.txt', old_string: 'secret', new_string: 'public' } },
    ], NOBODY).finally(restore);
    expect(code).toBe(0);
    expect(out?.uid).toBe(65534);
    const reading = (path: string): string =>
      `permission denied reading "${path}": it (or a folder on its way) is not readable by this process; check its permissions or pick another file`;
    expect(out?.results.map((r) => ('code' in r ? [r.code, r.error] : ['ok']))).toEqual([
      ['permission_denied', reading(`${dir}/noread.txt`)],
      ['permission_denied', `permission denied listing "${dir}/locked": the folder (or one on its way) is not readable by this process; check its permissions or pick another folder`],
      ['permission_denied', reading(`${dir}/locked/b.txt`)],
      ['permission_denied', reading(`${dir}/noread.txt`)],
    ]);
    fs.chmodSync(join(dir, 'noread.txt'), 0o644);
    expect(fs.readFileSync(join(dir, 'noread.txt'), 'utf8')).toBe('secret\n');
  }, 20_000);
});
