import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchCountResult } from '../src/search/line-search.js';
import { MemoryFs } from '../src/fs/memfs.js';
import { createMemorySearchSource } from '../src/search/memory-source.js';
import { cacheOf } from '../src/search/source-cache.js';
import { pauseRacyClockForTests } from '../src/fs/racy-clock.js';
import { builtSearchSuite } from './support/built-search.js';

const suite = builtSearchSuite();

function tree(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i += 1) files[`d${i % 5}/f${String(i).padStart(3, '0')}.txt`] = `alpha ${i}\n`;
  return files;
}

const COUNT = { pattern: 'alpha', fixed_strings: true, output_mode: 'count', max_results: 2000 } as const;

describe.each([
  ['40 files (one thread)', 40],
  ['320 files (shared with the helper thread)', 320],
])('grep_search on one Node platform after a file was rewritten in place and its mtime set back, %s', (_label, size) => {
  it('reads the file again: the same size, inode and mtime, but a new ctime', async () => {
    const root = suite.tree('setback-file', tree(size));
    const platform = suite.node.createNodePlatform({ root });
    const runner = new suite.core.ToolRunner({ platform, tools: suite.core.BuiltinTools.all() });
    const search = async (): Promise<SearchCountResult> => (await runner.execute('grep_search', COUNT)) as SearchCountResult;
    try {
      expect((await search()).total_matches).toBe(size);
      // Past the cache's one-second rule (its clock moved on, as a real wait would): the file is trusted from the cache unless its stat changed.
      suite.node.pauseRacyClockForTests(1100);
      for (const name of ['d1/f001.txt', 'd2/f002.txt']) {
        const file = join(root, name);
        const before = statSync(file);
        // Same size ("alpha" becomes "omega"), written in place (same inode), old times put back (as cp -p, touch -r do).
        writeFileSync(file, readFileSync(file, 'utf8').replace('alpha', 'omega'));
        utimesSync(file, before.atime, before.mtime);
        const after = statSync(file);
        expect([after.size, after.ino, after.mtimeMs]).toEqual([before.size, before.ino, before.mtimeMs]);
      }
      const changed = await search();
      expect(changed.total_matches).toBe(size - 2);
      expect(changed.counts.find((entry) => entry.file_path === join(root, 'd1/f001.txt'))).toBeUndefined();
      expect(changed.counts.find((entry) => entry.file_path === join(root, 'd2/f002.txt'))).toBeUndefined();
    } finally {
      await platform.dispose();
    }
  }, 30_000);
});

describe('the search cache over an in-memory tree, after a file was rewritten and its mtime set back', () => {
  it('reads the file again: utimes moves the ctime, as on a real filesystem', async () => {
    const memory = new MemoryFs();
    memory.mkdirSync('/w', { recursive: true });
    memory.writeFileSync('/w/a.txt', 'alpha 1\n');
    // An hour old, so the cache trusts the file (nothing changed in the second before its read).
    const old = Date.now() / 1000 - 3600;
    memory.utimesSync('/w/a.txt', old, old);
    // Past the one-second rule for the status-change time too (the cache's clock moved on, as a real wait would).
    pauseRacyClockForTests(1100);
    const cache = cacheOf(createMemorySearchSource(() => memory));
    const first = cache.load('/w/a.txt');
    if (!first || first === 'large' || !first.bytes) throw new Error('a.txt is a text file');
    expect(new TextDecoder().decode(first.bytes)).toBe('alpha 1\n');
    const before = memory.lstatSync('/w/a.txt');
    memory.writeFileSync('/w/a.txt', 'omega 1\n');
    memory.utimesSync('/w/a.txt', old, old);
    const after = memory.lstatSync('/w/a.txt');
    expect([after.size, after.ino, after.mtimeMs]).toEqual([before.size, before.ino, before.mtimeMs]);
    expect(after.ctimeMs).toBeGreaterThan(before.ctimeMs);
    const again = cache.load('/w/a.txt');
    if (!again || again === 'large' || !again.bytes) throw new Error('a.txt is a text file');
    expect(new TextDecoder().decode(again.bytes)).toBe('omega 1\n');
  });
});
