// The platform port: what the core runs on (a filesystem, a state store, optional capabilities).
import type { FsPromises } from './fs-port.js';
import type { SearchRequest, SearchResponse } from './search-engine.js';
import type { StateStore } from './state-store.js';

/** What a platform can do. */
export interface PlatformCapabilities {
  runCommand: boolean;
  webSearch: boolean;
  persistent: boolean;
  /**
   * The workspace's search index, on a platform that keeps one (absent otherwise), read when asked:
   * `building` (being opened or built; searches scan meanwhile), `ready` (in use; with a `note` when
   * it could not be saved, so the next start builds it again), or `off` (searches scan every file)
   * with a `note` saying why: which budget the index would pass (`maxIndexBytes`, `maxBuildBytes`),
   * by how much, and what to set to raise it; or that its build failed.
   */
  readonly searchIndex?: { readonly state: 'building' | 'ready' | 'off'; readonly note?: string };
}

/** Arguments of `run_command` as the platform receives them: `cwd` already resolved inside the workspace. */
export interface RunCommandRequest {
  command: string;
  cwd: string;
  timeoutMs: number;
}

/**
 * Processes a command left running when its shell exited, which the platform then ended (a command's
 * processes end with it): how many, and the command lines of the first few, oldest first, each cut
 * short. `count` is null where the platform can see only the command's process group, not its members.
 */
export interface LeftRunning {
  count: number | null;
  commands: string[];
}

/**
 * Result of `run_command`. `note` is set by platforms that cannot run commands; `left_running` by a
 * platform that ended processes the command left running when its shell exited (the tools turn it
 * into a note for the model).
 */
export interface RunCommandResult {
  stdout: string;
  stderr: string;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  truncated: boolean;
  note?: string;
  left_running?: LeftRunning;
}

/**
 * A shell that keeps its state between calls: one per conversation, for the `bash` tool of the
 * Anthropic profile. The working directory and exported environment variables carry over from one
 * command to the next; `restart` forgets them.
 */
export interface ShellSession {
  /**
   * Runs `command` in the session (in `cwd`, absolute, the first time and after a restart). On timeout
   * or abort the command's whole process group is killed; the session keeps the state of the last
   * command that finished. Output as {@link RunCommandResult}.
   */
  run(request: { command: string; cwd: string; timeoutMs: number }, signal: AbortSignal): Promise<RunCommandResult>;
  /** Forgets the working directory and environment: the next command starts from a fresh shell. */
  restart(): Promise<void>;
}

/** Output so far of a background command (`command_output`, `stop_command`). */
export interface BackgroundCommandOutput {
  background_id: string;
  /** Each stream keeps its first and last 15,000 characters, as `run_command`'s. */
  stdout: string;
  stderr: string;
  truncated: boolean;
  /** False once the shell has exited and every process it started has ended. */
  running: boolean;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  /** Processes the command left running when its shell exited, which were then ended (as {@link RunCommandResult}'s). */
  left_running?: LeftRunning;
  /** Set by the tools for the model: what `left_running` means and what to do instead. */
  note?: string;
}

/** One background command as `command_output` lists it. */
export interface BackgroundCommandSummary {
  background_id: string;
  command: string;
  running: boolean;
  exit_code: number | null;
  signal: string | null;
  /** As {@link BackgroundCommandOutput}'s. */
  left_running?: LeftRunning;
  /** As {@link BackgroundCommandOutput}'s. */
  note?: string;
}

/**
 * Commands that keep running after `run_command` returns (`run_in_background: true`), read and stopped
 * by id; every process they started is ended when stopped or when the platform is disposed.
 */
export interface BackgroundCommands {
  /** Starts the command; resolves with its id. */
  start(request: RunCommandRequest): Promise<string>;
  /** Errors: `not_found` for an unknown id. */
  output(id: string): Promise<BackgroundCommandOutput>;
  list(): Promise<BackgroundCommandSummary[]>;
  /** Ends the command and everything it started; resolves with its final output. Errors: `not_found`. */
  stop(id: string): Promise<BackgroundCommandOutput>;
}

/** One web search hit. */
export interface WebSearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** Result of the `web_search` / `google_search` fallback; always a success. */
export interface WebSearchResult {
  results: WebSearchHit[];
  note?: string;
  error?: string;
}

/**
 * A platform: the filesystem, state store and optional capabilities that the core runs on.
 */
export interface Platform {
  /**
   * Which platform this is, for messages and diagnostics: toolhost's own are `'memory'`
   * (createMemoryPlatform), `'web'` (createWebPlatform) and `'node'` (createNodePlatform); a platform of
   * the app's own names itself.
   */
  readonly name: string;
  /** Workspace root: `/workspace` for memory and web, the real directory on Node. */
  readonly root: string;
  readonly fs: FsPromises;
  readonly state: StateStore;
  readonly capabilities: PlatformCapabilities;
  runCommand?(request: RunCommandRequest, signal: AbortSignal): Promise<RunCommandResult>;
  /** Where commands can run in the background (Node with a root). */
  readonly backgroundCommands?: BackgroundCommands;
  webSearch?(query: string, signal: AbortSignal): Promise<WebSearchResult>;
  /** The persistent shell of a conversation (Node with a real directory); absent where there is no shell. */
  shellSession?(conversationId: string): ShellSession;
  /** What `web_fetch` may reach and how (see {@link PlatformNetwork}); absent: no network for tools. */
  readonly network?: PlatformNetwork;
  /**
   * True when `fs.writeFile` replaces a file's content in one step that no reader can observe halfway
   * (an in-memory filesystem written synchronously; the web platform's journalled workspace, whose
   * commits carry whole files). Then `writeFileAtomic`'s callers write in place instead of a
   * temporary file plus rename. Absent or false (Node on a real directory): temp file + rename.
   */
  readonly atomicWrites?: boolean;
  /**
   * A number that changes whenever anything is changed through `fs`, on platforms whose files change
   * only through it (memory). Unchanged means the workspace is as it was, so search tools reuse their
   * listings and cached file contents without a `stat` per file. Absent where files can change behind the
   * platform's back (a real directory on Node).
   */
  readonly changeCount?: () => number;
  /**
   * The search tools' engine (see {@link SearchEngine}): grep_search, search_dir, find_file and the
   * profiles' grep and glob tools send it their requests. Absent: they use toolhost's default engine,
   * which reads through `fs` (Node's platform brings its own, on helper threads).
   */
  readonly search?: SearchEngine;
  /** Makes every filesystem write so far durable; the runner awaits it before a mutating call's result returns. */
  flush?(): Promise<void>;
  /**
   * Runs `fn` with every commit (flushes and state writes) deferred to ONE durable commit at its end;
   * resolves with `fn`'s value once that commit is complete, or rejects with its ToolError
   * (`quota_exceeded`, `unavailable`) after undoing every change made during `fn`. Where a platform has
   * it, {@link ToolRunner} runs each `processToolCalls` batch inside one `batch` and runs its calls (of
   * `execute` and of batches) one at a time, so no other caller's commit is deferred into a batch. The
   * web platform's IndexedDB backend has it: 1,000 create_file calls of 4 KiB then take about a third
   * of the per-call time.
   */
  batch?<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Takes `path`'s write lock across processes (waiting while another process holds it) and resolves
   * with its release; rejects with `signal`'s `timeout` / `cancelled` when it fires while waiting. The
   * runner's `ctx.withPathLock` takes it inside its own in-process lock, so every read-modify-write of
   * a file (edit_file, create_file, the profiles' editors) excludes other processes on one workspace.
   * Absent: writers are serialised within the process only.
   */
  lockPath?(path: string, signal: AbortSignal | undefined): Promise<() => Promise<void>>;
  dispose(): Promise<void>;
}

/** What a {@link SearchEngine} gets of the calling tool's context (a tool's `ToolContext` is one). */
export interface SearchContext {
  /** The platform the call runs on (its `root`, `changeCount`, and the search index it keeps). */
  readonly platform: Platform;
  /** The filesystem the call reads: the platform's, or the staged view of a reviewed conversation. */
  readonly fs: FsPromises;
  /** The call's working directory (absolute): relative paths of a request are resolved against it. */
  readonly cwd: string;
  /** The call's signal: once it fires the engine rejects with its reason (ToolError `timeout` / `cancelled`). */
  readonly signal: AbortSignal;
  /** `Date.now()` value of the call's deadline, or undefined: a search stops at a share of what is left of it. */
  readonly deadline: number | undefined;
}

/**
 * A platform's search engine: answers the search tools' requests ({@link SearchRequest}: `kind:
 * 'lines'` for grep_search and search_dir, `kind: 'files'` for find_file), with a
 * {@link SearchResponse} of the same `kind`; the tools shape it (budgets, notes) as they always do.
 * `createSearchEngine` in toolhost's `src/search` builds the default one; a platform may bring its own.
 * Errors: ToolError `not_found` / `outside_workspace` (`dirPath`), `invalid_pattern` (a glob), the
 * signal's `timeout` / `cancelled`; an answer of another `kind` is a TypeError in the calling tool.
 * An engine of the host's own has its answer checked before the model sees it: each field's type,
 * and each path absolute, in normal form and inside what was searched (a `lines` answer: inside the
 * folder `dirPath` names, or that file alone; a `files` answer: inside `dir`); a mistake is a
 * TypeError naming the field, which the tool answers as `execution_failed`.
 */
export interface SearchEngine {
  search(request: SearchRequest, ctx: SearchContext): Promise<SearchResponse>;
}

/** One rule of a {@link NetworkPolicy}: a URL prefix and the methods allowed under it. */
export interface NetworkRule {
  /** A URL prefix such as `https://docs.example.com/` (compared with the normalised URL). */
  prefix: string;
  /** HTTP methods allowed under the prefix (default `['GET', 'HEAD']`). */
  methods?: readonly string[];
}

/**
 * What tools may fetch. `allow` absent: any http(s) URL with GET or HEAD. Addresses on loopback,
 * private (RFC 1918, unique-local), link-local, CGNAT and unspecified ranges are refused where the
 * platform can tell (Node resolves the host first) unless listed in `allowAddresses` (an IP, or a
 * CIDR such as `127.0.0.0/8`).
 */
export interface NetworkPolicy {
  allow?: readonly (string | NetworkRule)[];
  allowAddresses?: readonly string[];
}

/**
 * The network a platform gives `web_fetch`: the policy, the `fetch` to use, and, where the platform
 * can resolve names (Node), a check of the address a URL's host resolves to. `redirects` says who
 * follows redirects: `'manual'` (the tool, hop by hop, each hop checked) or `'follow'` (the browser,
 * whose fetch hides redirect targets; only the final URL is checked).
 */
export interface PlatformNetwork {
  readonly policy: NetworkPolicy;
  fetch(url: string, init: { method: string; headers: Record<string, string>; redirect: 'manual' | 'follow'; signal: AbortSignal }): Promise<Response>;
  /** Rejects with `permission_denied` naming the rule when `url`'s host resolves to a refused address. */
  checkAddress?(url: URL, signal: AbortSignal): Promise<void>;
  readonly redirects: 'manual' | 'follow';
}
