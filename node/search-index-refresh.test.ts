// A saved index that misses most of a Node folder (saved with one file, then hundreds added): many
// searches in one process re-read each new file once (not once per search), dispose waits for no
// backlog of them, every answer equals a plain scan's, and the next process opens the saved index
// with the new files in it.
import { mkdir, mkdtemp, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { openIndex } from '../src/search/index/format.js';
import { SearchIndex, type ReadFile } from '../src/search/index/search-index.js';
import { searchIndexOf } from '../src/search/index/workspace.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';
import { searchIndexFile } from './search-index-store.js';

const NEW_FILES = 300;
const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'x', output_mode: 'count' },
  { pattern: 'needle1\\d', output_mode: 'files_with_matches' },
  { pattern: 'zebraCrossing' },
];

let base: string;
let root: string;
let cacheDir: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-refresh-')));
  root = join(base, 'ws');
  cacheDir = join(base, 'cache');
  await mkdir(join(root, 'sub'), { recursive: true });
  await writeFile(join(root, 'a.txt'), 'hello\n');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Waits until `platform`'s searches have an index (a bound for a hang, not a speed). */
async function indexed(platform: ReturnType<typeof createNodePlatform>): Promise<void> {
  for (const until = Date.now() + 60_000; !searchIndexOf(platform); ) {
    if (Date.now() > until) throw new Error('no search index after 60 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a saved index missing many files of a Node folder', () => {
  it('N searches re-read each new file once, dispose waits for no N × M backlog, answers equal a scan, and the next process opens them indexed', async () => {
    const first = createNodePlatform({ root, searchIndex: { cacheDir, watch: false } });
    await indexed(first);
    await first.dispose();
    expect(openIndex(await readFile(searchIndexFile(root, cacheDir)), root).size).toBe(1);
    const old = Math.floor(Date.now() / 1000) - 60;
    for (let i = 0; i < NEW_FILES; i += 1) {
      const path = join(root, 'sub', `f${i}.txt`);
      await writeFile(path, `line ${i}\nneedle${i % 23}\n${i === 77 ? 'zebraCrossing\n' : ''}`);
      await utimes(path, old, old);
    }
    // Past the one-second racy window (of the files' change times too), so the index trusts what it reads.
    await new Promise((resolve) => setTimeout(resolve, 1100));

    const update = vi.spyOn(SearchIndex.prototype, 'update');
    const platform = createNodePlatform({ root, searchIndex: { cacheDir, watch: false } });
    const plain = createNodePlatform({ root });
    try {
      await indexed(platform);
      const indexedRunner = new ToolRunner({ platform, tools: BuiltinTools.all() });
      const scanned = new ToolRunner({ platform: plain, tools: BuiltinTools.all() });
      const searches = 40;
      for (let n = 0; n < searches; n += 1) {
        const args = SEARCHES[n % SEARCHES.length] as Record<string, unknown>;
        expect(await indexedRunner.execute('grep_search', args), `search ${n}`).toEqual(await scanned.execute('grep_search', args));
      }
      await platform.dispose();
      const counts = new Map<string, number>();
      for (const [file] of update.mock.calls) counts.set((file as ReadFile).path, (counts.get((file as ReadFile).path) ?? 0) + 1);
      expect([...counts].filter(([, count]) => count !== 1)).toEqual([]);
      // The new files, and a.txt once when it was saved racy (written within a second of its index's build).
      expect([...counts.keys()].filter((path) => path.startsWith(join(root, 'sub'))).length).toBe(NEW_FILES);
      expect(update.mock.calls.length).toBeLessThanOrEqual(NEW_FILES + 1);
    } finally {
      update.mockRestore();
      await platform.dispose();
      await plain.dispose();
    }
    expect(openIndex(await readFile(searchIndexFile(root, cacheDir)), root).size).toBe(NEW_FILES + 1);
  }, 120_000);
});
