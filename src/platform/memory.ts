import { checkOptions, is, rule, stateStoreRule, type OptionRules } from '../core/options.js';
import { withoutStackTrace } from '../core/stack.js';
import { quoteForMessage } from '../fs/text.js';
import type { FsPromises, FsStats, JsonValue, Platform, StateStore } from '../core/types.js';
import { dirname, isInside, joinPath } from '../fs/paths.js';
import { MemoryFs } from '../fs/memfs.js';
import { tidyFsError } from '../fs/fs-errors.js';
import { createMemorySearchSource } from '../search/memory-source.js';
import { createSearchEngine } from '../search/engine.js';

/** Options of {@link createMemoryPlatform}. */
export interface MemoryPlatformOptions {
  /** Workspace root inside the in-memory filesystem: absolute, normalised (default `/workspace`). */
  root?: string;
  /**
   * Files to create before the first call: workspace-relative path, or absolute path under `root`, →
   * string or bytes. A key that leads outside `root` (`../x`, `/etc/x`: no tool could reach it), names
   * a folder, or collides with another key's folder throws a TypeError naming the key.
   */
  files?: Record<string, string | Uint8Array>;
  /** State store to use (default: a fresh {@link MemoryStateStore}). */
  state?: StateStore;
}

/** The checks of {@link MemoryPlatformOptions}. */
const MEMORY_PLATFORM_RULES: OptionRules = {
  root: rule('an absolute path such as /workspace', (v) => typeof v === 'string' && v.startsWith('/') && !v.includes('\0')),
  files: is.object,
  state: stateStoreRule,
};

/**
 * Tool state kept in memory, as JSON text per conversation and key (so stored values never alias the
 * tool's objects). Lost with the process; for tests and quick starts.
 */
export class MemoryStateStore implements StateStore {
  readonly #data = new Map<string, Map<string, string>>();

  #conversation(conversationId: string): Map<string, string> {
    let entries = this.#data.get(conversationId);
    if (!entries) {
      entries = new Map();
      this.#data.set(conversationId, entries);
    }
    return entries;
  }

  async get(conversationId: string, key: string): Promise<JsonValue | undefined> {
    const text = this.#data.get(conversationId)?.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  }

  async set(conversationId: string, key: string, value: JsonValue): Promise<void> {
    this.#conversation(conversationId).set(key, JSON.stringify(value));
  }

  async delete(conversationId: string, key: string): Promise<void> {
    this.#data.get(conversationId)?.delete(key);
  }

  async keys(conversationId: string): Promise<string[]> {
    return [...(this.#data.get(conversationId)?.keys() ?? [])];
  }

  async getAll(conversationId: string): Promise<Record<string, JsonValue>> {
    const out: Record<string, JsonValue> = {};
    for (const [key, text] of this.#data.get(conversationId) ?? []) out[key] = JSON.parse(text) as JsonValue;
    return out;
  }

  async setMany(
    conversationId: string,
    entries: ReadonlyArray<readonly [string, JsonValue | undefined]>,
  ): Promise<void> {
    const map = this.#conversation(conversationId);
    for (const [key, value] of entries) {
      if (value === undefined) map.delete(key);
      else map.set(key, JSON.stringify(value));
    }
  }
}

const FS_METHODS = [
  'readFile',
  'writeFile',
  'mkdir',
  'readdir',
  'stat',
  'lstat',
  'readlink',
  'symlink',
  'rename',
  'rm',
  'unlink',
] as const;

/**
 * An {@link FsPromises} whose methods first await `load()` (called once, on the first use), so creating
 * a platform does no work and loads no filesystem code until a tool touches a file. Once loaded, calls
 * go straight to the loaded filesystem. A failed load rejects that call and is retried on the next.
 */
export function lazyFs(load: () => Promise<FsPromises>): FsPromises {
  let loading: Promise<FsPromises> | undefined;
  let loaded: Record<string, (...a: unknown[]) => Promise<unknown>> | undefined;
  const get = (): Promise<FsPromises> => {
    loading ??= load().then(
      (target) => {
        loaded = target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
        return target;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const fs: Record<string, unknown> = {};
  for (const method of FS_METHODS) {
    fs[method] = (...args: unknown[]) => {
      if (loaded) return (loaded[method] as (...a: unknown[]) => Promise<unknown>)(...args);
      return get().then((target) => (target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!(...args));
    };
  }
  return fs as unknown as FsPromises;
}

/** The synchronous calls {@link fsFromSync} needs (a subset of `node:fs`, as {@link MemoryFs} has them). */
export interface SyncFsLike {
  readFileSync(path: string): Uint8Array;
  writeFileSync(path: string, data: Uint8Array | string): void;
  mkdirSync(path: string, options?: { recursive?: boolean }): unknown;
  readdirSync(path: string, options?: { withFileTypes: true }): unknown[];
  statSync(path: string): FsStats;
  lstatSync(path: string): FsStats;
  readlinkSync(path: string): string;
  symlinkSync(target: string, path: string): void;
  renameSync(oldPath: string, newPath: string): void;
  rmSync(path: string, options?: { recursive?: boolean; force?: boolean }): void;
  unlinkSync(path: string): void;
  /** Optional: at most `length` bytes of the file from `position`, as {@link FsPromises.readRange}. */
  readRangeSync?(path: string, position: number, length: number): Uint8Array;
}

/**
 * Runs `fn` now and settles a promise with its outcome. V8 stack capture is off meanwhile: a missing
 * path is an everyday answer (every created file is first looked up), and a stack inside the
 * filesystem tells the tools nothing. For the same reason a failure rejects one microtask later, once
 * the caller has awaited the promise: Chromium captures a stack for every promise rejected while it has
 * no handler yet (for its unhandled-rejection report), about 3 µs, where a later rejection costs 0.5.
 * `fn`'s change itself is complete when this returns, failure or not.
 */
function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(withoutStackTrace(fn));
  } catch (error) {
    // Messages as the tools show them: a path too long for the tree is named shortened (tidyFsError).
    const tidy = tidyFsError(error);
    return Promise.resolve().then(() => {
      throw tidy;
    });
  }
}

/**
 * An {@link FsPromises} over an in-memory filesystem's synchronous calls ({@link MemoryFs}): each
 * operation, `writeFile` included, completes in one synchronous step that no other call can observe
 * halfway (what {@link Platform.atomicWrites} means). Errors reject the returned promise, with the
 * same Node-style `code` as `node:fs/promises` would give, their messages tidied by `tidyFsError`
 * (an `ENAMETOOLONG` names its path shortened).
 */
export function fsFromSync(sync: SyncFsLike): FsPromises {
  const ranged = sync.readRangeSync ? { readRange: (path: string, position: number, length: number) => settle(() => (sync.readRangeSync as NonNullable<SyncFsLike['readRangeSync']>)(path, position, length)) } : {};
  return {
    ...ranged,
    readFile: (path) => settle(() => sync.readFileSync(path)),
    writeFile: (path, data) => settle(() => sync.writeFileSync(path, data)),
    mkdir: (path, options) => settle(() => sync.mkdirSync(path, options)),
    readdir: ((path: string, options?: { withFileTypes: true }) =>
      settle(() => (options ? sync.readdirSync(path, options) : sync.readdirSync(path)))) as FsPromises['readdir'],
    stat: (path) => settle(() => sync.statSync(path)),
    lstat: (path) => settle(() => sync.lstatSync(path)),
    readlink: (path) => settle(() => sync.readlinkSync(path)),
    symlink: (target, path) => settle(() => sync.symlinkSync(target, path)),
    rename: (from, to) => settle(() => sync.renameSync(from, to)),
    rm: (path, options) => settle(() => sync.rmSync(path, options)),
    unlink: (path) => settle(() => sync.unlinkSync(path)),
  };
}

/**
 * A platform with an in-memory workspace (its own {@link MemoryFs}) and in-memory tool state.
 * Capabilities: no commands, no web search, not persistent; `run_command` and `web_search`
 * return their empty results. Creating it only builds the tree of `options.files`. Every operation
 * completes in one synchronous step ({@link fsFromSync}), so `writeFile` is atomic for readers and
 * `atomicWrites` is true; `changeCount()` counts the changes made through `fs`. Its search engine
 * (`search`) reads the tree in place ({@link createMemorySearchSource}): bytes as stored, searched
 * and validated as bytes, decoded only where a match is reported.
 *
 * Errors (thrown at creation, the host's mistakes): a TypeError naming the option for a `root` that is
 * not an absolute path (it is normalised: `/a/../ws/` becomes `/ws`), a bad `files` key or content, or
 * a `state` that is not a StateStore.
 *
 * Not ZenFS's InMemory backend: the tree is toolhost's own {@link MemoryFs}, because
 * ZenFS's InMemory store rewrote a folder's listing on every create (1,000 `create_file` calls took
 * 1.0–1.6 s on Node; the same now take a few ms) and weighed 80 KiB min+gzip in the browser worker.
 * ZenFS remains the filesystem of the web platform's OPFS backend.
 */
export function createMemoryPlatform(options: MemoryPlatformOptions = {}): Platform {
  checkOptions('createMemoryPlatform', options, MEMORY_PLATFORM_RULES);
  const given = options.root ?? '/workspace';
  const root = joinPath(given);
  const memory = new MemoryFs();
  memory.mkdirSync(root, { recursive: true });
  for (const [name, content] of Object.entries(options.files ?? {})) {
    const path = joinPath(name.startsWith('/') ? name : `${root}/${name}`);
    if (!isInside(root, path)) {
      throw new TypeError(
        `createMemoryPlatform: files key ${quoteForMessage(name, { json: true })} leads outside ${root}, where no tool can reach it; give a path inside it (relative, or absolute under ${root})`,
      );
    }
    try {
      if (name === '' || name.endsWith('/') || path === root) throw Object.assign(new Error('it names a folder'), { code: 'EISDIR' });
      memory.mkdirSync(dirname(path), { recursive: true });
      memory.writeFileSync(path, content);
    } catch (error) {
      const why = (error as { code?: unknown }).code === 'ERR_INVALID_ARG_TYPE' ? 'its content must be a string or a Uint8Array' : (error as Error).message;
      throw new TypeError(`createMemoryPlatform: files key ${quoteForMessage(name, { json: true })} cannot be created (${why}); give each file its own path, with string or Uint8Array content`);
    }
  }
  const fs = fsFromSync(memory);
  // Every change goes through these methods, each in one synchronous step: count them, so a search
  // tool can tell that nothing changed since it last listed the workspace.
  let changes = 0;
  const counted = { ...fs } as Record<string, unknown>;
  for (const method of ['writeFile', 'mkdir', 'symlink', 'rename', 'rm', 'unlink'] as const) {
    const inner = fs[method] as (...args: unknown[]) => Promise<unknown>;
    counted[method] = (...args: unknown[]) => {
      changes += 1;
      return inner(...args);
    };
  }
  const platform: Platform = {
    name: 'memory',
    root,
    fs: counted as unknown as FsPromises,
    changeCount: () => changes,
    state: options.state ?? new MemoryStateStore(),
    capabilities: { runCommand: false, webSearch: false, persistent: false },
    atomicWrites: true,
    search: createSearchEngine({ source: createMemorySearchSource(() => memory, () => changes) }),
    async dispose() {},
  };
  return platform;
}
