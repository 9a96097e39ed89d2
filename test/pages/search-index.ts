// Bench page (bench/search-index-web.bench.mjs): an IndexedDB workspace of many files with
// `searchIndex: webSearchIndex()`, a repeated grep_search with the index beside the same search on the same
// workspace without it (a copy of the platform, which has no index), answers compared. Exposed as
// `window.tsiBench` for Playwright's page.evaluate.
import { ToolRunner } from '../../src/runner.js';
import type { Platform } from '../../src/core/types.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { searchIndexIdle } from '../../src/search/index/workspace.js';
import { createWebPlatform, deleteWorkspace } from '../../web/index.js';
import { webSearchIndex } from '../../web/search-index.js';

const WORDS = ['function', 'return', 'const', 'value', 'import', 'export', 'result', 'index', 'string', 'number', 'await', 'async', 'options', 'platform', 'search'];

/** About 1 KiB of code-like text, different per file; a rare identifier in one file of 1,000. */
function content(i: number): string {
  let text = `// file ${i}\n`;
  for (let line = 0; text.length < 1024; line += 1) {
    const a = WORDS[(i * 7 + line) % WORDS.length] as string;
    const b = WORDS[(i * 13 + line * 3) % WORDS.length] as string;
    text += `export function ${a}${i}_${line}(${b}) {\n  return ${b} + ${i * line};\n}\n`;
  }
  return i % 1000 === 500 ? `${text}const zebraCrossing${i} = 1;\n` : text;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1] as number;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

const bench = {
  /**
   * A workspace of `count` files seeded in one transaction, reopened with `searchIndex: webSearchIndex()` (the
   * build timed), then `pairs` pairs of the same search with the index and without it, which first
   * alternating; then reopened once more (the saved index read back, timed).
   */
  async run(count = 20_000, pairs = 9, pattern = 'zebraCrossing'): Promise<Record<string, unknown>> {
    const workspace = `bench-search-index-${Math.random()}`;
    const files: Record<string, string> = {};
    for (let i = 0; i < count; i += 1) files[`d${i % 50}/s${i % 7}/f${i}.ts`] = content(i);
    const seeded = createWebPlatform({ workspace, files, durability: 'relaxed' });
    const seed = await timed(() => seeded.ready());
    await seeded.dispose();
    // Past the window in which the index does not trust a file's times.
    await sleep(1100);
    let platform = createWebPlatform({ workspace, searchIndex: webSearchIndex(), durability: 'relaxed' });
    try {
      const load = await timed(() => platform.ready());
      const build = await timed(async () => platform.searchIndexReady?.());
      const plain: Platform = { ...platform };
      const indexed = new ToolRunner({ platform, tools: BuiltinTools.all() });
      const scanned = new ToolRunner({ platform: plain, tools: BuiltinTools.all() });
      const args = { pattern, fixed_strings: true, output_mode: 'count', max_time_ms: 120_000 };
      // One unmeasured search each warms both up (and settles the index).
      const expected = await scanned.execute('grep_search', args);
      const first = await indexed.execute('grep_search', args);
      await searchIndexIdle(platform);
      const on: number[] = [];
      const off: number[] = [];
      let same = JSON.stringify(first) === JSON.stringify(expected);
      for (let pair = 0; pair < pairs; pair += 1) {
        for (const withIndex of pair % 2 === 0 ? [true, false] : [false, true]) {
          const { ms, value } = await timed(() => (withIndex ? indexed : scanned).execute('grep_search', args));
          (withIndex ? on : off).push(ms);
          same &&= JSON.stringify(value) === JSON.stringify(expected);
        }
      }
      await platform.dispose();
      platform = createWebPlatform({ workspace, searchIndex: webSearchIndex(), durability: 'relaxed' });
      const reopen = await timed(async () => platform.searchIndexReady?.());
      const firstAfter = await timed(() => new ToolRunner({ platform, tools: BuiltinTools.all() }).execute('grep_search', args));
      same &&= JSON.stringify(firstAfter.value) === JSON.stringify(expected);
      return {
        count,
        matches: (expected as { total_matches?: number }).total_matches,
        same,
        seedMs: seed.ms,
        loadMs: load.ms,
        build: build.value,
        buildMs: build.ms,
        on: median(on),
        off: median(off),
        onAll: on,
        offAll: off,
        reopen: reopen.value,
        reopenMs: reopen.ms,
        firstAfterReopenMs: firstAfter.ms,
      };
    } finally {
      await platform.dispose();
      await deleteWorkspace(workspace);
    }
  },
};

(globalThis as { tsiBench?: typeof bench }).tsiBench = bench;
document.title = 'toolhost search index page ready';
