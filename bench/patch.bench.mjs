// apply_patch of a 20-hunk V4A patch to a 10,000-line file, next to edit_file making the same 20 edits one by one.
import { Bench } from 'tinybench';
import { ToolRunner, BuiltinTools, createMemoryPlatform, toolProfiles } from '../dist/src/index.js';

const LINES = 10_000;
const EDITS = 20;

export default async function run() {
  const lines = Array.from({ length: LINES }, (_, i) => `  const value${i} = compute(${i}, "row ${i}");`);
  const original = lines.join('\n') + '\n';
  const platform = createMemoryPlatform({ files: { 'big.ts': original } });
  const runner = new ToolRunner({ platform, tools: [BuiltinTools.EditFile, ...toolProfiles.openai()] });
  const at = Array.from({ length: EDITS }, (_, k) => 250 + k * 480);
  const patch = ['*** Begin Patch', '*** Update File: big.ts'];
  for (const i of at) patch.push('@@', ` ${lines[i - 1]}`, `-${lines[i]}`, `+${lines[i].replace('compute', 'recompute')}`, ` ${lines[i + 1]}`);
  patch.push('*** End Patch');
  const input = patch.join('\n');
  const edits = at.map((i) => ({ file_path: 'big.ts', old_string: `${lines[i - 1]}\n${lines[i]}`, new_string: `${lines[i - 1]}\n${lines[i].replace('compute', 'recompute')}` }));
  const reset = () => platform.fs.writeFile('/workspace/big.ts', original);
  let check = '';
  const bench = new Bench({ time: 3000, warmupTime: 500 });
  bench
    .add('edit_file x20', async () => {
      await reset();
      for (const args of edits) await runner.execute('edit_file', args);
    })
    .add('apply_patch (20 hunks)', async () => {
      await reset();
      await runner.execute('apply_patch', { input });
    });
  await bench.run();
  // Both ways give the same file.
  await reset();
  await runner.execute('apply_patch', { input });
  check = new TextDecoder().decode(await platform.fs.readFile('/workspace/big.ts'));
  await reset();
  for (const args of edits) await runner.execute('edit_file', args);
  if (check !== new TextDecoder().decode(await platform.fs.readFile('/workspace/big.ts'))) throw new Error('apply_patch and edit_file disagree');
  const ms = (name) => bench.tasks.find((t) => t.name === name).result.latency.mean;
  return [
    {
      figure: 'apply_patch, 20 hunks, 10,000-line file',
      value: ms('apply_patch (20 hunks)'),
      unit: 'ms',
      anchor: 'edit_file, the same 20 edits one by one',
      anchorValue: ms('edit_file x20'),
      target: '≤ 1x',
    },
  ];
}
