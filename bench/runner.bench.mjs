// execute() overhead for a trivial tool with a 3-property schema, against calling the function directly.
import { Bench } from 'tinybench';
import { ToolRunner, defineTool } from '../dist/src/index.js';

const BATCH = 1000;

export default async function run() {
  const fn = async ({ a, b, c }) => ({ sum: a + b + (c ? 1 : 0) });
  const tool = defineTool({
    name: 'trivial',
    description: 'adds',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' }, c: { type: 'boolean' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    readOnly: true,
    call: fn,
  });
  const runner = new ToolRunner({ tools: [tool] });
  const args = { a: 1, b: 2, c: true };
  let sink = 0;
  const bench = new Bench({ time: 2000, warmupTime: 500 });
  bench
    .add('direct', async () => {
      for (let i = 0; i < BATCH; i += 1) sink += (await fn(args)).sum;
    })
    .add('execute', async () => {
      for (let i = 0; i < BATCH; i += 1) sink += (await runner.execute('trivial', args)).sum;
    })
    .add('processToolCalls (1 call)', async () => {
      for (let i = 0; i < BATCH; i += 1) sink += (await runner.processToolCalls([{ id: 'x', name: 'trivial', args }]))[0].result.sum;
    });
  await bench.run();
  if (sink === 0) throw new Error('unreachable');
  const perCall = (name) => (bench.tasks.find((t) => t.name === name).result.latency.mean * 1000) / BATCH; // ms → µs
  const direct = perCall('direct');
  const execute = perCall('execute');
  const batch = perCall('processToolCalls (1 call)');
  return [
    { figure: 'execute overhead per call', value: execute - direct, unit: 'µs', anchor: 'direct call', anchorValue: direct, target: '≤ 3 µs overhead' },
    { figure: 'execute per call (total)', value: execute, unit: 'µs', anchor: 'direct call', anchorValue: direct },
    { figure: 'processToolCalls, one call', value: batch, unit: 'µs', anchor: 'direct call', anchorValue: direct },
  ];
}
