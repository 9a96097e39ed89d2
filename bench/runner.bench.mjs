// execute() overhead for a trivial tool with a 3-property schema, against calling the function
// directly: the execute form with a JSON Schema (the documented form), the classic form, and the
// execute form with a zod schema beside zod's own safeParse of the same input.
import { Bench } from 'tinybench';
import * as z from 'zod';
import { ToolRunner, defineTool } from '../dist/src/index.js';

const BATCH = 1000;

export default async function run() {
  const fn = async ({ a, b, c }) => ({ sum: a + b + (c ? 1 : 0) });
  const schema = {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' }, c: { type: 'boolean' } },
    required: ['a', 'b'],
    additionalProperties: false,
  };
  const executeTool = defineTool({ name: 'trivial', description: 'adds', inputSchema: schema, annotations: { readOnlyHint: true }, execute: fn });
  const classicTool = defineTool({ name: 'trivial_classic', description: 'adds', parameters: schema, readOnly: true, call: fn });
  const zodSchema = z.object({ a: z.number(), b: z.number(), c: z.boolean().optional() });
  const zodTool = defineTool({ name: 'trivial_zod', description: 'adds', inputSchema: zodSchema, annotations: { readOnlyHint: true }, execute: fn });
  const runner = await ToolRunner.create({ tools: [executeTool, classicTool, zodTool] });
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
    .add('execute (classic form)', async () => {
      for (let i = 0; i < BATCH; i += 1) sink += (await runner.execute('trivial_classic', args)).sum;
    })
    .add('processToolCalls (1 call)', async () => {
      for (let i = 0; i < BATCH; i += 1) sink += (await runner.processToolCalls([{ id: 'x', name: 'trivial', args }]))[0].result.sum;
    })
    .add('execute (zod)', async () => {
      for (let i = 0; i < BATCH; i += 1) sink += (await runner.execute('trivial_zod', args)).sum;
    })
    .add('zod safeParse + direct call', async () => {
      for (let i = 0; i < BATCH; i += 1) {
        const parsed = zodSchema.safeParse(args);
        if (!parsed.success) throw new Error('unreachable');
        sink += (await fn(parsed.data)).sum;
      }
    });
  await bench.run();
  if (sink === 0) throw new Error('unreachable');
  const perCall = (name) => (bench.tasks.find((t) => t.name === name).result.latency.mean * 1000) / BATCH; // ms → µs
  const direct = perCall('direct');
  const execute = perCall('execute');
  const classic = perCall('execute (classic form)');
  const batch = perCall('processToolCalls (1 call)');
  const zodExecute = perCall('execute (zod)');
  const zodDirect = perCall('zod safeParse + direct call');
  return [
    { figure: 'execute overhead per call (execute form, JSON Schema)', value: execute - direct, unit: 'µs', anchor: 'direct call', anchorValue: direct, target: '≤ 1.5 µs overhead' },
    { figure: 'execute overhead per call (classic form)', value: classic - direct, unit: 'µs', anchor: 'direct call', anchorValue: direct },
    { figure: 'execute per call (total)', value: execute, unit: 'µs', anchor: 'direct call', anchorValue: direct },
    { figure: 'processToolCalls, one call', value: batch, unit: 'µs', anchor: 'direct call', anchorValue: direct },
    { figure: 'execute per call, zod schema', value: zodExecute, unit: 'µs', anchor: "zod's safeParse of the same input + direct call", anchorValue: zodDirect },
  ];
}
