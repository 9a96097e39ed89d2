// The Changes tab's timeline: the current conversation's turns from the runner's change journal (each
// turn's calls, each call's files with its own diff), "Rewind to here" per turn, and, with "Review
// changes" on, the conversation's staged changes with Accept / Reject per file and per hunk. Everything
// goes through the RemoteToolRunner (`changes`, `rewind`, `pendingChanges`, `accept`, `reject`), so
// it runs in the workspace's tool worker; only the review switch is the playground's own admin call.
// "Download as a cassette" saves the conversation (`cassette`) as JSON for `runner.replay` in tests.
import type { Connection } from './connection.js';
import { byId, h } from './dom.js';

type Runner = Connection['runner'];
type Changes = Awaited<ReturnType<Runner['changes']>>;
type Pending = Awaited<ReturnType<Runner['pendingChanges']>>;
type PendingFile = Pending['files'][number];
type RewindResult = Awaited<ReturnType<Runner['rewind']>>;

export interface JournalPanel {
  /** Reads the journal and the pending changes of the current conversation again (when the tab is open). */
  refresh(): Promise<void>;
}

export interface JournalPanelOptions {
  connection(): Connection | undefined;
  conversation(): string;
  /** Shows a line in the page's status bar. */
  say(text: string): void;
  /** Renders a unified diff (the tab's own renderer). */
  renderDiff(diff: string): HTMLElement;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const shortPath = (path: string): string => path.replace(/^\/workspace\//, '');

/** Wires the timeline, the rewind buttons and the review controls of the Changes tab. */
export function setupJournal(options: JournalPanelOptions): JournalPanel {
  const { connection, conversation, say, renderDiff } = options;
  let asked = 0;
  /** The last rewind's outcome, shown until the conversation or the workspace changes hands. */
  let lastRewind: { conn: Connection; conversationId: string; node: HTMLElement } | undefined;

  /** Runs an action of the panel: its errors go to the status line, then the panel is read again. */
  const act = async (action: (runner: Runner, conversationId: string, conn: Connection) => Promise<void>): Promise<void> => {
    const conn = connection();
    if (!conn) return;
    try {
      await action(conn.runner, conversation(), conn);
    } catch (error) {
      say(`Error: ${(error as Error).message}`);
    }
    await refresh();
  };

  const rewind = (toTurn: number): Promise<void> =>
    act(async (runner, conversationId, conn) => {
      const result = await runner.rewind(conversationId, { toTurn });
      lastRewind = { conn, conversationId, node: renderRewind(toTurn, result, renderDiff) };
      say(rewindSummary(toTurn, result));
    });

  const decide = (verb: 'accept' | 'reject', selection: { paths?: string[]; hunks?: string[] }): Promise<void> =>
    act(async (runner, conversationId) => {
      if (verb === 'accept') {
        const result = await runner.accept(conversationId, selection);
        const conflicts = result.conflicts.map((c) => shortPath(c.path));
        say(`Accepted ${plural(result.hunks.length, 'change')}${result.written.length ? `; wrote ${result.written.map(shortPath).join(', ')}` : ''}${conflicts.length ? `; not written (changed under it): ${conflicts.join(', ')}` : ''}.`);
      } else {
        const reason = byId<HTMLInputElement>('reject-reason').value.trim();
        const result = await runner.reject(conversationId, reason ? { ...selection, reason } : selection);
        say(`Rejected ${plural(result.hunks.length, 'change')}; the model is told with its next call.`);
      }
    });

  byId('review-switch').addEventListener('change', (event) => {
    const on = (event.target as HTMLInputElement).checked;
    void act(async (_runner, conversationId, conn) => {
      await conn.admin.review(conversationId, on);
      say(on ? `Reviewing ${conversationId}: its writes wait in the Changes tab until you accept them.` : `${conversationId} writes to the workspace again (changes still pending stay for review).`);
    });
  });
  byId('pending-accept-all').addEventListener('click', () => void decide('accept', {}));
  byId('pending-reject-all').addEventListener('click', () => void decide('reject', {}));
  byId('rewind-start').addEventListener('click', () => void rewind(0));
  byId('cassette-download').addEventListener('click', () =>
    void act(async (runner, conversationId) => {
      const cassette = await runner.cassette(conversationId);
      download(`${conversationId}.cassette.json`, `${JSON.stringify(cassette, null, 2)}\n`);
      say(`Downloaded ${conversationId} as a cassette: ${plural(cassette.calls.length, 'call')}${cassette.incomplete ? ` (incomplete: ${cassette.incomplete.note})` : ''}.`);
    }),
  );

  async function refresh(): Promise<void> {
    const conn = connection();
    if (!conn || byId('changes-panel').hidden) return;
    const conversationId = conversation();
    const mine = (asked += 1);
    const [changes, reviewOn] = await Promise.all([conn.runner.changes(conversationId), conn.admin.review(conversationId)]);
    // Pending changes exist only on a reviewed runner; ours always is one (review chosen per conversation).
    const pending = await conn.runner.pendingChanges(conversationId);
    if (mine !== asked) return; // a newer refresh is under way
    byId<HTMLInputElement>('review-switch').checked = reviewOn;
    byId('journal-title').textContent = `Turns of ${conversationId}`;
    byId('journal-info').textContent = journalSummary(changes);
    byId<HTMLButtonElement>('rewind-start').hidden = changes.turns.length === 0;
    byId('timeline').replaceChildren(...changes.turns.map((turn) => renderTurn(turn, rewind, renderDiff)));
    if (lastRewind && (lastRewind.conn !== conn || lastRewind.conversationId !== conversationId)) lastRewind = undefined;
    byId('rewind-result').replaceChildren(...(lastRewind ? [lastRewind.node] : []));
    renderPending(pending, reviewOn, decide, renderDiff);
  }

  return { refresh };
}

/** Saves `text` as a file through a temporary link. */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = h('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function journalSummary(changes: Changes): string {
  const turns = changes.turns.length;
  const dropped = changes.droppedThrough === undefined ? '' : ` Turns up to ${changes.droppedThrough} were dropped to keep the journal within its budget.`;
  if (turns === 0) return `No file changed in ${changes.conversationId} yet.${dropped}`;
  return `${plural(turns, 'turn')} of ${changes.conversationId} changed files.${dropped}`;
}

function rewindSummary(toTurn: number, result: RewindResult): string {
  if (result.unreachable) return `Cannot rewind to turn ${toTurn}: ${result.unreachable.note}`;
  const restored = result.restored.length ? `restored ${result.restored.map(shortPath).join(', ')}` : 'nothing to restore';
  const conflicts = result.conflicts.length ? `; left alone (changed since): ${result.conflicts.map((c) => shortPath(c.path)).join(', ')}` : '';
  return `Rewound to turn ${toTurn}: ${restored}${conflicts}.`;
}

/** The outcome of a rewind: the files restored and each conflict with its diff. */
function renderRewind(toTurn: number, result: RewindResult, renderDiff: (diff: string) => HTMLElement): HTMLElement {
  return h(
    'section',
    { class: 'rewind-result', 'aria-label': `Rewind to turn ${toTurn}` },
    h('p', {}, rewindSummary(toTurn, result)),
    ...result.conflicts.map((conflict) =>
      h('div', { class: 'conflict-file', 'data-path': conflict.path }, h('p', {}, `${conflict.path}: changed since the conversation left it; not restored.`), renderDiff(conflict.diff)),
    ),
  );
}

/** One turn of the timeline: its calls, each call's files with their diffs, and its "Rewind to here" button. */
function renderTurn(turn: Changes['turns'][number], rewind: (toTurn: number) => Promise<void>, renderDiff: (diff: string) => HTMLElement): HTMLElement {
  const time = new Date(turn.at);
  return h(
    'li',
    { class: 'turn', 'data-turn': turn.turn },
    h(
      'div',
      { class: 'turn-head' },
      h('h4', {}, `Turn ${turn.turn}`),
      h('time', { dateTime: time.toISOString() }, time.toLocaleTimeString()),
      h('button', { type: 'button', class: 'rewind', 'data-rewind-to': turn.turn, 'aria-label': `Rewind to here (the files as after turn ${turn.turn})`, onclick: () => void rewind(turn.turn) }, 'Rewind to here'),
    ),
    h(
      'ul',
      { class: 'calls' },
      ...turn.calls.map((call) =>
        h(
          'li',
          { class: 'call', 'data-call-id': call.callId, 'data-tool': call.tool },
          h('p', { class: 'call-head' }, h('code', {}, call.tool), ` (call ${call.callId}): ${plural(call.files.length, 'file')}`),
          ...call.files.map((file) => h('div', { class: 'call-file', 'data-path': file.path }, h('p', { class: 'path' }, file.path), renderDiff(file.diff))),
        ),
      ),
    ),
  );
}

/** The pending (staged) changes of a reviewed conversation, with Accept / Reject per file and per hunk. */
function renderPending(
  pending: Pending,
  reviewOn: boolean,
  decide: (verb: 'accept' | 'reject', selection: { paths?: string[]; hunks?: string[] }) => Promise<void>,
  renderDiff: (diff: string) => HTMLElement,
): void {
  const count = pending.files.length;
  byId('pending').hidden = !reviewOn && count === 0;
  byId('pending-info').textContent =
    count === 0 ? 'Nothing pending: the workspace holds everything this conversation wrote.' : `${plural(count, 'file')} pending review; the workspace is unchanged until you accept.`;
  byId('pending-actions').hidden = count === 0;
  byId('pending-files').replaceChildren(...pending.files.map((file) => renderPendingFile(file, decide, renderDiff)));
}

function renderPendingFile(
  file: PendingFile,
  decide: (verb: 'accept' | 'reject', selection: { paths?: string[]; hunks?: string[] }) => Promise<void>,
  renderDiff: (diff: string) => HTMLElement,
): HTMLElement {
  const name = shortPath(file.path);
  return h(
    'section',
    { class: 'pending-file', 'data-path': file.path, 'aria-label': `Pending: ${name}` },
    h('h5', {}, file.path, ' ', h('span', { class: 'kind' }, `(${file.kind})`)),
    file.conflict ? h('div', { class: 'conflict' }, h('p', {}, 'Changed in the workspace since; accepting it is refused until it is rejected or redone:'), renderDiff(file.conflict)) : null,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'accept-file', 'aria-label': `Accept all of ${name}`, onclick: () => void decide('accept', { paths: [file.path] }) }, 'Accept file'),
      h('button', { type: 'button', class: 'reject-file', 'aria-label': `Reject all of ${name}`, onclick: () => void decide('reject', { paths: [file.path] }) }, 'Reject file'),
    ),
    h(
      'ol',
      { class: 'hunks' },
      ...file.hunks.map((hunk, index) => {
        const where = `lines ${hunk.newStart}–${hunk.newStart + Math.max(hunk.newLines, 1) - 1} of ${name}`;
        return h(
          'li',
          { class: 'pending-hunk', 'data-hunk': index + 1 },
          renderDiff(hunk.diff),
          h(
            'div',
            { class: 'actions' },
            h('button', { type: 'button', class: 'accept-hunk', 'aria-label': `Accept change ${index + 1} (${where})`, onclick: () => void decide('accept', { hunks: [hunk.id] }) }, 'Accept'),
            h('button', { type: 'button', class: 'reject-hunk', 'aria-label': `Reject change ${index + 1} (${where})`, onclick: () => void decide('reject', { hunks: [hunk.id] }) }, 'Reject'),
          ),
        );
      }),
    ),
  );
}
