// createWebPlatform({ searchIndex: webSearchIndex() }) in Chromium: the index of an IndexedDB workspace kept in
// IndexedDB beside it. Differentially, every grep_search answered with the index equals a plain scan
// of the same workspace through hundreds of random changes (through the tools and through the
// platform's fs directly) and reopenings; a new worker opens the saved index without a rebuild; a
// corrupt, truncated or foreign stored index is rejected and rebuilt.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { promisifyRequest } from 'idb-keyval';
import { BuiltinTools, ToolRunner } from '../src/index.js';
import type { Platform } from '../src/core/types.js';
import { openIndex } from '../src/search/index/format.js';
import { searchIndexIdle, searchIndexOf } from '../src/search/index/workspace.js';
import { seededRandom } from '../test/support/random.js';
import { answer, content, DIRS, mutate, pick, searchArgs, tallySift } from '../test/support/index-differential.js';
import { createWebPlatform, deleteWorkspace, type WebPlatform } from './index.js';
import { webSearchIndex } from './search-index.js';
import { SEARCH_INDEX_DB_PREFIX, SEARCH_INDEX_STORE } from './search-index-store.js';

const CLOCK_STEPS = [0, 0, 0, 0, 1, 3, 700, 1500, 5000];
const ROOT = '/workspace';

/** A unique workspace name (the clock may be faked: a random part keeps names apart). */
const workspaceName = (what: string): string => `search-index-${what}-${Math.random().toString(36).slice(2)}`;

/** The workspace with its index, a runner on it, and a runner on a copy of the platform without one (a plain scan). */
function open(workspace: string, files?: Record<string, string | Uint8Array>): { platform: WebPlatform; indexed: ToolRunner; scanned: ToolRunner } {
  const platform = createWebPlatform({ workspace, searchIndex: webSearchIndex(), durability: 'relaxed', ...(files ? { files } : {}) });
  const plain: Platform = { ...platform };
  const tools = BuiltinTools.all();
  return { platform, indexed: new ToolRunner({ platform, tools }), scanned: new ToolRunner({ platform: plain, tools }) };
}

/** The stored index record of `workspace`: read, or replaced by `value`. */
async function storedIndex(workspace: string, value?: unknown): Promise<unknown> {
  const request = indexedDB.open(SEARCH_INDEX_DB_PREFIX + workspace);
  const db = await promisifyRequest(request);
  try {
    const tx = db.transaction(SEARCH_INDEX_STORE, value === undefined ? 'readonly' : 'readwrite');
    const store = tx.objectStore(SEARCH_INDEX_STORE);
    const out = value === undefined ? await promisifyRequest(store.get(ROOT)) : store.put(value, ROOT);
    await promisifyRequest(tx);
    return out;
  } finally {
    db.close();
  }
}

interface Totals {
  used: number;
  skipped: number;
  scanned: number;
  reopened: number;
  /** Searches repeated with no change since the one before. */
  repeated: number;
}

/** `rounds` rounds of random changes and searches, the workspace disposed and reopened from IndexedDB every `reopenEvery` rounds. */
async function run(seed: number, rounds: number, reopenEvery: number): Promise<Totals> {
  const rand = seededRandom(seed);
  const files: Record<string, string | Uint8Array> = {};
  for (let i = 10 + Math.floor(rand() * 30); i > 0; i -= 1) files[`${pick(rand, DIRS)}f${i}.${pick(rand, ['txt', 'ts', 'md'])}`] = content(rand);
  const workspace = workspaceName(`differential-${seed}`);
  let { platform, indexed, scanned } = open(workspace, files);
  const totals: Totals = { used: 0, skipped: 0, scanned: 0, reopened: 0, repeated: 0 };
  try {
    await platform.ready();
    vi.setSystemTime(Date.now() + 5000);
    expect(await platform.searchIndexReady?.()).toEqual({ from: 'built' });
    for (let round = 0; round < rounds; round += 1) {
      for (let n = Math.floor(rand() * 3); n > 0; n -= 1) await mutate(rand, platform, rand() < 0.5 ? indexed : scanned);
      vi.setSystemTime(Date.now() + pick(rand, CLOCK_STEPS));
      const roll = rand();
      if (roll < 0.3) await searchIndexIdle(platform);
      else if (roll < 0.4) await platform.flush();
      if (round % reopenEvery === reopenEvery - 1) {
        // Saved on dispose, read back by the next platform: no rebuild, and the same answers.
        await platform.dispose();
        ({ platform, indexed, scanned } = open(workspace));
        expect(await platform.searchIndexReady?.(), `seed ${seed} round ${round}`).toEqual({ from: 'disk' });
        totals.reopened += 1;
      }
      const args = searchArgs(rand);
      await tallySift(platform, args, totals);
      const withIndex = await answer(indexed, args);
      const withoutIndex = await answer(scanned, args);
      expect(withIndex, `seed ${seed} round ${round} ${JSON.stringify(args)}`).toEqual(withoutIndex);
      // The same search again with no change between (the kept walk and verdicts), sometimes once the
      // refreshes are done or the clock has moved; or another search over the unchanged workspace.
      for (let again = Math.floor(rand() * 3); again > 0; again -= 1) {
        if (rand() < 0.5) await searchIndexIdle(platform);
        if (rand() < 0.3) vi.setSystemTime(Date.now() + pick(rand, CLOCK_STEPS));
        const repeated = rand() < 0.8 ? args : searchArgs(rand);
        const repeatWith = await answer(indexed, repeated);
        expect(repeatWith, `seed ${seed} round ${round} again ${again} ${JSON.stringify(repeated)}`).toEqual(await answer(scanned, repeated));
        totals.repeated += 1;
      }
    }
    return totals;
  } finally {
    await platform.dispose();
    await deleteWorkspace(workspace);
  }
}

describe('createWebPlatform({ searchIndex: webSearchIndex() }) on an IndexedDB workspace (Chromium)', () => {
  describe('differentially against a plain scan', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(1_800_000_000_000);
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it.each([[1], [2]])('random changes through the tools and the fs directly, searches repeated with no change between, reopened from IndexedDB every 60 rounds, seed %i, 300 rounds: every answer equals the plain scan', async (seed) => {
      const totals = await run(0x5eed00 + seed, 300, 60);
      expect(totals.reopened).toBe(5);
      expect(totals.repeated).toBeGreaterThan(100);
      // The index did its part: files were left unread, and changed files were still scanned.
      expect(totals.used).toBeGreaterThan(20);
      expect(totals.skipped).toBeGreaterThan(0);
      expect(totals.scanned).toBeGreaterThan(0);
    }, 300_000);
  });

  const SEARCHES: Array<Record<string, unknown>> = [
    { pattern: 'zebraCrossing', output_mode: 'count' },
    { pattern: 'ZEBRA\\w+', case_sensitive: false },
    { pattern: 'function', fixed_strings: true, output_mode: 'files_with_matches', max_results: 2000 },
  ];
  /** 400 files; a rare word in four of them, a common one in all. */
  const TREE: Record<string, string> = {};
  for (let i = 0; i < 400; i += 1) TREE[`d${i % 8}/f${i}.ts`] = `export function f${i}() {\n  return ${i};\n}\n${i % 100 === 7 ? `const zebraCrossing${i} = 1;\n` : ''}`.repeat(10);

  /**
   * Creates workspace `workspace` with {@link TREE}, its files written a minute ago: past the window in
   * which the index does not trust a file's times, so it vouches for them from the start. (Seeded by
   * a platform without the index, closed before the clock runs again: no build sees the moved clock.)
   */
  async function seedLongAgo(workspace: string): Promise<void> {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 60_000);
    const seeding = createWebPlatform({ workspace, files: TREE });
    try {
      await seeding.ready();
      await seeding.dispose();
    } finally {
      vi.useRealTimers();
    }
  }

  async function answers(runner: ToolRunner): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const args of SEARCHES) out.push(await runner.execute('grep_search', args));
    return out;
  }

  /**
   * Seeds `workspace` long ago, builds and saves its index through a platform closed after: the scan's
   * answers and the saved bytes.
   */
  async function savedIndex(workspace: string): Promise<{ expected: unknown[]; good: Uint8Array }> {
    await seedLongAgo(workspace);
    const { platform, scanned } = open(workspace);
    let expected: unknown[];
    try {
      expected = await answers(scanned);
      expect(await platform.searchIndexReady?.()).toEqual({ from: 'built' });
    } finally {
      await platform.dispose();
    }
    const good = (await storedIndex(workspace)) as Uint8Array;
    expect(good).toBeInstanceOf(Uint8Array);
    expect(good.length).toBeGreaterThan(1000);
    return { expected, good };
  }

  /** Runs web/search-index.worker-fixture.ts in a new dedicated worker on `workspace`. */
  async function inNewWorker(workspace: string): Promise<{ ready: unknown; answers: unknown[]; size?: number; scan?: number; skipped?: number; error?: string }> {
    const worker = new Worker(new URL('./search-index.worker-fixture.ts', import.meta.url), { type: 'module' });
    try {
      return await new Promise((resolve, reject) => {
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => reject(new Error(`worker failed: ${event.message}`));
        worker.postMessage({ workspace, searches: SEARCHES, rare: 'zebraCrossing' });
      });
    } finally {
      worker.terminate();
    }
  }

  it('builds in the background while the first searches scan, saves on dispose, and a new worker reads it from IndexedDB (no rebuild), answering the same and reading only the files a rare word is in', async () => {
    const workspace = workspaceName('reopen');
    await seedLongAgo(workspace);
    const { platform, indexed, scanned } = open(workspace);
    try {
      // The first search starts the build and scans meanwhile: the answer of a plain scan.
      const expected = await answers(scanned);
      expect((expected[0] as { total_matches: number }).total_matches).toBe(40);
      expect(await answers(indexed)).toEqual(expected);
      expect(await platform.searchIndexReady?.()).toEqual({ from: 'built' });
      expect(searchIndexOf(platform)?.size).toBe(400);
      expect(await answers(indexed)).toEqual(expected);
      await platform.dispose();

      const fresh = await inNewWorker(workspace);
      expect(fresh.error).toBeUndefined();
      expect(fresh.ready).toEqual({ from: 'disk' });
      expect(fresh.size).toBe(400);
      expect(fresh.answers).toEqual(expected);
      // The reloaded tree kept each file's stored times, so the saved index still vouches for them:
      // only the four files that hold the word are read.
      expect([fresh.scan, fresh.skipped]).toEqual([4, 396]);
    } finally {
      await platform.dispose();
      await deleteWorkspace(workspace);
    }
  }, 120_000);

  it('rejects a stored index that is corrupt, truncated or not bytes, rebuilds it (answers unchanged), and the rebuilt one is read back', async () => {
    const workspace = workspaceName('corrupt');
    const { expected, good } = await savedIndex(workspace);
    let platform: WebPlatform | undefined;
    try {
      const flipped = good.slice();
      const middle = Math.floor(flipped.length / 2);
      flipped[middle] = (flipped[middle] as number) ^ 0x40;
      const spoiled: Array<[string, unknown, RegExp]> = [
        ['one byte flipped', flipped, /checksum|corrupt/i],
        ['cut in half', good.slice(0, Math.floor(good.length / 2)), /truncated|short|length|corrupt/i],
        ['not bytes', 'not an index', /unreadable.*not bytes/],
      ];
      for (const [what, value, why] of spoiled) {
        await storedIndex(workspace, value);
        ({ platform } = open(workspace));
        const indexed = new ToolRunner({ platform, tools: BuiltinTools.all() });
        expect(await answers(indexed), what).toEqual(expected);
        const ready = (await platform.searchIndexReady?.()) as { from: string; rejected?: string };
        expect(ready.from, what).toBe('built');
        expect(ready.rejected, what).toMatch(why);
        expect(searchIndexOf(platform)?.size, what).toBe(400);
        expect(await answers(indexed), what).toEqual(expected);
        await platform.dispose();
        // Overwritten by the rebuild: intact again.
        expect(openIndex((await storedIndex(workspace)) as Uint8Array, ROOT).size, what).toBe(400);
      }
      ({ platform } = open(workspace));
      expect(await platform.searchIndexReady?.()).toEqual({ from: 'disk' });
    } finally {
      await platform?.dispose();
      await deleteWorkspace(workspace);
    }
  }, 120_000);

  it('never uses corrupt postings: searches answer as a scan does, and the IndexedDB record is deleted so that the next open rebuilds it', async () => {
    const workspace = workspaceName('corrupt-postings');
    const { expected, good } = await savedIndex(workspace);
    let platform: WebPlatform | undefined;
    try {
      const spoiled = good.slice();
      // The last byte is in the postings, which are checked as searches read them, not at open.
      spoiled[spoiled.length - 1] = (spoiled[spoiled.length - 1] as number) ^ 0x40;
      await storedIndex(workspace, spoiled);
      ({ platform } = open(workspace));
      const indexed = new ToolRunner({ platform, tools: BuiltinTools.all() });
      expect(await platform.searchIndexReady?.()).toEqual({ from: 'disk' });
      expect(await answers(indexed)).toEqual(expected);
      await vi.waitFor(async () => expect(await storedIndex(workspace)).toBeUndefined());
      await platform.dispose();
      // Not saved again on dispose: the next open builds it afresh, and the one after reads that.
      expect(await storedIndex(workspace)).toBeUndefined();
      ({ platform } = open(workspace));
      expect(await platform.searchIndexReady?.()).toEqual({ from: 'built' });
      await platform.dispose();
      ({ platform } = open(workspace));
      expect(await platform.searchIndexReady?.()).toEqual({ from: 'disk' });
    } finally {
      await platform?.dispose();
      await deleteWorkspace(workspace);
    }
  }, 120_000);

  it('searchIndex { maxIndexBytes } too small: the build stops, nothing is stored, searches equal a scan, capabilities.searchIndex off with the note; within the defaults it says ready', async () => {
    const workspace = workspaceName('budget');
    await seedLongAgo(workspace);
    const platform = createWebPlatform({ workspace, searchIndex: webSearchIndex({ maxIndexBytes: 4096 }), durability: 'relaxed' });
    const plain: Platform = { ...platform, capabilities: { runCommand: false, webSearch: false, persistent: true } };
    const tools = BuiltinTools.all();
    try {
      expect(platform.capabilities.searchIndex).toEqual({ state: 'building' });
      const expected = await answers(new ToolRunner({ platform: plain, tools }));
      expect(await answers(new ToolRunner({ platform, tools }))).toEqual(expected);
      const ready = await platform.searchIndexReady?.();
      expect(ready).toHaveProperty('off');
      expect(searchIndexOf(platform)).toBeUndefined();
      const status = platform.capabilities.searchIndex;
      expect(status?.state).toBe('off');
      expect(status?.note).toMatch(/its index size reached [\d.]+ KiB after \d+ of 400 files, [\d.]+ (B|KiB) over searchIndex\.maxIndexBytes \(4\.0 KiB\); set searchIndex: webSearchIndex\(\{ maxIndexBytes: N \}\) with N above [\d.]+ KiB \(\d+ bytes\): the build had done \d+ of 400 files, and the whole index is larger/);
      // searchIndexReady() tells the same note.
      expect((ready as { off: string }).off).toBe(status?.note);
      expect(await answers(new ToolRunner({ platform, tools }))).toEqual(expected);
      await platform.dispose();
      expect(await storedIndex(workspace)).toBeUndefined();

      const { platform: defaults } = open(workspace);
      expect(await defaults.searchIndexReady?.()).toEqual({ from: 'built' });
      expect(defaults.capabilities.searchIndex).toEqual({ state: 'ready' });
      await defaults.dispose();
    } finally {
      await platform.dispose();
      await deleteWorkspace(workspace);
    }
  }, 120_000);
});
