// The state-store port: where tool state lives between calls (memory, IndexedDB, a file, Redis).
import type { JsonValue } from './json.js';

/**
 * Tool state storage, async, keyed by conversation then key. Values are JSON.
 * `setMany` must commit all its entries together (one transaction / one atomic file write).
 */
export interface StateStore {
  get(conversationId: string, key: string): Promise<JsonValue | undefined>;
  set(conversationId: string, key: string, value: JsonValue): Promise<void>;
  delete(conversationId: string, key: string): Promise<void>;
  keys(conversationId: string): Promise<string[]>;
  /** Every key of the conversation with its value (one read). */
  getAll(conversationId: string): Promise<Record<string, JsonValue>>;
  /** Sets and deletes (`undefined` value) several keys in one commit. */
  setMany(conversationId: string, entries: ReadonlyArray<readonly [string, JsonValue | undefined]>): Promise<void>;
  /**
   * Present (with `lock`) on a store that several processes share, such as Redis: a conversation's
   * current version, and its whole state unless the version equals `knownVersion`. The runner calls it
   * before each read-only call with context, so such calls see other processes' commits and never wait.
   */
  snapshot?(conversationId: string, knownVersion: string | undefined, options?: StateWaitOptions): Promise<StateSnapshot>;
  /**
   * Takes the conversation's lock across processes (waiting while another holder has it) and answers
   * like `snapshot`. The runner takes it before each state-changing call with context and commits that
   * call's keys through the lease, so two processes never interleave a read-modify-write of one
   * conversation. Rejects with `timeout` when the lock stays busy past the deadline, `unavailable`
   * when the store cannot be reached.
   */
  lock?(conversationId: string, knownVersion: string | undefined, options?: StateWaitOptions): Promise<StateLease>;
}

/** How long a shared store's operation may wait: `deadline` in ms since the epoch, `signal` to give up early. */
export interface StateWaitOptions {
  deadline?: number;
  signal?: AbortSignal;
}

/** A conversation's state version (an opaque string, new on every commit) and, when asked for, its state. */
export interface StateSnapshot {
  version: string;
  /** Absent when the version equals the one the caller knew. */
  state?: Record<string, JsonValue>;
}

/** A held conversation lock: the state as of taking it, and one commit or release. */
export interface StateLease extends StateSnapshot {
  /**
   * Sets and deletes (`undefined`) keys in one commit, applied only while this lease still holds the
   * lock, then releases it; resolves with the new version. Rejects with `unavailable` when nothing was
   * stored (the store unreachable, the lease lost), or, with `details: { outcome: 'unknown' }`, when the
   * store cannot learn by the deadline whether the commit was applied.
   */
  commit(entries: ReadonlyArray<readonly [string, JsonValue | undefined]>, options?: StateWaitOptions): Promise<string>;
  /** Gives the lock back without a change; never rejects. */
  release(): Promise<void>;
}
