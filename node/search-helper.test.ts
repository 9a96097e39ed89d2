import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Node 20 workers cannot load .ts, so the helper thread exists in the built package only: these tests
// run the built modules (`npm test` builds dist/ first; a missing or stale build is rebuilt here).
const REPO = join(import.meta.dirname, '..');
const SOURCES = ['node/search-helper.ts', 'node/search-worker.ts', 'node/search-fs.ts', 'src/search/source-cache.ts', 'src/search/line-search.ts'];

function buildIsFresh(): boolean {
  return SOURCES.every((source) => {
    const built = join(REPO, 'dist', source.replace(/\.ts$/, '.js'));
    return existsSync(built) && statSync(built).mtimeMs >= statSync(join(REPO, source)).mtimeMs;
  });
}

type Platforms = typeof import('./platform.js');
type Core = typeof import('../src/index.js');
type Grep = typeof import('../src/tools/grep-search.js');
type Helper = typeof import('./search-helper.js');

let core: Core;
let platforms: Platforms;
let grep: Grep;
let helperModule: Helper;
let base: string;
/** A file of 17 MiB in the helper's share: over its 16 MiB limit, searched by the calling thread. */
let huge = '';

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
  if (huge) files[huge] = 'function huge() {}\n'.repeat(17 * 1024 * 1024 / 19 + 1);
  return files;
}

beforeAll(async () => {
  if (!buildIsFresh()) {
    try {
      execFileSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: REPO, stdio: 'pipe' });
    } catch {
      // type errors elsewhere; the emitted files are used
    }
  }
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(REPO, 'dist', path)).href)) as T;
  core = await load<Core>('src/index.js');
  platforms = await load<Platforms>('node/platform.js');
  grep = await load<Grep>('src/tools/grep-search.js');
  helperModule = await load<Helper>('node/search-helper.js');
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-helper-')));
  const probe = platforms.createNodePlatform({ root: base });
  for (let i = 0; !huge; i += 1) if (probe.searchSource?.helper?.owns(join(base, `big/huge${i}.js`))) huge = `big/huge${i}.js`;
  await probe.dispose();
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

const CALLS: Array<Record<string, unknown>> = [
  { pattern: 'function', fixed_strings: true, output_mode: 'count', max_results: 2000 },
  { pattern: 'function', fixed_strings: true, output_mode: 'files_with_matches', max_results: 2000 },
  { pattern: String.raw`require\(['"][^'"]+['"]\)`, output_mode: 'count', max_results: 2000 },
  { pattern: String.raw`[A-Z][a-z]+[A-Z]\w*`, output_mode: 'count', max_results: 2000 },
  { pattern: 'FUNCTION', case_sensitive: false, output_mode: 'count', max_results: 2000 },
  { pattern: String.raw`function\s+f\d+`, output_mode: 'files_with_matches', max_results: 50 },
  { pattern: 'nothing matches this', fixed_strings: true, output_mode: 'count' },
  // Content stays on the calling thread (the helper's files are read there, not cached twice).
  { pattern: 'function', fixed_strings: true },
  { pattern: 'FooBar', context_lines: 1, max_results: 5 },
];

describe('the search helper thread (built package)', () => {
  it('counts its share of a large tree with the same results as the memory platform, first and repeated, and sees a change', async () => {
    const files = tree();
    const memory = new core.ToolRunner({ platform: core.createMemoryPlatform({ files }), tools: [grep.grepSearchTool] });
    const platform = platforms.createNodePlatform({ root: base });
    try {
      expect(platform.searchSource?.helper).toBeDefined();
      const node = new core.ToolRunner({ platform, tools: [grep.grepSearchTool] });
      const normalise = (value: unknown, root: string): unknown => JSON.parse(JSON.stringify(value).split(root).join('<root>'));
      for (let round = 0; round < 2; round += 1) {
        for (const args of CALLS) {
          const expected = normalise(await memory.execute('grep_search', args), '/workspace');
          expect(normalise(await node.execute('grep_search', args), base), `${JSON.stringify(args)} round ${round}`).toEqual(expected);
        }
      }
      // The helper's own share holds files (its owns() split) and its cache sees a changed file.
      const helper = platform.searchSource?.helper;
      const theirs = Object.keys(files).map((rel) => join(base, rel)).filter((path) => helper?.owns(path));
      expect(theirs.length).toBeGreaterThan(100);
      expect(theirs.length).toBeLessThan(Object.keys(files).length - 100);
      const changed = theirs.find((path) => path.endsWith('.js') && !path.includes('big')) as string;
      const count = async (): Promise<number> => {
        const answer = await helper?.count({ pattern: 'changed here', literal: true, caseSensitive: true, paths: [changed], deadline: Date.now() + 10_000, limit: 64 * 1024 * 1024 }, undefined);
        return answer?.codes[0] as number;
      };
      expect(await count()).toBe(0);
      await writeFile(changed, 'changed here\nchanged here too\n');
      expect(await count()).toBe(2);
      expect(await node.execute('grep_search', { pattern: 'changed here', fixed_strings: true, output_mode: 'count' })).toMatchObject({ total_matches: 2, total_files: 1 });
      await writeFile(changed, files[changed.slice(base.length + 1)] as string);
      await utimes(changed, Date.now() / 1000 - 10, Date.now() / 1000 - 10);
    } finally {
      await platform.dispose();
    }
  });

  it('answers a count stopped by its time limit with what it covered, and a cancelled count with cancelled; the platform stays usable', async () => {
    const platform = platforms.createNodePlatform({ root: base });
    try {
      const runner = new core.ToolRunner({ platform, tools: [grep.grepSearchTool] });
      const helper = platform.searchSource?.helper;
      const paths = Object.keys(tree()).map((rel) => join(base, rel));
      // A deadline already past: nothing is reached.
      const late = await helper?.count({ pattern: 'function', literal: true, caseSensitive: true, paths, deadline: Date.now() - 1, limit: 64 * 1024 * 1024 }, undefined);
      expect(late?.stopped).toBe(true);
      expect(Array.from(late?.codes ?? []).every((code) => code === -1)).toBe(true);
      const controller = new AbortController();
      controller.abort();
      await expect(helper?.count({ pattern: 'function', literal: true, caseSensitive: true, paths, deadline: Date.now() + 10_000, limit: 64 * 1024 * 1024 }, controller.signal)).rejects.toMatchObject({ code: 'cancelled' });
      // Aborted while the worker counts: answers cancelled at once (the worker drops the job).
      const midway = new AbortController();
      const counting = helper?.count({ pattern: 'function', literal: true, caseSensitive: true, paths, deadline: Date.now() + 10_000, limit: 64 * 1024 * 1024 }, midway.signal);
      midway.abort();
      await expect(counting).rejects.toMatchObject({ code: 'cancelled' });
      const answer = await helper?.count({ pattern: 'function', literal: true, caseSensitive: true, paths, deadline: Date.now() + 10_000, limit: 64 * 1024 * 1024 }, undefined);
      expect(answer?.stopped).toBe(false);
      // Per path: 59 binary files (-4: 50 with a NUL, 9 not UTF-8), the others counted.
      expect(Array.from(answer?.codes ?? []).filter((code) => code === -4)).toHaveLength(59);
      expect(await runner.execute('grep_search', { pattern: 'function', fixed_strings: true, output_mode: 'count' })).toMatchObject({ binary_files_skipped: 59, files_searched: 642 });
    } finally {
      await platform.dispose();
    }
  });

  it('answers a count queued behind another platform\'s long count as not reached soon after its deadline', async () => {
    const slow = platforms.createNodePlatform({ root: base });
    const quick = platforms.createNodePlatform({ root: base });
    const stop = new AbortController();
    try {
      const limit = 64 * 1024 * 1024;
      // 40 passes of a no-literal regex over the 17 MiB file: seconds of work for the one worker.
      const long = slow.searchSource?.helper?.count({ pattern: '[A-Z][a-z]+[A-Z]\\w*|f\\w+ h', literal: false, caseSensitive: true, paths: Array(40).fill(join(base, huge)), deadline: Date.now() + 60_000, limit }, stop.signal);
      long?.catch(() => undefined);
      const started = Date.now();
      const answer = await quick.searchSource?.helper?.count({ pattern: 'function', literal: true, caseSensitive: true, paths: [join(base, 'big/big.js')], deadline: started + 300, limit }, undefined);
      const waited = Date.now() - started;
      expect(answer).toEqual({ codes: Int32Array.of(-1), stopped: true });
      expect(waited).toBeGreaterThanOrEqual(300);
      expect(waited).toBeLessThan(300 + 100 + 1000);
      stop.abort();
      await expect(long).rejects.toMatchObject({ code: 'cancelled' });
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
