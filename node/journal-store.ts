// A change journal's store in a directory: it outlives the process, as the Node platform's files do.
import { createHash, randomUUID } from 'node:crypto';
import { link, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ToolError } from '../src/core/errors.js';
import { makeDirectories } from './fs/make-dirs.js';
import { readStoreFile, storeFileCheck, type Refusal } from './fs/store-file.js';
import type { JournalStore, StoredTurn } from '../src/journal/store.js';

/** Bytes of blobs a {@link FileJournalStore} keeps in memory as well. */
const CACHE_BYTES = 16 * 1024 * 1024;

/** Bytes of a blob read at most: as much as one read of a file gives (a larger file is never kept whole). */
const MAX_BLOB_BYTES = 2 ** 31 - 1;

/** Bytes of a turn record read at most (a record names files and hashes: some hundred bytes each). */
const MAX_TURN_BYTES = 256 * 1024 * 1024;

/** The error of a journal file that is not read: not a regular file (`unavailable`), or too large (`too_large`). */
function refusedJournalFile(path: string, refusal: Refusal): ToolError {
  return new ToolError(
    refusal.tooLarge ? 'too_large' : 'unavailable',
    `the journal file ${path} is not read: ${refusal.reason}; remove it, or keep the journal in another directory (createNodePlatform's journalDir)`,
  );
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** The errors of a file system that makes no hard links (FAT, some network shares): a turn is then created with `O_EXCL`. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

/** A record's name: `<conversation hash>.<turn>.json`. */
const RECORD_NAME = /^([0-9a-f]{32})\.([1-9][0-9]*)\.json$/;

/** The name part of `conversationId` in its records' file names. */
function conversationKey(conversationId: string): string {
  return createHash('sha256').update(conversationId).digest('hex').slice(0, 32);
}

/**
 * A {@link JournalStore} in a directory: `blobs/<sha256 hex>` (one file per content) and
 * `turns/<conversation hash>.<turn>.json`, and `rewinds/` for a rewind under way (so a journal that
 * loads after a crash finishes it). Every file is written to a temporary name and renamed (a new turn:
 * linked, so a number another writer holds is never overwritten), so after a crash each is whole or
 * absent. Several runners and processes may share one directory (see {@link createTurn}). Give it to
 * `createChangeJournal(platform, setup, { store })` and call the journal's `load()` to take up what an
 * earlier process left.
 */
export class FileJournalStore implements JournalStore {
  /** The directory (made on the first write). */
  readonly dir: string;
  /** Blobs put or read lately (newest last), at most {@link CACHE_BYTES}: a rewind in the same process reads them from memory. */
  readonly #cache = new Map<string, Uint8Array>();
  #cacheBytes = 0;

  constructor(dir: string) {
    if (typeof dir !== 'string' || dir.length === 0) throw new TypeError(`FileJournalStore: dir must be a directory path, not ${JSON.stringify(dir)}`);
    this.dir = dir;
  }

  #blobPath(hash: string): string {
    if (!/^sha256:[0-9a-f]{64}$/.test(hash)) throw new TypeError(`FileJournalStore: ${JSON.stringify(hash)} is not a sha256:<hex> image`);
    return join(this.dir, 'blobs', hash.slice('sha256:'.length));
  }

  /** Per folder (`turns`, `rewinds`), the records read by name: a listing reads only new files (and records of no calls, which a rewind replaces). */
  readonly #listed = new Map<string, Map<string, StoredTurn | undefined>>();
  /** The `turns` folder's stamp when this store last listed or changed it (see {@link createTurn}). */
  #turnsStamp: string | undefined;
  /** Per conversation key, the turn numbers whose records the last listing of `turns` found damaged. */
  #damaged = new Map<string, number[]>();

  #turnPath(conversationId: string, turn: number, folder = 'turns'): string {
    return join(this.dir, folder, `${conversationKey(conversationId)}.${turn}.json`);
  }

  /** Writes `path` whole through a temporary file; `sync` flushes the bytes to the disk before the rename. */
  async #write(path: string, data: Uint8Array | string, sync = false): Promise<void> {
    // Not mkdir's own recursive form, which never returns under /proc.
    makeDirectories(dirname(path));
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      if (sync) {
        const handle = await open(temporary, 'w');
        try {
          await handle.writeFile(data);
          await handle.datasync();
        } finally {
          await handle.close();
        }
      } else await writeFile(temporary, data);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  #remember(hash: string, bytes: Uint8Array): void {
    const old = this.#cache.get(hash);
    if (old !== undefined) {
      this.#cache.delete(hash);
      this.#cacheBytes -= old.byteLength;
    }
    if (bytes.byteLength > CACHE_BYTES / 4) return;
    this.#cache.set(hash, bytes);
    this.#cacheBytes += bytes.byteLength;
    for (const [oldest, entry] of this.#cache) {
      if (this.#cacheBytes <= CACHE_BYTES) break;
      this.#cache.delete(oldest);
      this.#cacheBytes -= entry.byteLength;
    }
  }

  async putBlob(hash: string, bytes: Uint8Array): Promise<void> {
    const path = this.#blobPath(hash);
    if (this.#cache.has(hash)) return;
    try {
      await stat(path);
      return;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    await this.#write(path, bytes);
    this.#remember(hash, bytes);
  }

  async getBlob(hash: string): Promise<Uint8Array | undefined> {
    const path = this.#blobPath(hash);
    const cached = this.#cache.get(hash);
    if (cached !== undefined) return cached;
    try {
      const buffer = await readStoreFile(path, storeFileCheck(MAX_BLOB_BYTES, refusedJournalFile));
      const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      this.#remember(hash, bytes);
      return bytes;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async deleteBlob(hash: string): Promise<void> {
    const old = this.#cache.get(hash);
    if (old !== undefined) {
      this.#cache.delete(hash);
      this.#cacheBytes -= old.byteLength;
    }
    await rm(this.#blobPath(hash), { force: true });
  }

  async putTurn(turn: StoredTurn): Promise<void> {
    const path = this.#turnPath(turn.conversationId, turn.turn);
    const current = (await folderStamp(dirname(path))) === this.#turnsStamp;
    await this.#write(path, JSON.stringify(turn));
    // A record written over (a turn replaced by a mark of dropped turns) is read again when listed.
    this.#listed.get(basename(dirname(path)))?.delete(basename(path));
    if (current) this.#turnsStamp = await folderStamp(dirname(path));
  }

  /**
   * Creates the turn's record only when no writer (a runner of this process or another) holds its
   * number: written whole to a temporary file, then hard-linked to its name, which fails when the name
   * is taken (where the file system makes no links: created with `O_EXCL`). Answers `'behind'` instead
   * when the `turns` folder changed since this store last listed or changed it (another writer added a
   * turn), unless `listed`.
   */
  async createTurn(turn: StoredTurn, listed = false): Promise<'created' | 'taken' | 'behind'> {
    const path = this.#turnPath(turn.conversationId, turn.turn);
    const folder = dirname(path);
    makeDirectories(folder);
    if (!listed && (await folderStamp(folder)) !== this.#turnsStamp) return 'behind';
    try {
      return (await this.#createRecord(path, JSON.stringify(turn))) ? 'created' : 'taken';
    } finally {
      this.#turnsStamp = await folderStamp(folder);
    }
  }

  /** Creates `path` holding `data` unless there is a file there; answers whether it did. */
  async #createRecord(path: string, data: string): Promise<boolean> {
    const temporary = `${path}.${randomUUID()}.tmp`;
    await writeFile(temporary, data, { flag: 'wx' });
    try {
      await link(temporary, path);
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      if (!NO_LINKS.has(errorCode(error) as string)) throw error;
    } finally {
      await rm(temporary, { force: true });
    }
    try {
      await writeFile(path, data, { flag: 'wx' });
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      throw error;
    }
  }

  async deleteTurn(conversationId: string, turn: number): Promise<void> {
    const path = this.#turnPath(conversationId, turn);
    const current = (await folderStamp(dirname(path))) === this.#turnsStamp;
    await rm(path, { force: true });
    if (current) this.#turnsStamp = await folderStamp(dirname(path));
  }

  async listTurns(): Promise<StoredTurn[]> {
    return this.#list('turns');
  }

  /** The turn numbers of `conversationId` whose files the last listing found damaged (see {@link listTurns}). */
  damagedTurns(conversationId: string): number[] {
    return this.#damaged.get(conversationKey(conversationId)) ?? [];
  }

  /** Kept under `rewinds/`, flushed to the disk before the rewind's first write. */
  async putRewind(turn: StoredTurn): Promise<void> {
    await this.#write(this.#turnPath(turn.conversationId, turn.turn, 'rewinds'), JSON.stringify(turn), true);
  }

  async listRewinds(): Promise<StoredTurn[]> {
    return this.#list('rewinds');
  }

  async deleteRewind(conversationId: string, turn: number): Promise<void> {
    await rm(this.#turnPath(conversationId, turn, 'rewinds'), { force: true });
  }

  /**
   * The turn records of `folder`, in `seq` order; temporary files and damaged records are left out: one
   * that cannot be read or parsed, or whose conversation or turn number is not the one its file name
   * says (its turn then counts as lost when the journal loads). A record listed before is not read
   * again (records are written once), but for one of no calls that is no mark of dropped turns (a
   * rewind replaces it) or a damaged one.
   */
  async #list(folder: string): Promise<StoredTurn[]> {
    const stamp = folder === 'turns' ? await folderStamp(join(this.dir, folder)) : undefined;
    let names: string[];
    try {
      names = await readdir(join(this.dir, folder));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const before = this.#listed.get(folder);
    const listed = new Map<string, StoredTurn | undefined>();
    const damaged = new Map<string, number[]>();
    const turns: StoredTurn[] = [];
    for (const name of names) {
      const named = RECORD_NAME.exec(name);
      if (named === null) continue;
      const known = before?.get(name);
      const record = Array.isArray(known?.calls) && (known.calls.length > 0 || known.dropped === true) ? known : await readRecord(join(this.dir, folder, name), named[1] as string, Number(named[2]));
      listed.set(name, record);
      if (record !== undefined) turns.push(record);
      else damaged.set(named[1] as string, [...(damaged.get(named[1] as string) ?? []), Number(named[2])]);
    }
    this.#listed.set(folder, listed);
    if (folder === 'turns') {
      this.#turnsStamp = stamp;
      this.#damaged = damaged;
    }
    return turns.sort((a, b) => a.seq - b.seq);
  }
}

/** A folder's stamp (modification and change times, size, inode): adding or removing a name in it changes it. */
async function folderStamp(path: string): Promise<string | undefined> {
  try {
    const found = await stat(path, { bigint: true });
    return `${found.mtimeNs}:${found.ctimeNs}:${found.size}:${found.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * The record at `path`, when it is one of conversation key `key`, turn `turn`; else (unreadable, not
 * a regular file: a FIFO is not waited on, not JSON, another conversation's or turn's) undefined.
 */
async function readRecord(path: string, key: string, turn: number): Promise<StoredTurn | undefined> {
  try {
    const text = (await readStoreFile(path, storeFileCheck(MAX_TURN_BYTES, refusedJournalFile))).toString('utf8');
    const record = JSON.parse(text) as Partial<StoredTurn> | null;
    if (typeof record !== 'object' || record === null || typeof record.conversationId !== 'string') return undefined;
    return record.turn === turn && conversationKey(record.conversationId) === key ? (record as StoredTurn) : undefined;
  } catch {
    return undefined;
  }
}
