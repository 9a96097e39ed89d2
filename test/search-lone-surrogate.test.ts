import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import { loadBuilt, makeTree, type Core, type NodeAdapter } from './support/built-search.js';

// Half of a surrogate pair is no character UTF-8 can hold, so no line of a file holds it. Encoded as
// bytes it would become U+FFFD, which real text does hold: a count on bytes must not find that.

let core: Core;
let adapter: NodeAdapter;
let root: string;

/** 300 files (enough to share a count with the helper thread), one of them holding U+FFFD. */
function tree(): Record<string, string> {
  const files: Record<string, string> = { 'a/replacement.txt': 'before \uFFFD after\nplain\n' };
  for (let i = 0; i < 300; i += 1) files[`pad/p${i}.txt`] = `pad ${i}\n`;
  return files;
}

beforeAll(async () => {
  ({ core, node: adapter } = await loadBuilt());
  root = makeTree('lone-surrogate', tree());
}, 180_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.each([
  ['memory', (): Platform => core.createMemoryPlatform({ files: tree() })],
  ['Node', (): Platform => adapter.createNodePlatform({ root })],
])('grep_search for half of a surrogate pair (%s platform)', (_label, make) => {
  it.each([
    ['fixed_strings', { pattern: '\uD800', fixed_strings: true }],
    ['a regex of that one character', { pattern: '\uDC00' }],
    ['a literal holding it', { pattern: 'before \uD83D after', fixed_strings: true }],
  ])('finds no line in count, files_with_matches and content alike (%s)', async (_kind, search) => {
    const platform = make();
    const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
    try {
      for (let round = 0; round < 2; round += 1) {
        expect(await runner.execute('grep_search', { ...search, output_mode: 'count' })).toMatchObject({ counts: [], total_files: 0, total_matches: 0, files_searched: 301 });
        expect(await runner.execute('grep_search', { ...search, output_mode: 'files_with_matches' })).toMatchObject({ files: [], total_files: 0, total_matches: 0, files_searched: 301 });
        expect(await runner.execute('grep_search', { ...search })).toMatchObject({ matches: [], total_matches: 0, files_searched: 301 });
      }
      // The file itself is found by what it does hold.
      expect(await runner.execute('grep_search', { pattern: '\uFFFD', fixed_strings: true, output_mode: 'count' })).toMatchObject({ total_matches: 1, total_files: 1 });
    } finally {
      await platform.dispose();
    }
  });
});
