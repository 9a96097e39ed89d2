import { ToolError, toToolError, type ToolErrorCode } from './errors.js';
import { createFileCache } from './file-cache.js';
import { clipForMessage, quoteForMessage } from './message-text.js';
import { KeyedMutex } from './locks.js';
import { DenialTracker, PermissionChecker, permissionPolicyRule, type PermissionPolicy, type PermissionRequest } from './permissions.js';
import { arrayInstead, checkCallOptions, checkOptions, checkToolCalls, describeValue, is, rule, stateStoreRule, type OptionRule, type OptionRules } from './options.js';
import type { AnyTool, ExecuteTool, HostHooks, Tool } from './tool.js';
import type { ToolHost, ToolInfo } from './host.js';
import type { JsonSchema, JsonValue } from './json.js';
import type { Platform } from './platform.js';
import type { FsPromises } from './fs-port.js';
import type { StateLease, StateStore } from './state-store.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult, ToolMessage } from './wire.js';
import { isInside, joinPath } from './posix-path.js';
import { createToolEntry, entryForCall, type ToolEntry } from './entry.js';
import { CallContext, cancelled, endedReason, type ContextHost, type ConversationState, type StateChanges } from './context.js';
import { findNonJson } from './json.js';
import { isThenable } from './thenable.js';
import { toolWriteView } from './write-watch.js';
import type { GeneratedValidators } from './validation.js';
import {
  DEFAULT_JOURNAL_BYTES,
  type AcceptResult,
  type ChangeJournalPort,
  type ConversationChanges,
  type JournalSetup,
  type JournalTurn,
  type PendingChanges,
  type TurnEnd,
  type RejectOptions,
  type RejectResult,
  type ReviewPort,
  type ReviewSelection,
  type ReviewSetup,
  type RewindOptions,
  type RewindResult,
} from './journal-port.js';
import type { Cassette, RecordedCall, ReplayOptions, ReplayResult } from './journal-port.js';
import { isStagingPlatform } from './journal-port.js';

export type { CallOptions, FunctionDeclaration, ToolCall, ToolCallFailure, ToolCallResult, ToolCallSuccess, ToolMessage } from './wire.js';

/**
 * Options of {@link ToolRunner.register} and {@link ToolRunner.registerAll}. A bad one is the host's
 * mistake: a TypeError naming it.
 */
export interface RegisterOptions {
  /**
   * What the new tools may take the place of. Default (and `false`): nothing — a taken name is a
   * TypeError. `true`: whatever tool holds each name (the host replacing a tool on purpose). An array
   * of tool objects: exactly those, compared by identity — they are removed, and their names may be
   * taken again, but a name held by any other tool is still refused (a bridge replacing its own earlier
   * registration, never someone else's).
   */
  replace?: boolean | readonly AnyTool[];
}

/**
 * Options of {@link ToolRunner}; all optional. Each is checked at construction: a bad one (a
 * `defaultTimeoutMs` of -1 or `'5000'`, `permissions: 'bogus'`, `allow: 5`, a hook that is not a
 * function) throws a TypeError naming the option, the value and what is accepted.
 */
export interface ToolRunnerOptions extends HostHooks {
  /**
   * Filesystem, state and capabilities (default: the package's `ToolRunner` makes a fresh memory
   * platform). A `search` member that is not a search engine (an object with `search(request, ctx)`)
   * is a TypeError.
   */
  platform?: Platform;
  /**
   * Tools registered at construction, in order (either shape). A tool the runner cannot take (bad
   * name, schema that is not an object), or two different tools of one name, make the constructor
   * throw a TypeError naming it (to replace a built-in, leave it out of the list or register yours
   * afterwards with `{ replace: true }`); the same tool object listed twice is taken once (as
   * {@link ToolRunner.register} takes a tool object registered again). A JSON
   * Schema ajv must compile is compiled at once, and {@link ToolRunner.ready} rejects if it does not.
   */
  tools?: readonly AnyTool[];
  /** Who may run what (default `'allow_all'`). */
  permissions?: PermissionPolicy;
  /** Refuse every tool that is not read-only. */
  planMode?: boolean;
  /** Conversation of calls that name none (default `'default'`). */
  conversationId?: string;
  /** Deadline of calls that give no `timeoutMs`, in ms > 0 (default: none; `Infinity`: none). */
  defaultTimeoutMs?: number;
  /** Receives `ctx.send` messages. */
  onMessage?: (message: ToolMessage) => void | Promise<void>;
  /** Host's answer to `ctx.isIdle()` (default: false). */
  isIdle?: () => boolean;
  /** Directory relative paths resolve against: an absolute path inside the platform root (default: the root). */
  cwd?: string;
  verbose?: boolean;
  /**
   * The change journal behind {@link ToolRunner.changes} and {@link ToolRunner.rewind}: on by default
   * where the runner has a journal (the package's does), `{ maxBytes }` sets its budget of kept file
   * contents in bytes (default 64 MiB; the oldest turns are dropped past it), `false` turns it off
   * (mutating calls then cost nothing extra).
   */
  journal?: boolean | { maxBytes?: number };
  /**
   * Review mode (see docs/journal.md, Review): `true` for every conversation, or a function saying per
   * conversation id. A reviewed conversation's writes are staged: its own calls see them (reads,
   * listings, searches), the workspace does not change until the host accepts them with
   * {@link ToolRunner.accept}; {@link ToolRunner.reject} discards them and tells the model on its next
   * call. Commands are refused there (`unavailable`). A conversation with staged changes keeps its
   * staged view until all are accepted or rejected. Default `false`.
   */
  review?: boolean | ((conversationId: string) => boolean);
}

/** A call's options inside the runner: the caller's, and the journal turn the call belongs to. */
type RunOptions = CallOptions & { turn?: JournalTurn | undefined };

/** A store that several processes share: the runner revalidates its cache and locks per call. */
type SharedStore = StateStore & Required<Pick<StateStore, 'lock' | 'snapshot'>>;

function sharedStore(store: StateStore): SharedStore | undefined {
  return typeof store.lock === 'function' && typeof store.snapshot === 'function' ? (store as SharedStore) : undefined;
}

function stateMap(state: Record<string, JsonValue>): Map<string, string> {
  return new Map(Object.entries(state).map(([key, value]) => [key, JSON.stringify(value)]));
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: ToolError };

/**
 * What a runner uses where its options say nothing. The core has none of its own: the package's
 * `ToolRunner` (src/runner.ts) passes toolhost's — a fresh memory platform, the web-search fallback
 * under `web_search` and `google_search`, the built-in tools' generated validators.
 */
export interface RunnerDefaults {
  /** Makes the platform of a runner given none; without it `platform` is required. */
  readonly platform?: () => Platform;
  /**
   * Tools answered under a name no registered tool holds, by that name (each built once per runner,
   * at its first call; one tool may stand under several, as the web-search fallback does under
   * `web_search` and `google_search`).
   */
  readonly fallbackTools?: Readonly<Record<string, AnyTool>>;
  /** Validators generated ahead of time for known schemas, used instead of compiling them. */
  readonly validators?: GeneratedValidators;
  /** Makes the change journal of a runner whose `journal` option is not `false`; without it there is none. */
  readonly journal?: (platform: Platform, setup: JournalSetup) => ChangeJournalPort;
  /** Makes the review mode of a runner whose `review` option is on; without it `review` is refused. */
  readonly review?: (platform: Platform, setup: ReviewSetup) => ReviewPort;
}

/**
 * Registers tools and runs tool calls. Validates arguments once (ajv for a JSON Schema, the library
 * itself for a Standard Schema), applies permissions and plan mode, hands tools a {@link ToolContext},
 * persists tool state before a call's result is returned, and turns every failure into a coded result.
 * Tools of both shapes ({@link ExecuteTool} and the classic {@link Tool}) are taken alike.
 */
export class ToolRunner implements ToolHost {
  readonly platform: Platform;
  readonly denialTracker = new DenialTracker();
  readonly conversationId: string;
  readonly defaultTimeoutMs: number | undefined;
  readonly cwd: string;
  readonly verbose: boolean;
  #permissions: PermissionChecker;
  #planMode: boolean;
  readonly #options: ToolRunnerOptions;
  readonly #tools = new Map<string, ToolEntry>();
  readonly #conversations = new Map<string, ConversationState>();
  readonly #loading = new Map<string, Promise<ConversationState>>();
  readonly #pathLocks = new KeyedMutex();
  /** Serialises calls on a platform with `batch`, so no other caller's commit is deferred into a batch. */
  readonly #calls = new KeyedMutex();
  readonly #contextHost: ContextHost;
  readonly #compiling: Promise<void>;
  /** The platform's state store when several processes share it (it has `lock` and `snapshot`). */
  readonly #shared: SharedStore | undefined;
  readonly #defaults: RunnerDefaults;
  /** The entries of the fallback tools called so far, by tool (one tool may answer under two names). */
  readonly #fallbacks = new Map<AnyTool, ToolEntry>();
  /** The change journal, unless the runner has none or it was turned off. */
  readonly #journal: ChangeJournalPort | undefined;
  /** Review mode, when the `review` option is on; and whether it is for a conversation. */
  readonly #review: ReviewPort | undefined;
  readonly #reviewOn: (conversationId: string) => boolean;
  /** The platform's own staging's review (an overlay's), asked for on first use; and once it answered. */
  #platformReview: Promise<ReviewPort> | undefined;
  #platformReviewReady: ReviewPort | undefined;

  /**
   * Checks `options` (see {@link ToolRunnerOptions}); `defaults` fill what they leave out (the
   * package's `ToolRunner` passes toolhost's own, so `new ToolRunner()` runs on a memory platform).
   */
  constructor(options: ToolRunnerOptions = {}, defaults: RunnerDefaults = {}) {
    checkOptions('ToolRunner', options, RUNNER_OPTION_RULES);
    this.#options = options;
    this.#defaults = defaults;
    const platform = options.platform ?? defaults.platform?.();
    if (platform === undefined) throw new TypeError('ToolRunner: platform is required here (no default platform); pass one such as createMemoryPlatform()');
    this.platform = platform;
    const search = (platform as { search?: unknown }).search;
    if (search !== undefined && (typeof search !== 'object' || search === null || typeof (search as { search?: unknown }).search !== 'function')) {
      throw new TypeError(`ToolRunner: platform.search must be a search engine, an object with a search(request, ctx) method, not ${describeValue(search)}; leave it out for toolhost's default engine`);
    }
    if (options.cwd !== undefined && !isInside(joinPath(this.platform.root), joinPath(options.cwd))) {
      throw new TypeError(`ToolRunner: cwd must be a directory inside the platform root (${this.platform.root}), not ${describeValue(options.cwd)}`);
    }
    this.#permissions = new PermissionChecker(options.permissions ?? 'allow_all');
    this.#planMode = options.planMode ?? false;
    this.conversationId = options.conversationId ?? 'default';
    this.defaultTimeoutMs = options.defaultTimeoutMs;
    this.cwd = options.cwd ?? this.platform.root;
    this.verbose = options.verbose ?? false;
    this.#shared = sharedStore(this.platform.state);
    const hooks: HostHooks = {};
    if (options.startSubagent) hooks.startSubagent = options.startSubagent;
    if (options.generateImage) hooks.generateImage = options.generateImage;
    if (options.onFinish) hooks.onFinish = options.onFinish;
    this.#contextHost = {
      platform: this.platform,
      cwd: this.cwd,
      verbose: this.verbose,
      hooks,
      denialTracker: this.denialTracker,
      permissions: () => this.#permissions,
      planMode: () => this.#planMode,
      isIdle: () => options.isIdle?.() ?? false,
      onMessage: options.onMessage,
      withPathLock: (path, fn, signal) => this.#pathLocks.run(path, () => this.#withPlatformLock(path, fn, signal)),
    };
    const journal = options.journal ?? true;
    this.#journal =
      journal === false || !defaults.journal
        ? undefined
        : defaults.journal(this.platform, { maxBytes: (journal === true ? undefined : journal.maxBytes) ?? DEFAULT_JOURNAL_BYTES, withPathLock: (path, fn) => this.#contextHost.withPathLock(path, fn) });
    const review = options.review ?? false;
    this.#reviewOn = typeof review === 'function' ? review : () => review;
    if (review !== false && !defaults.review) throw new TypeError('ToolRunner: review needs a runner with review mode (the package\'s ToolRunner has it); leave review out here');
    this.#review = review === false ? undefined : defaults.review?.(this.platform, { withPathLock: (path, fn) => this.#contextHost.withPathLock(path, fn), journal: this.#journal });
    const compiling: Promise<void>[] = [];
    for (const entry of toolEntries('ToolRunner', options.tools ?? [], defaults.validators)) {
      // Compiled now, not at the first call: a schema that does not compile is the host's error,
      // reported by ready() (and as `unavailable` by the tool's calls), never as the model's.
      if (!entry.compiled) compiling.push(entry.compile());
      this.#tools.set(entry.name, entry);
    }
    this.#compiling = Promise.all(compiling).then(() => undefined);
    this.#compiling.catch(() => undefined);
  }

  /**
   * A runner whose tools are all compiled: `new ToolRunner(options)` then {@link ready}. Rejects with
   * the TypeError of the first tool whose schema does not compile (naming the tool).
   */
  static async create(options: ToolRunnerOptions = {}): Promise<ToolRunner> {
    const runner = new this(options);
    await runner.ready();
    return runner;
  }

  /**
   * Resolves once every tool given to the constructor has its validator (most need no compile:
   * the built-ins are precompiled, Standard Schemas validate themselves). Rejects with a TypeError
   * naming the tool whose schema ajv refused, or that cannot be compiled here (a strict CSP).
   */
  ready(): Promise<void> {
    return this.#compiling;
  }

  /** The permission checker in force (replaced by {@link setPermissions}). */
  get permissions(): PermissionChecker {
    return this.#permissions;
  }

  /** Whether plan mode is on (only read-only tools run); settable, as {@link setPlanMode}. */
  get planMode(): boolean {
    return this.#planMode;
  }

  set planMode(on: boolean) {
    this.setPlanMode(on);
  }

  /**
   * Replaces the permission policy for the calls that start from now on (calls already waiting for a
   * permission keep the answer they get). `allow_session` answers given under the old policy are
   * forgotten. Throws a TypeError for a value that is not a policy.
   */
  setPermissions(policy: PermissionPolicy): void {
    const problem = permissionPolicyRule(policy, 'policy');
    if (problem) throw new TypeError(`setPermissions: ${problem}`);
    this.#permissions = new PermissionChecker(policy);
  }

  /** Turns plan mode on or off for the calls that start from now on. */
  setPlanMode(on: boolean): void {
    if (typeof on !== 'boolean') throw new TypeError(`setPlanMode takes a boolean, not ${JSON.stringify(on)}`);
    this.#planMode = on;
  }

  /**
   * Adds a tool (either shape), after the ones registered. A name that is taken is refused: a tool from
   * elsewhere (a remote MCP server, a page, a late registration) never takes the place of one the host
   * registered by accident. To replace on purpose pass `{ replace: true }` (the new tool keeps the old
   * one's place in `declarations()`), or `{ replace: [oldTool] }` to replace only that object. The
   * same tool object registered again (it already holds its name) is taken once, as the same object
   * listed twice in the constructor's `tools` is: it keeps its place.
   *
   * Rejects with a TypeError naming the tool — a host's mistake, never `invalid_arguments` — for a name
   * that is taken (`ToolRunner.register: a tool named "view_file" is already registered; …`), a bad
   * name, a missing `execute`/`call`, a schema that is not a compilable JSON Schema object (or cannot
   * be compiled here: see registerPrecompiledValidators), or a bad `options`.
   */
  async register(tool: AnyTool, options: RegisterOptions = {}): Promise<void> {
    await this.#registerTools('ToolRunner.register', [tool], options);
  }

  /**
   * Registers several tools at once, all or none: every tool is checked and compiled first, then all
   * are added in one step (no call sees half of them). The same tool object listed twice, or already
   * registered, is taken once, at its first place; two different tools of one name never are. Tools named in `options.replace` (by identity)
   * are removed in the same step, and only their names may be taken again — how a bridge swaps the
   * tools it registered earlier for a new list (`mcpTools` on `tools/list_changed`).
   *
   * Rejects with a TypeError, and changes nothing, for two tools of one name in `tools`, a name held
   * by a tool `replace` does not allow (naming it and how to fix: another name or prefix, unregister it
   * first, or `replace`), an item that is a list or set of tools itself, or any reason {@link register}
   * gives; its messages begin `ToolRunner.registerAll:` where register's begin `ToolRunner.register:`.
   */
  async registerAll(tools: readonly AnyTool[], options: RegisterOptions = {}): Promise<void> {
    await this.#registerTools('ToolRunner.registerAll', tools, options);
  }

  /** {@link register} and {@link registerAll}: `where` (the method the host called) begins their TypeErrors. */
  async #registerTools(where: 'ToolRunner.register' | 'ToolRunner.registerAll', tools: readonly AnyTool[], options: RegisterOptions): Promise<void> {
    checkOptions(where, options, REGISTER_OPTION_RULES);
    if (!Array.isArray(tools)) throw new TypeError(`ToolRunner.registerAll takes an array of tools, not ${describeValue(tools)}${arrayInstead(tools)}`);
    const entries = toolEntries(where, tools, this.#defaults.validators);
    const names = new Set(entries.map((entry) => entry.name));
    await Promise.all(entries.map((entry) => entry.compile()));
    // No await from here on: the check and the change happen in one step.
    const replace = options.replace ?? [];
    const replaceable = (entry: ToolEntry): boolean => replace === true || (replace !== false && replace.includes(entry.tool));
    for (const entry of entries) {
      const held = this.#tools.get(entry.name);
      if (held && held.tool !== entry.tool && !replaceable(held)) throw takenNameError(where, entry.name);
    }
    if (Array.isArray(replace)) {
      for (const old of replace) {
        const name = typeof old === 'object' && old !== null ? String(old.name) : '';
        if (!names.has(name) && this.#tools.get(name)?.tool === old) this.#tools.delete(name);
      }
    }
    // A name already held (the same tool object registered again, or one replaced) keeps its place.
    for (const entry of entries) this.#tools.set(entry.name, entry);
  }

  /** Removes a tool by name; true when one was registered. */
  unregister(name: string): boolean {
    return this.#tools.delete(name);
  }

  /** Whether a tool of this name is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Function declarations of the registered tools, in registration order, `parameters` as objects. */
  declarations(): FunctionDeclaration[] {
    return [...this.#tools.values()].map((entry) => ({ name: entry.name, description: entry.description, parameters: entry.parameters }));
  }

  /**
   * The registered tools with annotations (`readOnlyHint` always set), output schema and concurrency,
   * in registration order: all an adapter (MCP `tools/list`, the AI SDK) needs, without the tool list.
   */
  tools(): ToolInfo[] {
    return [...this.#tools.values()].map((entry) => {
      const info: ToolInfo = {
        name: entry.name,
        description: entry.description,
        parameters: entry.parameters,
        annotations: { ...entry.annotations },
        concurrencySafe: entry.concurrencySafe,
      };
      if (entry.outputSchema) info.outputSchema = entry.outputSchema;
      return info;
    });
  }

  /**
   * Runs one call and returns the tool's output; rejects with a {@link ToolError} (check `code`).
   * Codes: `unknown_tool`, `invalid_arguments`, `permission_denied`, `cancelled`, `timeout`,
   * `execution_failed` (a throw, message kept; a result that breaks the tool's outputSchema),
   * `unavailable` (the tool's schema could not be compiled), or the tool's own code. Bad `options`
   * (see {@link CallOptions}) reject with a TypeError instead: the host's mistake, not the model's.
   *
   * Given the tool object itself (`runner.execute(weather, { city: 'Oslo' })`) instead of its name, the
   * result is typed with the tool's output type (what its `execute` / `call` returns; `args` stay
   * `unknown`, validated as ever). That object must be the one registered under its name, checked when
   * the call starts: otherwise the call rejects with a TypeError (`ToolRunner.execute: the tool "get_weather"
   * given is not registered on this runner; register it first, or pass its name`), since
   * another tool's output would not have that type.
   */
  execute<Output>(tool: ExecuteTool<never, Output> | Tool<never, Output>, args: unknown, options?: CallOptions): Promise<Output>;
  execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
  async execute(target: string | AnyTool, args: unknown, options: CallOptions = {}): Promise<unknown> {
    checkCallOptions('ToolRunner.execute', options);
    const tool = typeof target === 'object' && target !== null ? target : undefined;
    const name = tool === undefined ? (target as string) : String(tool.name);
    const run = async (): Promise<unknown> => {
      // Checked with no await before #run looks the name up, so the tool that runs is this one.
      if (tool !== undefined && this.#tools.get(name)?.tool !== tool) {
        throw new TypeError(`ToolRunner.execute: the tool ${quoteForMessage(name)} given is not registered on this runner; register it first, or pass its name`);
      }
      // A journal still taking up its store (finishing a rewind a closed page left under way) goes first.
      const loading = this.#journal?.ready?.();
      if (loading) await loading;
      const turn = this.#journal?.beginTurn(options.conversationId ?? this.conversationId);
      let ended: TurnEnd | void = undefined;
      let outcome = await this.#run(name, args, turn ? { ...options, turn } : options, undefined).finally(async () => {
        ended = await turn?.end();
      });
      // The turn's change was made but could not be stored: its result says so (the call did not fail).
      const unrecorded = (ended as TurnEnd | void)?.unrecorded;
      if (unrecorded !== undefined) outcome = withNote(outcome, unrecorded.note, this.#lookup(name)?.outputSchema !== undefined) ?? outcome;
      if (turn) this.#journal?.recordCalls?.(options.conversationId ?? this.conversationId, turn.turn, [recordOf(name, args, outcome)]);
      if (outcome.ok) return outcome.value;
      throw outcome.error;
    };
    return this.platform.batch ? this.#calls.run('calls', run) : run();
  }

  /**
   * Runs a batch of calls and returns one result per call, in call order, ids echoed; a call's failure
   * is its result, never a rejection. Bad `options` (see {@link CallOptions}), `calls` that are not
   * an array, a call in a model API's shape (`arguments` or `input` instead of `args`, a
   * chat-completions `function`) or two calls sharing an id, the host's mistakes, reject with a
   * TypeError before any call runs.
   * Consecutive `concurrencySafe` calls run concurrently; every other call runs alone, in order.
   * On a platform with `batch` the whole batch is made durable in one commit before it returns; when
   * that commit fails, every change of the batch is undone and each success of a tool that is not
   * read-only reports the commit's code instead (`quota_exceeded`, `unavailable`); read-only results
   * and failures are kept.
   */
  async processToolCalls(calls: readonly ToolCall[], options: CallOptions = {}): Promise<ToolCallResult[]> {
    checkCallOptions('ToolRunner.processToolCalls', options);
    checkToolCalls('ToolRunner.processToolCalls', calls);
    const conversationId = options.conversationId ?? this.conversationId;
    // A journal still taking up its store (finishing a rewind a closed page left under way) goes first.
    const loading = this.#journal?.ready?.();
    if (loading) await loading;
    const turn = this.#journal?.beginTurn(conversationId);
    if (!turn) return this.#processBatch(calls, options);
    let ended: TurnEnd | void = undefined;
    let results = await this.#processBatch(calls, { ...options, turn }).finally(async () => {
      ended = await turn.end();
    });
    const unrecorded = (ended as TurnEnd | void)?.unrecorded;
    if (unrecorded !== undefined) results = this.#withUnrecorded(results, unrecorded);
    this.#journal?.recordCalls?.(conversationId, turn.turn, results.map((result, i) => batchRecordOf(calls[i], result)));
    return results;
  }

  /**
   * `results` with the note of a turn that could not be stored on each call that changed files (by
   * its id; a call without one: each of a tool that is not read-only). Successes stay successes.
   */
  #withUnrecorded(results: ToolCallResult[], unrecorded: NonNullable<TurnEnd['unrecorded']>): ToolCallResult[] {
    const ids = new Set(unrecorded.callIds);
    return results.map((result) => {
      const entry = this.#lookup(result.name);
      if (result.id === undefined ? entry === undefined || entry.readOnly : !ids.has(result.id)) return result;
      const outcome: Outcome = 'code' in result ? { ok: false, error: new ToolError(result.code, result.error) } : { ok: true, value: result.result };
      const noted = withNote(outcome, unrecorded.note, entry?.outputSchema !== undefined);
      if (noted === undefined) return result;
      return noted.ok ? { ...result, result: noted.value } : { ...result, error: noted.error.message };
    });
  }

  /** {@link processToolCalls} once its arguments are checked: the calls, on a platform with `batch` in one commit. */
  async #processBatch(calls: readonly ToolCall[], options: RunOptions): Promise<ToolCallResult[]> {
    const { batch } = this.platform;
    if (!batch) return this.#processCalls(calls, options, undefined);
    return this.#calls.run('calls', async () => {
      const readOnly: boolean[] = new Array(calls.length).fill(true);
      let results: ToolCallResult[] = [];
      try {
        await batch.call(this.platform, async () => {
          results = await this.#processCalls(calls, options, readOnly);
        });
        return results;
      } catch (error) {
        const failure = toToolError(error);
        return results.map((result, i) =>
          'code' in result || readOnly[i]
            ? result
            : { ...(result.id === undefined ? {} : { id: result.id }), name: result.name, error: failure.message, code: failure.code },
        );
      }
    });
  }

  /**
   * What a conversation changed, turn by turn (a turn: one `processToolCalls` batch or one `execute`,
   * numbered from 1 per conversation; turns that changed no file are counted, not listed): each
   * mutating call, the files it changed with their content hashes before and after, and unified diffs.
   * Throws a TypeError on a runner without a journal (`journal: false`). See docs/journal.md.
   */
  changes(conversationId: string = this.conversationId): Promise<ConversationChanges> {
    return this.#journalOrThrow('changes').changes(conversationId);
  }

  /**
   * Puts every file the conversation changed after turn `toTurn` back as it was after that turn (`0`:
   * before its first change), all or nothing; a file someone else changed since is left alone and
   * reported as a conflict with a diff, unless `force`. `dryRun` changes nothing and reports what
   * would be done. The rewind is a turn of its own: rewinding to the turn before it undoes it. Throws a
   * TypeError for bad options or without a journal; rejects with `execution_failed` when a write fails
   * (after putting back what it had written). See docs/journal.md.
   */
  rewind(conversationId: string, options: RewindOptions): Promise<RewindResult> {
    const journal = this.#journalOrThrow('rewind');
    return journal.rewind(conversationId, options).then((result) => {
      // Recorded for cassettes as a call of its own turn (a dry run, or one that restored nothing, has none).
      if (result.turn !== undefined) journal.recordCalls?.(conversationId, result.turn, [{ via: 'rewind', tool: 'rewind', input: { ...options }, result }]);
      return result;
    });
  }

  /**
   * The conversation as a {@link Cassette}, a JSON value to replay in tests with {@link replay}:
   * `{ version: 1, conversationId, root, files, calls, incomplete? }`. `calls` are every call of the
   * conversation in order (`{ turn, via: 'batch' | 'execute' | 'rewind', id?, tool, input?, result |
   * error: { code, message } }`, each as its caller received it); `files` are what each file the
   * conversation changed held before its first change (`{ path, text }`, `{ path, base64 }` or
   * `{ path, absent: true }`), plus the files and folders `options.include` names (absolute, or relative
   * to the runner's cwd), read now: name there the files the conversation only read. `incomplete`
   * (`{ note, droppedThrough?, paths? }`) says the cassette lacks turns dropped to keep within the
   * journal's budget (call records get a quarter of `maxBytes`, in UTF-16 code units of their JSON) or a
   * file's first content; {@link replay} refuses it. Throws a TypeError without a journal or for bad
   * `options`; rejects with a TypeError for an `include` path outside the platform root or a folder of
   * more than 10,000 files. See docs/journal.md.
   */
  cassette(conversationId: string = this.conversationId, options: { include?: readonly string[] } = {}): Promise<Cassette> {
    const journal = this.#journalOrThrow('cassette');
    checkOptions('ToolRunner.cassette', options, { include: is.arrayOf(is.nonEmptyString, 'an array of paths') });
    if (!journal.cassette) throw new TypeError('ToolRunner.cassette: this runner\'s journal records no calls; use the package\'s ToolRunner or a journal from createChangeJournal');
    const include = (options.include ?? []).map((path) => (path.startsWith('/') ? joinPath(path) : joinPath(this.cwd, path)));
    return journal.cassette(conversationId, { include });
  }

  /**
   * Replays a {@link Cassette} on this runner (a fresh one, with the recording's tools, permissions and
   * platform root): writes the cassette's files (removing those it says were absent), then runs its
   * calls turn by turn in the conversation `options.conversationId` (default the cassette's), each
   * batch as one `processToolCalls`, and compares each call's answer with the recorded one after
   * `options.normalize(value, { turn, id?, tool, failed })`. Stops at the first turn with a call that
   * answered otherwise and resolves `{ ok: false, turns, calls, drift: { turn, index, id?, tool, path,
   * expected, actual, diff }, report }` (`path` a JSON path such as `$.result.content`, `diff` a
   * unified diff of two texts or `-`/`+` lines); else `{ ok: true, turns, calls, report }`. A call's
   * failure is compared like a result, never thrown. Throws a TypeError without a journal or for bad
   * `options`; rejects with a TypeError for a value that is not a cassette (naming the field), an
   * incomplete cassette, a file outside the platform root, or a conversation that already has turns
   * here, and with the platform's error when a file cannot be written. See docs/journal.md.
   */
  replay(cassette: Cassette, options: ReplayOptions = {}): Promise<ReplayResult> {
    const journal = this.#journalOrThrow('replay');
    checkOptions('ToolRunner.replay', options, { conversationId: is.nonEmptyString, normalize: is.function });
    if (!journal.replay) throw new TypeError('ToolRunner.replay: this runner\'s journal cannot replay; use the package\'s ToolRunner or a journal from createChangeJournal');
    const conversationId = options.conversationId ?? (cassette as { conversationId?: unknown } | null)?.conversationId;
    return journal.replay(cassette, this, { ...options, conversationId: typeof conversationId === 'string' ? conversationId : this.conversationId });
  }

  /**
   * The staged changes of a conversation in review mode, per file, sorted by path: `{ path, kind
   * ('create' | 'modify' | 'delete'), diff, hunks, conflict? }`, each hunk `{ id, oldStart, oldLines,
   * newStart, newLines, diff }` (unified diff hunks with 3 lines of context; a created, deleted or
   * binary file is one hunk). `conflict` (a diff) is set when the workspace's file changed since the
   * conversation first changed it. On a platform that stages every write itself (the web platform's
   * overlay), a conversation this runner does not review gets the platform's staged changes, and
   * accepting writes them to the overlay's base. Throws a TypeError on a runner without `review` on a
   * platform without such staging. See docs/journal.md.
   */
  pendingChanges(conversationId: string = this.conversationId): Promise<PendingChanges> {
    this.#reviewOrThrow('pendingChanges');
    return this.#reviewFor(conversationId).then((review) => review.pending(conversationId));
  }

  /**
   * Writes staged changes to the workspace: every hunk of each file in `paths`, each hunk in `hunks`
   * (ids from {@link pendingChanges}), or, with neither, every pending change. A file gets exactly
   * the text of its accepted hunks (the others stay pending); a file the workspace changed under its
   * staged change is not written but reported in `conflicts` with a diff. The writes are one journal
   * turn (`turn`; tool name `accept`), so a rewind to the turn before undoes them. Answers `{ written,
   * hunks, conflicts, turn? }`. Throws a TypeError for a bad selection, a path with nothing pending or
   * a hunk id that is not pending (its file changed since it was listed: list again), or without
   * `review`; rejects with `execution_failed` when a write fails (files written before it stay written).
   */
  accept(conversationId: string, selection: ReviewSelection = {}): Promise<AcceptResult> {
    this.#reviewOrThrow('accept');
    return this.#reviewFor(conversationId).then((review) =>
      // On a platform with `batch`, not inside another caller's batch (whose failed commit would undo these writes).
      this.platform.batch ? this.#calls.run('calls', () => review.accept(conversationId, selection)) : review.accept(conversationId, selection),
    );
  }

  /**
   * Discards staged changes, chosen as for {@link accept}: a whole file goes back to what the workspace
   * holds, a hunk's lines back to the workspace's in the staged file. The model's next call in the
   * conversation carries a note naming what was rejected (with the hunks' diffs and `reason`), once.
   * Answers `{ reverted, hunks }`. Throws a TypeError as {@link accept} does.
   */
  reject(conversationId: string, options: RejectOptions = {}): Promise<RejectResult> {
    this.#reviewOrThrow('reject');
    return this.#reviewFor(conversationId).then((review) => review.reject(conversationId, options));
  }

  /** Throws the TypeError of a runner with no review: neither the `review` option nor a platform that stages its writes. */
  #reviewOrThrow(method: string): void {
    if (!this.#review && !isStagingPlatform(this.platform)) {
      throw new TypeError(`ToolRunner.${method}: this runner is not in review mode; create it with review: true (or a function choosing the conversations)`);
    }
  }

  /**
   * The review that answers for `conversationId`: the runner's own when it reviews the conversation
   * (or holds staged changes of it), else the platform's staging (an overlay's) when it has one, else
   * the runner's own.
   */
  async #reviewFor(conversationId: string): Promise<ReviewPort> {
    const own = this.#review;
    if (own && (this.#reviewOn(conversationId) || own.hasPending(conversationId))) return own;
    const staged = await this.#stagedReview();
    return (staged ?? own) as ReviewPort;
  }

  /** The platform's staging's review (asked for once), or undefined when the platform stages nothing itself. */
  async #stagedReview(): Promise<ReviewPort | undefined> {
    const platform = this.platform;
    if (!isStagingPlatform(platform)) return undefined;
    const asked = (this.#platformReview ??= platform.stagedReview({ withPathLock: (path, fn) => this.#contextHost.withPathLock(path, fn), journal: undefined }));
    asked.catch(() => (this.#platformReview = undefined));
    this.#platformReviewReady = await asked;
    return this.#platformReviewReady;
  }

  /** The staged view a call of `conversationId` works in, when its conversation is reviewed or has staged changes. */
  #stagedView(conversationId: string): { fs: FsPromises; platform: Platform } | undefined {
    const review = this.#review;
    if (!review) return undefined;
    return this.#reviewOn(conversationId) || review.hasPending(conversationId) ? review.view(conversationId) : undefined;
  }

  #journalOrThrow(method: string): ChangeJournalPort {
    if (!this.#journal) throw new TypeError(`ToolRunner.${method}: this runner keeps no change journal (its journal option is false, or it has no journal factory); create it without journal: false`);
    return this.#journal;
  }

  /** Reads a conversation's tool state from the platform store (for hosts and inspectors). */
  async getState(conversationId: string = this.conversationId): Promise<Record<string, JsonValue>> {
    if (this.#shared) return (await this.#shared.snapshot(conversationId, undefined)).state ?? {};
    const state = await this.#conversation(conversationId);
    const out: Record<string, JsonValue> = {};
    for (const [key, text] of state.values) out[key] = JSON.parse(text) as JsonValue;
    return out;
  }

  /** Runs the calls in order (concurrency-safe neighbours together); notes in `readOnly[i]` whether call i's tool was read-only. */
  async #processCalls(calls: readonly ToolCall[], options: RunOptions, readOnly: boolean[] | undefined): Promise<ToolCallResult[]> {
    const results: ToolCallResult[] = new Array(calls.length);
    const runOne = (index: number): Promise<ToolCallResult> => {
      const call = calls[index];
      if (readOnly && typeof call === 'object' && call !== null && typeof call.name === 'string') {
        readOnly[index] = this.#lookup(call.name)?.readOnly ?? true;
      }
      return this.#runCall(call, options);
    };
    let i = 0;
    while (i < calls.length) {
      if (this.#isConcurrencySafe(calls[i])) {
        let j = i;
        while (j < calls.length && this.#isConcurrencySafe(calls[j])) j += 1;
        const start = i;
        const settled = await Promise.all(calls.slice(i, j).map((_, k) => runOne(start + k)));
        settled.forEach((result, k) => (results[start + k] = result));
        i = j;
      } else {
        results[i] = await runOne(i);
        i += 1;
      }
    }
    return results;
  }

  #lookup(name: string): ToolEntry | undefined {
    const entry = this.#tools.get(name);
    if (entry) return entry;
    const fallback = this.#defaults.fallbackTools;
    if (fallback === undefined || !Object.hasOwn(fallback, name)) return undefined;
    const tool = fallback[name]!;
    let made = this.#fallbacks.get(tool);
    if (made === undefined) {
      made = createToolEntry(tool, this.#defaults.validators);
      this.#fallbacks.set(tool, made);
    }
    return made;
  }

  #isConcurrencySafe(call: ToolCall | undefined): boolean {
    if (typeof call !== 'object' || call === null || typeof call.name !== 'string') return true;
    const entry = this.#lookup(call.name);
    return entry ? entry.concurrencySafe : true;
  }

  async #runCall(call: ToolCall | undefined, options: RunOptions): Promise<ToolCallResult> {
    const id = typeof call === 'object' && call !== null && typeof call.id === 'string' ? call.id : undefined;
    const withId = <T extends object>(value: T): T & { id?: string } => (id === undefined ? value : { id, ...value });
    if (typeof call !== 'object' || call === null || typeof call.name !== 'string') {
      return withId({
        name: typeof (call as { name?: unknown } | null)?.name === 'string' ? (call as { name: string }).name : '',
        error: 'each tool call must be an object { id?, name: string, args }',
        code: 'invalid_arguments' as const,
      });
    }
    const outcome = await this.#run(call.name, call.args, options, id);
    return outcome.ok
      ? withId({ name: call.name, result: outcome.value })
      : withId({ name: call.name, error: outcome.error.message, code: outcome.error.code });
  }

  async #run(name: string, rawArgs: unknown, options: RunOptions, id: string | undefined): Promise<Outcome> {
    // A review's rejections reach the model with its next call in the conversation (the first to start), once.
    const conversationId = options.conversationId ?? this.conversationId;
    // A note of the platform's staging's review (an overlay's) when the runner's own has none.
    const ownNote = this.#review?.takeNote(conversationId);
    const from = ownNote === undefined ? this.#platformReviewReady : this.#review;
    const note = ownNote ?? this.#platformReviewReady?.takeNote(conversationId);
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: await this.#invoke(name, rawArgs, options, id) };
    } catch (error) {
      outcome = { ok: false, error: toToolError(error) };
    }
    if (note === undefined) return outcome;
    const noted = withNote(outcome, note, this.#lookup(name)?.outputSchema !== undefined);
    if (!noted) from?.keepNote(conversationId, note);
    return noted ?? outcome;
  }

  async #invoke(name: string, rawArgs: unknown, options: RunOptions, id: string | undefined): Promise<unknown> {
    const registered = this.#lookup(name);
    if (!registered) {
      const names = [...this.#tools.keys()];
      const listed = names.slice(0, 30).join(', ') + (names.length > 30 ? ', ...' : '');
      throw new ToolError('unknown_tool', `unknown tool ${quoteForMessage(String(name))}; available tools: ${listed || '(none registered)'}`);
    }
    if (typeof rawArgs === 'string') throw stringArguments(name, rawArgs);
    let args = registered.parse(rawArgs, name);
    if (isThenable(args)) args = await args;
    // From here on, read-only is this call's (a text editor's `view` is, its `create` is not).
    const entry = entryForCall(registered, args);
    const { signal } = options;
    if (signal?.aborted) throw cancelled(name, signal, false);
    const conversationId = options.conversationId ?? this.conversationId;
    // Generated only where it is seen (a permission request, the tool's context): the fast path below
    // has no use for it, and crypto.randomUUID costs a random-source read per call.
    let callId = id;
    if (this.#planMode || this.#permissions.policy !== 'allow_all') {
      callId ??= crypto.randomUUID();
      const request = { tool: name, args, conversationId, callId, readOnly: entry.readOnly } as PermissionRequest;
      // Non-enumerable: hosts post the request to a page or another thread, and an AbortSignal cannot be cloned.
      Object.defineProperty(request, 'signal', { value: signal ?? new AbortController().signal, enumerable: false });
      const decision = await abortable(this.#permissions.check(request, this.#planMode), signal, name, false);
      if (!decision.allowed) {
        this.denialTracker.record({ tool: name, args, reason: decision.reason, conversationId, time: Date.now() });
        throw new ToolError('permission_denied', decision.reason);
      }
      if (signal?.aborted) throw cancelled(name, signal, false);
    }
    // A mutating call's ctx.fs is the journal's view, which keeps each file's content before it changes.
    let fs: FsPromises | undefined;
    // In review mode every call of the conversation (reads too) works in its staged view; nothing is journaled until accepted.
    const staged = entry.usesContext ? this.#stagedView(conversationId) : undefined;
    let platform = staged?.platform;
    if (staged) fs = staged.fs;
    else if (!entry.readOnly && entry.usesContext) {
      // What follows the platform's files as tools change them (its search index) sees each write as
      // it is made, beneath the journal's view.
      const watch = toolWriteView(this.platform);
      const base = watch ? watch(this.platform.fs) : this.platform.fs;
      if (options.turn) {
        fs = options.turn.fsFor({ callId: (callId ??= crypto.randomUUID()), tool: name }, base);
        // Where commands change files behind ctx.fs (Node), the journal lists what each command changed.
        platform = options.turn.platformFor?.(fs, this.platform);
      } else if (watch) fs = base;
    }
    const timeoutMs = normaliseTimeout(options.timeoutMs ?? this.defaultTimeoutMs);
    if (timeoutMs === undefined && (entry.readOnly || !this.platform.flush)) {
      // Fast path: no deadline and nothing to flush; only the caller's signal (a worker bridge passes
      // one for a call its host can cancel) can end the call early, with `cancelled` as on the full path.
      if (!entry.usesContext) {
        const value = signal ? await abortable(Promise.resolve(entry.run(args, undefined)), signal, name) : await entry.run(args, undefined);
        return this.#output(entry, name, value);
      }
    }
    // A mutating call the caller can cancel takes the full path, which knows whether it changed a file.
    if (timeoutMs === undefined && (entry.readOnly || !this.platform.flush) && !this.#shared && (entry.readOnly || !signal)) {
      // A tool that takes a context gets one built lazily (no timer; no controller unless it reads `signal`).
      const state = this.#conversations.get(conversationId) ?? (await this.#conversation(conversationId));
      const ctx = new CallContext(
        this.#contextHost,
        { tool: name, conversationId, callId, callerSignal: signal, controller: undefined, onMessage: options.onMessage, fs, platform },
        state,
      );
      let value: unknown;
      try {
        const running = entry.run(args, ctx);
        value = signal ? await abortable(Promise.resolve(running), signal, name) : await running;
      } catch (error) {
        // A call that fails keeps none of the state it set.
        const changes = ctx.end();
        if (changes) rollBack(state, changes);
        throw error;
      }
      const changes = ctx.end();
      if (changes) await this.#persist(conversationId, state, changes);
      return this.#output(entry, name, value);
    }
    return this.#invokeWithDeadline(entry, name, args, { conversationId, callId, signal, timeoutMs, onMessage: options.onMessage, fs, platform });
  }

  async #invokeWithDeadline(
    entry: ToolEntry,
    name: string,
    args: unknown,
    call: {
      conversationId: string;
      callId: string | undefined;
      signal: AbortSignal | undefined;
      timeoutMs: number | undefined;
      onMessage: CallOptions['onMessage'];
      fs: FsPromises | undefined;
      platform: Platform | undefined;
    },
  ): Promise<unknown> {
    const shared = entry.usesContext ? this.#shared : undefined;
    let state = entry.usesContext && !shared ? (this.#conversations.get(call.conversationId) ?? (await this.#conversation(call.conversationId))) : undefined;
    const started = Date.now();
    // A shared store: the cache is checked against the store's version before the call, and a
    // state-changing call holds the conversation's lock across processes until its keys are committed.
    let lease: StateLease | undefined;
    let cached: ConversationState | undefined;
    if (shared) ({ state, lease, cached } = await this.#sharedState(shared, entry, name, call, started));
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const interrupted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    interrupted.catch(() => undefined);
    if (call.signal) {
      onAbort = () => controller.abort(cancelled(name, call.signal as AbortSignal));
      call.signal.addEventListener('abort', onAbort, { once: true });
      // A signal that aborted while the call waited for its state (or for a call before it) fires no
      // event any more: the call is cancelled now, before its tool starts, rather than left to run unstoppable.
      if (call.signal.aborted) controller.abort(cancelled(name, call.signal, false));
    }
    if (call.timeoutMs !== undefined) {
      const ms = call.timeoutMs;
      timer = setTimeout(
        () => controller.abort(deadlineError(name, ms)),
        Math.max(0, ms - (Date.now() - started)),
      );
    }
    const ctx = state
      ? new CallContext(
          this.#contextHost,
          {
            tool: name,
            conversationId: call.conversationId,
            callId: call.callId,
            callerSignal: undefined,
            controller,
            onMessage: call.onMessage,
            deadline: call.timeoutMs === undefined ? undefined : started + call.timeoutMs,
            fs: call.fs,
            platform: call.platform,
          },
          state,
        )
      : undefined;
    let succeeded = false;
    try {
      // Stopped before it started (its signal had fired): the tool is not run at all.
      if (controller.signal.aborted) throw controller.signal.reason;
      const running = Promise.resolve().then(() => entry.run(args, ctx));
      running.catch(() => undefined);
      let value: unknown;
      try {
        value = await Promise.race([running, interrupted]);
      } catch (error) {
        // Stopped (deadline or cancel) after it began changing files: `timeout` or `cancelled` would
        // tell the model nothing changed, so the tool's own answer is awaited (it saw its signal abort).
        if (error !== controller.signal.reason || entry.readOnly || !ctx?.changedFiles) throw error;
        value = await settleAfterChanges(running, ctx, name, error as ToolError);
      }
      // A read-only tool that blocked the thread past its deadline (the timer could not fire) still
      // timed out: its late answer changed nothing. A mutating tool that got this far made its change,
      // so it returns its result: `timeout` would tell the model to retry a change already made.
      if (entry.readOnly && call.timeoutMs !== undefined && Date.now() - started >= call.timeoutMs) {
        throw deadlineError(name, call.timeoutMs);
      }
      const output = await this.#output(entry, name, value);
      succeeded = true;
      return output;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      if (onAbort) call.signal?.removeEventListener('abort', onAbort);
      const changes = ctx?.end();
      if (!controller.signal.aborted) controller.abort(endedReason(name));
      if (!succeeded) {
        // A call that fails keeps none of the state it set (a lease's copy is simply dropped).
        if (lease) await lease.release();
        else if (changes && state) rollBack(state, changes);
      } else if (lease && state && cached) {
        const dirty = changes?.dirty ?? new Map<string, string | undefined>();
        const deadline = call.timeoutMs !== undefined && Date.now() - started < call.timeoutMs ? started + call.timeoutMs : undefined;
        // Adopted as the cache only once committed; a failed commit leaves the cache as the store is.
        const version =
          dirty.size > 0
            ? await lease.commit(
                [...dirty].map(([key, text]) => [key, text === undefined ? undefined : (JSON.parse(text) as JsonValue)] as const),
                deadline === undefined ? {} : { deadline },
              )
            : (await lease.release(), lease.version);
        cached.values = state.values;
        cached.version = version;
      } else if (changes && changes.dirty.size > 0 && state) {
        if (cached) cached.version = undefined;
        await this.#persist(call.conversationId, state, changes);
      }
      if (!entry.readOnly && this.platform.flush) await this.platform.flush();
    }
  }

  /** Runs `fn` holding the platform's cross-process lock of `path` too, where the platform has one. */
  async #withPlatformLock<T>(path: string, fn: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const { lockPath } = this.platform;
    if (!lockPath) return fn();
    const release = await lockPath.call(this.platform, path, signal);
    try {
      return await fn();
    } finally {
      await release();
    }
  }

  /**
   * The state a call sees on a shared store: a read-only call the cache, refreshed when the store's
   * version moved; a state-changing call a copy taken under the conversation's lock (its lease).
   */
  async #sharedState(
    store: SharedStore,
    entry: ToolEntry,
    name: string,
    call: { conversationId: string; signal: AbortSignal | undefined; timeoutMs: number | undefined },
    started: number,
  ): Promise<{ state: ConversationState; lease: StateLease | undefined; cached: ConversationState }> {
    let cached = this.#conversations.get(call.conversationId);
    if (!cached) {
      cached = { values: new Map(), fileCache: createFileCache(), version: undefined };
      this.#conversations.set(call.conversationId, cached);
    }
    const wait = { ...(call.timeoutMs === undefined ? {} : { deadline: started + call.timeoutMs }), ...(call.signal ? { signal: call.signal } : {}) };
    try {
      if (entry.readOnly) {
        const snapshot = await store.snapshot(call.conversationId, cached.version, wait);
        if (snapshot.state) cached.values = stateMap(snapshot.state);
        cached.version = snapshot.version;
        return { state: cached, lease: undefined, cached };
      }
      const lease = await store.lock(call.conversationId, cached.version, wait);
      const values = lease.state ? stateMap(lease.state) : new Map(cached.values);
      return { state: { values, fileCache: cached.fileCache, version: lease.version }, lease, cached };
    } catch (error) {
      if (call.signal?.aborted) throw cancelled(name, call.signal, false);
      throw error;
    }
  }

  /**
   * Stores the keys a call set, in one `setMany`. When that fails, puts back what the cache held before
   * the call (unless a later call has set the key since), so reads agree with the store, and rethrows.
   */
  async #persist(conversationId: string, state: ConversationState, changes: StateChanges | undefined): Promise<void> {
    if (!changes || changes.dirty.size === 0) return;
    const { dirty, previous } = changes;
    try {
      await this.platform.state.setMany(
        conversationId,
        [...dirty].map(([key, text]) => [key, text === undefined ? undefined : (JSON.parse(text) as JsonValue)] as const),
      );
    } catch (error) {
      for (const [key, text] of dirty) {
        if (state.values.get(key) !== text) continue;
        const before = previous.get(key);
        if (before === undefined) state.values.delete(key);
        else state.values.set(key, before);
      }
      throw error;
    } finally {
      dirty.clear();
    }
  }

  /** A tool's result as the caller gets it: `undefined` → null; not JSON, or against its outputSchema → `execution_failed`. */
  #output(entry: ToolEntry, name: string, value: unknown): unknown {
    const result = value === undefined ? null : value;
    const problem = findNonJson(result);
    if (problem) {
      throw new ToolError('execution_failed', `${name} returned a value that is not JSON (${problem}); tools must return JSON-serialisable values`);
    }
    if (entry.checkOutput) {
      const checked = entry.checkOutput(result);
      if (isThenable(checked)) return Promise.resolve(checked).then(() => result);
    }
    return result;
  }

  async #conversation(conversationId: string): Promise<ConversationState> {
    const ready = this.#conversations.get(conversationId);
    if (ready) return ready;
    let loading = this.#loading.get(conversationId);
    if (!loading) {
      loading = (async () => {
        const stored = await this.platform.state.getAll(conversationId);
        const state: ConversationState = {
          values: new Map(Object.entries(stored).map(([key, value]) => [key, JSON.stringify(value)])),
          fileCache: createFileCache(),
        };
        this.#conversations.set(conversationId, state);
        this.#loading.delete(conversationId);
        return state;
      })();
      loading.catch(() => this.#loading.delete(conversationId));
      this.#loading.set(conversationId, loading);
    }
    return loading;
  }
}

/**
 * How long a mutating call that was stopped after it began changing files may take to give its own
 * answer (it finishes or undoes the change it started) before the runner answers with the stop's code.
 */
const MUTATION_GRACE_MS = 5_000;

/** Time a stopped call that changed files is given to answer once none of its changes is running (ms). */
const SETTLED_GRACE_MS = 50;
/** Files named in the answer of a call stopped after it changed files; the others are counted. */
const NAMED_CHANGES = 10;

/** Resolves with `value` after `ms` (and clears its timer when `done` settles first). */
function after<T>(ms: number, value: T, done: Promise<unknown>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(value), Math.max(0, ms));
  });
  void done.finally(() => clearTimeout(timer));
  return expired;
}

/**
 * What a call's `timeout` adds after `<tool> did not finish within <ms> ms`: the limit is a fact (the
 * model cannot change it, so no option is named), the advice is what any model can do about it.
 */
const DEADLINE_ADVICE = " (this call's time limit); narrow the request or split the work into smaller steps";

/** The `timeout` of a call of `name` that outlived its deadline of `ms`, in words for the model. */
function deadlineError(name: string, ms: number): ToolError {
  return new ToolError('timeout', `${name} did not finish within ${ms} ms${DEADLINE_ADVICE}`);
}

/**
 * The outcome of a call stopped (deadline or cancel) after it began changing files: while one of its
 * changes through `ctx.fs` is running the call is waited for (a write in flight finishes), and once
 * none is it has {@link SETTLED_GRACE_MS} to answer, all within {@link MUTATION_GRACE_MS}. A call
 * still running then (it hangs after its writes) answers `execution_failed` naming the files it
 * changed, never a `timeout` / `cancelled` that would say nothing changed.
 */
async function settleAfterChanges<T>(running: Promise<T>, ctx: CallContext, name: string, stop: ToolError): Promise<T> {
  const until = Date.now() + MUTATION_GRACE_MS;
  const done = running.then(
    () => 'done' as const,
    () => 'done' as const,
  );
  while (Date.now() < until) {
    const first = await Promise.race([done, ctx.changesSettled().then(() => 'settled' as const), after(until - Date.now(), 'late' as const, done)]);
    if (first === 'done') return running;
    if (first === 'late') break;
    const second = await Promise.race([done, after(Math.min(SETTLED_GRACE_MS, until - Date.now()), 'late' as const, done)]);
    if (second === 'done') return running;
    if (!ctx.changing) break;
  }
  const paths = ctx.changedPaths;
  const named = paths.slice(0, NAMED_CHANGES).map((path) => clipForMessage(path)).join(', ');
  const more = paths.length > NAMED_CHANGES ? ` and ${paths.length - NAMED_CHANGES} more` : '';
  const what = `${paths.length === 1 ? 'this file' : 'these files'}: ${named}${more}`;
  const timedOut = stop.code === 'timeout' ? stop.message : `${name} was cancelled`;
  const how = timedOut.endsWith(DEADLINE_ADVICE) ? timedOut.slice(0, -DEADLINE_ADVICE.length) : timedOut;
  throw new ToolError(
    'execution_failed',
    `${how}, after it had begun changing ${what}. They are as the call left them, possibly partway: look at them again before retrying.`,
  );
}

/** An `execute` as the journal's call records keep it: a success's value, or a failure's code and message. */
function recordOf(tool: string, input: unknown, outcome: Outcome): RecordedCall {
  return { via: 'execute', tool, input, ...(outcome.ok ? { result: outcome.value } : { error: { code: outcome.error.code, message: outcome.error.message } }) };
}

/** A batch's call and its result as the journal's call records keep them. */
function batchRecordOf(call: ToolCall | undefined, result: ToolCallResult): RecordedCall {
  const input = typeof call === 'object' && call !== null ? call.args : call;
  const answer = 'code' in result ? { error: { code: result.code, message: result.error } } : { result: result.result };
  return { via: 'batch', id: result.id, tool: result.name, input, ...answer };
}

/**
 * `outcome` carrying a `note` (a review's, or one saying the journal could not store the turn): a result object's `note` (after its own), a text result's last
 * line in brackets, a failure's message; undefined when the result cannot carry one (an array, a
 * number, null, or an object of a tool with an output schema, which a key more could break), so the
 * note waits for the next call.
 */
function withNote(outcome: Outcome, note: string, declared: boolean): Outcome | undefined {
  if (!outcome.ok) {
    const { error } = outcome;
    return { ok: false, error: new ToolError(error.code, `${error.message}\n\n${note}`, error.details) };
  }
  const { value } = outcome;
  if (typeof value === 'string') return { ok: true, value: `${value}${value === '' || value.endsWith('\n') ? '' : '\n'}[${note}]` };
  if (typeof value !== 'object' || value === null || Array.isArray(value) || declared) return undefined;
  const own = (value as { note?: unknown }).note;
  return { ok: true, value: { ...value, note: typeof own === 'string' && own !== '' ? `${own}\n\n${note}` : note } };
}

/** Puts back what the cache held before a failed call set `changes` (unless a later call has set the key since). */
function rollBack(state: ConversationState, changes: StateChanges): void {
  for (const [key, text] of changes.dirty) {
    if (state.values.get(key) !== text) continue;
    const before = changes.previous.get(key);
    if (before === undefined) state.values.delete(key);
    else state.values.set(key, before);
  }
  changes.dirty.clear();
}

/**
 * `promise`, or a `cancelled` rejection as soon as `signal` aborts (for waits the runner does not own,
 * such as a permission prompt, before which the tool has not `started`).
 */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, name: string, started = true): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelled(name, signal, started));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Longest delay `setTimeout` honours (2^31 − 1 ms, about 24.8 days); longer ones would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The deadline in force: `undefined`, `Infinity` and anything beyond the timer range mean none. The
 * value was checked with the options (a number > 0).
 */
function normaliseTimeout(timeoutMs: number | undefined): number | undefined {
  return timeoutMs === undefined || timeoutMs > MAX_TIMER_MS ? undefined : timeoutMs;
}

/** A Platform as the runner uses it: a root, a filesystem and a state store. */
const platformRule: OptionRule = (value, name) => {
  if (isThenable(value)) {
    return `${name} is a promise (or another thenable), not a Platform: await it first and pass what it resolves to (new ToolRunner({ ${name}: await promise }))`;
  }
  if (typeof value !== 'object' || value === null) {
    return `${name} must be a Platform such as createMemoryPlatform(), createNodePlatform() or createWebPlatform(), not ${describeValue(value)}`;
  }
  const platform = value as Record<string, unknown>;
  return (
    is.nonEmptyString(platform.root, `${name}.root`) ??
    (typeof platform.fs === 'object' && platform.fs !== null ? undefined : `${name}.fs must be an FsPromises, not ${describeValue(platform.fs)}`) ??
    stateStoreRule(platform.state, `${name}.state`)
  );
};

/**
 * The entries of `tools`, in order, each name once: the same tool object listed twice is taken once
 * (at its first place, as when two sets that share a tool are joined); two different tools of one
 * name are a TypeError naming it, never one silently dropped.
 */
function toolEntries(where: string, tools: readonly AnyTool[], validators: GeneratedValidators | undefined): ToolEntry[] {
  const byName = new Map<string, ToolEntry>();
  for (const [i, tool] of tools.entries()) {
    if (where !== 'ToolRunner.register') refuseNestedTools(where, tool, i);
    const entry = createToolEntry(tool, validators);
    const held = byName.get(entry.name);
    if (held === undefined) byName.set(entry.name, entry);
    else if (held.tool !== tool) throw sameNameError(where, entry.name);
  }
  return [...byName.values()];
}

/**
 * Refuses, with a TypeError naming the method (`where`) and saying what to pass instead, an item of a
 * list of tools that is itself an array of tools or a set of them (`BuiltinTools`, a profile's set: an
 * object with no name whose `all()` lists tools).
 */
function refuseNestedTools(where: string, tool: unknown, i: number): void {
  const pass = where === 'ToolRunner' ? 'tools: [...list, ...more]' : 'registerAll([...list, ...more])';
  if (Array.isArray(tool)) {
    throw new TypeError(`${where}: tools[${i}] is an array of tools, not a tool; pass the tools themselves in one list (${pass}, or list.flat())`);
  }
  const candidate = tool as { name?: unknown; all?: unknown } | null;
  if (typeof candidate === 'object' && candidate !== null && candidate.name === undefined && typeof candidate.all === 'function') {
    throw new TypeError(`${where}: tools[${i}] is a set of tools (BuiltinTools, say), not a tool; pass its tools in the list (set.all(), or [...set.all(), ...more])`);
  }
}

/**
 * The `invalid_arguments` answer of a call whose arguments are a string. Bridges pass on the value a
 * model's JSON parsed to, so a string there is the model's (a double-encoded object, say), answered
 * per call like any argument that is not an object; a string holding an object's JSON text is named
 * as such, for the model and for a host that forgot to parse a model's `arguments` text.
 */
function stringArguments(name: string, text: string): ToolError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const held = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  return new ToolError(
    'invalid_arguments',
    held
      ? `invalid arguments for ${name}: arguments must be a JSON object, not a string holding one's JSON text; send the object itself (a host passing a model's raw arguments text must JSON.parse it into args first)`
      : `invalid arguments for ${name}: arguments must be a JSON object, not a string; call ${name} again with a JSON object that matches its parameters`,
  );
}

/** The TypeError of a list that holds two different tools of one name, saying the ways out. */
function sameNameError(where: string, name: string): TypeError {
  const quoted = quoteForMessage(name);
  const replace =
    where === 'ToolRunner'
      ? `; to replace one on purpose (a built-in, say), leave the one replaced out of tools (tools.filter((tool) => tool.name !== ${quoted})), or register the new one afterwards with runner.register(tool, { replace: true })`
      : ', or leave one of them out';
  return new TypeError(`${where}: two different tools given are named ${quoted}; give each tool its own name${replace}`);
}

/** The TypeError of a registration whose name is taken, saying the ways out. */
function takenNameError(where: string, name: string): TypeError {
  const quoted = quoteForMessage(name);
  return new TypeError(
    `${where}: a tool named ${quoted} is already registered; give the new tool another name (or a prefix), unregister ${quoted} first, or pass { replace: true } to replace it on purpose`,
  );
}

/** The checks of {@link RegisterOptions}. */
const REGISTER_OPTION_RULES: OptionRules = {
  replace: is.anyOf('true, false or an array of the tool objects to replace', is.boolean, is.arrayOf(rule('a tool object', (v) => typeof v === 'object' && v !== null), 'an array of tool objects')),
};

/** The checks of {@link ToolRunnerOptions}. */
const RUNNER_OPTION_RULES: OptionRules = {
  platform: platformRule,
  tools: is.arrayOf(
    rule('a tool (defineTool({ name, description, inputSchema, execute }) or { name, description, parameters, call })', (v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
    'an array of tools',
  ),
  permissions: permissionPolicyRule,
  planMode: is.boolean,
  conversationId: is.nonEmptyString,
  defaultTimeoutMs: is.deadlineMs,
  onMessage: is.function,
  isIdle: is.function,
  cwd: rule('an absolute path (a directory inside the platform root)', (v) => typeof v === 'string' && v.startsWith('/')),
  verbose: is.boolean,
  journal: is.anyOf('true, false or { maxBytes } (a positive integer of bytes)', is.boolean, is.options({ maxBytes: is.positiveInteger })),
  review: is.anyOf('true, false or a function (conversationId) => boolean', is.boolean, is.function),
  startSubagent: is.function,
  generateImage: is.function,
  onFinish: is.function,
};
