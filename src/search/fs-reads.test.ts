import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Platform } from '../core/types.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { fsReadsOf } from './fs-reads.js';
import { MAX_SEARCH_FILE_BYTES, type SourceFile } from './source-cache.js';
import type { WalkFile } from './walk.js';

const W = '/workspace';

/** `files` as a search over `platform`'s fs loads them: fetched, then each loaded from the content cache (undefined: left out). */
async function loadAll(platform: Platform, files: readonly WalkFile[]): Promise<Array<[rel: string, file: SourceFile | 'large' | undefined]>> {
  const reads = fsReadsOf(platform);
  const fetched = await reads.fetch(files, MAX_SEARCH_FILE_BYTES, undefined);
  const out = fetched.files.map((file): [string, SourceFile | 'large' | undefined] => [file.rel, reads.cache.load(file.path)]);
  fetched.release();
  return out;
}

function textOf(platform: Platform, file: SourceFile | 'large' | undefined): string | null {
  return file && file !== 'large' && file.bytes ? fsReadsOf(platform).cache.text(file) : null;
}

describe('the content cache of a search over fs', () => {
  afterEach(() => vi.useRealTimers());

  it('decodes text, marks binary files, leaves gone ones out, and reuses the cached bytes only while size and mtime hold', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const platform = createMemoryPlatform({ files: { 'a.txt': 'hello', 'b.bin': new Uint8Array([1, 0, 2]) } as Record<string, string | Uint8Array> });
    await platform.fs.stat(W); // the memory platform writes its files on first use
    const files: WalkFile[] = [
      { path: `${W}/a.txt`, rel: 'a.txt', symlink: false },
      { path: `${W}/b.bin`, rel: 'b.bin', symlink: false },
      { path: `${W}/gone.txt`, rel: 'gone.txt', symlink: false },
    ];
    vi.setSystemTime(new Date('2026-01-01T00:00:10Z'));
    const first = await loadAll(platform, files);
    expect(first.map(([rel, file]) => [rel, textOf(platform, file)])).toEqual([
      ['a.txt', 'hello'],
      ['b.bin', null],
    ]);
    const second = await loadAll(platform, files);
    expect(second[0]?.[1]).toBe(first[0]?.[1]);
    // Same size, written in the same second as the read: must not be served from the cache.
    await platform.fs.writeFile(`${W}/a.txt`, 'HELLO');
    const third = await loadAll(platform, files);
    expect(textOf(platform, third[0]?.[1])).toBe('HELLO');
    const other = createMemoryPlatform({ files: { 'a.txt': 'other' } });
    expect(textOf(other, (await loadAll(other, files.slice(0, 1)))[0]?.[1])).toBe('other');
  });
});
