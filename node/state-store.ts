import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import { makeDirectories } from './fs/make-dirs.js';
import { READ_FLAGS } from './fs/read.js';
import { readStoreFile, storeFileCheck, type Refusal } from './fs/store-file.js';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ToolError } from '../src/core/errors.js';
import { KeyedMutex } from '../src/core/locks.js';
import { is } from '../src/core/options.js';
import type { JsonValue, StateLease, StateSnapshot, StateStore, StateWaitOptions } from '../src/core/types.js';
import { createFileLocks, type FileLock } from './file-lock.js';

/** Version written into every state file. */
const FORMAT_VERSION = 1;

/** Longest encoded conversation id used as a file name as is; longer ids are hashed (NAME_MAX is 255 bytes). */
const MAX_PLAIN_NAME = 180;

interface StateFile {
  version: number;
  conversationId: string;
  /** New on every write: the conversation's version for `snapshot` and `lock`. */
  revision?: string;
  state: Record<string, JsonValue>;
}

/**
 * Bytes of a state file read at most (and written at most): a larger file is refused unread, so a
 * large file that is not a state file cannot fill the memory. Half of the longest string V8 makes.
 */
export const MAX_STATE_FILE_BYTES = 256 * 1024 * 1024;

/** The version of a conversation that has no state file. */
const NO_FILE = 'none';

/**
 * How much of a state file `snapshot` reads to find its revision: the revision is written right after
 * the conversation id, so this covers every id up to about 4,000 characters.
 */
const HEAD_BYTES = 4096;

/** Reused by every head read (they are synchronous, so never two at once). */
const head = Buffer.alloc(HEAD_BYTES);

/**
 * The revision in the head of a state file as {@link FileStateStore} writes it
 * (`{"version":1,"conversationId":"…","revision":"…",` then the state), or undefined when the head
 * does not have that shape or ends before the revision.
 */
function revisionInHead(text: string): string | undefined {
  const start = `{"version":${FORMAT_VERSION},"conversationId":"`;
  if (!text.startsWith(start)) return undefined;
  // The id is a JSON string: it ends at the first quote that is not escaped.
  let at = start.length;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c === 0x22) break;
    at += c === 0x5c ? 2 : 1;
  }
  return /^","revision":"([A-Za-z0-9_-]+)",/.exec(text.slice(at))?.[1];
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
 * acknowledged write survives a crash. `setMany` is one such write. Every read-modify-write of a
 * conversation holds its lock: a mutex within the process and a lock file (`createFileLocks`, in the
 * state directory, `.lock` names) across processes, so processes sharing the directory lose no write.
 * `snapshot` and `lock` (each file carries a `revision`, new on every write) make the runner take the
 * lock around each state-changing call and commit that call's keys through it, as with Redis.
 * The directory is created on first write. Values are stored as JSON (never aliasing the caller's objects).
 *
 * Errors: the filesystem's (`EACCES`, `ENOSPC`, ... with Node's `code`); a state file that is not
 * valid JSON rejects with a ToolError `execution_failed` naming the file; a wait for the lock past
 * the deadline rejects with `timeout`. A `stateDir` that is not a non-empty path (the host's mistake)
 * throws a TypeError at construction: `FileStateStore: stateDir must be a non-empty path without NUL
 * bytes, not 5`.
 */
export class FileStateStore implements StateStore {
  /** Absolute directory holding the state files. */
  readonly dir: string;
  readonly #locks = new KeyedMutex();
  readonly #fileLock: FileLock;

  constructor(stateDir: string) {
    const problem = is.path(stateDir, 'stateDir');
    if (problem) throw new TypeError(`FileStateStore: ${problem}`);
    this.dir = resolve(stateDir);
    this.#fileLock = createFileLocks({ dir: this.dir });
  }

  /**
   * Creates the directory when missing and writes (then removes) a probe file in it; throws a
   * ToolError `unavailable` naming the directory and what to do when that fails (a file in the way,
   * no permission, a read-only filesystem). `createNodePlatform` calls it, so a state directory that
   * cannot be written is refused at once instead of failing every call.
   */
  checkWritable(): void {
    const probe = join(this.dir, `.probe.${process.pid}.${randomBytes(6).toString('hex')}`);
    try {
      makeDirectories(this.dir);
      closeSync(openSync(probe, 'wx', 0o600));
      unlinkSync(probe);
    } catch (error) {
      throw unwritable(this.dir, error);
    }
  }

  /** Runs `fn` holding `conversationId`'s lock within the process and across processes. */
  #exclusive<T>(conversationId: string, fn: () => Promise<T>, options?: StateWaitOptions): Promise<T> {
    return this.#locks.run(conversationId, async () => {
      const release = await this.#takeFileLock(conversationId, options);
      try {
        return await fn();
      } finally {
        await release();
      }
    });
  }

  async #takeFileLock(conversationId: string, options: StateWaitOptions | undefined): Promise<() => Promise<void>> {
    if (options?.deadline === undefined) return this.#fileLock(conversationId, options?.signal);
    const controller = new AbortController();
    const late = new ToolError('timeout', `the state of conversation ${JSON.stringify(conversationId)} stayed locked by another process past the deadline; retry the call`);
    const timer = setTimeout(() => controller.abort(late), Math.max(0, options.deadline - Date.now()));
    const onAbort = (): void => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.#fileLock(conversationId, controller.signal);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Absolute path of the file holding `conversationId`. */
  pathFor(conversationId: string): string {
    return join(this.dir, stateFileName(conversationId));
  }

  async #read(conversationId: string): Promise<Map<string, JsonValue>> {
    return (await this.#readVersioned(conversationId)).state;
  }

  async #readVersioned(conversationId: string): Promise<{ state: Map<string, JsonValue>; revision: string }> {
    const path = this.pathFor(conversationId);
    let text: string;
    try {
      text = (await readStoreFile(path, storeFileCheck(MAX_STATE_FILE_BYTES, refusedStateFile))).toString('utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return { state: new Map(), revision: NO_FILE };
      throw error;
    }
    let parsed: StateFile;
    try {
      parsed = JSON.parse(text) as StateFile;
    } catch (error) {
      throw new ToolError('execution_failed', `state file ${path} is not valid JSON (${(error as Error).message}); move it aside to start this conversation's state afresh`);
    }
    // Object.entries keeps a `__proto__` key as data; a Map never touches a prototype.
    // A file written before revisions existed gets one from its length (it changes when rewritten).
    return { state: new Map(Object.entries(parsed.state ?? {})), revision: typeof parsed.revision === 'string' ? parsed.revision : `len-${text.length}` };
  }

  /** Writes the conversation's state; resolves with its new revision. */
  async #write(conversationId: string, state: Map<string, JsonValue>): Promise<string> {
    try {
      return await this.#writeFile(conversationId, state);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'EEXIST') throw unwritable(this.dir, error);
      throw error;
    }
  }

  async #writeFile(conversationId: string, state: Map<string, JsonValue>): Promise<string> {
    const path = this.pathFor(conversationId);
    if (state.size === 0) {
      await rm(path, { force: true });
      return NO_FILE;
    }
    makeDirectories(this.dir);
    const revision = randomBytes(9).toString('base64url');
    const body: StateFile = { version: FORMAT_VERSION, conversationId, revision, state: Object.fromEntries(state) };
    const text = JSON.stringify(body);
    // Never a file this store would refuse to read back.
    if (text.length > MAX_STATE_FILE_BYTES / 3 && Buffer.byteLength(text, 'utf8') > MAX_STATE_FILE_BYTES) {
      throw new ToolError('too_large', `the state of conversation ${JSON.stringify(conversationId)} would take ${Buffer.byteLength(text, 'utf8')} bytes, more than the ${MAX_STATE_FILE_BYTES} a state file holds; delete the keys it no longer needs`);
    }
    const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
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
    return revision;
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
    await this.#exclusive(conversationId, async () => {
      const state = await this.#read(conversationId);
      if (apply(state, encoded)) await this.#write(conversationId, state);
    });
  }

  /**
   * The conversation's revision, and its state unless the revision equals `knownVersion` (no lock).
   * With a `knownVersion`, the revision is first read from the file's first 4 KiB (synchronously, as the
   * lock files are taken: a few µs from the page cache), and a file still at that revision is neither
   * read further nor parsed; so a read-only call costs one small read however large the state.
   */
  async snapshot(conversationId: string, knownVersion: string | undefined): Promise<StateSnapshot> {
    if (knownVersion !== undefined && this.#headRevision(conversationId) === knownVersion) return { version: knownVersion };
    const { state, revision } = await this.#readVersioned(conversationId);
    return revision === knownVersion ? { version: revision } : { version: revision, state: Object.fromEntries(state) };
  }

  /** The revision in the head of the conversation's file ('none' when there is none); undefined when it cannot tell. */
  #headRevision(conversationId: string): string | undefined {
    let fd: number;
    try {
      // Without waiting: a FIFO at the name would never answer a read (the full read refuses it).
      fd = openSync(this.pathFor(conversationId), READ_FLAGS);
    } catch (error) {
      return (error as { code?: unknown }).code === 'ENOENT' ? NO_FILE : undefined;
    }
    try {
      if (!fstatSync(fd).isFile()) return undefined;
      const length = readSync(fd, head, 0, HEAD_BYTES, 0);
      return revisionInHead(head.toString('utf8', 0, length));
    } catch {
      return undefined; // the full read reports it
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Takes the conversation's lock (in-process mutex, then its lock file), waiting while another holder
   * has it until `options.deadline` (`timeout`) or `options.signal`; the lease's `commit` writes the
   * entries onto the state read under the lock and releases it.
   */
  async lock(conversationId: string, knownVersion: string | undefined, options?: StateWaitOptions): Promise<StateLease> {
    let leave!: () => void;
    const held = new Promise<void>((resolve) => {
      leave = resolve;
    });
    let granted!: (lease: StateLease) => void;
    let refused!: (error: unknown) => void;
    const leased = new Promise<StateLease>((resolve, reject) => {
      granted = resolve;
      refused = reject;
    });
    const done = this.#exclusive(
      conversationId,
      async () => {
        const { state, revision } = await this.#readVersioned(conversationId);
        let settled = false;
        let committed: Promise<string> | undefined;
        const lease: StateLease = {
          version: revision,
          ...(revision === knownVersion ? {} : { state: Object.fromEntries(state) }),
          commit: (entries) => {
            if (settled) return Promise.reject(new ToolError('unavailable', 'this state lease was already committed or released'));
            settled = true;
            const encoded = entries.map(([key, value]) => [key, value === undefined ? undefined : JSON.stringify(value)] as const);
            committed = (async () => (apply(state, encoded) ? this.#write(conversationId, state) : revision))();
            committed.then(leave, leave);
            return committed;
          },
          release: async () => {
            if (settled) return;
            settled = true;
            leave();
          },
        };
        granted(lease);
        await held;
      },
      options,
    );
    done.catch(refused);
    return leased;
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
        const parsed = JSON.parse((await readStoreFile(join(this.dir, name), storeFileCheck(MAX_STATE_FILE_BYTES, refusedStateFile))).toString('utf8')) as StateFile;
        if (typeof parsed.conversationId === 'string') ids.push(parsed.conversationId);
      } catch {
        // not a state file, or removed meanwhile
      }
    }
    return ids;
  }
}

/** Applies `[key, JSON text | undefined]` entries to `state`; true when anything changed. */
function apply(state: Map<string, JsonValue>, encoded: ReadonlyArray<readonly [string, string | undefined]>): boolean {
  let changed = false;
  for (const [key, text] of encoded) {
    if (text === undefined) changed = state.delete(key) || changed;
    else {
      state.set(key, JSON.parse(text) as JsonValue);
      changed = true;
    }
  }
  return changed;
}

/** The error of a state file that is not read: not a regular file (`unavailable`), or too large (`too_large`). */
function refusedStateFile(path: string, refusal: Refusal): ToolError {
  return new ToolError(
    refusal.tooLarge ? 'too_large' : 'unavailable',
    `the state file ${path} is not read: ${refusal.reason}; ${refusal.tooLarge ? "move it aside to start this conversation's state afresh" : 'remove it'}, or keep the state in another directory (--state-dir, or createNodePlatform's stateDir)`,
  );
}

/** The error of a state directory that cannot be written, naming it and what to do. */
function unwritable(dir: string, error: unknown): ToolError {
  const code = (error as { code?: unknown }).code;
  return new ToolError(
    'unavailable',
    `the state directory ${dir} cannot be written (${typeof code === 'string' ? code : String(error)}); give createNodePlatform a stateDir that is a writable directory (or a path where one can be created)`,
  );
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
