// The change journal: per conversation, the turns, their mutating calls and the files each changed.
import { sameBytes } from '../core/bytes.js';
import type { FsPromises } from '../core/fs-port.js';
import type {
  Cassette,
  CallChanges,
  ChangeJournalPort,
  ConversationChanges,
  JournalSetup,
  JournalTurn,
  RecordedCall,
  ReplayOptions,
  ReplayResult,
  ReplayRunner,
  RewindOptions,
  RewindResult,
  TurnEnd,
} from '../core/journal-port.js';
import type { Platform } from '../core/platform.js';
import { MAX_LISTED_ENTRIES, watchesCommands, watchingPlatform } from './commands.js';
import { CallCapture, imageAt, journalingFs, type KeepBytes } from './recorder.js';
import { finishRewind, rewindConversation } from './rewind.js';
import { diffImages } from './diff.js';
import { CallTape, exportCassette } from './cassette.js';
import { replayCassette } from './replay.js';
import { hashBytes, isContent, isStoredTurn, type ConversationJournal, type JournalInternals } from './model.js';
import { MemoryJournalStore, type JournalStore, type StoredCall, type StoredFileChange, type StoredTurn } from './store.js';

/** Options of {@link createChangeJournal} beyond the runner's {@link JournalSetup}. */
export interface ChangeJournalOptions {
  /** Where blobs and turns are kept (default: a fresh {@link MemoryJournalStore}). */
  store?: JournalStore;
  /** Milliseconds since the epoch for a turn's `at` (default `Date.now`). */
  now?: () => number;
}

/**
 * A change journal over `platform`'s files (see docs/journal.md): each mutating call's `ctx.fs` is a
 * journaling view that keeps a path's content before the call first changes it; a turn's end reads
 * what the turn left; file contents are blobs by SHA-256, shared between turns and conversations, and
 * the oldest turns are dropped once the blobs pass `setup.maxBytes`.
 */
export function createChangeJournal(platform: Platform, setup: JournalSetup, options: ChangeJournalOptions = {}): ChangeJournal {
  return new ChangeJournal(platform, setup, options);
}

/**
 * Per store other writers may share, per conversation, the last turn number any journal of this
 * process on that store gave: runners sharing a platform (and so its store) share one numbering.
 */
const SHARED_NUMBERS = new WeakMap<JournalStore, Map<string, number>>();

/**
 * Per store other writers may share, the turns (`conversation\nturn`) a journal of this process stored
 * or took up at its load: that journal's budget may remove them from the store, no other's.
 */
const SHARED_OWNED = new WeakMap<JournalStore, Set<string>>();

/** A turn's key in {@link SHARED_OWNED}. */
const ownedKey = (turn: StoredTurn): string => `${turn.conversationId}\n${turn.turn}`;

/** How many paths' last content the journal remembers, to take their image without hashing them again. */
const RECENT_FILES = 1024;

/** How many paths' stamps (size, modification time, inode) the journal remembers with the content they had. */
const STAMPED_FILES = 50_000;

/** The content the journal last kept at a path, and its image. */
interface RecentContent {
  readonly path: string;
  readonly image: string;
  bytes: Uint8Array;
}

const NO_BYTES = new Uint8Array(0);

/** A turn open while its calls run: each mutating call adds a {@link CallCapture}. */
class OpenTurn implements JournalTurn {
  /** The turn's number: 0 until the journal has loaded its store (then given in the order turns began). */
  turn: number;
  readonly conversationId: string;
  readonly calls: CallCapture[] = [];
  /** Every image whose blob this turn holds a reference to until it ends. */
  readonly held: string[] = [];
  /** Keeps `bytes` as a blob held by this turn; answers its image. */
  readonly keep: KeepBytes;
  readonly #journal: ChangeJournal;
  /** Each call's capture by the `ctx.fs` it was given. */
  readonly #captures = new WeakMap<FsPromises, CallCapture>();
  #ended = false;
  /** The first error of the store while keeping one of this turn's file contents: the turn is then not stored. */
  storeError: unknown;

  constructor(journal: ChangeJournal, conversationId: string, turn: number) {
    this.#journal = journal;
    this.conversationId = conversationId;
    this.turn = turn;
    const keep = async (bytes: Uint8Array, path?: string): Promise<string> => {
      let image: string;
      try {
        image = await journal.retainAt(bytes, path);
      } catch (error) {
        this.storeError ??= error;
        throw error;
      }
      this.held.push(image);
      return image;
    };
    const watches = journal.watchesCommands;
    const stamp = watches ? (path: string, at: string, image: string): void => journal.rememberStamp(path, at, image) : undefined;
    const wrote = watches ? (path: string): void => journal.noteWrite(path) : undefined;
    this.keep = Object.assign(keep, { maxFileBytes: journal.maxFileBytes, stamp, wrote, known: journal.known });
  }

  fsFor(call: { callId: string; tool: string }, fs: FsPromises): FsPromises {
    const capture = new CallCapture(call.callId, call.tool);
    this.calls.push(capture);
    const view = journalingFs(fs, capture, this.keep);
    if (this.#journal.watchesCommands) this.#captures.set(view, capture);
    return view;
  }

  /** Where commands change files behind `fs` (Node): `platform` with its commands watched for the call given `fs`. */
  platformFor(fs: FsPromises, platform: Platform): Platform | undefined {
    const capture = this.#captures.get(fs);
    if (capture === undefined) return undefined;
    const knownImage = (path: string, stamp: string): string | undefined => {
      const image = this.#journal.imageForStamp(path, stamp);
      if (image !== undefined) this.held.push(image);
      return image;
    };
    return watchingPlatform(platform, capture, { keep: this.keep, knownImage, watch: () => this.#journal.watchWrites() });
  }

  async end(): Promise<TurnEnd | void> {
    if (this.#ended) return;
    this.#ended = true;
    if (this.calls.length === 0) return;
    return this.#journal.finish(this);
  }
}

/** A stored change's diff; a command's change whose earlier content was not kept (or not listed) gets a note instead. */
function diffOf(journal: ChangeJournal, file: StoredFileChange): Promise<string> | string {
  if (file.command === 'unlisted') return `(a command ran here; the folder holds more than ${MAX_LISTED_ENTRIES} entries, so the files it changed were not listed)`;
  if (file.command === true && file.before === 'unknown') return '(changed by a command; earlier content not kept)';
  return diffImages(journal, file.path, file.before, file.after);
}

/**
 * Why a store write failed, in a few words for a tool's result: an error's code and the message's
 * first clause (Node names the file after a comma: the journal's folder is left out), else its name
 * and message, at most 200 characters.
 */
function storeErrorReason(error: unknown): string {
  const { code, name, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; name?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  const said = typeof code === 'string' ? (text.startsWith(code) ? text.split(',')[0] as string : `${code}: ${text.split(',')[0]}`) : typeof name === 'string' && name !== 'Error' ? `${name}: ${text}` : text;
  return said.length > 200 ? `${said.slice(0, 199)}…` : said;
}

/** The change journal of one runner: see {@link createChangeJournal}. */
export class ChangeJournal implements ChangeJournalPort, JournalInternals {
  readonly platform: Platform;
  readonly maxBytes: number;
  /**
   * Largest file whose content is kept: a quarter of the budget, so one huge file cannot push every
   * other turn out. A larger file's image is `'unknown'` (a rewind cannot restore it).
   */
  readonly maxFileBytes: number;
  readonly store: JournalStore;
  /** Every conversation's calls as their callers received them, within a quarter of the budget (in UTF-16 code units of JSON). */
  readonly tape: CallTape;
  readonly #setup: JournalSetup;
  readonly #now: () => number;
  readonly #conversations = new Map<string, ConversationJournal>();
  /** Every held turn, oldest first (all conversations): the budget drops from the front. */
  readonly #order: StoredTurn[] = [];
  readonly #refs = new Map<string, number>();
  readonly #sizes = new Map<string, number>();
  #bytes = 0;
  #seq = 0;
  /** The store's writes and removals, applied one after another in the order they were made. */
  #writes: Promise<void> = Promise.resolve();
  /** Whether the store is a {@link MemoryJournalStore}, whose writes need no queue (see {@link #inOrder}). */
  readonly #direct: boolean;
  /**
   * Whether other writers may share the store ({@link JournalStore.createTurn}): each new turn is then
   * created under a number no writer holds, and `changes()` and `rewind()` first take up their turns.
   */
  readonly #shared: boolean;
  /** With a shared store, the numbers given by every journal of this process on it (see {@link SHARED_NUMBERS}). */
  readonly #numbers: Map<string, number> | undefined;
  /** With a shared store, the turns some journal of this process may remove from it (see {@link SHARED_OWNED}). */
  readonly #owned: Set<string> | undefined;
  /** With a shared store, the turns held that this journal stored or took up at its load: the only ones its budget removes from the store. */
  readonly #own = new WeakSet<StoredTurn>();
  /**
   * Images of turns this journal let go of without removing them from the store (another writer's):
   * their blobs are never removed by this journal, whose references do not count those turns.
   */
  readonly #pinned = new Set<string>();
  /** The store is the platform's (it outlives the page or process): it is loaded before the journal is first used. */
  readonly #loadsItself: boolean;
  #loading: Promise<void> | undefined;
  /** Whether turn numbers can be given now (the store is loaded, or the journal does not load it itself). */
  #numbering: boolean;
  /** Turns begun before the store was loaded, numbered once it is. */
  #unnumbered: OpenTurn[] = [];
  #loadError: unknown;
  /** Per path, the content the journal last kept there and its image (newest last). */
  readonly #recent = new Map<string, RecentContent>();
  /**
   * The entries of {@link #recent} in the order remembered, oldest from `#recentHead` on (an entry no
   * longer the map's for its path is skipped): the oldest is found without iterating the map, which
   * walks past every entry deleted since it last compacted (a cost that grew with each call).
   */
  #recentOrder: RecentContent[] = [];
  #recentHead = 0;
  #recentBytes = 0;
  /** Where the platform counts its changes: what lets a call's read stand for a pre-image (see {@link KeepBytes.known}). */
  readonly known: KeepBytes['known'];
  /** Whether commands' changes are listed (see {@link watchesCommands}): then stamps are remembered. */
  readonly watchesCommands: boolean;
  /** Per path, the stamp it had when it held a kept content, and that content's image (newest last). */
  readonly #stamps = new Map<string, { stamp: string; image: string }>();
  /** Commands running now, and per path the last write (journaled call or rewind) since the first of them began. */
  #watching = 0;
  #writeSeq = 0;
  readonly #lastWrite = new Map<string, number>();

  constructor(platform: Platform, setup: JournalSetup, options: ChangeJournalOptions = {}) {
    this.platform = platform;
    this.#setup = setup;
    this.maxBytes = setup.maxBytes;
    this.maxFileBytes = Math.floor(setup.maxBytes / 4);
    const platformStore = options.store ? undefined : (platform as { journalStore?: () => JournalStore }).journalStore?.();
    this.store = options.store ?? platformStore ?? new MemoryJournalStore();
    this.#loadsItself = platformStore !== undefined;
    this.#direct = this.store.constructor === MemoryJournalStore;
    this.#shared = typeof this.store.createTurn === 'function';
    if (this.#shared) {
      this.#numbers = SHARED_NUMBERS.get(this.store) ?? new Map<string, number>();
      SHARED_NUMBERS.set(this.store, this.#numbers);
      this.#owned = SHARED_OWNED.get(this.store) ?? new Set<string>();
      SHARED_OWNED.set(this.store, this.#owned);
    }
    this.#numbering = !this.#loadsItself;
    this.#now = options.now ?? Date.now;
    this.tape = new CallTape(Math.floor(setup.maxBytes / 4));
    this.watchesCommands = watchesCommands(platform);
    const changeCount = platform.changeCount?.bind(platform);
    this.known = changeCount === undefined ? undefined : { changeCount, bytesAt: (path, bytes) => this.#recentBytesAt(path, bytes) };
  }

  /** Notes that a journaled call or a rewind changed `path`, while a command runs (see {@link watchWrites}). */
  noteWrite(path: string): void {
    if (this.#watching > 0) this.#lastWrite.set(path, (this.#writeSeq += 1));
  }

  /** Opens a command's window: which paths journaled calls and rewinds changed from now until `close`. */
  watchWrites(): { touched(path: string): boolean; close(): void } {
    this.#watching += 1;
    const from = this.#writeSeq;
    let open = true;
    return {
      touched: (path) => (this.#lastWrite.get(path) ?? 0) > from,
      close: () => {
        if (!open) return;
        open = false;
        this.#watching -= 1;
        if (this.#watching === 0) this.#lastWrite.clear();
      },
    };
  }

  /** Remembers that `path` held `image`'s content while its stamp was `stamp` (the newest {@link STAMPED_FILES} paths). */
  rememberStamp(path: string, stamp: string, image: string): void {
    this.#stamps.delete(path);
    this.#stamps.set(path, { stamp, image });
    if (this.#stamps.size > STAMPED_FILES) this.#stamps.delete(this.#stamps.keys().next().value as string);
  }

  /** The kept image `path` had at `stamp`, with one more reference taken (the caller releases it), or undefined. */
  imageForStamp(path: string, stamp: string): string | undefined {
    const seen = this.#stamps.get(path);
    if (seen === undefined || seen.stamp !== stamp || !this.#refs.has(seen.image)) return undefined;
    this.addRef(seen.image);
    return seen.image;
  }

  /** Once the platform's store is loaded (or a load under way ended): rejects with the error of a load that failed. */
  async #ready(): Promise<void> {
    if (this.#loadsItself) await this.load();
    else if (this.#loading) await this.#loading;
    if (this.#loadError !== undefined) throw this.#loadError;
  }

  /** Bytes of the blobs held now (each content counted once). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The journal of `conversationId`, made empty on first use. */
  conversation(conversationId: string): ConversationJournal {
    let found = this.#conversations.get(conversationId);
    if (!found) {
      found = { last: 0, turns: [] };
      this.#conversations.set(conversationId, found);
    }
    return found;
  }

  /**
   * What a turn's calls wait for: the load of the platform's store (started now if need be), or a
   * load the host started (see {@link load}); else nothing. Never rejects.
   */
  ready(): Promise<void> | undefined {
    return this.#loadsItself ? this.load() : this.#loading;
  }

  beginTurn(conversationId: string): OpenTurn {
    if (!this.#numbering) {
      const early = new OpenTurn(this, conversationId, 0);
      this.#unnumbered.push(early);
      void this.load();
      return early;
    }
    return new OpenTurn(this, conversationId, this.#nextNumber(conversationId));
  }

  /** Gives the conversation's next turn number: after every number this journal, and any of this process sharing its store, gave. */
  #nextNumber(conversationId: string): number {
    const conversation = this.conversation(conversationId);
    conversation.last = Math.max(conversation.last, this.#numbers?.get(conversationId) ?? 0) + 1;
    this.#numbers?.set(conversationId, conversation.last);
    return conversation.last;
  }

  /** Notes that turn numbers up to `last` of the conversation are given (read from the store, or taken by a renumbered turn). */
  #numbered(conversationId: string, last: number): void {
    const conversation = this.conversation(conversationId);
    conversation.last = Math.max(conversation.last, last);
    if (this.#numbers && (this.#numbers.get(conversationId) ?? 0) < last) this.#numbers.set(conversationId, last);
  }

  /** Keeps `bytes` as a blob and takes one reference to it; answers its image. */
  async retain(bytes: Uint8Array): Promise<string> {
    const image = await hashBytes(bytes);
    await this.retainHashed(image, bytes);
    return image;
  }

  /** {@link retain} of bytes whose image is known already (not hashed again). */
  async retainHashed(image: string, bytes: Uint8Array): Promise<void> {
    this.addRef(image, bytes.byteLength);
    if (this.#refs.get(image) !== 1) return;
    try {
      await this.#inOrder(() => this.store.putBlob(image, bytes));
    } catch (error) {
      // Not kept: the reference just taken goes again.
      this.release(image);
      throw error;
    }
  }

  /**
   * {@link retain} of bytes read from or written to `path`: when they equal the content the journal
   * last saw there (compared byte by byte), its image is taken without hashing them again.
   */
  async retainAt(bytes: Uint8Array, path?: string): Promise<string> {
    if (path === undefined) return this.retain(bytes);
    const seen = this.#recent.get(path);
    let image: string;
    if (seen !== undefined && sameBytes(seen.bytes, bytes)) {
      image = seen.image;
      await this.retainHashed(image, bytes);
    } else image = await this.retain(bytes);
    this.#remember(path, image, bytes);
    return image;
  }

  /** The content the journal last kept at `path`, when `bytes` equal it. */
  #recentBytesAt(path: string, bytes: Uint8Array): Uint8Array | undefined {
    const seen = this.#recent.get(path);
    return seen !== undefined && sameBytes(seen.bytes, bytes) ? seen.bytes : undefined;
  }

  /** Remembers `path`'s last content seen, the newest {@link RECENT_FILES} paths (and at most an eighth of the budget in bytes). */
  #remember(path: string, image: string, bytes: Uint8Array): void {
    const old = this.#recent.get(path);
    if (old !== undefined) {
      this.#recentBytes -= old.bytes.byteLength;
      // Left in the order until it is cleared out: holding no bytes meanwhile.
      old.bytes = NO_BYTES;
    }
    const entry: RecentContent = { path, image, bytes };
    this.#recent.set(path, entry);
    this.#recentOrder.push(entry);
    this.#recentBytes += bytes.byteLength;
    const order = this.#recentOrder;
    while ((this.#recent.size > RECENT_FILES || this.#recentBytes > this.maxBytes / 8) && this.#recentHead < order.length) {
      const oldest = order[this.#recentHead] as RecentContent;
      this.#recentHead += 1;
      if (this.#recent.get(oldest.path) !== oldest) continue;
      this.#recent.delete(oldest.path);
      this.#recentBytes -= oldest.bytes.byteLength;
    }
    // Dropped and replaced entries are cleared out once they are most of the order.
    if (order.length - this.#recentHead > 2 * this.#recent.size + 1024 || (this.#recentHead > 1024 && this.#recentHead * 2 > order.length)) {
      this.#recentOrder = order.slice(this.#recentHead).filter((held) => this.#recent.get(held.path) === held);
      this.#recentHead = 0;
    }
  }


  /** Takes one more reference to a kept image (`size` counts when it is new). */
  addRef(image: string, size = 0): void {
    if (!isContent(image)) return;
    const refs = this.#refs.get(image) ?? 0;
    if (refs === 0) {
      this.#sizes.set(image, size);
      this.#bytes += size;
    }
    this.#refs.set(image, refs + 1);
  }

  /** Lets go of one reference; the blob goes when none is left. */
  release(image: string): void {
    if (!isContent(image)) return;
    const refs = (this.#refs.get(image) ?? 0) - 1;
    if (refs > 0) {
      this.#refs.set(image, refs);
      return;
    }
    this.#refs.delete(image);
    this.#bytes -= this.#sizes.get(image) ?? 0;
    this.#sizes.delete(image);
    if (!this.#pinned.has(image)) void this.#inOrder(() => this.store.deleteBlob(image)).catch(() => undefined);
  }

  /** Notes that this journal stored `turn` or took it up at its load: its budget may remove it from the store. */
  #ownTurn(turn: StoredTurn): void {
    if (this.#owned === undefined) return;
    this.#own.add(turn);
    this.#owned.add(ownedKey(turn));
  }

  /** Whether this journal's budget removes `turn` from the store (a store only it writes: every turn). */
  #owns(turn: StoredTurn): boolean {
    return this.#owned === undefined || this.#own.has(turn);
  }

  /** The bytes of a kept image, or undefined when they are not held (or the store's are not intact). */
  async blob(image: string): Promise<Uint8Array | undefined> {
    return isContent(image) && this.#refs.has(image) ? this.#blobOf(image) : undefined;
  }

  /**
   * The store's bytes of `image` when they hash to it; else (none kept, or damaged: emptied, edited)
   * undefined. Bytes of the memory store are the journal's own and are not hashed again.
   */
  async #blobOf(image: string): Promise<Uint8Array | undefined> {
    const bytes = await this.store.getBlob(image);
    if (bytes === undefined || this.#direct) return bytes;
    return (await hashBytes(bytes)) === image ? bytes : undefined;
  }

  /**
   * Records what `turn`'s calls changed: each call's pre- and post-images (a path whose post-image
   * could not be taken as its change settled is read now). Unchanged files are left out. With a store
   * that outlives the process (one with `putRewind`), resolves once the turn is stored.
   * Never rejects: a turn that cannot be recorded (the store failed to keep its record or one of its
   * file contents) counts as dropped and lost (a rewind before it is refused), and the answer's
   * `unrecorded` says so for the calls that changed files.
   */
  async finish(turn: OpenTurn): Promise<TurnEnd | void> {
    let stored: StoredTurn | undefined;
    try {
      if (this.#loadsItself) await this.load();
      await Promise.all(turn.calls.map((call) => call.settled()));
      const ending = new Map<string, Promise<string>>();
      const imageNow = (path: string): Promise<string> => {
        let image = ending.get(path);
        if (!image) {
          image = imageAt(this.platform.fs, path, turn.keep);
          ending.set(path, image);
        }
        return image;
      };
      const calls: StoredCall[] = [];
      for (const call of turn.calls) {
        const files = [];
        for (const [path, before] of call.before) {
          let after = call.after.get(path) ?? (await imageNow(path));
          // A directory where there was nothing: its files are journaled one by one, under their own paths.
          if (after === 'dir' && before === 'absent') continue;
          if (after === 'dir') after = 'unknown';
          // Two unknown images may differ: the change is kept, so a rewind across it is refused, never silently skipped.
          const command = call.commands.get(path);
          if (after !== before || before === 'unknown') files.push(command === undefined ? { path, before, after } : { path, before, after, command });
        }
        if (files.length > 0) calls.push({ callId: call.callId, tool: call.tool, files });
      }
      // A file content the store failed to keep: the turn cannot be restored, and is not stored.
      if (turn.storeError !== undefined && calls.length > 0) throw turn.storeError;
      if (calls.length === 0) return;
      const made = (stored = this.#newTurn(turn.conversationId, turn.turn, calls));
      let put: Promise<void> | undefined;
      if (this.#shared) {
        await this.#inOrder(() => this.#claim(made));
        turn.turn = made.turn;
        this.#hold(made, false);
        this.#ownTurn(made);
      } else put = this.#hold(made);
      this.#applyBudget();
      // A store that outlives the process has the turn before the call's answer is given.
      if (this.store.putRewind) await (put ?? this.#writes);
    } catch (error) {
      return this.#lose(turn, stored, error);
    } finally {
      for (const image of turn.held) this.release(image);
    }
  }

  /**
   * Counts a turn the store could not keep as dropped and lost (`stored`: its record, when made; it
   * may have been renumbered), and answers the note its calls' results get.
   */
  #lose(turn: OpenTurn, stored: StoredTurn | undefined, error: unknown): TurnEnd {
    const number = Math.max(turn.turn, stored?.turn ?? 0);
    turn.turn = number;
    const conversation = this.conversation(turn.conversationId);
    const reason = storeErrorReason(error);
    this.#dropThrough(conversation, number);
    conversation.lostThrough = Math.max(conversation.lostThrough ?? 0, number);
    conversation.unstored = { turn: number, reason };
    const callIds = turn.calls.filter((call) => call.before.size > 0).map((call) => call.callId);
    const note = `the change journal could not store this turn (${reason}): its file changes were made, but a rewind cannot undo them, nor go back to before them`;
    return { unrecorded: { note, callIds } };
  }

  /** Adds a turn of `calls` (when any) to the conversation, takes references to its images, applies the budget. */
  record(conversationId: string, turn: number, calls: StoredCall[]): StoredTurn | undefined {
    if (calls.length === 0) return undefined;
    const stored = this.#newTurn(conversationId, turn, calls);
    this.#hold(stored);
    this.#applyBudget();
    return stored;
  }

  /** A new turn record: its place in the order, its end, and the conversation's stored turn before it. */
  #newTurn(conversationId: string, turn: number, calls: StoredCall[]): StoredTurn {
    const prev = this.#storedBefore(this.conversation(conversationId), turn);
    return { conversationId, turn, seq: (this.#seq += 1), at: this.#now(), prev, calls };
  }

  /**
   * The number of the conversation's last turn before `turn` held or dropped (0: none): a turn dropped
   * because it could not be stored is named too, so a journal that loads finds it lost.
   */
  #storedBefore(conversation: ConversationJournal, turn: number): number {
    const { turns } = conversation;
    let held = 0;
    for (let i = turns.length - 1; i >= 0; i -= 1) {
      if ((turns[i] as StoredTurn).turn < turn) {
        held = (turns[i] as StoredTurn).turn;
        break;
      }
    }
    const dropped = conversation.droppedThrough ?? 0;
    return Math.max(held, dropped < turn ? dropped : 0);
  }

  /** Whether the conversation holds a turn numbered `turn`. */
  #holds(conversation: ConversationJournal, turn: number): boolean {
    const { turns } = conversation;
    for (let i = turns.length - 1; i >= 0 && (turns[i] as StoredTurn).turn >= turn; i -= 1) if ((turns[i] as StoredTurn).turn === turn) return true;
    return false;
  }

  /**
   * Holds `stored` (references to its images, its place among the conversation's turns by number and in
   * the order) and stores it unless `put` is false (created already); the caller applies the budget. A
   * turn held already (taken up from the store meanwhile) is left.
   */
  #hold(stored: StoredTurn, put = true): Promise<void> | undefined {
    const conversation = this.conversation(stored.conversationId);
    if (this.#holds(conversation, stored.turn)) return undefined;
    for (const call of stored.calls) for (const file of call.files) (this.addRef(file.before), this.addRef(file.after));
    const { turns } = conversation;
    let at = turns.length;
    while (at > 0 && (turns[at - 1] as StoredTurn).turn > stored.turn) at -= 1;
    turns.splice(at, 0, stored);
    this.#order.push(stored);
    if (!put) return undefined;
    const putting = this.#inOrder(() => this.store.putTurn(stored));
    putting.catch(() => undefined);
    return putting;
  }

  /**
   * Creates `stored` in a store other writers share, under its number or, when another writer holds
   * that one or the store holds turns this journal has not taken up, after the turns it then takes up
   * ({@link #sync}): `stored` (and its `prev`) is renumbered to match. A number taken whose record is
   * not listed (damaged) counts as lost.
   */
  async #claim(stored: StoredTurn): Promise<void> {
    const create = (this.store.createTurn as NonNullable<JournalStore['createTurn']>).bind(this.store);
    const conversation = this.conversation(stored.conversationId);
    for (let answer = await create(stored, false); answer !== 'created'; answer = await create(stored, true)) {
      const number = stored.turn;
      const listed = (await this.#sync()).filter((turn) => turn.conversationId === stored.conversationId);
      if (answer === 'taken' && !listed.some((turn) => turn.turn === number)) {
        conversation.lostThrough = Math.max(conversation.lostThrough ?? 0, number);
        this.#dropThrough(conversation, number);
      }
      const above = answer === 'taken' ? number : listed.reduce((most, turn) => Math.max(most, turn.turn), 0);
      if (above < number) continue;
      const last = Math.max(conversation.last, this.#numbers?.get(stored.conversationId) ?? 0, above) + 1;
      this.#numbered(stored.conversationId, last);
      stored.turn = last;
      stored.prev = this.#storedBefore(conversation, last);
    }
  }

  /** Takes up the turns other writers added to a shared store; answers every turn listed. */
  async #sync(): Promise<StoredTurn[]> {
    const listed = await this.store.listTurns();
    await this.#takeUp(listed, false);
    return listed;
  }

  /**
   * Takes the next turn of `conversationId` for a rewind of `files` (one call, `rewind-<turn>`) and, when the store outlives the
   * process, stores the rewind as under way (after every blob it needs) before any file is written.
   * Rejects when that store write fails (nothing is written then).
   */
  async beginRewind(conversationId: string, files: StoredFileChange[]): Promise<StoredTurn> {
    const conversation = this.conversation(conversationId);
    const stored = this.#newTurn(conversationId, this.#nextNumber(conversationId), []);
    const putRewind = this.store.putRewind?.bind(this.store);
    let claimed = false;
    try {
      // In a shared store the number is taken first, by a record of no calls that the rewind's own replaces.
      if (this.#shared) {
        await this.#inOrder(() => this.#claim(stored));
        claimed = true;
      }
      stored.calls = [{ callId: `rewind-${stored.turn}`, tool: 'rewind', files }];
      if (putRewind) await this.#inOrder(() => putRewind(stored));
    } catch (error) {
      this.#giveBack(stored, claimed);
      throw error;
    }
    return stored;
  }

  /** Ends a rewind begun with {@link beginRewind}: `done` records its turn, else its turn number is given back when still the last. */
  endRewind(stored: StoredTurn, done: boolean): void {
    if (done) {
      this.#hold(stored);
      this.#ownTurn(stored);
      this.#applyBudget();
    } else this.#giveBack(stored, this.#shared);
    const deleteRewind = this.store.deleteRewind?.bind(this.store);
    if (deleteRewind) void this.#inOrder(() => deleteRewind(stored.conversationId, stored.turn)).catch(() => undefined);
  }

  /**
   * Gives a rewind's number back when still the last; `claimed`: its record of no calls in a shared store
   * is removed, freeing the number for every writer (no writer's record names one of no calls as the
   * turn before its own).
   */
  #giveBack(stored: StoredTurn, claimed: boolean): void {
    const conversation = this.conversation(stored.conversationId);
    if (conversation.last === stored.turn) conversation.last -= 1;
    if (this.#numbers?.get(stored.conversationId) === stored.turn) this.#numbers.set(stored.conversationId, stored.turn - 1);
    if (claimed) void this.#inOrder(() => this.store.deleteTurn(stored.conversationId, stored.turn)).catch(() => undefined);
  }

  /**
   * Runs `write` after every store write made before it (so a blob removed and kept again is not lost
   * to a removal that finishes late); resolves or rejects with it.
   */
  #inOrder(write: () => Promise<void>): Promise<void> {
    // The memory store does each write when called: made at once, its writes keep their order.
    if (this.#direct) return write();
    const done = this.#writes.then(write);
    this.#writes = done.catch(() => undefined);
    return done;
  }

  /** Resolves once every store write made so far has settled. */
  async flushed(): Promise<void> {
    await this.#writes;
  }

  /**
   * Takes up the turns a durable store holds, before the first turn of this journal: reference counts
   * and sizes are rebuilt from the blobs; a turn whose blob is missing is dropped. Turn numbers go on
   * from each conversation's last stored turn or mark of dropped turns ({@link StoredTurn.dropped});
   * turns through a mark, and before the first stored turn, count as dropped. A rewind the store holds as
   * under way (the process stopped while it wrote) is finished first: each of its files still as the
   * rewind found it is written to its target, so the workspace is as after the whole rewind. Loads
   * once (a second call answers the first's promise); a journal on the platform's store (the web
   * platform's IndexedDB one) loads itself on first use. Never rejects: a store that cannot be read
   * makes `changes()` and `rewind()` reject with its error.
   */
  load(): Promise<void> {
    this.#loading ??= this.#load().then(
      () => this.#numberEarlyTurns(),
      (error: unknown) => {
        this.#loadError = error;
        this.#numberEarlyTurns();
      },
    );
    return this.#loading;
  }

  /** Numbers the turns begun while the store loaded, in the order they began; later turns are numbered at once. */
  #numberEarlyTurns(): void {
    this.#numbering = true;
    for (const turn of this.#unnumbered) turn.turn = this.#nextNumber(turn.conversationId);
    this.#unnumbered = [];
  }

  async #load(): Promise<void> {
    // A rewind a stopped process left under way is finished first: its turn is then among the stored ones.
    for (const rewind of (await this.store.listRewinds?.()) ?? []) {
      if (!isStoredTurn(rewind)) continue;
      const done = await finishRewind(this.platform, (image) => this.#blobOf(image), rewind);
      if (done.calls[0]?.files.length) await this.store.putTurn(done);
      await this.store.deleteRewind?.(rewind.conversationId, rewind.turn);
    }
    await this.#takeUp(await this.store.listTurns(), true);
    // Calls are recorded in memory only: a cassette of a conversation begun before cannot hold its early turns.
    for (const [conversationId, conversation] of this.#conversations) this.tape.unrecorded(conversationId, conversation.last);
  }

  /**
   * Takes up the turns `listed` (every turn the store holds) that this journal does not hold: at its
   * load, or those other writers of a shared store added since. Damaged records are left out. A turn
   * whose blob is missing or damaged is lost, and so is a turn another one names as the stored turn
   * before it (`prev`) that is not listed: it and every turn before it count as dropped. Turns before a
   * conversation's first stored one count as dropped too (they may have been dropped by the budget), and
   * at a load the turns through a mark of dropped turns. What a load takes up is this journal's own
   * (its budget removes it from the store) unless another journal of this process has it.
   */
  async #takeUp(listed: readonly StoredTurn[], loading: boolean): Promise<void> {
    const byConversation = new Map<string, StoredTurn[]>();
    /** Per conversation, the numbers of records listed that are not turns (damaged), by their own fields or the store's word. */
    const damaged = new Map<string, number[]>();
    for (const turn of listed) {
      const whole = isStoredTurn(turn);
      const { conversationId, turn: number } = turn as Partial<StoredTurn>;
      if (typeof conversationId !== 'string' || (!whole && !Number.isSafeInteger(number))) continue;
      if (!byConversation.has(conversationId)) byConversation.set(conversationId, []);
      if (whole) (byConversation.get(conversationId) as StoredTurn[]).push(turn);
      else damaged.set(conversationId, [...(damaged.get(conversationId) ?? []), number as number]);
    }
    for (const [conversationId, turns] of byConversation) {
      const lost = [...(damaged.get(conversationId) ?? []), ...(this.store.damagedTurns?.(conversationId) ?? [])];
      await this.#takeUpConversation(conversationId, turns, lost, loading);
    }
    // The budget drops the oldest first, of every conversation.
    this.#order.sort((a, b) => a.seq - b.seq);
    this.#applyBudget();
  }

  /** {@link #takeUp} of one conversation's `listed` turns, and the numbers of its `damaged` records. */
  async #takeUpConversation(conversationId: string, listed: StoredTurn[], damaged: readonly number[], loading: boolean): Promise<void> {
    const conversation = this.conversation(conversationId);
    listed.sort((a, b) => a.turn - b.turn);
    const held = new Set(conversation.turns.map((turn) => turn.turn));
    const numbers = new Set(held);
    for (const turn of listed) numbers.add(turn.turn);
    let lost = 0;
    let taken = 0;
    for (const number of damaged) {
      this.#numbered(conversationId, number);
      if (!numbers.has(number)) lost = Math.max(lost, number);
    }
    for (const turn of listed) {
      this.#numbered(conversationId, turn.turn);
      this.#seq = Math.max(this.#seq, turn.seq);
      // A mark of dropped turns: at a load they count as dropped (another writer's, met later, only numbers: its budget is its own).
      if (turn.dropped === true && turn.calls.length === 0 && loading) this.#takeUpMark(conversation, turn);
      if (turn.calls.length === 0 || turn.turn <= (conversation.droppedThrough ?? 0) || held.has(turn.turn)) continue;
      const sizes = await this.#blobSizes(turn);
      if (sizes === undefined) {
        lost = Math.max(lost, turn.turn);
        continue;
      }
      // Taken up meanwhile (a sync beside this one), or dropped meanwhile: left.
      if (this.#holds(conversation, turn.turn) || turn.turn <= (conversation.droppedThrough ?? 0)) continue;
      // A record of an older version names no stored turn before it: the turns before the first count as dropped.
      if (loading && turn.prev === undefined && conversation.turns.length === 0 && turn.turn > 1) {
        conversation.droppedThrough = Math.max(conversation.droppedThrough ?? 0, turn.turn - 1);
      }
      for (const call of turn.calls) for (const file of call.files) (this.addRef(file.before, sizes.get(file.before)), this.addRef(file.after, sizes.get(file.after)));
      this.#hold(turn, false);
      // What a load finds is this journal's to remove by its budget, unless another journal of this process has it.
      if (loading && !this.#owned?.has(ownedKey(turn))) this.#ownTurn(turn);
      taken = Math.max(taken, turn.turn);
      // #hold took references again: the ones above were the sizes'.
      for (const call of turn.calls) for (const file of call.files) (this.release(file.before), this.release(file.after));
    }
    let lowest = Infinity;
    for (const number of numbers) lowest = Math.min(lowest, number);
    let before = 0;
    for (const turn of listed) {
      const prev = turn.prev ?? 0;
      if (prev === 0 || numbers.has(prev) || prev <= (conversation.droppedThrough ?? 0)) continue;
      // A turn missing after a stored one is lost; before the first stored one, dropped (as by the budget).
      if (lowest < prev) lost = Math.max(lost, prev);
      else before = Math.max(before, prev);
    }
    if (lost > 0) conversation.lostThrough = Math.max(conversation.lostThrough ?? 0, lost);
    this.#dropThrough(conversation, Math.max(lost, before));
    if (!loading && taken > 0) this.tape.unrecorded(conversationId, taken);
  }

  /** Takes up a mark of dropped turns found at the load: they count as dropped; it is this journal's to replace unless another journal of this process has it. */
  #takeUpMark(conversation: ConversationJournal, mark: StoredTurn): void {
    // Records before it that are still there are another writer's (the mark's writer removed its own): their blobs stay.
    for (const turn of conversation.turns) {
      if (turn.turn > mark.turn) continue;
      for (const call of turn.calls) for (const file of call.files) for (const image of [file.before, file.after]) if (isContent(image)) this.#pinned.add(image);
    }
    this.#dropThrough(conversation, mark.turn);
    if (this.#owned?.has(ownedKey(mark)) === true) return;
    this.#owned?.add(ownedKey(mark));
    conversation.mark = Math.max(conversation.mark ?? 0, mark.turn);
  }

  /** Per kept image of `turn`, its size, when the store holds every one of them intact; else undefined. */
  async #blobSizes(turn: StoredTurn): Promise<Map<string, number> | undefined> {
    const sizes = new Map<string, number>();
    for (const call of turn.calls) {
      for (const image of call.files.flatMap((file) => [file.before, file.after])) {
        if (!isContent(image) || sizes.has(image)) continue;
        const held = this.#refs.has(image) ? this.#sizes.get(image) : undefined;
        const size = held ?? (await this.#blobOf(image))?.byteLength;
        if (size === undefined) return undefined;
        sizes.set(image, size);
      }
    }
    return sizes;
  }

  /** Counts turns up to `through` of `conversation` as dropped: the ones held are let go (their records are left in the store). */
  #dropThrough(conversation: ConversationJournal, through: number): void {
    if (through <= (conversation.droppedThrough ?? 0)) return;
    conversation.droppedThrough = through;
    const gone = conversation.turns.filter((turn) => turn.turn <= through);
    if (gone.length === 0) return;
    conversation.turns = conversation.turns.filter((turn) => turn.turn > through);
    const dropped = new Set(gone);
    const order = this.#order;
    let kept = 0;
    for (const turn of order) if (!dropped.has(turn)) order[kept++] = turn;
    order.length = kept;
    for (const turn of gone) for (const call of turn.calls) for (const file of call.files) (this.release(file.before), this.release(file.after));
  }

  /**
   * Drops the oldest turns (any conversation) while the blobs held pass the budget. A turn this journal
   * owns (see {@link #owns}) is removed from the store with the blobs no turn it holds refers to;
   * another writer's is only let go (its record and blobs stay, for that writer and later loads).
   */
  #applyBudget(): void {
    while (this.#bytes > this.maxBytes && this.#order.length > 0) {
      const oldest = this.#order.shift() as StoredTurn;
      const conversation = this.conversation(oldest.conversationId);
      conversation.turns = conversation.turns.filter((turn) => turn !== oldest);
      conversation.droppedThrough = Math.max(conversation.droppedThrough ?? 0, oldest.turn);
      const owned = this.#owns(oldest);
      for (const call of oldest.calls) {
        for (const file of call.files) {
          if (!owned) for (const image of [file.before, file.after]) if (isContent(image)) this.#pinned.add(image);
          this.release(file.before);
          this.release(file.after);
        }
      }
      if (owned) this.#unstore(conversation, oldest);
    }
  }

  /**
   * Removes a dropped turn's record from the store; the conversation's last stored one is replaced by a
   * mark of no calls (see {@link StoredTurn.dropped}), the conversation's earlier mark removed, so a
   * journal that loads later still numbers on and reports the turns dropped.
   */
  #unstore(conversation: ConversationJournal, dropped: StoredTurn): void {
    const { conversationId, turn } = dropped;
    this.#owned?.delete(ownedKey(dropped));
    // A store gone with the process needs no mark: nothing loads it later.
    if (this.store.putRewind === undefined || conversation.turns.some((held) => held.turn > turn)) {
      void this.#inOrder(() => this.store.deleteTurn(conversationId, turn)).catch(() => undefined);
      return;
    }
    const mark: StoredTurn = { conversationId, turn, seq: dropped.seq, at: dropped.at, prev: 0, calls: [], dropped: true };
    const earlier = conversation.mark;
    conversation.mark = turn;
    this.#owned?.add(ownedKey(mark));
    void this.#inOrder(async () => {
      await this.store.putTurn(mark);
      if (earlier !== undefined && earlier < turn) {
        this.#owned?.delete(`${conversationId}\n${earlier}`);
        await this.store.deleteTurn(conversationId, earlier);
      }
    }).catch(() => undefined);
  }

  /** Once the store is loaded and, when other writers share it, their turns are taken up. */
  async #current(): Promise<void> {
    await this.#ready();
    if (!this.#shared) return;
    await this.#sync();
    for (const [conversationId, last] of this.#numbers ?? []) this.#numbered(conversationId, last);
  }

  async changes(conversationId: string): Promise<ConversationChanges> {
    await this.#current();
    const conversation = this.#conversations.get(conversationId);
    const out: ConversationChanges = { conversationId, turns: [] };
    if (!conversation) return out;
    if (conversation.droppedThrough !== undefined) out.droppedThrough = conversation.droppedThrough;
    for (const turn of conversation.turns) {
      const calls: CallChanges[] = [];
      for (const call of turn.calls) {
        const files = [];
        for (const file of call.files) files.push({ path: file.path, before: file.before, after: file.after, diff: await diffOf(this, file) });
        calls.push({ callId: call.callId, tool: call.tool, files });
      }
      out.turns.push({ turn: turn.turn, at: turn.at, calls });
    }
    return out;
  }

  async rewind(conversationId: string, options: RewindOptions): Promise<RewindResult> {
    await this.#current();
    const result = await rewindConversation(this, this.#setup, conversationId, options);
    // A store that outlives the process has the rewind's turn before the answer is given (as a call's).
    if (this.store.putRewind) await this.#writes;
    return result;
  }

  /** Keeps turn `turn`'s calls on the {@link tape} (a JSON copy), dropping the oldest turns past its bound. */
  recordCalls(conversationId: string, turn: number, calls: readonly RecordedCall[]): void {
    this.tape.record(conversationId, turn, calls);
  }

  /** The conversation's cassette (see {@link exportCassette}): its recorded calls, and files from the blobs and `include` (absolute paths). */
  cassette(conversationId: string, options: { include: readonly string[] }): Promise<Cassette> {
    return exportCassette(this, conversationId, options.include);
  }

  /** Replays `cassette` through `runner` on this journal's platform (see {@link replayCassette}). */
  replay(cassette: Cassette, runner: ReplayRunner, options: ReplayOptions & { conversationId: string }): Promise<ReplayResult> {
    const target = { platform: this.platform, lastTurn: (conversationId: string) => this.#conversations.get(conversationId)?.last ?? 0 };
    return replayCassette(target, cassette, runner, options);
  }
}
