// Where a change journal keeps file contents (blobs, by hash) and its turn records.

/** One file a call changed, as stored: images are `'absent'`, `'unknown'` or `'sha256:<hex>'`. */
export interface StoredFileChange {
  path: string;
  before: string;
  after: string;
  /**
   * Set when a command made the change (seen by listing the workspace before and after it); `'unlisted'`:
   * the path is the workspace root of a command whose changes were not listed (too many entries).
   */
  command?: true | 'unlisted';
}

/** One call of a stored turn. */
export interface StoredCall {
  callId: string;
  tool: string;
  files: StoredFileChange[];
}

/** One turn as stored: a conversation's turn number, its order among all turns of the journal, its calls. */
export interface StoredTurn {
  conversationId: string;
  turn: number;
  /** Order of the turn among every turn of the journal (all conversations): oldest are dropped first. */
  seq: number;
  /** When the turn ended, ms since the epoch. */
  at: number;
  /**
   * The number of the conversation's stored turn before this one when it was stored (0: none), so a
   * journal that loads finds a turn lost from the middle. Absent in records of older versions.
   */
  prev?: number;
  /** The calls that changed files (none: a number a rewind took that wrote nothing, kept so that no other writer takes it; or a mark, see {@link dropped}). */
  calls: StoredCall[];
  /**
   * Set on a mark of no calls left where the budget removed the record of the conversation's last
   * stored turn: the turns through this one were dropped. A journal that loads reports them dropped
   * (`droppedThrough`) and numbers the conversation's turns on after it.
   */
  dropped?: true;
}

/**
 * The journal's storage: content-addressed blobs (one copy per content, shared between turns and
 * conversations) and turn records. The journal keeps its index (which turn holds which blob, the
 * byte total) in memory and tells the store what to add and remove. A durable store lets the journal
 * outlive the process: on Node a directory of `blobs/<hash>` files plus one JSON file per turn
 * (written to a temporary name, then renamed); in a browser an IndexedDB database with a `blobs`
 * object store keyed by hash and a `turns` store keyed by [conversationId, turn].
 */
export interface JournalStore {
  /** Keeps `bytes` under `hash` (a second put of one hash is a no-op). */
  putBlob(hash: string, bytes: Uint8Array): Promise<void>;
  /** The bytes under `hash`, or undefined when none are kept. */
  getBlob(hash: string): Promise<Uint8Array | undefined>;
  deleteBlob(hash: string): Promise<void>;
  putTurn(turn: StoredTurn): Promise<void>;
  /**
   * Optional, for a store several writers may share (runners of one process, processes): stores a new
   * turn only when no record of its conversation and number is there (created exclusively), and only
   * when no other writer added turns since this store last listed them. Answers `'created'`, `'taken'`
   * (a record of that number is there) or `'behind'` (other writers added turns; nothing stored). The
   * journal then takes up the turns listed ({@link listTurns}) and stores the turn after them, with
   * `listed` true (it has just listed them: no `'behind'` then). Without it, one journal must be the
   * store's only writer.
   */
  createTurn?(turn: StoredTurn, listed?: boolean): Promise<'created' | 'taken' | 'behind'>;
  deleteTurn(conversationId: string, turn: number): Promise<void>;
  /** Every stored turn, in `seq` order (for a journal that loads what a durable store holds). */
  listTurns(): Promise<StoredTurn[]>;
  /**
   * Optional: the turn numbers of `conversationId` whose records the last {@link listTurns} found
   * damaged (left out of it), so a journal counts them as lost even when no later turn names them.
   */
  damagedTurns?(conversationId: string): number[];
  /**
   * Optional, for a store that outlives the process (crash-atomic rewinds): keeps the turn of a rewind
   * about to write its files, durably, before the first of its writes. Its files go from what was
   * there (`before`, whose blobs are kept first) to the rewind's targets (`after`). A journal that
   * loads and finds one finishes it: every file still at `before` is written to `after`.
   */
  putRewind?(turn: StoredTurn): Promise<void>;
  /** Optional: the rewinds put and not yet deleted (a process stopped while they wrote), in `seq` order. */
  listRewinds?(): Promise<StoredTurn[]>;
  /** Optional: forgets a rewind once its turn is stored (or once it failed and was put back). */
  deleteRewind?(conversationId: string, turn: number): Promise<void>;
}

/** A {@link JournalStore} in memory: gone with the process, as the memory platform's files are. */
export class MemoryJournalStore implements JournalStore {
  readonly #blobs = new Map<string, Uint8Array>();
  /** Per conversation, its turns by number (number keys: no key string is made per turn). */
  readonly #turns = new Map<string, Map<number, StoredTurn>>();

  async putBlob(hash: string, bytes: Uint8Array): Promise<void> {
    if (!this.#blobs.has(hash)) this.#blobs.set(hash, bytes);
  }

  async getBlob(hash: string): Promise<Uint8Array | undefined> {
    return this.#blobs.get(hash);
  }

  async deleteBlob(hash: string): Promise<void> {
    this.#blobs.delete(hash);
  }

  async putTurn(turn: StoredTurn): Promise<void> {
    let turns = this.#turns.get(turn.conversationId);
    if (turns === undefined) this.#turns.set(turn.conversationId, (turns = new Map()));
    turns.set(turn.turn, turn);
  }

  async deleteTurn(conversationId: string, turn: number): Promise<void> {
    const turns = this.#turns.get(conversationId);
    turns?.delete(turn);
    if (turns?.size === 0) this.#turns.delete(conversationId);
  }

  async listTurns(): Promise<StoredTurn[]> {
    return [...this.#turns.values()].flatMap((turns) => [...turns.values()]).sort((a, b) => a.seq - b.seq);
  }

  /** How many blobs are held (for tests of the budget). */
  get blobCount(): number {
    return this.#blobs.size;
  }
}
