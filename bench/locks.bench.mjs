// The cross-process path lock's cost: 1,000 small edit_file calls on a real folder through the Node
// platform with its file locks (the default: a lock file created exclusively per edit, in the lock
// directory) beside the same platform with `fileLocks: false` (writers serialised within the process
// only), in the same run, call by call alternating.
//
// Method: 1,000 files of 1 KiB with a marker line each, one folder per platform. Each round, file by
// file, one edit_file through ToolRunner.processToolCalls on each platform (which goes first flips each
// file), replacing that round's marker by the next one. A platform's figure is the sum of its 1,000
// calls, median over ROUNDS rounds after one warm-up round.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRunner, BuiltinTools } from '../dist/src/index.js';
import { createNodePlatform } from '../dist/node/index.js';

const FILES = 1000;
const ROUNDS = 5;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function run() {
  const base = mkdtempSync(join(tmpdir(), 'toolhost-bench-locks-'));
  try {
    const kinds = ['locked', 'unlocked'];
    const runners = {};
    for (const kind of kinds) {
      const root = join(base, kind);
      mkdirSync(root, { recursive: true });
      for (let f = 0; f < FILES; f += 1) writeFileSync(join(root, `file-${f}.ts`), `${'x'.repeat(1000)}\nmarker-0;\n`);
      const platform = createNodePlatform(kind === 'locked' ? { root, fileLocks: true } : { root, fileLocks: false });
      runners[kind] = new ToolRunner({ platform, tools: BuiltinTools.all() });
    }
    const times = { locked: [], unlocked: [] };
    for (let round = 0; round < ROUNDS + 1; round += 1) {
      const sum = { locked: 0, unlocked: 0 };
      for (let i = 0; i < FILES; i += 1) {
        const order = (i + round) % 2 === 0 ? kinds : [...kinds].reverse();
        for (const kind of order) {
          const start = performance.now();
          const [result] = await runners[kind].processToolCalls([
            { id: 'b', name: 'edit_file', args: { file_path: `file-${i}.ts`, old_string: `marker-${round};`, new_string: `marker-${round + 1};` } },
          ]);
          sum[kind] += performance.now() - start;
          if ('code' in result) throw new Error(`edit_file: ${result.code} ${result.error}`);
        }
      }
      if (round === 0) continue; // round 0 warms both up
      for (const kind of kinds) times[kind].push(sum[kind]);
    }
    return [
      {
        figure: 'edit_file × 1,000, cross-process file locks on',
        value: median(times.locked),
        unit: 'ms',
        anchor: 'the same, fileLocks: false',
        anchorValue: median(times.unlocked),
        target: '≤ 1.2x',
        note: `${FILES} files of 1 KiB on a real folder, one call at a time, the platforms alternating call by call; median of ${ROUNDS} rounds`,
      },
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
