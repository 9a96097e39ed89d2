// view_file and create_file on 1,000 small files in a real directory, through the Node platform's
// descriptor-held confinement (the default on Linux) beside the path-checked port (`confinement:
// 'paths'`: realpath checks before each operation, the port the Node platform used before descriptors
// and still uses where /proc/self/fd is missing), in the same run, rounds interleaved.
//
// Method: 1,000 files of 1 KiB in 10 folders (depth 2 under the root). Each round, file by file, one
// view_file call through ToolRunner.processToolCalls on each port, then one create_file of a new file
// on each (a fresh name per round, removed untimed after the round); the ports alternate call by call.
// A port's figure is the sum of its 1,000 calls, median over ROUNDS rounds after one warm-up round.
// The baseline is the path-checked port of this tree, not a build of the earlier commit: it is that
// code, except that its readFile now opens non-blocking and checks the type on the descriptor.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRunner, BuiltinTools } from '../dist/src/index.js';
import { createNodePlatform } from '../dist/node/index.js';

const FILES = 1000;
const ROUNDS = 7;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function run() {
  const base = mkdtempSync(join(tmpdir(), 'toolhost-bench-confine-'));
  try {
    const root = join(base, 'root');
    const paths = [];
    const body = 'x'.repeat(1023) + '\n';
    for (let d = 0; d < 10; d += 1) {
      mkdirSync(join(root, 'src', `d${d}`), { recursive: true });
      for (let f = 0; f < FILES / 10; f += 1) {
        const path = join(root, 'src', `d${d}`, `file-${f}.ts`);
        writeFileSync(path, body);
        paths.push(path);
      }
    }
    const ports = {
      descriptors: new ToolRunner({ platform: createNodePlatform({ root }), tools: BuiltinTools.all() }),
      paths: new ToolRunner({ platform: createNodePlatform({ root, confinement: 'paths' }), tools: BuiltinTools.all() }),
    };
    const times = { descriptors: { view: [], create: [] }, paths: { view: [], create: [] } };
    const once = async (runner, name, args) => {
      const [result] = await runner.processToolCalls([{ id: 'b', name, args }]);
      if ('code' in result) throw new Error(`${name}: ${result.code} ${result.error}`);
    };
    for (let round = 0; round < ROUNDS + 1; round += 1) {
      // Call by call, the two ports alternate (which goes first flips each file), so both see the
      // same load on a busy machine; each port's time is the sum of its own calls.
      const view = { descriptors: 0, paths: 0 };
      const create = { descriptors: 0, paths: 0 };
      for (let i = 0; i < FILES; i += 1) {
        const order = (i + round) % 2 === 0 ? ['descriptors', 'paths'] : ['paths', 'descriptors'];
        for (const port of order) {
          const start = performance.now();
          await once(ports[port], 'view_file', { file_path: paths[i] });
          view[port] += performance.now() - start;
        }
        for (const port of order) {
          const start = performance.now();
          await once(ports[port], 'create_file', { file_path: join(root, 'src', `d${i % 10}`, `new-${port}-${round}-${i}.ts`), content: body });
          create[port] += performance.now() - start;
        }
      }
      // Untimed: the folders keep their size from round to round.
      for (let i = 0; i < FILES; i += 1) {
        for (const port of ['descriptors', 'paths']) unlinkSync(join(root, 'src', `d${i % 10}`, `new-${port}-${round}-${i}.ts`));
      }
      if (round === 0) continue; // round 0 warms both up
      for (const port of ['descriptors', 'paths']) {
        times[port].view.push(view[port]);
        times[port].create.push(create[port]);
      }
    }
    const note = `${FILES} files of 1 KiB, one call at a time, the ports alternating call by call; median of ${ROUNDS} rounds`;
    return [
      { figure: 'view_file × 1,000, descriptor-held confinement', value: median(times.descriptors.view), unit: 'ms', anchor: 'the same, path-checked port', anchorValue: median(times.paths.view), target: '≤ 1.2x', note },
      { figure: 'create_file × 1,000, descriptor-held confinement', value: median(times.descriptors.create), unit: 'ms', anchor: 'the same, path-checked port', anchorValue: median(times.paths.create), target: '≤ 1.2x', note },
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
