// The count memo on a watched Node folder: a repeated count of a pattern in most files, or of a regex
// with no literal, is answered from the counts remembered in the kept verdicts; every search right
// after a change made behind the runner's back (same-size writes with the old times put back,
// appends, new files) answers as a plain scan does.
import { appendFile, mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import type { SearchSource } from '../src/search/source-port.js';
import { ToolRunner } from '../src/runner.js';
import { buildWorkspaceIndex, searchIndexIdle } from '../src/search/index/workspace.js';
import { setSearchIndex } from '../src/search/index/engine.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';
import { watchSearchTree } from './search-index-store.js';
import { seededRandom } from '../test/support/random.js';
import { searchSourceOf } from '../src/search/engine-source.js';
import { createSearchEngine } from '../src/search/engine.js';

const bases: string[] = [];
afterAll(async () => {
  for (const base of bases) await rm(base, { recursive: true, force: true });
});

/** Lines of common words, a few with `word<digits>` tokens (what the regex without a literal finds). */
function text(lines: number, seed: number): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'omega'];
  let out = '';
  for (let i = 0; i < lines; i += 1) out += `${words[(seed + i) % words.length]} ${words[(seed * 3 + i) % words.length]}${(seed + i) % 4 === 0 ? ` item${i}` : ''}\n`;
  return out;
}

const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'alpha', fixed_strings: true, output_mode: 'count' },
  { pattern: String.raw`[a-z]+\d+`, output_mode: 'count' },
  { pattern: 'ALPHA', case_sensitive: false, output_mode: 'files_with_matches' },
  { pattern: 'alpha beta', output_mode: 'content' },
];

describe('the count memo of a watched Node folder', () => {
  it('answers repeated counts of common patterns checking no file, and every search after an outside change as a plain scan', async () => {
    const random = seededRandom(20261206);
    const base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-memo-')));
    bases.push(base);
    const root = join(base, 'ws');
    const old = Math.floor(Date.now() / 1000) - 60;
    const files: string[] = [];
    for (let i = 0; i < 24; i += 1) {
      const path = join(root, `d${i % 3}`, `f${i}.txt`);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text(20 + i, i));
      await utimes(path, old, old);
      files.push(path);
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const node = createNodePlatform({ root });
    const reads: string[] = [];
    const inner = searchSourceOf(node) as SearchSource;
    // Files stated or read on this thread (no helper: 24 files are too few to share); a file the cache holds is stated, not read.
    const read: SearchSource['read'] = (path, maxBytes, into) => (reads.push(path), inner.read(path, maxBytes, into));
    const stat: SearchSource['stat'] = (path) => (reads.push(path), inner.stat(path));
    const counted = new Proxy(inner, {
      get: (target, key) => {
        if (key === 'read') return read;
        if (key === 'stat') return stat;
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const platform: Platform = { ...node, search: createSearchEngine({ source: counted }) };
    const plain: Platform = { ...node };
    const watch = watchSearchTree(platform);
    try {
      await watch.ready;
      setSearchIndex(platform, await buildWorkspaceIndex(platform));
      const tools = BuiltinTools.all();
      const indexed = new ToolRunner({ platform, tools });
      const scanned = new ToolRunner({ platform: plain, tools });
      // Unchanged: the second count of each pattern checks no file.
      for (const args of SEARCHES.slice(0, 2)) {
        reads.length = 0;
        expect(await indexed.execute('grep_search', args)).toEqual(await scanned.execute('grep_search', args));
        expect(new Set(reads).size).toBe(files.length);
        await searchIndexIdle(platform);
        reads.length = 0;
        expect(await indexed.execute('grep_search', args)).toEqual(await scanned.execute('grep_search', args));
        expect(reads, JSON.stringify(args)).toEqual([]);
      }
      for (let round = 0; round < 30; round += 1) {
        const target = files[Math.floor(random() * files.length)] as string;
        const roll = random();
        let change = 'none';
        if (roll < 0.4) {
          // The same size and the old times back: only the watch (or the change time) tells.
          change = 'same-size write';
          const bytes = readFileSync(target, 'utf8');
          const at = Math.floor(random() * Math.max(1, bytes.length - 8));
          writeFileSync(target, `${bytes.slice(0, at)}alpha${round % 10}${bytes.slice(at + 6)}`.slice(0, bytes.length));
          utimesSync(target, old, old);
        } else if (roll < 0.55) {
          change = 'append';
          await appendFile(target, 'alpha beta\n');
        } else if (roll < 0.65) {
          change = 'new file';
          const path = join(root, `n${round}.txt`);
          await writeFile(path, text(5, round));
          files.push(path);
        }
        const args = SEARCHES[Math.floor(random() * SEARCHES.length)] as Record<string, unknown>;
        expect(await indexed.execute('grep_search', args), `round ${round}: ${change}, ${JSON.stringify(args)}`).toEqual(await scanned.execute('grep_search', args));
        // The same search again, the tree unchanged: the same answer.
        expect(await indexed.execute('grep_search', args), `round ${round} again`).toEqual(await scanned.execute('grep_search', args));
      }
    } finally {
      await node.dispose();
      watch.close();
    }
  }, 120_000);
});
