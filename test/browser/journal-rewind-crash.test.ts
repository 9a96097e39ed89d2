import { connect, createServer, type Server, type Socket } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newProfile, removeProfile, requireChromium, startServer, type TestServer } from './harness.js';

// A rewind in a worker's runner on an IndexedDB workspace, stopped by closing or killing the browser
// at chosen points: before each kind of IndexedDB write it makes (the worker stops its thread there,
// so that write's transaction never commits) and right after its answer. A new browser on the same
// profile then finds every file of the rewind either as before it or as after it, never a mix, and
// the journal says the same: a rewind turn listing every file exactly when the files are rewound.
// (The browser counterpart of node/journal-rewind-crash.test.ts.)

type Result = { id?: string; name: string; result?: unknown; error?: string; code?: string };
type Envelope = { ok: true; value: unknown } | { ok: false; code: string; message: string };
interface Changes {
  conversationId: string;
  turns: Array<{ turn: number; calls: Array<{ callId: string; tool: string; files: Array<{ path: string; before: string; after: string }> }> }>;
}
declare const th: {
  start(config: Record<string, unknown>): Promise<number>;
  call(calls: unknown[], options?: unknown): Promise<Result[]>;
  stored(workspace: string): Promise<Envelope>;
  changes(conversationId?: string): Promise<Envelope>;
  rewind(conversationId: string, options: { toTurn: number }): Promise<Envelope>;
  rewindInBackground(conversationId: string, options: { toTurn: number }): void;
  rewound(): Promise<Envelope> | undefined;
  crashPointReached(): Promise<{ at: number; what: string; log: string[] }>;
};

let server: TestServer;
/** Origins of the same pages besides the server's own (one per case that shares a browser), and a server that never answers. */
let forwarders: Forwarders;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  forwarders = await startForwarders(new URL(server.origin), ORIGINS);
});
afterAll(async () => {
  await forwarders?.close();
  await server?.close();
});

/** How many origins the cases use: each case that shares a browser with others has an origin (and so an IndexedDB) of its own. */
const ORIGINS = 7;

interface Forwarders {
  /** `http://127.0.0.1:<port>` of origin `i`: the test server's pages, through a port of its own. */
  origin(i: number): string;
  /** A URL whose server takes the request and never answers (where a stopped worker waits). */
  hold: string;
  close(): Promise<void>;
}

/** `count` TCP ports that each forward to `target` (so many origins serve the same pages), and a port that never answers. */
async function startForwarders(target: URL, count: number): Promise<Forwarders> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket): Socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket)).on('error', () => socket.destroy());
    return socket;
  };
  const forward = (client: Socket): void => {
    const upstream = track(connect(Number(target.port), target.hostname));
    track(client);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  const listen = (server: Server): Promise<number> =>
    new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  const servers = [...Array.from({ length: count }, () => createServer(forward)), createServer((socket) => void track(socket))];
  const ports = await Promise.all(servers.map(listen));
  return {
    origin: (i) => `http://127.0.0.1:${ports[i]}`,
    hold: `http://127.0.0.1:${ports[count]}/hold`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

const WORKSPACE = 'rewind-crash';
/**
 * Files the conversation changes: 16 of about 8 KB, one IndexedDB put each in the rewind's one
 * transaction (130 KB), so a stop half-way through it has eight files written before it and eight
 * after. (It was 120 files, then 40: the same writes over again, and the seeding, the views and the
 * rewinds of every case, in each of eight origins, as many times longer: about 1 CPU-s per origin and
 * browser at 40.)
 */
const FILES = 16;
const relative = (i: number): string => `d${i % 6}/f${i}.txt`;
/** The last file the rewind writes. */
const LAST = FILES - 1;
const absolute = (i: number): string => `/workspace/${relative(i)}`;
/** File i as turn 1 creates it (`created`) and turn 2 leaves it (`edited`): about 8 KB each. */
const content = (i: number, stage: 'created' | 'edited'): string => `${stage} ${i}\n${`line of file ${i} `.repeat(400)}\n`;

/** The IndexedDB writes of this rewind, in order (what the worker's crash_log shows for it). */
const WRITES = [
  'toolhost-journal:rewind-crash rewinds put',
  ...Array.from({ length: FILES }, () => 'toolhost-ws:rewind-crash files put'),
  'toolhost-journal:rewind-crash turns put',
  'toolhost-journal:rewind-crash rewinds delete',
];

/** A new page of `context` on origin `i`, its worker started on the workspace (stopping at crash points in a request that never answers). */
async function open(context: BrowserContext, i: number): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[page error]', error.message));
  await page.goto(`${forwarders.origin(i)}/test/pages/index.html`);
  await page.waitForFunction(() => document.title === 'toolhost test page ready');
  await page.evaluate((c) => th.start(c), { workspace: WORKSPACE, crashPoints: true, crashHold: forwarders.hold });
  return page;
}

function value<T>(envelope: Envelope): T {
  if (!envelope.ok) throw new Error(`${envelope.code}: ${envelope.message}`);
  return envelope.value as T;
}

/** Turn 1 creates the files, turn 2 edits every one; answers the journal as it stands then. */
async function seed(page: Page): Promise<Changes> {
  const creates = Array.from({ length: FILES }, (_, i) => ({ name: 'create_file', args: { file_path: relative(i), content: content(i, 'created') } }));
  const edits = Array.from({ length: FILES }, (_, i) => ({ name: 'edit_file', args: { file_path: relative(i), old_string: `created ${i}\n`, new_string: `edited ${i}\n` } }));
  for (const batch of [creates, edits]) {
    const results = await page.evaluate((calls) => th.call(calls), batch);
    expect(results.filter((result) => result.code !== undefined)).toEqual([]);
  }
  return value<Changes>(await page.evaluate(() => th.changes('default')));
}

/** Which state each file of the rewind is in, as stored in IndexedDB: 'before' (turn 2's), 'rewound' (turn 1's) or 'other'. */
async function storedStates(page: Page): Promise<Set<string>> {
  const stored = value<{ files: Record<string, string> }>(await page.evaluate((w) => th.stored(w), WORKSPACE));
  const states = new Set<string>();
  for (let i = 0; i < FILES; i += 1) {
    const found = stored.files[absolute(i)];
    states.add(found === content(i, 'edited') ? 'before' : found === content(i, 'created') ? 'rewound' : `other: ${absolute(i)} ${String(found).slice(0, 30)}`);
  }
  return states;
}

/** What the worker's live view (view_file) shows of every file, by its first line: the same classification. */
async function liveStates(page: Page): Promise<Set<string>> {
  const views = await page.evaluate((calls) => th.call(calls), Array.from({ length: FILES }, (_, i) => ({ name: 'view_file', args: { file_path: relative(i) } })));
  return new Set(
    views.map((view, i) => {
      const shown = (view.result as { content?: string } | undefined)?.content ?? '';
      return shown.startsWith(`edited ${i}\n`) ? 'before' : shown.startsWith(`created ${i}\n`) ? 'rewound' : `other: ${absolute(i)} ${shown.slice(0, 30)}`;
    }),
  );
}

/** A stop point of the rewind: before IndexedDB write `at` (0: right after its answer), and what the reopened browser does first. */
interface Point {
  at: number;
  firstCall?: (page: Page) => Promise<void>;
}
/** What the reopened browser found: in IndexedDB before the journal loaded, and after. */
type Found = { beforeLoad: string; afterLoad: string };

/**
 * The first half of a crash, on `page`: seeds the conversation, arms the worker to stop at IndexedDB
 * write `at` (0: never) and starts the rewind to turn 1; resolves once the worker stopped there (its
 * writes up to there are the rewind's first `at`) or once the rewind answered. Answers the journal as
 * seeded, and the writes the worker counted up to its stop (none for 0).
 */
async function runToStop(page: Page, at: number): Promise<{ seeded: Changes; log: string[] }> {
  const seeded = await seed(page);
  expect(seeded.turns.map((turn) => [turn.turn, turn.calls.length])).toEqual([[1, FILES], [2, FILES]]);
  await page.evaluate((n) => th.call([{ name: 'arm_crash_point', args: { at: n } }]), at);
  await page.evaluate(() => th.rewindInBackground('default', { toTurn: 1 }));
  if (at > 0) {
    const reached = await page.evaluate(() => th.crashPointReached());
    expect(reached).toEqual({ at, what: WRITES[at - 1], log: WRITES.slice(0, at) });
    return { seeded, log: reached.log };
  }
  const answer = value<{ restored: string[]; turn: number }>(await page.evaluate(() => th.rewound() as Promise<Envelope>));
  expect([answer.restored.length, answer.turn]).toEqual([FILES, 4]);
  return { seeded, log: [] };
}

/**
 * The second half, on a page of the reopened browser: the files and the journal are all as before the
 * rewind or all as after it, and the rewind can be made (or undone) from there.
 */
async function verify(page: Page, seeded: Changes, firstCall?: (page: Page) => Promise<void>): Promise<Found> {
  // As stored, before anything uses the journal: one transaction holds every file of the rewind.
  const beforeLoad = [...(await storedStates(page))];
  expect(beforeLoad).toHaveLength(1);
  await firstCall?.(page);
  // The journal loads on first use and finishes a rewind it finds under way.
  const changes = value<Changes>(await page.evaluate(() => th.changes('default')));
  const afterLoad = [...(await storedStates(page))];
  expect(afterLoad).toHaveLength(1);
  expect([...(await liveStates(page))]).toEqual(afterLoad);
  if (afterLoad[0] === 'rewound') {
    // The journal agrees: turns 1 and 2 as before, then the rewind (turn 4) of every file from turn 2's content to turn 1's.
    expect(changes.turns.slice(0, 2)).toEqual(seeded.turns);
    expect(changes.turns.map((turn) => [turn.turn, [...new Set(turn.calls.map((call) => call.tool))]])).toEqual([[1, ['create_file']], [2, ['edit_file']], [4, ['rewind']]]);
    expect(changes.turns[2]!.calls).toHaveLength(1);
    const files = changes.turns[2]!.calls[0]!.files;
    const turn2 = new Map(seeded.turns[1]!.calls.flatMap((call) => call.files.map((file) => [file.path, file] as const)));
    expect(files.map((file) => file.path).sort()).toEqual([...turn2.keys()].sort());
    for (const file of files) expect([file.before, file.after]).toEqual([turn2.get(file.path)!.after, turn2.get(file.path)!.before]);
    // And it can undo the rewind.
    expect(value<{ restored: string[] }>(await page.evaluate(() => th.rewind('default', { toTurn: 2 }))).restored).toHaveLength(FILES);
    expect([...(await storedStates(page))]).toEqual(['before']);
  } else {
    // Nothing of the rewind: the journal lists turns 1 and 2 as before, and the rewind can be made again.
    expect(afterLoad).toEqual(['before']);
    expect(changes.turns).toEqual(seeded.turns);
    expect(value<{ restored: string[] }>(await page.evaluate(() => th.rewind('default', { toTurn: 1 }))).restored).toHaveLength(FILES);
    expect([...(await storedStates(page))]).toEqual(['rewound']);
  }
  return { beforeLoad: beforeLoad[0] as string, afterLoad: afterLoad[0] as string };
}

/**
 * Crashes at every point of `points` in one browser, each on an origin of its own (`origins[k]`, so an
 * IndexedDB of its own): runs each to its stop (those stopped at a write side by side, their workers
 * blocked; a point right after the answer last, so the browser ends right after that answer), ends the
 * browser (`kill`: SIGKILL; `close`: the normal way), opens a new browser on the profile and verifies
 * each point on its origin. Answers each point's outcome (what it found, or why it failed) and the
 * writes its worker counted up to its stop.
 */
async function crashTogether(end: 'kill' | 'close', points: Point[], origins: number[]): Promise<{ points: Array<PromiseSettledResult<Found>>; logs: Array<string[] | undefined> }> {
  const afterAnswer = points.filter((point) => point.at === 0);
  if (afterAnswer.length > 1 || (afterAnswer.length === 1 && points.at(-1)!.at !== 0)) throw new TypeError('crashTogether: one point right after the answer at most, and last');
  const profile = newProfile();
  try {
    let session = await launch(profile);
    const context = session.context;
    // The points stopped at a write side by side; then the one right after the answer, if any.
    const atWrites = points.filter((point) => point.at > 0);
    const stopped = await Promise.allSettled(atWrites.map(async (point, k) => runToStop(await open(context, origins[k]!), point.at)));
    if (afterAnswer.length === 1) stopped.push(...(await Promise.allSettled([open(context, origins[atWrites.length]!).then((page) => runToStop(page, 0))])));
    await (end === 'kill' ? session.kill() : session.close());

    session = await launch(profile);
    try {
      const found = await Promise.allSettled(
        points.map(async (point, k) => {
          const run = stopped[k]!;
          if (run.status === 'rejected') throw run.reason;
          return verify(await open(session.context, origins[k]!), run.value.seeded, point.firstCall);
        }),
      );
      return { points: found, logs: stopped.map((run) => (run.status === 'fulfilled' ? run.value.log : undefined)) };
    } finally {
      await session.close();
    }
  } finally {
    removeProfile(profile);
  }
}

/** The outcome of a settled result: its value, or its error thrown. */
function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/** Runs `run` once, on first use. */
function once<T>(run: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => (started ??= run());
}

describe('a rewind in a worker on IndexedDB, the browser closed or killed while it runs', () => {
  // Stopped before: the record under way is written (so nothing of the rewind is); the first and the
  // middle file is written (the record is stored, no file is: the files go in one transaction, which a
  // stop half-way through leaves whole or undone); its turn is stored (every file is); its record is
  // removed; and right after its answer. The points ended the same way share a browser (each on an
  // origin of its own), so a kill or a close ends several rewinds at their points at once.
  let first: Result[] = [];
  const firstCall = async (page: Page): Promise<void> => {
    // Before anything used the journal: the model reads a file of the rewind (the last it writes) and edits what it read.
    const calls = [
      { name: 'view_file', args: { file_path: relative(LAST), end_line: 1 } },
      { name: 'edit_file', args: { file_path: relative(LAST), old_string: `edited ${LAST}\n`, new_string: `mine ${LAST}\n` } },
    ];
    first = await page.evaluate((c) => th.call(c), calls);
  };
  const killed: Array<Point & { found: Found }> = [
    { at: 2, firstCall, found: { beforeLoad: 'before', afterLoad: 'rewound' } },
    { at: 1, found: { beforeLoad: 'before', afterLoad: 'before' } },
    { at: 2 + FILES / 2, found: { beforeLoad: 'before', afterLoad: 'rewound' } },
    { at: 2 + FILES, found: { beforeLoad: 'rewound', afterLoad: 'rewound' } },
    { at: 0, found: { beforeLoad: 'rewound', afterLoad: 'rewound' } },
  ];
  const closed: Array<Point & { found: Found }> = [
    { at: 2, found: { beforeLoad: 'before', afterLoad: 'rewound' } },
    { at: 3 + FILES, found: { beforeLoad: 'rewound', afterLoad: 'rewound' } },
  ];
  const kills = once(() => crashTogether('kill', killed, [0, 1, 2, 3, 4]));
  const closes = once(() => crashTogether('close', closed, [5, 6]));
  // Both browsers run side by side (each its own profile and processes); each case waits for its own.
  beforeAll(() => {
    void kills().catch(() => undefined);
    void closes().catch(() => undefined);
  });

  it('counts the IndexedDB writes of the rewind: its record under way, every file in one transaction, its turn, the record removed', async () => {
    // The worker stopped before the rewind's last write counted every write of the rewind up to it (each
    // stopped worker's count is the start of this one: runToStop checks it).
    const { logs } = await closes();
    expect(closed.at(-1)!.at).toBe(WRITES.length);
    expect(logs.at(-1)).toEqual(WRITES);
  }, 180_000);

  it('killed with the record under way stored and no file written, then a tool call first: the call waits for the journal to finish the rewind, so no file is left behind', async () => {
    const found = settled((await kills()).points[0]!);
    // Every file is rewound (verify checked the rewind turn lists all of them), the view read the rewound file, and what the edit looked for was gone.
    expect(found).toEqual({ beforeLoad: 'before', afterLoad: 'rewound' });
    expect((first[0]?.result as { content?: string } | undefined)?.content).toBe(`created ${LAST}`);
    expect(first[1]?.code).toBe('no_match');
  }, 180_000);

  const cases = [
    ...killed.slice(1).map((point, k) => ({ ...point, end: 'kill' as const, result: async () => (await kills()).points[k + 1]! })),
    ...closed.map((point, k) => ({ ...point, end: 'close' as const, result: async () => (await closes()).points[k]! })),
  ].sort((a, b) => (a.at === 0 ? 1 : b.at === 0 ? -1 : a.at - b.at));
  for (const { at, end, found, result } of cases) {
    const where = at === 0 ? 'right after its answer' : `before write ${at} of ${WRITES.length} (${WRITES[at - 1]?.replace(/^\S+ /, '')})`;
    it(`${end === 'kill' ? 'killed' : 'closed'} ${where}: every file is ${found.afterLoad === 'rewound' ? 'rewound' : 'as before the rewind'} once the journal loads, and the journal says so`, async () => {
      expect(settled(await result())).toEqual(found);
    }, 180_000);
  }
});
