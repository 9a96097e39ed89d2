// The budgets of a workspace's search index: a build counts its index's size and its own memory as it
// goes and stops at the first file past a bound (no index, the platform scans), an index that grows
// past its size through tools' writes is dropped, and `capabilities.searchIndex` says which bound.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuiltinTools, ToolRunner } from '../../index.js';
import { wrapFsMethods } from '../../core/fs-proxy.js';
import { createMemoryPlatform } from '../../platform/memory.js';
import type { Platform } from '../../core/types.js';
import { attachStoredSearchIndex, readSavedIndex, type SearchIndexStorage } from './attach.js';
import { budgetNote, budgetOf, DEFAULT_MAX_BUILD_BYTES, DEFAULT_MAX_INDEX_BYTES, defaultBudget, formatBytes, IndexOverBudget, type BudgetPassed } from './budget.js';
import { SearchIndexBuilder } from './search-index.js';
import { serializeIndex } from './format.js';
import { buildWorkspaceIndex, searchIndexIdle, searchIndexOf, whenSearchIndexOff } from './workspace.js';

const FILES: Record<string, string> = {};
for (let i = 0; i < 200; i += 1) FILES[`d${i % 5}/f${i}.ts`] = `export const value${i} = ${i};\n// note ${i * 7919}\n`.repeat(8);
FILES['d1/rare.ts'] = 'const zebraCrossing = 1;\n';
const FILE_COUNT = Object.keys(FILES).length;

/** A memory workspace under `/ws` whose fs counts the files read. */
function countedWorkspace(): { platform: Platform; reads: string[] } {
  const memory = createMemoryPlatform({ root: '/ws', files: FILES });
  const reads: string[] = [];
  const fs = wrapFsMethods(memory.fs, (name, method, target) => (...args: unknown[]) => {
    if (name === 'readFile') reads.push(String(args[0]));
    return method.apply(target, args);
  });
  // No search source: the build reads through fs, where the reads are counted.
  return { platform: { ...memory, fs, search: undefined, capabilities: { ...memory.capabilities } }, reads };
}

/** Storage in memory, counting its writes. */
function memoryStorage(initial?: Uint8Array): SearchIndexStorage & { writes: number; bytes: Uint8Array | undefined } {
  const storage = {
    writes: 0,
    bytes: initial,
    read: async () => storage.bytes,
    write: async (bytes: Uint8Array) => {
      storage.writes += 1;
      storage.bytes = bytes;
    },
    remove: async (bytes: Uint8Array) => {
      if (storage.bytes === bytes) storage.bytes = undefined;
    },
  };
  return storage;
}

const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'zebraCrossing', output_mode: 'files_with_matches' },
  { pattern: 'value1\\d', output_mode: 'count' },
];

async function answers(platform: Platform): Promise<unknown[]> {
  const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
  const out: unknown[] = [];
  for (const args of SEARCHES) out.push(await runner.execute('grep_search', args));
  return out;
}

beforeEach(() => {
  // The clock past the files' times, so the index trusts them.
  vi.setSystemTime(Date.now() + 5000);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('search index budgets', () => {
  it('budgetOf: defaults for true or what an object leaves out, its numbers otherwise', () => {
    expect(budgetOf(true, 'f')).toEqual({ maxIndexBytes: DEFAULT_MAX_INDEX_BYTES, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES });
    expect(budgetOf({ maxIndexBytes: 1000 }, 'f')).toEqual({ maxIndexBytes: 1000, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES });
    expect(budgetOf({ maxBuildBytes: 5e6, cacheDir: '/x' }, 'f')).toEqual({ maxIndexBytes: DEFAULT_MAX_INDEX_BYTES, maxBuildBytes: 5e6 });
    expect(DEFAULT_MAX_INDEX_BYTES).toBe(256 * 1024 * 1024);
    expect(DEFAULT_MAX_BUILD_BYTES).toBe(448 * 1024 * 1024);
  });

  it('budgetOf: a negative, zero, non-finite or non-numeric bound is a TypeError naming the option', () => {
    for (const bad of [-1, 0, Number.NaN, Number.POSITIVE_INFINITY, '1000', null]) {
      expect(() => budgetOf({ maxIndexBytes: bad }, 'createX')).toThrow(TypeError);
      expect(() => budgetOf({ maxIndexBytes: bad }, 'createX')).toThrow(/^createX: searchIndex\.maxIndexBytes must be a number of bytes above 0/);
      expect(() => budgetOf({ maxBuildBytes: bad }, 'createX')).toThrow(/searchIndex\.maxBuildBytes/);
    }
  });

  it("the index's estimated size is within a few percent of its serialized bytes", async () => {
    const { platform } = countedWorkspace();
    const index = await buildWorkspaceIndex(platform);
    const serialized = serializeIndex(index, platform.root).length;
    expect(index.bytes / serialized).toBeGreaterThan(0.95);
    expect(index.bytes / serialized).toBeLessThan(1.05);
  });

  it('a build past maxIndexBytes stops early: it reads only part of the files and rejects with the budget passed', async () => {
    const { platform, reads } = countedWorkspace();
    const error = await buildWorkspaceIndex(platform, { budget: { maxIndexBytes: 4096, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexOverBudget);
    const passed = (error as IndexOverBudget).passed;
    expect(passed.budget).toBe('maxIndexBytes');
    expect(passed.limit).toBe(4096);
    expect(passed.reached).toBeGreaterThan(4096);
    expect(passed.total).toBe(FILE_COUNT);
    expect(passed.done).toBeLessThan(FILE_COUNT / 2);
    // Read: the files indexed, plus at most one round of reads in flight.
    expect(reads.length).toBeLessThanOrEqual((passed.done as number) + 16);
    expect(reads.length).toBeLessThan(FILE_COUNT / 2);
  });

  it('a build past maxBuildBytes (the trigram bitmap alone is 2 MiB) stops at its first round', async () => {
    const { platform, reads } = countedWorkspace();
    const error = await buildWorkspaceIndex(platform, { budget: { maxIndexBytes: DEFAULT_MAX_INDEX_BYTES, maxBuildBytes: 1024 * 1024 } }).catch((e: unknown) => e);
    expect((error as IndexOverBudget).passed).toMatchObject({ budget: 'maxBuildBytes', limit: 1024 * 1024, done: 0, total: FILE_COUNT });
    expect(reads.length).toBe(16);
  });

  it('the note says which budget, how far over, and what to set', () => {
    const note = budgetNote({ budget: 'maxIndexBytes', limit: 1024 * 1024, reached: 1.5 * 1024 * 1024, done: 100, total: 400, projected: 6 * 1024 * 1024 });
    expect(note).toBe(
      'search index off, searches scan every file: its index size reached 1.5 MiB after 100 of 400 files, 512.0 KiB over searchIndex.maxIndexBytes (1.0 MiB); set searchIndex: { maxIndexBytes: 8 * 1024 * 1024 } or more to index this workspace (projected from the 100 of 400 files done)',
    );
    // Stopped too early to project: only the bound it reached, never a figure for the whole.
    expect(budgetNote({ budget: 'maxBuildBytes', limit: 21 * 1024 * 1024, reached: 84200000, done: 8, total: 4584 })).toBe(
      'search index off, searches scan every file: its build memory reached 80.3 MiB after 8 of 4584 files, 59.3 MiB over searchIndex.maxBuildBytes (21.0 MiB); set searchIndex: { maxBuildBytes: N } with N above 80.3 MiB (84200000 bytes): the build had done 8 of 4584 files, and the whole build needs more, how much is known only once a build gets further',
    );
    expect(budgetNote({ budget: 'maxIndexBytes', limit: 5 * 1024 * 1024, reached: 5787891, saved: true })).toBe(
      'search index off, searches scan every file: the saved index is 5.5 MiB, 532.2 KiB over searchIndex.maxIndexBytes (5.0 MiB); set searchIndex: { maxIndexBytes: 7 * 1024 * 1024 } or more to index this workspace',
    );
    expect(budgetNote({ budget: 'maxIndexBytes', limit: 5 * 1024 * 1024, reached: 5787891, done: 20, total: 20 })).toBe(
      'search index off, searches scan every file: its index size is 5.5 MiB once built, 532.2 KiB over searchIndex.maxIndexBytes (5.0 MiB); set searchIndex: { maxIndexBytes: 7 * 1024 * 1024 } or more to index this workspace',
    );
    expect(budgetNote({ budget: 'maxBuildBytes', limit: 2048, reached: 4096 })).toBe(
      'search index off, searches scan every file: its build memory reached 4.0 KiB after updates, 2.0 KiB over searchIndex.maxBuildBytes (2.0 KiB); set searchIndex: { maxBuildBytes: 1 * 1024 * 1024 } or more to index this workspace',
    );
  });

  it("with the host's names for the budgets (a command line's flags), the note names them and the bytes to give", () => {
    const names = { maxIndexBytes: '--index-max', maxBuildBytes: '--build-max' };
    expect(budgetNote({ budget: 'maxIndexBytes', limit: 1024 * 1024, reached: 1.5 * 1024 * 1024, done: 100, total: 400, projected: 6 * 1024 * 1024 }, names)).toBe(
      'search index off, searches scan every file: its index size reached 1.5 MiB after 100 of 400 files, 512.0 KiB over --index-max (1.0 MiB); set --index-max to 8 MiB (8388608 bytes) or more to index this workspace (projected from the 100 of 400 files done)',
    );
    expect(budgetNote({ budget: 'maxBuildBytes', limit: 21 * 1024 * 1024, reached: 84200000, done: 8, total: 4584 }, names)).toBe(
      'search index off, searches scan every file: its build memory reached 80.3 MiB after 8 of 4584 files, 59.3 MiB over --build-max (21.0 MiB); set --build-max above 80.3 MiB (84200000 bytes): the build had done 8 of 4584 files, and the whole build needs more, how much is known only once a build gets further',
    );
    expect(budgetNote({ budget: 'maxBuildBytes', limit: 2048, reached: 4096 }, names)).toBe(
      'search index off, searches scan every file: its build memory reached 4.0 KiB after updates, 2.0 KiB over --build-max (2.0 KiB); set --build-max to 1 MiB (1048576 bytes) or more to index this workspace',
    );
    expect(budgetOf(true, 'f', undefined, names)).toEqual({ maxIndexBytes: DEFAULT_MAX_INDEX_BYTES, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES, names });
    expect(budgetOf({ maxIndexBytes: 1000 }, 'f', undefined, names)).toEqual({ maxIndexBytes: 1000, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES, names });
  });

  it("a budget with the host's names: the build past it and the index dropped past it say so in those names, and whenSearchIndexOff hears each note", async () => {
    const names = { maxIndexBytes: '--index-max', maxBuildBytes: '--build-max' };
    const { platform } = countedWorkspace();
    const heard: string[] = [];
    whenSearchIndexOff(platform, (note) => heard.push(note));
    const attached = attachStoredSearchIndex(platform, memoryStorage(), { budget: { maxIndexBytes: 4096, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES, names } });
    expect(await attached.ready).toHaveProperty('off');
    const note = platform.capabilities.searchIndex?.note;
    expect(note).toMatch(/ over --index-max \(4\.0 KiB\); set --index-max above [\d.]+ KiB \(\d+ bytes\): the build had done \d+ of 201 files, and the whole index is larger, how much is known only once a build gets further$/);
    expect(heard).toEqual([note]);
    await attached.close();

    const other = countedWorkspace().platform;
    const built = await buildWorkspaceIndex(other);
    const grown: string[] = [];
    whenSearchIndexOff(other, (note) => grown.push(note));
    const kept = attachStoredSearchIndex(other, memoryStorage(), { budget: { maxIndexBytes: built.bytes + 2000, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES, names } });
    expect(await kept.ready).toEqual({ from: 'built' });
    let text = '';
    for (let i = 0; i < 3000; i += 1) text += `${(i * 2654435761).toString(36)} zebraCrossing${i}\n`;
    await new ToolRunner({ platform: other, tools: BuiltinTools.all() }).execute('create_file', { file_path: '/ws/d2/big.ts', content: text });
    await searchIndexIdle(other);
    expect(searchIndexOf(other)).toBeUndefined();
    expect(other.capabilities.searchIndex?.note).toMatch(/its index size reached [\d.]+ KiB after updates, [\d.]+ KiB over --index-max \([\d.]+ KiB\); set --index-max to \d+ MiB/);
    expect(grown).toEqual([other.capabilities.searchIndex?.note]);
    await kept.close();
  });

  it('attached over its budget: no index, nothing saved, searches equal a scan, capabilities.searchIndex off with the note', async () => {
    const { platform } = countedWorkspace();
    const expected = await answers({ ...platform, capabilities: { ...platform.capabilities } });
    const storage = memoryStorage();
    const attached = attachStoredSearchIndex(platform, storage, { budget: { maxIndexBytes: 4096, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES } });
    expect(platform.capabilities.searchIndex).toEqual({ state: 'building' });
    const ready = await attached.ready;
    expect(ready).toHaveProperty('off');
    expect(searchIndexOf(platform)).toBeUndefined();
    expect(storage.writes).toBe(0);
    const status = platform.capabilities.searchIndex;
    expect(status?.state).toBe('off');
    expect(status?.note).toMatch(/^search index off, searches scan every file: its index size reached [\d.]+ KiB after \d+ of 201 files, [\d.]+ (B|KiB) over searchIndex\.maxIndexBytes \(4\.0 KiB\); set searchIndex: \{ maxIndexBytes: N \} with N above [\d.]+ KiB \(\d+ bytes\): the build had done \d+ of 201 files, and the whole index is larger/);
    expect(status?.note).not.toMatch(/\d \* 1024 \* 1024/);
    expect(status?.note).toBe((ready as { off: string }).off);
    expect(await answers(platform)).toEqual(expected);
    await attached.close();
    expect(storage.writes).toBe(0);
  });

  it('within its budget: the index is used and capabilities.searchIndex is ready', async () => {
    const { platform } = countedWorkspace();
    const attached = attachStoredSearchIndex(platform, memoryStorage());
    expect(await attached.ready).toEqual({ from: 'built' });
    expect(platform.capabilities.searchIndex).toEqual({ state: 'ready' });
    expect(searchIndexOf(platform)?.size).toBe(FILE_COUNT);
    await attached.close();
  });

  it('an index in use that could not be saved: capabilities.searchIndex is ready with a note saying so, the listener hears it, and a later save clears it', async () => {
    const { platform } = countedWorkspace();
    const heard: string[] = [];
    whenSearchIndexOff(platform, (note) => heard.push(note));
    const storage = memoryStorage();
    let refuse = true;
    const attached = attachStoredSearchIndex(platform, {
      ...storage,
      read: storage.read,
      write: async (bytes) => {
        if (refuse) throw new Error('EACCES: permission denied, open /cache/index');
        await storage.write(bytes);
      },
    });
    expect(await attached.ready).toEqual({ error: 'EACCES: permission denied, open /cache/index' });
    expect(searchIndexOf(platform)?.size).toBe(FILE_COUNT);
    const note = 'search index in use, but it could not be saved (EACCES: permission denied, open /cache/index): the next start builds it again; make its folder writable';
    expect(platform.capabilities.searchIndex).toEqual({ state: 'ready', note });
    expect(heard).toEqual([note]);
    refuse = false;
    await attached.close();
    expect(storage.writes).toBe(1);
    expect(platform.capabilities.searchIndex).toEqual({ state: 'ready' });
  });

  it('a build stopped early gives only the bound it reached, no projected figure', async () => {
    const { platform } = countedWorkspace();
    const error = await buildWorkspaceIndex(platform, { budget: { maxIndexBytes: DEFAULT_MAX_INDEX_BYTES, maxBuildBytes: 1024 } }).catch((e: unknown) => e);
    const passed = (error as IndexOverBudget).passed;
    expect(passed).toMatchObject({ budget: 'maxBuildBytes', done: 0, total: FILE_COUNT });
    expect(passed.projected).toBeUndefined();
    const note = budgetNote(passed, { maxIndexBytes: '--index-max', maxBuildBytes: '--build-max' });
    expect(note).toContain(`set --build-max above ${formatBytes(passed.reached)} (${Math.ceil(passed.reached)} bytes): the build had done 0 of ${FILE_COUNT} files, and the whole build needs more`);
    expect(note).not.toMatch(/ MiB \(\d+ bytes\) or more/);
  });

  it('a build stopped late projects the whole, and the figure it advises indexes the workspace', async () => {
    const { platform } = countedWorkspace();
    const whole = await buildWorkspaceIndex(platform);
    for (const budget of ['maxIndexBytes', 'maxBuildBytes'] as const) {
      // The bound the build passes about two thirds of the way: what a builder counted by then.
      const builder = new SearchIndexBuilder();
      const paths = whole.paths();
      let limit = 0;
      for (const [i, path] of paths.entries()) {
        builder.add({ path, stat: { size: 1, mtimeMs: 0, ctimeMs: 0, ino: 0 }, bytes: new TextEncoder().encode(FILES[path.slice(4)] as string), readAt: 1e12, steady: true });
        if (i === Math.floor(paths.length * 0.66)) limit = budget === 'maxIndexBytes' ? builder.indexBytes : builder.buildBytes;
      }
      const error = await buildWorkspaceIndex(platform, { budget: { ...defaultBudget(), [budget]: limit } }).catch((e: unknown) => e);
      const passed = (error as IndexOverBudget).passed;
      expect(passed.budget).toBe(budget);
      expect(passed.done).toBeGreaterThan(FILE_COUNT / 4);
      expect(passed.projected).toBeGreaterThanOrEqual(passed.reached);
      const advised = Number(/set --max to \d+ MiB \((\d+) bytes\) or more to index this workspace \(projected from the \d+ of 201 files done\)$/.exec(budgetNote(passed, { maxIndexBytes: '--max', maxBuildBytes: '--max' }))?.[1]);
      expect(advised).toBeGreaterThan(limit);
      const built = await buildWorkspaceIndex(platform, { budget: { ...defaultBudget(), [budget]: advised } });
      expect(built.size).toBe(FILE_COUNT);
    }
  });

  it('a build and a load of the same tree under the same size budget agree: both keep it or both refuse it, with the same figure', async () => {
    const { platform } = countedWorkspace();
    const saved = serializeIndex(await buildWorkspaceIndex(platform), platform.root);
    for (const maxIndexBytes of [saved.length - 1, saved.length]) {
      const budget = { maxIndexBytes, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES };
      const built = await buildWorkspaceIndex(platform, { budget }).then(
        () => undefined,
        (error: unknown) => error as IndexOverBudget,
      );
      const loaded = await readSavedIndex(platform, memoryStorage(saved), budget);
      expect(built === undefined).toBe(loaded.over === undefined);
      if (built === undefined) {
        expect(loaded.index?.size).toBe(FILE_COUNT);
        continue;
      }
      expect(built.passed.reached).toBe(saved.length);
      const figure = (note: string): string | undefined => /set searchIndex: \{ maxIndexBytes: (\d+) \* 1024 \* 1024 \}/.exec(note)?.[1];
      expect(figure(budgetNote(built.passed))).toBe(figure(budgetNote(loaded.over?.passed as BudgetPassed)));
      expect(budgetNote(built.passed)).toContain(`its index size is ${formatBytes(saved.length)} once built, 1 B over`);
      expect(budgetNote(loaded.over?.passed as BudgetPassed)).toContain(`the saved index is ${formatBytes(saved.length)}, 1 B over`);
    }
  });

  it('a saved index larger than the budget is not opened (nor rebuilt): off with the note', async () => {
    const { platform } = countedWorkspace();
    const saved = serializeIndex(await buildWorkspaceIndex(platform), platform.root);
    const storage = memoryStorage(saved);
    const attached = attachStoredSearchIndex(platform, storage, { budget: { maxIndexBytes: saved.length - 1, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES } });
    expect(await attached.ready).toHaveProperty('off');
    expect(searchIndexOf(platform)).toBeUndefined();
    expect(platform.capabilities.searchIndex?.note).toContain(`: the saved index is ${(saved.length / 1024).toFixed(1)} KiB, 1 B over searchIndex.maxIndexBytes`);
    expect(storage.writes).toBe(0);
    // Removed, so the next start does not read it again.
    expect(storage.bytes).toBeUndefined();
  });

  it('an index that outgrows maxIndexBytes through tool writes is dropped; searches scan and equal a scan; capabilities say so', async () => {
    const { platform } = countedWorkspace();
    const built = await buildWorkspaceIndex(platform);
    const storage = memoryStorage();
    // Room for a little growth, not for a file of many new trigrams.
    const attached = attachStoredSearchIndex(platform, storage, { budget: { maxIndexBytes: built.bytes + 2000, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES } });
    expect(await attached.ready).toEqual({ from: 'built' });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await runner.execute('edit_file', { file_path: '/ws/d0/f0.ts', old_string: 'export const value0 = 0;\n// note 0', new_string: 'export const value0 = 1;\n// note 0', replace_all: true });
    expect(searchIndexOf(platform)).toBeDefined();
    expect(platform.capabilities.searchIndex).toEqual({ state: 'ready' });
    let text = '';
    for (let i = 0; i < 3000; i += 1) text += `${(i * 2654435761).toString(36)} zebraCrossing${i}\n`;
    await runner.execute('create_file', { file_path: '/ws/d2/big.ts', content: text });
    await searchIndexIdle(platform);
    expect(searchIndexOf(platform)).toBeUndefined();
    const status = platform.capabilities.searchIndex;
    expect(status?.state).toBe('off');
    expect(status?.note).toMatch(/its index size reached [\d.]+ KiB after updates, [\d.]+ KiB over searchIndex\.maxIndexBytes/);
    const scan = await answers({ ...platform, capabilities: { ...platform.capabilities } });
    expect((scan[0] as { files: string[] }).files).toEqual(['/ws/d1/rare.ts', '/ws/d2/big.ts']);
    expect(await answers(platform)).toEqual(scan);
    // Dropped: nothing to save on close.
    const writes = storage.writes;
    await attached.close();
    expect(storage.writes).toBe(writes);
  });
});
