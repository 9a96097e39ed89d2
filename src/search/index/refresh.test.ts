// The re-reads of files searches found stale, when many searches find the same files: a saved index
// that misses many files (an index of one file, then hundreds added behind its back) is refreshed one
// read per file however many searches find them new, close() waits for no backlog of N searches × M
// files, what it saves vouches only for bytes it was built from, and every answer equals a scan's.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuiltinTools, ToolRunner } from '../../index.js';
import { wrapFsMethods } from '../../core/fs-proxy.js';
import { createMemoryPlatform } from '../../platform/memory.js';
import type { Platform } from '../../core/types.js';
import { attachStoredSearchIndex, type SearchIndexStorage } from './attach.js';
import { openIndex, serializeIndex } from './format.js';
import { SearchIndex, type ReadFile } from './search-index.js';
import { buildWorkspaceIndex, identityOf, refreshIndexed, searchIndexIdle, searchIndexOf, stopSearchIndexRefresh } from './workspace.js';
import { setSearchIndex } from './engine.js';
import { sameIdentity } from '../../fs/racy-clock.js';

const NEW_FILES = 400;
const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'alpha', output_mode: 'count' },
  { pattern: 'needle1\\d', output_mode: 'files_with_matches' },
  { pattern: 'beta gamma', fixed_strings: true, output_mode: 'content' },
  { pattern: 'zebraCrossing', output_mode: 'files_with_matches' },
  { pattern: 'x', output_mode: 'count' },
];

/** The text of the `i`-th added file. */
const text = (i: number): string => `alpha ${i}\nneedle${i % 23}\n${i % 5 === 0 ? 'beta gamma\n' : ''}${i === 77 ? 'zebraCrossing\n' : ''}`;

/** Storage in memory. */
function memoryStorage(initial?: Uint8Array): SearchIndexStorage & { bytes: Uint8Array | undefined } {
  const storage = {
    bytes: initial,
    read: async () => storage.bytes,
    write: async (bytes: Uint8Array) => {
      storage.bytes = bytes;
    },
  };
  return storage;
}

/**
 * A memory workspace under `/ws` with one file, the bytes of its index saved (one file), then
 * {@link NEW_FILES} files added under `sub/` straight through the fs, and the clock moved past the
 * racy window. `noSource`: no search source (reads go through `fs`); `gate`: each `fs.readFile` of
 * an added file waits for it when set.
 */
async function staleWorkspace(options: { noSource?: boolean } = {}): Promise<{ platform: Platform; plain: Platform; added: string[]; saved: Uint8Array; gate: { wait?: Promise<void>; reads: number } }> {
  const memory = createMemoryPlatform({ root: '/ws', files: { 'a.txt': 'alpha beta\n' } });
  const gate: { wait?: Promise<void>; reads: number } = { reads: 0 };
  const fs = wrapFsMethods(memory.fs, (name, method, target) => async (...args: unknown[]) => {
    if (name === 'readFile' && String(args[0]).startsWith('/ws/sub/')) {
      gate.reads += 1;
      await gate.wait;
    }
    return method.apply(target, args);
  });
  const platform: Platform = options.noSource ? { ...memory, fs, search: undefined, capabilities: { ...memory.capabilities } } : memory;
  vi.setSystemTime(Date.now() + 5000);
  const saved = serializeIndex(await buildWorkspaceIndex(platform), '/ws');
  await memory.fs.mkdir('/ws/sub', { recursive: true });
  const added: string[] = [];
  for (let i = 0; i < NEW_FILES; i += 1) {
    const path = `/ws/sub/f${i}.txt`;
    await memory.fs.writeFile(path, text(i));
    added.push(path);
  }
  vi.setSystemTime(Date.now() + 5000);
  // The same workspace under another platform object: no index, a plain scan.
  return { platform, plain: { ...platform }, added, saved, gate };
}

/** Per path, how many times a file was put into an index (the re-reads of the refresh; no tool writes here). */
function updatesByPath(spy: { mock: { calls: unknown[][] } }): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [file] of spy.mock.calls) counts.set((file as ReadFile).path, (counts.get((file as ReadFile).path) ?? 0) + 1);
  return counts;
}

/** `count` searches (the {@link SEARCHES} in turn) with `platform`'s index, none waiting for its refreshes, each answer checked against a plain scan. */
async function searchAndCompare(platform: Platform, plain: Platform, count: number): Promise<void> {
  const indexed = new ToolRunner({ platform, tools: BuiltinTools.all() });
  const scanned = new ToolRunner({ platform: plain, tools: BuiltinTools.all() });
  for (let n = 0; n < count; n += 1) {
    const args = SEARCHES[n % SEARCHES.length] as Record<string, unknown>;
    const withIndex = await indexed.execute('grep_search', args);
    expect(withIndex, `search ${n} ${JSON.stringify(args)}`).toEqual(await scanned.execute('grep_search', args));
  }
}

/** Whether every file `index` trusts (not racy, its identity now the one recorded) is recorded as its current bytes would be: the same kind in a fresh build. */
async function vouchesOnlyForItsBytes(platform: Platform, index: SearchIndex): Promise<void> {
  const fresh = await buildWorkspaceIndex(platform);
  for (const path of ['/ws/a.txt', ...Array.from({ length: NEW_FILES }, (_, i) => `/ws/sub/f${i}.txt`)]) {
    const entry = index.file(path);
    const now = await identityOf(platform, path);
    if (!entry || entry.racy || !now || !sameIdentity(entry.stat, now)) continue;
    expect(entry.kind, path).toBe(fresh.file(path)?.kind);
    expect(entry.stat.size, path).toBe(now.size);
  }
}

describe('the refresh of files searches found stale', () => {
  let update: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_800_000_000_000);
    update = vi.spyOn(SearchIndex.prototype, 'update');
  });
  afterEach(() => {
    update.mockRestore();
    vi.useRealTimers();
  });

  it.each([false, true])('N searches over M new files re-read each new file once, and answer as a scan (no search source: %s)', async (noSource) => {
    const { platform, plain, added, saved } = await staleWorkspace({ noSource });
    setSearchIndex(platform, openIndex(saved, '/ws'));
    const searches = 30;
    await searchAndCompare(platform, plain, searches);
    await searchIndexIdle(platform);
    const counts = updatesByPath(update);
    expect(counts.size).toBe(NEW_FILES);
    expect(added.filter((path) => counts.get(path) !== 1)).toEqual([]);
    expect(searchIndexOf(platform)?.size).toBe(NEW_FILES + 1);
    // Once refreshed, the index is used and re-reads nothing more.
    await searchAndCompare(platform, plain, SEARCHES.length);
    await searchIndexIdle(platform);
    expect(update.mock.calls.length).toBe(NEW_FILES);
  });

  it('a file changed while its re-read is queued is read as it is then; answers stay a scan’s', async () => {
    const { platform, plain, saved } = await staleWorkspace({ noSource: true });
    setSearchIndex(platform, openIndex(saved, '/ws'));
    await searchAndCompare(platform, plain, 3);
    for (let i = 0; i < NEW_FILES; i += 37) await platform.fs.writeFile(`/ws/sub/f${i}.txt`, `beta gamma zebraCrossing ${i}\n`);
    vi.setSystemTime(Date.now() + 5000);
    await searchAndCompare(platform, plain, 20);
    await searchIndexIdle(platform);
    await searchAndCompare(platform, plain, SEARCHES.length);
    await vouchesOnlyForItsBytes(platform, searchIndexOf(platform) as SearchIndex);
  });

  it('close() after many searches waits for no backlog: each new file is read once at most, and what it saves vouches only for bytes it was built from', async () => {
    const { platform, plain, saved } = await staleWorkspace({ noSource: true });
    const storage = memoryStorage(saved);
    const attached = attachStoredSearchIndex(platform, storage);
    expect(await attached.ready).toEqual({ from: 'disk' });
    const searches = 40;
    await searchAndCompare(platform, plain, searches);
    await attached.close();
    const counts = updatesByPath(update);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    expect(update.mock.calls.length).toBeLessThanOrEqual(NEW_FILES);
    // Searches after close() queue nothing.
    await searchAndCompare(platform, plain, SEARCHES.length);
    await searchIndexIdle(platform);
    expect(update.mock.calls.length).toBe(counts.size);
    // The saved index, opened by a next process: exact answers, and no entry it trusts is not its file's.
    const next: Platform = { ...platform, capabilities: { ...platform.capabilities } };
    const reopened = openIndex(storage.bytes as Uint8Array, '/ws');
    await vouchesOnlyForItsBytes(platform, reopened);
    setSearchIndex(next, reopened);
    await searchAndCompare(next, plain, SEARCHES.length * 2);
  });

  it('stopping drops the re-reads queued, finishes the one under way, and queues no more; searches stay exact', async () => {
    const { platform, plain, added, saved, gate } = await staleWorkspace({ noSource: true });
    const index = openIndex(saved, '/ws');
    setSearchIndex(platform, index);
    let release = (): void => undefined;
    gate.wait = new Promise((resolve) => (release = resolve));
    refreshIndexed(platform, added);
    // The same paths again, as the next searches would find them: queued once.
    refreshIndexed(platform, added);
    for (let waited = 0; gate.reads === 0 && waited < 1000; waited += 1) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(gate.reads).toBe(1);
    const stopped = stopSearchIndexRefresh(platform, 0);
    refreshIndexed(platform, added);
    release();
    await stopped;
    expect(gate.reads).toBe(1);
    expect(update.mock.calls.map((call: unknown[]) => (call[0] as ReadFile).path)).toEqual([added[0]]);
    expect(index.size).toBe(2);
    await searchAndCompare(platform, plain, SEARCHES.length * 2);
    await searchIndexIdle(platform);
    expect(update.mock.calls.length).toBe(1);
  });

  it('stopping within a time still re-reads what is queued (the files a saved index missed are saved indexed)', async () => {
    const { platform, plain, saved } = await staleWorkspace();
    const storage = memoryStorage(saved);
    const attached = attachStoredSearchIndex(platform, storage);
    expect(await attached.ready).toEqual({ from: 'disk' });
    await searchAndCompare(platform, plain, 1);
    await attached.close();
    expect(update.mock.calls.length).toBe(NEW_FILES);
    expect(openIndex(storage.bytes as Uint8Array, '/ws').size).toBe(NEW_FILES + 1);
  });
});
