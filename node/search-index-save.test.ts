import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspaceIndex, searchIndexStatus } from '../src/search/index/workspace.js';
import { ToolRunner } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';
import { saveAdvice } from './search-index-save.js';
import { fileIndexStorage, IndexFileWriter, saveSearchIndex, searchIndexFile } from './search-index-store.js';

// Around the save of a search index file: the temporaries that writers killed mid-write left in the
// cache folder, and the advice given when the file cannot be saved.
let base: string;
let root: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-save-')));
  root = join(base, 'ws');
  await mkdir(join(root, 'd'), { recursive: true });
  await writeFile(join(root, 'a.txt'), 'alpha\n');
  await writeFile(join(root, 'd', 'b.txt'), 'beta alpha\n');
});
afterAll(async () => {
  for (const child of children) child.kill();
  await rm(base, { recursive: true, force: true });
});

let count = 0;
async function freshDir(name: string): Promise<string> {
  const dir = join(base, `${name}-${(count += 1)}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

/** The pid of a process that stays alive until the tests end. */
function livePid(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid as number;
}

const HOUR = 60 * 60 * 1000;
const isRoot = process.getuid?.() === 0;

/**
 * Plants, beside `file` in its folder, the temporaries of each kind; resolves with the names that a
 * save of `file` must remove and those it must keep (every other name of the folder is kept too).
 */
async function plantTemporaries(file: string): Promise<{ removed: string[]; kept: string[]; link: string; target: string }> {
  const dir = join(file, '..');
  await mkdir(dir, { recursive: true });
  const dead = await deadPid();
  const live = livePid();
  const now = Date.now();
  const regular = async (name: string, mtime?: number): Promise<string> => {
    await writeFile(join(dir, name), 'part of an index\n', { mode: 0o600 });
    if (mtime !== undefined) await utimes(join(dir, name), mtime / 1000, mtime / 1000);
    return name;
  };
  const own = basename(file);
  const removed = [
    await regular(`${own}.${dead}.${now - 5000}.tmp`), // its writer is gone
    await regular(`${own}.${live}.${now - 2 * HOUR}.tmp`, now - 2 * HOUR), // its writer runs, but wrote nothing for two hours
    await regular(`${own}.${process.pid}.${now - 3 * HOUR}.tmp`, now - 3 * HOUR), // this process's, three hours old
  ];
  const kept = [
    await regular(`${own}.${process.pid}.${now}.tmp`), // this process's, recent
    await regular(`${own}.${live}.${now}.tmp`), // a running writer's, recent
    await regular(`${'0'.repeat(32)}.thsi.${dead}.${now}.tmp`), // another index's
    await regular(`${own}.extra.${dead}.${now}.tmp`), // another name that starts with this one
    await regular(`${own}.${dead}.tmp`), // not of the shape a writer gives
  ];
  // Not regular files: a link (to a file that must survive) and a folder.
  const target = join(base, `target-${(count += 1)}`);
  await writeFile(target, 'not to be removed\n');
  await symlink(target, join(dir, `${own}.${dead}.${now + 1}.tmp`));
  await mkdir(join(dir, `${own}.${dead}.${now + 2}.tmp`));
  kept.push(`${own}.${dead}.${now + 1}.tmp`, `${own}.${dead}.${now + 2}.tmp`);
  if (isRoot) {
    // Another user's (only root can make one here).
    const theirs = await regular(`${own}.${dead}.${now + 3}.tmp`, now - 2 * HOUR);
    await chown(join(dir, theirs), 12345, 12345);
    kept.push(theirs);
  }
  return { removed, kept, link: join(dir, `${own}.${dead}.${now + 1}.tmp`), target };
}

describe('temporaries left in the search index cache folder by writers that were killed', () => {
  it("are removed when an index is saved: a gone writer's, an hour-old one; never a running writer's recent one, another name's, a link, a folder, another user's", async () => {
    const cacheDir = await freshDir('sweep');
    const platform = createNodePlatform({ root });
    const file = searchIndexFile(root, cacheDir);
    const { removed, kept, link, target } = await plantTemporaries(file);
    await saveSearchIndex(platform, await buildWorkspaceIndex(platform), cacheDir);
    const left = await readdir(cacheDir);
    expect(left.filter((name) => removed.includes(name))).toEqual([]);
    expect(left.sort()).toEqual([basename(file), ...kept].sort());
    // The link was removed neither as a link nor through it.
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('not to be removed\n');
    await platform.dispose();
  });

  it('are removed by the build thread\'s writer once it renames its file into place, never its own temporary', async () => {
    const cacheDir = await freshDir('writer');
    const file = searchIndexFile('/some/root', cacheDir);
    const { removed, kept } = await plantTemporaries(file);
    const writer = new IndexFileWriter('/some/root', cacheDir);
    await writer.finish(new Uint8Array([1, 2, 3]), new Uint8Array([4, 5]), 0);
    const left = await readdir(cacheDir);
    expect(left.filter((name) => removed.includes(name))).toEqual([]);
    expect(left.sort()).toEqual([basename(file), ...kept].sort());
  });

  it('are removed as soon as a build thread\'s writer starts, before its own file is written (each is as large as an index)', async () => {
    const cacheDir = await freshDir('writer-start');
    const file = searchIndexFile('/some/root', cacheDir);
    const { removed } = await plantTemporaries(file);
    const writer = new IndexFileWriter('/some/root', cacheDir);
    try {
      // Nothing is finished or abandoned yet: the sweep runs on its own (waited for up to 20 s).
      for (let waited = 0; waited < 20_000; waited += 10) {
        if ((await readdir(cacheDir)).filter((name) => removed.includes(name)).length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((await readdir(cacheDir)).filter((name) => removed.includes(name))).toEqual([]);
    } finally {
      await writer.abandon();
    }
  });

  it('of the listings file are removed when the listings are saved', async () => {
    const cacheDir = await freshDir('listings');
    const listings = searchIndexFile(root, cacheDir).replace(/\.thsi$/, '.listings');
    const { removed, kept } = await plantTemporaries(listings);
    const platform = createNodePlatform({ root, searchIndex: { cacheDir, watch: false } });
    await new ToolRunner({ platform, tools: BuiltinTools.all() }).execute('grep_search', { pattern: 'alpha' });
    await platform.dispose();
    const left = await readdir(cacheDir);
    expect(left).toContain(basename(listings));
    expect(left.filter((name) => removed.includes(name))).toEqual([]);
    for (const name of kept) expect(left).toContain(name);
  });
});

/** Makes a FIFO at `path`. */
function mkfifo(path: string): void {
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${made.stderr}`);
}

describe('what the user is told when the search index cannot be saved', () => {
  it.runIf(process.platform === 'linux')('a FIFO on the cache folder\'s path: the build thread\'s writer fails with the real cause (not that of removing a temporary it never made), and the advice names the FIFO', async () => {
    const dir = await freshDir('fifo');
    const fifo = join(dir, 'cache');
    mkfifo(fifo);
    const writer = new IndexFileWriter('/some/root', join(fifo, 'toolhost', 'search-index'));
    const failed = await writer.finish(new Uint8Array([1]), new Uint8Array([2]), 0).then(
      () => undefined,
      (error: unknown) => error as Error & { advice?: string },
    );
    expect(failed?.message).toBe(`ENOTDIR: not a directory, stat '${fifo}/toolhost/search-index'`);
    expect(failed?.advice).toBe(`${fifo} is a FIFO (named pipe), not a folder: remove it, or set XDG_CACHE_HOME (or the searchIndex cacheDir option) to a folder of your own`);
  });

  it('a file on the cache folder\'s path: the save fails with the real cause, and the note says to remove that file (not to make a folder writable)', async () => {
    const dir = await freshDir('file');
    const blocker = join(dir, 'cache');
    await writeFile(blocker, 'not a folder\n');
    const cacheDir = join(blocker, 'toolhost', 'search-index');
    await expect(fileIndexStorage(root, cacheDir).write(new Uint8Array([1, 2]))).rejects.toMatchObject({
      code: 'ENOTDIR',
      message: `ENOTDIR: not a directory, stat '${cacheDir}'`,
      advice: `${blocker} is a regular file, not a folder: remove it, or set XDG_CACHE_HOME (or the searchIndex cacheDir option) to a folder of your own`,
    });
    // Through a platform's index (built here, from the sources, on this thread), as the note says it.
    const platform = createNodePlatform({ root, searchIndex: { cacheDir, watch: false } });
    await new ToolRunner({ platform, tools: BuiltinTools.all() }).execute('grep_search', { pattern: 'alpha' });
    await platform.dispose();
    expect(searchIndexStatus(platform)).toMatchObject({
      note: `search index in use, but it could not be saved (ENOTDIR: not a directory, stat '${cacheDir}'): the next start builds it again; ${blocker} is a regular file, not a folder: remove it, or set XDG_CACHE_HOME (or the searchIndex cacheDir option) to a folder of your own`,
    });
  });

  it('a directory at the index file\'s own name: says to remove it', async () => {
    const cacheDir = await freshDir('dir-at-name');
    const file = searchIndexFile(root, cacheDir);
    await mkdir(join(file, 'inside'), { recursive: true });
    await expect(fileIndexStorage(root, cacheDir).write(new Uint8Array([1]))).rejects.toMatchObject({
      advice: `${file} is a directory, where the file should be: remove it, or set XDG_CACHE_HOME (or the searchIndex cacheDir option) to a folder of your own`,
    });
  });

  it.runIf(isRoot)(
    "another user's file at the index's name in a shared sticky folder: says whose it is and to keep the cache in a folder of one's own, not to make the folder writable (needs root: the file is made another user's with chown)",
    async () => {
      const shared = await freshDir('sticky');
      await chmod(shared, 0o1777);
      const file = searchIndexFile(root, shared);
      await writeFile(file, "another user's index\n", { mode: 0o600 });
      await chown(file, 12345, 12345);
      // What a rename over it by this user (were it not root, whom the sticky bit does not stop) fails with.
      const refused = Object.assign(new Error(`EPERM: operation not permitted, rename '${file}.1.2.tmp' -> '${file}'`), { code: 'EPERM' });
      expect(saveAdvice(file, refused)).toBe(
        `the file ${file} belongs to another user (uid 12345) in a shared folder, where it cannot be replaced: set XDG_CACHE_HOME (or the searchIndex cacheDir option) to a folder of your own`,
      );
      // The same file in a folder that is not shared (no sticky bit): its folder is what to make writable.
      await chmod(shared, 0o755);
      expect(saveAdvice(file, refused)).toBe(`make its folder ${shared} writable, or set XDG_CACHE_HOME (or the searchIndex cacheDir option) to a folder of your own`);
    },
  );

  it('a folder that cannot be made: says which folder to make writable', () => {
    const missing = join(base, 'no-such', 'toolhost', 'search-index');
    const refused = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    expect(saveAdvice(join(missing, 'x.thsi'), refused)).toBe(
      `the folder ${missing} could not be made: make ${base} writable, or set XDG_CACHE_HOME (or the searchIndex cacheDir option) to a folder of your own`,
    );
  });
});
