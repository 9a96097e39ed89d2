import { mkdir, mkdtemp, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import { ensureBuilt, loadBuiltModule } from '../test/support/build.js';

// createNodePlatform({ searchIndex: { maxIndexBytes, maxBuildBytes } }): a build past a budget stops on
// its worker thread and sets no index, an index that outgrows its size through tool writes is dropped,
// searches then scan (a scan's answers), and capabilities.searchIndex says which budget and what to set.
// The build thread runs built modules, so these tests load the shared build in dist/.

type Platforms = typeof import('./platform.js');
type Core = typeof import('../src/index.js');
type Workspace = typeof import('../src/search/index/workspace.js');
type Store = typeof import('./search-index-store.js');

let platforms: Platforms;
let core: Core;
let workspace: Workspace;
let store: Store;
let base: string;
let root: string;
const FILES = 300;
const OLD = Math.floor(Date.now() / 1000) - 60;

beforeAll(async () => {
  ensureBuilt();
  const load = loadBuiltModule;
  platforms = await load<Platforms>('node/platform.js');
  core = await load<Core>('src/index.js');
  workspace = await load<Workspace>('src/search/index/workspace.js');
  store = await load<Store>('node/search-index-store.js');
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-budget-')));
  root = join(base, 'ws');
  for (let i = 0; i < FILES; i += 1) {
    const rel = `d${i % 6}/f${i}.ts`;
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), `export function f${i}() {\n  return ${i * 7919};\n}\n${i % 100 === 7 ? `const gnuTrail${i} = 1;\n` : ''}`.repeat(10));
    await utimes(join(root, rel), OLD, OLD);
  }
  await new Promise((resolve) => setTimeout(resolve, 1100));
}, 240_000);
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'gnuTrail', output_mode: 'count' },
  { pattern: 'GNU\\w+', case_sensitive: false },
  { pattern: 'return 79', fixed_strings: true, output_mode: 'files_with_matches' },
];

async function answers(platform: Platform): Promise<unknown[]> {
  const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
  const out: unknown[] = [];
  for (const args of SEARCHES) out.push(await runner.execute('grep_search', { ...args, max_time_ms: 120_000 }));
  return out;
}

/** What a plain scan of the root answers. */
async function scanned(): Promise<unknown[]> {
  const plain = platforms.createNodePlatform({ root });
  try {
    return await answers(plain);
  } finally {
    await plain.dispose();
  }
}

/** Waits until `platform`'s index is no longer opening or building (a bound for a hang, not a speed). */
async function settled(platform: Platform): Promise<NonNullable<Platform['capabilities']['searchIndex']>> {
  for (const until = Date.now() + 120_000; ; ) {
    const status = platform.capabilities.searchIndex;
    if (status === undefined) throw new Error('capabilities.searchIndex is missing');
    if (status.state !== 'building') return status;
    if (Date.now() > until) throw new Error('the search index still building after 120 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const gone = (path: string): Promise<string> => stat(path).then(
  () => 'present',
  (error: { code?: string }) => error.code ?? 'error',
);

describe('createNodePlatform({ searchIndex }) budgets', () => {
  it('a tiny maxIndexBytes: the thread stops early, no index and no file, searches equal a scan, capabilities.searchIndex off with the note', async () => {
    const expected = await scanned();
    expect((expected[0] as { total_matches: number }).total_matches).toBe(30);
    const cacheDir = join(base, 'cache-tiny');
    const platform = platforms.createNodePlatform({ root, searchIndex: { cacheDir, maxIndexBytes: 8192 } });
    expect(platform.capabilities.searchIndex).toEqual({ state: 'building' });
    const status = await settled(platform);
    expect(status.state).toBe('off');
    const note = status.note as string;
    expect(note).toMatch(/^search index off, searches scan every file: its index size reached [\d.]+ KiB after \d+ of 300 files, [\d.]+ (B|KiB) over searchIndex\.maxIndexBytes \(8\.0 KiB\); set searchIndex: \{ maxIndexBytes: N \} with N above [\d.]+ KiB \(\d+ bytes\): the build had done \d+ of 300 files, and the whole index is larger/);
    expect(Number(/after (\d+) of/.exec(note)?.[1])).toBeLessThan(FILES);
    expect(workspace.searchIndexOf(platform)).toBeUndefined();
    expect(await answers(platform)).toEqual(expected);
    await platform.dispose();
    expect(await gone(store.searchIndexFile(root, cacheDir))).toBe('ENOENT');
  }, 240_000);

  it('a tiny maxBuildBytes: off, the note names maxBuildBytes', async () => {
    const cacheDir = join(base, 'cache-build');
    const platform = platforms.createNodePlatform({ root, searchIndex: { cacheDir, maxBuildBytes: 1024 * 1024 } });
    const status = await settled(platform);
    expect(status.state).toBe('off');
    expect(status.note).toMatch(/its build memory reached [\d.]+ MiB after 0 of 300 files, [\d.]+ (KiB|MiB) over searchIndex\.maxBuildBytes \(1\.0 MiB\); set searchIndex: \{ maxBuildBytes: N \} with N above [\d.]+ MiB \(\d+ bytes\): the build had done 0 of 300 files, and the whole build needs more/);
    expect(workspace.searchIndexOf(platform)).toBeUndefined();
    await platform.dispose();
    expect(await gone(store.searchIndexFile(root, cacheDir))).toBe('ENOENT');
  }, 240_000);

  it('the defaults admit the tree: ready, the index in use; no searchIndex option, no capabilities.searchIndex', async () => {
    const platform = platforms.createNodePlatform({ root, searchIndex: { cacheDir: join(base, 'cache-default') } });
    expect(await settled(platform)).toEqual({ state: 'ready' });
    expect(workspace.searchIndexOf(platform)?.size).toBe(FILES);
    expect(platform.capabilities).toEqual({ runCommand: true, webSearch: true, persistent: false, searchIndex: { state: 'ready' } });
    await platform.dispose();
    const plain = platforms.createNodePlatform({ root });
    expect(plain.capabilities).toEqual({ runCommand: true, webSearch: true, persistent: false });
    expect(plain.capabilities.searchIndex).toBeUndefined();
    await plain.dispose();
  }, 240_000);

  it('an index that outgrows maxIndexBytes through tool writes is dropped: off with the note, searches equal a scan', async () => {
    const sizing = platforms.createNodePlatform({ root, searchIndex: { cacheDir: join(base, 'cache-sizing') } });
    await settled(sizing);
    const bytes = (workspace.searchIndexOf(sizing) as NonNullable<ReturnType<Workspace['searchIndexOf']>>).bytes;
    await sizing.dispose();

    const platform = platforms.createNodePlatform({ root, searchIndex: { cacheDir: join(base, 'cache-grow'), maxIndexBytes: bytes + 2000 } });
    expect(await settled(platform)).toEqual({ state: 'ready' });
    const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
    let text = '';
    for (let i = 0; i < 3000; i += 1) text += `${(i * 2654435761).toString(36)} gnuTrailNew${i}\n`;
    const big = join(root, 'd0/big.ts');
    try {
      await runner.execute('create_file', { file_path: big, content: text });
      await workspace.searchIndexIdle(platform);
      expect(workspace.searchIndexOf(platform)).toBeUndefined();
      const status = platform.capabilities.searchIndex;
      expect(status?.state).toBe('off');
      expect(status?.note).toMatch(/its index size reached [\d.]+ KiB after updates, [\d.]+ KiB over searchIndex\.maxIndexBytes \([\d.]+ KiB\)/);
      const expected = await scanned();
      expect((expected[0] as { total_matches: number }).total_matches).toBe(3030);
      expect(await answers(platform)).toEqual(expected);
    } finally {
      await platform.dispose();
      await rm(big, { force: true });
    }
  }, 240_000);

  it('budgetNames: both names, non-empty strings, else a TypeError naming the option', () => {
    for (const [bad, message] of [
      [{ maxIndexBytes: '--a' }, /^createNodePlatform: searchIndex\.budgetNames\.maxBuildBytes must be a non-empty string, not undefined/],
      [{ maxIndexBytes: '', maxBuildBytes: '--b' }, /^createNodePlatform: searchIndex\.budgetNames\.maxIndexBytes must be a non-empty string/],
      [{ maxIndexBytes: '--a', maxBuildBytes: '--b', other: 'x' }, /searchIndex\.budgetNames\.other/],
      ['--a', /^createNodePlatform: searchIndex\.budgetNames must be \{ maxIndexBytes, maxBuildBytes \}/],
    ] as const) {
      expect(() => platforms.createNodePlatform({ root, searchIndex: { budgetNames: bad } as never })).toThrow(message);
    }
  });

  it('a negative, zero, non-finite or non-numeric budget is a TypeError naming the option', () => {
    for (const bad of [-1, 0, Number.NaN, Number.POSITIVE_INFINITY, '1000000', null]) {
      for (const name of ['maxIndexBytes', 'maxBuildBytes']) {
        let error: unknown;
        try {
          platforms.createNodePlatform({ root, searchIndex: { [name]: bad } as never });
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(new RegExp(`^createNodePlatform: searchIndex\\.${name} must be a finite number of bytes above 0`));
      }
    }
  });
});
