// The search index, differentially: on a memory platform, random trees changed at random between
// searches (through the tools and through the platform's fs directly, with the clock standing still
// or moving past the racy window), every grep_search answered with the index equals the answer of a
// plain scan of the same workspace, to the byte; searches repeated with no change between (which reuse
// the last walk and the index's verdicts on it) too.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuiltinTools, ToolRunner } from '../../index.js';
import { createMemoryPlatform } from '../../platform/memory.js';
import type { Platform } from '../../core/types.js';
import { compileSearchPattern } from '../dialect.js';
import { openIndex, serializeIndex } from './format.js';
import { siftWithIndex, worthSifting } from './sift.js';
import { buildWorkspaceIndex, searchIndexIdle, searchIndexOf } from './workspace.js';
import { setSearchIndex } from './engine.js';
import { walkWorkspace } from '../walk.js';
import { seededRandom as prng } from '../../../test/support/random.js';
import { answer, content, DIRS, listFiles, mutate, pick, searchArgs, tallySift } from '../../../test/support/index-differential.js';
import { searchSourceOf } from '../engine-source.js';

type Args = Record<string, unknown>;


const CLOCK_STEPS = [0, 0, 0, 0, 0, 1, 3, 700, 1500, 5000];

async function run(seed: number, rounds: number, options: { noSource?: boolean } = {}): Promise<{ skipped: number; scanned: number; used: number }> {
  const rand = prng(seed);
  const files: Record<string, string | Uint8Array> = {};
  const count = 10 + Math.floor(rand() * 30);
  for (let i = 0; i < count; i += 1) files[`${pick(rand, DIRS)}f${i}.${pick(rand, ['txt', 'ts', 'md'])}`] = content(rand);
  const memory = createMemoryPlatform({ root: '/ws', files });
  // Without a search source, files are read through fs and the index checks them with fs.lstat.
  const platform: Platform = options.noSource ? { ...memory, search: undefined } : memory;
  // The same workspace under another platform object: no index, a plain scan.
  const plain: Platform = { ...platform };
  const tools = BuiltinTools.all();
  const indexed = new ToolRunner({ platform, tools });
  const scanned = new ToolRunner({ platform: plain, tools });
  vi.setSystemTime(Date.now() + 5000);
  setSearchIndex(platform, await buildWorkspaceIndex(platform));
  const totals = { skipped: 0, scanned: 0, used: 0 };
  for (let round = 0; round < rounds; round += 1) {
    for (let n = Math.floor(rand() * 3); n > 0; n -= 1) await mutate(rand, platform, rand() < 0.5 ? indexed : scanned);
    vi.setSystemTime(Date.now() + pick(rand, CLOCK_STEPS));
    const roll = rand();
    if (roll < 0.3) await searchIndexIdle(platform);
    else if (roll < 0.35) {
      // Saved and reopened: the same answers without a rebuild.
      setSearchIndex(platform, openIndex(serializeIndex(searchIndexOf(platform) as NonNullable<ReturnType<typeof searchIndexOf>>, '/ws'), '/ws'));
    }
    const args = searchArgs(rand);
    await tallySift(platform, args, totals);
    const withIndex = await answer(indexed, args);
    const withoutIndex = await answer(scanned, args);
    if (rand() < 0.5) await searchIndexIdle(platform);
    expect(withIndex, `seed ${seed} round ${round} ${JSON.stringify(args)}`).toEqual(withoutIndex);
    // The same search again with no change between (the kept walk and verdicts), sometimes once the
    // refreshes are done or the clock has moved; or another search over the unchanged workspace.
    for (let again = Math.floor(rand() * 3); again > 0; again -= 1) {
      if (rand() < 0.5) await searchIndexIdle(platform);
      if (rand() < 0.3) vi.setSystemTime(Date.now() + pick(rand, CLOCK_STEPS));
      const repeated = rand() < 0.8 ? args : searchArgs(rand);
      const repeatWith = await answer(indexed, repeated);
      expect(repeatWith, `seed ${seed} round ${round} again ${again} ${JSON.stringify(repeated)}`).toEqual(await answer(scanned, repeated));
    }
  }
  return totals;
}

describe('grep_search with the search index equals a plain scan', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_800_000_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an index built while its files were fresh (all racy, all scanned) comes into use once their racy window has passed', async () => {
    const platform = createMemoryPlatform({ root: '/ws', files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'c.txt': 'gamma\n' } });
    const index = await buildWorkspaceIndex(platform);
    setSearchIndex(platform, index);
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const pattern = compileSearchPattern('alpha', { literal: true, caseSensitive: true });
    expect(index.file('/ws/a.txt')?.racy).toBe(true);
    expect(worthSifting(index, pattern)).toBe(false);
    vi.setSystemTime(Date.now() + 1500);
    expect(await runner.execute('grep_search', { pattern: 'alpha', output_mode: 'files_with_matches' })).toMatchObject({ files: ['/ws/a.txt'], files_searched: 3 });
    await searchIndexIdle(platform);
    const settled = searchIndexOf(platform) as NonNullable<ReturnType<typeof searchIndexOf>>;
    expect(['/ws/a.txt', '/ws/b.txt', '/ws/c.txt'].map((path) => settled.file(path)?.racy)).toEqual([false, false, false]);
    expect(worthSifting(settled, pattern)).toBe(true);
    const listed = (await walkWorkspace({ fs: platform.fs, root: '/ws', dir: '/ws', source: searchSourceOf(platform) })).files;
    expect(await siftWithIndex(platform, settled, pattern, listed, 1 << 20)).toEqual({ scan: [listed[0]], text: 2, binary: 0 });
  });

  it.each([
    [1, false],
    [2, false],
    [3, false],
    [4, false],
    [5, false],
    [6, false],
    [7, true],
    [8, true],
  ])('random trees and changes, seed %i, 250 rounds (no search source: %s)', async (seed, noSource) => {
    const totals = await run(seed, 250, { noSource });
    // The index did its part: files were left unread, and files were still scanned.
    expect(totals.skipped).toBeGreaterThan(0);
    expect(totals.scanned).toBeGreaterThan(0);
    expect(totals.used).toBeGreaterThan(20);
  }, 120_000);
});
