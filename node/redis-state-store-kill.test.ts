import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { defineTool } from '../src/core/tool.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import type { JsonValue } from '../src/core/types.js';
import { startRedisServer, type TestRedisServer } from '../test/support/redis-server.js';
import { createRedisStateStore, type RedisStateStore } from './redis-state-store.js';

/** Rounds of kill -9 and restart; writers committing beside them. */
const ROUNDS = 12;
const WRITERS = 6;
/** Each call's deadline: generous, so interrupted commits are resolved after the restart even on a busy machine. */
const CALL_MS = 15_000;
/**
 * Every third round Redis stays down this long, past the deadline of the calls of that round
 * ({@link OUTAGE_CALL_MS}): every call in flight at the kill started before it, so its deadline passes
 * while Redis is down, with a second to spare for a busy machine's late timers.
 */
const OUTAGE_MS = 1_500;
const OUTAGE_CALL_MS = 500;
const LOCK_TTL_MS = 500;

let server: TestRedisServer;
let state: RedisStateStore;

beforeAll(async () => {
  // appendonly yes + appendfsync always: a commit Redis answered is on disk, and survives kill -9.
  server = await startRedisServer({ durable: true });
  // A short lease: a lock left by a call the kill cut off holds its conversation until the lease ends,
  // which most rounds wait for once (the leases of live calls are renewed every third of it).
  state = createRedisStateStore({ url: server.url, prefix: 'kill:', lockTtlMs: LOCK_TTL_MS });
});

afterAll(async () => {
  await state?.close();
  await server?.stop();
});

const put = defineTool({
  name: 'put',
  description: 'sets keys',
  parameters: { type: 'object', properties: { set: { type: 'object' } } },
  callWithContext: async (args, ctx) => {
    for (const [key, value] of Object.entries(args.set ?? {})) ctx.setState(key, value as JsonValue);
    return 'stored';
  },
});

type Answer = { name: string; result: unknown } | { name: string; error: string; code: string };

/** One call and its answer: it set `key` (new for each call) in `conversation`. */
interface CallRecord {
  conversation: string;
  key: string;
  answer: Answer;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `test()` holds, checking every few ms (a wait for behaviour, bounded by the test's timeout). */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await sleep(2);
}

describe('createRedisStateStore: redis-server killed (kill -9) at random points of a stream of commits', () => {
  it(`${ROUNDS} rounds: every success is stored, no "nothing was changed" for a stored commit, the rest labelled unknown`, async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [put] });
    const records: CallRecord[] = [];
    let next = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let stop = false;
      // Every third round the calls in flight cannot learn their commit's outcome before their deadline.
      const outage = round % 3 === 2;
      const callMs = outage ? OUTAGE_CALL_MS : CALL_MS;
      const writer = async (w: number): Promise<void> => {
        while (!stop) {
          const key = `k${++next}`;
          const conversation = `writer ${w}`;
          const [answer] = await runner.processToolCalls([{ name: 'put', args: { set: { [key]: round } } }], { conversationId: conversation, timeoutMs: callMs });
          records.push({ conversation, key, answer: answer as Answer });
          // A host pauses before the next call after a failure (the spin of an immediate retry has its own test, in redis-state-store.test.ts).
          if (!('result' in (answer as Answer))) await sleep(1);
        }
      };
      const writing = Array.from({ length: WRITERS }, (_, w) => writer(w));
      // Kill at a random moment once the stream is flowing: some calls of this round answered.
      const flowing = records.length + WRITERS + Math.floor(Math.random() * 3 * WRITERS);
      await until(() => records.length >= flowing);
      await sleep(Math.random() * 5);
      await server.kill9();
      await sleep(outage ? OUTAGE_MS : Math.random() * 30);
      await server.restart();
      // Run on until every writer had a call answered after the restart.
      const restarted = records.length;
      await until(() => new Set(records.slice(restarted).map((r) => r.conversation)).size === WRITERS);
      stop = true;
      await Promise.all(writing);
    }

    const stored = new Map<string, Record<string, JsonValue>>();
    for (let w = 0; w < WRITERS; w++) stored.set(`writer ${w}`, await state.getAll(`writer ${w}`));
    const tally = { stored: 0, notStored: 0, unknown: 0 };
    const wrong: string[] = [];
    for (const { conversation, key, answer } of records) {
      const present = Object.hasOwn(stored.get(conversation)!, key);
      if ('result' in answer) {
        tally.stored += 1;
        if (!present || answer.result !== 'stored') wrong.push(`${key}: answered success, not stored`);
      } else if (answer.error.includes('the outcome is unknown')) {
        tally.unknown += 1;
        if (answer.code !== 'unavailable') wrong.push(`${key}: unknown outcome with code ${answer.code}`);
      } else {
        tally.notStored += 1;
        if (present) wrong.push(`${key}: answered "${answer.code}: ${answer.error}", but it is stored`);
      }
    }
    expect(wrong, JSON.stringify(tally)).toEqual([]);
    expect(tally.stored + tally.notStored + tally.unknown).toBe(records.length);
    // Nothing stored that no call set.
    const keys = [...stored.values()].flatMap((s) => Object.keys(s));
    const made = new Set(records.map((r) => r.key));
    expect(keys.filter((k) => !made.has(k))).toEqual([]);
    expect(tally.stored).toBeGreaterThan(ROUNDS * WRITERS);
  }, 240_000);
});
