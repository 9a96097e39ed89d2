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

/** How subagents run when enabled with {@link AgentBuilder.subagents}. */
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

/** Options of the {@link Agent} constructor; the builder fills them in. */
export interface AgentOptions {
  /** The model `run` talks to. */
  model?: Model;
  /** Default system instruction of runs. */
  system?: string;
  /** Default `maxTurns` of runs (default 20). */
  maxTurns?: number;
  /** Where `run` sends tool calls instead of the agent's own runner (see {@link AgentBuilder.toolHost}). */
  toolHost?: AgentToolHost;
  /** The tool profile registered (see {@link AgentBuilder.toolProfile}); `custom` for a list of tools. */
  toolProfile?: ToolProfileName | 'custom';
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
  /** The tools `run` uses instead of {@link Agent.runner}, when the builder was given {@link AgentBuilder.toolHost}. */
  readonly toolHost: AgentToolHost | undefined;
  /**
   * The tool profile the agent registered: the builder's {@link AgentBuilder.toolProfile}, else the
   * model's (`anthropicModel` → `anthropic`, `geminiModel` → `gemini`, `openAICompatibleModel` on
   * api.openai.com → `openai`, on another server → `toolhost`), else `toolhost`; `custom` for a list.
   */
  readonly toolProfile: ToolProfileName | 'custom';
  readonly #system: string | undefined;
  readonly #maxTurns: number;
  readonly #histories = new Map<string, ModelMessage[]>();

  constructor(runner: ToolRunner, options: AgentOptions = {}) {
    this.runner = runner;
    this.model = options.model;
    this.toolHost = options.toolHost;
    this.toolProfile = options.toolProfile ?? 'toolhost';
    this.#system = options.system;
    this.#maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
    activeRuns.set(this, new Map());
  }

  /** Starts an {@link AgentBuilder}. */
  static builder(): AgentBuilder {
    return new AgentBuilder();
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
 * Fluent configuration of an {@link Agent}.
 * Registers every built-in plus the given tools (`readOnly()`: only the read-only built-ins).
 * Permissions: `allowAll()` runs everything; otherwise read-only tools run and the rest go to
 * `onPermissionRequest` (`allow_once` / `allow_session` / `deny`), denied when there is none.
 * `model(m)` lets `agent.run()` drive the tools with a model; `subagents()` makes `start_subagent` run
 * child agents.
 */
export class AgentBuilder {
  readonly #config: BuilderConfig = {
    tools: [],
    allowAll: false,
    readOnly: false,
    planMode: false,
    ask: undefined,
    platform: undefined,
    options: {},
    model: undefined,
    system: undefined,
    maxTurns: undefined,
    toolHost: undefined,
    subagents: undefined,
    builtins: true,
    profile: undefined,
  };

  /** Adds one tool (after the built-ins; a tool with a built-in's name replaces it). */
  tool(tool: AnyTool): this {
    this.#config.tools.push(tool);
    return this;
  }

  /** Adds several tools, in order. */
  tools(tools: ReadonlyArray<AnyTool>): this {
    for (const tool of tools) this.#config.tools.push(tool);
    return this;
  }

  /**
   * The model-facing tools to register instead of the model's own profile: a profile name
   * (`'anthropic'`, `'openai'`, `'gemini'`, `'toolhost'`) or a list (such as
   * `toolProfiles.combine(...)`). Without it the agent takes the model's `toolProfile`, else
   * `toolhost`. Profiles other than `toolhost` get `finish` added, so a run can end with it.
   */
  toolProfile(profile: ToolProfileName | AnyTool[]): this {
    this.#config.profile = profile;
    return this;
  }

  /** Every tool may run without asking. */
  allowAll(): this {
    this.#config.allowAll = true;
    return this;
  }

  /** Registers only the read-only tools of the profile (for `toolhost`: find_file, list_dir, search_dir, view_file, grep_search). */
  readOnly(): this {
    this.#config.readOnly = true;
    return this;
  }

  /** Plan mode: every tool that is not read-only is refused (`permission_denied`). */
  planMode(on = true): this {
    this.#config.planMode = on;
    return this;
  }

  /**
   * Asked for each call of a tool that is not read-only (unless `allowAll()`). During `agent.run()`, each
   * question is also yielded as a `permission_request` event of the run, before `ask` is called.
   */
  onPermissionRequest(ask: (request: PermissionRequest) => Promise<PermissionAnswer>): this {
    this.#config.ask = ask;
    return this;
  }

  /** The platform to run on (default: a fresh memory platform). */
  platform(platform: Platform): this {
    this.#config.platform = platform;
    return this;
  }

  /** Conversation of calls that name none. */
  conversationId(id: string): this {
    this.#config.options.conversationId = id;
    return this;
  }

  /** Deadline, in ms, of calls that give none. */
  defaultTimeoutMs(ms: number): this {
    this.#config.options.defaultTimeoutMs = ms;
    return this;
  }

  /** Host hooks for `start_subagent`, `generate_image` and `finish` (a `startSubagent` here wins over `subagents()`). */
  hooks(hooks: HostHooks & Pick<ToolRunnerOptions, 'onMessage' | 'isIdle'>): this {
    Object.assign(this.#config.options, hooks);
    return this;
  }

  /** The model `agent.run()` talks to ({@link geminiModel}, {@link openAICompatibleModel}, {@link anthropicModel}, {@link scriptedModel}, or your own). */
  model(model: Model): this {
    this.#config.model = model;
    return this;
  }

  /** Default system instruction of `agent.run()`. */
  system(text: string): this {
    this.#config.system = text;
    return this;
  }

  /** Default `maxTurns` of `agent.run()` (default 20). */
  maxTurns(turns: number): this {
    this.#config.maxTurns = turns;
    return this;
  }

  /**
   * Runs the model's tool calls somewhere else: `agent.run()` declares `host.declarations()` (awaited
   * before each model request) to the model and sends each turn's calls to `host.processToolCalls` in one
   * batch, with the run's `conversationId` and `signal`. The seam for a loop on the page with its tools
   * in a worker: pass a `RemoteToolRunner` (`connectToolRunner`), so the model client runs on the page
   * and the tools in the worker, against the worker's files, permissions, plan mode and tool state.
   * `agent.runner` is still built from this builder (and `agent.processToolCalls` / `execute` use it),
   * but `run()` does not touch it, so `tool()`, `allowAll()`, `planMode()` and `onPermissionRequest()`
   * (and its `permission_request` events) have no effect on a run, and `start_subagent` is whatever the
   * host's runner does with it.
   */
  toolHost(host: AgentToolHost): this {
    this.#config.toolHost = host;
    return this;
  }

  /**
   * Lets `start_subagent` run a child agent ({@link Agent.runSubagent}): same model and platform, its own
   * conversation id. `false` turns it off again (then `start_subagent` answers with a note).
   */
  subagents(enabled: boolean | SubagentOptions = true): this {
    this.#config.subagents = enabled === false ? undefined : enabled === true ? {} : { ...enabled };
    return this;
  }

  /** Builds the agent; throws `invalid_arguments` for a tool with a bad name or schema. */
  build(): Agent {
    return buildAgent({ ...this.#config, tools: [...this.#config.tools], options: { ...this.#config.options } });
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
  const tools = [...builtins, ...config.tools];
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
  const agentOptions: AgentOptions = {};
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
