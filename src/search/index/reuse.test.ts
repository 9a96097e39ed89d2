// A repeated search over a workspace whose files change only through its platform (`changeCount`):
// while nothing changed, it reuses the last walk's sorted list and the index's verdicts on its files,
// so it lists no folder, checks no file's identity and reads only the files the index leaves as
// candidates; any change, another folder or other globs, and it walks and checks everything again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuiltinTools, ToolRunner } from '../../index.js';
import { wrapFsMethods } from '../../core/fs-proxy.js';
import { createMemoryPlatform } from '../../platform/memory.js';
import type { Platform } from '../../core/types.js';
import type { SearchSource } from '../source-port.js';
import { buildWorkspaceIndex, searchIndexIdle, searchIndexOf } from './workspace.js';
import { setSearchIndex } from './engine.js';
import { searchSourceOf } from '../engine-source.js';
import { createSearchEngine } from '../engine.js';

const FILES: Record<string, string> = {};
for (let i = 0; i < 60; i += 1) FILES[`${['', 'src/', 'docs/'][i % 3]}f${i}.${i % 2 ? 'ts' : 'md'}`] = `const value${i} = ${i};\nexport default value${i};\n`;
FILES['src/f10.ts'] = 'const zebraCrossing = 1;\n';
FILES['docs/f20.md'] = 'a zebraCrossing here\n';
const FILE_COUNT = Object.keys(FILES).length;

/** Paths each kind of call was made with, through the search source and through fs. */
interface Calls {
  stat: string[];
  read: string[];
  readdir: string[];
  fs: string[];
}

/** A memory platform under `/ws` (with its search source, or without: files read and checked through fs) counting its calls, indexed with the clock past its writes. */
async function countedWorkspace(withSource: boolean): Promise<{ platform: Platform; calls: Calls; search: ToolRunner; scan: ToolRunner }> {
  const memory = createMemoryPlatform({ root: '/ws', files: FILES });
  const calls: Calls = { stat: [], read: [], readdir: [], fs: [] };
  const fs = wrapFsMethods(memory.fs, (name, method, target) => (...args: unknown[]) => {
    calls.fs.push(`${name} ${String(args[0])}`);
    return method.apply(target, args);
  });
  const inner = searchSourceOf(memory) as SearchSource;
  const source: SearchSource = {
    ...inner,
    stat: (path) => (calls.stat.push(path), inner.stat(path)),
    read: (path, maxBytes) => (calls.read.push(path), inner.read(path, maxBytes)),
    readdir: (path) => (calls.readdir.push(path), inner.readdir(path)),
  };
  const platform: Platform = { ...memory, fs, search: withSource ? createSearchEngine({ source }) : undefined };
  vi.setSystemTime(Date.now() + 5000);
  setSearchIndex(platform, await buildWorkspaceIndex(platform));
  return { platform, calls, search: new ToolRunner({ platform, tools: BuiltinTools.all() }), scan: new ToolRunner({ platform: { ...platform }, tools: BuiltinTools.all() }) };
}

const CANDIDATES = ['/ws/docs/f20.md', '/ws/src/f10.ts'];

/** Every file path a call was made with (fs calls on the start folder `/ws` aside), sorted, once each. */
function touched(calls: Calls): string[] {
  const fsPaths = calls.fs.map((call) => call.slice(call.indexOf(' ') + 1)).filter((path) => path !== '/ws');
  return [...new Set([...calls.stat, ...calls.read, ...fsPaths])].sort();
}

/** Whether every path of `paths` is one of `allowed`. */
const within = (paths: readonly string[], allowed: readonly string[]): boolean => paths.every((path) => allowed.includes(path));

function reset(calls: Calls): void {
  calls.stat.length = 0;
  calls.read.length = 0;
  calls.readdir.length = 0;
  calls.fs.length = 0;
}

/**
 * grep_search through the indexed runner and through the plain one: the same answer, returned, with a
 * copy of the calls the indexed one made (the plain one shares the counted source and fs).
 */
async function sameAsScan(search: ToolRunner, scan: ToolRunner, args: Record<string, unknown>, calls?: Calls): Promise<{ answer: unknown; made: Calls }> {
  if (calls) reset(calls);
  const withIndex = await search.execute('grep_search', args);
  const made = calls ? { stat: [...calls.stat], read: [...calls.read], readdir: [...calls.readdir], fs: [...calls.fs] } : { stat: [], read: [], readdir: [], fs: [] };
  expect(withIndex).toEqual(await scan.execute('grep_search', args));
  return { answer: withIndex, made };
}

const ZEBRA = { pattern: 'zebraCrossing', fixed_strings: true, output_mode: 'count' };

describe('a repeated search over an unchanged workspace reuses its walk and the index\'s verdicts', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_800_000_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('with a search source: the repeat lists no folder, stats no file and reads only the two candidate files', async () => {
    const { platform, calls, search } = await countedWorkspace(true);
    const first = await search.execute('grep_search', ZEBRA);
    expect(first).toMatchObject({ counts: [{ file_path: '/ws/docs/f20.md', count: 1 }, { file_path: '/ws/src/f10.ts', count: 1 }], files_searched: FILE_COUNT });
    await searchIndexIdle(platform);
    // The first search walked and checked every file.
    expect(calls.readdir.length).toBeGreaterThan(0);
    expect(calls.stat.length).toBeGreaterThanOrEqual(FILE_COUNT);
    for (let round = 0; round < 3; round += 1) {
      reset(calls);
      expect(await search.execute('grep_search', ZEBRA)).toEqual(first);
      expect(calls.readdir).toEqual([]);
      // Only the candidates are looked at; through fs only the start folder (it must still exist and be a folder).
      expect(touched(calls), JSON.stringify(calls)).toSatisfy((paths: string[]) => within(paths, CANDIDATES));
      expect(calls.fs).toEqual(['stat /ws']);
      await searchIndexIdle(platform);
    }
  });

  it('without a search source: the repeat makes fs calls only for the start folder and the candidate files', async () => {
    const { platform, calls, search, scan } = await countedWorkspace(false);
    await sameAsScan(search, scan, ZEBRA);
    await searchIndexIdle(platform);
    reset(calls);
    expect(await search.execute('grep_search', ZEBRA)).toMatchObject({ total_matches: 2, files_searched: FILE_COUNT });
    expect(calls.fs).toContain('stat /ws');
    expect(touched(calls), JSON.stringify(calls)).toSatisfy((paths: string[]) => within(paths, CANDIDATES));
    expect(calls.fs.some((call) => call.startsWith('readdir') || call.startsWith('lstat'))).toBe(false);
  });

  it('a change through fs between two searches: the next one walks and checks every file again, and finds the new match', async () => {
    const { platform, calls, search, scan } = await countedWorkspace(true);
    await sameAsScan(search, scan, ZEBRA);
    await searchIndexIdle(platform);
    await platform.fs.writeFile('/ws/lib.ts', 'zebraCrossing again\n');
    const after = await sameAsScan(search, scan, ZEBRA, calls);
    expect(after.answer).toMatchObject({ total_matches: 3, files_searched: FILE_COUNT + 1 });
    expect(after.made.readdir.length).toBeGreaterThan(0);
    expect(after.made.stat.length).toBeGreaterThanOrEqual(FILE_COUNT);
    // A same-size rewrite of a file the index vouched for is seen too.
    await searchIndexIdle(platform);
    await platform.fs.writeFile('/ws/src/f11.ts', 'zebraCrossing = 11;\nexport default value11;\n'.padEnd(FILES['src/f11.ts']?.length ?? 0, ' '));
    expect((await sameAsScan(search, scan, ZEBRA)).answer).toMatchObject({ total_matches: 4 });
  });

  it('another folder or other globs walk again; the same ones again reuse that walk (four kept per platform; a change drops them all)', async () => {
    const { platform, calls, search, scan } = await countedWorkspace(true);
    for (const args of [ZEBRA, { ...ZEBRA, dir_path: 'src' }, { ...ZEBRA, include: '*.md' }, { ...ZEBRA, exclude: 'docs/' }]) {
      await sameAsScan(search, scan, args);
      await searchIndexIdle(platform);
      reset(calls);
      const again = await search.execute('grep_search', args);
      expect(calls.readdir, JSON.stringify(args)).toEqual([]);
      // The start folder aside (checked through fs), only candidates.
      expect(touched(calls), JSON.stringify(args)).toSatisfy((paths: string[]) => within(paths, [...CANDIDATES, '/ws/src']));
      expect(again).toEqual(await scan.execute('grep_search', args));
    }
    // Back to the first options after three others: still kept (four listings per platform).
    reset(calls);
    const back = await search.execute('grep_search', ZEBRA);
    expect(calls.readdir).toEqual([]);
    expect(back).toEqual(await scan.execute('grep_search', ZEBRA));
    // A fifth set of options drops the one used longest ago: walked again.
    await sameAsScan(search, scan, { ...ZEBRA, include: '*.ts' });
    reset(calls);
    const dropped = await search.execute('grep_search', { ...ZEBRA, dir_path: 'src' });
    expect(calls.readdir.length).toBeGreaterThan(0);
    expect(dropped).toEqual(await scan.execute('grep_search', { ...ZEBRA, dir_path: 'src' }));
    // A change drops every kept listing: each options set walks again.
    await platform.fs.writeFile('/ws/docs/more.md', 'zebraCrossing\n');
    for (const args of [ZEBRA, { ...ZEBRA, include: '*.md' }]) {
      reset(calls);
      const changed = await search.execute('grep_search', args);
      expect(calls.readdir.length, JSON.stringify(args)).toBeGreaterThan(0);
      expect(changed).toEqual(await scan.execute('grep_search', args));
      expect(changed).toMatchObject({ total_matches: 'include' in args ? 2 : 3 });
    }
  });

  it('a racy file (written in the same tick as its read) is read by every search until its window passes, then no more', async () => {
    const { platform, calls, search, scan } = await countedWorkspace(true);
    await platform.fs.writeFile('/ws/new.ts', 'nothing here\n');
    for (let round = 0; round < 3; round += 1) {
      const searched = await sameAsScan(search, scan, ZEBRA, calls);
      expect(searched.answer).toMatchObject({ total_matches: 2 });
      // Checked and read again by the indexed search itself (its walk kept or not).
      expect(searched.made.stat).toContain('/ws/new.ts');
      expect(searched.made.read).toContain('/ws/new.ts');
      await searchIndexIdle(platform);
      expect(searchIndexOf(platform)?.file('/ws/new.ts')?.racy).toBe(true);
    }
    vi.setSystemTime(Date.now() + 1500);
    await sameAsScan(search, scan, ZEBRA);
    await searchIndexIdle(platform);
    expect(searchIndexOf(platform)?.file('/ws/new.ts')?.racy).toBe(false);
    await sameAsScan(search, scan, ZEBRA);
    await searchIndexIdle(platform);
    reset(calls);
    expect(await search.execute('grep_search', ZEBRA)).toMatchObject({ total_matches: 2 });
    expect(touched(calls)).toSatisfy((paths: string[]) => within(paths, CANDIDATES));
    expect(calls.readdir).toEqual([]);
  });
});
