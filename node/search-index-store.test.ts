import { chmod, chown, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StoredIndex } from '../src/search/index/format.js';
import type { Platform } from '../src/core/types.js';
import { ToolRunner } from '../src/runner.js';
import { searchIndexIdle } from '../src/search/index/workspace.js';
import { setSearchIndex } from '../src/search/index/engine.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';
import { IndexFileWriter, openOrBuildSearchIndex, searchIndexFile } from './search-index-store.js';

const FILES: Record<string, string> = {
  'src/a.ts': 'export function alpha() {\n  return "Straße";\n}\n',
  'src/b.ts': 'import { alpha } from "./a";\nconst ПРИВЕТ = alpha();\n',
  'docs/readme.md': '# Alpha\r\nThe Kelvin sign \u212a.\r\n',
  'data.bin': '\u0000binary alpha\u0000',
  '.gitignore': 'ignored/\n',
  'ignored/x.txt': 'alpha ignored\n',
};
/** A minute ago, past the one-second racy window. */
const OLD = Math.floor(Date.now() / 1000) - 60;

let base: string;
let root: string;
let cacheDir: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-store-')));
  root = join(base, 'ws');
  cacheDir = join(base, 'cache');
  for (const [rel, text] of Object.entries(FILES)) {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), text);
    await utimes(join(root, rel), OLD, OLD);
  }
  // Their status-change times are now: let the one-second racy window pass, so the index trusts them.
  await new Promise((resolve) => setTimeout(resolve, 1100));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'alpha', output_mode: 'files_with_matches' },
  { pattern: 'alpha', case_sensitive: false, output_mode: 'count' },
  { pattern: 'привет', case_sensitive: false },
  { pattern: 'kelvin sign k', case_sensitive: false },
  { pattern: 'Stra(ß|ss)e', context_lines: 1 },
  { pattern: '\\w+', output_mode: 'count' },
];

async function answers(platform: Platform): Promise<unknown[]> {
  const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
  const out: unknown[] = [];
  for (const args of SEARCHES) out.push(await runner.execute('grep_search', args));
  return out;
}

describe('the search index kept on disk for a Node workspace', () => {
  it('is built and saved once, then read back (no rebuild) and answers as a plain scan does', async () => {
    const platform = createNodePlatform({ root });
    try {
      const first = await openOrBuildSearchIndex(platform, { cacheDir });
      expect(first.from).toBe('built');
      expect(first.index.paths().map((p) => p.slice(root.length)).sort()).toEqual(['/.gitignore', '/data.bin', '/docs/readme.md', '/src/a.ts', '/src/b.ts']);
      const again = await openOrBuildSearchIndex(platform, { cacheDir });
      expect(again).toMatchObject({ from: 'disk' });
      expect(again.index.paths().sort()).toEqual(first.index.paths().sort());
      const plain = await answers({ ...platform });
      setSearchIndex(platform, again.index);
      expect(await answers(platform)).toEqual(plain);
    } finally {
      await platform.dispose();
    }
  });

  it("is named by its root's FNV-1a 128-bit hash, and saving it removes the file an earlier version named by SHA-256", async () => {
    // FNV-1a (128 bits) of "a", the published test vector, as the name of a root "a".
    expect(searchIndexFile('a', '/cache')).toBe('/cache/d228cb696f1a8caf78912b704e4a8964.thsi');
    expect(searchIndexFile(`${root}2`, cacheDir)).not.toBe(searchIndexFile(root, cacheDir));
    const dir = join(base, 'cache-upgraded');
    await mkdir(dir, { recursive: true });
    const earlier = join(dir, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.thsi`);
    await writeFile(earlier, 'an index saved by an earlier version');
    const platform = createNodePlatform({ root });
    try {
      expect((await openOrBuildSearchIndex(platform, { cacheDir: dir })).from).toBe('built');
    } finally {
      await platform.dispose();
    }
    // Removed beside the save (not waited for by it): up to 10 s.
    for (const end = Date.now() + 10_000; existsSync(earlier) && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(earlier)).toBe(false);
    expect(await readdir(dir)).toEqual([searchIndexFile(root, dir).slice(dir.length + 1)]);
  });

  it('never reads a saved index that is not a regular file of this user alone: a FIFO (never waited on), a link, another user\'s, one others may write; it is rebuilt in its place', async () => {
    const dir = join(base, 'cache-odd');
    await mkdir(dir, { recursive: true });
    const file = searchIndexFile(root, dir);
    const platform = createNodePlatform({ root });
    try {
      const good = await openOrBuildSearchIndex(platform, { cacheDir: dir });
      expect(good.from).toBe('built');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const bytes = await readFile(file);
      const odd: Array<[string, () => Promise<unknown>]> = [
        ['a FIFO', async () => execFileSync('mkfifo', [file])],
        ['a link to a good copy', async () => (await writeFile(`${file}.copy`, bytes), await symlink(`${file}.copy`, file))],
        ['writable by others', async () => (await writeFile(file, bytes), await chmod(file, 0o664))],
      ];
      if (process.getuid?.() === 0) odd.push(['owned by another user', async () => (await writeFile(file, bytes, { mode: 0o600 }), await chown(file, 65534, 65534))]);
      for (const [what, make] of odd) {
        await rm(file, { force: true });
        await make();
        const again = await openOrBuildSearchIndex(platform, { cacheDir: dir });
        expect(again.from, what).toBe('built');
        expect(again.rejected, what).toMatch(/^unreadable \(/);
        expect((await stat(file)).isFile(), what).toBe(true);
        expect((await openOrBuildSearchIndex(platform, { cacheDir: dir })).from, what).toBe('disk');
      }
    } finally {
      await platform.dispose();
    }
  });

  it('refuses a file of this user that is not an index by its header, before reading the rest: rebuilt, with no advice to raise the size budget', async () => {
    const dir = join(base, 'cache-junk');
    await mkdir(dir, { recursive: true });
    const file = searchIndexFile(root, dir);
    // 300 MiB of zeros (sparse), past the default 256 MiB budget: were it read whole, it would be refused as over the budget.
    await writeFile(file, '', { mode: 0o600 });
    await truncate(file, 300 * 2 ** 20);
    const platform = createNodePlatform({ root, searchIndex: { cacheDir: dir, watch: false } });
    const scan = createNodePlatform({ root });
    try {
      expect(await answers(platform)).toEqual(await answers(scan));
      await searchIndexIdle(platform);
      for (const end = Date.now() + 30_000; platform.capabilities.searchIndex?.state === 'building' && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(platform.capabilities.searchIndex).toEqual({ state: 'ready' });
    } finally {
      await platform.dispose();
      await scan.dispose();
    }
    expect((await stat(file)).size).toBeLessThan(2 ** 20);
  });

  it('scans a file changed while no process ran (its identity differs from the stored one) and finds the new text', async () => {
    const platform = createNodePlatform({ root });
    try {
      await openOrBuildSearchIndex(platform, { cacheDir });
      await writeFile(join(root, 'src/b.ts'), 'const omega = 1;\n');
      const { index, from } = await openOrBuildSearchIndex(platform, { cacheDir });
      expect(from).toBe('disk');
      setSearchIndex(platform, index);
      const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
      expect(await runner.execute('grep_search', { pattern: 'omega', output_mode: 'files_with_matches' })).toMatchObject({ files: [join(root, 'src/b.ts')], files_searched: 4, binary_files_skipped: 1 });
      await searchIndexIdle(platform);
      expect(index.file(join(root, 'src/b.ts'))?.stat.size).toBe(17);
    } finally {
      await platform.dispose();
    }
  });

  it('rejects a truncated file, one of an older format, or one with corrupt tables when it opens it, says why, and rebuilds it', async () => {
    const platform = createNodePlatform({ root });
    try {
      await openOrBuildSearchIndex(platform, { cacheDir });
      const file = searchIndexFile(root, cacheDir);
      const size = (await readFile(file)).length;
      await truncate(file, size - 3);
      const truncated = await openOrBuildSearchIndex(platform, { cacheDir });
      expect(truncated.from).toBe('built');
      expect(truncated.rejected).toMatch(/truncated or extended/);
      // An index saved by a toolhost that wrote format 1.
      const older = await readFile(file);
      older.writeUInt32LE(1, 8);
      await writeFile(file, older);
      const rebuilt = await openOrBuildSearchIndex(platform, { cacheDir });
      expect(rebuilt).toMatchObject({ from: 'built', rejected: 'search index format 1, expected 2' });
      // A bit flipped in the tables (here in the workspace root's bytes).
      const bytes = await readFile(file);
      bytes[24 + 40] = (bytes[24 + 40] as number) ^ 0x40;
      await writeFile(file, bytes);
      const corrupt = await openOrBuildSearchIndex(platform, { cacheDir });
      expect(corrupt.from).toBe('built');
      expect(corrupt.rejected).toMatch(/checksum mismatch/);
      expect((await openOrBuildSearchIndex(platform, { cacheDir })).from).toBe('disk');
    } finally {
      await platform.dispose();
    }
  });

  it('never uses corrupt postings: searches answer as a scan does, and the file is removed so that the next open rebuilds it', async () => {
    const platform = createNodePlatform({ root });
    try {
      await openOrBuildSearchIndex(platform, { cacheDir });
      const file = searchIndexFile(root, cacheDir);
      const bytes = await readFile(file);
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0x40;
      await writeFile(file, bytes);
      const opened = await openOrBuildSearchIndex(platform, { cacheDir });
      // Only the tables are checked when it opens: the postings are checked as searches read them.
      expect(opened.from).toBe('disk');
      const plain = await answers({ ...platform });
      setSearchIndex(platform, opened.index);
      expect(await answers(platform)).toEqual(plain);
      expect((opened.index as StoredIndex).corrupt?.message).toMatch(/checksum mismatch \(corrupt postings, block 0\)/);
      await vi.waitFor(() => expect(existsSync(file)).toBe(false));
      expect(await openOrBuildSearchIndex(platform, { cacheDir })).toMatchObject({ from: 'built' });
      expect((await openOrBuildSearchIndex(platform, { cacheDir })).from).toBe('disk');
    } finally {
      await platform.dispose();
    }
  });
});

describe('IndexFileWriter', () => {
  it('writes the lists as they come, then the tables and the rest of the lists, and renames the file into place; abandoned, it leaves nothing, not the file it replaces either', async () => {
    const dir = join(base, 'writer');
    const tables = Uint8Array.from({ length: 40 }, (_, i) => i + 1);
    const postings = Uint8Array.from({ length: 100 }, (_, i) => 200 - i);
    const writer = new IndexFileWriter('/some/root', dir);
    writer.at(postings.subarray(0, 30), tables.length);
    writer.at(postings.subarray(30, 70), tables.length + 30);
    await writer.finish(tables, postings, 70);
    expect(new Uint8Array(await readFile(searchIndexFile('/some/root', dir)))).toEqual(Uint8Array.from([...tables, ...postings]));
    // Lists written at another place (a size that turned out other) are all written again, the file cut to its length.
    const again = new IndexFileWriter('/some/root', dir);
    again.at(postings, tables.length + 50);
    await again.finish(tables, postings, 0);
    expect(new Uint8Array(await readFile(searchIndexFile('/some/root', dir)))).toEqual(Uint8Array.from([...tables, ...postings]));
    // Written at a wrong place while the tables are not known yet, then again at the right one as the
    // file ends: the earlier writes end first (two writes of the same bytes in flight land in either order).
    const big = Uint8Array.from({ length: 4 * 2 ** 20 }, (_, i) => (i * 7) & 0xff);
    for (let round = 0; round < 8; round += 1) {
      const wrong = new IndexFileWriter('/some/root', dir);
      for (let at = 0; at < big.length; at += 2 ** 20) wrong.at(new Uint8Array(2 ** 20).fill(0xee), tables.length + 17 + at);
      await wrong.finish(tables, big, 0);
      const got = new Uint8Array(await readFile(searchIndexFile('/some/root', dir)));
      expect(got.length).toBe(tables.length + big.length);
      expect(Buffer.compare(got, Uint8Array.from([...tables, ...big])), `round ${round}`).toBe(0);
    }
    const dropped = new IndexFileWriter('/other/root', dir);
    dropped.at(postings, 0);
    await dropped.abandon();
    expect(await readdir(dir)).toEqual([searchIndexFile('/some/root', dir).split('/').pop()]);
    // The file a writer replaces is removed as it starts (it is written because that one could not be used).
    await new IndexFileWriter('/some/root', dir).abandon();
    expect(await readdir(dir)).toEqual([]);
  });
});
