import { mkdir, mkdtemp, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import { ToolRunner } from '../src/runner.js';
import { searchIndexOf } from '../src/search/index/workspace.js';
import { treeWatchOf } from '../src/search/index/reuse.js';
import { BuiltinTools } from '../src/tools/index.js';
import { withTimerWatch } from '../test/support/timer-watch.js';
import { createNodePlatform } from './platform.js';
import { searchIndexFile } from './search-index-store.js';

// createNodePlatform({ searchIndex }): the index opened or built in the background, used by searches
// once ready (their answers those of a plain scan all along), and saved on dispose for the next process.

let base: string;
let root: string;
let cacheDir: string;
/** A minute ago, past the one-second window in which the index does not trust a file's times. */
const OLD = Math.floor(Date.now() / 1000) - 60;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-option-')));
  root = join(base, 'ws');
  cacheDir = join(base, 'cache');
  // 600 files; a rare word in three of them, a common one in all.
  for (let i = 0; i < 600; i += 1) {
    const rel = `d${i % 12}/f${i}.ts`;
    const rare = i % 200 === 7 ? `const zebraCrossing${i} = 1;\n` : '';
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), `export function f${i}() {\n  return ${i};\n}\n${rare}`.repeat(20));
    await utimes(join(root, rel), OLD, OLD);
  }
  await new Promise((resolve) => setTimeout(resolve, 1100));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'zebraCrossing', output_mode: 'count' },
  { pattern: 'ZEBRA\\w+', case_sensitive: false },
  { pattern: 'function', fixed_strings: true, output_mode: 'files_with_matches', max_results: 2000 },
];

async function answers(platform: Platform): Promise<unknown[]> {
  const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
  const out: unknown[] = [];
  for (const args of SEARCHES) out.push(await runner.execute('grep_search', { ...args, max_time_ms: 120_000 }));
  return out;
}

/** Waits until `platform`'s searches have an index (a bound for a hang, not a speed). */
async function indexed(platform: Platform): Promise<void> {
  for (const until = Date.now() + 60_000; !searchIndexOf(platform); ) {
    if (Date.now() > until) throw new Error('no search index after 60 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('createNodePlatform({ searchIndex })', () => {
  it('searches during the build as a plain scan does, keeps the event loop turning, then uses the index with the same answers, and saves it on dispose', async () => {
    const plain = createNodePlatform({ root });
    const expected = await answers(plain);
    await plain.dispose();
    expect((expected[0] as { total_matches: number }).total_matches).toBe(60);

    const platform = createNodePlatform({ root, searchIndex: { cacheDir } });
    expect(searchIndexOf(platform)).toBeUndefined();
    // A search while the index is being built: a scan's answer.
    expect(await answers(platform)).toEqual(expected);
    const { gap } = await withTimerWatch(() => indexed(platform));
    expect(gap).toBeLessThan(1000);
    const index = searchIndexOf(platform);
    expect(index?.size).toBe(600);
    expect(await answers(platform)).toEqual(expected);
    await platform.dispose();
    expect((await stat(searchIndexFile(root, cacheDir))).size).toBeGreaterThan(0);
  }, 120_000);

  it('opens the saved index in a new platform before its first search, without building it again, and rebuilds a corrupt one', async () => {
    const file = searchIndexFile(root, cacheDir);
    const saved = await stat(file);
    const plain = createNodePlatform({ root });
    const expected = await answers(plain);
    await plain.dispose();
    const platform = createNodePlatform({ root, searchIndex: { cacheDir } });
    // The first search waits for the saved index to be read, and has it.
    expect(await answers(platform)).toEqual(expected);
    expect(searchIndexOf(platform)?.size).toBe(600);
    // Read, not rebuilt: a build would have written the file anew.
    expect((await stat(file)).mtimeMs).toBe(saved.mtimeMs);
    await platform.dispose();

    await writeFile(file, 'not an index');
    const rebuilt = createNodePlatform({ root, searchIndex: { cacheDir } });
    await indexed(rebuilt);
    expect(searchIndexOf(rebuilt)?.size).toBe(600);
    expect(await answers(rebuilt)).toEqual(expected);
    // dispose() waits for the save that follows the build.
    await rebuilt.dispose();
    expect((await stat(file)).size).toBeGreaterThan(100);
  }, 120_000);

  it('refuses searchIndex with an in-memory workspace, and a bad value, as the host mistakes they are', () => {
    expect(() => createNodePlatform({ inMemory: true, searchIndex: true })).toThrow(TypeError);
    expect(() => createNodePlatform({ root, searchIndex: 'yes' as unknown as boolean })).toThrow(/searchIndex/);
  });
});

describe('createNodePlatform({ searchIndex: { watch } })', () => {
  it('watches the tree by default on Linux, and not with watch: false (every listed file is then checked)', async () => {
    const watched = createNodePlatform({ root, searchIndex: { cacheDir: join(base, 'cache-watch') } });
    const unwatched = createNodePlatform({ root, searchIndex: { cacheDir: join(base, 'cache-nowatch'), watch: false } });
    try {
      expect(treeWatchOf(watched) !== undefined).toBe(process.platform === 'linux');
      expect(treeWatchOf(unwatched)).toBeUndefined();
      // Both answer as a plain scan.
      const args = { pattern: 'zebraCrossing', dir_path: root, output_mode: 'count' };
      const plain = await new ToolRunner({ platform: createNodePlatform({ root }), tools: BuiltinTools.all() }).execute('grep_search', args);
      expect(await new ToolRunner({ platform: watched, tools: BuiltinTools.all() }).execute('grep_search', args)).toEqual(plain);
      expect(await new ToolRunner({ platform: unwatched, tools: BuiltinTools.all() }).execute('grep_search', args)).toEqual(plain);
    } finally {
      await watched.dispose();
      await unwatched.dispose();
    }
  });

  it('refuses a watch that is not a boolean, naming the option', () => {
    expect(() => createNodePlatform({ root, searchIndex: { watch: 'yes' as unknown as boolean } })).toThrow(/searchIndex\.watch/);
  });
});
