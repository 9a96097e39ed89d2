import type { Page } from 'playwright-core';
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

/**
 * Workspace `w` started in the worker of a page of `session`'s browser (workspace 0 in its first page,
 * the others in new ones). `perCall`: the platform's batch is hidden, so the runner commits each call;
 * otherwise it commits each batch once.
 */
async function openWorkspace(session: BrowserSession, w: number, perCall = false): Promise<Page> {
  const page = w === 0 ? session.page : await session.context.newPage();
  await page.goto(server.page('index.html'));
  await page.waitForFunction(() => document.title === 'toolhost test page ready');
  await page.evaluate((c) => th.start(c), { workspace: workspaceName(w), perCall });
  return page;
}

/** Rounds, each in a browser of its own on one profile. */
const ROUNDS = 5;
/** Workspaces in each browser, each in a page of its own (their batches run side by side). */
const WORKSPACES = 2;
const workspaceName = (w: number): string => `durable-${w}`;

/** Round `round`'s batch: creates, an overwrite, state, a move and a removal of earlier rounds' folders. */
function batch(round: number): unknown[] {
  const calls: unknown[] = [];
  for (let j = 0; j < 12; j += 1) {
    calls.push({ name: 'create_file', args: { file_path: `round ${round}/dir/f${j}.txt`, content: `round ${round} file ${j}\n`.repeat(50 + j) } });
  }
  calls.push({ name: 'create_file', args: { file_path: 'log.txt', content: `last round ${round}\n`, overwrite: true } });
  calls.push({ name: 'remember', args: { key: `round${round}`, value: { round, at: [round, 'x'] } } });
  calls.push({ name: 'remember', args: { key: 'last', value: round } });
  if (round > 0) calls.push({ name: 'move', args: { from: `round ${round - 1}/dir`, to: `round ${round - 1}/moved` } });
  if (round > 1) calls.push({ name: 'remove', args: { path: `round ${round - 2}` } });
  return calls;
}

/** What a workspace holds once round `round`'s batch is acknowledged (`files` and `state` as after the round before). */
function acknowledge(round: number, files: Record<string, string>, state: Record<string, unknown>): void {
  for (let j = 0; j < 12; j += 1) files[`/workspace/round ${round}/dir/f${j}.txt`] = `round ${round} file ${j}\n`.repeat(50 + j);
  files['/workspace/log.txt'] = `last round ${round}\n`;
  state[`round${round}`] = { round, at: [round, 'x'] };
  state.last = round;
  if (round > 0) {
    const from = `/workspace/round ${round - 1}/dir/`;
    for (const path of Object.keys(files)) {
      if (!path.startsWith(from)) continue;
      files[`/workspace/round ${round - 1}/moved/${path.slice(from.length)}`] = files[path] as string;
      delete files[path];
    }
  }
  if (round > 1) for (const path of Object.keys(files)) if (path.startsWith(`/workspace/round ${round - 2}/`)) delete files[path];
}

/**
 * `ROUNDS` rounds on a fresh profile, `WORKSPACES` workspaces in each: each round opens the browser,
 * checks in every workspace that every file and state value acknowledged before is stored, runs a batch
 * in each (side by side) and ends the browser as soon as their results reached the pages, killed and
 * closed in turn; rounds 2 and 3 commit per call, the others per batch. A last browser checks the end
 * state of every workspace, as stored and as the worker sees it. (The workspaces share a browser: a
 * Chromium launch costs about 2.5 CPU-s on two cores, and one browser end stops every workspace's round.)
 */
async function crashRounds(): Promise<void> {
  const profile = newProfile();
  const files: Record<string, string> = {};
  const state: Record<string, unknown> = {};
  const workspaces = Array.from({ length: WORKSPACES }, (_, w) => w);
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const session = await launch(profile);
      const calls = batch(round);
      const results = await Promise.all(
        workspaces.map(async (w) => {
          const page = await openWorkspace(session, w, round % 4 >= 2);
          const stored = await page.evaluate((name) => th.stored(name), workspaceName(w));
          if (round > 0) {
            expect(stored.value.files).toEqual(files);
            expect(stored.value.state.default).toEqual(state);
          }
          return page.evaluate((c) => th.call(c), calls);
        }),
      );
      // Every workspace's results have reached its page: end the browser now, alternately killed and closed.
      if (round % 2 === 0) await session.kill();
      else await session.close();
      for (const result of results) expect(result.map((r) => r.code ?? 'ok')).toEqual(calls.map(() => 'ok'));
      acknowledge(round, files, state);
    }
    const last = ROUNDS - 1;
    const session = await launch(profile);
    for (const w of workspaces) {
      const page = await openWorkspace(session, w);
      const stored = await page.evaluate((name) => th.stored(name), workspaceName(w));
      expect(stored.value.files).toEqual(files);
      expect(stored.value.state.default).toEqual(state);
      // The worker's live view (loaded from IndexedDB at mount) agrees.
      const views = await page.evaluate(
        ([paths, key]) => th.call([...paths.map((p) => ({ name: 'view_file', args: { file_path: p } })), { name: 'recall', args: { keys: ['last', key] } }]),
        [Object.keys(files), `round${last}`] as const,
      );
      expect(views.slice(0, -1).map((v) => `${v.result.content}\n`)).toEqual(Object.values(files));
      expect(views.at(-1)?.result).toEqual({ last, [`round${last}`]: { round: last, at: [last, 'x'] } });
      expect(stored.value.directories).toContain(`/workspace/round ${last}/dir`);
      expect(stored.value.directories).toContain(`/workspace/round ${last - 1}/moved`);
      expect(stored.value.directories).not.toContain(`/workspace/round ${last - 2}`);
    }
    await session.close();
  } finally {
    removeProfile(profile);
  }
}

describe('web platform durability', () => {
  // Ten workspace rounds ended in all: five browser ends, each right after a batch in each of two workspaces.
  it(`keeps every acknowledged file and state value when the browser closes or is killed right after a batch, ${ROUNDS} times in each of ${WORKSPACES} workspaces at once (commits per call and per batch)`, async () => {
    await crashRounds();
  }, 240_000);
});
