import type { PermissionAnswer, PermissionPolicy, PermissionRequest } from './permissions.js';
import { ToolRunner, type CallOptions, type ToolCall, type ToolCallResult, type ToolRunnerOptions } from './runner.js';
import type { HostHooks, Tool } from './tool.js';
import { BuiltinTools } from './tools/index.js';
import type { Platform } from './types.js';

/**
 * An agent's tool side: a configured {@link ToolRunner} (seed: the SDK's `Agent`). Build it with
 * {@link Agent.builder}.
 */
export class Agent {
  readonly runner: ToolRunner;

  constructor(runner: ToolRunner) {
    this.runner = runner;
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
}

/**
 * Fluent configuration of an {@link Agent} (SPEC §5; seed: `Agent::builder().tool(..).tools(..).allow_all().build()`).
 * Registers every built-in plus the given tools (`readOnly()`: only the read-only built-ins).
 * Permissions: `allowAll()` runs everything; otherwise read-only tools run and the rest go to
 * `onPermissionRequest` (`allow_once` / `allow_session` / `deny`), denied when there is none.
 */
export class AgentBuilder {
  #tools: Tool[] = [];
  #allowAll = false;
  #readOnly = false;
  #planMode = false;
  #ask: ((request: PermissionRequest) => Promise<PermissionAnswer>) | undefined;
  #platform: Platform | undefined;
  #options: Omit<ToolRunnerOptions, 'platform' | 'tools' | 'permissions' | 'planMode'> = {};

  /** Adds one tool (after the built-ins; a tool with a built-in's name replaces it). */
  tool(tool: Tool<never, unknown> | Tool): this {
    this.#tools.push(tool as Tool);
    return this;
  }

  /** Adds several tools, in order. */
  tools(tools: ReadonlyArray<Tool<never, unknown> | Tool>): this {
    for (const tool of tools) this.#tools.push(tool as Tool);
    return this;
  }

  /** Every tool may run without asking. */
  allowAll(): this {
    this.#allowAll = true;
    return this;
  }

  /** Registers only the read-only built-ins (find_file, list_dir, search_dir, view_file, grep_search). */
  readOnly(): this {
    this.#readOnly = true;
    return this;
  }

  /** Plan mode: every tool that is not read-only is refused (`permission_denied`). */
  planMode(on = true): this {
    this.#planMode = on;
    return this;
  }

  /** Asked for each call of a tool that is not read-only (unless `allowAll()`). */
  onPermissionRequest(ask: (request: PermissionRequest) => Promise<PermissionAnswer>): this {
    this.#ask = ask;
    return this;
  }

  /** The platform to run on (default: a fresh memory platform). */
  platform(platform: Platform): this {
    this.#platform = platform;
    return this;
  }

  /** Conversation of calls that name none. */
  conversationId(id: string): this {
    this.#options.conversationId = id;
    return this;
  }

  /** Deadline, in ms, of calls that give none. */
  defaultTimeoutMs(ms: number): this {
    this.#options.defaultTimeoutMs = ms;
    return this;
  }

  /** Host hooks for `start_subagent`, `generate_image` and `finish`. */
  hooks(hooks: HostHooks & Pick<ToolRunnerOptions, 'onMessage' | 'isIdle'>): this {
    Object.assign(this.#options, hooks);
    return this;
  }

  /** Builds the agent; throws `invalid_arguments` for a tool with a bad name or schema. */
  build(): Agent {
    const builtins = this.#readOnly ? BuiltinTools.readOnly() : BuiltinTools.all();
    let permissions: PermissionPolicy;
    if (this.#allowAll) permissions = 'allow_all';
    else if (this.#ask) permissions = { ask: this.#ask };
    else permissions = {};
    const options: ToolRunnerOptions = {
      ...this.#options,
      tools: [...builtins, ...this.#tools],
      permissions,
      planMode: this.#planMode,
    };
    if (this.#platform) options.platform = this.#platform;
    return new Agent(new ToolRunner(options));
  }
}
