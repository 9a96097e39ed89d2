// The search index on a real folder: random changes through the tools and through node:fs behind
// the runner's back, every grep_search with the index equal to a plain scan of the same folder.
import { mkdir, mkdtemp, realpath, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import { ToolRunner } from '../src/runner.js';
import { buildWorkspaceIndex, searchIndexIdle, searchIndexOf } from '../src/search/index/workspace.js';
import { setSearchIndex } from '../src/search/index/engine.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';
import { seededRandom } from '../test/support/random.js';

const WORDS = ['alpha', 'Beta', 'GAMMA', 'Straße', 'привет', 'ПРИВЕТ', '\u212aelvin', 'kelvin', 'foo(bar)', 'x12', '中文', 'needle', 'hay'];
const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'needle', output_mode: 'files_with_matches' },
  { pattern: 'NEEDLE', case_sensitive: false, output_mode: 'count' },
  { pattern: 'привет', case_sensitive: false },
  { pattern: 'kelvin', case_sensitive: false, output_mode: 'count' },
  { pattern: 'foo\\(bar\\)|Straße', output_mode: 'count' },
  { pattern: 'x1[0-9]', context_lines: 1 },
  { pattern: 'hay needle', fixed_strings: true },
];

const bases: string[] = [];
afterAll(async () => {
  for (const base of bases) await rm(base, { recursive: true, force: true });
});

function text(random: () => number): string {
  const lines: string[] = [];
  for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i += 1) {
    const words: string[] = [];
    for (let j = 0, m = Math.floor(random() * 5); j < m; j += 1) words.push(WORDS[Math.floor(random() * WORDS.length)] as string);
    lines.push(words.join(' '));
  }
  return `${lines.join('\n')}\n`;
}

describe('grep_search with the search index on a Node folder equals a plain scan', () => {
  it('over 60 rounds of random changes through tools and node:fs', async () => {
    const random = seededRandom(20261206);
    const base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-diff-')));
    bases.push(base);
    const root = join(base, 'ws');
    const old = Math.floor(Date.now() / 1000) - 60;
    for (let i = 0; i < 40; i += 1) {
      const path = join(root, `d${i % 4}`, `f${i}.txt`);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text(random));
      await utimes(path, old, old);
    }
    // Past the one-second racy window, so the index trusts the files it reads.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const platform = createNodePlatform({ root });
    const plain: Platform = { ...platform };
    try {
      setSearchIndex(platform, await buildWorkspaceIndex(platform));
      const tools = BuiltinTools.all();
      const indexed = new ToolRunner({ platform, tools });
      const scanned = new ToolRunner({ platform: plain, tools });
      for (let round = 0; round < 60; round += 1) {
        const target = join(root, `d${Math.floor(random() * 4)}`, `f${Math.floor(random() * 50)}.txt`);
        const roll = random();
        if (roll < 0.3) await indexed.execute('create_file', { file_path: target, content: text(random), overwrite: true });
        else if (roll < 0.6) await writeFile(target, text(random));
        else if (roll < 0.7) await rm(target, { force: true });
        else if (roll < 0.8) await rename(join(root, 'd0', 'f0.txt'), target).catch(() => undefined);
        if (random() < 0.5) await searchIndexIdle(platform);
        const args = SEARCHES[Math.floor(random() * SEARCHES.length)] as Record<string, unknown>;
        expect(await indexed.execute('grep_search', args), `round ${round} ${JSON.stringify(args)}`).toEqual(await scanned.execute('grep_search', args));
      }
      await searchIndexIdle(platform);
      expect(searchIndexOf(platform)?.size).toBeGreaterThan(30);
    } finally {
      await platform.dispose();
    }
  }, 60_000);
});
