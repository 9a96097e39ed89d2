import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Buffer } from 'node:buffer';
import * as fs from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinTools } from '../../src/index.js';
import { ToolRunner, type ToolCallFailure, type ToolCallResult } from '../../src/runner.js';
import { createNodePlatform } from '../platform.js';
import { canonicalPath, escapeBytes, unescapePath } from './names.js';
import { stopwatch } from '../../test/support/starvation.js';

let base: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-confined-')));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function call(runner: ToolRunner, name: string, args: Record<string, unknown>, timeoutMs = 5000): Promise<ToolCallResult> {
  const [result] = await runner.processToolCalls([{ id: 'c', name, args }], { timeoutMs });
  return result as ToolCallResult;
}

function value<T>(result: ToolCallResult): T {
  if ('code' in result) throw new Error(`expected a result, got ${result.code}: ${result.error}`);
  return (result as { result: T }).result;
}

function fresh(name: string): { root: string; outside: string } {
  const dir = join(base, name);
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  return { root, outside };
}

/** Every file under `dir` with its content (sorted by path). */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const visit = (path: string): void => {
    for (const entry of fs.readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) visit(full);
      else out.push(`${full}=${fs.readFileSync(full, 'utf8')}`);
    }
  };
  visit(dir);
  return out.sort();
}

describe('createConfinedNodeFs under a directory ↔ symlink swap race', () => {
  it('never reads, lists, matches or writes outside the root while another process swaps a folder for a link out', async () => {
    const { root, outside } = fresh('race');
    fs.mkdirSync(join(root, 'dir'));
    for (const where of [join(root, 'dir'), outside]) {
      const secret = where === outside;
      fs.writeFileSync(join(where, 'file.txt'), secret ? 'OUTSIDE-SECRET\n' : 'inside text\n');
      fs.writeFileSync(join(where, 'edit.txt'), 'counter A\n');
      if (secret) fs.writeFileSync(join(where, 'outside-only.txt'), 'OUTSIDE-SECRET\n');
    }
    const before = snapshot(outside);
    // The swapper: dir → dir.real, a link dir → outside, then back, as fast as it can; while the
    // file `slow` exists it holds each state for the milliseconds written in it instead of 1 ms
    // (still swapping), so that a tool starved on a busy machine gets windows to land in.
    const slow = `${root}.slow`;
    const swapper: ChildProcess = spawn(process.execPath, ['-e', `
      const fs = require('node:fs');
      const dir = ${JSON.stringify(join(root, 'dir'))}, real = dir + '.real', out = ${JSON.stringify(outside)};
      const slow = ${JSON.stringify(slow)};
      let swaps = 0;
      const stop = Date.now() + 80000;
      while (Date.now() < stop) {
        const hold = new Int32Array(new SharedArrayBuffer(4));
        let ms = 1;
        try { ms = Number(fs.readFileSync(slow, 'utf8')) || 1; } catch {}
        try {
          fs.renameSync(dir, real); fs.symlinkSync(out, dir);
          Atomics.wait(hold, 0, 0, ms);
          fs.unlinkSync(dir); fs.renameSync(real, dir);
          Atomics.wait(hold, 0, 0, ms);
          swaps += 1;
        } catch {
          // A create_file that landed between the rename and the link made dir anew (inside the root,
          // as it should): move what it wrote into the real folder and put that back, so the race
          // goes on instead of leaving dir without edit.txt for the rest of the test.
          try {
            const now = fs.lstatSync(dir, { throwIfNoEntry: false });
            if (fs.existsSync(real)) {
              if (now && now.isSymbolicLink()) fs.unlinkSync(dir);
              else if (now) { for (const name of fs.readdirSync(dir)) fs.renameSync(dir + '/' + name, real + '/' + name); fs.rmdirSync(dir); }
              fs.renameSync(real, dir);
            }
          } catch {}
        }
        if (swaps % 200 === 0 && swaps > 0) process.stdout.write('s');
      }
    `], { stdio: ['ignore', 'pipe', 'ignore'] });
    let swapped = 0;
    swapper.stdout?.on('data', (chunk: Buffer) => (swapped += chunk.length));
    const platform = createNodePlatform({ root });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const leaks: Record<string, number> = { view_file: 0, list_dir: 0, grep_search: 0, search_dir: 0, find_file: 0 };
    const answered: Record<string, number> = { view_file: 0, list_dir: 0, grep_search: 0, search_dir: 0, find_file: 0, create_file: 0, edit_file: 0 };
    const text = (result: ToolCallResult): string => JSON.stringify('code' in result ? {} : result.result);
    try {
      while (swapped === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      // At least 4 s of racing, and on until every tool has also succeeded inside (a busy machine
      // takes longer to land each one between two swaps), within a bound far past that.
      const started = Date.now();
      const everyToolAnswered = (): boolean => Object.values(answered).every((count) => count > 0);
      let n = 0;
      let slowHold = '';
      while (Date.now() - started < 4000 || (!everyToolAnswered() && Date.now() - started < 50_000)) {
        n += 1;
        // Past the first 4 s a tool that has not yet landed once is starved, not refused on purpose:
        // slow the swapper down (it keeps swapping), holding each state 50 ms and twice as long
        // every further 4 s (to 3.2 s), until every tool has: a write that reads, checks and
        // renames needs the whole of one window on a machine whose cores are taken.
        const past = Date.now() - started;
        if (past >= 4000) {
          const hold = String(Math.min(3200, 50 * 2 ** Math.floor((past - 4000) / 4000)));
          if (hold !== slowHold) fs.writeFileSync(slow, (slowHold = hold));
        }
        // Past the first 4 s only the tools that have not yet landed run, so that they do not share
        // the cores with the ones that have (every tool raced for the first 4 s).
        const calls: Record<string, () => Promise<ToolCallResult>> = {
          view_file: () => call(runner, 'view_file', { file_path: `${root}/dir/file.txt` }),
          list_dir: () => call(runner, 'list_dir', { dir_path: `${root}/dir` }),
          grep_search: () => call(runner, 'grep_search', { pattern: 'OUTSIDE', dir_path: root }),
          search_dir: () => call(runner, 'search_dir', { query: 'OUTSIDE', dir_path: root }),
          find_file: () => call(runner, 'find_file', { pattern: 'outside-only*', dir_path: root }),
          create_file: () => call(runner, 'create_file', { file_path: `${root}/dir/new-${n}.txt`, content: `new ${n}\n` }),
          edit_file: () => call(runner, 'edit_file', { file_path: `${root}/dir/edit.txt`, old_string: 'counter ', new_string: 'counter x' }),
        };
        const names = Object.keys(calls).filter((name) => past < 4000 || answered[name] === 0);
        const results = await Promise.all(names.map((name) => (calls[name] as () => Promise<ToolCallResult>)()));
        results.forEach((result, i) => {
          const name = names[i] as string;
          if (!('code' in result)) answered[name] = (answered[name] ?? 0) + 1;
          else if (process.env.DEBUG_RACE) console.log(name, result.code, result.error);
          if (name in leaks && /OUTSIDE|outside-only/.test(text(result))) leaks[name] = (leaks[name] ?? 0) + 1;
        });
      }
    } finally {
      swapper.kill('SIGKILL');
      await new Promise((resolve) => swapper.once('exit', resolve));
      await platform.dispose();
    }
    expect(swapped).toBeGreaterThan(0);
    expect(leaks).toEqual({ view_file: 0, list_dir: 0, grep_search: 0, search_dir: 0, find_file: 0 });
    expect(snapshot(outside)).toEqual(before);
    // Each tool also succeeded inside while the race ran, so the checks above saw real calls.
    for (const [name, count] of Object.entries(answered)) expect([name, count > 0]).toEqual([name, true]);
  }, 80_000);
});

describe('createConfinedNodeFs with FIFOs, sockets and devices', () => {
  let root: string;
  let server: Server;
  let writer: ChildProcess;

  beforeAll(async () => {
    root = fresh('special').root;
    fs.writeFileSync(join(root, 'plain.txt'), 'plain\n');
    for (const name of ['fifo', 'fifo2', 'fifo3', 'fifo4', 'endless']) spawnSyncOk('mkfifo', [join(root, name)]);
    spawnSyncOk('mknod', [join(root, 'zero'), 'c', '1', '5']);
    spawnSyncOk('mknod', [join(root, 'urandom'), 'c', '1', '9']);
    server = createServer();
    await new Promise<void>((resolve) => server.listen(join(root, 'sock'), resolve));
    // An endless writer on one FIFO: it blocks until a reader opens it, then writes forever.
    writer = spawn('/bin/sh', ['-c', `exec cat /dev/zero > '${join(root, 'endless')}'`], { stdio: 'ignore' });
  });

  afterAll(async () => {
    writer.kill('SIGKILL');
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('lists them as fifo, socket and device', async () => {
    const runner = new ToolRunner({ platform: createNodePlatform({ root }), tools: BuiltinTools.all() });
    const listed = value<{ entries: { name: string; type: string }[] }>(await call(runner, 'list_dir', { dir_path: root }));
    expect(listed.entries.map((e) => `${e.name}:${e.type}`)).toEqual([
      'endless:fifo', 'fifo:fifo', 'fifo2:fifo', 'fifo3:fifo', 'fifo4:fifo', 'plain.txt:file', 'sock:socket', 'urandom:device', 'zero:device',
    ]);
    const found = value<{ files: string[] }>(await call(runner, 'find_file', { pattern: '*', dir_path: root }));
    expect(found.files).toEqual([`${root}/plain.txt`]);
    const grep = value<{ matches: unknown[]; files_searched: number }>(await call(runner, 'grep_search', { pattern: '.', dir_path: root }));
    expect(grep.files_searched).toBe(1);
  });

  it('refuses to read or write each within the deadline with invalid_arguments, RSS bounded, and stays usable', async () => {
    const platform = createNodePlatform({ root });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const rss = process.memoryUsage().rss;
    const deadline = 2000;
    for (const name of ['fifo', 'endless', 'zero', 'urandom', 'sock']) {
      const path = `${root}/${name}`;
      const type = name === 'sock' ? 'socket' : name === 'zero' || name === 'urandom' ? 'device' : 'fifo';
      for (const [tool, args] of [
        ['view_file', { file_path: path }],
        ['create_file', { file_path: path, content: 'x', overwrite: true }],
        ['edit_file', { file_path: path, old_string: 'a', new_string: 'b' }],
      ] as const) {
        // Wall time less what the machine kept the process waiting for a CPU (a busy machine's share).
        const clock = stopwatch();
        const result = (await call(runner, tool, args, deadline)) as ToolCallFailure;
        expect(clock.net()).toBeLessThan(deadline + 250);
        expect([tool, name, result.code]).toEqual([tool, name, 'invalid_arguments']);
        expect(result.error).toContain('not a regular file');
      }
      const direct = await platform.fs.readFile(path).then(() => null, (error: { details?: unknown }) => error.details);
      expect(direct).toEqual({ file_type: type });
    }
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
    // Four at once (libuv's pool has four threads): none is kept, later calls answer at once.
    const four = await Promise.all(['fifo', 'fifo2', 'fifo3', 'fifo4'].map((name) => platform.fs.readFile(`${root}/${name}`).then(
      () => 'read',
      (error: { code?: string }) => error.code,
    )));
    expect(four).toEqual(['invalid_arguments', 'invalid_arguments', 'invalid_arguments', 'invalid_arguments']);
    const clock = stopwatch();
    const after = await Promise.all([
      call(runner, 'view_file', { file_path: `${root}/plain.txt` }),
      call(runner, 'list_dir', { dir_path: root }),
      call(runner, 'create_file', { file_path: `${root}/made.txt`, content: 'made\n' }),
      call(runner, 'run_command', { command: 'echo ran' }),
    ]);
    // Answered at once, not after a read held in libuv's pool ends (it never would): 2 s of net time.
    expect(clock.net()).toBeLessThan(2000);
    expect(after.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
    await platform.dispose();
  });
});

function spawnSyncOk(command: string, args: string[]): void {
  const result = spawnSync(command, args);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr.toString()}`);
}

describe('Node edits keep the file', () => {
  it('keeps modes 755 and 0600, the owner and a hard link through edit_file and create_file overwrite', async () => {
    const { root } = fresh('keep');
    const runner = new ToolRunner({ platform: createNodePlatform({ root }), tools: BuiltinTools.all() });
    const script = join(root, 'run.sh');
    const secret = join(root, 'secret.txt');
    const linked = join(root, 'linked.txt');
    fs.writeFileSync(script, '#!/bin/sh\necho one\n', { mode: 0o755 });
    fs.chmodSync(script, 0o755);
    fs.writeFileSync(secret, 'token one\n');
    fs.chmodSync(secret, 0o600);
    fs.chownSync(secret, 65534, 65534);
    fs.writeFileSync(linked, 'shared one\n');
    fs.linkSync(linked, join(root, 'other-name.txt'));
    for (const path of [script, secret, linked]) {
      value(await call(runner, 'edit_file', { file_path: path, old_string: 'one', new_string: 'two' }));
      value(await call(runner, 'create_file', { file_path: path, content: fs.readFileSync(path, 'utf8').replace('two', 'three'), overwrite: true }));
    }
    expect(fs.statSync(script).mode & 0o7777).toBe(0o755);
    expect(fs.statSync(secret).mode & 0o7777).toBe(0o600);
    expect([fs.statSync(secret).uid, fs.statSync(secret).gid]).toEqual([65534, 65534]);
    expect(fs.readFileSync(join(root, 'other-name.txt'), 'utf8')).toBe('shared three\n');
    expect(fs.statSync(linked).nlink).toBe(2);
    expect(fs.readFileSync(script, 'utf8')).toBe('#!/bin/sh\necho three\n');
    expect(fs.readdirSync(root).sort()).toEqual(['linked.txt', 'other-name.txt', 'run.sh', 'secret.txt']);
  });

  it('creates and edits files with 255-byte names', async () => {
    const { root } = fresh('long');
    const runner = new ToolRunner({ platform: createNodePlatform({ root }), tools: BuiltinTools.all() });
    const ascii = 'a'.repeat(251) + '.txt';
    const wide = 'é'.repeat(125) + 'xy.md'; // 250 + 5 bytes
    for (const name of [ascii, wide]) {
      expect(Buffer.byteLength(name)).toBe(255);
      value(await call(runner, 'create_file', { file_path: `${root}/${name}`, content: 'first\n' }));
      value(await call(runner, 'edit_file', { file_path: `${root}/${name}`, old_string: 'first', new_string: 'second' }));
      value(await call(runner, 'create_file', { file_path: `${root}/${name}`, content: 'third\n', overwrite: true }));
      expect(fs.readFileSync(join(root, name), 'utf8')).toBe('third\n');
    }
    const tooLong = (await call(runner, 'create_file', { file_path: `${root}/${'b'.repeat(256)}`, content: 'x' })) as ToolCallFailure;
    expect(tooLong.code).toBe('invalid_arguments');
  });

  it('skips temporary files a crash left in walks', async () => {
    const { root } = fresh('leftover');
    fs.writeFileSync(join(root, 'real.txt'), 'needle\n');
    fs.writeFileSync(join(root, '.toolhost-0123456789ab.tmp'), 'needle\n');
    const runner = new ToolRunner({ platform: createNodePlatform({ root }), tools: BuiltinTools.all() });
    expect(value<{ files: string[] }>(await call(runner, 'find_file', { pattern: '*', dir_path: root })).files).toEqual([`${root}/real.txt`]);
    expect(value<{ total_matches: number }>(await call(runner, 'grep_search', { pattern: 'needle', dir_path: root })).total_matches).toBe(1);
  });
});

describe('non-UTF-8 names on Node', () => {
  it('escape losslessly as \\xNN and round-trip list → view → edit → find', async () => {
    const { root } = fresh('bytes');
    const raw = Buffer.concat([Buffer.from('caf'), Buffer.of(0xe9), Buffer.from('-\\x41.txt')]); // latin-1 é, a literal \x41
    fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/`), raw]), 'old text\n');
    const runner = new ToolRunner({ platform: createNodePlatform({ root }), tools: BuiltinTools.all() });
    const listed = value<{ entries: { name: string; type: string }[] }>(await call(runner, 'list_dir', { dir_path: root }));
    expect(listed.entries).toEqual([{ name: 'caf\\xe9-\\x5cx41.txt', type: 'file', size: 9 }]);
    const path = `${root}/${listed.entries[0]?.name}`;
    expect(value<{ content: string }>(await call(runner, 'view_file', { file_path: path })).content).toBe('old text');
    value(await call(runner, 'edit_file', { file_path: path, old_string: 'old', new_string: 'new' }));
    expect(fs.readFileSync(Buffer.concat([Buffer.from(`${root}/`), raw]), 'utf8')).toBe('new text\n');
    expect(value<{ files: string[] }>(await call(runner, 'find_file', { pattern: 'caf*', dir_path: root })).files).toEqual([path]);
    expect(value<{ matches: { file_path: string }[] }>(await call(runner, 'grep_search', { pattern: 'new', dir_path: root })).matches.map((m) => m.file_path)).toEqual([path]);
  });

  it('escapeBytes and unescapePath are inverses, and refuse escapes of / and NUL', () => {
    const samples = [Buffer.from('plain'), Buffer.from('ünï 😀'), Buffer.of(0xff, 0x5c, 0x78, 0x34, 0x31, 0xc3), Buffer.from('a\\xZZ\\x4')];
    for (const bytes of samples) {
      const back = unescapePath(escapeBytes(bytes));
      expect(Buffer.from(back).equals(bytes)).toBe(true);
    }
    expect(escapeBytes(Buffer.from('ünï'))).toBe('ünï');
    expect(() => unescapePath('/a\\x2fb')).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
    expect(() => unescapePath('/a\\x00b')).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
  });

  it('canonicalPath decodes every escape that spells valid UTF-8 and keeps \\xNN only for bytes that are not', () => {
    expect(canonicalPath('/w/\\x61.txt')).toBe('/w/a.txt');
    expect(canonicalPath('/w/\\x2e\\x2e/x')).toBe('/w/../x');
    expect(canonicalPath('/w/é\\xc3\\xa9.txt')).toBe('/w/éé.txt');
    expect(canonicalPath('/w/caf\\xE9\\x41')).toBe('/w/caf\\xe9A');
    expect(canonicalPath('/w/\\x5c.txt')).toBe('/w/\\.txt');
    expect(canonicalPath('/w/\\x5cx41.txt')).toBe('/w/\\x5cx41.txt');
    expect(canonicalPath('/w/a\\b\\xZZ')).toBe('/w/a\\b\\xZZ');
    expect(() => canonicalPath('/w/a\\x2fb')).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
  });

  it('gives every spelling of a name one path: stale_file holds through an escape, and results name the canonical path', async () => {
    const { root } = fresh('spellings');
    fs.writeFileSync(join(root, 'a.txt'), 'one\n');
    const runner = new ToolRunner({ platform: createNodePlatform({ root }), tools: BuiltinTools.all() });
    const viewed = value<{ file_path: string }>(await call(runner, 'view_file', { file_path: 'a.txt' }));
    expect(viewed.file_path).toBe(`${root}/a.txt`);
    fs.writeFileSync(join(root, 'a.txt'), 'two, changed outside\n');
    const stale = (await call(runner, 'create_file', { file_path: '\\x61.txt', content: 'three\n', overwrite: true })) as ToolCallFailure;
    expect([stale.code, stale.error]).toEqual([
      'stale_file',
      `${root}/a.txt has changed since you last viewed it; view_file it again, then retry so you do not overwrite those changes`,
    ]);
    expect(fs.readFileSync(join(root, 'a.txt'), 'utf8')).toBe('two, changed outside\n');

    expect(value<{ file_path: string }>(await call(runner, 'view_file', { file_path: '\\x61.txt' })).file_path).toBe(`${root}/a.txt`);
    expect(value<{ file_path: string }>(await call(runner, 'edit_file', { file_path: '\\x61.txt', old_string: 'two', new_string: 'four' })).file_path).toBe(`${root}/a.txt`);
    expect(value<{ file_path: string; created: boolean }>(await call(runner, 'create_file', { file_path: 'é\\xc3\\xa9.txt', content: 'hi' }))).toEqual({
      file_path: `${root}/éé.txt`,
      bytes_written: 2,
      created: true,
    });
    const again = (await call(runner, 'create_file', { file_path: 'é\\xc3\\xa9.txt', content: 'hi' })) as ToolCallFailure;
    expect(again.error).toBe(`${root}/éé.txt already exists; set overwrite to true to replace it, or use edit_file to change part of it`);
    expect(value<{ file_path: string }>(await call(runner, 'create_file', { file_path: 'bad\\xFFname.txt', content: 'x' })).file_path).toBe(`${root}/bad\\xffname.txt`);
    const up = (await call(runner, 'view_file', { file_path: '\\x2e\\x2e/x.txt' })) as ToolCallFailure;
    expect([up.code, up.error]).toEqual(['outside_workspace', `file_path "../x.txt" is outside the workspace; use a path inside ${root}`]);
    expect(value<{ entries: { name: string }[] }>(await call(runner, 'list_dir', { dir_path: '.' })).entries.map((e) => e.name)).toEqual([
      'a.txt',
      'bad\\xffname.txt',
      'éé.txt',
    ]);
    expect(fs.readFileSync(join(root, 'a.txt'), 'utf8')).toBe('four, changed outside\n');
  });
});
