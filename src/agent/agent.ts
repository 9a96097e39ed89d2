import { EventChannel, runAgentLoop, type AgentDoneReason, type AgentEvent, type AgentRunOptions, type AgentToolHost } from './loop.js';
import { ToolError } from '../core/errors.js';
import type { Model, ModelMessage } from './models/types.js';
import type { PermissionAnswer, PermissionPolicy, PermissionRequest } from '../core/permissions.js';
import type { CallOptions, ToolCall, ToolCallResult, ToolRunnerOptions } from '../core/runner.js';
import { ToolRunner } from '../runner.js';
import type { AnyTool, HostHooks } from '../core/tool.js';
import { createToolEntry } from '../core/entry.js';
import { BuiltinTools } from '../tools/index.js';
import { finishTool } from '../tools/finish.js';
import { toolProfiles, type ToolProfileName } from '../tools/profiles/index.js';
import type { Platform } from '../core/types.js';

/** Default of `maxTurns` in {@link Agent.run}. */
export const DEFAULT_MAX_TURNS = 20;

/** How subagents run when enabled with {@link AgentOptions.subagents}. */
export interface SubagentOptions {
  /** Most model requests of one subagent run (default 20). */
  maxTurns?: number;
  /** System instruction of subagents (default: the parent's). */
  system?: string;
}

/**
 * What `start_subagent` returns to the model when the agent runs subagents: the child's `finish` result,
 * else its last text (`null` when it had none), why it stopped, how many model requests it made, and its
 * conversation id.
 */
export interface SubagentResult {
  answer: string | null;
  reason: AgentDoneReason;
  turns: number;
  conversationId: string;
  [key: string]: string | number | null;
}

/** Parts of the {@link Agent} constructor besides its runner; {@link Agent.create} fills them in. */
export interface AgentParts {
  /** The model `run` talks to. */
  model?: Model;
  /** Default system instruction of runs. */
  system?: string;
  /** Default `maxTurns` of runs (default 20). */
  maxTurns?: number;
  /** Where `run` sends tool calls instead of the agent's own runner (see {@link AgentOptions.toolHost}). */
  toolHost?: AgentToolHost;
  /** The tool profile registered (see {@link AgentOptions.toolProfile}); `custom` for a list of tools. */
  toolProfile?: ToolProfileName | 'custom';
}

/**
 * Everything an {@link Agent} is made of, all optional: `Agent.create(options)`, or the same fields one
 * by one through `Agent.builder()`. Every built-in of the tool profile is registered, then `tools`.
 * Permissions: `allowAll` runs everything; otherwise read-only tools run and the rest go to
 * `onPermissionRequest`, denied when there is none.
 */
export interface AgentOptions {
  /** The model `agent.run()` talks to ({@link geminiModel}, {@link openAICompatibleModel}, {@link anthropicModel}, {@link scriptedModel}, or your own). */
  model?: Model;
  /** Default system instruction of `agent.run()`. */
  system?: string;
  /** Default `maxTurns` of `agent.run()` (default 20). */
  maxTurns?: number;
  /** Tools added after the built-ins (one with a built-in's name replaces it). */
  tools?: readonly AnyTool[];
  /**
   * The model-facing tools to register instead of the model's own profile: a profile name
   * (`'anthropic'`, `'openai'`, `'gemini'`, `'toolhost'`) or a list (such as
   * `toolProfiles.combine(...)`). Without it the agent takes the model's `toolProfile`, else
   * `toolhost`. Profiles other than `toolhost` get `finish` added, so a run can end with it.
   */
  toolProfile?: ToolProfileName | AnyTool[];
  /** Registers only the read-only tools of the profile (for `toolhost`: find_file, list_dir, search_dir, view_file, grep_search). */
  readOnly?: boolean;
  /** Every tool may run without asking. */
  allowAll?: boolean;
  /** Plan mode: every tool that is not read-only is refused (`permission_denied`). */
  planMode?: boolean;
  /**
   * Asked for each call of a tool that is not read-only (unless `allowAll`). During `agent.run()`, each
   * question is also yielded as a `permission_request` event of the run, before it is asked.
   */
  onPermissionRequest?: (request: PermissionRequest) => Promise<PermissionAnswer>;
  /** The platform to run on (default: a fresh memory platform). */
  platform?: Platform;
  /** Conversation of calls that name none. */
  conversationId?: string;
  /** Deadline, in ms, of calls that give none. */
  defaultTimeoutMs?: number;
  /** Host hooks for `start_subagent`, `generate_image` and `finish` (a `startSubagent` here wins over `subagents`). */
  hooks?: HostHooks & Pick<ToolRunnerOptions, 'onMessage' | 'isIdle'>;
  /**
   * Runs the model's tool calls somewhere else: `agent.run()` declares `host.declarations()` (awaited
   * before each model request) to the model and sends each turn's calls to `host.processToolCalls` in one
   * batch, with the run's `conversationId` and `signal`. The seam for a loop on the page with its tools
   * in a worker: pass a `RemoteToolRunner` (`connectToolRunner`), so the model client runs on the page
   * and the tools in the worker, against the worker's files, permissions, plan mode and tool state.
   * `agent.runner` is still built from these options (and `agent.processToolCalls` / `execute` use it),
   * but `run()` does not touch it, so `tools`, `allowAll`, `planMode` and `onPermissionRequest` (and its
   * `permission_request` events) have no effect on a run, and `start_subagent` is whatever the host's
   * runner does with it.
   */
  toolHost?: AgentToolHost;
  /**
   * Lets `start_subagent` run a child agent ({@link Agent.runSubagent}): same model and platform, its own
   * conversation id (`true` or options; default off, when `start_subagent` answers with a note).
   */
  subagents?: boolean | SubagentOptions;
}

interface ActiveRun {
  emit(event: AgentEvent): void;
  signal: AbortSignal;
}

interface BuilderConfig {
  tools: AnyTool[];
  allowAll: boolean;
  readOnly: boolean;
  planMode: boolean;
  ask: ((request: PermissionRequest) => Promise<PermissionAnswer>) | undefined;
  platform: Platform | undefined;
  options: Omit<ToolRunnerOptions, 'platform' | 'tools' | 'permissions' | 'planMode'>;
  model: Model | undefined;
  system: string | undefined;
  maxTurns: number | undefined;
  toolHost: AgentToolHost | undefined;
  subagents: SubagentOptions | undefined;
  /** False for subagents, whose `tools` already holds the chosen built-ins. */
  builtins: boolean;
  /** The profile asked for; undefined: the model's. */
  profile: ToolProfileName | AnyTool[] | undefined;
}

// Runs in progress per agent and conversation: permission prompts and subagents find their run here.
const activeRuns = new WeakMap<Agent, Map<string, ActiveRun>>();
// How an agent builds a child for start_subagent (set by the builder when subagents are on).
const childFactories = new WeakMap<Agent, (tools: string[] | undefined) => Agent>();

/**
 * An agent: a configured {@link ToolRunner}, and, with a model, the loop that
 * lets the model drive it ({@link Agent.run}). Build it with {@link Agent.builder}.
 */
export class Agent {
  readonly runner: ToolRunner;
  /** The model `run` uses, if any. */
  readonly model: Model | undefined;
  /** The tools `run` uses instead of {@link Agent.runner}, when {@link AgentOptions.toolHost} was given. */
  readonly toolHost: AgentToolHost | undefined;
  /**
   * The tool profile the agent registered: {@link AgentOptions.toolProfile}, else the
   * model's (`anthropicModel` → `anthropic`, `geminiModel` → `gemini`, `openAICompatibleModel` on
   * api.openai.com → `openai`, on another server → `toolhost`), else `toolhost`; `custom` for a list.
   */
  readonly toolProfile: ToolProfileName | 'custom';
  readonly #system: string | undefined;
  readonly #maxTurns: number;
  readonly #histories = new Map<string, ModelMessage[]>();

  constructor(runner: ToolRunner, options: AgentParts = {}) {
    this.runner = runner;
    this.model = options.model;
    this.toolHost = options.toolHost;
    this.toolProfile = options.toolProfile ?? 'toolhost';
    this.#system = options.system;
    this.#maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
    activeRuns.set(this, new Map());
  }

  /** Starts an {@link AgentBuilder}: the fields of {@link AgentOptions} one by one, then `build()`. */
  static builder(): AgentBuilder {
    return new AgentBuilder();
  }

  /** The agent of `options` (see {@link AgentOptions}); throws `invalid_arguments` for a tool with a bad name or schema. */
  static create(options: AgentOptions = {}): Agent {
    const runnerOptions: BuilderConfig['options'] = { ...options.hooks };
    if (options.conversationId !== undefined) runnerOptions.conversationId = options.conversationId;
    if (options.defaultTimeoutMs !== undefined) runnerOptions.defaultTimeoutMs = options.defaultTimeoutMs;
    const subagents = options.subagents;
    return buildAgent({
      tools: [...(options.tools ?? [])],
      allowAll: options.allowAll ?? false,
      readOnly: options.readOnly ?? false,
      planMode: options.planMode ?? false,
      ask: options.onPermissionRequest,
      platform: options.platform,
      options: runnerOptions,
      model: options.model,
      system: options.system,
      maxTurns: options.maxTurns,
      toolHost: options.toolHost,
      subagents: subagents === undefined || subagents === false ? undefined : subagents === true ? {} : { ...subagents },
      builtins: true,
      profile: options.toolProfile,
    });
  }

  /** Same as `runner.processToolCalls`: one result per call, in order; never rejects. */
  processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]> {
    return this.runner.processToolCalls(calls, options);
  }

  /** Same as `runner.execute`: the output, or a rejection with a ToolError. */
  execute(name: string, args: unknown, options?: CallOptions): Promise<unknown> {
    return this.runner.execute(name, args, options);
  }

  /**
   * Sends `prompt` to the model and lets it call tools until it calls `finish`, answers without a tool
   * call, or `maxTurns` (default 20) model requests were made; yields {@link AgentEvent}s, the last one
   * `{ type: 'done', reason, turns }`. The run starts when iteration starts; leaving the loop early
   * (`break`) cancels it. One turn's calls go through `runner.processToolCalls` in one batch; a call with
   * unreadable arguments gets an `invalid_arguments` result and the model carries on. The conversation's
   * history (see {@link Agent.history}) is kept across runs. Aborting `signal` stops the run: no model
   * request or tool call starts after it (`done` reason `cancelled`). A model failure yields `error`
   * (code from {@link ModelError}) and `done` reason `error`; so do a missing model (`no_model`), a
   * second run on a busy conversation (`busy`) and a bad `maxTurns` (`invalid_arguments`). Never throws.
   */
  async *run(prompt: string, options: AgentRunOptions = {}): AsyncGenerator<AgentEvent, void, undefined> {
    const conversationId = options.conversationId ?? this.runner.conversationId;
    const maxTurns = options.maxTurns ?? this.#maxTurns;
    const runs = activeRuns.get(this) as Map<string, ActiveRun>;
    const fail = (code: string, message: string): AgentEvent[] => [
      { type: 'error', error: { code, message } },
      { type: 'done', reason: 'error', turns: 0 },
    ];
    if (!this.model) {
      yield* fail('no_model', 'this agent has no model: build it with Agent.builder().model(...)');
      return;
    }
    if (!Number.isInteger(maxTurns) || maxTurns < 1) {
      yield* fail('invalid_arguments', `maxTurns must be a positive integer, got ${String(maxTurns)}`);
      return;
    }
    if (runs.has(conversationId)) {
      yield* fail('busy', `conversation "${conversationId}" already has a run in progress; wait for its done event or use another conversationId`);
      return;
    }
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) controller.abort(options.signal.reason);
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    const channel = new EventChannel<AgentEvent>();
    runs.set(conversationId, { emit: (event) => channel.push(event), signal: controller.signal });
    let history = this.#histories.get(conversationId);
    if (!history) this.#histories.set(conversationId, (history = []));
    const loop: Parameters<typeof runAgentLoop>[0] = {
      model: this.model,
      runner: this.toolHost ?? this.runner,
      history,
      prompt,
      conversationId,
      maxTurns,
      signal: controller.signal,
      emit: (event) => channel.push(event),
    };
    const system = options.system ?? this.#system;
    if (system !== undefined) loop.system = system;
    const running = runAgentLoop(loop).finally(() => {
      runs.delete(conversationId);
      options.signal?.removeEventListener('abort', onAbort);
      channel.close();
    });
    try {
      for await (const event of channel) yield event;
    } finally {
      controller.abort(new ToolError('cancelled', 'the consumer stopped reading the run'));
      await running;
    }
  }

  /** A copy of a conversation's model history (default: the runner's conversation); `[]` when there is none. */
  history(conversationId: string = this.runner.conversationId): ModelMessage[] {
    return structuredClone(this.#histories.get(conversationId) ?? []);
  }

  /** Forgets a conversation's model history (tool state and files are untouched); true when there was one. */
  clearHistory(conversationId: string = this.runner.conversationId): boolean {
    return this.#histories.delete(conversationId);
  }

  /**
   * Runs a child agent for `start_subagent` (the hook the builder installs with `.subagents()`): same
   * model, platform and permissions, the tools named in `tools` (plus `finish`; all the parent's when
   * absent), its own conversation id `<parent>/subagent-<id>`, and no subagents of its own. Follows the
   * parent run's signal and forwards the child's permission requests to it. Rejects with
   * `invalid_arguments` for unknown tool names and `unavailable` when subagents are off.
   */
  async runSubagent(request: { task: string; tools?: string[]; conversationId: string }): Promise<SubagentResult> {
    const factory = childFactories.get(this);
    if (!factory) throw new ToolError('unavailable', 'this agent runs no subagents; enable them with Agent.builder().subagents()');
    const child = factory(request.tools);
    const parent = (activeRuns.get(this) as Map<string, ActiveRun>).get(request.conversationId);
    const conversationId = `${request.conversationId}/subagent-${crypto.randomUUID().slice(0, 8)}`;
    const options: AgentRunOptions = { conversationId };
    if (parent) options.signal = parent.signal;
    let answer: string | null = null;
    let finishResult: string | undefined;
    let reason: AgentDoneReason = 'error';
    let turns = 0;
    let failure: string | undefined;
    for await (const event of child.run(request.task, options)) {
      if (event.type === 'text') answer = event.text;
      else if (event.type === 'finish') finishResult = event.result;
      else if (event.type === 'permission_request') parent?.emit(event);
      else if (event.type === 'error') failure = `${event.error.code}: ${event.error.message}`;
      else if (event.type === 'done') ({ reason, turns } = event);
    }
    if (reason === 'error' && failure) throw new ToolError('execution_failed', `the subagent failed: ${failure}`);
    return { answer: finishResult ?? answer, reason, turns, conversationId };
  }
}

/**
 * Fluent configuration of an {@link Agent}: each method sets one field of {@link AgentOptions} (see
 * there for what each does), and `build()` is `Agent.create(options)`.
 */
export class AgentBuilder {
  readonly #options: AgentOptions & { tools: AnyTool[] } = { tools: [] };

  /** Adds one tool (after the built-ins; a tool with a built-in's name replaces it). */
  tool(tool: AnyTool): this {
    this.#options.tools.push(tool);
    return this;
  }

  /** Adds several tools, in order. */
  tools(tools: ReadonlyArray<AnyTool>): this {
    this.#options.tools.push(...tools);
    return this;
  }

  /** {@link AgentOptions.toolProfile}: a profile name or a list of tools instead of the model's profile. */
  toolProfile(profile: ToolProfileName | AnyTool[]): this {
    this.#options.toolProfile = profile;
    return this;
  }

  /** {@link AgentOptions.allowAll}: every tool may run without asking. */
  allowAll(): this {
    this.#options.allowAll = true;
    return this;
  }

  /** {@link AgentOptions.readOnly}: registers only the read-only tools of the profile. */
  readOnly(): this {
    this.#options.readOnly = true;
    return this;
  }

  /** {@link AgentOptions.planMode}: every tool that is not read-only is refused (`permission_denied`). */
  planMode(on = true): this {
    this.#options.planMode = on;
    return this;
  }

  /** {@link AgentOptions.onPermissionRequest}: asked for each call of a tool that is not read-only. */
  onPermissionRequest(ask: (request: PermissionRequest) => Promise<PermissionAnswer>): this {
    this.#options.onPermissionRequest = ask;
    return this;
  }

  /** {@link AgentOptions.platform}: the platform to run on (default: a fresh memory platform). */
  platform(platform: Platform): this {
    this.#options.platform = platform;
    return this;
  }

  /** {@link AgentOptions.conversationId}: conversation of calls that name none. */
  conversationId(id: string): this {
    this.#options.conversationId = id;
    return this;
  }

  /** {@link AgentOptions.defaultTimeoutMs}: deadline, in ms, of calls that give none. */
  defaultTimeoutMs(ms: number): this {
    this.#options.defaultTimeoutMs = ms;
    return this;
  }

  /** {@link AgentOptions.hooks}, merged with those given before. */
  hooks(hooks: HostHooks & Pick<ToolRunnerOptions, 'onMessage' | 'isIdle'>): this {
    this.#options.hooks = { ...this.#options.hooks, ...hooks };
    return this;
  }

  /** {@link AgentOptions.model}: the model `agent.run()` talks to. */
  model(model: Model): this {
    this.#options.model = model;
    return this;
  }

  /** {@link AgentOptions.system}: default system instruction of `agent.run()`. */
  system(text: string): this {
    this.#options.system = text;
    return this;
  }

  /** {@link AgentOptions.maxTurns}: default `maxTurns` of `agent.run()` (default 20). */
  maxTurns(turns: number): this {
    this.#options.maxTurns = turns;
    return this;
  }

  /** {@link AgentOptions.toolHost}: runs the model's tool calls on `host` instead of the agent's runner. */
  toolHost(host: AgentToolHost): this {
    this.#options.toolHost = host;
    return this;
  }

  /** {@link AgentOptions.subagents}: lets `start_subagent` run a child agent; `false` turns it off again. */
  subagents(enabled: boolean | SubagentOptions = true): this {
    this.#options.subagents = enabled === true || enabled === false ? enabled : { ...enabled };
    return this;
  }

  /** Builds the agent: `Agent.create` with the options set so far; throws `invalid_arguments` for a tool with a bad name or schema. */
  build(): Agent {
    return Agent.create({ ...this.#options, tools: [...this.#options.tools] });
  }
}

/** The tools of the chosen profile (read-only ones only with `readOnly`), with `finish` for the non-toolhost ones. */
function profileTools(asked: ToolProfileName | AnyTool[] | undefined, profile: ToolProfileName | 'custom', readOnly: boolean): AnyTool[] {
  if (profile === 'toolhost' && !Array.isArray(asked)) return readOnly ? BuiltinTools.readOnly() : toolProfiles.toolhost();
  const list: AnyTool[] = Array.isArray(asked) ? asked.slice() : toolProfiles.byName(profile as ToolProfileName);
  const chosen = readOnly ? list.filter(isReadOnlyTool) : list;
  return chosen.some((tool) => tool.name === 'finish') ? chosen : [...chosen, finishTool];
}

/** Whether a tool is read-only as the runner will see it (either form; a tool the runner will refuse is kept, so registration reports it). */
function isReadOnlyTool(tool: AnyTool): boolean {
  try {
    return createToolEntry(tool).readOnly;
  } catch {
    return true;
  }
}

function buildAgent(config: BuilderConfig): Agent {
  const profile = Array.isArray(config.profile) ? 'custom' : (config.profile ?? config.model?.toolProfile ?? 'toolhost');
  const builtins = !config.builtins ? [] : profileTools(config.profile, profile, config.readOnly);
  // A tool of the host's with a built-in's name takes its place (the runner refuses two of one name).
  const own = (tool: AnyTool): AnyTool | undefined => config.tools.find((mine) => typeof mine === 'object' && mine !== null && mine.name === tool.name);
  const placed = builtins.map((tool) => own(tool) ?? tool);
  const tools = [...placed, ...config.tools.filter((tool) => !placed.includes(tool))];
  let agent: Agent | undefined;
  let permissions: PermissionPolicy;
  if (config.allowAll) permissions = 'allow_all';
  else if (config.ask) {
    const ask = config.ask;
    permissions = {
      ask: (request) => {
        if (agent) activeRuns.get(agent)?.get(request.conversationId)?.emit({ type: 'permission_request', request });
        return ask(request);
      },
    };
  } else permissions = {};
  const options: ToolRunnerOptions = { ...config.options, tools, permissions, planMode: config.planMode };
  if (config.platform) options.platform = config.platform;
  const subagents = config.subagents;
  if (subagents && !options.startSubagent) options.startSubagent = (request) => (agent as Agent).runSubagent(request);
  const runner = new ToolRunner(options);
  const agentOptions: AgentParts = {};
  if (config.model) agentOptions.model = config.model;
  if (config.system !== undefined) agentOptions.system = config.system;
  if (config.maxTurns !== undefined) agentOptions.maxTurns = config.maxTurns;
  if (config.toolHost) agentOptions.toolHost = config.toolHost;
  agentOptions.toolProfile = profile;
  agent = new Agent(runner, agentOptions);
  if (subagents) {
    childFactories.set(agent, (names) => {
      let childTools = tools;
      if (names !== undefined) {
        const known = new Set(tools.map((t) => t.name));
        const unknown = names.filter((name) => !known.has(name));
        if (unknown.length > 0) {
          throw new ToolError('invalid_arguments', `unknown tools for the subagent: ${unknown.join(', ')}; available: ${[...known].join(', ')}`);
        }
        const wanted = new Set([...names, 'finish']);
        childTools = tools.filter((t) => wanted.has(t.name));
      }
      const childOptions = { ...config.options };
      delete childOptions.startSubagent;
      return buildAgent({
        ...config,
        tools: childTools,
        builtins: false,
        platform: runner.platform,
        options: childOptions,
        subagents: undefined,
        system: subagents.system ?? config.system,
        maxTurns: subagents.maxTurns ?? config.maxTurns,
      });
    });
  }
  return agent;
}
