// A change journal's store in IndexedDB: the web platform's runner keeps its journal there when the
// workspace outlives the page, so a reloaded page lists and rewinds the turns of earlier ones.
import { promisifyRequest } from 'idb-keyval';
import { ToolError } from '../src/core/errors.js';
import type { JournalStore, StoredTurn } from '../src/journal/store.js';
import { storageError } from './idb.js';

/** Prefix of a workspace's journal database: `toolhost-journal:<workspace>` (beside `toolhost-ws:<workspace>`). */
export const JOURNAL_DB_PREFIX = 'toolhost-journal:';
const DB_VERSION = 1;
const BLOBS = 'blobs';
const TURNS = 'turns';
const REWINDS = 'rewinds';
const STORES = [BLOBS, TURNS, REWINDS];
/**
 * Bytes of blobs held in memory before they are committed without waiting for a turn record: small,
 * so a turn's blobs are written (relaxed) while its calls still run, and the turn's own commit, which
 * the call's answer waits for, holds little more than its record. (At 8 MiB, a batch of 1,000 writes
 * of 4 KiB waited for all 4 MB at its end.)
 */
export const PENDING_BLOB_BYTES = 256 * 1024;

/** One write waiting for the next commit. */
type Op = (tx: IDBTransaction) => void;
/** The writes of the next commit: settled when it completes. */
interface Waiter {
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * A {@link JournalStore} in the IndexedDB database `toolhost-journal:<workspace>`: object stores
 * `blobs` (hash → bytes), `turns` and `rewinds` (`[conversationId, turn]` → the stored turn). Writes
 * are committed in ONE readwrite transaction per task (its `complete` awaited), transactions one
 * after another in the order of the writes. A blob is held in memory from its put until its
 * transaction completes, and its put resolves at once: it is committed with the next write of
 * another kind (the turn that refers to it: so a turn stored never lacks its blob), or once
 * {@link PENDING_BLOB_BYTES} of blobs wait. The other writes resolve once committed. A commit of blobs alone is `relaxed`; one holding a turn or rewind record has the
 * workspace's durability (default `strict`). The database is opened on first use.
 */
export class IdbJournalStore implements JournalStore {
  readonly #open: () => Promise<IDBDatabase>;
  readonly #durability: IDBTransactionDurability;
  #db: Promise<IDBDatabase> | undefined;
  /** Blobs put (bytes) or deleted (null) whose commit has not completed. */
  readonly #pendingBlobs = new Map<string, Uint8Array | null>();
  #ops: Op[] = [];
  /** Bytes of the blobs put since the last commit began. */
  #blobBytes = 0;
  /** Whether the next commit holds a turn or rewind record (else only blobs: committed relaxed). */
  #records = false;
  #next: Waiter | undefined;
  /** The last commit started (each waits for the one before it). */
  #committed: Promise<void> = Promise.resolve();
  /** Per conversation, the turn numbers whose records the last listing of `turns` found damaged. */
  #damaged = new Map<string, number[]>();

  constructor(factory: () => IDBFactory, workspace: string, durability: IDBTransactionDurability = 'strict') {
    this.#durability = durability;
    this.#open = () => openJournalDb(factory(), workspace);
  }

  #database(): Promise<IDBDatabase> {
    this.#db ??= this.#open();
    return this.#db;
  }

  /** Queues `op` for the next commit (`record`: a turn or rewind record); resolves when that commit completes. */
  #queue(op: Op, record = true): Promise<void> {
    this.#ops.push(op);
    this.#records ||= record;
    if (!this.#next) {
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      this.#next = { promise, resolve, reject };
      const waiter = this.#next;
      // Commit after the writes of this task (and the previous commit), all in one transaction.
      this.#committed = this.#committed.then(() => new Promise<void>((go) => setTimeout(go, 0))).then(() => this.#commit(waiter));
    }
    return this.#next.promise;
  }

  async #commit(waiter: Waiter): Promise<void> {
    const ops = this.#ops;
    const blobs = [...this.#pendingBlobs];
    // Blobs alone need no flush to the disk: they matter once a turn refers to them, and that turn's
    // commit (with the workspace's durability) comes after theirs and flushes what precedes it.
    const durability = this.#records ? this.#durability : 'relaxed';
    this.#ops = [];
    this.#records = false;
    this.#blobBytes = 0;
    this.#next = undefined;
    try {
      const db = await this.#database();
      await new Promise<void>((resolve, reject) => {
        const tx = transaction(db, 'readwrite', durability);
        tx.oncomplete = () => resolve();
        tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('the journal transaction was aborted'));
        for (const op of ops) op(tx);
      });
      // Forget only what this commit wrote: a later put of the same hash stays pending.
      for (const [hash, bytes] of blobs) if (this.#pendingBlobs.get(hash) === bytes) this.#pendingBlobs.delete(hash);
      waiter.resolve();
    } catch (error) {
      waiter.reject(storageError(error, 'storing the change journal'));
    }
  }

  /** Held in memory, committed with the next turn record (or once PENDING_BLOB_BYTES of blobs wait): resolves at once. */
  async putBlob(hash: string, bytes: Uint8Array): Promise<void> {
    this.#pendingBlobs.set(hash, bytes);
    const op: Op = (tx) => tx.objectStore(BLOBS).put(bytes, hash);
    this.#blobBytes += bytes.byteLength;
    if (this.#blobBytes >= PENDING_BLOB_BYTES || this.#next) void this.#queue(op, false).catch(() => undefined);
    else this.#ops.push(op);
  }

  async getBlob(hash: string): Promise<Uint8Array | undefined> {
    const pending = this.#pendingBlobs.get(hash);
    if (pending !== undefined) return pending ?? undefined;
    const db = await this.#database();
    const found = (await promisifyRequest(transaction(db, 'readonly').objectStore(BLOBS).get(hash))) as Uint8Array | undefined;
    return found;
  }

  deleteBlob(hash: string): Promise<void> {
    this.#pendingBlobs.set(hash, null);
    return this.#queue((tx) => tx.objectStore(BLOBS).delete(hash), false);
  }

  putTurn(turn: StoredTurn): Promise<void> {
    return this.#queue((tx) => tx.objectStore(TURNS).put(turn, [turn.conversationId, turn.turn]));
  }

  deleteTurn(conversationId: string, turn: number): Promise<void> {
    return this.#queue((tx) => tx.objectStore(TURNS).delete([conversationId, turn]));
  }

  listTurns(): Promise<StoredTurn[]> {
    return this.#list(TURNS);
  }

  /** The turn numbers of `conversationId` whose records the last {@link listTurns} found damaged. */
  damagedTurns(conversationId: string): number[] {
    return this.#damaged.get(conversationId) ?? [];
  }

  putRewind(turn: StoredTurn): Promise<void> {
    return this.#queue((tx) => tx.objectStore(REWINDS).put(turn, [turn.conversationId, turn.turn]));
  }

  listRewinds(): Promise<StoredTurn[]> {
    return this.#list(REWINDS);
  }

  deleteRewind(conversationId: string, turn: number): Promise<void> {
    return this.#queue((tx) => tx.objectStore(REWINDS).delete([conversationId, turn]));
  }

  /**
   * Every record of `store` once the writes made so far are committed, in `seq` order; a record that is
   * not an object of the conversation and turn of its key (damaged) is left out, and its turn counts as
   * lost when the journal loads.
   */
  async #list(store: string): Promise<StoredTurn[]> {
    await this.#committed;
    const db = await this.#database();
    const records = transaction(db, 'readonly').objectStore(store);
    const [keys, values] = await Promise.all([promisifyRequest(records.getAllKeys()), promisifyRequest(records.getAll())]);
    const damaged = new Map<string, number[]>();
    const turns = (values as Array<Partial<StoredTurn> | null>).filter((turn, i): turn is StoredTurn => {
      const key = keys[i] as unknown;
      if (typeof turn === 'object' && turn !== null && Array.isArray(key) && key[0] === turn.conversationId && key[1] === turn.turn) return true;
      if (Array.isArray(key) && typeof key[0] === 'string' && typeof key[1] === 'number') damaged.set(key[0], [...(damaged.get(key[0]) ?? []), key[1]]);
      return false;
    });
    if (store === TURNS) this.#damaged = damaged;
    return turns.sort((a, b) => a.seq - b.seq);
  }
}

/** A transaction over the journal's three stores (`durability` where the browser takes it). */
function transaction(db: IDBDatabase, mode: IDBTransactionMode, durability?: IDBTransactionDurability): IDBTransaction {
  if (mode === 'readwrite' && durability) {
    try {
      return db.transaction(STORES, mode, { durability });
    } catch (error) {
      if ((error as { name?: unknown }).name !== 'TypeError') throw error;
    }
  }
  return db.transaction(STORES, mode);
}

/** Opens (creating if needed) the journal database of `workspace`; `unavailable` when blocked or refused. */
function openJournalDb(factory: IDBFactory, workspace: string): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    let request: IDBOpenDBRequest;
    try {
      request = factory.open(JOURNAL_DB_PREFIX + workspace, DB_VERSION);
    } catch (error) {
      reject(storageError(error, `opening the change journal of workspace "${workspace}"`));
      return;
    }
    request.onupgradeneeded = () => {
      for (const name of STORES) if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name);
    };
    request.onblocked = () =>
      reject(new ToolError('unavailable', `opening the change journal of workspace "${workspace}" is blocked: another tab holds an older version of it open; close the other tabs of this site and retry`));
    request.onerror = () => reject(storageError(request.error, `opening the change journal of workspace "${workspace}"`));
    request.onsuccess = () => {
      const db = request.result;
      // Another tab deleting the workspace: let it proceed.
      db.onversionchange = () => db.close();
      resolve(db);
    };
  });
}
