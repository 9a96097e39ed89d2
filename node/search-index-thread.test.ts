import { mkdir, mkdtemp, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, loadBuiltModule } from '../test/support/build.js';
import { withTimerWatch } from '../test/support/timer-watch.js';

// createNodePlatform({ searchIndex }) builds the index on a worker thread (node/search-index-worker.js):
// the thread runs built modules, so these tests load the shared build in dist/ (rebuilt once when stale).

type Platforms = typeof import('./platform.js');
type Core = typeof import('../src/index.js');
type Workspace = typeof import('../src/search/index/workspace.js');
type Store = typeof import('./search-index-store.js');
type Format = typeof import('../src/search/index/format.js');

let platforms: Platforms;
let core: Core;
let workspace: Workspace;
let store: Store;
let format: Format;
let base: string;
let root: string;
const OLD = Math.floor(Date.now() / 1000) - 60;

beforeAll(async () => {
  ensureBuilt();
  const load = loadBuiltModule;
  platforms = await load<Platforms>('node/platform.js');
  core = await load<Core>('src/index.js');
  workspace = await load<Workspace>('src/search/index/workspace.js');
  store = await load<Store>('node/search-index-store.js');
  format = await load<Format>('src/search/index/format.js');
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-thread-')));
  root = join(base, 'ws');
  for (let i = 0; i < 600; i += 1) {
    const rel = `d${i % 12}/f${i}.ts`;
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), `export function f${i}() {\n  return ${i};\n}\n${i % 200 === 7 ? `const yakShave${i} = 1;\n` : ''}`.repeat(20));
    await utimes(join(root, rel), OLD, OLD);
  }
  await writeFile(join(root, 'blob.bin'), new Uint8Array([1, 2, 0, 3]));
  await utimes(join(root, 'blob.bin'), OLD, OLD);
  await new Promise((resolve) => setTimeout(resolve, 1100));
}, 240_000);
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'yakShave', output_mode: 'count' },
  { pattern: 'YAK\\w+', case_sensitive: false },
  { pattern: 'function', fixed_strings: true, output_mode: 'files_with_matches', max_results: 2000 },
];

async function answers(platform: import('../src/core/types.js').Platform, options: { timeoutMs?: number } = {}): Promise<unknown[]> {
  const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
  const out: unknown[] = [];
  for (const args of SEARCHES) out.push(await runner.execute('grep_search', { ...args, max_time_ms: 120_000 }, options));
  return out;
}

describe('the Node search index built on a worker thread', () => {
  it('searches during the build answer as a plain scan, within their deadline; the index comes from the thread, equal to a build on the main thread, and is saved', async () => {
    const cacheDir = join(base, 'cache-1');
    const plain = platforms.createNodePlatform({ root });
    const expected = await answers(plain);
    expect((expected[0] as { total_matches: number }).total_matches).toBe(60);
    const reference = await workspace.buildWorkspaceIndex(plain);
    await plain.dispose();

    const { value: platform, gap } = await withTimerWatch(async () => {
      const created = platforms.createNodePlatform({ root, searchIndex: { cacheDir } });
      // A search while the thread builds: a scan's answer, inside a deadline of its own.
      expect(await answers(created, { timeoutMs: 60_000 })).toEqual(expected);
      return created;
    });
    expect(gap).toBeLessThan(1000);
    for (let until = Date.now() + 120_000; !workspace.searchIndexOf(platform); ) {
      if (Date.now() > until) throw new Error('no search index after 120 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const index = workspace.searchIndexOf(platform) as NonNullable<ReturnType<Workspace['searchIndexOf']>>;
    expect(index.size).toBe(601);
    expect(index.paths().sort()).toEqual(reference.paths().sort());
    for (const path of [join(root, 'd7/f7.ts'), join(root, 'blob.bin')]) expect(index.file(path)).toEqual(reference.file(path));
    expect(await answers(platform)).toEqual(expected);
    await platform.dispose();
    // The thread saved it: the file opens to the same files.
    const saved = format.openIndex(new Uint8Array(await readFile(store.searchIndexFile(root, cacheDir))), root);
    expect(saved.paths().sort()).toEqual(reference.paths().sort());
  }, 240_000);

  it('a tool write while the thread builds: once the index is in use, searches still answer as a plain scan', async () => {
    const cacheDir = join(base, 'cache-3');
    const platform = platforms.createNodePlatform({ root, searchIndex: { cacheDir } });
    const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
    await runner.execute('create_file', { file_path: join(root, 'd3/f3.ts'), content: 'export const wombatTrail = 3;\n', overwrite: true });
    await runner.execute('create_file', { file_path: join(root, 'd3/new.ts'), content: 'export const wombatNew = 1;\n' });
    for (let until = Date.now() + 120_000; !workspace.searchIndexOf(platform); ) {
      if (Date.now() > until) throw new Error('no search index after 120 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await runner.execute('edit_file', { file_path: join(root, 'd3/new.ts'), old_string: 'wombatNew', new_string: 'wombatEdited' });
    const plain = platforms.createNodePlatform({ root });
    const scan = new core.ToolRunner({ platform: plain, tools: core.BuiltinTools.all() });
    for (const pattern of ['wombat\\w+', 'yakShave', 'return 3;']) {
      const args = { pattern, output_mode: 'content' };
      expect(await runner.execute('grep_search', args)).toEqual(await scan.execute('grep_search', args));
    }
    expect(await runner.execute('grep_search', { pattern: 'wombat\\w+', output_mode: 'files_with_matches' })).toMatchObject({ files: [join(root, 'd3/f3.ts'), join(root, 'd3/new.ts')] });
    await plain.dispose();
    await platform.dispose();
    await rm(join(root, 'd3/new.ts'));
  }, 240_000);

  it('ready says the build ran off the main thread; a root the thread cannot read ends it with the error, and the platform scans', async () => {
    const cacheDir = join(base, 'cache-2');
    const platform = platforms.createNodePlatform({ root });
    const attached = store.attachSearchIndex(platform, { cacheDir });
    expect(await attached.ready).toEqual({ from: 'built', offThread: true });
    expect(workspace.searchIndexOf(platform)?.size).toBe(601);
    await attached.close();
    await platform.dispose();

    const gone = join(base, 'gone');
    await mkdir(gone);
    const lost = platforms.createNodePlatform({ root: gone });
    await rm(gone, { recursive: true });
    const failed = store.attachSearchIndex(lost, { cacheDir });
    expect(await failed.ready).toHaveProperty('error');
    expect(workspace.searchIndexOf(lost)).toBeUndefined();
    await failed.close();
    await lost.dispose();
  }, 240_000);
});
