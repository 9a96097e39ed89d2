// Read-only calls with context on a Node platform whose state lives in a directory (FileStateStore, a
// store other processes share, so the runner checks the conversation's version per call) next to the
// same calls with the in-memory state store. The conversation holds 50 keys (about 12 KB of JSON), set
// once before timing; the calls (view_file of a small file) never read it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRunner, BuiltinTools, defineTool } from '../dist/src/index.js';
import { createNodePlatform } from '../dist/node/index.js';

const CALLS = 1000;
const ROUNDS = 5;

export default async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'toolhost-bench-state-'));
  try {
    const remember = defineTool({
      name: 'remember',
      description: 'Stores 50 notes in the conversation state.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      needsContext: true,
      callWithContext: async (_args, ctx) => {
        for (let i = 0; i < 50; i += 1) ctx.setState(`note-${i}`, { text: `note ${i} `.repeat(24), at: i });
        return 'ok';
      },
    });
    const runnerFor = async (options) => {
      const platform = createNodePlatform(options);
      await platform.fs.writeFile(`${platform.root}/small.txt`, 'one line\n'.repeat(20));
      const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), remember] });
      await runner.execute('remember', {});
      return runner;
    };
    const onDisk = await runnerFor({ stateDir: join(dir, 'state') });
    const inMemory = await runnerFor({});
    const time = async (runner) => {
      const t0 = performance.now();
      for (let i = 0; i < CALLS; i += 1) await runner.execute('view_file', { file_path: 'small.txt' });
      return performance.now() - t0;
    };
    await time(onDisk);
    await time(inMemory);
    const disk = [];
    const memory = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      disk.push(await time(onDisk));
      memory.push(await time(inMemory));
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    return [
      {
        figure: '1,000 read-only calls with context (view_file), Node platform with stateDir (FileStateStore)',
        value: median(disk),
        unit: 'ms',
        anchor: 'the same calls, Node platform with the in-memory state store',
        anchorValue: median(memory),
        note: `median of ${ROUNDS} paired runs; the conversation holds 50 keys the calls never read`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
