import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChangeJournal } from '../src/journal/journal.js';
import { buildPackage } from '../test/support/build.js';
import { FileJournalStore } from './journal-store.js';
import { createNodePlatform } from './platform.js';

// A rewind of many files run in a child process that is killed (SIGKILL) at a chosen step: before its
// k-th write (a file of the workspace or a record of the store). The child says on stdout where it
// stopped; only then is it killed, so no step is guessed from timing. A new journal then opens the
// same store (in this process: the journal modules keep no state outside their instances, so it knows
// only what is on disk, as a new process would); the workspace must be exactly as before the rewind or
// exactly as after it.

let base: string;
let compiled: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-rewind-crash-')));
  // The child processes run the shared build (dist/, test/support/build.ts).
  compiled = buildPackage('toolhost-journal-crash-test');
  await writeFile(join(compiled, 'rewind-child.mjs'), CHILD);
}, 240_000);
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/**
 * The child: a journal on `STORE` over a Node platform on `ROOT`, loaded. It counts every
 * write (the platform's writes, renames, removals, folders; the store's records and blobs) and, before
 * write number `PAUSE`, prints `paused <n>` and waits to be killed; else rewinds conversation `chat` to
 * turn 0 and prints `done <writes>`. `GENERIC=1` hides the platform's own atomic write, so each file is
 * a temporary file then a rename (a kill can fall between them).
 */
const CHILD = `
import { createChangeJournal } from './src/journal/journal.js';
import { FileJournalStore } from './node/journal-store.js';
import { createNodePlatform } from './node/platform.js';
const { ROOT, STORE, GENERIC } = process.env;
const pause = Number(process.env.PAUSE ?? 'Infinity');
let writes = 0;
let counting = false;
async function step() {
  if (!counting) return;
  writes += 1;
  if (writes === pause) {
    process.stdout.write('paused ' + writes + '\\n');
    // Held until killed: a timer keeps the process alive (with nothing pending it would end at once, exit 13).
    await new Promise(() => setInterval(() => {}, 1 << 30));
  }
}
const WRITES = new Set(['writeFile', 'writeFileAtomic', 'rename', 'rm', 'unlink', 'mkdir', 'rmdir']);
const platform = createNodePlatform({ root: ROOT });
const fs = new Proxy(platform.fs, {
  get(target, property) {
    if (property === 'writeFileAtomic' && GENERIC === '1') return undefined;
    const value = Reflect.get(target, property, target);
    if (typeof value !== 'function') return value;
    if (!WRITES.has(property)) return value.bind(target);
    return async (...args) => (await step(), value.apply(target, args));
  },
});
class CountingStore extends FileJournalStore {}
for (const name of ['putBlob', 'deleteBlob', 'createTurn', 'putTurn', 'deleteTurn', 'putRewind', 'deleteRewind']) {
  const inner = FileJournalStore.prototype[name];
  CountingStore.prototype[name] = async function (...args) {
    await step();
    return inner.apply(this, args);
  };
}
const journal = createChangeJournal({ ...platform, fs }, { maxBytes: 64 * 1024 * 1024, withPathLock: (_path, fn) => fn() }, { store: new CountingStore(STORE) });
await journal.load();
counting = true;
const result = await journal.rewind('chat', { toTurn: 0 });
await journal.flushed();
console.log('done ' + writes + ' ' + result.restored.length);
`;

/**
 * A new journal over `root` and `store`, loaded (which finishes any rewind left under way): the turns
 * of `chat` as [turn, tools, files changed] and how many rewinds are still recorded as under way.
 */
async function openStore(root: string, store: string): Promise<{ turns: Array<[number, string, number]>; underWay: number }> {
  const platform = createNodePlatform({ root });
  try {
    const journal = createChangeJournal(platform, { maxBytes: 64 * 1024 * 1024, withPathLock: (_path, fn) => fn() }, { store: new FileJournalStore(store) });
    await journal.load();
    const turns = (await journal.changes('chat')).turns.map((turn): [number, string, number] => [turn.turn, turn.calls.map((call) => call.tool).join(), turn.calls.reduce((n, call) => n + call.files.length, 0)]);
    return { turns, underWay: (await new FileJournalStore(store).listRewinds()).length };
  } finally {
    await platform.dispose();
  }
}

/** Runs the child with `env`; once a line of its stdout starts with `paused` or `done`, kills it (SIGKILL) and answers that line. */
function runChild(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(compiled, 'rewind-child.mjs')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let line: string | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = out.split('\n').find((l) => l.startsWith('paused') || l.startsWith('done'));
      if (found !== undefined && line === undefined) {
        line = found;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => (line === undefined ? reject(new Error(`child ended without an answer (exit code ${code}, signal ${signal}): ${out}${err}`)) : resolve(line)));
  });
}

const FILES = 30;
const initial = (i: number): string => `file ${i}\n`.repeat(50 + i);

/**
 * A fresh workspace and store: files `f<i>.txt`; one turn of conversation `chat` that edits 20 of
 * them, removes 10, and creates 12 new files in new folders. Rewinding it to turn 0 writes 30 files
 * and removes 12.
 */
async function setUp(name: string): Promise<{ root: string; store: string }> {
  const root = join(base, name, 'root');
  const store = join(base, name, 'journal');
  await mkdir(root, { recursive: true });
  for (let i = 0; i < FILES; i += 1) await writeFile(join(root, `f${i}.txt`), initial(i));
  const platform = createNodePlatform({ root });
  const journal = createChangeJournal(platform, { maxBytes: 64 * 1024 * 1024, withPathLock: (_path, fn) => fn() }, { store: new FileJournalStore(store) });
  const turn = journal.beginTurn('chat');
  const fs = turn.fsFor({ callId: 'c1', tool: 'mutate' }, platform.fs);
  for (let i = 0; i < 20; i += 1) await fs.writeFile(join(root, `f${i}.txt`), `edited ${i}\n`);
  for (let i = 20; i < FILES; i += 1) await fs.rm(join(root, `f${i}.txt`));
  for (let i = 0; i < 12; i += 1) {
    await platform.fs.mkdir(join(root, `new/d${i % 3}`), { recursive: true });
    await fs.writeFile(join(root, `new/d${i % 3}/n${i}.txt`), `new ${i}\n`);
  }
  await turn.end();
  await journal.flushed();
  return { root, store };
}

/** Every folder and file under `root` with its content (`null` for a folder), sorted. */
async function snapshot(root: string): Promise<Array<[string, string | null]>> {
  const out: Array<[string, string | null]> = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    out.push([path.slice(root.length), entry.isDirectory() ? null : await readFile(path, 'utf8')]);
  }
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** How many kill points of a test run at once (the two tests run side by side too). */
const POINTS_AT_ONCE = 3;

/** `run` on every item, at most `limit` at a time; answers the results in the items' order. */
async function inTurn<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

describe.concurrent.each([
  ['the Node platform’s own atomic writes', '0'],
  ['a temporary file then a rename per file', '1'],
])('rewind killed (SIGKILL) at a write, with %s', (_label, generic) => {
  it('leaves the workspace exactly as before the whole rewind or as after it, once a new journal opens the store', async ({ expect }) => {
    // The reference: an uninterrupted rewind, its number of writes and the workspace before and after it.
    const reference = await setUp(`reference-${generic}`);
    const before = await snapshot(reference.root);
    const done = await runChild({ ROOT: reference.root, STORE: reference.store, GENERIC: generic });
    const [, total, restored] = done.split(' ').map(Number);
    expect(restored).toBe(42);
    const after = await snapshot(reference.root);
    expect(after).not.toEqual(before);
    expect(after.filter(([path]) => /^\/f\d+\.txt$/.test(path))).toEqual(Array.from({ length: FILES }, (_, i) => [`/f${i}.txt`, initial(i)]).sort(([a], [b]) => (a! < b! ? -1 : 1)));

    // Kill points: the first writes (the record of the rewind under way among them), spread over the file writes, the last ones.
    // Each has a workspace and a store of its own, so several run at once, their child processes side by side.
    const points = [...new Set([1, 2, ...Array.from({ length: 4 }, (_, i) => Math.round(((i + 1) * total!) / 5) + i), total! - 1, total!])];
    const outcomes = await inTurn(points, POINTS_AT_ONCE, async (point): Promise<string> => {
      const round = await setUp(`kill-${generic}-${point}`);
      expect(await snapshot(round.root)).toEqual(before);
      expect(await runChild({ ROOT: round.root, STORE: round.store, GENERIC: generic, PAUSE: String(point) })).toBe(`paused ${point}`);
      const opened = await openStore(round.root, round.store);
      const now = await snapshot(round.root);
      expect(opened.underWay, `kill before write ${point}`).toBe(0);
      if (now.length === before.length && JSON.stringify(now) === JSON.stringify(before)) {
        expect(opened.turns, `kill before write ${point}`).toEqual([[1, 'mutate', 42]]);
        return 'before';
      }
      expect(now, `kill before write ${point}: neither the before nor the after state`).toEqual(after);
      expect(opened.turns, `kill before write ${point}`).toEqual([
        [1, 'mutate', 42],
        [2, 'rewind', 42],
      ]);
      return 'after';
    });
    // Killed before its record was stored (write 1 takes its turn number, with a record of no calls; write 2
    // stores the record under way): nothing; at any later write: the whole rewind.
    expect(outcomes.slice(0, 2)).toEqual(['before', 'before']);
    expect(outcomes.slice(2)).toEqual(outcomes.slice(2).map(() => 'after'));
  }, 240_000);
});
