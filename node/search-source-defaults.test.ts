import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import { ToolRunner } from '../src/runner.js';
import { pauseRacyClockForTests } from '../src/fs/racy-clock.js';
import { cacheOf } from '../src/search/source-cache.js';
import { grepSearchTool } from '../src/tools/grep-search.js';
import { createNodePlatform } from './platform.js';
import { createNodeSearchSource, withSearchSourceDefaults } from './search-fs.js';
import { searchSourceOf } from '../src/search/engine-source.js';
import type { SearchSource } from '../src/search/source-port.js';

// withSearchSourceDefaults: what `toolhost call` (one call, then the process exits) creates its
// platform with: a search that keeps no file contents and starts no helper thread, same answers.

let root = '';

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-source-defaults-')));
  for (let i = 0; i < 40; i += 1) {
    await mkdir(join(root, `dir${i % 4}`), { recursive: true });
    await writeFile(join(root, `dir${i % 4}`, `file${i}.txt`), `line one\nneedle ${i}\n${i % 3 === 0 ? 'needle again\n' : ''}`);
  }
  // Out of the racy-clean second (the caches' clock moved on, as a real wait would), so the default platform's cache keeps what it reads.
  pauseRacyClockForTests(1100);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A count of "needle" over `platform`, and the bytes its search cache holds afterwards. */
async function countOn(platform: Platform): Promise<{ result: unknown; cached: number }> {
  const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
  try {
    const result = await runner.execute('grep_search', { pattern: 'needle', fixed_strings: true, output_mode: 'count' });
    return { result, cached: cacheOf(searchSourceOf(platform) as SearchSource).used };
  } finally {
    await platform.dispose();
  }
}

describe.runIf(process.platform === 'linux')('withSearchSourceDefaults', () => {
  it('gives the sources created inside it a cache budget of 0 and no helper, and the ones after it the defaults again', () => {
    const inside = withSearchSourceDefaults({ cacheBytes: 0, helper: false }, () => createNodeSearchSource(root));
    const after = createNodeSearchSource(root);
    try {
      expect(inside.cacheBytes).toBe(0);
      expect(inside.helper).toBeUndefined();
      expect(after.cacheBytes).toBeUndefined();
    } finally {
      inside.close();
      after.close();
    }
  });

  it('keepListings: false as a default: a directory listed twice is read twice, while a default source keeps its first listing', () => {
    const oneShot = withSearchSourceDefaults({ cacheBytes: 0, helper: false, keepListings: false }, () => createNodeSearchSource(root));
    const usual = createNodeSearchSource(root);
    try {
      const first = oneShot.listing(join(root, 'dir1'));
      expect(first.entries.map((entry) => entry.name).sort()).toEqual(['file1.txt', 'file13.txt', 'file17.txt', 'file21.txt', 'file25.txt', 'file29.txt', 'file33.txt', 'file37.txt', 'file5.txt', 'file9.txt']);
      expect(oneShot.listing(join(root, 'dir1'))).not.toBe(first);
      const kept = usual.listing(join(root, 'dir1'));
      expect(usual.listing(join(root, 'dir1'))).toBe(kept);
    } finally {
      oneShot.close();
      usual.close();
    }
  });

  it("lets a source's own options win over the defaults", () => {
    const source = withSearchSourceDefaults({ cacheBytes: 0, helper: false }, () => createNodeSearchSource(root, { cacheBytes: 4096 }));
    try {
      expect(source.cacheBytes).toBe(4096);
    } finally {
      source.close();
    }
  });

  it('restores the defaults when create throws, and passes the error on', () => {
    expect(() =>
      withSearchSourceDefaults({ cacheBytes: 0 }, () => {
        throw new TypeError('boom');
      }),
    ).toThrow('boom');
    const source = createNodeSearchSource(root);
    try {
      expect(source.cacheBytes).toBeUndefined();
    } finally {
      source.close();
    }
  });

  it('a platform made with { cacheBytes: 0, helper: false, keepListings: false } counts the same as a default one and caches no file', async () => {
    const oneShot = await countOn(withSearchSourceDefaults({ cacheBytes: 0, helper: false, keepListings: false }, () => createNodePlatform({ root })));
    const usual = await countOn(createNodePlatform({ root }));
    expect(oneShot.result).toEqual(usual.result);
    expect((usual.result as { total_matches: number }).total_matches).toBe(54);
    expect(oneShot.cached).toBe(0);
    expect(usual.cached).toBeGreaterThan(0);
  });
});
