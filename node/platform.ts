import { hash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { posix } from 'node:path';
import { ToolError } from '../src/core/errors.js';
import { checkOptions, describeValue, is, rule, stateStoreRule, type OptionRule, type OptionRules } from '../src/core/options.js';
import { isAddressEntry } from '../src/core/network.js';
import { provideSha256 } from '../src/core/file-cache.js';
import { quoteForMessage } from '../src/fs/text.js';
import { createMemoryPlatform, MemoryStateStore } from '../src/platform/memory.js';
import type {
  BackgroundCommands,
  FsPromises,
  Platform,
  RunCommandRequest,
  RunCommandResult,
  StateStore,
  WebSearchResult,
} from '../src/core/types.js';
import { createNodeSearchSource } from './search-fs.js';
import { createSearchEngine } from '../src/search/engine.js';
import { attachSearchIndex, keepListingsOnDisk } from './search-index-store.js';
import { budgetOf, type BudgetNames } from '../src/search/index/budget.js';
import { createConfinedNodeFs, type ConfinedNodeFsOptions } from './fs/confined.js';
import { isInside } from './fs/path-checked.js';
import { NodeBackgroundCommands, runShellCommand, type RunShellCommandOptions } from './run-command.js';
import type { DuckDuckGoSearchOptions, WebSearchFunction } from './web-search.js';
import { FileStateStore } from './state-store.js';
import { FileJournalStore } from './journal-store.js';
import type { JournalStore } from '../src/journal/store.js';
import { createFileLocks, type FileLocksOptions } from './file-lock.js';
import { createNodeNetwork } from './network.js';
import { createShellSessions } from './shell-session.js';
import type { NetworkPolicy } from '../src/core/types.js';

// File fingerprints on Node through node:crypto's one-shot hash: synchronous, faster at every size
// than WebCrypto (a thread-pool round trip per call) and than SHA-256 in JavaScript, and about twice
// createHash's speed at 4 KiB (no Hash object per call).
provideSha256((bytes) => hash('sha256', bytes, 'hex'));

export { createConfinedNodeFs, type ConfinedNodeFsOptions } from './fs/confined.js';
export { createPathCheckedNodeFs } from './fs/path-checked.js';

/**
 * Options of {@link createNodePlatform}; all optional. Each is checked at creation: a bad one (an
 * empty `root`, `confinement: 'bogus'`, a negative `command.killGraceMs`, ...) throws a TypeError naming
 * the option, the value and what is accepted.
 */
export interface NodePlatformOptions {
  /**
   * A real, existing directory to use as the workspace. Workspace paths then equal host paths
   * (`platform.root` is its realpath). Default: the current directory (`process.cwd()`, read when the
   * platform is created), as the `toolhost` command does, so files the tools write reach the disk
   * there. An empty string is not "the current directory" but a TypeError. For a workspace that
   * lives only in memory, give `inMemory: true` instead.
   */
  root?: string;
  /**
   * `true`: the workspace is in memory at `/workspace` (as `createMemoryPlatform`, plus this
   * platform's web search and network), nothing reaches the disk, and `run_command` has no shell.
   * Giving it with `root` is a TypeError.
   */
  inMemory?: boolean;
  /** Directory for tool state files ({@link FileStateStore}); without it state lives in memory. */
  stateDir?: string;
  /**
   * Directory of the runners' change journal ({@link FileJournalStore}: file contents by hash, one
   * file per turn, each written whole): a runner on this platform keeps its journal there and takes
   * up what an earlier process left (turns, numbering, a rewind a crash stopped half-way), so a new
   * process lists and rewinds the turns of earlier ones. Without it the journal lives in memory with
   * the runner. Giving it with `inMemory` is a TypeError (the files would be gone and the journal not).
   */
  journalDir?: string;
  /**
   * A state store to use instead (e.g. `createRedisStateStore({ url })`, shared by many processes);
   * `capabilities.persistent` is then true. Giving both `state` and `stateDir` is a TypeError.
   */
  state?: StateStore;
  /** The DuckDuckGo search fallback (`createDuckDuckGoSearch`): results-page `baseUrl`, `timeoutMs` (default 10,000), `fetch`, `userAgent`. */
  webSearch?: DuckDuckGoSearchOptions;
  /**
   * Process options of `run_command`: `env` (variables added to the allow-listed environment),
   * `inheritEnv: true` (the host's whole environment), shell, kill grace in ms — for hosts and tests.
   */
  command?: RunShellCommandOptions;
  /** How `fs` confines itself to the root (`createConfinedNodeFs`); default: descriptors where Linux allows. */
  confinement?: ConfinedNodeFsOptions['mode'];
  /**
   * What `web_fetch` may reach: URL prefixes with their methods, and the loopback / private /
   * link-local addresses allowed (all refused by default), e.g. `{ allowAddresses: ['127.0.0.1'] }`.
   */
  network?: NetworkPolicy;
  /** The fetch `web_fetch` uses (default: Node's global fetch). */
  fetch?: typeof fetch;
  /**
   * Cross-process write locks on a real root (`platform.lockPath`, see `createFileLocks`): every
   * read-modify-write of a file (edit_file, create_file, the profiles' editors) holds a lock file in
   * the lock directory, so processes sharing the workspace never lose one another's edits. Default
   * on with the default lock directory; `{ dir, staleMs }` to choose; `false` for writers serialised
   * within this process only.
   */
  fileLocks?: boolean | FileLocksOptions;
  /**
   * A search index of the workspace (`true`, or `{ cacheDir?, maxIndexBytes?, maxBuildBytes? }`; default off): opened from its file
   * under the cache directory (default `$XDG_CACHE_HOME/toolhost/search-index`, else
   * `~/.cache/toolhost/search-index`) when intact (searches wait for that read), else built and saved
   * on a worker thread; `dispose()` waits for a build under way and saves the index again. `grep_search` and `search_dir` then skip the files the index shows cannot match,
   * with the answers a full scan gives (see docs/architecture.md, "Search index"). Until it is ready,
   * searches scan. Needs a root on disk: with `inMemory` it is a TypeError.
   * Bounded: the index's size by `maxIndexBytes` (default 256 MiB) and its build's estimated memory by
   * `maxBuildBytes` (default 448 MiB); a build that would pass one stops early, and an index that
   * outgrows its size through writes is dropped: searches then scan, and `capabilities.searchIndex`
   * (`{ state: 'building' | 'ready' | 'off', note? }`) says which budget was passed and what to set.
   * On Linux the root's folders are watched (inotify) so that a repeated search of an unchanged tree
   * stats no file; `watch: false` leaves that out (a process that searches once: every listed file is
   * then checked, as off Linux). `budgetNames`: what the host's users call the two budgets where they
   * set them (a command line's flags, a settings file's keys), such as `{ maxIndexBytes:
   * '--search-index-max-bytes', maxBuildBytes: '--search-index-max-build-bytes' }`: the note then
   * names that setting and the bytes to give it instead of this option.
   */
  searchIndex?: boolean | { cacheDir?: string; maxIndexBytes?: number; maxBuildBytes?: number; watch?: boolean; budgetNames?: BudgetNames };
}

/** A URL prefix of the network policy: the start of an absolute http(s) URL, such as `https://api.example.com/v1/`. */
const URL_PREFIX = rule('an http:// or https:// URL prefix such as "https://api.example.com/"', (v) => {
  if (typeof v !== 'string' || !/^https?:\/\//i.test(v)) return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
});

/** `command.env`: variable names to string values (undefined leaves a variable out). */
const ENV_RULE: OptionRule = (value, name) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${name} must be an object of variables (name to string value), not ${describeValue(value)}`;
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined && typeof item !== 'string') return `${name}.${key} must be a string, not ${describeValue(item)}`;
  }
  return undefined;
};

/** A search index budget: a finite number of bytes above 0. */
const INDEX_BYTES = rule('a finite number of bytes above 0 (such as 256 * 1024 * 1024)', (v) => typeof v === 'number' && Number.isFinite(v) && v > 0);

/** `searchIndex.budgetNames`: the names of both budgets. */
const BUDGET_NAMES = is.options({ maxIndexBytes: is.required(is.nonEmptyString), maxBuildBytes: is.required(is.nonEmptyString) }, '{ maxIndexBytes, maxBuildBytes } (the names of the two budgets)');

/** The checks of {@link NodePlatformOptions}. */
const NODE_PLATFORM_RULES: OptionRules = {
  root: is.path,
  inMemory: is.boolean,
  stateDir: is.path,
  journalDir: is.path,
  state: stateStoreRule,
  webSearch: is.options({ baseUrl: is.url, timeoutMs: is.positiveMs, fetch: is.function, userAgent: is.string }),
  command: is.options({
    shell: is.nonEmptyString,
    env: ENV_RULE,
    inheritEnv: is.boolean,
    killGraceMs: is.nonNegativeMs,
    lingerMs: is.nonNegativeMs,
    keepChars: is.positiveInteger,
  }),
  confinement: is.oneOf('descriptors', 'paths'),
  network: is.options({
    allow: is.arrayOf(
      is.anyOf('a URL prefix or { prefix, methods? }', URL_PREFIX, is.options({ prefix: is.required(URL_PREFIX), methods: is.arrayOf(is.string, 'an array of HTTP methods') })),
      'an array of URL prefixes or { prefix, methods? } rules',
    ),
    allowAddresses: is.arrayOf(
      rule('an IP address (127.0.0.1, ::1) or an IPv4 CIDR range (10.0.0.0/8)', isAddressEntry),
      'an array of IP addresses or IPv4 CIDR ranges (strings)',
    ),
  }),
  fetch: is.function,
  fileLocks: is.anyOf('true, false or { dir?, staleMs? }', is.boolean, is.options({ dir: is.path, staleMs: is.positiveMs })),
  searchIndex: is.anyOf(
    'true, false or { cacheDir?, maxIndexBytes?, maxBuildBytes?, watch?, budgetNames? }',
    is.boolean,
    is.options({ cacheDir: is.path, maxIndexBytes: INDEX_BYTES, maxBuildBytes: INDEX_BYTES, watch: is.boolean, budgetNames: BUDGET_NAMES }),
  ),
};

/** What a call on a disposed platform answers (`unavailable`). */
const DISPOSED = 'the platform was disposed; create a new one';

/**
 * `fs` that answers every call with a ToolError `unavailable` ({@link DISPOSED}) once `disposed` has
 * fired, instead of reaching into a port whose commands and descriptors are being ended.
 */
function refusedOnceDisposed(fs: FsPromises, disposed: AbortSignal): FsPromises {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(fs)) {
    // Only the asynchronous file operations reach the filesystem; a synchronous helper (canonicalPath) works on the path alone.
    out[key] =
      typeof member === 'function' && FILE_OPERATIONS.has(key)
        ? (...args: unknown[]): unknown => (disposed.aborted ? Promise.reject(new ToolError('unavailable', DISPOSED)) : (member as (...a: unknown[]) => unknown).apply(fs, args))
        : member;
  }
  return out as unknown as FsPromises;
}

/** The asynchronous members of {@link FsPromises}. */
const FILE_OPERATIONS = new Set(['readFile', 'writeFile', 'writeFileAtomic', 'readRange', 'mkdir', 'readdir', 'stat', 'lstat', 'readlink', 'symlink', 'rename', 'rm', 'unlink']);

/** The realpath of an existing directory, or a TypeError (a root that is missing or a file is the host's mistake). */
function realDirectory(root: string): string {
  let real: string;
  try {
    real = realpathSync(root);
  } catch (error) {
    throw new TypeError(
      `workspace root "${root}" does not exist (${(error as { code?: string }).code ?? 'error'}); create it first, or give inMemory: true for a workspace in memory`,
    );
  }
  if (!statSync(real).isDirectory()) {
    throw new TypeError(`workspace root "${root}" is a file, not a directory; give its folder as root`);
  }
  return real;
}

/**
 * The platform's journal store in `journalDir`, when given: one {@link FileJournalStore} for every
 * runner on the platform, whose journals share one numbering of each conversation's turns (and share
 * the folder with other processes by creating each turn under a number no writer holds).
 */
function journalStoreOf(journalDir: string | undefined): { journalStore?(): JournalStore } {
  if (journalDir === undefined) return {};
  let store: FileJournalStore | undefined;
  return { journalStore: () => (store ??= new FileJournalStore(journalDir)) };
}

/**
 * The Node platform.
 *
 * - `root` given, or neither `root` nor `inMemory` (then `root` is `process.cwd()`): the workspace is that real directory (must exist: else a TypeError saying it is missing, or a
 *   file); `platform.root` is its realpath and workspace paths equal host paths.
 *   `fs` is {@link createConfinedNodeFs}: confined to the root on its own, race-free on Linux (`..`, absolute paths elsewhere
 *   and symlinks leading out → `outside_workspace`). `run_command` runs there ({@link runShellCommand}:
 *   `/bin/sh -c` in its own process group; every process it started, `setsid` ones included, ended when
 *   it exits, times out or is aborted; an allow-listed environment unless `command.inheritEnv`; streams
 *   capped at 15,000 characters each end); its `cwd` is checked to be really inside the root
 *   (`outside_workspace`). `backgroundCommands` runs `run_in_background` commands ({@link NodeBackgroundCommands}).
 * - `inMemory: true`: an in-memory workspace at `/workspace` (as `createMemoryPlatform`); commands are
 *   then unavailable (`capabilities.runCommand` false: a host shell cannot see in-memory files), so
 *   `run_command` returns its empty result with a note.
 * - `stateDir` given: state in {@link FileStateStore} (survives a restart, `capabilities.persistent`,
 *   shared safely by processes on one directory); a directory that cannot be written (a file in the
 *   way, no permission) throws a ToolError `unavailable` naming it;
 *   `state` given: that store (`capabilities.persistent` true); else in a MemoryStateStore.
 * - `webSearch`: the DuckDuckGo HTML scraper, `createDuckDuckGoSearch(options.webSearch)`, with or without
 *   a root (`capabilities.webSearch` true); it resolves `{ results, note?, error? }`.
 *
 * `dispose()` ends every process of commands still running (background ones too) and waits for them;
 * after it, every file call and command answers `unavailable` ("the platform was disposed; create a new
 * one").
 */
export function createNodePlatform(options: NodePlatformOptions = {}): Platform {
  checkOptions('createNodePlatform', options, NODE_PLATFORM_RULES);
  if (options.inMemory === true && options.root !== undefined) {
    throw new TypeError('createNodePlatform: give either root (a directory on disk) or inMemory: true (a workspace in memory), not both');
  }
  if (options.state !== undefined && options.stateDir !== undefined) {
    throw new TypeError('createNodePlatform: give either state (a StateStore) or stateDir (a directory for state files), not both');
  }
  if (options.inMemory === true && options.journalDir !== undefined) {
    throw new TypeError('createNodePlatform: journalDir keeps the journal of files on disk; leave it out with inMemory: true (whose files are gone with the process)');
  }
  if (options.inMemory === true && options.searchIndex !== undefined && options.searchIndex !== false) {
    throw new TypeError('createNodePlatform: searchIndex indexes a root on disk; leave it out with inMemory: true');
  }
  let state: StateStore;
  if (options.state !== undefined) state = options.state;
  else if (options.stateDir !== undefined) {
    const files = new FileStateStore(options.stateDir);
    files.checkWritable();
    state = files;
  } else state = new MemoryStateStore();
  const persistent = options.state !== undefined || options.stateDir !== undefined;
  // The search module (and its HTML parser, whose entity tables take milliseconds to build) loads on
  // the first web search: a process that never searches the web never loads it.
  let search: WebSearchFunction | undefined;
  const webOptions = options.webSearch;
  const networkOptions: { policy?: NetworkPolicy; fetch?: typeof fetch } = {};
  if (options.network) networkOptions.policy = options.network;
  if (options.fetch) networkOptions.fetch = options.fetch;
  const network = createNodeNetwork(networkOptions);
  const webSearch = async (query: string, signal: AbortSignal): Promise<WebSearchResult> => {
    search ??= (await import('./web-search.js')).createDuckDuckGoSearch(webOptions);
    return search(query, signal);
  };

  if (options.inMemory === true) {
    const memory = createMemoryPlatform({ state });
    return {
      name: 'node',
      root: memory.root,
      fs: memory.fs,
      state,
      capabilities: { runCommand: false, webSearch: true, persistent },
      webSearch,
      network,
      // The memory workspace's own guarantees and readers: whole-file writes in one step, a change
      // counter the search tools use to reuse their listings, and its search engine (bytes first).
      ...(memory.atomicWrites === undefined ? {} : { atomicWrites: memory.atomicWrites }),
      ...(memory.changeCount === undefined ? {} : { changeCount: memory.changeCount }),
      ...(memory.search === undefined ? {} : { search: memory.search }),
      dispose: () => memory.dispose(),
    };
  }

  const root = realDirectory(options.root ?? process.cwd());
  const disposed = new AbortController();
  const fs = refusedOnceDisposed(createConfinedNodeFs(root, { mode: options.confinement }), disposed.signal);
  const shells = createShellSessions(options.command ? { command: options.command, root } : { root });
  const running = new Set<Promise<unknown>>();
  const searchSource = process.platform === 'linux' ? createNodeSearchSource(root) : undefined;
  const lockPath = options.fileLocks === false ? undefined : createFileLocks(options.fileLocks === true ? {} : options.fileLocks);

  /** The real directory of a resolved cwd, checked again to be inside the root (defence in depth). */
  const realCwd = async (request: RunCommandRequest): Promise<string> => {
    if (disposed.signal.aborted) throw new ToolError('unavailable', DISPOSED);
    let cwd: string;
    try {
      cwd = await fsp.realpath(posix.resolve(root, request.cwd));
    } catch (error) {
      throw new ToolError('not_found', `cwd ${quoteForMessage(request.cwd)} does not exist (${(error as { code?: string }).code ?? 'error'})`);
    }
    if (!isInside(root, cwd)) {
      throw new ToolError('outside_workspace', `cwd ${quoteForMessage(request.cwd)} is outside the workspace; use a directory inside ${root}`);
    }
    return cwd;
  };

  const runCommand = async (request: RunCommandRequest, signal: AbortSignal): Promise<RunCommandResult> => {
    const cwd = await realCwd(request);
    const run = runShellCommand({ ...request, cwd }, AbortSignal.any([signal, disposed.signal]), options.command);
    running.add(run);
    try {
      return await run;
    } finally {
      running.delete(run);
    }
  };

  const background = new NodeBackgroundCommands(options.command);
  const backgroundCommands: BackgroundCommands = {
    start: async (request) => background.start({ ...request, cwd: await realCwd(request) }),
    output: (id) => background.output(id),
    list: () => background.list(),
    stop: (id) => background.stop(id),
  };

  const platform: Platform & { journalStore?(): JournalStore } = {
    name: 'node',
    root,
    fs,
    ...journalStoreOf(options.journalDir),
    state,
    capabilities: { runCommand: true, webSearch: true, persistent },
    // The search tools' engine reads through the Node source (its listings, its cache, its helper thread).
    ...(searchSource ? { search: createSearchEngine({ source: searchSource }) } : {}),
    ...(lockPath ? { lockPath } : {}),
    runCommand,
    backgroundCommands,
    webSearch,
    network,
    shellSession(conversationId) {
      const session = shells.get(conversationId);
      return {
        run: async (request, signal) => {
          if (disposed.signal.aborted) throw new ToolError('unavailable', DISPOSED);
          const run = session.run(request, AbortSignal.any([signal, disposed.signal]));
          running.add(run);
          try {
            return await run;
          } finally {
            running.delete(run);
          }
        },
        restart: () => session.restart(),
      };
    },
    async dispose() {
      // Commands first: a dispose cut short (an interrupted CLI waits 300 ms) leaves none running.
      disposed.abort();
      await Promise.allSettled([...running, background.dispose()]);
      await shells.dispose();
      await index?.close();
      await listings?.save();
      searchSource?.close?.();
    },
  };
  const indexOption = options.searchIndex === true ? {} : options.searchIndex;
  const index = indexOption
    ? attachSearchIndex(platform, {
        ...(indexOption.cacheDir === undefined ? {} : { cacheDir: indexOption.cacheDir }),
        budget: budgetOf(indexOption, 'createNodePlatform', undefined, indexOption.budgetNames),
        ...(options.confinement === undefined ? {} : { confinement: options.confinement }),
        ...(indexOption.watch === undefined ? {} : { watch: indexOption.watch }),
      })
    : undefined;
  // With an index kept on disk, the folder listings are kept beside it: a new process's first walk
  // then lists only the folders changed since.
  const listings = indexOption && searchSource ? keepListingsOnDisk(searchSource, root, indexOption.cacheDir) : undefined;
  return platform;
}
