// The seam between the search tools and the search index: a platform's searches reach the index only
// through the engine set on that platform when it gets an index, so a platform without one (or a copy
// of one) scans. (That a worker without an index bundles none of its code is checked on the README's
// worker build, test/browser/worker-bundle.test.ts.)
import { describe, expect, it, vi } from 'vitest';
import { BuiltinTools, ToolRunner } from '../index.js';
import { createMemoryPlatform } from '../platform/memory.js';
import type { Platform } from '../core/types.js';
import type { SearchSource } from './source-port.js';
import { searchIndexEngine } from './index-engine.js';
import { buildWorkspaceIndex } from './index/workspace.js';
import { setSearchIndex } from './index/engine.js';
import { searchSourceOf } from './engine-source.js';
import { createSearchEngine } from './engine.js';

const FILES: Record<string, string> = {};
for (let i = 0; i < 40; i += 1) FILES[`src/f${i}.ts`] = `export const value${i} = ${i};\n`;
FILES['src/f7.ts'] = 'const rareWordHere = 7;\n';

/** A memory platform whose search source counts the files it reads. */
function countedPlatform(): { platform: Platform; reads: string[] } {
  const memory = createMemoryPlatform({ root: '/ws', files: FILES });
  const reads: string[] = [];
  const inner = searchSourceOf(memory) as SearchSource;
  const source: SearchSource = { ...inner, read: (path, maxBytes) => (reads.push(path), inner.read(path, maxBytes)) };
  return { platform: { ...memory, search: createSearchEngine({ source }) }, reads };
}

const grep = (platform: Platform, pattern: string) =>
  new ToolRunner({ platform, tools: BuiltinTools.all() }).processToolCalls([{ id: '1', name: 'grep_search', args: { pattern, output_mode: 'files_with_matches' } }]);

describe('the search index engine seam', () => {
  it('is set on the platform given an index only: a copy of it has none and scans, with the same answer', async () => {
    const { platform, reads } = countedPlatform();
    expect(searchIndexEngine(platform)).toBeUndefined();
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 5000); // past the racy window of the files just written
      setSearchIndex(platform, await buildWorkspaceIndex(platform));
    } finally {
      vi.useRealTimers();
    }
    expect(searchIndexEngine(platform)).toBeDefined();
    const copy: Platform = { ...platform };
    expect(searchIndexEngine(copy)).toBeUndefined();

    reads.length = 0;
    const indexed = await grep(platform, 'rareWordHere');
    const indexedReads = [...reads];
    reads.length = 0;
    const scanned = await grep(copy, 'rareWordHere');
    expect(indexed).toEqual(scanned);
    expect(JSON.stringify(indexed)).toContain('f7.ts');
    // With the engine, only the file holding the word is read; without it, every file.
    expect(indexedReads).toEqual(['/ws/src/f7.ts']);
    expect(reads.length).toBe(Object.keys(FILES).length);
  });
});
