// Folder listings kept beside a Node workspace's search index: a new platform (as a new process
// makes) lists only the folders changed since, and its answers are always those of a plain scan.
import { existsSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, realpath, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import { pauseRacyClockForTests } from '../src/fs/racy-clock.js';
import { ToolRunner } from '../src/runner.js';
import { searchSourceOf } from '../src/search/engine-source.js';
import { attachStoredSearchIndex } from '../src/search/index/attach.js';
import { crc32, serializeIndex } from '../src/search/index/format.js';
import { buildWorkspaceIndex, searchIndexOf } from '../src/search/index/workspace.js';
import { BuiltinTools } from '../src/tools/index.js';
import { seededRandom } from '../test/support/random.js';
import { createNodePlatform } from './platform.js';
import type { NodeSearchSource } from './search-fs.js';

const bases: string[] = [];
afterAll(async () => {
  for (const base of bases) await rm(base, { recursive: true, force: true });
});

/** A listings file's text without its seal (the last line: the CRC-32 of the text before it), checking the seal. */
function unsealed(text: string): string {
  const at = text.lastIndexOf('\n');
  expect(text.slice(at + 1)).toBe(crc32(new TextEncoder().encode(text.slice(0, at))).toString(16).padStart(8, '0'));
  return text.slice(0, at);
}

/** `text` sealed as a listings file is: what a forger of the user's own could write (see `unsealed`). */
function sealed(text: string): string {
  return `${text}\n${crc32(new TextEncoder().encode(text)).toString(16).padStart(8, '0')}`;
}

async function tempBase(): Promise<string> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-listings-')));
  bases.push(base);
  return base;
}

const SEARCHES: Array<[string, Record<string, unknown>]> = [
  ['grep_search', { pattern: 'needle', output_mode: 'files_with_matches' }],
  ['grep_search', { pattern: 'hay', output_mode: 'count' }],
  ['find_file', { pattern: '**/*.txt' }],
  ['list_dir', { dir_path: '.' }],
];

/** A platform over `root` with its index kept in `cacheDir` (no tree watch: as `toolhost call` makes it). */
function indexed(root: string, cacheDir: string): Platform {
  return createNodePlatform({ root, searchIndex: { cacheDir, watch: false } });
}

function sourceOf(platform: Platform): NodeSearchSource {
  return searchSourceOf(platform) as unknown as NodeSearchSource;
}

/** Every search of {@link SEARCHES} on `platform`, in order. */
async function answers(platform: Platform): Promise<unknown[]> {
  const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
  const out: unknown[] = [];
  for (const [tool, args] of SEARCHES) out.push(await runner.execute(tool, args));
  return out;
}

/** The answers of a platform with no index (nor listings) over `root`. */
async function scanned(root: string): Promise<unknown[]> {
  const plain = createNodePlatform({ root });
  try {
    return await answers(plain);
  } finally {
    await plain.dispose();
  }
}

/** Opens a platform with the index, waits for its index, runs the searches and disposes it (which saves the listings). */
async function session(root: string, cacheDir: string): Promise<{ answers: unknown[]; listedHere: number }> {
  const platform = indexed(root, cacheDir);
  try {
    const got = await answers(platform);
    return { answers: got, listedHere: sourceOf(platform).listedHere };
  } finally {
    await platform.dispose();
  }
}

async function makeTree(root: string, dirs: number, files: number): Promise<void> {
  for (let i = 0; i < files; i += 1) {
    const dir = join(root, `d${i % dirs}`, `e${Math.floor(i / dirs) % 2}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `f${i}.txt`), i % 3 === 0 ? 'a needle\nhay\n' : 'hay only\n');
  }
}

const listingsFiles = (cacheDir: string): string[] => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((name) => name.endsWith('.listings')) : []);

describe('folder listings kept beside the search index', () => {
  it('a new platform lists only the folders changed since the last one, with the same answers as a scan', async () => {
    const base = await tempBase();
    const root = join(base, 'ws');
    const cacheDir = join(base, 'cache');
    await makeTree(root, 3, 24);
    // Folders changed within a second of their listing are not trusted later (the racy rule): past it.
    pauseRacyClockForTests(2000);
    const folders = 1 + 3 + 6;
    const first = await session(root, cacheDir);
    expect(first.listedHere).toBeGreaterThanOrEqual(folders);
    expect(listingsFiles(cacheDir)).toHaveLength(1);
    expect(first.answers).toEqual(await scanned(root));

    const second = await session(root, cacheDir);
    expect(second.listedHere).toBe(0);
    expect(second.answers).toEqual(first.answers);

    // A file added behind toolhost's back moves its folder's times: that folder alone is listed again.
    await writeFile(join(root, 'd1', 'e0', 'new.txt'), 'one more needle\n');
    pauseRacyClockForTests(2000);
    const third = await session(root, cacheDir);
    expect(third.listedHere).toBe(1);
    expect(third.answers).toEqual(await scanned(root));
    expect(JSON.stringify(third.answers)).toContain('new.txt');

    // Removed, and the folder's mtime set back as rsync -t or tar would: its ctime still moved.
    const folder = join(root, 'd2', 'e1');
    const before = await stat(folder);
    await rm(join(folder, 'f5.txt'));
    await utimes(folder, before.atime, before.mtime);
    pauseRacyClockForTests(2000);
    const fourth = await session(root, cacheDir);
    expect(fourth.listedHere).toBe(1);
    expect(fourth.answers).toEqual(await scanned(root));
    expect(JSON.stringify(fourth.answers)).not.toContain('f5.txt');
  }, 60_000);

  it('a folder changed right before it was listed is not kept for the next platform', async () => {
    const base = await tempBase();
    const root = join(base, 'ws');
    const cacheDir = join(base, 'cache');
    await makeTree(root, 2, 8);
    // No pause: every folder was made within the last second, so none of their listings is trusted later.
    await session(root, cacheDir);
    const text = await readFile(join(cacheDir, listingsFiles(cacheDir)[0] as string), 'utf8');
    expect(JSON.parse(unsealed(text))).toEqual(['toolhost-listings-1', root]);
    const next = await session(root, cacheDir);
    expect(next.listedHere).toBeGreaterThanOrEqual(1 + 2 + 4);
  }, 60_000);

  it('a damaged, foreign or hostile listings file is ignored whole, and answers stay those of a scan', async () => {
    const base = await tempBase();
    const root = join(base, 'ws');
    const cacheDir = join(base, 'cache');
    await makeTree(root, 2, 10);
    pauseRacyClockForTests(2000);
    await session(root, cacheDir);
    const file = join(cacheDir, listingsFiles(cacheDir)[0] as string);
    const good = await readFile(file, 'utf8');
    const rows = JSON.parse(unsealed(good)) as unknown[];
    const folders = (rows.length - 2) / 6;
    expect(folders).toBe(1 + 2 + 4);
    const rootAt = rows.indexOf(root, 2);
    const hostile = (change: (copy: unknown[]) => void): string => {
      const copy = [...rows];
      change(copy);
      // Sealed anew, as a forger of the user's own could: the checks below still refuse it.
      return sealed(JSON.stringify(copy));
    };
    const damaged = [
      good.slice(0, Math.floor(good.length / 2)),
      sealed(good.slice(0, Math.floor(good.length / 2))),
      'not json at all',
      sealed('not json at all'),
      sealed(JSON.stringify({ format: 'toolhost-listings-1' })),
      // Unsealed, or sealed wrongly: the listings as written, without their last line or with another.
      unsealed(good),
      `${unsealed(good)}\n00000000`,
      hostile((copy) => (copy[0] = 'toolhost-listings-0')),
      hostile((copy) => (copy[1] = '/elsewhere')),
      // The root's listing claims a file that is not there, next to an entry named `..`.
      hostile((copy) => (copy[rootAt + 5] = `${copy[rootAt + 5] as string}f..//`)),
      // An entry of an unknown type, a listing whose last entry has no end, a path outside the root.
      hostile((copy) => (copy[rootAt + 5] = `x${copy[rootAt + 5] as string}`)),
      hostile((copy) => (copy[rootAt + 5] = `${copy[rootAt + 5] as string}fghost`)),
      hostile((copy) => (copy[rootAt] = '/')),
      // Paths inside the root only as written (not in normal form), and names that hold a `/` or NUL once unescaped.
      hostile((copy) => copy.push(`${root}/../outside`, 1, 1, 1, 1, 'fx/')),
      hostile((copy) => copy.push(`${root}//d0`, 1, 1, 1, 1, 'fx/')),
      hostile((copy) => copy.push(`${root}/d0/./e0`, 1, 1, 1, 1, 'fx/')),
      hostile((copy) => (copy[rootAt + 5] = `${copy[rootAt + 5] as string}fa\\x2fb/`)),
      hostile((copy) => (copy[rootAt + 5] = `${copy[rootAt + 5] as string}fa\u0000b/`)),
      // `..` and `.` by another spelling (no listing writes a dot escaped): the walk would leave the root.
      hostile((copy) => (copy[rootAt + 5] = `${copy[rootAt + 5] as string}d\\x2e\\x2e/`)),
      hostile((copy) => (copy[rootAt + 5] = `${copy[rootAt + 5] as string}d\\x2E/`)),
      // A UTF-8 name escaped (a listing writes it as it is), an entry listed twice, folder paths with an escaped `/` or NUL.
      hostile((copy) => (copy[rootAt + 5] = `${copy[rootAt + 5] as string}f\\xc3\\xa9.txt/`)),
      hostile((copy) => (copy[rootAt + 5] = `${copy[rootAt + 5] as string}fdup/fdup/`)),
      hostile((copy) => copy.push(`${root}/d0\\x2fe0`, 1, 1, 1, 1, 'fx/')),
      hostile((copy) => copy.push(`${root}/d0\\x00`, 1, 1, 1, 1, 'fx/')),
      hostile((copy) => copy.push(`${root}/d0/\\x2e\\x2e`, 1, 1, 1, 1, 'fx/')),
      // A folder listed twice.
      hostile((copy) => copy.push(...copy.slice(rootAt, rootAt + 6))),
      hostile((copy) => (copy[rootAt + 1] = 'inode')),
    ];
    const expected = await scanned(root);
    for (const text of damaged) {
      await writeFile(file, text);
      const got = await session(root, cacheDir);
      expect(got.listedHere, `${damaged.indexOf(text)}: ${text.slice(0, 60)}`).toBe(folders);
      expect(got.answers, text.slice(0, 60)).toEqual(expected);
    }
    // Not a regular file: a folder, a FIFO (a read would wait for a writer forever), a link to a device
    // that never ends; and a file of another user or one others may write. Each is ignored at once.
    const others: Array<[string, () => Promise<void>]> = [
      ['a folder', () => mkdir(file)],
      ['a FIFO', async () => void execFileSync('mkfifo', [file])],
      ['a link to /dev/zero', () => symlink('/dev/zero', file)],
      ['a link to a good copy', async () => (await writeFile(`${file}.copy`, good), await symlink(`${file}.copy`, file))],
      ['writable by others', async () => (await writeFile(file, good), await chmod(file, 0o666))],
    ];
    if (process.getuid?.() === 0) others.push(['owned by another user', async () => (await writeFile(file, good, { mode: 0o600 }), await chown(file, 65534, 65534))]);
    for (const [what, make] of others) {
      await rm(file, { recursive: true, force: true });
      await make();
      const got = await session(root, cacheDir);
      expect(got.listedHere, what).toBe(folders);
      expect(got.answers, what).toEqual(expected);
    }
    // The file saved is this user's alone (it names every folder's entries).
    await rm(file, { recursive: true, force: true });
    await session(root, cacheDir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(file.replace(/\.listings$/, '.thsi'))).mode & 0o777).toBe(0o600);
    expect((await session(root, cacheDir)).listedHere).toBe(0);
  }, 60_000);

  it('a listings file changed in place (a name edited, any byte flipped) is refused whole by its seal: no file is hidden', async () => {
    const base = await tempBase();
    const root = join(base, 'ws');
    const cacheDir = join(base, 'cache');
    await makeTree(root, 2, 10);
    pauseRacyClockForTests(2000);
    await session(root, cacheDir);
    const file = join(cacheDir, listingsFiles(cacheDir)[0] as string);
    const good = await readFile(file);
    const folders = 1 + 2 + 4;
    const expected = await scanned(root);
    // A file's name edited in its folder's listing (f0.txt to fz.txt): trusted, it would hide f0.txt.
    const text = good.toString('utf8');
    expect(text).toContain('ff0.txt/');
    await writeFile(file, text.replace('ff0.txt/', 'ffz.txt/'));
    let got = await session(root, cacheDir);
    expect(got.listedHere).toBe(folders);
    expect(got.answers).toEqual(expected);
    expect(JSON.stringify(got.answers)).toContain('f0.txt');
    // Single bytes flipped across the file (its seal included): each copy is refused whole.
    const random = seededRandom(20261207);
    for (let round = 0; round < 12; round += 1) {
      const copy = Buffer.from(good);
      const at = Math.floor(random() * copy.length);
      copy[at] = (copy[at] as number) ^ (1 << Math.floor(random() * 7));
      await writeFile(file, copy);
      got = await session(root, cacheDir);
      expect(got.listedHere, `byte ${at}`).toBe(folders);
      expect(got.answers, `byte ${at}`).toEqual(expected);
    }
    // The good file is trusted again: no folder listed.
    await writeFile(file, good);
    expect((await session(root, cacheDir)).listedHere).toBe(0);
  }, 60_000);

  it('keeps no listings when the cache folder lies inside the workspace (its tools could write them)', async () => {
    const base = await tempBase();
    const root = join(base, 'ws');
    const cacheDir = join(root, '.cache', 'index');
    await makeTree(root, 2, 8);
    pauseRacyClockForTests(2000);
    await session(root, cacheDir);
    expect(listingsFiles(cacheDir)).toEqual([]);
    const second = await session(root, cacheDir);
    expect(second.listedHere).toBeGreaterThanOrEqual(1 + 2 + 4);
    expect(second.answers).toEqual(await scanned(root));
  }, 60_000);

  it('drops the listings of folders removed since (and of everything kept below them) when it saves', async () => {
    const base = await tempBase();
    const root = join(base, 'ws');
    const cacheDir = join(base, 'cache');
    await makeTree(root, 3, 24);
    pauseRacyClockForTests(2000);
    await session(root, cacheDir);
    const file = join(cacheDir, listingsFiles(cacheDir)[0] as string);
    const paths = async (): Promise<string[]> => {
      const rows = JSON.parse(unsealed(await readFile(file, 'utf8'))) as unknown[];
      return rows.filter((_, i) => i >= 2 && (i - 2) % 6 === 0).map((path) => (path as string).slice(root.length)).sort();
    };
    expect(await paths()).toEqual(['', '/d0', '/d0/e0', '/d0/e1', '/d1', '/d1/e0', '/d1/e1', '/d2', '/d2/e0', '/d2/e1']);
    await rm(join(root, 'd1'), { recursive: true });
    await rename(join(root, 'd2', 'e0'), join(root, 'd2', 'moved'));
    pauseRacyClockForTests(2000);
    const after = await session(root, cacheDir);
    expect(after.answers).toEqual(await scanned(root));
    expect(await paths()).toEqual(['', '/d0', '/d0/e0', '/d0/e1', '/d2', '/d2/e1', '/d2/moved']);
  }, 60_000);

  it('over 40 rounds of outside changes to files and folders, each new platform answers as a scan does', async () => {
    const random = seededRandom(20261207);
    const base = await tempBase();
    const root = join(base, 'ws');
    const cacheDir = join(base, 'cache');
    await makeTree(root, 3, 18);
    let trusted = 0;
    for (let round = 0; round < 40; round += 1) {
      const dir = join(root, `d${Math.floor(random() * 4)}`, `e${Math.floor(random() * 3)}`);
      const name = `f${Math.floor(random() * 30)}.txt`;
      const roll = random();
      if (roll < 0.3) {
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, name), random() < 0.5 ? 'needle here\n' : 'hay\n');
      } else if (roll < 0.45) {
        await rm(join(dir, name), { force: true });
      } else if (roll < 0.55) {
        await rm(dir, { recursive: true, force: true });
      } else if (roll < 0.65) {
        await rename(dir, join(root, `d${Math.floor(random() * 4)}`, `moved${round}`)).catch(() => undefined);
      } else if (roll < 0.75) {
        // Changed, then given back its times (rsync -t, cp -p): the ctime still moves.
        const before = await stat(dir).catch(() => undefined);
        if (before) {
          await writeFile(join(dir, `t${round}.txt`), 'needle, set back\n');
          await utimes(dir, before.atime, before.mtime);
        }
      } else if (roll < 0.8) {
        await mkdir(dir, { recursive: true });
        await symlink('..', join(dir, `link${round}`)).catch(() => undefined);
      }
      if (random() < 0.6) pauseRacyClockForTests(1500);
      const got = await session(root, cacheDir);
      if (got.listedHere === 0) trusted += 1;
      expect(got.answers, `round ${round}`).toEqual(await scanned(root));
    }
    // Some rounds listed nothing at all (every folder was unchanged and settled): the listings were used.
    expect(trusted).toBeGreaterThan(0);
  }, 120_000);

  it('a search while the saved index is still being read walks the tree meanwhile, then sifts with the index', async () => {
    const base = await tempBase();
    const root = join(base, 'ws');
    await makeTree(root, 3, 24);
    pauseRacyClockForTests(2000);
    const builder = createNodePlatform({ root });
    let bytes: Uint8Array;
    try {
      bytes = serializeIndex(await buildWorkspaceIndex(builder), root);
    } finally {
      await builder.dispose();
    }
    const platform = createNodePlatform({ root });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const attached = attachStoredSearchIndex(platform, {
      read: async () => {
        await gate;
        return bytes;
      },
      write: async () => undefined,
    });
    try {
      const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
      const answer = runner.execute('grep_search', { pattern: 'needle', output_mode: 'count' });
      // The read has not returned: the walk lists all ten folders meanwhile (waited for up to 20 s).
      const source = sourceOf(platform);
      for (let waited = 0; source.listedHere < 10 && waited < 20_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(source.listedHere).toBe(10);
      expect(searchIndexOf(platform)).toBeUndefined();
      release();
      expect(await attached.ready).toEqual({ from: 'disk' });
      const plain = createNodePlatform({ root });
      try {
        expect(await answer).toEqual(await new ToolRunner({ platform: plain, tools: BuiltinTools.all() }).execute('grep_search', { pattern: 'needle', output_mode: 'count' }));
      } finally {
        await plain.dispose();
      }
      expect(searchIndexOf(platform)?.size).toBe(24);
    } finally {
      release();
      await attached.close();
      await platform.dispose();
    }
  }, 60_000);
});
