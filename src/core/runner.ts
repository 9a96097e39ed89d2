import { ToolError, toToolError, type ToolErrorCode } from './errors.js';
import { createFileCache, type FileCache } from './file-cache.js';
import { findNonJson } from './json.js';
import { withoutStackTrace } from './stack.js';
import { quoteForMessage } from '../fs/text.js';
import { KeyedMutex } from './locks.js';
import { DenialTracker, PermissionChecker, type PermissionPolicy, type PermissionRequest } from './permissions.js';
import { createMemoryPlatform } from '../platform/memory.js';
import type { HostHooks, Tool, ToolContext } from './tool.js';
import type { ToolHost, ToolInfo } from './host.js';
import type { JsonSchema, JsonValue, Platform, StateLease, StateStore } from './types.js';
import { coerceArguments, compileValidator, formatValidationErrors, parseSchema, precompiledValidator, type ArgumentValidator } from './validation.js';
import { webSearchFallbackTool } from '../tools/web-search.js';

/** One tool call as a model makes it. `args` is usually an object; `null`/`undefined` count as `{}`. */
export interface ToolCall {
  id?: string;
  name: string;
  args: unknown;
}

/** A successful call: the tool's output, with the call's id echoed. */
export interface ToolCallSuccess {
  id?: string;
  name: string;
  result: unknown;
}

/** A failed call: a message for the model and a {@link ToolErrorCode}, with the call's id echoed. */
export interface ToolCallFailure {
  id?: string;
  name: string;
  error: string;
  code: ToolErrorCode;
}

/** The outcome of one call in {@link ToolRunner.processToolCalls}. */
export type ToolCallResult = ToolCallSuccess | ToolCallFailure;

/** Per-call options of `execute` and `processToolCalls`. */
export interface CallOptions {
  /** The conversation whose state and file cache the call uses (default: the runner's). */
  conversationId?: string;
  /** Aborting it ends the call with `cancelled`. */
  signal?: AbortSignal;
  /**
   * Deadline in ms; the call ends with `timeout` then, even if the tool ignores its signal. A tool
   * that blocks the thread so the timer cannot fire is judged when it returns: a read-only tool's late
   * answer becomes `timeout`; a mutating tool's result is returned, since its change was made.
   * `Infinity` = no deadline; 0, negative or NaN → `invalid_arguments`.
   */
  timeoutMs?: number;
  /** Receives this call's `ctx.send` messages, besides the runner's `onMessage` (MCP progress, say). */
  onMessage?: (message: ToolMessage) => void | Promise<void>;
}

/** A model-facing function declaration: name, description and the parameters schema as an object. */
export interface FunctionDeclaration {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** A message a tool sent with `ctx.send`, as the host's `onMessage` receives it. */
export interface ToolMessage {
  conversationId: string;
  callId: string;
  tool: string;
  message: JsonValue;
}

/** Options of {@link ToolRunner}; all optional. */
export interface ToolRunnerOptions extends HostHooks {
  /** Filesystem, state and capabilities (default: a fresh memory platform). */
  platform?: Platform;
  /** Tools registered at construction, in order. */
  tools?: Tool<never, unknown>[] | Tool[];
  /** Who may run what (default `'allow_all'`). */
  permissions?: PermissionPolicy;
  /** Refuse every tool that is not read-only. */
  planMode?: boolean;
  /** Conversation of calls that name none (default `'default'`). */
  conversationId?: string;
  /** Deadline of calls that give no `timeoutMs`, in ms (default: none). */
  defaultTimeoutMs?: number;
  /** Receives `ctx.send` messages. */
  onMessage?: (message: ToolMessage) => void | Promise<void>;
  /** Host's answer to `ctx.isIdle()` (default: false). */
  isIdle?: () => boolean;
  /** Directory relative paths resolve against (default: the platform root). */
  cwd?: string;
  verbose?: boolean;
}

interface Entry {
  tool: Tool;
  schema: JsonSchema;
  /** Undefined until compiled: schemas without a precompiled validator compile on first use (or in `register`). */
  validate: ArgumentValidator | undefined;
  compiling?: Promise<ArgumentValidator>;
  readOnly: boolean;
  concurrencySafe: boolean;
  needsContext: boolean;
}

interface ConversationState {
  /** JSON text per key: reads parse a fresh copy, so tools cannot change the cache by mutation. */
  values: Map<string, string>;
  fileCache: FileCache;
  /** On a shared store (one with `lock` and `snapshot`): the store's version these values are. */
  version?: string | undefined;
}

/** A store that several processes share: the runner revalidates its cache and locks per call. */
type SharedStore = StateStore & Required<Pick<StateStore, 'lock' | 'snapshot'>>;

function sharedStore(store: StateStore): SharedStore | undefined {
  return typeof store.lock === 'function' && typeof store.snapshot === 'function' ? (store as SharedStore) : undefined;
}

function stateMap(state: Record<string, JsonValue>): Map<string, string> {
  return new Map(Object.entries(state).map(([key, value]) => [key, JSON.stringify(value)]));
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: ToolError };

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const SEARCH_FALLBACK_NAMES = new Set(['web_search', 'google_search']);

/**
 * Registers tools and runs tool calls (SPEC §3; seed: the SDK's `ToolRunner`). Validates arguments once
 * with ajv, applies permissions and plan mode, hands `needsContext` tools a {@link ToolContext}, persists
 * tool state before a call's result is returned, and turns every failure into a coded result.
 */
export class ToolRunner implements ToolHost {
  readonly platform: Platform;
  readonly permissions: PermissionChecker;
  readonly denialTracker = new DenialTracker();
  readonly planMode: boolean;
  readonly conversationId: string;
  readonly defaultTimeoutMs: number | undefined;
  readonly cwd: string;
  readonly verbose: boolean;
  readonly #options: ToolRunnerOptions;
  readonly #tools = new Map<string, Entry>();
  readonly #conversations = new Map<string, ConversationState>();
  readonly #loading = new Map<string, Promise<ConversationState>>();
  readonly #pathLocks = new KeyedMutex();
  /** Serialises calls on a platform with `batch`, so no other caller's commit is deferred into a batch. */
  readonly #calls = new KeyedMutex();
  readonly #hooks: HostHooks;
  #fallback: Entry | undefined;

  constructor(options: ToolRunnerOptions = {}) {
    this.#options = options;
    this.platform = options.platform ?? createMemoryPlatform();
    this.permissions = new PermissionChecker(options.permissions ?? 'allow_all');
    this.planMode = options.planMode ?? false;
    this.conversationId = options.conversationId ?? 'default';
    this.defaultTimeoutMs = options.defaultTimeoutMs;
    this.cwd = options.cwd ?? this.platform.root;
    this.verbose = options.verbose ?? false;
    this.#hooks = {};
    if (options.startSubagent) this.#hooks.startSubagent = options.startSubagent;
    if (options.generateImage) this.#hooks.generateImage = options.generateImage;
    if (options.onFinish) this.#hooks.onFinish = options.onFinish;
    for (const tool of options.tools ?? []) this.#add(tool as Tool);
  }

  /**
   * Adds a tool; a tool with the same name is replaced (keeping its place in `declarations()`).
   * Rejects with `invalid_arguments` for a bad name or a schema that is not a compilable JSON Schema object.
   */
  async register(tool: Tool<never, unknown> | Tool): Promise<void> {
    const entry = this.#check(tool as Tool);
    // A schema ajv must compile is compiled here, so a bad schema fails its registration.
    entry.validate ??= await compileValidator(entry.tool.name, entry.schema);
    this.#tools.set(entry.tool.name, entry);
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
    return [...this.#tools.values()].map((entry) => ({
      name: entry.tool.name,
      description: entry.tool.description,
      parameters: entry.schema,
    }));
  }

  /** The registered tools with annotations (`readOnlyHint` always set), in registration order. */
  tools(): ToolInfo[] {
    return [...this.#tools.values()].map((entry) => {
      const info: ToolInfo = {
        name: entry.tool.name,
        description: entry.tool.description,
        parameters: entry.schema,
        annotations: { ...entry.tool.annotations, readOnlyHint: entry.readOnly },
        concurrencySafe: entry.concurrencySafe,
      };
      if (entry.tool.outputSchema) info.outputSchema = entry.tool.outputSchema;
      return info;
    });
  }

  /**
   * Runs one call and returns the tool's output; rejects with a {@link ToolError} (check `code`).
   * Codes: `unknown_tool`, `invalid_arguments`, `permission_denied`, `cancelled`, `timeout`,
   * `execution_failed` (a throw, message kept), or the tool's own code.
   */
  async execute(name: string, args: unknown, options: CallOptions = {}): Promise<unknown> {
    const run = async (): Promise<unknown> => {
      const outcome = await this.#run(name, args, options, undefined);
      if (outcome.ok) return outcome.value;
      throw outcome.error;
    };
    return this.platform.batch ? this.#calls.run('calls', run) : run();
  }

  /**
   * Runs a batch of calls and returns one result per call, in call order, ids echoed; never rejects.
   * Consecutive `concurrencySafe` calls run concurrently; every other call runs alone, in order.
   * On a platform with `batch` the whole batch is made durable in one commit before it returns; when
   * that commit fails, every change of the batch is undone and each success of a tool that is not
   * read-only reports the commit's code instead (`quota_exceeded`, `unavailable`); read-only results
   * and failures are kept.
   */
  async processToolCalls(calls: readonly ToolCall[], options: CallOptions = {}): Promise<ToolCallResult[]> {
    if (!Array.isArray(calls)) {
      return [{ name: '', error: 'processToolCalls takes an array of { id?, name, args }', code: 'invalid_arguments' }];
    }
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

  /** Runs the calls in order (concurrency-safe neighbours together); notes in `readOnly[i]` whether call i's tool was read-only. */
  async #processCalls(calls: readonly ToolCall[], options: CallOptions, readOnly: boolean[] | undefined): Promise<ToolCallResult[]> {
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

  /** Reads a conversation's tool state from the platform store (for hosts and inspectors). */
  async getState(conversationId: string = this.conversationId): Promise<Record<string, JsonValue>> {
    const shared = sharedStore(this.platform.state);
    if (shared) return (await shared.snapshot(conversationId, undefined)).state ?? {};
    const state = await this.#conversation(conversationId);
    const out: Record<string, JsonValue> = {};
    for (const [key, text] of state.values) out[key] = JSON.parse(text) as JsonValue;
    return out;
  }

  #add(tool: Tool): void {
    const entry = this.#check(tool);
    this.#tools.set(tool.name, entry);
  }

  /** Checks a tool's name, call and schema shape and builds its entry (its validator when precompiled). */
  #check(tool: Tool): Entry {
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') {
      throw new ToolError('invalid_arguments', 'register takes a Tool: an object with name, description, parameters and call');
    }
    if (!NAME_PATTERN.test(tool.name)) {
      throw new ToolError(
        'invalid_arguments',
        `tool name "${tool.name}" must match /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/ (letters, digits, _ . -; at most 64)`,
      );
    }
    if (typeof tool.call !== 'function' && typeof tool.callWithContext !== 'function') {
      throw new ToolError('invalid_arguments', `tool ${tool.name} has neither call nor callWithContext`);
    }
    return this.#entry(tool);
  }

  #entry(tool: Tool): Entry {
    const schema = parseSchema(tool.name, tool.parameters);
    if (schema.type !== undefined && schema.type !== 'object') {
      throw new ToolError(
        'invalid_arguments',
        `tool ${tool.name}: parameters must describe an object (type: 'object'), as every model API passes arguments by name; got type ${JSON.stringify(schema.type)}`,
      );
    }
    const readOnly = tool.readOnly === true || tool.annotations?.readOnlyHint === true;
    return {
      tool,
      schema,
      validate: precompiledValidator(schema),
      readOnly,
      concurrencySafe: tool.concurrencySafe ?? readOnly,
      needsContext: tool.needsContext === true && typeof tool.callWithContext === 'function',
    };
  }

  /** Compiles the validator of a tool given to the constructor without a precompiled one (once; a bad schema fails each call). */
  async #compile(entry: Entry): Promise<ArgumentValidator> {
    entry.compiling ??= compileValidator(entry.tool.name, entry.schema);
    entry.validate = await entry.compiling;
    return entry.validate;
  }

  #lookup(name: string): Entry | undefined {
    const entry = this.#tools.get(name);
    if (entry || !SEARCH_FALLBACK_NAMES.has(name)) return entry;
    this.#fallback ??= this.#entry(webSearchFallbackTool as Tool);
    return this.#fallback;
  }

  #isConcurrencySafe(call: ToolCall | undefined): boolean {
    if (typeof call !== 'object' || call === null || typeof call.name !== 'string') return true;
    const entry = this.#lookup(call.name);
    return entry ? entry.concurrencySafe : true;
  }

  async #runCall(call: ToolCall | undefined, options: CallOptions): Promise<ToolCallResult> {
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

  async #run(name: string, rawArgs: unknown, options: CallOptions, id: string | undefined): Promise<Outcome> {
    try {
      return { ok: true, value: await this.#invoke(name, rawArgs, options, id) };
    } catch (error) {
      return { ok: false, error: toToolError(error) };
    }
  }

  async #invoke(name: string, rawArgs: unknown, options: CallOptions, id: string | undefined): Promise<unknown> {
    const entry = this.#lookup(name);
    if (!entry) {
      const names = [...this.#tools.keys()];
      const listed = names.slice(0, 30).join(', ') + (names.length > 30 ? ', ...' : '');
      throw new ToolError('unknown_tool', `unknown tool ${quoteForMessage(String(name))}; available tools: ${listed || '(none registered)'}`);
    }
    const validate = entry.validate ?? (await this.#compile(entry));
    const args = coerceArguments(rawArgs ?? {}, entry.schema);
    if (!validate(args)) {
      throw new ToolError(
        'invalid_arguments',
        `invalid arguments for ${name}: ${formatValidationErrors(validate.errors ?? [], entry.schema)}`,
      );
    }
    const { signal } = options;
    if (signal?.aborted) throw cancelled(name, signal);
    const conversationId = options.conversationId ?? this.conversationId;
    // Generated only where it is seen (a permission request, the tool's context): the fast path below
    // has no use for it, and crypto.randomUUID costs a random-source read per call.
    let callId = id;
    if (this.planMode || this.permissions.policy !== 'allow_all') {
      callId ??= crypto.randomUUID();
      const request = { tool: name, args, conversationId, callId, readOnly: entry.readOnly } as PermissionRequest;
      // Non-enumerable: hosts post the request to a page or another thread, and an AbortSignal cannot be cloned.
      Object.defineProperty(request, 'signal', { value: signal ?? new AbortController().signal, enumerable: false });
      const decision = await abortable(this.permissions.check(request, this.planMode), signal, name);
      if (!decision.allowed) {
        this.denialTracker.record({ tool: name, args, reason: decision.reason, conversationId, time: Date.now() });
        throw new ToolError('permission_denied', decision.reason);
      }
      if (signal?.aborted) throw cancelled(name, signal);
    }
    const timeoutMs = normaliseTimeout(options.timeoutMs ?? this.defaultTimeoutMs);
    if (!entry.needsContext && timeoutMs === undefined && (entry.readOnly || !this.platform.flush)) {
      // Fast path: no deadline, no context, nothing to flush; only the caller's signal (a worker bridge
      // passes one for a call its host can cancel) can end the call early, with `cancelled` as on the full path.
      const value = signal ? await abortable(Promise.resolve(entry.tool.call(args)), signal, name) : await entry.tool.call(args);
      return this.#checkOutput(name, value);
    }
    return this.#invokeWithContext(entry, args, { conversationId, callId: callId ?? crypto.randomUUID(), signal, timeoutMs, onMessage: options.onMessage });
  }

  async #invokeWithContext(
    entry: Entry,
    args: unknown,
    call: { conversationId: string; callId: string; signal: AbortSignal | undefined; timeoutMs: number | undefined; onMessage: CallOptions['onMessage'] },
  ): Promise<unknown> {
    const name = entry.tool.name;
    const shared = entry.needsContext ? sharedStore(this.platform.state) : undefined;
    let state = entry.needsContext && !shared ? await this.#conversation(call.conversationId) : undefined;
    const started = Date.now();
    // A shared store: the cache is checked against the store's version before the call, and a
    // state-changing call holds the conversation's lock across processes until its keys are committed.
    let lease: StateLease | undefined;
    let cached: ConversationState | undefined;
    if (shared) ({ state, lease, cached } = await this.#sharedState(shared, entry, call, started));
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
    }
    if (call.timeoutMs !== undefined) {
      const ms = call.timeoutMs;
      timer = setTimeout(
        () => controller.abort(new ToolError('timeout', `${name} did not finish within ${ms} ms; narrow the request or raise timeoutMs`)),
        Math.max(0, ms - (Date.now() - started)),
      );
    }
    const dirty = new Map<string, string | undefined>();
    const previous = new Map<string, string | undefined>();
    let open = true;
    try {
      let running: Promise<unknown>;
      if (state) {
        const ctx = this.#context(entry, call, controller.signal, state, { dirty, previous }, () => open);
        running = Promise.resolve().then(() => (entry.tool.callWithContext as NonNullable<Tool['callWithContext']>)(args, ctx));
      } else {
        running = Promise.resolve().then(() => entry.tool.call(args));
      }
      running.catch(() => undefined);
      const value = await Promise.race([running, interrupted]);
      // A read-only tool that blocked the thread past its deadline (the timer could not fire) still
      // timed out: its late answer changed nothing. A mutating tool that got this far made its change,
      // so it returns its result: `timeout` would tell the model to retry a change already made.
      if (entry.readOnly && call.timeoutMs !== undefined && Date.now() - started >= call.timeoutMs) {
        throw new ToolError('timeout', `${name} did not finish within ${call.timeoutMs} ms; narrow the request or raise timeoutMs`);
      }
      return this.#checkOutput(name, value);
    } finally {
      open = false;
      if (timer !== undefined) clearTimeout(timer);
      if (onAbort) call.signal?.removeEventListener('abort', onAbort);
      if (!controller.signal.aborted) controller.abort(endedReason(name));
      if (lease && state && cached) {
        const deadline = call.timeoutMs !== undefined && Date.now() - started < call.timeoutMs ? started + call.timeoutMs : undefined;
        // Adopted as the cache only once committed; a failed commit leaves the cache as the store is.
        const version = dirty.size > 0
          ? await lease.commit([...dirty].map(([key, text]) => [key, text === undefined ? undefined : (JSON.parse(text) as JsonValue)] as const), deadline === undefined ? {} : { deadline })
          : (await lease.release(), lease.version);
        cached.values = state.values;
        cached.version = version;
      } else if (dirty.size > 0 && state) {
        if (cached) cached.version = undefined;
        try {
          await this.platform.state.setMany(
            call.conversationId,
            [...dirty].map(([key, text]) => [key, text === undefined ? undefined : (JSON.parse(text) as JsonValue)] as const),
          );
        } catch (error) {
          // Not stored, so not kept: put back what the cache held before this call (unless a later
          // call has set the key since), so reads agree with the store.
          for (const [key, text] of dirty) {
            if (state.values.get(key) !== text) continue;
            const before = previous.get(key);
            if (before === undefined) state.values.delete(key);
            else state.values.set(key, before);
          }
          throw error;
        }
      }
      if (!entry.readOnly && this.platform.flush) await this.platform.flush();
    }
  }

  /**
   * The state a call sees on a shared store: a read-only call the cache, refreshed when the store's
   * version moved; a state-changing call a copy taken under the conversation's lock (its lease).
   */
  async #sharedState(
    store: SharedStore,
    entry: Entry,
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
      if (call.signal?.aborted) throw cancelled(entry.tool.name, call.signal);
      throw error;
    }
  }

  #context(
    entry: Entry,
    call: { conversationId: string; callId: string; onMessage: CallOptions['onMessage'] },
    signal: AbortSignal,
    state: ConversationState,
    changes: { dirty: Map<string, string | undefined>; previous: Map<string, string | undefined> },
    isOpen: () => boolean,
  ): ToolContext {
    const runner = this;
    const options = this.#options;
    const name = entry.tool.name;
    return {
      conversationId: call.conversationId,
      callId: call.callId,
      signal,
      cwd: this.cwd,
      fs: this.platform.fs,
      platform: this.platform,
      planMode: this.planMode,
      permissions: this.permissions,
      fileCache: state.fileCache,
      denialTracker: this.denialTracker,
      verbose: this.verbose,
      hooks: this.#hooks,
      isIdle: () => options.isIdle?.() ?? false,
      send(message) {
        // Checked synchronously, so a tool that does not await send still sees the throw.
        const problem = findNonJson(message);
        if (problem) throw new ToolError('invalid_arguments', `ctx.send: the message is not JSON (${problem}); send plain objects, arrays, strings, finite numbers, booleans or null`);
        // A failing host handler is the host's problem: it must neither fail the tool nor surface as
        // an unhandled rejection from a send the tool did not await.
        const delivered = { conversationId: call.conversationId, callId: call.callId, tool: name, message };
        const deliver = (handler: CallOptions['onMessage']): Promise<void> => {
          try {
            return Promise.resolve(handler?.(delivered)).then(
              () => undefined,
              () => undefined,
            );
          } catch {
            return Promise.resolve();
          }
        };
        return Promise.all([deliver(options.onMessage), deliver(call.onMessage)]).then(() => undefined);
      },
      getState<T extends JsonValue>(key: string): T | undefined {
        const text = state.values.get(key);
        return text === undefined ? undefined : (JSON.parse(text) as T);
      },
      setState(key, value) {
        if (typeof key !== 'string') throw new ToolError('invalid_arguments', 'setState: the key must be a string');
        if (!isOpen()) {
          throw new ToolError('cancelled', `setState("${key}") after ${name} ended (cancelled or timed out); the value was not kept`);
        }
        if (!changes.previous.has(key)) changes.previous.set(key, state.values.get(key));
        if (value === undefined) {
          state.values.delete(key);
          changes.dirty.set(key, undefined);
          return;
        }
        const problem = findNonJson(value);
        if (problem) {
          throw new ToolError('invalid_arguments', `setState("${key}"): the value is not JSON (${problem}); store plain objects, arrays, strings, finite numbers, booleans or null`);
        }
        const text = JSON.stringify(value);
        state.values.set(key, text);
        changes.dirty.set(key, text);
      },
      withPathLock: (path, fn) => runner.#pathLocks.run(path, fn),
    };
  }

  #checkOutput(name: string, value: unknown): unknown {
    if (value === undefined) return null;
    const problem = findNonJson(value);
    if (problem) {
      throw new ToolError('execution_failed', `${name} returned a value that is not JSON (${problem}); tools must return JSON-serialisable values`);
    }
    return value;
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

/** `promise`, or a `cancelled` rejection as soon as `signal` aborts (for waits the runner does not own, such as a permission prompt). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, name: string): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelled(name, signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Longest delay `setTimeout` honours (2^31 − 1 ms, about 24.8 days); longer ones would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * `undefined`, `Infinity` and anything beyond the timer range mean no deadline; a deadline must
 * otherwise be a positive number of ms (`invalid_arguments` for 0, negatives, NaN and non-numbers).
 */
function normaliseTimeout(timeoutMs: unknown): number | undefined {
  if (timeoutMs === undefined || timeoutMs === null) return undefined;
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs <= 0) {
    throw new ToolError('invalid_arguments', `timeoutMs must be a positive number of milliseconds (got ${String(timeoutMs)}); omit it or pass Infinity for no deadline`);
  }
  return timeoutMs > MAX_TIMER_MS ? undefined : timeoutMs;
}

/**
 * The reason a call's own signal is aborted with once the call is over (so work the tool left behind
 * stops). Built without a stack: it is made for every call and a stack would only point here.
 */
function endedReason(name: string): ToolError {
  return withoutStackTrace(() => new ToolError('cancelled', `${name} has ended`));
}

function cancelled(name: string, signal: AbortSignal): ToolError {
  const reason = signal.reason as { code?: unknown; message?: unknown } | undefined;
  if (reason && reason.code === 'timeout' && typeof reason.message === 'string') return new ToolError('timeout', reason.message);
  return new ToolError('cancelled', `${name} was cancelled before it finished`);
}
