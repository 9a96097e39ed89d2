// Write-path measurements for the web platform, run on the page's main thread (the same IndexedDB
// paths a worker uses). Each figure uses a fresh database. Times in ms.
import { transfer, wrap } from 'comlink';
import { createStore, entries, setMany } from 'idb-keyval';
import { connectToolRunner } from '../../src/remote/remote.js';
import { ToolRunner } from '../../src/runner.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { folderWorkspace } from '../../web/folders.js';
import { createWebPlatform, deleteWorkspace, exportWorkspace } from '../../web/index.js';
import { withoutBatch } from './without-batch.js';

// The folder-workspace figure opens an OPFS folder: its backend value comes from toolhost/web/folders.
const COUNT = 1000;
const SIZE = 4096;

function content(i: number): string {
  return `${String(i).padStart(6, '0')} `.repeat(SIZE / 7 + 1).slice(0, SIZE - 1) + '\n';
}

async function time(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return Math.round(performance.now() - t0);
}

const bench = {
  /** idb-keyval setMany of COUNT × 4 KiB strings in one transaction (the anchor). */
  async idbKeyvalSetMany(): Promise<number> {
    const store = createStore(`bench-keyval-${Math.random()}`, 'kv');
    const entries: [string, string][] = Array.from({ length: COUNT }, (_, i) => [`/workspace/f${i}.txt`, content(i)]);
    return time(() => setMany(entries, store));
  },
  /** COUNT create_file calls in one processToolCalls: one durable commit per call (the platform without `batch`) or per batch (ToolRunner honouring `batch`). */
  async createFileCalls(durability: 'strict' | 'relaxed' = 'strict', perBatch = false): Promise<{ ms: number; stored: number }> {
    const workspace = `bench-calls-${Math.random()}`;
    const platform = createWebPlatform({ workspace, durability });
    await platform.ready();
    const tools = BuiltinTools.all();
    const runner = new ToolRunner({ platform: perBatch ? platform : withoutBatch(platform), tools });
    const calls = Array.from({ length: COUNT }, (_, i) => ({ name: 'create_file', args: { file_path: `d${i % 10}/f${i}.txt`, content: content(i) } }));
    let failed = 0;
    const ms = await time(async () => {
      failed = (await runner.processToolCalls(calls)).filter((r) => 'code' in r).length;
    });
    await platform.dispose();
    const stored = Object.keys((await exportWorkspace(workspace)).files).length;
    await deleteWorkspace(workspace);
    return { ms, stored: failed === 0 ? stored : -failed };
  },
  /** The same COUNT create_file calls on the memory platform (no storage): the in-memory share. */
  async memoryCalls(): Promise<number> {
    const { createMemoryPlatform } = await import('../../src/platform/memory.js');
    const runner = new ToolRunner({ platform: createMemoryPlatform(), tools: BuiltinTools.all() });
    const calls = Array.from({ length: COUNT }, (_, i) => ({ name: 'create_file', args: { file_path: `d${i % 10}/f${i}.txt`, content: content(i) } }));
    return time(async () => {
      await runner.processToolCalls(calls);
    });
  },
  /** COUNT writeFile on the platform's fs, then one flush: the batch-sized commit. */
  async writesThenOneFlush(): Promise<number> {
    const workspace = `bench-flush-${Math.random()}`;
    const platform = createWebPlatform({ workspace });
    await platform.ready();
    await platform.fs.mkdir('/workspace/d', { recursive: true });
    const ms = await time(async () => {
      for (let i = 0; i < COUNT; i += 1) await platform.fs.writeFile(`/workspace/d/f${i}.txt`, content(i));
      await platform.flush();
    });
    await platform.dispose();
    await deleteWorkspace(workspace);
    return ms;
  },
  /**
   * Opening a workspace of `files` × 4 KiB files in 50 folders: time from a fresh platform to the first
   * tool result (list_dir), next to reading the same values back with idb-keyval `entries()`.
   */
  async openWorkspace(files = 5000): Promise<{ ms: number; anchorMs: number }> {
    const workspace = `bench-open-${Math.random()}`;
    const seed = createWebPlatform({ workspace });
    for (let d = 0; d < 50; d += 1) await seed.fs.mkdir(`/workspace/d${d}`, { recursive: true });
    for (let i = 0; i < files; i += 1) await seed.fs.writeFile(`/workspace/d${i % 50}/f${i}.txt`, content(i));
    await seed.flush();
    await seed.dispose();
    const store = createStore(`bench-open-keyval-${Math.random()}`, 'kv');
    await setMany(Array.from({ length: files }, (_, i): [string, string] => [`/workspace/d${i % 50}/f${i}.txt`, content(i)]), store);
    const anchorMs = await time(async () => {
      await entries(store);
    });
    const ms = await time(async () => {
      const platform = createWebPlatform({ workspace });
      const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
      const [first] = await runner.processToolCalls([{ name: 'list_dir', args: { dir_path: '/workspace/d0' } }]);
      if (!first || 'code' in first) throw new Error(`list_dir failed: ${JSON.stringify(first)}`);
      await platform.dispose();
    });
    await deleteWorkspace(workspace);
    return { ms, anchorMs };
  },
  /**
   * Import of `files` files of `bytes` bytes (5,000 × 10 kB = 50 MB) in 50 folders into a new IndexedDB
   * workspace: the page hands the bytes to a workspace worker (transferred, not copied), which seeds the
   * workspace in one transaction (`files`). Anchor: idb-keyval `setMany` of the same entries from this
   * page. `longestTaskMs`: the longest main-thread task during the import (PerformanceObserver 'longtask',
   * which reports tasks over 50 ms; 0 when there was none).
   */
  async importFiles(files = 5000, bytes = 10_000): Promise<{ ms: number; anchorMs: number; longestTaskMs: number; stored: number }> {
    const make = (): Record<string, Uint8Array> => {
      const out: Record<string, Uint8Array> = {};
      const line = new TextEncoder().encode('export const value = "lorem ipsum dolor sit amet, consectetur adipiscing elit";\n');
      for (let i = 0; i < files; i += 1) {
        const data = new Uint8Array(bytes);
        for (let at = 0; at < bytes; at += line.length) data.set(line.subarray(0, Math.min(line.length, bytes - at)), at);
        out[`pkg-${i % 50}/file-${i}.ts`] = data;
      }
      return out;
    };
    const anchorData = make();
    const store = createStore(`bench-import-keyval-${Math.random()}`, 'kv');
    const anchorMs = await time(() => setMany(Object.entries(anchorData).map(([k, v]): [string, Uint8Array] => [`/workspace/${k}`, v]), store));
    const data = make();
    // The workspace worker is running already, as an app's is when the user imports.
    const worker = new Worker(new URL('./bench-import-worker.ts', import.meta.url), { type: 'module' });
    const remote = wrap<{ seed(workspace: string, files: Record<string, Uint8Array>): Promise<number>; ping(): Promise<number> }>(worker);
    await remote.ping();
    // Observe from a fresh task, so the one that built the data is not counted.
    await new Promise((resolve) => setTimeout(resolve, 0));
    let longestTaskMs = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longestTaskMs = Math.max(longestTaskMs, Math.round(entry.duration));
    });
    observer.observe({ type: 'longtask', buffered: false });
    const workspace = `bench-import-${Math.random()}`;
    let stored = 0;
    const ms = await time(async () => {
      stored = await remote.seed(workspace, transfer(data, Object.values(data).map((d) => d.buffer)));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    observer.disconnect();
    worker.terminate();
    await deleteWorkspace(workspace);
    return { ms, anchorMs, longestTaskMs, stored };
  },
  /**
   * COUNT create_file (4 KiB) in one processToolCalls on a folder workspace (an OPFS directory handle,
   * the API showDirectoryPicker() gives), next to writing the same files with the File System Access
   * API directly (getDirectoryHandle, getFileHandle, createWritable, write, close per file). Both in this page.
   */
  async folderCreateFiles(): Promise<{ ms: number; anchorMs: number; stored: number }> {
    const top = await navigator.storage.getDirectory();
    const rawName = `bench-raw-${Math.random()}`;
    const raw = await top.getDirectoryHandle(rawName, { create: true });
    const anchorMs = await time(async () => {
      for (let i = 0; i < COUNT; i += 1) {
        const dir = await raw.getDirectoryHandle(`d${i % 10}`, { create: true });
        const w = await (await dir.getFileHandle(`f${i}.txt`, { create: true })).createWritable();
        await w.write(content(i));
        await w.close();
      }
    });
    const ourName = `bench-folder-${Math.random()}`;
    const ours = await top.getDirectoryHandle(ourName, { create: true });
    const platform = createWebPlatform({ workspace: ourName, backend: folderWorkspace(ours) });
    await platform.ready();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const calls = Array.from({ length: COUNT }, (_, i) => ({ name: 'create_file', args: { file_path: `d${i % 10}/f${i}.txt`, content: content(i) } }));
    let failed = 0;
    const ms = await time(async () => {
      failed = (await runner.processToolCalls(calls)).filter((r) => 'code' in r).length;
    });
    let stored = 0;
    for (let d = 0; d < 10; d += 1) {
      for await (const _ of (await ours.getDirectoryHandle(`d${d}`) as unknown as { keys(): AsyncIterable<string> }).keys()) stored += 1;
    }
    await platform.dispose();
    await deleteWorkspace(ourName);
    await top.removeEntry(rawName, { recursive: true });
    await top.removeEntry(ourName, { recursive: true });
    return { ms, anchorMs, stored: failed === 0 ? stored : -failed };
  },
  /** COUNT writeFile through @zenfs/dom's IndexedDB backend promise API (one transaction per operation). */
  async zenfsDomPromises(): Promise<number> {
    const { resolveMountConfig, bindContext } = await import('@zenfs/core');
    const { IndexedDB } = await import('@zenfs/dom');
    const mounted = await resolveMountConfig({ backend: IndexedDB, storeName: `bench-zenfs-${Math.random()}` });
    const fs = bindContext({ root: '/', mounts: { '/': mounted } }).fs.promises;
    await fs.mkdir('/d', { recursive: true });
    return time(async () => {
      for (let i = 0; i < COUNT; i += 1) await fs.writeFile(`/d/f${i}.txt`, content(i));
    });
  },
};

/**
 * Median µs per round trip, interleaved rounds of `n` sequential calls each: `execute` of a trivial tool
 * through connectToolRunner, and a bare comlink no-op call, each to its own dedicated worker. Both
 * warm up for a fixed time first (round trips keep getting faster for a second or two after the
 * browser starts), and the side that goes first alternates from round to round. Short rounds, many of
 * them: the machine's load changes within seconds, and both sides of a round see the same load, so
 * the median of the rounds' own ratios (`ratio`) is reported beside the two medians.
 */
async function roundTrips(n = 100, rounds = 201, warmupMs = 2000): Promise<{ executeUs: number; comlinkUs: number; ratio: number; rounds: number; calls: number }> {
  // Written out in full twice: vite bundles a worker only for this literal `new Worker(new URL(...))` form.
  const remote = connectToolRunner(() => new Worker(new URL('./bench-rpc-worker.ts', import.meta.url), { type: 'module', name: 'toolhost' }) as never);
  const bareWorker = new Worker(new URL('./bench-rpc-worker.ts', import.meta.url), { type: 'module', name: 'comlink' });
  // The method is read once, as connectToolRunner reads its worker's methods once: every property read
  // of a comlink proxy makes a new proxy and registers it for finalization, a cost of the caller's
  // style, not of the round trip.
  const bareNoop = wrap<{ noop(n: number): number }>(bareWorker).noop;
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
  const warmEnd = performance.now() + warmupMs;
  for (let i = 0; performance.now() < warmEnd; i += 1) {
    await remote.execute('noop', { n: i });
    await bareNoop(i);
  }
  const ex: number[] = [];
  const cl: number[] = [];
  const timeExecute = async (): Promise<void> => {
    const t0 = performance.now();
    for (let i = 0; i < n; i += 1) await remote.execute('noop', { n: i });
    ex.push(((performance.now() - t0) * 1000) / n);
  };
  const timeBare = async (): Promise<void> => {
    const t0 = performance.now();
    for (let i = 0; i < n; i += 1) await bareNoop(i);
    cl.push(((performance.now() - t0) * 1000) / n);
  };
  for (let r = 0; r < rounds; r += 1) {
    if (r % 2 === 0) {
      await timeExecute();
      await timeBare();
    } else {
      await timeBare();
      await timeExecute();
    }
  }
  await remote.terminate();
  bareWorker.terminate();
  return { executeUs: median(ex), comlinkUs: median(cl), ratio: median(ex.map((us, r) => us / (cl[r] as number))), rounds, calls: n };
}
(bench as Record<string, unknown>).roundTrips = roundTrips;

(globalThis as unknown as { bench: typeof bench }).bench = bench;
document.title = 'toolhost bench page ready';
