import type { FsPromises, JsonSchema, JsonValue, Platform } from './types.js';
import type { DenialTracker, PermissionChecker } from './permissions.js';
import type { FileCache } from './file-cache.js';
import type { ToolAnnotations } from './host.js';

/**
 * A function a language model can call (SPEC §2; seeds: the SDK's `Tool` trait and the coding agent's
 * `is_read_only` / `is_concurrency_safe`). Implement it as a class or build it with {@link defineTool}.
 * Outputs must be JSON-serialisable (structured-clone safe).
 */
export interface Tool<Args = unknown, Out = unknown> {
  /** Model-facing name, `/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/`. */
  readonly name: string;
  readonly description: string;
  /** JSON Schema object, or the same as a JSON string (the seed's `parameters_json_schema`). */
  readonly parameters: JsonSchema | string;
  /** The tool never changes anything (default false). */
  readonly readOnly?: boolean;
  /** Safe to run beside other concurrency-safe calls (default: `readOnly`). */
  readonly concurrencySafe?: boolean;
  /** Receives a {@link ToolContext} through `callWithContext` (default false). */
  readonly needsContext?: boolean;
  /** MCP-style side-effect hints; `readOnlyHint` defaults to `readOnly`. */
  readonly annotations?: ToolAnnotations;
  /** JSON Schema of the result, when the tool declares one. */
  readonly outputSchema?: JsonSchema;
  call(args: Args): Promise<Out>;
  callWithContext?(args: Args, ctx: ToolContext): Promise<Out>;
}

/** Hooks a host gives the runner for `start_subagent`, `generate_image` and `finish` (SPEC §6.9). */
export interface HostHooks {
  startSubagent?: (request: { task: string; tools?: string[]; conversationId: string }) => Promise<JsonValue>;
  generateImage?: (request: {
    prompt: string;
    image_name?: string;
    image_paths?: string[];
    conversationId: string;
  }) => Promise<Uint8Array>;
  onFinish?: (event: { conversationId: string; result?: string }) => void;
}

/**
 * What a `needsContext` tool receives (SPEC §4; seeds: the SDK's `ToolContext` and the coding agent's
 * `cwd`/`cancel`/`plan_mode`/`file_cache`/`denial_tracker`/`verbose`).
 */
export interface ToolContext {
  /** The call's conversation: `opts.conversationId`, else the runner's. */
  readonly conversationId: string;
  /** The call's id, or a generated one. */
  readonly callId: string;
  /** Fires on cancel (`reason.code === 'cancelled'`) and on timeout (`'timeout'`). */
  readonly signal: AbortSignal;
  /** Workspace directory that relative paths resolve against. */
  readonly cwd: string;
  /** The platform's virtual filesystem (promise API). */
  readonly fs: FsPromises;
  /** The platform itself, for capabilities (`runCommand`, `webSearch`, `regex`). */
  readonly platform: Platform;
  /** Whether the agent is idle (host-provided; false by default). */
  isIdle(): boolean;
  /**
   * Delivers a message to the host's `onMessage` (crosses the worker boundary). Throws
   * `invalid_arguments` synchronously for a message that is not JSON; resolves once the host has taken
   * it, and never rejects (a failing host handler does not fail the tool), so it need not be awaited.
   */
  send(message: JsonValue): Promise<void>;
  /** Reads this conversation's tool state (synchronous; loaded before the call). */
  getState<T extends JsonValue = JsonValue>(key: string): T | undefined;
  /**
   * Sets this conversation's tool state; persisted before the call's result is returned.
   * Throws `invalid_arguments` at once for a value that is not JSON (functions, cycles, NaN, Dates...).
   * `undefined` deletes the key.
   */
  setState<T extends JsonValue = JsonValue>(key: string, value: T | undefined): void;
  readonly planMode: boolean;
  readonly permissions: PermissionChecker;
  /** Content hashes of files this conversation has viewed (for `stale_file`). */
  readonly fileCache: FileCache;
  readonly denialTracker: DenialTracker;
  readonly verbose: boolean;
  /** Runs `fn` while holding the write lock of `path` (absolute): writes to one path never interleave. */
  withPathLock<T>(path: string, fn: () => Promise<T>): Promise<T>;
  /** Host hooks for the subagent, image and finish built-ins. */
  readonly hooks: HostHooks;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type FromType<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'string' }
    ? string
    : S extends { type: 'integer' | 'number' }
      ? number
      : S extends { type: 'boolean' }
        ? boolean
        : S extends { type: 'null' }
          ? null
          : S extends { type: 'array'; items: infer I }
            ? FromType<I>[]
            : S extends { type: 'array' }
              ? unknown[]
              : S extends { type: 'object'; properties: infer P }
                ? ObjectFrom<P, S extends { required: readonly (infer R)[] } ? R : never>
                : S extends { type: 'object' }
                  ? Record<string, unknown>
                  : unknown;

type ObjectFrom<P, R> = Simplify<
  { -readonly [K in keyof P as K extends R ? K : never]: FromType<P[K]> } & {
    -readonly [K in keyof P as K extends R ? never : K]?: FromType<P[K]>;
  }
>;

/**
 * The argument type a JSON Schema describes, for schemas written `as const`:
 * `InferArgs<{ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }>` is `{ city: string }`.
 */
export type InferArgs<S> = S extends string ? unknown : FromType<S>;

/** The object literal {@link defineTool} takes. */
export interface ToolDefinition<S, Out> {
  name: string;
  description: string;
  parameters: S;
  readOnly?: boolean;
  concurrencySafe?: boolean;
  needsContext?: boolean;
  call?: (args: InferArgs<S>) => Promise<Out> | Out;
  callWithContext?: (args: InferArgs<S>, ctx: ToolContext) => Promise<Out> | Out;
}

/**
 * Builds a {@link Tool} from an object literal, inferring `Args` from a schema written `as const`.
 * Give `call`, or `callWithContext` (which sets `needsContext` unless said otherwise), or both.
 * Throws a TypeError when neither is given (a programming error, not a tool-call failure).
 */
export function defineTool<const S extends JsonSchema | string, Out = unknown>(
  definition: ToolDefinition<S, Out>,
): Tool<InferArgs<S>, Out> {
  const { call, callWithContext } = definition;
  if (!call && !callWithContext) {
    throw new TypeError(`defineTool(${definition.name}): give call or callWithContext`);
  }
  const needsContext = definition.needsContext ?? callWithContext !== undefined;
  const tool: Tool<InferArgs<S>, Out> = {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters as JsonSchema | string,
    readOnly: definition.readOnly ?? false,
    concurrencySafe: definition.concurrencySafe ?? definition.readOnly ?? false,
    needsContext,
    call: call
      ? async (args) => call(args)
      : async () => {
          throw new TypeError(`${definition.name} needs a ToolContext: call it through a ToolRunner`);
        },
  };
  if (callWithContext) {
    tool.callWithContext = async (args, ctx) => callWithContext(args, ctx);
  }
  return tool;
}
