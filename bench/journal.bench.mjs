// The change journal's cost on Node: 1,000 create_file and 1,000 edit_file calls with the runner's
// journal (the default) beside the same calls on a runner with `journal: false`, on the memory
// platform and on the Node platform over a real folder; and a rewind of 100 files on the Node
// platform beside writing the same 100 files directly.
//
// Method (journal cost): per platform kind two runners, each on a platform of its own. Each round,
// file by file, one call on each runner (which goes first flips each file), timed one by one and
// summed per runner: first 1,000 create_file of new 4 KiB files, then 1,000 edit_file on them. Each
// call is a turn of its own (`execute`). A figure is the median over ROUNDS rounds after one warm-up
// round (each round writes new files). toolhost/node is imported (as on Node it would be), so the
// journal's SHA-256 is node:crypto's rather than WebCrypto's.
//
// Method (rewind): 100 files of 4 KiB edited in one turn (one processToolCalls of 100 edit_file
// calls), then `rewind(toTurn)` back before it and a rewind that undoes that, alternately: every
// rewind restores 100 files. The anchor writes the same 100 files' contents with fs.promises.writeFile.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRunner, BuiltinTools, createMemoryPlatform } from '../dist/src/index.js';
import { createNodePlatform } from '../dist/node/index.js';
import { ToolRunner as CoreToolRunner } from '../dist/src/core/runner.js';
import { TOOLHOST_DEFAULTS } from '../dist/src/runner.js';
import { createChangeJournal } from '../dist/src/journal/journal.js';
import { FileJournalStore } from '../dist/node/journal-store.js';

const FILES = 1000;
const ROUNDS = 5;
/** Rounds on the Node platform (each call there writes to the disk: a round takes about 20 s). */
const DISK_ROUNDS = 3;
const REWIND_FILES = 100;
const REWINDS = 11;
const KIB4 = 4096;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** 4 KiB of text, different per file and round, with a marker line to edit. */
function content(round, i) {
  const line = `line of file ${i} in round ${round}: ${'x'.repeat(40)}\n`;
  return `marker-0;\n${line.repeat(Math.ceil(KIB4 / line.length))}`.slice(0, KIB4);
}

async function call(runner, name, args) {
  const start = performance.now();
  const [result] = await runner.processToolCalls([{ id: 'c', name, args }]);
  const ms = performance.now() - start;
  if ('code' in result) throw new Error(`${name}: ${result.code} ${result.error}`);
  return ms;
}

/** create_file × FILES then edit_file × FILES on each runner, alternating call by call; ms per runner and kind. */
export async function journalCost(make, rounds = ROUNDS) {
  const runners = { on: make(true), off: make(false) };
  const kinds = ['on', 'off'];
  const times = { create: { on: [], off: [] }, edit: { on: [], off: [] } };
  for (let round = 0; round < rounds + 1; round += 1) {
    const sum = { create: { on: 0, off: 0 }, edit: { on: 0, off: 0 } };
    for (const [op, args] of [
      ['create', (i) => ['create_file', { file_path: `r${round}/f${i}.txt`, content: content(round, i) }]],
      ['edit', (i) => ['edit_file', { file_path: `r${round}/f${i}.txt`, old_string: 'marker-0;', new_string: 'marker-1;' }]],
    ]) {
      for (let i = 0; i < FILES; i += 1) {
        for (const kind of (i + round) % 2 === 0 ? kinds : [...kinds].reverse()) sum[op][kind] += await call(runners[kind], ...args(i));
      }
    }
    if (round === 0) continue;
    for (const op of ['create', 'edit']) for (const kind of kinds) times[op][kind].push(sum[op][kind]);
  }
  return { create: { on: median(times.create.on), off: median(times.create.off) }, edit: { on: median(times.edit.on), off: median(times.edit.off) } };
}

/** Median ms of a rewind of REWIND_FILES files on the Node platform (with `store` when given), and of writing them directly. */
export async function rewindCost(base, name, store) {
  const root = join(base, name);
  mkdirSync(root, { recursive: true });
  const original = [];
  for (let i = 0; i < REWIND_FILES; i += 1) {
    original.push(content(0, i));
    writeFileSync(join(root, `f${i}.txt`), original[i]);
  }
  const platform = createNodePlatform({ root });
  const defaults = store ? { ...TOOLHOST_DEFAULTS, journal: (p, setup) => createChangeJournal(p, setup, { store: new FileJournalStore(store) }) } : TOOLHOST_DEFAULTS;
  const runner = new CoreToolRunner({ platform, tools: BuiltinTools.all() }, defaults);
  const calls = original.map((_, i) => ({ id: `e${i}`, name: 'edit_file', args: { file_path: `f${i}.txt`, old_string: 'marker-0;', new_string: 'marker-1;' } }));
  const results = await runner.processToolCalls(calls);
  if (results.some((result) => 'code' in result)) throw new Error('edit_file failed');
  const rewinds = [];
  const direct = [];
  let to = 0;
  for (let n = 0; n < REWINDS + 1; n += 1) {
    const start = performance.now();
    const result = await runner.rewind('default', { toTurn: to });
    const ms = performance.now() - start;
    if (result.restored.length !== REWIND_FILES) throw new Error(`rewind restored ${result.restored.length} files`);
    to = result.turn - 1;
    const anchorStart = performance.now();
    for (let i = 0; i < REWIND_FILES; i += 1) await writeFile(join(base, `${name}-direct-${i}.txt`), original[i]);
    const anchorMs = performance.now() - anchorStart;
    if (n === 0) continue;
    rewinds.push(ms);
    direct.push(anchorMs);
  }
  return { rewind: median(rewinds), direct: median(direct) };
}

export default async function run() {
  const base = mkdtempSync(join(tmpdir(), 'toolhost-bench-journal-'));
  try {
    const memory = await journalCost((journal) => new ToolRunner({ platform: createMemoryPlatform(), tools: BuiltinTools.all(), journal }));
    let disk = 0;
    const node = await journalCost((journal) => {
      const root = join(base, `disk-${(disk += 1)}`);
      mkdirSync(root, { recursive: true });
      return new ToolRunner({ platform: createNodePlatform({ root }), tools: BuiltinTools.all(), journal });
    }, DISK_ROUNDS);
    const inMemory = await rewindCost(base, 'rewind-memory-store');
    const onDisk = await rewindCost(base, 'rewind-file-store', join(base, 'journal-store'));
    const note = (rounds) => `${FILES} files of 4 KiB, one call (one turn) at a time, the runners alternating call by call; sum of the calls, median of ${rounds} rounds; SHA-256 by node:crypto (toolhost/node imported)`;
    const rewindNote = `${REWIND_FILES} files of 4 KiB edited in one turn, rewound and the rewind undone alternately; median of ${REWINDS}`;
    return [
      { figure: 'create_file × 1,000, memory platform, journal on', value: memory.create.on, unit: 'ms', anchor: 'the same, journal: false', anchorValue: memory.create.off, target: '≤ 1.1x', note: note(ROUNDS) },
      { figure: 'edit_file × 1,000, memory platform, journal on', value: memory.edit.on, unit: 'ms', anchor: 'the same, journal: false', anchorValue: memory.edit.off, target: '≤ 1.1x', note: note(ROUNDS) },
      { figure: 'create_file × 1,000, Node platform (disk), journal on', value: node.create.on, unit: 'ms', anchor: 'the same, journal: false', anchorValue: node.create.off, target: '≤ 1.1x', note: note(DISK_ROUNDS) },
      { figure: 'edit_file × 1,000, Node platform (disk), journal on', value: node.edit.on, unit: 'ms', anchor: 'the same, journal: false', anchorValue: node.edit.off, target: '≤ 1.1x', note: note(DISK_ROUNDS) },
      { figure: 'rewind of 100 files, Node platform, journal in memory', value: inMemory.rewind, unit: 'ms', anchor: '100 fs.promises.writeFile of the same bytes', anchorValue: inMemory.direct, target: '≤ 100 ms', note: rewindNote },
      { figure: 'rewind of 100 files, Node platform, FileJournalStore (crash-atomic)', value: onDisk.rewind, unit: 'ms', anchor: '100 fs.promises.writeFile of the same bytes', anchorValue: onDisk.direct, target: '≤ 100 ms', note: rewindNote },
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
