// The change-journal port: what the runner asks of a change journal (the implementation lives above
// the core and is passed in, as the platform is), and the shapes `changes()` and `rewind()` answer.
import type { FsPromises } from './fs-port.js';
import type { JsonValue } from './json.js';
import type { Platform } from './platform.js';
import type { CallOptions, ToolCall, ToolCallResult } from './wire.js';

/**
 * A file's content as the journal names it: `'absent'` (no file there), `'unknown'` (something the
 * journal could not keep: a directory or symlink where a file was expected, an unreadable file, a
 * file over the journal's budget) or `'sha256:<hex>'` of its bytes.
 */
export type FileImage = string;

/** One file one call changed. */
export interface FileChange {
  /** Absolute path on the platform. */
  path: string;
  /** Before the call: see {@link FileImage}. */
  before: FileImage;
  /** After the call (the file as the next call of the turn found it, or as the turn left it). */
  after: FileImage;
  /**
   * Unified diff from `before` to `after` (an absent file diffs as empty text); a note in parentheses
   * for a binary file or content the journal no longer holds.
   */
  diff: string;
}

/** One mutating call of a turn and the files it changed. */
export interface CallChanges {
  /** The call's id (the model's, or the one the runner generated for it). */
  callId: string;
  /** The tool's name as called (`edit_file`, `apply_patch`, `replace`; `rewind` for a rewind). */
  tool: string;
  files: FileChange[];
}

/** One turn (a `processToolCalls` batch, an `execute`, or a rewind) that changed files. */
export interface TurnChanges {
  /** Numbered from 1 per conversation; turns that changed nothing are counted but not listed. */
  turn: number;
  /** When the turn ended, ms since the epoch. */
  at: number;
  calls: CallChanges[];
}

/** What {@link ChangeJournalPort.changes} answers. */
export interface ConversationChanges {
  conversationId: string;
  /** The turns still held, in turn order. */
  turns: TurnChanges[];
  /**
   * Set when turns of this conversation were dropped: to keep the journal within its byte budget, or
   * because a turn was lost (its record or a file content it refers to missing or damaged in a durable
   * store, or not stored), which drops it and every turn before it. The last dropped turn. A rewind to
   * a turn before it cannot be done.
   */
  droppedThrough?: number;
}

/** Options of {@link ChangeJournalPort.rewind}. */
export interface RewindOptions {
  /** Restore the workspace as it was after this turn; `0`: before the conversation's first change. */
  toTurn: number;
  /** Change nothing; report what a rewind would restore and where it would meet conflicts. */
  dryRun?: boolean;
  /** Overwrite files changed since by someone else too (they are reported as restored). */
  force?: boolean;
}

/** A file a rewind left alone because someone else changed it after the conversation last did. */
export interface RewindConflict {
  path: string;
  /** Unified diff from what the conversation left to what is there now (the other party's change). */
  diff: string;
}

/** What {@link ChangeJournalPort.rewind} answers. */
export interface RewindResult {
  /** Files written or removed (on `dryRun`: that would be). */
  restored: string[];
  /** Files left as they are (unless `force`). */
  conflicts: RewindConflict[];
  /** The rewind's own turn: rewinding to the turn before it undoes it. Absent on `dryRun` and when nothing was restored. */
  turn?: number;
  /**
   * Set when the rewind could not be done and nothing was changed: the turns it needs were dropped
   * (`droppedThrough`; the note says why: the budget, or a lost turn), or content it needs was never
   * kept or is no longer held intact (`paths`).
   */
  unreachable?: { note: string; droppedThrough?: number; paths?: string[] };
}

/** One `processToolCalls` batch or one `execute` of a conversation, open while its calls run. */
export interface JournalTurn {
  /**
   * The turn's number in its conversation. Read it once `end()` resolved: a journal whose store other
   * writers share may store the turn under a later number (the one it had was taken meanwhile).
   */
  readonly turn: number;
  /** The journaling view of `fs` that one mutating call gets as `ctx.fs`. */
  fsFor(call: { callId: string; tool: string }, fs: FsPromises): FsPromises;
  /** The platform the call given `fs` (by {@link fsFor}) sees, when the journal watches its commands; undefined: the runner's. */
  platformFor?(fs: FsPromises, platform: Platform): Platform | undefined;
  /**
   * Closes the turn: records what its calls changed. Never rejects; answers {@link TurnEnd} with
   * `unrecorded` when the turn's changes could not be stored (or nothing to say).
   */
  end(): Promise<TurnEnd | void>;
}

/** What a turn's end tells its caller. */
export interface TurnEnd {
  /**
   * Set when the journal could not store the turn (its store failed: a full or failing disk): `note`
   * says so and why, for the results of the calls `callIds` names (the calls that changed files, as
   * given to {@link JournalTurn.fsFor}). Their changes were made; a rewind cannot undo them.
   */
  unrecorded?: { note: string; callIds: readonly string[] };
}

/** A change journal as the runner uses it (see docs/journal.md). */
export interface ChangeJournalPort {
  /** Opens the next turn of `conversationId`. */
  beginTurn(conversationId: string): JournalTurn;
  /**
   * What a turn's calls wait for before they run, when anything: a journal that takes up a durable
   * store on first use resolves once it has (and has finished any rewind it found under way, so no
   * call sees or changes a file of it half done). Never rejects.
   */
  ready?(): Promise<void> | undefined;
  changes(conversationId: string): Promise<ConversationChanges>;
  rewind(conversationId: string, options: RewindOptions): Promise<RewindResult>;
  /** Keeps the calls of turn `turn` as their caller received them, for {@link cassette}. Never throws. */
  recordCalls?(conversationId: string, turn: number, calls: readonly RecordedCall[]): void;
  /** The conversation's calls and starting files as a {@link Cassette}. */
  cassette?(conversationId: string, options: { include: readonly string[] }): Promise<Cassette>;
  /** Seeds the platform with `cassette`'s files and runs its calls through `runner`, turn by turn. */
  replay?(cassette: Cassette, runner: ReplayRunner, options: ReplayOptions & { conversationId: string }): Promise<ReplayResult>;
}

/** One call as the runner hands it to {@link ChangeJournalPort.recordCalls}: not yet copied. */
export interface RecordedCall {
  via: CassetteCall['via'];
  id?: string | undefined;
  tool: string;
  input: unknown;
  /** The value the caller got (on success). */
  result?: unknown;
  /** The failure the caller got: a result's `code` and `error`, or the rejection's. */
  error?: { code: string; message: string } | undefined;
}

/**
 * One recorded call of a {@link Cassette}: what was called and what the caller received, as JSON.
 * Exactly one of `result` and `error` is set.
 */
export interface CassetteCall {
  /** The conversation's turn it belonged to (1-based, as in `changes()`). */
  turn: number;
  /** How it was made: in a `processToolCalls` batch, by `execute`, or a `rewind` (its `input` the rewind's options). */
  via: 'batch' | 'execute' | 'rewind';
  /** The call's id as given in the batch (none for `execute` and `rewind`). */
  id?: string;
  /** The tool's name as called (`rewind` for a rewind). */
  tool: string;
  /** The call's arguments as given (absent when they were `undefined`). */
  input?: JsonValue;
  /** A success: the tool's result as the caller received it (a rewind's `RewindResult`). */
  result?: JsonValue;
  /** A failure: its code (`not_found`, `invalid_arguments`, ...) and message. */
  error?: { code: string; message: string };
}

/**
 * A file as a replay starts from: `text` (UTF-8 content), `base64` (bytes that are not UTF-8), or
 * `absent: true` (no file there: the conversation created it).
 */
export interface CassetteFile {
  /** Absolute path on the platform. */
  path: string;
  text?: string;
  base64?: string;
  absent?: true;
}

/**
 * A conversation's tool calls and the files it started from, as JSON (see docs/journal.md, Replay):
 * `JSON.parse(JSON.stringify(cassette))` is an equal cassette. Made by `ToolRunner.cassette`, played
 * by `ToolRunner.replay`.
 */
export interface Cassette {
  /** Format version: 1. */
  version: 1;
  conversationId: string;
  /** The recording platform's root: a replay's platform must hold the same paths. */
  root: string;
  /**
   * What the files the conversation changed held before its first change to each (from the journal),
   * plus the files `include` named, as they were when the cassette was made. Sorted by path.
   */
  files: CassetteFile[];
  /** Every call of the conversation, in the order they were made. */
  calls: CassetteCall[];
  /**
   * Set when the cassette does not hold the whole conversation (a replay refuses it): the calls of
   * turns up to `droppedThrough` are missing (dropped to keep the journal or its call records within
   * budget, lost from a durable store, or made by an earlier process or another writer whose durable
   * journal this one took up: `note` says which), or what the files at `paths` held first was not kept.
   */
  incomplete?: { note: string; droppedThrough?: number; paths?: string[] };
}

/** What a replay needs of a runner: the package's `ToolRunner` is one. */
export interface ReplayRunner {
  processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]>;
  execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
  rewind(conversationId: string, options: RewindOptions): Promise<RewindResult>;
}

/** Options of `ToolRunner.replay`. */
export interface ReplayOptions {
  /** Conversation the calls run in (default: the cassette's); it must have had no turn on this runner. */
  conversationId?: string;
  /**
   * Maps what a call answered before it is compared, on both sides (recorded and replayed): `value` is
   * the result, or `{ code, message }` for a failure. For results that legitimately vary (timestamps,
   * generated ids, durations). Runs after the default, which replaces the timestamp in the name of a
   * generated image (`generated-1733500000000.png` → `generated-<timestamp>.png`).
   */
  normalize?: (value: JsonValue, call: { turn: number; id?: string; tool: string; failed: boolean }) => JsonValue;
}

/** Where a replay first answered other than the recording. */
export interface ReplayDrift {
  turn: number;
  /** Position of the call in the cassette's `calls` (0-based). */
  index: number;
  id?: string;
  tool: string;
  /**
   * JSON path of the first difference in the call's outcome, `{ result }` or `{ error: { code, message } }`:
   * `$.result.content`, `$.error.code`; `$` when one side failed and the other did not.
   */
  path: string;
  /** What the recording had there (`undefined`: nothing), after normalisation. */
  expected: JsonValue | undefined;
  /** What the replay got there. */
  actual: JsonValue | undefined;
  /** Short diff: a unified diff for two texts, else `- expected` / `+ actual` lines of JSON. */
  diff: string;
}

/** What `ToolRunner.replay` answers. */
export interface ReplayResult {
  /** True when every call answered as recorded. */
  ok: boolean;
  /** Turns run (up to and including the one that drifted). */
  turns: number;
  /** Calls compared (up to and including the one that drifted). */
  calls: number;
  /** The first call that answered otherwise; the replay stopped after its turn. */
  drift?: ReplayDrift;
  /** One line on success; on drift the turn, call, path and diff, for a test's failure message. */
  report: string;
}

/** Default budget of a runner's change journal: 64 MiB of kept file contents. */
export const DEFAULT_JOURNAL_BYTES = 64 * 1024 * 1024;

/** What a runner's journal factory gets. */
export interface JournalSetup {
  /** Most bytes of file content the journal keeps (blobs shared between turns counted once). */
  maxBytes: number;
  /** Runs `fn` holding `path`'s write lock (the runner's, so a rewind never interleaves with a tool's write). */
  withPathLock<T>(path: string, fn: () => Promise<T>): Promise<T>;
}

/** One hunk of a staged file's pending change (see {@link PendingFile}). */
export interface PendingHunk {
  /** Names the hunk in `accept` / `reject` (`hunks`); it changes whenever the file's staged change does. */
  id: string;
  /** First line (1-based) and line count of the hunk in the workspace's file (context lines included). */
  oldStart: number;
  oldLines: number;
  /** First line (1-based) and line count of the hunk in the staged file. */
  newStart: number;
  newLines: number;
  /** The hunk as unified diff text: its `@@` header, then ` `, `-` and `+` lines. */
  diff: string;
}

/** One file a reviewed conversation changed that is not in the workspace yet. */
export interface PendingFile {
  /** Absolute path on the platform. */
  path: string;
  /** `create`: no file was there; `delete`: the conversation removed the file; `modify`: anything else. */
  kind: 'create' | 'modify' | 'delete';
  /**
   * Unified diff of the whole file from what the workspace held when the conversation first changed it
   * to the staged content; a note in parentheses for a binary file.
   */
  diff: string;
  /** The hunks, in file order: a created, deleted or binary file has one hunk, the whole file. */
  hunks: PendingHunk[];
  /**
   * Set when the workspace's file changed since the conversation first changed it (someone else wrote
   * it): a unified diff from what the conversation started from to what is there now. Accepting this
   * file is refused as a conflict; rejecting it is allowed.
   */
  conflict?: string;
}

/** What the runner's `pendingChanges` answers. */
export interface PendingChanges {
  conversationId: string;
  /** Files with a staged change, sorted by path. */
  files: PendingFile[];
}

/**
 * Which staged changes `accept` / `reject` take: every hunk of each file in `paths`, plus each hunk
 * named in `hunks`; neither given (`{}`): every pending change of the conversation.
 */
export interface ReviewSelection {
  /** Absolute paths as {@link PendingFile.path} gives them. */
  paths?: readonly string[];
  /** Hunk ids as {@link PendingHunk.id} gives them. */
  hunks?: readonly string[];
}

/** Options of `reject`: the selection, and what to tell the model. */
export interface RejectOptions extends ReviewSelection {
  /** Why, in the user's words: passed to the model in the note on its next call. */
  reason?: string;
}

/** A file `accept` left alone because the workspace's file changed under the staged change. */
export interface ReviewConflict {
  path: string;
  /** Unified diff from what the conversation started from to what the workspace holds now. */
  diff: string;
}

/** What `accept` answers. */
export interface AcceptResult {
  /** Files written to (or removed from) the workspace, sorted. */
  written: string[];
  /** Ids of the hunks applied. */
  hunks: string[];
  /** Files left alone (their hunks stay pending): the workspace changed under them. */
  conflicts: ReviewConflict[];
  /** The journal turn that recorded the writes (a rewind to the turn before it undoes them); absent without a journal or when nothing was written. */
  turn?: number;
}

/** What `reject` answers. */
export interface RejectResult {
  /** Files whose staged content changed (each now shows the model the workspace's text where a hunk was rejected), sorted. */
  reverted: string[];
  /** Ids of the hunks rejected. */
  hunks: string[];
}

/** The views a reviewed conversation's calls get: its staged `fs` and a platform whose `fs` it is. */
export interface StagedView {
  readonly fs: FsPromises;
  readonly platform: Platform;
}

/** Review mode as the runner uses it (see docs/journal.md, Review). */
export interface ReviewPort {
  /** Whether `conversationId` has staged changes not yet accepted or rejected. */
  hasPending(conversationId: string): boolean;
  /** The staged view of `conversationId` (made on first use, the same object after). */
  view(conversationId: string): StagedView;
  pending(conversationId: string): Promise<PendingChanges>;
  accept(conversationId: string, selection: ReviewSelection): Promise<AcceptResult>;
  reject(conversationId: string, options: RejectOptions): Promise<RejectResult>;
  /** Takes the conversation's note of rejections not yet told to the model (undefined: none). */
  takeNote(conversationId: string): string | undefined;
  /** Puts back a note a call's result could not carry, ahead of any newer one, for the next call. */
  keepNote(conversationId: string, note: string): void;
}

/** What a runner's review factory gets. */
export interface ReviewSetup {
  /** Runs `fn` holding `path`'s write lock (the runner's). */
  withPathLock<T>(path: string, fn: () => Promise<T>): Promise<T>;
  /** The runner's change journal: accepted writes are recorded as its turns. Absent: not recorded. */
  journal: ChangeJournalPort | undefined;
}

/**
 * A platform that stages every write itself until the host accepts it (the web platform's overlay):
 * `stagedReview` gives the review of those staged changes, which a runner's `pendingChanges` /
 * `accept` / `reject` answer with for a conversation it does not review itself. Called once per runner.
 */
export interface StagingPlatform extends Platform {
  stagedReview(setup: ReviewSetup): Promise<ReviewPort>;
}

/** Whether `platform` stages its writes itself (see {@link StagingPlatform}). */
export function isStagingPlatform(platform: Platform): platform is StagingPlatform {
  return typeof (platform as Partial<StagingPlatform>).stagedReview === 'function';
}
