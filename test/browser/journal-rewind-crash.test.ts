import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newProfile, removeProfile, requireChromium, startServer, type BrowserSession, type TestServer } from './harness.js';

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
  crashPointReached(): Promise<{ at: number; what: string }>;
};

let server: TestServer;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const WORKSPACE = 'rewind-crash';
/**
 * Files the conversation changes: 40 of about 8 KB, one IndexedDB put each in the rewind's one
 * transaction (330 KB), so a stop half-way through it has twenty files written before it and twenty
 * after. (It was 120 files, 1 MB: the same writes three times over, and the seeding, the views and the
 * rewinds of every case three times as long.)
 */
const FILES = 40;
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

async function open(profile: string): Promise<BrowserSession> {
  const session = await launch(profile, server.page('index.html'));
  await session.page.waitForFunction(() => document.title === 'toolhost test page ready');
  await session.page.evaluate((c) => th.start(c), { workspace: WORKSPACE, crashPoints: true });
  return session;
}

function value<T>(envelope: Envelope): T {
  if (!envelope.ok) throw new Error(`${envelope.code}: ${envelope.message}`);
  return envelope.value as T;
}

/** Turn 1 creates the files, turn 2 edits every one; answers the journal as it stands then. */
async function seed(session: BrowserSession): Promise<Changes> {
  const { page } = session;
  const creates = Array.from({ length: FILES }, (_, i) => ({ name: 'create_file', args: { file_path: relative(i), content: content(i, 'created') } }));
  const edits = Array.from({ length: FILES }, (_, i) => ({ name: 'edit_file', args: { file_path: relative(i), old_string: `created ${i}\n`, new_string: `edited ${i}\n` } }));
  for (const batch of [creates, edits]) {
    const results = await page.evaluate((calls) => th.call(calls), batch);
    expect(results.filter((result) => result.code !== undefined)).toEqual([]);
  }
  return value<Changes>(await page.evaluate(() => th.changes('default')));
}

/** Which state each file of the rewind is in, as stored in IndexedDB: 'before' (turn 2's), 'rewound' (turn 1's) or 'other'. */
async function storedStates(session: BrowserSession): Promise<Set<string>> {
  const stored = value<{ files: Record<string, string> }>(await session.page.evaluate((w) => th.stored(w), WORKSPACE));
  const states = new Set<string>();
  for (let i = 0; i < FILES; i += 1) {
    const found = stored.files[absolute(i)];
    states.add(found === content(i, 'edited') ? 'before' : found === content(i, 'created') ? 'rewound' : `other: ${absolute(i)} ${String(found).slice(0, 30)}`);
  }
  return states;
}

/** What the worker's live view (view_file) shows of every file, by its first line: the same classification. */
async function liveStates(session: BrowserSession): Promise<Set<string>> {
  const views = await session.page.evaluate((calls) => th.call(calls), Array.from({ length: FILES }, (_, i) => ({ name: 'view_file', args: { file_path: relative(i) } })));
  return new Set(
    views.map((view, i) => {
      const shown = (view.result as { content?: string } | undefined)?.content ?? '';
      return shown.startsWith(`edited ${i}\n`) ? 'before' : shown.startsWith(`created ${i}\n`) ? 'rewound' : `other: ${absolute(i)} ${shown.slice(0, 30)}`;
    }),
  );
}

/**
 * One crash: seeds the conversation, arms the worker to stop at IndexedDB write `at` (0: never),
 * starts the rewind to turn 1, ends the browser once the worker stops there (or once the rewind
 * answered), opens a new browser on the profile and checks the files and the journal. Answers what
 * the reopened browser found: in IndexedDB before the journal loaded, and after.
 */
async function crashAt(at: number, end: 'kill' | 'close', firstCall?: (session: BrowserSession) => Promise<void>): Promise<{ beforeLoad: string; afterLoad: string }> {
  const profile = newProfile();
  try {
    let session = await open(profile);
    const seeded = await seed(session);
    expect(seeded.turns.map((turn) => [turn.turn, turn.calls.length])).toEqual([[1, FILES], [2, FILES]]);
    await session.page.evaluate((n) => th.call([{ name: 'arm_crash_point', args: { at: n } }]), at);
    await session.page.evaluate(() => th.rewindInBackground('default', { toTurn: 1 }));
    if (at > 0) {
      const reached = await session.page.evaluate(() => th.crashPointReached());
      expect(reached).toEqual({ at, what: WRITES[at - 1] });
    } else {
      const answer = value<{ restored: string[]; turn: number }>(await session.page.evaluate(() => th.rewound() as Promise<Envelope>));
      expect([answer.restored.length, answer.turn]).toEqual([FILES, 4]);
    }
    await (end === 'kill' ? session.kill() : session.close());

    session = await open(profile);
    try {
      // As stored, before anything uses the journal: one transaction holds every file of the rewind.
      const beforeLoad = [...(await storedStates(session))];
      expect(beforeLoad).toHaveLength(1);
      await firstCall?.(session);
      // The journal loads on first use and finishes a rewind it finds under way.
      const changes = value<Changes>(await session.page.evaluate(() => th.changes('default')));
      const afterLoad = [...(await storedStates(session))];
      expect(afterLoad).toHaveLength(1);
      expect([...(await liveStates(session))]).toEqual(afterLoad);
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
        expect(value<{ restored: string[] }>(await session.page.evaluate(() => th.rewind('default', { toTurn: 2 }))).restored).toHaveLength(FILES);
        expect([...(await storedStates(session))]).toEqual(['before']);
      } else {
        // Nothing of the rewind: the journal lists turns 1 and 2 as before, and the rewind can be made again.
        expect(afterLoad).toEqual(['before']);
        expect(changes.turns).toEqual(seeded.turns);
        expect(value<{ restored: string[] }>(await session.page.evaluate(() => th.rewind('default', { toTurn: 1 }))).restored).toHaveLength(FILES);
        expect([...(await storedStates(session))]).toEqual(['rewound']);
      }
      return { beforeLoad: beforeLoad[0] as string, afterLoad: afterLoad[0] as string };
    } finally {
      await session.close();
    }
  } finally {
    removeProfile(profile);
  }
}

describe('a rewind in a worker on IndexedDB, the browser closed or killed while it runs', () => {
  it('counts the IndexedDB writes of the rewind: its record under way, every file in one transaction, its turn, the record removed', async () => {
    const profile = newProfile();
    const session = await open(profile);
    try {
      await seed(session);
      await session.page.evaluate(() => th.call([{ name: 'arm_crash_point', args: { at: 0 } }]));
      const answer = value<{ restored: string[]; turn: number }>(await session.page.evaluate(() => th.rewind('default', { toTurn: 1 })));
      expect([answer.restored.length, answer.turn]).toEqual([FILES, 4]);
      // The record under way is removed after the answer: wait for that write.
      let writes: string[] = [];
      for (const deadline = Date.now() + 20_000; writes.length < WRITES.length && Date.now() < deadline; ) {
        const [log] = await session.page.evaluate(() => th.call([{ name: 'crash_log', args: {} }]));
        writes = (log!.result as { writes: string[] }).writes;
      }
      expect(writes).toEqual(WRITES);
    } finally {
      await session.close();
      removeProfile(profile);
    }
  }, 180_000);

  // Stopped before: the record under way is written (so nothing of the rewind is); the first and the
  // middle file is written (the record is stored, no file is: the files go in one transaction, which a
  // stop half-way through leaves whole or undone); its turn is stored (every file is); its record is
  // removed; and right after its answer.
  const points: Array<{ at: number; end: 'kill' | 'close'; found: { beforeLoad: string; afterLoad: string } }> = [
    { at: 1, end: 'kill', found: { beforeLoad: 'before', afterLoad: 'before' } },
    { at: 2, end: 'close', found: { beforeLoad: 'before', afterLoad: 'rewound' } },
    { at: 2 + FILES / 2, end: 'kill', found: { beforeLoad: 'before', afterLoad: 'rewound' } },
    { at: 2 + FILES, end: 'kill', found: { beforeLoad: 'rewound', afterLoad: 'rewound' } },
    { at: 3 + FILES, end: 'close', found: { beforeLoad: 'rewound', afterLoad: 'rewound' } },
    { at: 0, end: 'kill', found: { beforeLoad: 'rewound', afterLoad: 'rewound' } },
  ];
  it('killed with the record under way stored and no file written, then a tool call first: the call waits for the journal to finish the rewind, so no file is left behind', async () => {
    let first: Result[] = [];
    const found = await crashAt(2, 'kill', async (session) => {
      // Before anything used the journal: the model reads a file of the rewind (the last it writes) and edits what it read.
      const calls = [
        { name: 'view_file', args: { file_path: relative(LAST), end_line: 1 } },
        { name: 'edit_file', args: { file_path: relative(LAST), old_string: `edited ${LAST}\n`, new_string: `mine ${LAST}\n` } },
      ];
      first = await session.page.evaluate((c) => th.call(c), calls);
    });
    // Every file is rewound (crashAt checked the rewind turn lists all of them), the view read the rewound file, and what the edit looked for was gone.
    expect(found).toEqual({ beforeLoad: 'before', afterLoad: 'rewound' });
    expect((first[0]?.result as { content?: string } | undefined)?.content).toBe(`created ${LAST}`);
    expect(first[1]?.code).toBe('no_match');
  }, 180_000);

  for (const { at, end, found } of points) {
    const where = at === 0 ? 'right after its answer' : `before write ${at} of ${WRITES.length} (${WRITES[at - 1]?.replace(/^\S+ /, '')})`;
    it(`${end === 'kill' ? 'killed' : 'closed'} ${where}: every file is ${found.afterLoad === 'rewound' ? 'rewound' : 'as before the rewind'} once the journal loads, and the journal says so`, async () => {
      expect(await crashAt(at, end)).toEqual(found);
    }, 180_000);
  }
});
