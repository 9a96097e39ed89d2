// The budgets of a workspace's search index: a build counts its index's size and its own memory as it
// goes and stops at the first file past a bound (no index, the platform scans), an index that grows
// past its size through tools' writes is dropped, and `capabilities.searchIndex` says which bound.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuiltinTools, ToolRunner } from '../../index.js';
import { wrapFsMethods } from '../../core/fs-proxy.js';
import { createMemoryPlatform } from '../../platform/memory.js';
import type { Platform } from '../../core/types.js';
import { attachStoredSearchIndex, type SearchIndexStorage } from './attach.js';
import { budgetNote, budgetOf, DEFAULT_MAX_BUILD_BYTES, DEFAULT_MAX_INDEX_BYTES, IndexOverBudget } from './budget.js';
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
  return { platform: { ...memory, fs, searchSource: undefined, capabilities: { ...memory.capabilities } }, reads };
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
    const note = budgetNote({ budget: 'maxIndexBytes', limit: 1024 * 1024, reached: 1.5 * 1024 * 1024, done: 100, total: 400 });
    expect(note).toBe(
      'search index off, searches scan every file: its index size reached 1.5 MiB after 100 of 400 files, 512.0 KiB over searchIndex.maxIndexBytes (1.0 MiB); set searchIndex: { maxIndexBytes: 8 * 1024 * 1024 } or more to index this workspace',
    );
    expect(budgetNote({ budget: 'maxBuildBytes', limit: 2048, reached: 4096 })).toBe(
      'search index off, searches scan every file: its build memory reached 4.0 KiB after updates, 2.0 KiB over searchIndex.maxBuildBytes (2.0 KiB); set searchIndex: { maxBuildBytes: 1 * 1024 * 1024 } or more to index this workspace',
    );
  });

  it("with the host's names for the budgets (a command line's flags), the note names them and the bytes to give", () => {
    const names = { maxIndexBytes: '--index-max', maxBuildBytes: '--build-max' };
    expect(budgetNote({ budget: 'maxIndexBytes', limit: 1024 * 1024, reached: 1.5 * 1024 * 1024, done: 100, total: 400 }, names)).toBe(
      'search index off, searches scan every file: its index size reached 1.5 MiB after 100 of 400 files, 512.0 KiB over --index-max (1.0 MiB); set --index-max to 8 MiB (8388608 bytes) or more to index this workspace',
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
    expect(note).toMatch(/ over --index-max \(4\.0 KiB\); set --index-max to \d+ MiB \(\d+ bytes\) or more to index this workspace$/);
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
    expect(status?.note).toMatch(/^search index off, searches scan every file: its index size reached [\d.]+ KiB after \d+ of 201 files, [\d.]+ (B|KiB) over searchIndex\.maxIndexBytes \(4\.0 KiB\); set searchIndex: \{ maxIndexBytes: \d+ \* 1024 \* 1024 \}/);
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

  it('a saved index larger than the budget is not opened (nor rebuilt): off with the note', async () => {
    const { platform } = countedWorkspace();
    const saved = serializeIndex(await buildWorkspaceIndex(platform), platform.root);
    const storage = memoryStorage(saved);
    const attached = attachStoredSearchIndex(platform, storage, { budget: { maxIndexBytes: saved.length - 1, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES } });
    expect(await attached.ready).toHaveProperty('off');
    expect(searchIndexOf(platform)).toBeUndefined();
    expect(platform.capabilities.searchIndex?.note).toContain(`reached ${(saved.length / 1024).toFixed(1)} KiB after updates, 1 B over searchIndex.maxIndexBytes`);
    expect(storage.writes).toBe(0);
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
