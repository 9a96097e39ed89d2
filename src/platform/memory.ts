import type { FsPromises, FsStats, JsonValue, Platform, RegexSandbox, StateStore } from '../types.js';

/** V8's `Error.stackTraceLimit` (Chromium, Node); elsewhere setting it has no effect. */
const V8Error = Error as ErrorConstructor & { stackTraceLimit?: number };

/** Options of {@link createMemoryPlatform}. */
export interface MemoryPlatformOptions {
  /** Workspace root inside the in-memory filesystem (default `/workspace`). */
  root?: string;
  /** Files to create before the first call: workspace-relative or absolute path → content. */
  files?: Record<string, string | Uint8Array>;
  /** State store to use (default: a fresh {@link MemoryStateStore}). */
  state?: StateStore;
  /** Interruptible regex runner for grep (e.g. `createVmRegexSandbox()` from `toolhost/node`). */
  regex?: RegexSandbox;
}

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
 * An {@link FsPromises} whose every method first awaits `load()` (called once, on the first use), so
 * creating a platform does no work and loads no filesystem code until a tool touches a file.
 */
export function lazyFs(load: () => Promise<FsPromises>): FsPromises {
  let loaded: Promise<FsPromises> | undefined;
  const get = (): Promise<FsPromises> => (loaded ??= load());
  const fs: Record<string, unknown> = {};
  for (const method of FS_METHODS) {
    fs[method] = async (...args: unknown[]) => {
      const target = (await get()) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      return (target[method] as (...a: unknown[]) => Promise<unknown>)(...args);
    };
  }
  return fs as unknown as FsPromises;
}

/** The synchronous ZenFS calls {@link fsFromSync} needs (a subset of `node:fs`). */
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
}

/**
 * Runs `fn` now and settles a promise with its outcome. V8 stack capture is off meanwhile: ZenFS
 * captures its error's stack three times per failure, a missing path is an everyday answer (every
 * created file is first looked up), and a stack inside ZenFS tells the tools nothing.
 */
function settle<T>(fn: () => T): Promise<T> {
  const limit = V8Error.stackTraceLimit;
  V8Error.stackTraceLimit = 0;
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  } finally {
    V8Error.stackTraceLimit = limit;
  }
}

/**
 * An {@link FsPromises} over ZenFS's synchronous API, for an in-memory ZenFS instance: there the sync
 * and promise calls run the same backend code (the promise API adds file handles and awaits), so the
 * results and error codes are the same, while each operation, `writeFile` included, completes in one
 * synchronous step that no other call can observe halfway (what {@link Platform.atomicWrites} means).
 * Errors reject the returned promise as the promise API would.
 */
export function fsFromSync(sync: SyncFsLike): FsPromises {
  return {
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
 * A platform with an in-memory workspace (its own ZenFS InMemory instance, never the global one) and
 * in-memory tool state (SPEC §7 "memory"). Capabilities: no commands, no web search, not persistent;
 * `run_command` and `web_search` return their empty results. Creating it does no work: ZenFS loads on
 * the first file operation. Its filesystem runs on ZenFS's sync API ({@link fsFromSync}), so `writeFile`
 * is atomic for readers and `atomicWrites` is true.
 */
export function createMemoryPlatform(options: MemoryPlatformOptions = {}): Platform {
  const root = options.root ?? '/workspace';
  const fs = lazyFs(async () => {
    const { resolveMountConfig, bindContext, InMemory } = await import('./zenfs.js');
    const mounted = await resolveMountConfig({ backend: InMemory });
    const context = bindContext({ root: '/', mounts: { '/': mounted } });
    const promises = fsFromSync(context.fs as unknown as SyncFsLike);
    await promises.mkdir(root, { recursive: true });
    for (const [name, content] of Object.entries(options.files ?? {})) {
      const path = name.startsWith('/') ? name : `${root}/${name}`;
      await promises.mkdir(path.slice(0, path.lastIndexOf('/')) || '/', { recursive: true });
      await promises.writeFile(path, content);
    }
    return promises;
  });
  // Every change goes through these methods: count them (before and after, so a listing read while a
  // change runs is never taken for the state after it).
  let changes = 0;
  const counted = { ...fs } as Record<string, unknown>;
  for (const method of ['writeFile', 'mkdir', 'symlink', 'rename', 'rm', 'unlink'] as const) {
    const inner = fs[method] as (...args: unknown[]) => Promise<unknown>;
    counted[method] = async (...args: unknown[]) => {
      changes += 1;
      try {
        return await inner(...args);
      } finally {
        changes += 1;
      }
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
    async dispose() {},
  };
  if (options.regex) return { ...platform, regex: options.regex };
  return platform;
}
