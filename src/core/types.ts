/**
 * A JSON value: what tool state holds and what tool outputs must be. An object property may be
 * `undefined`: it is an omitted optional field, and JSON drops it.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue | undefined };

/** A JSON Schema object (draft-07 / 2019-09 keywords as ajv accepts them). */
export interface JsonSchema {
  type?: string | readonly string[];
  properties?: { readonly [name: string]: JsonSchema };
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | readonly JsonSchema[];
  enum?: readonly unknown[];
  description?: string;
  default?: unknown;
  [keyword: string]: unknown;
}

/** File metadata as returned by `stat`/`lstat` (sizes in bytes, times in ms since the epoch). */
export interface FsStats {
  size: number;
  mtimeMs: number;
  mode?: number;
  /** Hard links to the file, where the platform has them. */
  nlink?: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  /** A named pipe; absent where the platform has none (as the three below). */
  isFIFO?(): boolean;
  isSocket?(): boolean;
  isCharacterDevice?(): boolean;
  isBlockDevice?(): boolean;
}

/** A directory entry with its type, as `readdir(path, { withFileTypes: true })` gives it. */
export interface FsDirent {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO?(): boolean;
  isSocket?(): boolean;
  isCharacterDevice?(): boolean;
  isBlockDevice?(): boolean;
}

/**
 * The filesystem port: the subset of `node:fs/promises` that the tools use, supplied by each platform
 * (toolhost's in-memory MemoryFs, node:fs/promises, or ZenFS for OPFS). Paths are absolute POSIX paths; errors carry Node-style `code`s (`ENOENT`, ...).
 */
export interface FsPromises {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown>;
  readdir(path: string): Promise<string[]>;
  readdir(path: string, options: { withFileTypes: true }): Promise<FsDirent[]>;
  stat(path: string): Promise<FsStats>;
  lstat(path: string): Promise<FsStats>;
  readlink(path: string): Promise<string>;
  symlink(target: string, path: string): Promise<void>;
  rename(oldPath: string, newPath: string): Promise<void>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  unlink(path: string): Promise<void>;
  /**
   * Optional: replaces `path`'s content so that readers see the whole old or the whole new content,
   * keeping what `writeFile` to a temporary file plus `rename` would lose (the file's mode, owner and
   * hard links), and refusing a file the host may not write (`permission_denied`) instead of replacing
   * it. `writeFileAtomic` uses it when present.
   */
  writeFileAtomic?(path: string, data: Uint8Array | string): Promise<void>;
  /**
   * Optional: at most `length` bytes of the file at `path` from byte `position` (fewer past its end,
   * none from its end on), reading only those, so a tool can take a window of a file of any size.
   * Errors as `readFile`'s. Where it is absent, tools read the whole file (and refuse one over their cap).
   */
  readRange?(path: string, position: number, length: number): Promise<Uint8Array>;
  /**
   * Optional: the one spelling of `path` on a filesystem where one name can be written several ways
   * (synchronous, no disk access). Node's port takes names that are not UTF-8 in a `\xNN` form and
   * answers its canonical form there (an escape that spells valid UTF-8 becomes its characters:
   * `\x61.txt` is `a.txt`). `resolveWorkspacePath` applies it to every path argument first, so results,
   * messages and per-file state (`stale_file` fingerprints) see one path per file. Where it is absent
   * a path is its own spelling (memory, browser: a backslash is an ordinary character). Throws
   * ToolError `invalid_arguments` for a spelling that names nothing (an escaped `/` or NUL).
   */
  canonicalPath?(path: string): string;
}

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

/** What a platform can do. */
export interface PlatformCapabilities {
  runCommand: boolean;
  webSearch: boolean;
  persistent: boolean;
}

/** Arguments of `run_command` as the platform receives them: `cwd` already resolved inside the workspace. */
export interface RunCommandRequest {
  command: string;
  cwd: string;
  timeoutMs: number;
}

/** Result of `run_command`. `note` is set by platforms that cannot run commands. */
export interface RunCommandResult {
  stdout: string;
  stderr: string;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  truncated: boolean;
  note?: string;
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
}

/** One background command as `command_output` lists it. */
export interface BackgroundCommandSummary {
  background_id: string;
  command: string;
  running: boolean;
  exit_code: number | null;
  signal: string | null;
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
 * A regular file's identity as {@link SearchSource.stat} reports it (the search cache's validator):
 * size, modification and status-change times in ms, inode. The status-change time moves with every
 * write and every `utimes`, so a file rewritten in place and given its old modification time back
 * (as `cp -p` and `touch -r` do) is read again.
 */
export interface SearchFileStat {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** A count that a {@link SearchHelper} shares: the pattern as the tool compiled it, and its limits. */
export interface SearchHelperJob {
  pattern: string;
  literal: boolean;
  caseSensitive: boolean;
  /** `Date.now()` value at which the helper stops and reports `stopped`. */
  deadline: number;
  /** Files over this many bytes are not read but answered -3 (the caller searches them itself). */
  limit: number;
}

/**
 * What the helper did of a {@link SharedCount}: per `count` batch it took, one code per path: the
 * matching lines of a searched text file (0 or more), or -1 not reached (the deadline came first), -2
 * gone or not a regular file, -3 over the size limit, -4 binary, -5 to -8 skipped (unreadable, replaced
 * by a link, name too long, out of the workspace); per `stat` batch it took, four
 * numbers per path (size, mtimeMs, ctimeMs, ino of the regular file; size NaN when it is gone or not one, -1
 * when the deadline came first).
 */
export interface SearchHelperAnswer {
  /** Codes by batch index; a count batch missing here was not counted by the helper (the caller counts it). */
  codes: Map<number, Int32Array>;
  /** Stats by batch index of the `stat` batches the helper took. */
  stats: Map<number, Float64Array>;
  /** True when the deadline stopped the helper (some files then have -1, and one may have a partial count). */
  stopped: boolean;
}

/**
 * A batch of a {@link SharedCount}: `helpers` (files the helper's cache holds: the helper counts them),
 * `open` (either thread counts them, whichever takes the batch first) or `stat` (files the caller's
 * cache holds: either thread takes their `lstat`, the caller counts them).
 */
export type SharedBatchKind = 'helpers' | 'open' | 'stat';

/**
 * One count shared between the calling thread and a {@link SearchHelper}. The caller hands the files
 * over in batches while its walk runs (see {@link SharedBatchKind}): a batch of files the helper's cache
 * holds is the helper's; any other is taken by whichever thread gets to it first (the helper from the
 * first batch on, the caller from the last once its walk is done), so the two meet wherever the work
 * splits evenly, whatever the files' sizes; of the files the caller's cache holds the helper only
 * takes the `lstat` that validates them.
 */
export interface SharedCount {
  /** Hands over a batch of workspace paths (regular files, as the walk listed them). Returns its index. */
  post(paths: string[], kind: SharedBatchKind): number;
  /** Batches posted so far. */
  readonly posted: number;
  /** Whether the helper has started on this count (from then on it answers). */
  readonly started: boolean;
  /** No more batches. */
  end(): void;
  /** Takes `open` or `stat` batch `index` for the calling thread: false when the helper took it first, or it is the helper's. */
  claim(index: number): boolean;
  /**
   * The helper's codes once it is done. A helper that has not started on this count by now (busy with
   * another) never will, and one that is gone answers nothing: their batches come back missing, for the
   * caller to count. Rejects with the signal's `timeout` / `cancelled` once it fires.
   */
  finish(): Promise<SearchHelperAnswer>;
  /** Drops the count (the caller failed): the helper stops on it and answers nothing. */
  cancel(): void;
}

/**
 * A second thread for the search tools' counts (`output_mode` count and files_with_matches over large
 * trees), with a file cache of its own. `owns` tells the files the helper counted before and caches
 * (they go to its batches, so each file stays cached on one side); `share` starts a {@link SharedCount}
 * with the same engines and cache rules as the caller's.
 */
export interface SearchHelper {
  owns(path: string): boolean;
  share(job: SearchHelperJob, signal: AbortSignal | undefined): SharedCount;
  /**
   * The calling thread's side of a shared count, fed by the walk (its `onFiles`): once the walk has
   * listed enough files it starts a {@link SharedCount} and sorts each listed file into a batch
   * (`holds`: whether the calling thread's cache holds a file).
   */
  sharedFiles(holds: (path: string) => boolean): SharedFilesSorter;
  /**
   * Counts `work` on the calling thread beside the helper, then merges the helper's answer: `countHere`
   * counts one file here (`stat`: its lstat as the helper took it; answers, synchronously when it can,
   * whether the time limit stopped the search), `stop` tells whether it has, `tally` takes a file the helper counted (its code).
   */
  countShared(
    work: SharedWork,
    countHere: (path: string, keep: boolean, stat?: SearchFileStat | null) => boolean | Promise<boolean>,
    stop: () => boolean,
    tally: (path: string, code: number) => void,
  ): Promise<void>;
}

/** A shared count once the walk is done (see {@link SearchHelper.sharedFiles}). */
export interface SharedWork {
  /** Whether the helper stopped at the deadline (known once `countShared` is done). */
  readonly stopped: boolean;
}

/** Sorts a walk's files into the batches of a shared count (see {@link SearchHelper.sharedFiles}). */
export interface SharedFilesSorter {
  /** Takes the walk's files (the last `added` are new); `job` describes the count, asked for once. */
  add(files: ReadonlyArray<{ path: string }>, added: number, job: () => SearchHelperJob, signal: AbortSignal | undefined): void;
  /** The walk is done: undefined when it found too few files to share. */
  end(): SharedWork | undefined;
  /** The walk failed: the helper drops the count. */
  cancel(): void;
}

/** The rules of one ignore file as a walk applies them: its directory (absolute) and its rule lines, in order. */
export interface WalkIgnoreRules {
  readonly dir: string;
  readonly lines: readonly string[];
  /** Its file's precedence, as ripgrep ranks them: 0 `.gitignore` (the default), 1 `.ignore`, 2 `.rgignore`. */
  readonly rank?: number;
}

/**
 * How a walk goes on below the directories it hands to {@link SearchSource.prefetch}: into every
 * subdirectory (`all`: ignore rules off, no pruning), or, given the `.gitignore` rules in force there
 * (outermost first; none: `[]`), into every subdirectory but `.git`, `node_modules` and those the rules
 * ignore, each `.gitignore` met below adding its own rules; undefined: only as it hands over (a
 * pruning glob decides).
 */
export type WalkDeeper = 'all' | readonly WalkIgnoreRules[];

/**
 * A fast, synchronous reader that search tools (find_file, search_dir, grep_search) use instead of
 * `fs` where the platform has one (Node on a real directory): directory listings with entry types,
 * `stat` and reads of regular files that never follow a symbolic link, and byte helpers (`indexOf` on
 * bytes, UTF-8 validation and decoding) so literal searches run on bytes and decode only files that
 * can match. The walker only ever passes paths it built from listings inside the workspace, so the
 * walk stays inside it by construction.
 */
export interface SearchSource {
  /** Entries of a directory (types from the listing; symlinks reported as such). Throws Node-style errors (`ENOENT`, ...). */
  readdir(path: string): FsDirent[];
  /** The regular file at `path` (a final symlink not followed); undefined when it is missing or not a regular file. */
  stat(path: string): SearchFileStat | undefined;
  /**
   * The bytes of the regular file at `path` (a final symlink not followed), at most `maxBytes`;
   * undefined when it is gone or not a regular file; throws a Node-style error when it cannot be read
   * (`EACCES`, or `ELOOP` for a symlink), which a search counts as a skipped entry. With `into`, the source asks it for the buffer to read into once it knows
   * the size (`into(size)` gives `size` bytes, e.g. the free end of a cache slab) and returns a prefix of
   * that buffer; without, or if it ignores `into`, it allocates. What `into` throws (a caller that
   * refuses a file of that size) propagates, with nothing read. A source may return only the first
   * 8 KiB when they hold a NUL byte and the file is under `maxBytes` (it is binary whatever follows);
   * those bytes are valid until its next `read`.
   */
  read(path: string, maxBytes: number, into?: (size: number) => Uint8Array): { bytes: Uint8Array; stat: SearchFileStat } | undefined;
  /** `haystack.indexOf(needle, from)` on bytes, -1 when absent. */
  indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number;
  /** Whether `bytes` is valid UTF-8. */
  isUtf8(bytes: Uint8Array): boolean;
  /** Decodes valid UTF-8 (a BOM is kept as U+FEFF). */
  decode(bytes: Uint8Array): string;
  /** Bytes of file content the search cache keeps (default 256 MiB). */
  readonly cacheBytes?: number;
  /** Another thread that counts matching lines beside this one (see {@link SearchHelper}); absent: none. */
  readonly helper?: SearchHelper;
  /**
   * A search or walk starts (called at the start of each): what the source holds from earlier calls
   * (the Node source's open directories) is checked again before it is trusted.
   */
  begin?(): void;
  /**
   * The walk will list these directories (found in the one it just listed, its rules applied), and
   * below them go on `deeper` (see {@link WalkDeeper}): a source may list them ahead on another
   * thread, to answer `readdir` from that (the Node source does while its search helper thread is
   * running and idle).
   */
  prefetch?(paths: readonly string[], deeper: WalkDeeper | undefined): void;
  /** The walk that last called `begin` is over (done, capped, stopped or failed): nothing more is listed ahead for it. */
  end?(): void;
  /** Releases what the source holds (descriptors); the platform calls it from `dispose`. */
  close?(): void;
}

/**
 * A platform: the filesystem, state store and optional capabilities that the core runs on.
 */
export interface Platform {
  readonly name: 'web' | 'node' | 'memory';
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
   * listings and decoded texts without a `stat` per file. Absent where files can change behind the
   * platform's back (a real directory on Node).
   */
  readonly changeCount?: () => number;
  /** A fast reader for the search tools (see {@link SearchSource}); absent: they use `fs`. */
  readonly searchSource?: SearchSource;
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
