// Many conversations on many processes: 4 processes × 250 conversations × 20 state-changing calls
// against one local redis-server (every process calls every conversation, so each conversation gets
// 80 calls from 4 processes, serialised by its Redis lock), next to the same load on the in-memory
// store in one process. Checks afterwards that no update was lost or reordered.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryStateStore, ToolRunner, createMemoryPlatform } from '../dist/src/index.js';
import { createRedisStateStore } from '../dist/node/index.js';
import { recordTool, runLoad } from './scale-load.mjs';

const PROCESSES = 4;
const CONVERSATIONS = 250;
const CALLS = 20;
/** The whole Redis run is abandoned after this long (it takes seconds on 2 cores). */
const BUDGET_MS = 180_000;
const here = dirname(fileURLToPath(import.meta.url));

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'toolhost-bench-redis-'));
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--logfile', ''], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    let log = '';
    child.once('error', (error) => reject(new Error(`cannot run redis-server (${error.message}); install it with apt-get install redis-server`)));
    child.stdout.on('data', (chunk) => {
      log += chunk;
      if (log.includes('Ready to accept connections')) resolve();
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Updates lost (count or log short of expected) or reordered (a client's tags out of order), over all conversations. */
async function audit(store, clients) {
  let lost = 0;
  let reordered = 0;
  for (let c = 0; c < CONVERSATIONS; c += 1) {
    const { count = 0, log = [] } = await store.getAll(`conversation ${c}`);
    lost += clients.length * CALLS - Math.min(count, log.length);
    for (const client of clients) {
      const mine = log.filter((tag) => tag.startsWith(`${client}:`)).map((tag) => Number(tag.split(':')[1]));
      if (mine.some((n, i) => n !== i)) reordered += 1;
    }
  }
  return { lost, reordered };
}

async function redisRun(url) {
  const prefix = `bench${Date.now()}:`;
  const children = Array.from({ length: PROCESSES }, (_, p) => {
    const child = spawn(process.execPath, [join(here, 'scale-load.mjs'), url, prefix, `p${p}`, String(CONVERSATIONS), String(CALLS)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const ready = new Promise((resolve) => child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.startsWith('ready\n')) resolve();
    }));
    const done = new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.split('\n')[1])) : reject(new Error(`load process ${p} exited with ${code}`)))));
    return { child, ready, done };
  });
  const budget = setTimeout(() => children.forEach(({ child }) => child.kill('SIGKILL')), BUDGET_MS);
  try {
    await Promise.all(children.map((c) => c.ready));
    const started = performance.now();
    for (const { child } of children) child.stdin.end('go\n');
    const outcomes = await Promise.all(children.map((c) => c.done));
    const seconds = (performance.now() - started) / 1000;
    const store = createRedisStateStore({ url, prefix });
    const { lost, reordered } = await audit(store, children.map((_, p) => `p${p}`));
    await store.close();
    return {
      seconds,
      latencies: outcomes.flatMap((o) => o.latencies).sort((a, b) => a - b),
      failures: outcomes.flatMap((o) => o.failures),
      lost,
      reordered,
    };
  } finally {
    clearTimeout(budget);
  }
}

async function memoryRun() {
  const state = new MemoryStateStore();
  const runner = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [recordTool] });
  const clients = Array.from({ length: PROCESSES }, (_, p) => `p${p}`);
  const started = performance.now();
  const { latencies, failures } = await runLoad(runner, { clients, conversations: CONVERSATIONS, calls: CALLS });
  const seconds = (performance.now() - started) / 1000;
  const { lost, reordered } = await audit(state, clients);
  return { seconds, latencies: latencies.sort((a, b) => a - b), failures, lost, reordered };
}

export default async function run() {
  const redis = await startRedis();
  let shared;
  try {
    shared = await redisRun(redis.url);
  } finally {
    await redis.stop();
  }
  const memory = await memoryRun();
  const total = PROCESSES * CONVERSATIONS * CALLS;
  const note = (r) => `${r.failures.length} failed calls${r.failures.length ? ` (first: ${r.failures[0].slice(0, 120)})` : ''}, ${r.lost} lost, ${r.reordered} reordered sequences`;
  return [
    {
      figure: `Redis store, ${PROCESSES} processes × ${CONVERSATIONS} conversations × ${CALLS} calls: calls/s`,
      value: total / shared.seconds,
      unit: 'calls/s',
      anchor: 'memory store, same load in 1 process',
      anchorValue: total / memory.seconds,
      note: `Redis: ${note(shared)}; memory: ${note(memory)}`,
    },
    { figure: 'Redis store: p50 latency per call', value: percentile(shared.latencies, 50), unit: 'ms', anchor: 'memory store p50', anchorValue: percentile(memory.latencies, 50) },
    { figure: 'Redis store: p99 latency per call', value: percentile(shared.latencies, 99), unit: 'ms', anchor: 'memory store p99', anchorValue: percentile(memory.latencies, 99) },
    {
      figure: 'Redis store: updates lost or reordered',
      value: shared.lost + shared.reordered + shared.failures.length,
      unit: 'updates',
      anchor: 'updates made',
      anchorValue: total,
      target: '0',
    },
  ];
}
