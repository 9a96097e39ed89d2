import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ToolError } from '../src/core/errors.js';
import { KeyedMutex } from '../src/core/locks.js';
import type { JsonValue, StateStore } from '../src/core/types.js';

/** Version written into every state file. */
const FORMAT_VERSION = 1;

/** Longest encoded conversation id used as a file name as is; longer ids are hashed (NAME_MAX is 255 bytes). */
const MAX_PLAIN_NAME = 180;

interface StateFile {
  version: number;
  conversationId: string;
  state: Record<string, JsonValue>;
}

/**
 * The file name (no directory) that holds conversation `conversationId`: its `encodeURIComponent`
 * form with `.`, `*` and the other characters that `encodeURIComponent` leaves alone but that mean
 * something to a shell or a filesystem also escaped, plus `.json`. It never contains `/` or NUL and
 * never equals `.` or `..`, so no id can name a file outside the state directory. Ids whose encoded
 * form exceeds 180 characters become `~<prefix>-<sha256>.json`.
 */
export function stateFileName(conversationId: string): string {
  const encoded = encodeURIComponent(conversationId).replace(
    /[.!'()*~]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
  if (encoded.length <= MAX_PLAIN_NAME) return `${encoded}.json`;
  const digest = createHash('sha256').update(conversationId, 'utf8').digest('hex');
  return `~${encoded.slice(0, 64)}-${digest}.json`;
}

/**
 * Tool state on disk: one JSON file per conversation under `stateDir`
 * (`{ version: 1, conversationId, state: { key: value } }`, name from {@link stateFileName}).
 *
 * Every change rewrites the conversation's file atomically: the new content goes to a temporary
 * file in the same directory, is fsynced, renamed over the old file, and the directory is fsynced,
 * so a reader (this process or the next one) sees the whole old or the whole new state and an
 * acknowledged write survives a crash. `setMany` is one such write. Operations on one conversation
 * are serialised within the process; two processes writing one conversation at once: last writer wins.
 * The directory is created on first write. Values are stored as JSON (never aliasing the caller's objects).
 *
 * Errors: the filesystem's (`EACCES`, `ENOSPC`, ... with Node's `code`); a state file that is not
 * valid JSON rejects with a ToolError `execution_failed` naming the file.
 */
export class FileStateStore implements StateStore {
  /** Absolute directory holding the state files. */
  readonly dir: string;
  readonly #locks = new KeyedMutex();

  constructor(stateDir: string) {
    if (typeof stateDir !== 'string' || stateDir.length === 0 || stateDir.includes('\0')) {
      throw new ToolError('invalid_arguments', 'stateDir must be a non-empty directory path');
    }
    this.dir = resolve(stateDir);
  }

  /** Absolute path of the file holding `conversationId`. */
  pathFor(conversationId: string): string {
    return join(this.dir, stateFileName(conversationId));
  }

  async #read(conversationId: string): Promise<Map<string, JsonValue>> {
    const path = this.pathFor(conversationId);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return new Map();
      throw error;
    }
    let parsed: StateFile;
    try {
      parsed = JSON.parse(text) as StateFile;
    } catch (error) {
      throw new ToolError('execution_failed', `state file ${path} is not valid JSON (${(error as Error).message}); move it aside to start this conversation's state afresh`);
    }
    // Object.entries keeps a `__proto__` key as data; a Map never touches a prototype.
    return new Map(Object.entries(parsed.state ?? {}));
  }

  async #write(conversationId: string, state: Map<string, JsonValue>): Promise<void> {
    const path = this.pathFor(conversationId);
    if (state.size === 0) {
      await rm(path, { force: true });
      return;
    }
    await mkdir(this.dir, { recursive: true });
    const body: StateFile = { version: FORMAT_VERSION, conversationId, state: Object.fromEntries(state) };
    const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify(body), 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
    await syncDirectory(this.dir);
  }

  async get(conversationId: string, key: string): Promise<JsonValue | undefined> {
    return (await this.#read(conversationId)).get(key);
  }

  async set(conversationId: string, key: string, value: JsonValue): Promise<void> {
    await this.setMany(conversationId, [[key, value]]);
  }

  async delete(conversationId: string, key: string): Promise<void> {
    await this.setMany(conversationId, [[key, undefined]]);
  }

  async keys(conversationId: string): Promise<string[]> {
    return [...(await this.#read(conversationId)).keys()];
  }

  async getAll(conversationId: string): Promise<Record<string, JsonValue>> {
    return Object.fromEntries(await this.#read(conversationId));
  }

  async setMany(
    conversationId: string,
    entries: ReadonlyArray<readonly [string, JsonValue | undefined]>,
  ): Promise<void> {
    // Serialise first so a value that cannot be stored fails before anything is written.
    const encoded = entries.map(([key, value]) => [key, value === undefined ? undefined : JSON.stringify(value)] as const);
    await this.#locks.run(conversationId, async () => {
      const state = await this.#read(conversationId);
      let changed = false;
      for (const [key, text] of encoded) {
        if (text === undefined) changed = state.delete(key) || changed;
        else {
          state.set(key, JSON.parse(text) as JsonValue);
          changed = true;
        }
      }
      if (changed) await this.#write(conversationId, state);
    });
  }

  /** Conversation ids that have a state file (read from the files themselves). */
  async conversations(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return [];
      throw error;
    }
    const ids: string[] = [];
    for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
      try {
        const parsed = JSON.parse(await readFile(join(this.dir, name), 'utf8')) as StateFile;
        if (typeof parsed.conversationId === 'string') ids.push(parsed.conversationId);
      } catch {
        // not a state file, or removed meanwhile
      }
    }
    return ids;
  }
}

/** fsync a directory so a rename in it is durable (a no-op where directories cannot be opened). */
async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // some filesystems refuse fsync on directories (EINVAL/EISDIR); the rename is still atomic
  } finally {
    await handle?.close();
  }
}
