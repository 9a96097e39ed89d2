import { type ToolErrorCode } from './errors.js';
import { DenialTracker, PermissionChecker, type PermissionPolicy } from './permissions.js';
import type { AnyTool, HostHooks } from './tool.js';
import type { ToolHost, ToolInfo } from './host.js';
import type { JsonSchema, JsonValue, Platform } from './types.js';
import { type ToolMessage } from './context.js';
export type { ToolMessage } from './context.js';
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
/**
 * Per-call options of `execute` and `processToolCalls`. A bad one (a `timeoutMs` that is not a number
 * > 0, a `signal` that is not an AbortSignal, ...) is the host's mistake: the call rejects with a
 * TypeError naming the option, the value and what is accepted, and no tool runs.
 */
export interface CallOptions {
    /** The conversation whose state and file cache the call uses (default: the runner's). */
    conversationId?: string;
    /** Aborting it ends the call with `cancelled`. */
    signal?: AbortSignal;
    /**
     * Deadline in ms; the call ends with `timeout` then, even if the tool ignores its signal. A tool
     * that blocks the thread so the timer cannot fire is judged when it returns: a read-only tool's late
     * answer becomes `timeout`; a mutating tool's result is returned, since its change was made.
     * `Infinity` = no deadline; anything but a number > 0 makes the call reject with a TypeError.
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
/**
 * Options of {@link ToolRunner}; all optional. Each is checked at construction: a bad one (a
 * `defaultTimeoutMs` of -1 or `'5000'`, `permissions: 'bogus'`, `allow: 5`, a hook that is not a
 * function) throws a TypeError naming the option, the value and what is accepted.
 */
export interface ToolRunnerOptions extends HostHooks {
    /** Filesystem, state and capabilities (default: a fresh memory platform). */
    platform?: Platform;
    /**
     * Tools registered at construction, in order (either shape). A tool the runner cannot take (bad
     * name, schema that is not an object) makes the constructor throw a TypeError naming it; a JSON
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
}
/**
 * Registers tools and runs tool calls. Validates arguments once (ajv for a JSON Schema, the library
 * itself for a Standard Schema), applies permissions and plan mode, hands tools a {@link ToolContext},
 * persists tool state before a call's result is returned, and turns every failure into a coded result.
 * Tools of both shapes ({@link ExecuteTool} and the classic {@link Tool}) are taken alike.
 */
export declare class ToolRunner implements ToolHost {
    #private;
    readonly platform: Platform;
    readonly denialTracker: DenialTracker;
    readonly conversationId: string;
    readonly defaultTimeoutMs: number | undefined;
    readonly cwd: string;
    readonly verbose: boolean;
    constructor(options?: ToolRunnerOptions);
    /**
     * A runner whose tools are all compiled: `new ToolRunner(options)` then {@link ready}. Rejects with
     * the TypeError of the first tool whose schema does not compile (naming the tool).
     */
    static create(options?: ToolRunnerOptions): Promise<ToolRunner>;
    /**
     * Resolves once every tool given to the constructor has its validator (most need no compile:
     * the built-ins are precompiled, Standard Schemas validate themselves). Rejects with a TypeError
     * naming the tool whose schema ajv refused, or that cannot be compiled here (a strict CSP).
     */
    ready(): Promise<void>;
    /** The permission checker in force (replaced by {@link setPermissions}). */
    get permissions(): PermissionChecker;
    /** Whether plan mode is on (only read-only tools run); settable, as {@link setPlanMode}. */
    get planMode(): boolean;
    set planMode(on: boolean);
    /**
     * Replaces the permission policy for the calls that start from now on (calls already waiting for a
     * permission keep the answer they get). `allow_session` answers given under the old policy are
     * forgotten. Throws a TypeError for a value that is not a policy.
     */
    setPermissions(policy: PermissionPolicy): void;
    /** Turns plan mode on or off for the calls that start from now on. */
    setPlanMode(on: boolean): void;
    /**
     * Adds a tool (either shape); a tool with the same name is replaced (keeping its place in
     * `declarations()`). Rejects with a TypeError naming the tool for a bad name, a missing
     * `execute`/`call`, or a schema that is not a compilable JSON Schema object (or cannot be compiled
     * here: see registerPrecompiledValidators) — a host's mistake, never `invalid_arguments`.
     */
    register(tool: AnyTool): Promise<void>;
    /** Removes a tool by name; true when one was registered. */
    unregister(name: string): boolean;
    /** Whether a tool of this name is registered. */
    has(name: string): boolean;
    /** Function declarations of the registered tools, in registration order, `parameters` as objects. */
    declarations(): FunctionDeclaration[];
    /**
     * The registered tools with annotations (`readOnlyHint` always set), output schema and concurrency,
     * in registration order: all an adapter (MCP `tools/list`, the AI SDK) needs, without the tool list.
     */
    tools(): ToolInfo[];
    /**
     * Runs one call and returns the tool's output; rejects with a {@link ToolError} (check `code`).
     * Codes: `unknown_tool`, `invalid_arguments`, `permission_denied`, `cancelled`, `timeout`,
     * `execution_failed` (a throw, message kept; a result that breaks the tool's outputSchema),
     * `unavailable` (the tool's schema could not be compiled), or the tool's own code. Bad `options`
     * (see {@link CallOptions}) reject with a TypeError instead: the host's mistake, not the model's.
     */
    execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
    /**
     * Runs a batch of calls and returns one result per call, in call order, ids echoed; a call's failure
     * is its result, never a rejection. Bad `options` (see {@link CallOptions}) or `calls` that are not
     * an array, the host's mistakes, reject with a TypeError before any call runs.
     * Consecutive `concurrencySafe` calls run concurrently; every other call runs alone, in order.
     * On a platform with `batch` the whole batch is made durable in one commit before it returns; when
     * that commit fails, every change of the batch is undone and each success of a tool that is not
     * read-only reports the commit's code instead (`quota_exceeded`, `unavailable`); read-only results
     * and failures are kept.
     */
    processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]>;
    /** Reads a conversation's tool state from the platform store (for hosts and inspectors). */
    getState(conversationId?: string): Promise<Record<string, JsonValue>>;
}
