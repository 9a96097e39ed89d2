import { describe, expect, it } from 'vitest';
import type { Platform } from '../core/types.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { pauseRacyClockForTests, RACY_MS, racyNow, settledBefore } from './racy-clock.js';
import { fsReadsOf } from '../search/fs-reads.js';
import { MAX_SEARCH_FILE_BYTES } from '../search/source-cache.js';

const FILE = { path: '/workspace/a.txt', rel: 'a.txt' };

/** A memory platform holding a.txt (written now), without a change count (so every load checks the file's times), counting reads of a.txt. */
function counted(): { platform: Platform; reads: () => number } {
  const memory = createMemoryPlatform({ files: { 'a.txt': 'alpha\n' } });
  let reads = 0;
  const fs = new Proxy(memory.fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'readFile' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return (path: string, ...rest: unknown[]) => {
        if (path === FILE.path) reads += 1;
        return (value as (...args: unknown[]) => unknown).call(target, path, ...rest);
      };
    },
  });
  return { platform: { ...memory, fs, changeCount: undefined }, reads: () => reads };
}

/** a.txt as a search over `platform`'s fs reads it: fetched (stat'ed, read unless the content cache holds it unchanged), then loaded from the cache. */
async function textOf(platform: Platform): Promise<string | undefined> {
  const reads = fsReadsOf(platform);
  const fetched = await reads.fetch([FILE], MAX_SEARCH_FILE_BYTES, undefined);
  const file = fetched.files.length === 1 ? reads.cache.load(FILE.path) : undefined;
  fetched.release();
  return file && file !== 'large' && file.bytes ? reads.cache.text(file) : undefined;
}

describe('the racy window of the file caches', () => {
  it('reads a file changed within a second of its read again, and trusts it from the cache after a real wait of more than a second', async () => {
    const { platform, reads } = counted();
    expect(await textOf(platform)).toBe('alpha\n');
    expect(await textOf(platform)).toBe('alpha\n');
    // Changed within a second of both reads: read each time.
    expect(reads()).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
    // The first read more than a second after the change is kept and trusted from then on.
    expect(await textOf(platform)).toBe('alpha\n');
    expect(await textOf(platform)).toBe('alpha\n');
    expect(await textOf(platform)).toBe('alpha\n');
    expect(reads()).toBe(3);
  });

  it('trusts after pauseRacyClockForTests what it trusts after a real wait as long, and a change after the pause only once a second has passed since it', async () => {
    const { platform, reads } = counted();
    expect(await textOf(platform)).toBe('alpha\n');
    expect(await textOf(platform)).toBe('alpha\n');
    expect(reads()).toBe(2);
    pauseRacyClockForTests(RACY_MS + 100);
    expect(await textOf(platform)).toBe('alpha\n');
    expect(await textOf(platform)).toBe('alpha\n');
    expect(reads()).toBe(3);
    // Rewritten after the pause, same size: read again, and again on the next search (it is as recent as it is).
    await platform.fs.writeFile(FILE.path, 'omega\n');
    expect(await textOf(platform)).toBe('omega\n');
    expect(await textOf(platform)).toBe('omega\n');
    expect(reads()).toBe(5);
    pauseRacyClockForTests(RACY_MS + 100);
    expect(await textOf(platform)).toBe('omega\n');
    expect(await textOf(platform)).toBe('omega\n');
    expect(reads()).toBe(6);
  });

  it('counts a pause for the changes before it only', () => {
    const before = Date.now() - 10;
    const readBefore = racyNow();
    pauseRacyClockForTests(5000);
    const readAfter = racyNow();
    expect(readAfter - Date.now()).toBeGreaterThanOrEqual(5000);
    // A change before the pause is settled for a read after it, not for a read before it.
    expect(settledBefore(before, readBefore)).toBe(false);
    expect(settledBefore(before, readAfter)).toBe(true);
    // A change after the pause is not settled for a read right after it.
    expect(settledBefore(Date.now(), racyNow())).toBe(false);
  });

  it('refuses a pause that is not a finite number of milliseconds >= 0, with a TypeError', () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => pauseRacyClockForTests(bad)).toThrow(TypeError);
      expect(() => pauseRacyClockForTests(bad)).toThrow(/ms must be a finite number of milliseconds >= 0/);
    }
  });

  it("reads a file again when its ctime moved though its size and set-back mtime did not, and when its ctime is within a second of the read (a coarse clock tick)", async () => {
    // An fs whose stats carry a ctime (as Node's do), the times set by the test: the mtime stays an
    // old value throughout, as after `cp -p` or `touch -r`.
    const memory = createMemoryPlatform({ files: { 'a.txt': 'alpha\n' } });
    const old = Date.now() - 60_000;
    let ctime = old;
    const fs = new Proxy(memory.fs, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key !== 'stat' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (path: string) => ({ ...(await (value as (path: string) => Promise<object>).call(target, path)), mtimeMs: old, ctimeMs: ctime, isFile: () => true, isDirectory: () => false, isSymbolicLink: () => false });
      },
    });
    const platform: Platform = { ...memory, fs, changeCount: undefined };
    expect(await textOf(platform)).toBe('alpha\n');
    await memory.fs.writeFile(FILE.path, 'omega\n');
    // Same size, same mtime, same (settled) ctime: the cache cannot tell, as no cache can.
    expect(await textOf(platform)).toBe('alpha\n');
    ctime = Date.now();
    // The ctime moved: read again.
    expect(await textOf(platform)).toBe('omega\n');
    await memory.fs.writeFile(FILE.path, 'delta\n');
    // Rewritten within the ctime's clock tick, the ctime as it was: a ctime this recent is not trusted.
    expect(await textOf(platform)).toBe('delta\n');
  });
});
