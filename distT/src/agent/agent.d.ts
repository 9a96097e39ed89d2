import { type AgentDoneReason, type AgentEvent, type AgentRunOptions, type AgentToolHost } from './loop.js';
import type { Model, ModelMessage } from './models/types.js';
import type { PermissionAnswer, PermissionRequest } from '../core/permissions.js';
import { ToolRunner, type CallOptions, type ToolCall, type ToolCallResult, type ToolRunnerOptions } from '../core/runner.js';
import type { AnyTool, HostHooks, Tool } from '../core/tool.js';
import { type ToolProfileName } from '../tools/profiles/index.js';
import type { Platform } from '../core/types.js';
/** Default of `maxTurns` in {@link Agent.run}. */
export declare const DEFAULT_MAX_TURNS = 20;
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
/**
 * An agent: a configured {@link ToolRunner}, and, with a model, the loop that
 * lets the model drive it ({@link Agent.run}). Build it with {@link Agent.builder}.
 */
export declare class Agent {
    #private;
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
    constructor(runner: ToolRunner, options?: AgentOptions);
    /** Starts an {@link AgentBuilder}. */
    static builder(): AgentBuilder;
    /** Same as `runner.processToolCalls`: one result per call, in order; never rejects. */
    processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]>;
    /** Same as `runner.execute`: the output, or a rejection with a ToolError. */
    execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
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
    run(prompt: string, options?: AgentRunOptions): AsyncGenerator<AgentEvent, void, undefined>;
    /** A copy of a conversation's model history (default: the runner's conversation); `[]` when there is none. */
    history(conversationId?: string): ModelMessage[];
    /** Forgets a conversation's model history (tool state and files are untouched); true when there was one. */
    clearHistory(conversationId?: string): boolean;
    /**
     * Runs a child agent for `start_subagent` (the hook the builder installs with `.subagents()`): same
     * model, platform and permissions, the tools named in `tools` (plus `finish`; all the parent's when
     * absent), its own conversation id `<parent>/subagent-<id>`, and no subagents of its own. Follows the
     * parent run's signal and forwards the child's permission requests to it. Rejects with
     * `invalid_arguments` for unknown tool names and `unavailable` when subagents are off.
     */
    runSubagent(request: {
        task: string;
        tools?: string[];
        conversationId: string;
    }): Promise<SubagentResult>;
}
/**
 * Fluent configuration of an {@link Agent}.
 * Registers every built-in plus the given tools (`readOnly()`: only the read-only built-ins).
 * Permissions: `allowAll()` runs everything; otherwise read-only tools run and the rest go to
 * `onPermissionRequest` (`allow_once` / `allow_session` / `deny`), denied when there is none.
 * `model(m)` lets `agent.run()` drive the tools with a model; `subagents()` makes `start_subagent` run
 * child agents.
 */
export declare class AgentBuilder {
    #private;
    /** Adds one tool (after the built-ins; a tool with a built-in's name replaces it). */
    tool(tool: AnyTool): this;
    /** Adds several tools, in order. */
    tools(tools: ReadonlyArray<AnyTool>): this;
    /**
     * The model-facing tools to register instead of the model's own profile: a profile name
     * (`'anthropic'`, `'openai'`, `'gemini'`, `'toolhost'`) or a list (such as
     * `toolProfiles.combine(...)`). Without it the agent takes the model's `toolProfile`, else
     * `toolhost`. Profiles other than `toolhost` get `finish` added, so a run can end with it.
     */
    toolProfile(profile: ToolProfileName | Tool[]): this;
    /** Every tool may run without asking. */
    allowAll(): this;
    /** Registers only the read-only tools of the profile (for `toolhost`: find_file, list_dir, search_dir, view_file, grep_search). */
    readOnly(): this;
    /** Plan mode: every tool that is not read-only is refused (`permission_denied`). */
    planMode(on?: boolean): this;
    /**
     * Asked for each call of a tool that is not read-only (unless `allowAll()`). During `agent.run()`, each
     * question is also yielded as a `permission_request` event of the run, before `ask` is called.
     */
    onPermissionRequest(ask: (request: PermissionRequest) => Promise<PermissionAnswer>): this;
    /** The platform to run on (default: a fresh memory platform). */
    platform(platform: Platform): this;
    /** Conversation of calls that name none. */
    conversationId(id: string): this;
    /** Deadline, in ms, of calls that give none. */
    defaultTimeoutMs(ms: number): this;
    /** Host hooks for `start_subagent`, `generate_image` and `finish` (a `startSubagent` here wins over `subagents()`). */
    hooks(hooks: HostHooks & Pick<ToolRunnerOptions, 'onMessage' | 'isIdle'>): this;
    /** The model `agent.run()` talks to ({@link geminiModel}, {@link openAICompatibleModel}, {@link anthropicModel}, {@link scriptedModel}, or your own). */
    model(model: Model): this;
    /** Default system instruction of `agent.run()`. */
    system(text: string): this;
    /** Default `maxTurns` of `agent.run()` (default 20). */
    maxTurns(turns: number): this;
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
    toolHost(host: AgentToolHost): this;
    /**
     * Lets `start_subagent` run a child agent ({@link Agent.runSubagent}): same model and platform, its own
     * conversation id. `false` turns it off again (then `start_subagent` answers with a note).
     */
    subagents(enabled?: boolean | SubagentOptions): this;
    /** Builds the agent; throws `invalid_arguments` for a tool with a bad name or schema. */
    build(): Agent;
}
