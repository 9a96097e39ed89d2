// One load-generating process of bench/scale.bench.mjs: `conversations` conversations at once, each
// getting `calls` state-changing calls one after another, on a runner whose state is in memory or in
// Redis. Prints its per-call latencies (ms) as JSON when done. Also importable (runLoad) to run the
// same load inside the bench process itself.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRunner, createMemoryPlatform, defineTool } from '../dist/src/index.js';

/** The tool under load: count += 1 and the call's tag appended to log, read-modify-write of the conversation's state. */
export const recordTool = defineTool({
  name: 'record',
  description: 'counts the call and logs its tag',
  parameters: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
  callWithContext: async ({ tag }, ctx) => {
    const count = (ctx.getState('count') ?? 0) + 1;
    ctx.setState('count', count);
    ctx.setState('log', [...(ctx.getState('log') ?? []), tag]);
    return count;
  },
});

/**
 * Runs `clients` × `conversations` sequences of `calls` calls (client k's tags are `k:0` … `k:<calls-1>`)
 * against `runner`, all sequences at once. Resolves with the latencies in ms and the failures.
 */
export async function runLoad(runner, { clients, conversations, calls }) {
  const latencies = [];
  const failures = [];
  const sequence = async (client, conversation) => {
    for (let i = 0; i < calls; i += 1) {
      const started = performance.now();
      const [result] = await runner.processToolCalls([{ name: 'record', args: { tag: `${client}:${i}` } }], { conversationId: `conversation ${conversation}` });
      latencies.push(performance.now() - started);
      if ('code' in result) failures.push(`${result.code}: ${result.error}`);
    }
  };
  const all = [];
  for (const client of clients) for (let c = 0; c < conversations; c += 1) all.push(sequence(client, c));
  await Promise.all(all);
  return { latencies, failures };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [url, prefix, client, conversations, calls] = process.argv.slice(2);
  const { createRedisStateStore } = await import('../dist/node/index.js');
  const state = createRedisStateStore({ url, prefix, timeoutMs: 60_000 });
  const runner = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [recordTool] });
  await state.getAll('warm-up');
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const outcome = await runLoad(runner, { clients: [client], conversations: Number(conversations), calls: Number(calls) });
  process.stdout.write(JSON.stringify(outcome) + '\n');
  await state.close();
}
