// A change journal's store in a directory: it outlives the process, as the Node platform's files do.
import { createHash, randomUUID } from 'node:crypto';
import { open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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

/**
 * A {@link JournalStore} in a directory: `blobs/<sha256 hex>` (one file per content) and
 * `turns/<conversation hash>.<turn>.json`, and `rewinds/` for a rewind under way (so a journal that
 * loads after a crash finishes it). Every file is written to a temporary name and renamed, so after a
 * crash each is whole or absent. Give it to `createChangeJournal(platform, setup, { store })`
 * and call the journal's `load()` to take up what an earlier process left.
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

  #turnPath(conversationId: string, turn: number, folder = 'turns'): string {
    const name = createHash('sha256').update(conversationId).digest('hex').slice(0, 32);
    return join(this.dir, folder, `${name}.${turn}.json`);
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
    await this.#write(this.#turnPath(turn.conversationId, turn.turn), JSON.stringify(turn));
  }

  async deleteTurn(conversationId: string, turn: number): Promise<void> {
    await rm(this.#turnPath(conversationId, turn), { force: true });
  }

  async listTurns(): Promise<StoredTurn[]> {
    return this.#list('turns');
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

  /** The turn records of `folder`, in `seq` order; temporary files and unreadable records are left out. */
  async #list(folder: string): Promise<StoredTurn[]> {
    let names: string[];
    try {
      names = await readdir(join(this.dir, folder));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const turns: StoredTurn[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      try {
        const text = (await readStoreFile(join(this.dir, folder, name), storeFileCheck(MAX_TURN_BYTES, refusedJournalFile))).toString('utf8');
        turns.push(JSON.parse(text) as StoredTurn);
      } catch {
        // A record that cannot be read (or is not a regular file: a FIFO is not waited on) is left out:
        // its turn counts as dropped when the journal loads.
      }
    }
    return turns.sort((a, b) => a.seq - b.seq);
  }
}
