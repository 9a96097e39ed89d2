import type { FsPromises } from './fs-port.js';
import type { JsonSchema, JsonValue } from './json.js';
import type { Platform } from './platform.js';
import type { DenialTracker, PermissionChecker } from './permissions.js';
import type { FileCache } from './file-cache.js';
import type { ToolAnnotations } from './host.js';
import { isStandardSchema, legacyZodProblem, type StandardSchemaV1 } from './standard-schema.js';
import { checkOptions, describeValue, type OptionRules } from './options.js';

/**
 * The classic tool form, still accepted for a host's own tools: `parameters` (JSON Schema object or
 * JSON string), `call`, and `callWithContext` when `needsContext` is set. Implement it as a class or
 * build it with {@link defineTool}. At registration it is turned into the one tool shape,
 * {@link ExecuteTool} (every built-in and profile tool is written in that shape), and nothing past
 * registration reads this form. Outputs must be JSON-serialisable (structured-clone safe).
 */
export interface Tool<Args = unknown, Out = unknown> {
  /** Model-facing name, `/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/`. */
  readonly name: string;
  readonly description: string;
  /** JSON Schema object, or the same as a JSON string (as Rust tools' `parameters_json_schema` returns it). */
  readonly parameters: JsonSchema | string;
  /** The tool never changes anything (default false). */
  readonly readOnly?: boolean;
  /** Safe to run beside other concurrency-safe calls (default: `readOnly`). */
  readonly concurrencySafe?: boolean;
  /** Receives a {@link ToolContext} through `callWithContext` (default false). */
  readonly needsContext?: boolean;
  /** MCP-style side-effect hints; `readOnlyHint` defaults to `readOnly`. */
  readonly annotations?: ToolAnnotations;
  /** See {@link ExecuteTool.annotationsTrusted}: `false` makes `annotations.readOnlyHint` grant nothing (only `readOnly` does). */
  readonly annotationsTrusted?: boolean;
  /**
   * For a tool whose calls differ in effect (a text editor's `view` beside its `create`): whether a
   * call with these validated arguments changes nothing. Permissions, plan mode and the deadline rules
   * then treat that call as read-only (or not) whatever the tool's hint; concurrency stays the tool's.
   */
  isReadOnlyCall?(args: Args): boolean;
  /** JSON Schema of the result, when the tool declares one; a result that does not match is `execution_failed`. */
  readonly outputSchema?: JsonSchema;
  call(args: Args): Promise<Out>;
  callWithContext?(args: Args, ctx: ToolContext): Promise<Out>;
}

/** Hooks a host gives the runner for `start_subagent`, `generate_image` and `finish`. */
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
 * What a tool's `execute` (and a `needsContext` tool's `callWithContext`) receives for one call. Built
 * lazily: members cost nothing until read. Tool state is loaded before the call.
 */
export interface ToolContext {
  /** The call's conversation: `opts.conversationId`, else the runner's. */
  readonly conversationId: string;
  /** The call's id, or a generated one. */
  readonly callId: string;
  /** Fires on cancel (`reason.code === 'cancelled'`) and on timeout (`'timeout'`). */
  readonly signal: AbortSignal;
  /**
   * When the call's deadline fires, as a `Date.now()` value (ms since the epoch): the call's
   * `timeoutMs` (else the runner's `defaultTimeoutMs`) after the call started; undefined when the call
   * has no deadline. A tool that can stop early with a partial answer (the search tools) plans its
   * work within it, since `signal` firing at the deadline ends the call with `timeout`.
   */
  readonly deadline: number | undefined;
  /** Workspace directory that relative paths resolve against. */
  readonly cwd: string;
  /** The platform's virtual filesystem (promise API). */
  readonly fs: FsPromises;
  /** The platform itself, for capabilities (`runCommand`, `webSearch`, `regex`). */
  readonly platform: Platform;
  /** Whether the agent is idle (host-provided; false by default). */
  isIdle(): boolean;
  /**
   * Delivers a message to the host's `onMessage` (crosses the worker boundary). Throws a TypeError
   * synchronously for a message that is not JSON (the tool's mistake: an uncaught one makes the call
   * `execution_failed`, never the model's `invalid_arguments`); resolves once the host has taken
   * it, and never rejects (a failing host handler does not fail the tool), so it need not be awaited.
   */
  send(message: JsonValue): Promise<void>;
  /** Reads this conversation's tool state (synchronous; loaded before the call). */
  getState<T extends JsonValue = JsonValue>(key: string): T | undefined;
  /**
   * Sets this conversation's tool state; persisted before the call's result is returned.
   * Throws a TypeError at once, naming the key and what the value is, for a key that is not a string
   * or a value that is not JSON (functions, cycles, NaN, bigints, Dates...): the tool's mistake, so an
   * uncaught one makes the call `execution_failed`, never the model's `invalid_arguments`.
   * `undefined` deletes the key.
   */
  setState<T extends JsonValue = JsonValue>(key: string, value: T | undefined): void;
  readonly planMode: boolean;
  readonly permissions: PermissionChecker;
  /** Content hashes of files this conversation has viewed (for `stale_file`). */
  readonly fileCache: FileCache;
  readonly denialTracker: DenialTracker;
  readonly verbose: boolean;
  /** Runs `fn` while holding the write lock of `path` (absolute): writes to one path never interleave (across processes too where the platform has `lockPath`). */
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

/** A tool's input schema: a JSON Schema object (draft-07, 2019-09 or 2020-12) or a Standard Schema v1 value (zod 4, valibot, arktype). */
export type ToolSchema = JsonSchema | StandardSchemaV1;

/**
 * The input type of a tool's `execute` for its schema: a Standard Schema's output type (after
 * transforms: `z.output<typeof schema>`), or for a JSON Schema written `as const`, {@link InferArgs}.
 */
export type InferInput<S> = S extends StandardSchemaV1 ? NonNullable<S['~standard']['types']>['output'] : InferArgs<S>;

/**
 * The one tool shape, as the AI SDK's `tool()`, MCP's `registerTool` and OpenAI Agents' `tool()` have
 * it: `execute(input, ctx)` gets the validated (and, for a Standard Schema, parsed) input and a
 * {@link ToolContext}; `annotations.readOnlyHint` says the tool changes nothing (refined per call by
 * `isReadOnlyCall`), and concurrency-safety follows it unless `concurrencySafe` says otherwise. Every
 * built-in and profile tool has this shape. Build one with {@link defineTool}. Outputs must be
 * JSON-serialisable.
 */
export interface ExecuteTool<Input = unknown, Output = unknown> {
  /** Model-facing name, `/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/`. */
  readonly name: string;
  readonly description: string;
  /** JSON Schema object, or a Standard Schema (its own `~standard.validate` validates; refinements and transforms apply). */
  readonly inputSchema: ToolSchema;
  /**
   * The JSON Schema the model is shown, for a Standard Schema library that cannot convert itself
   * (no `~standard.jsonSchema`): valibot's `toJsonSchema(schema)`, say. Ignored for a JSON Schema input.
   */
  readonly jsonSchema?: object;
  /** Schema of the result (JSON Schema or Standard Schema); a result that does not match is `execution_failed`. */
  readonly outputSchema?: ToolSchema;
  /** MCP's side-effect hints; `readOnlyHint` makes the tool read-only for permissions and plan mode. */
  readonly annotations?: ToolAnnotations;
  /**
   * Whether `annotations` are the host's own word (default true). `false` for hints another party
   * claims, such as a remote MCP server's (the MCP spec calls them untrusted): they stay on the tool as
   * given, but `readOnlyHint` grants nothing — permissions, plan mode, deadlines and batching treat the
   * tool as mutating, and the runner's `tools()` reports `readOnlyHint: false`. `mcpTools` sets it
   * unless the host trusts the server (`trustAnnotations`).
   */
  readonly annotationsTrusted?: boolean;
  /**
   * For a tool whose calls differ in effect (a text editor's `view` beside its `create`): whether a
   * call with these validated arguments changes nothing. Permissions, plan mode and the deadline rules
   * then treat that call as read-only (or not) whatever the tool's hint; concurrency stays the tool's.
   */
  isReadOnlyCall?(input: Input): boolean;
  /** Safe to run beside other concurrency-safe calls (default: `annotations.readOnlyHint`). */
  readonly concurrencySafe?: boolean;
  execute(input: Input, ctx: ToolContext): Promise<Output> | Output;
}

/** Any tool a runner takes: an {@link ExecuteTool}, or a classic {@link Tool} (adapted at registration). */
export type AnyTool = ExecuteTool<never, unknown> | Tool<never, unknown>;

/** The object literal {@link defineTool} takes for an {@link ExecuteTool}. */
export interface ExecuteToolDefinition<S, Out> {
  name: string;
  description: string;
  inputSchema: S;
  jsonSchema?: object;
  outputSchema?: ToolSchema;
  annotations?: ToolAnnotations;
  isReadOnlyCall?: (input: InferInput<S>) => boolean;
  concurrencySafe?: boolean;
  execute: (input: InferInput<S>, ctx: ToolContext) => Promise<Out> | Out;
}

/** The object literal {@link defineTool} takes for a classic {@link Tool}. */
export interface ToolDefinition<S, Out> {
  name: string;
  description: string;
  parameters: S;
  readOnly?: boolean;
  concurrencySafe?: boolean;
  needsContext?: boolean;
  /** MCP's side-effect hints (`readOnly` sets `readOnlyHint`). */
  annotations?: ToolAnnotations;
  /** Whether a call with these arguments changes nothing, for a tool whose calls differ (see {@link Tool.isReadOnlyCall}). */
  isReadOnlyCall?: (args: InferArgs<S>) => boolean;
  /** JSON Schema of the result; a result that does not match is `execution_failed`. */
  outputSchema?: JsonSchema;
  call?: (args: InferArgs<S>) => Promise<Out> | Out;
  callWithContext?: (args: InferArgs<S>, ctx: ToolContext) => Promise<Out> | Out;
}

/**
 * Builds a tool from an object literal, typing its input from the schema.
 *
 * The documented form: `defineTool({ name, description, inputSchema, execute(input, ctx) })` with a
 * zod / valibot / arktype schema (the model sees the JSON Schema the library derives; the library
 * validates, so refinements and transforms apply and `execute` gets the parsed output) or a JSON
 * Schema object written `as const`. Optional: `outputSchema`, `annotations` (MCP's names),
 * `concurrencySafe`, `jsonSchema`.
 *
 * The classic form: `parameters` plus `call`, or `callWithContext` (which sets `needsContext` unless
 * said otherwise), or both.
 *
 * Throws a TypeError (a programming error, not a tool-call failure) when the definition is not an
 * object, when it lacks a field its form needs (naming every one missing: `defineTool(x): missing
 * description, inputSchema and execute; …`; `{}` or `{ name }` alone is taken as the `execute` form),
 * or `inputSchema` is neither a JSON Schema object nor a Standard Schema.
 * A key its form does not take is refused, never ignored, with the name it most probably misspells
 * (`defineTool(get_weather): input_schema is not an option (did you mean inputSchema?)`) or the form's
 * options; `parameters` beside `execute` says to give the schema as `inputSchema`, and `readOnly` to
 * use `annotations: { readOnlyHint: true }`. A zod 3 schema (which has no JSON Schema output for the
 * model) is refused saying to use zod 4.2 or later.
 */
export function defineTool<const S extends ToolSchema, Out = unknown>(definition: ExecuteToolDefinition<S, Out>): ExecuteTool<InferInput<S>, Out>;
export function defineTool<const S extends JsonSchema | string, Out = unknown>(definition: ToolDefinition<S, Out>): Tool<InferArgs<S>, Out>;
export function defineTool(
  definition: ExecuteToolDefinition<ToolSchema, unknown> | ToolDefinition<JsonSchema | string, unknown>,
): ExecuteTool<never, unknown> | Tool {
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
    throw new TypeError(
      `defineTool: definition must be an object { name, description, inputSchema, execute } (or { name, description, parameters, call }), not ${describeValue(definition)}`,
    );
  }
  const executeForm = 'execute' in definition || 'inputSchema' in definition;
  checkDefinitionKeys(definition as unknown as Record<string, unknown>, executeForm);
  checkDefinitionComplete(definition as unknown as Record<string, unknown>, executeForm);
  if (executeForm) return defineExecuteTool(definition as ExecuteToolDefinition<ToolSchema, unknown>);
  return defineClassicTool(definition as ToolDefinition<JsonSchema | string, unknown>);
}

const TAKEN = (): undefined => undefined;
const keysOf = (keys: string): OptionRules => Object.fromEntries(keys.split(' ').map((key) => [key, TAKEN]));
/** The keys of each form of {@link defineTool}'s definition (kept in step with the two definition interfaces). */
const EXECUTE_KEYS = keysOf('name description inputSchema jsonSchema outputSchema annotations isReadOnlyCall concurrencySafe execute');
const CLASSIC_KEYS = keysOf('name description parameters readOnly concurrencySafe needsContext annotations isReadOnlyCall outputSchema call callWithContext');

/**
 * Refuses a key of `definition` that its form does not take, as every option check does: a TypeError
 * naming the tool and the key, with the name it most probably misspells (`input_schema` →
 * `inputSchema`); the classic form's `parameters` and `readOnly` beside `execute` say what to write
 * instead. A key whose value is undefined is let through.
 */
function checkDefinitionKeys(definition: Record<string, unknown>, executeForm: boolean): void {
  const where = definitionWhere(definition);
  if (executeForm && definition.parameters !== undefined) throw new TypeError(`${where}: parameters goes with call; with execute, give the schema as inputSchema`);
  if (executeForm && definition.readOnly !== undefined) throw new TypeError(`${where}: readOnly goes with call; with execute, use annotations: { readOnlyHint: true }`);
  checkOptions(where, definition, executeForm ? EXECUTE_KEYS : CLASSIC_KEYS);
}

/** `defineTool(get_weather)` for messages, or `defineTool` while the definition has no name. */
function definitionWhere(definition: Record<string, unknown>): string {
  return definition.name === undefined ? 'defineTool' : `defineTool(${String(definition.name)})`;
}

/**
 * Refuses a definition that lacks what its form needs, naming every missing field: the `execute`
 * form's name, description, inputSchema and execute; the classic form's name, description, parameters
 * and call (or callWithContext). A definition of neither form (`{}`, `{ name }`) is taken as the
 * documented `execute` form, and the message shows the classic one too.
 */
function checkDefinitionComplete(definition: Record<string, unknown>, executeForm: boolean): void {
  const classicForm = !executeForm && ['parameters', 'call', 'callWithContext'].some((key) => definition[key] !== undefined);
  const required = classicForm ? ['name', 'description', 'parameters'] : ['name', 'description', 'inputSchema', 'execute'];
  const missing = required.filter((key) => definition[key] === undefined);
  if (classicForm && definition.call === undefined && definition.callWithContext === undefined) missing.push('call (or callWithContext)');
  if (missing.length === 0) return;
  const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  const shape = classicForm
    ? 'the classic form is defineTool({ name, description, parameters, call(args) }), with callWithContext(args, ctx) for a tool that needs its context'
    : executeForm
      ? 'a tool is defineTool({ name, description, inputSchema, execute(input, ctx) })'
      : 'a tool is defineTool({ name, description, inputSchema, execute(input, ctx) }), or in the classic form { name, description, parameters, call(args) }';
  throw new TypeError(`${definitionWhere(definition)}: missing ${list}; ${shape}`);
}

function defineExecuteTool(definition: ExecuteToolDefinition<ToolSchema, unknown>): ExecuteTool<never, unknown> {
  const { name, inputSchema, execute } = definition;
  if (typeof execute !== 'function') throw new TypeError(`defineTool(${String(name)}): execute must be a function (input, ctx) => result`);
  const legacy = legacyZodProblem(inputSchema);
  if (legacy) throw new TypeError(`defineTool(${String(name)}): inputSchema ${legacy}`);
  const isJsonObject = typeof inputSchema === 'object' && inputSchema !== null && !Array.isArray(inputSchema) && !isStandardSchema(inputSchema);
  if (!isJsonObject && !isStandardSchema(inputSchema)) {
    throw new TypeError(`defineTool(${String(name)}): inputSchema must be a JSON Schema object or a Standard Schema (zod 4, valibot, arktype)`);
  }
  const tool: ExecuteTool<never, unknown> = {
    name: definition.name,
    description: definition.description,
    inputSchema,
    execute: execute as ExecuteTool<never, unknown>['execute'],
    ...(definition.jsonSchema === undefined ? {} : { jsonSchema: definition.jsonSchema }),
    ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
    ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
    ...(definition.concurrencySafe === undefined ? {} : { concurrencySafe: definition.concurrencySafe }),
    ...(definition.isReadOnlyCall === undefined ? {} : { isReadOnlyCall: definition.isReadOnlyCall as (input: never) => boolean }),
  };
  return tool;
}

function defineClassicTool(definition: ToolDefinition<JsonSchema | string, unknown>): Tool {
  const { call, callWithContext } = definition;
  if (!call && !callWithContext) {
    throw new TypeError(`defineTool(${definition.name}): call must be a function (args) => result, or give callWithContext(args, ctx) instead`);
  }

  const needsContext = definition.needsContext ?? callWithContext !== undefined;
  const tool: Tool = {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters,
    readOnly: definition.readOnly ?? false,
    concurrencySafe: definition.concurrencySafe ?? definition.readOnly ?? false,
    needsContext,
    ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
    ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
    ...(definition.isReadOnlyCall === undefined ? {} : { isReadOnlyCall: definition.isReadOnlyCall as (args: unknown) => boolean }),
    call: call
      ? async (args) => call(args as never)
      : async () => {
          throw new TypeError(`${definition.name} needs a ToolContext: call it through a ToolRunner`);
        },
  };
  if (callWithContext) {
    tool.callWithContext = async (args, ctx) => callWithContext(args as never, ctx);
  }
  return tool;
}

/** True for a tool in the {@link ExecuteTool} shape (it has `execute` and `inputSchema`). */
export function isExecuteTool(tool: unknown): tool is ExecuteTool {
  return (
    typeof tool === 'object' &&
    tool !== null &&
    typeof (tool as { execute?: unknown }).execute === 'function' &&
    (tool as { inputSchema?: unknown }).inputSchema !== undefined
  );
}
