import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { FsDirent, FsPromises, Platform } from '../src/core/types.js';
import type { SearchSource } from '../src/search/source-port.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { findFileTool } from '../src/tools/find-file.js';
import { grepSearchTool } from '../src/tools/grep-search.js';
import { listDirTool } from '../src/tools/list-dir.js';
import { searchDirTool } from '../src/tools/search-dir.js';
import { createNodePlatform } from '../node/platform.js';
import { searchSourceOf } from '../src/search/engine-source.js';
import { createSearchEngine } from '../src/search/engine.js';

const W = '/workspace';
const LONG = 'n'.repeat(300);
const tools = [findFileTool, grepSearchTool, listDirTool, searchDirTool];

const TAIL =
  'their contents are not in this result: shorten (rename or move) a path that is too long, make an unreadable one readable, and call again for one that was removed.';

function dir(name: string): FsDirent {
  return { name, isFile: () => false, isDirectory: () => true, isSymbolicLink: () => false };
}

/**
 * A search source answering as `source` does but for `overrides`. Delegating each member (not
 * spreading `source`): the Node source is a class, whose methods are not own properties.
 */
function withSource(source: SearchSource, overrides: Partial<SearchSource>): SearchSource {
  return {
    readdir: (path) => source.readdir(path),
    stat: (path) => source.stat(path),
    read: (path, maxBytes, into) => source.read(path, maxBytes, into),
    indexOf: (haystack, needle, from) => source.indexOf(haystack, needle, from),
    isUtf8: (bytes) => source.isUtf8(bytes),
    decode: (bytes) => source.decode(bytes),
    close: () => source.close?.(),
    ...(source.cacheBytes === undefined ? {} : { cacheBytes: source.cacheBytes }),
    ...(source.helper === undefined ? {} : { helper: source.helper }),
    ...overrides,
  };
}

/**
 * The memory platform with a filesystem (and search source) whose listing of the root names two
 * directories that cannot be read: one whose name is over NAME_MAX (the memory filesystem answers ENAMETOOLONG for it) and one
 * that is gone (ENOENT), as an entry removed between the listing and its read is.
 */
function platformWithBadEntries(): Platform {
  const platform = createMemoryPlatform({ files: { 'a.txt': 'hit\n', 'sub/b.txt': 'hit\n' } });
  const real = platform.fs;
  const readdir = (async (path: string, options?: { withFileTypes: true }) => {
    const listed = (await real.readdir(path, options as { withFileTypes: true })) as Array<FsDirent | string>;
    if (path !== W) return listed;
    return options?.withFileTypes ? [...listed, dir(LONG), dir('gone')] : [...listed, LONG, 'gone'];
  }) as FsPromises['readdir'];
  const source = searchSourceOf(platform) as SearchSource;
  const searchSource: SearchSource = withSource(source, {
    readdir: (path) => (path === W ? [...source.readdir(path), dir(LONG), dir('gone')] : source.readdir(path)),
  });
  return { ...platform, fs: { ...real, readdir } as FsPromises, search: createSearchEngine({ source: searchSource }) };
}

async function call(runner: ToolRunner, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const [outcome] = await runner.processToolCalls([{ name, args }], { timeoutMs: 10_000 });
  return (outcome as { result: Record<string, unknown> }).result;
}

describe('walks that meet entries they cannot read (memory platform)', () => {
  const note =
    `2 entries could not be read and were skipped (1 name or path too long (ENAMETOOLONG), 1 removed or replaced while the call ran (ENOENT, ENOTDIR)), the first ${W}/gone; ` +
    TAIL;

  it('find_file lists every other file and counts the two entries', async () => {
    const runner = new ToolRunner({ platform: platformWithBadEntries(), tools });
    expect(await call(runner, 'find_file', { pattern: '*.txt' })).toEqual({
      files: [`${W}/a.txt`, `${W}/sub/b.txt`],
      total: 2,
      truncated: false,
      skipped_entries: 2,
      note,
    });
  });

  it('grep_search and search_dir search every other file and count the two entries', async () => {
    const runner = new ToolRunner({ platform: platformWithBadEntries(), tools });
    const grep = await call(runner, 'grep_search', { pattern: 'hit', output_mode: 'files_with_matches' });
    expect(grep).toEqual({
      files: [`${W}/a.txt`, `${W}/sub/b.txt`],
      total_files: 2,
      total_matches: 2,
      truncated: false,
      files_searched: 2,
      binary_files_skipped: 0,
      skipped_entries: 2,
      note,
    });
    const search = await call(runner, 'search_dir', { query: 'hit' });
    expect([search.skipped_entries, search.note, search.total_matches]).toEqual([2, note, 2]);
  });

  it('list_dir shows the readable entries and counts the two it could not stat', async () => {
    const runner = new ToolRunner({ platform: platformWithBadEntries(), tools });
    const listed = await call(runner, 'list_dir', { dir_path: W });
    expect(listed).toEqual({
      dir_path: W,
      entries: [
        { name: 'a.txt', type: 'file', size: 4 },
        { name: 'sub', type: 'directory', size: 4096 },
      ],
      truncated: false,
      skipped_entries: 2,
      note: `2 entries could not be read and were skipped (1 name or path too long (ENAMETOOLONG), 1 removed or replaced while the call ran (ENOENT, ENOTDIR)), the first ${W}/gone; ${TAIL}`,
    });
  });

  it('a path grown past PATH_MAX by a rename is skipped, the rest found', async () => {
    const platform = createMemoryPlatform({ files: { 'top.txt': 'hit\n' } });
    const part = 'p'.repeat(250);
    // 15 levels of 251 characters: about 3,765, under the 4,096 the filesystem takes.
    const chain = Array.from({ length: 15 }, () => part).join('/');
    await platform.fs.mkdir(`${W}/x/${chain}`, { recursive: true });
    await platform.fs.mkdir(`${W}/y/${chain}`, { recursive: true });
    // Moving y inside x's deepest folder makes y's own deep folders longer than PATH_MAX.
    await platform.fs.rename(`${W}/y`, `${W}/x/${chain}/y`);
    const runner = new ToolRunner({ platform, tools });
    const found = await call(runner, 'find_file', { pattern: '*.txt' });
    expect(found.files).toEqual([`${W}/top.txt`]);
    expect(found.skipped_entries).toBe(1);
    expect(found.note).toMatch(/^1 entry could not be read and was skipped \(1 name or path too long \(ENAMETOOLONG\)\), the first \/workspace\/x\/p+… \(\d+ more characters\); their contents/);
  });
});

describe('walks that meet entries they cannot read (Node platform, real folder)', () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-skip-')));
  afterAll(() => void execFileSync('rm', ['-rf', base]));

  it('a folder removed and one swapped for a symlink after the listing are skipped and counted', async () => {
    const root = join(base, 'tree');
    for (const name of ['a', 'gone', 'swapped']) {
      mkdirSync(join(root, name), { recursive: true });
      writeFileSync(join(root, name, 'f.txt'), 'hit\n');
    }
    const platform = createNodePlatform({ root });
    const source = searchSourceOf(platform) as SearchSource;
    // The listing of the root is taken, then two of its folders change before the walk reads them.
    const wrapped: SearchSource = withSource(source, {
      readdir(path) {
        const listed = source.readdir(path);
        if (path === root) {
          rmSync(join(root, 'gone'), { recursive: true });
          renameSync(join(root, 'swapped'), join(root, 'moved'));
          symlinkSync('a', join(root, 'swapped'));
        }
        return listed;
      },
    });
    const runner = new ToolRunner({ platform: { ...platform, search: createSearchEngine({ source: wrapped }) }, tools });
    const found = await call(runner, 'find_file', { pattern: '*.txt' });
    const skippedNote = (first: string) =>
      `2 entries could not be read and were skipped (2 removed or replaced while the call ran (ENOENT, ENOTDIR)), the first ${first}; ${TAIL}`;
    expect(found).toEqual({ files: [join(root, 'a/f.txt')], total: 1, truncated: false, skipped_entries: 2, note: skippedNote(join(root, 'swapped')) });
    await platform.dispose();
  });

  it('grep_search counts a folder removed after the listing and searches the rest', async () => {
    const root = join(base, 'grep');
    for (const name of ['a', 'b', 'gone']) {
      mkdirSync(join(root, name), { recursive: true });
      writeFileSync(join(root, name, 'f.txt'), 'hit\n');
    }
    const platform = createNodePlatform({ root });
    const source = searchSourceOf(platform) as SearchSource;
    const wrapped: SearchSource = withSource(source, {
      readdir(path) {
        const listed = source.readdir(path);
        if (path === root) rmSync(join(root, 'gone'), { recursive: true });
        return listed;
      },
    });
    const runner = new ToolRunner({ platform: { ...platform, search: createSearchEngine({ source: wrapped }) }, tools });
    const grep = await call(runner, 'grep_search', { pattern: 'hit', output_mode: 'count' });
    expect(grep).toEqual({
      counts: [
        { file_path: join(root, 'a/f.txt'), count: 1 },
        { file_path: join(root, 'b/f.txt'), count: 1 },
      ],
      total_files: 2,
      total_matches: 2,
      truncated: false,
      files_searched: 2,
      binary_files_skipped: 0,
      skipped_entries: 1,
      note: `1 entry could not be read and was skipped (1 removed or replaced while the call ran (ENOENT, ENOTDIR)), the first ${join(root, 'gone')}; ${TAIL}`,
    });
    await platform.dispose();
  });

  it('grep_search counts a file made unreadable or replaced by a symlink after the listing, on one thread and shared with the helper', async () => {
    for (const files of [3, 300]) {
      const root = join(base, `files-${files}`);
      mkdirSync(root, { recursive: true });
      for (let i = 0; i < files; i += 1) writeFileSync(join(root, `f${String(i).padStart(3, '0')}.txt`), 'hit\n');
      const platform = createNodePlatform({ root });
      const source = searchSourceOf(platform) as SearchSource;
      const linked = join(root, 'f001.txt');
      const locked = join(root, 'f002.txt');
      const wrapped: SearchSource = withSource(source, {
        readdir(path) {
          const listed = source.readdir(path);
          // Listed as a regular file, then a symlink by the time it is read (ELOOP: never followed).
          rmSync(linked);
          symlinkSync('f000.txt', linked);
          return listed;
        },
        read(path, maxBytes, into) {
          // This process may read anything (tests run as root too), so EACCES is the source's answer here.
          if (path === locked) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
          return source.read(path, maxBytes, into);
        },
      });
      const runner = new ToolRunner({ platform: { ...platform, search: createSearchEngine({ source: wrapped }) }, tools });
      const grep = await call(runner, 'grep_search', { pattern: 'hit', output_mode: 'count', max_results: 1 });
      // With 300 files the helper thread reads about half of them through its own descriptors: the
      // symlink is met there or here, EACCES (this thread's wrapper) only when this thread reads it.
      const helperMayRead = files >= 256;
      expect(grep.total_matches, `${files} files`).toBe(files - (helperMayRead ? (grep.skipped_entries === 2 ? 2 : 1) : 2));
      expect(grep.files_searched).toBe(grep.total_matches);
      expect(grep.skipped_entries, `${files} files`).toBe(files - (grep.total_matches as number));
      expect(grep.note).toContain('1 replaced by a symbolic link (ELOOP)');
      if (!helperMayRead) {
        expect(grep.note).toBe(
          `2 entries could not be read and were skipped (1 permission denied (EACCES), 1 replaced by a symbolic link (ELOOP)), the first ${linked}; ${TAIL}`,
        );
      }
      await platform.dispose();
    }
  });

  it('a search whose platform is disposed while it runs answers unavailable, not a partial result', async () => {
    const root = join(base, 'disposed');
    for (const name of ['a', 'b', 'c']) {
      mkdirSync(join(root, name), { recursive: true });
      writeFileSync(join(root, name, 'f.txt'), 'hit\n');
    }
    for (const mode of ['count', 'files_with_matches', 'content']) {
      const platform = createNodePlatform({ root });
      const source = searchSourceOf(platform) as SearchSource;
      const wrapped: SearchSource = withSource(source, {
        readdir(path) {
          const listed = source.readdir(path);
          // What platform.dispose() does to the source while the walk is under way.
          if (path === root) source.close?.();
          return listed;
        },
      });
      const runner = new ToolRunner({ platform: { ...platform, search: createSearchEngine({ source: wrapped }) }, tools });
      const [outcome] = await runner.processToolCalls([{ name: 'grep_search', args: { pattern: 'hit', output_mode: mode } }], { timeoutMs: 10_000 });
      expect(outcome, mode).toMatchObject({ code: 'unavailable', error: 'the platform was disposed while this call ran: create a new platform and search again' });
      await platform.dispose();
    }
  });
});
