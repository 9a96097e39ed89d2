// The journal's data model, shared by the journal and its rewind (so neither imports the other).
import { hashBytes as sha256Hex } from '../core/file-cache.js';
import type { Platform } from '../core/platform.js';
import type { StoredCall, StoredFileChange, StoredTurn } from './store.js';

/**
 * The image of `bytes`: `'sha256:<hex>'`. Hashed as the file cache hashes: with the platform's
 * synchronous SHA-256 where one is provided (toolhost/node gives node:crypto's, several times faster
 * than WebCrypto there, which goes through Node's thread pool), else WebCrypto.
 */
export async function hashBytes(bytes: Uint8Array): Promise<string> {
  return `sha256:${await sha256Hex(bytes)}`;
}

/** Whether an image names kept content (not `'absent'` or `'unknown'`). */
export function isContent(image: string): boolean {
  return image.startsWith('sha256:');
}

/** One conversation's journal: its turn counter, the turns held, and the last one dropped. */
export interface ConversationJournal {
  /** The last turn number given (turns that changed nothing count too). */
  last: number;
  /** The turns held that changed files, oldest first. */
  turns: StoredTurn[];
  /** The last turn dropped: to keep within the budget, or because it (or one after it) was lost. */
  droppedThrough?: number;
  /**
   * The last turn lost: its record or a file content it refers to missing or damaged in the store, or
   * the turn could not be stored. It and every turn before it count as dropped.
   */
  lostThrough?: number;
  /** The number of the mark of dropped turns this journal keeps in the store for the conversation (see {@link StoredTurn.dropped}). */
  mark?: number;
  /** The last turn the store failed to keep (a write of its record or of a file content failed), and why. */
  unstored?: { turn: number; reason: string };
}

/** Whether `value` has a stored turn's shape (a record read back from a store may be damaged). */
export function isStoredTurn(value: unknown): value is StoredTurn {
  const turn = value as Partial<StoredTurn> | null;
  if (typeof turn !== 'object' || turn === null || typeof turn.conversationId !== 'string') return false;
  if (!Number.isSafeInteger(turn.turn) || (turn.turn as number) < 1 || typeof turn.seq !== 'number' || typeof turn.at !== 'number') return false;
  if (turn.prev !== undefined && !(Number.isSafeInteger(turn.prev) && turn.prev >= 0 && turn.prev < (turn.turn as number))) return false;
  if (!Array.isArray(turn.calls)) return false;
  return turn.calls.every(
    (call: Partial<StoredCall> | null) =>
      typeof call === 'object' && call !== null && typeof call.callId === 'string' && typeof call.tool === 'string' && Array.isArray(call.files) && call.files.every(isStoredFileChange),
  );
}

function isStoredFileChange(value: unknown): boolean {
  const file = value as Partial<StoredFileChange> | null;
  const image = (text: unknown): boolean => text === 'absent' || text === 'unknown' || (typeof text === 'string' && /^sha256:[0-9a-f]{64}$/.test(text));
  return typeof file === 'object' && file !== null && typeof file.path === 'string' && image(file.before) && image(file.after);
}

/** What a rewind uses of the journal. */
export interface JournalInternals {
  readonly platform: Platform;
  /** The journal of `conversationId`, made empty on first use. */
  conversation(conversationId: string): ConversationJournal;
  /** The bytes of a kept image, or undefined when they are not held. */
  blob(image: string): Promise<Uint8Array | undefined>;
  /** Keeps `bytes` as a blob and takes one reference to it; answers its image. */
  retain(bytes: Uint8Array): Promise<string>;
  /** {@link retain} of bytes whose image (`'sha256:<hex>'`) is known already. */
  retainHashed(image: string, bytes: Uint8Array): Promise<void>;
  /** Lets go of one reference; the blob goes when none is left. */
  release(image: string): void;
  /** Adds a turn of `calls` (when any) to the conversation, referencing its images, then applies the budget. */
  record(conversationId: string, turn: number, calls: StoredCall[]): StoredTurn | undefined;
  /** Takes the next turn for a rewind of `files`; a durable store keeps it as under way before any write. */
  beginRewind(conversationId: string, files: StoredFileChange[]): Promise<StoredTurn>;
  /** Records the rewind's turn (`done`) or gives its number back, and forgets it as under way. */
  endRewind(turn: StoredTurn, done: boolean): void;
  /** Notes a path the rewind writes, so a command running meanwhile does not count the write as its own. */
  noteWrite?(path: string): void;
}
