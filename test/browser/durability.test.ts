import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newProfile, removeProfile, requireChromium, startServer, type BrowserSession, type TestServer } from './harness.js';

type Result = { id?: string; name: string; result?: any; error?: string; code?: string };
declare const th: {
  start(config: Record<string, unknown>): Promise<number>;
  call(calls: unknown[], options?: unknown): Promise<Result[]>;
  stored(workspace: string): Promise<{ ok: boolean; value?: any; code?: string; message?: string }>;
};

let server: TestServer;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

/** `perCall`: the platform's batch is hidden, so the runner commits each call; otherwise it commits each batch once. */
async function openWorkspace(profile: string, perCall = false): Promise<BrowserSession> {
  const session = await launch(profile, server.page('index.html'));
  await session.page.waitForFunction(() => document.title === 'toolhost test page ready');
  await session.page.evaluate((c) => th.start(c), { workspace: 'durable', perCall });
  return session;
}

/** Rounds of each workspace (each in a browser profile of its own); the workspaces run side by side. */
const ROUNDS = 5;
const WORKSPACES = 2;

/**
 * `ROUNDS` rounds on a fresh profile: each opens the browser, checks that every file and state value
 * acknowledged before is stored, runs a batch (creates, an overwrite, state, a move and a removal of
 * earlier rounds' folders) and ends the browser as soon as its results reached the page, killed and
 * closed in turn; rounds 2 and 3 commit per call, the others per batch. A last browser checks the
 * end state, as stored and as the worker sees it.
 */
async function crashRounds(): Promise<void> {
  const profile = newProfile();
  const files: Record<string, string> = {};
  const state: Record<string, unknown> = {};
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const session = await openWorkspace(profile, round % 4 >= 2);
      const stored = await session.page.evaluate(() => th.stored('durable'));
      if (round > 0) {
        expect(stored.value.files).toEqual(files);
        expect(stored.value.state.default).toEqual(state);
      }
      const calls: unknown[] = [];
      for (let j = 0; j < 12; j += 1) {
        const path = `round ${round}/dir/f${j}.txt`;
        const content = `round ${round} file ${j}\n`.repeat(50 + j);
        calls.push({ name: 'create_file', args: { file_path: path, content } });
      }
      calls.push({ name: 'create_file', args: { file_path: 'log.txt', content: `last round ${round}\n`, overwrite: true } });
      calls.push({ name: 'remember', args: { key: `round${round}`, value: { round, at: [round, 'x'] } } });
      calls.push({ name: 'remember', args: { key: 'last', value: round } });
      if (round > 0) calls.push({ name: 'move', args: { from: `round ${round - 1}/dir`, to: `round ${round - 1}/moved` } });
      if (round > 1) calls.push({ name: 'remove', args: { path: `round ${round - 2}` } });
      const results = await session.page.evaluate((c) => th.call(c), calls);
      // The results have reached the page: end the browser now, alternately killed and closed.
      if (round % 2 === 0) await session.kill();
      else await session.close();
      expect(results.map((r) => r.code ?? 'ok')).toEqual(calls.map(() => 'ok'));
      for (let j = 0; j < 12; j += 1) files[`/workspace/round ${round}/dir/f${j}.txt`] = `round ${round} file ${j}\n`.repeat(50 + j);
      files['/workspace/log.txt'] = `last round ${round}\n`;
      state[`round${round}`] = { round, at: [round, 'x'] };
      state.last = round;
      if (round > 0) {
        for (const path of Object.keys(files)) {
          const from = `/workspace/round ${round - 1}/dir/`;
          if (path.startsWith(from)) {
            files[`/workspace/round ${round - 1}/moved/${path.slice(from.length)}`] = files[path] as string;
            delete files[path];
          }
        }
      }
      if (round > 1) for (const path of Object.keys(files)) if (path.startsWith(`/workspace/round ${round - 2}/`)) delete files[path];
    }
    const last = ROUNDS - 1;
    const session = await openWorkspace(profile);
    const stored = await session.page.evaluate(() => th.stored('durable'));
    expect(stored.value.files).toEqual(files);
    expect(stored.value.state.default).toEqual(state);
    // The worker's live view (loaded from IndexedDB at mount) agrees.
    const views = await session.page.evaluate(
      ([paths, key]) => th.call([...paths.map((p) => ({ name: 'view_file', args: { file_path: p } })), { name: 'recall', args: { keys: ['last', key] } }]),
      [Object.keys(files), `round${last}`] as const,
    );
    expect(views.slice(0, -1).map((v) => `${v.result.content}\n`)).toEqual(Object.values(files));
    expect(views.at(-1)?.result).toEqual({ last, [`round${last}`]: { round: last, at: [last, 'x'] } });
    expect(stored.value.directories).toContain(`/workspace/round ${last}/dir`);
    expect(stored.value.directories).toContain(`/workspace/round ${last - 1}/moved`);
    expect(stored.value.directories).not.toContain(`/workspace/round ${last - 2}`);
    await session.close();
  } finally {
    removeProfile(profile);
  }
}

describe('web platform durability', () => {
  // Ten browser ends in all: two workspaces (two profiles, so two browsers at once) of five rounds each.
  it(`keeps every acknowledged file and state value when the browser closes or is killed right after a batch, ${ROUNDS * WORKSPACES} times (commits per call and per batch)`, async () => {
    await Promise.all(Array.from({ length: WORKSPACES }, () => crashRounds()));
  }, 240_000);
});
