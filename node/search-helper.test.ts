import { statSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, loadBuiltModule } from '../test/support/build.js';
import type { SearchHelper, SearchHelperJob, SearchSource, SharedCount } from '../src/search/source-port.js';
import { stopwatch } from '../test/support/starvation.js';
import { searchSourceOf } from '../src/search/engine-source.js';

// The helper thread runs built modules (the sources' imports name .js files), so these tests run the
// shared build in dist/ (`npm test` builds it first; a missing or stale build is rebuilt once).

type Platforms = typeof import('./platform.js');
type Core = typeof import('../src/index.js');
type Grep = typeof import('../src/tools/grep-search.js');
type Helper = typeof import('./search-helper.js');
type Cache = typeof import('../src/search/source-cache.js');

let core: Core;
let platforms: Platforms;
let grep: Grep;
let helperModule: Helper;
let cacheModule: Cache;
let base: string;
/** A file of 17 MiB: over the helper's 16 MiB limit, so the calling thread searches it. */
const huge = 'big/huge.js';

/** A tree of 701 files: matches in some, CRLF and BOM files, binary files, one of 2 MiB, one of 17 MiB. */
function tree(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  for (let i = 0; i < 600; i += 1) {
    const dir = `pkg${i % 7}/lib${i % 3}`;
    const lines = [`// file ${i}`, i % 2 === 0 ? `export function f${i}() { return require('./m${i}'); }` : `const x${i} = ${i};`, i % 5 === 0 ? 'function again() {}' : 'noop', 'FooBarBaz and CamelCase'];
    files[`${dir}/f${i}.js`] = lines.join(i % 11 === 0 ? '\r\n' : '\n') + '\n';
  }
  for (let i = 0; i < 50; i += 1) files[`bin/b${i}.dat`] = new Uint8Array([0x66, 0x75, 0x6e, 0, 1, 2, i]);
  for (let i = 0; i < 40; i += 1) files[`text/bom${i}.txt`] = `\uFEFFfunction with a BOM ${i}\n`;
  for (let i = 0; i < 9; i += 1) files[`text/latin${i}.txt`] = new Uint8Array([0x66, 0x75, 0x6e, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0xe9, 0x0a]);
  files['big/big.js'] = 'function big() {}\n'.repeat(120_000);
  files[huge] = 'function huge() {}\n'.repeat(17 * 1024 * 1024 / 19 + 1);
  return files;
}

beforeAll(async () => {
  ensureBuilt(); // the shared build (dist/), rebuilt once when stale
  const load = loadBuiltModule;
  core = await load<Core>('src/index.js');
  platforms = await load<Platforms>('node/platform.js');
  grep = await load<Grep>('src/tools/grep-search.js');
  helperModule = await load<Helper>('node/search-helper.js');
  cacheModule = await load<Cache>('src/search/source-cache.js');
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-helper-')));
  for (const [rel, content] of Object.entries(tree())) {
    await mkdir(dirname(join(base, rel)), { recursive: true });
    await writeFile(join(base, rel), content);
  }
  // Older than the cache's racy window, so repeated searches come from the caches.
  const old = Date.now() / 1000 - 10;
  for (const rel of Object.keys(tree())) await utimes(join(base, rel), old, old);
}, 180_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

// Each with the longest time limit: the answers are compared whole, and a busy machine can take longer
// than the default 10 s.
const CALLS: Array<Record<string, unknown>> = [
  { pattern: 'function', fixed_strings: true, output_mode: 'count', max_results: 2000, max_time_ms: 120_000 },
  { pattern: 'function', fixed_strings: true, output_mode: 'files_with_matches', max_results: 2000, max_time_ms: 120_000 },
  { pattern: String.raw`require\(['"][^'"]+['"]\)`, output_mode: 'count', max_results: 2000, max_time_ms: 120_000 },
  { pattern: String.raw`[A-Z][a-z]+[A-Z]\w*`, output_mode: 'count', max_results: 2000, max_time_ms: 120_000 },
  { pattern: 'FUNCTION', case_sensitive: false, output_mode: 'count', max_results: 2000, max_time_ms: 120_000 },
  { pattern: String.raw`function\s+f\d+`, output_mode: 'files_with_matches', max_results: 50, max_time_ms: 120_000 },
  { pattern: 'nothing matches this', fixed_strings: true, output_mode: 'count', max_time_ms: 120_000 },
  // Content stays on the calling thread (the helper's files are read there, not cached twice).
  { pattern: 'function', fixed_strings: true, max_time_ms: 120_000 },
  { pattern: 'FooBar', context_lines: 1, max_results: 5, max_time_ms: 120_000 },
];

const LIMIT = 64 * 1024 * 1024;
/** A literal count as the search tools share it (the helper reads files up to 16 MiB). */
const job = (pattern: string, deadline = Date.now() + 10_000): SearchHelperJob => ({ pattern, literal: true, caseSensitive: true, deadline, limit: 16 * 1024 * 1024 });

/** Waits until the helper has started on `shared` (an idle worker takes a count within moments). */
async function started(shared: SharedCount): Promise<void> {
  for (const until = Date.now() + 10_000; !shared.started && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(shared.started).toBe(true);
}

describe('the search helper thread (built package)', () => {
  it('counts with the same results as the memory platform, first and repeated, caches each file on one side only, and sees a change', async () => {
    const files = tree();
    const memory = new core.ToolRunner({ platform: core.createMemoryPlatform({ files }), tools: [grep.grepSearchTool] });
    const platform = platforms.createNodePlatform({ root: base });
    try {
      expect(searchSourceOf(platform)?.helper).toBeDefined();
      const node = new core.ToolRunner({ platform, tools: [grep.grepSearchTool] });
      const normalise = (value: unknown, root: string): unknown => JSON.parse(JSON.stringify(value).split(root).join('<root>'));
      for (let round = 0; round < 2; round += 1) {
        for (const args of CALLS) {
          const expected = normalise(await memory.execute('grep_search', args), '/workspace');
          expect(normalise(await node.execute('grep_search', args), base), `${JSON.stringify(args)} round ${round}`).toEqual(expected);
        }
      }
      // Every file is cached by one thread: this one's cache, or the helper's (which counted it).
      const helper = searchSourceOf(platform)?.helper as SearchHelper;
      const mine = cacheModule.cacheOf(searchSourceOf(platform) as SearchSource);
      const paths = Object.keys(files).map((rel) => join(base, rel));
      const both = paths.filter((path) => helper.owns(path) && mine.holds(path));
      expect(both).toEqual([]);
      const theirs = paths.filter((path) => helper.owns(path));
      expect(theirs.length + paths.filter((path) => mine.holds(path)).length).toBe(paths.length);
      // The helper's cache sees a changed file: one it counted (an open batch it takes), then counts as its own.
      const changed = join(base, 'pkg1/lib1/f1.js');
      if (!helper.owns(changed)) {
        const first = helper.share(job('changed here'), undefined);
        first.post([changed], 'open');
        first.end();
        await started(first);
        expect((await first.finish()).codes.get(0)).toEqual(Int32Array.of(0));
      }
      expect(helper.owns(changed)).toBe(true);
      const count = async (): Promise<number | undefined> => {
        const shared = helper.share(job('changed here'), undefined);
        expect(shared.claim(0)).toBe(true);
        shared.post([join(base, 'pkg0/lib0/f0.js')], 'open');
        shared.post([changed], 'helpers');
        expect(shared.claim(1)).toBe(false);
        shared.end();
        await started(shared);
        const answer = await shared.finish();
        expect([...answer.codes.keys()]).toEqual([1]);
        return answer.codes.get(1)?.[0];
      };
      expect(await count()).toBe(0);
      await writeFile(changed, 'changed here\nchanged here too\n');
      expect(await count()).toBe(2);
      expect(await node.execute('grep_search', { pattern: 'changed here', fixed_strings: true, output_mode: 'count' })).toMatchObject({ total_matches: 2, total_files: 1 });
      await writeFile(changed, files[changed.slice(base.length + 1)] as string);
      await utimes(changed, Date.now() / 1000 - 10, Date.now() / 1000 - 10);
      // A file this thread caches, changed: validated by an lstat the helper or this thread takes.
      const ours = join(base, 'pkg2/lib2/f2.js');
      if (!mine.holds(ours)) mine.load(ours);
      expect(mine.holds(ours)).toBe(true);
      await writeFile(ours, 'changed here\n');
      expect(await node.execute('grep_search', { pattern: 'changed here', fixed_strings: true, output_mode: 'count' })).toMatchObject({ total_matches: 1, total_files: 1 });
      await writeFile(ours, files[ours.slice(base.length + 1)] as string);
      await utimes(ours, Date.now() / 1000 - 10, Date.now() / 1000 - 10);
    } finally {
      await platform.dispose();
    }
  }, 120_000); // a bound for a hang: on a busy machine the first counts take tens of seconds

  it('counts with ripgrep\'s Unicode defaults on its own thread: case folding of a fixed string, Unicode \\b and \\w, ASCII under (?-u)', async () => {
    const file = join(base, 'text/unicode-helper.txt');
    await writeFile(file, 'Привет мир\nПРИВЕТ\nпока\nélan x\nxélan\ncafé\n');
    const platform = platforms.createNodePlatform({ root: base });
    try {
      const helper = searchSourceOf(platform)?.helper as SearchHelper;
      const count = async (pattern: string, literal: boolean, caseSensitive: boolean): Promise<number | undefined> => {
        const shared = helper.share({ pattern, literal, caseSensitive, deadline: Date.now() + 10_000, limit: 16 * 1024 * 1024 }, undefined);
        shared.post([file], 'open');
        shared.end();
        await started(shared);
        return (await shared.finish()).codes.get(0)?.[0];
      };
      expect(await count('привет', true, false)).toBe(2);
      expect(await count('\\bélan\\b', false, true)).toBe(1);
      expect(await count('^\\w+$', false, true)).toBe(4);
      expect(await count('(?-u)^\\w+$', false, true)).toBe(0);
    } finally {
      await platform.dispose();
      await rm(file, { force: true });
    }
  });

  it('counts the open batches it claims first, never one the caller claimed, and answers codes per file', async () => {
    const platform = platforms.createNodePlatform({ root: base });
    try {
      const helper = searchSourceOf(platform)?.helper as SearchHelper;
      const shared = helper.share(job('function'), undefined);
      // Claimed by the caller before it is posted: the helper never counts it.
      expect(shared.claim(0)).toBe(true);
      expect(shared.post([join(base, 'pkg0/lib0/f0.js')], 'open')).toBe(0);
      expect(shared.post([join(base, 'pkg0/lib0/f0.js'), join(base, 'bin/b0.dat'), join(base, 'text/bom0.txt'), join(base, 'text/latin0.txt'), join(base, 'gone.js')], 'open')).toBe(1);
      expect(shared.post([join(base, huge), join(base, 'big/big.js')], 'open')).toBe(2);
      expect(shared.posted).toBe(3);
      shared.end();
      await started(shared);
      const answer = await shared.finish();
      expect(answer.stopped).toBe(false);
      expect([...answer.codes.keys()].sort()).toEqual([1, 2]);
      // f0.js has `function` on two lines; binary; BOM file; not UTF-8 (binary); missing; over the helper's limit; 120,000 lines.
      expect(Array.from(answer.codes.get(1) ?? [])).toEqual([2, -4, 1, -4, -2]);
      expect(Array.from(answer.codes.get(2) ?? [])).toEqual([-3, 120_000]);
      // Once the helper has a batch, the caller cannot claim it.
      expect(shared.claim(1)).toBe(false);
      expect(helper.owns(join(base, 'big/big.js'))).toBe(true);
      expect(helper.owns(join(base, huge))).toBe(false);
      expect(helper.owns(join(base, 'gone.js'))).toBe(false);
    } finally {
      await platform.dispose();
    }
  });

  it('takes the lstat of a stat batch (files the caller caches) when it claims it first', async () => {
    const platform = platforms.createNodePlatform({ root: base });
    try {
      const helper = searchSourceOf(platform)?.helper as SearchHelper;
      const shared = helper.share(job('function'), undefined);
      const file = join(base, 'pkg0/lib0/f0.js');
      expect(shared.post([file, join(base, 'gone.js'), join(base, 'pkg0')], 'stat')).toBe(0);
      shared.end();
      await started(shared);
      const answer = await shared.finish();
      expect(answer.codes.size).toBe(0);
      const stats = Array.from(answer.stats.get(0) ?? []);
      const real = statSync(file);
      expect(stats.slice(0, 4)).toEqual([real.size, real.mtimeMs, real.ctimeMs, real.ino]);
      // Gone, and a directory (not a regular file).
      expect(stats.slice(4).every((value) => Number.isNaN(value))).toBe(true);
      // The caller's cached files never become the helper's.
      expect(helper.owns(file)).toBe(false);
    } finally {
      await platform.dispose();
    }
  });

  it('answers a count stopped by its time limit with what it covered, and a cancelled count with cancelled; the platform stays usable', async () => {
    const platform = platforms.createNodePlatform({ root: base });
    try {
      const runner = new core.ToolRunner({ platform, tools: [grep.grepSearchTool] });
      const helper = searchSourceOf(platform)?.helper as SearchHelper;
      const paths = Object.keys(tree()).map((rel) => join(base, rel));
      // A deadline already past: nothing is counted.
      const late = helper.share(job('function', Date.now() - 1), undefined);
      late.post(paths, 'open');
      late.end();
      await started(late);
      const lateAnswer = await late.finish();
      expect(lateAnswer.stopped).toBe(true);
      expect([...lateAnswer.codes.values()].flatMap((codes) => Array.from(codes)).every((code) => code === -1)).toBe(true);
      const controller = new AbortController();
      controller.abort();
      const aborted = helper.share(job('function'), controller.signal);
      aborted.post(paths, 'open');
      aborted.end();
      await expect(aborted.finish()).rejects.toMatchObject({ code: 'cancelled' });
      // Aborted while the worker counts: answers cancelled at once (the worker drops the count).
      const midway = new AbortController();
      const counting = helper.share(job('function'), midway.signal);
      counting.post(paths, 'open');
      await started(counting);
      const finishing = counting.finish();
      midway.abort();
      await expect(finishing).rejects.toMatchObject({ code: 'cancelled' });
      expect(await runner.execute('grep_search', { pattern: 'function', fixed_strings: true, output_mode: 'count' })).toMatchObject({ binary_files_skipped: 59, files_searched: 642 });
    } finally {
      await platform.dispose();
    }
  });

  it('counts everything on the calling thread, without waiting, while the worker is busy with another platform\'s long count', async () => {
    const slow = platforms.createNodePlatform({ root: base });
    const quick = platforms.createNodePlatform({ root: base });
    const memory = new core.ToolRunner({ platform: core.createMemoryPlatform({ files: tree() }), tools: [grep.grepSearchTool] });
    const stop = new AbortController();
    try {
      // 40 passes of a no-literal regex over the 17 MiB file (within this count's limit): seconds of work for the one worker.
      const long = searchSourceOf(slow)?.helper?.share({ pattern: '[A-Z][a-z]+[A-Z]\\w*|f\\w+ h', literal: false, caseSensitive: true, deadline: Date.now() + 60_000, limit: LIMIT }, stop.signal) as SharedCount;
      for (let i = 0; i < 40; i += 1) long.post([join(base, huge)], 'open');
      long.end();
      await started(long);
      const longAnswer = long.finish();
      longAnswer.catch(() => undefined);
      const runner = new core.ToolRunner({ platform: quick, tools: [grep.grepSearchTool] });
      // (The longest time limit: on a busy machine the default 10 s could cut this count short.)
      const args = { pattern: 'function', fixed_strings: true, output_mode: 'count', max_results: 2000, max_time_ms: 120_000 };
      const begun = stopwatch();
      const answer = await runner.execute('grep_search', args);
      const took = begun.net();
      const expected = await memory.execute('grep_search', args);
      expect(JSON.parse(JSON.stringify(answer).split(base).join('/workspace'))).toEqual(expected);
      // The long count still runs (it would take seconds more): this one did not wait for it.
      expect(took).toBeLessThan(10_000);
      expect(long.started).toBe(true);
      const quickHelper = searchSourceOf(quick)?.helper as SearchHelper;
      expect(Object.keys(tree()).some((rel) => quickHelper.owns(join(base, rel)))).toBe(false);
      stop.abort();
      await expect(longAnswer).rejects.toMatchObject({ code: 'cancelled' });
    } finally {
      await slow.dispose();
      await quick.dispose();
    }
  });

  it('gives the same counts when its worker stops mid-count (finished on the calling thread) and after (a new worker)', async () => {
    const platform = platforms.createNodePlatform({ root: base });
    try {
      const runner = new core.ToolRunner({ platform, tools: [grep.grepSearchTool] });
      const args = { pattern: 'function', fixed_strings: true, output_mode: 'count', max_results: 2000 };
      const before = await runner.execute('grep_search', args);
      const during = runner.execute('grep_search', args);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(helperModule.stopSearchWorker()).toBe(true);
      expect(await during).toEqual(before);
      expect(await runner.execute('grep_search', args)).toEqual(before);
    } finally {
      await platform.dispose();
    }
  });
});
