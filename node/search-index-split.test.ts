// The index build thread split in two (`splitFiles`; 0: never): the second half of the files built on a thread
// of its own and the parts merged give, byte for byte, the index file one thread writes; the budget
// bounds both parts together.
import { mkdir, mkdtemp, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../test/support/build.js';
import { seededRandom } from '../test/support/random.js';
import { searchIndexFile, type IndexWorkerData, type IndexWorkerMessage } from './search-index-store.js';
import { SentPaths, splitPoint } from './search-index-split.js';

let base = '';
let root = '';
let dist = '';
const OLD = Math.floor(Date.now() / 1000) - 60;
const WORDS = ['alpha', 'Beta', 'GAMMA', 'Straße', 'привет', '中文', 'needle', 'hay', 'x12', 'function', 'return'];

beforeAll(async () => {
  dist = ensureBuilt();
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-split-')));
  root = join(base, 'ws');
  const random = seededRandom(11);
  for (let i = 0; i < 300; i += 1) {
    const rel = `d${i % 7}/e${i % 3}/f${i}.txt`;
    await mkdir(dirname(join(root, rel)), { recursive: true });
    // Sizes from a few bytes to tens of KiB, so lists hold ids far apart and near.
    const words = Array.from({ length: Math.floor(random() * (i % 10 === 0 ? 4000 : 60)) }, () => WORDS[Math.floor(random() * WORDS.length)]);
    await writeFile(join(root, rel), `${words.join(i % 2 ? ' ' : '\n')} ${i}\n`);
    await utimes(join(root, rel), OLD, OLD);
  }
  await writeFile(join(root, 'blob.bin'), new Uint8Array([1, 2, 0, 3]));
  await utimes(join(root, 'blob.bin'), OLD, OLD);
  // Past the racy window of the files' status-change times (utimes sets it now): no file is racy, so
  // every build records the same flags.
  await new Promise((resolve) => setTimeout(resolve, 1100));
}, 240_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

/** Runs the build thread on `root` with `extra` data; resolves with its messages once it said `saved`, `over` or `error`. */
function runThread(cacheDir: string, extra: Partial<IndexWorkerData>): Promise<IndexWorkerMessage[]> {
  const worker = new Worker(join(dist, 'node/search-index-worker.js'), { workerData: { root, cacheDir, ...extra } satisfies IndexWorkerData });
  const messages: IndexWorkerMessage[] = [];
  return new Promise((resolve, reject) => {
    worker.on('message', (message: IndexWorkerMessage) => {
      messages.push(message);
      if (message.type !== 'parts') {
        void worker.terminate();
        resolve(messages);
      }
    });
    worker.on('error', reject);
  });
}

describe('index build split between two threads', () => {
  it('writes the same index file, byte for byte, as one thread, wherever the split falls', async () => {
    const one = await runThread(join(base, 'one'), {});
    expect(one.map((m) => m.type)).toEqual(['parts', 'saved']);
    const expected = await readFile(searchIndexFile(root, join(base, 'one')));
    for (const splitFiles of [2, 301, 0]) {
      const cacheDir = join(base, `split-${splitFiles}`);
      const split = await runThread(cacheDir, { splitFiles });
      expect(split.map((m) => m.type)).toEqual(['parts', 'saved']);
      const parts = split[0] as Extract<IndexWorkerMessage, { type: 'parts' }>;
      expect(parts.parts.paths.length).toBe(301);
      expect(Buffer.compare(await readFile(searchIndexFile(root, cacheDir)), expected)).toBe(0);
    }
  }, 120_000);

  it('a second thread that fails (an error, or an exit before it reports) leaves its half to the build thread: the same index file, byte for byte', async () => {
    const one = await runThread(join(base, 'one-again'), {});
    expect(one.map((m) => m.type)).toEqual(['parts', 'saved']);
    const expected = await readFile(searchIndexFile(root, join(base, 'one-again')));
    for (const fails of ['throw', 'exit'] as const) {
      const cacheDir = join(base, `second-${fails}`);
      const messages = await runThread(cacheDir, { splitFiles: 2, secondPartFailsForTests: fails });
      expect(messages.map((m) => m.type), fails).toEqual(['parts', 'saved']);
      expect(Buffer.compare(await readFile(searchIndexFile(root, cacheDir)), expected), fails).toBe(0);
    }
  }, 120_000);

  it('a budget that the two parts pass only together stops the split build with the index budget passed', async () => {
    const one = await runThread(join(base, 'sized'), {});
    const saved = await readFile(searchIndexFile(root, join(base, 'sized')));
    expect(one.map((m) => m.type)).toEqual(['parts', 'saved']);
    // Each half's index is well under this; both together are over it.
    const maxIndexBytes = Math.floor(saved.length * 0.7);
    const over = await runThread(join(base, 'over'), { splitFiles: 2, budget: { maxIndexBytes, maxBuildBytes: 1 << 30 } });
    expect(over.map((m) => m.type)).toEqual(['over']);
    const passed = (over[0] as Extract<IndexWorkerMessage, { type: 'over' }>).passed;
    expect(passed.budget).toBe('maxIndexBytes');
    expect(passed.limit).toBe(maxIndexBytes);
    expect(passed.reached).toBeGreaterThan(maxIndexBytes);
  }, 120_000);
});

describe('files handed to the second thread while the walk lists them', () => {
  /** Reads `sent`'s feed from file `from` on until it gives undefined; the paths it gave. */
  async function readFrom(sent: SentPaths, from: number): Promise<string[]> {
    const got: string[] = [];
    for (let i = from; ; i += 1) {
      const path = await sent.next(i);
      if (path === undefined) return got;
      got.push(path);
    }
  }

  it('gives the second thread the files it claimed during the walk and half of the rest, the build thread the others, each file once, in order', async () => {
    const paths = Array.from({ length: 11 }, (_, i) => `/w/f${i}`);
    for (const claimedBeforeEnd of [0, 1, 4, 7]) {
      const claim = new Int32Array(new SharedArrayBuffer(4));
      const sent = new SentPaths(claim);
      sent.take({ type: 'paths', paths: paths.slice(0, 8) });
      const early: string[] = [];
      for (let i = 0; i < claimedBeforeEnd; i += 1) early.push((await sent.next(i)) as string);
      // The walk ends: the split is set, the rest of the second thread's files sent.
      const split = splitPoint(claim, paths.length);
      expect(split, String(claimedBeforeEnd)).toBe(claimedBeforeEnd + Math.ceil((paths.length - claimedBeforeEnd) / 2));
      if (split > 8) sent.take({ type: 'paths', paths: paths.slice(8, split) });
      sent.take({ type: 'end', total: paths.length });
      const late = await readFrom(sent, claimedBeforeEnd);
      expect([...early, ...late], String(claimedBeforeEnd)).toEqual(paths.slice(0, split));
      expect(sent.total).toBe(paths.length);
    }
  });

  it('waits for files not sent yet, and ends when told to stop', async () => {
    const claim = new Int32Array(new SharedArrayBuffer(4));
    const sent = new SentPaths(claim);
    const waiting = sent.next(0);
    expect(typeof waiting).toBe('object');
    sent.take({ type: 'paths', paths: ['/w/a', '/w/b'] });
    expect(await waiting).toBe('/w/a');
    expect(await sent.next(1)).toBe('/w/b');
    const stopped = sent.next(2);
    sent.take({ type: 'stop' });
    expect(await stopped).toBeUndefined();
    expect(sent.total).toBeUndefined();
  });
});
