import type { JsonSchema } from './json.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult } from './wire.js';

/**
 * Hints about a tool's side effects, with the names and meaning of MCP's tool annotations
 * (`title`, `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`). They describe the
 * tool to hosts and clients; they grant nothing (permissions and plan mode read `readOnlyHint`).
 */
export interface ToolAnnotations {
  /** A human-readable title for user interfaces. */
  title?: string;
  /** The tool changes nothing (MCP default false). A tool's `readOnly` flag maps here. */
  readOnlyHint?: boolean;
  /** When not read-only: it may destroy or overwrite data (MCP default true). */
  destructiveHint?: boolean;
  /** When not read-only: calling it twice with the same arguments has no further effect (MCP default false). */
  idempotentHint?: boolean;
  /** It reaches an open world beyond the workspace, such as the web (MCP default true). */
  openWorldHint?: boolean;
}

/**
 * A registered tool as a host describes it to adapters (MCP `tools/list`, AI SDK, OpenAI Agents):
 * its declaration plus annotations, an optional output schema and whether it may run beside others.
 */
export interface ToolInfo extends FunctionDeclaration {
  /** Always present; `readOnlyHint` is always set (from `annotations` or the tool's `readOnly`). */
  annotations: ToolAnnotations;
  /** JSON Schema of the tool's result, when the tool declares one. */
  outputSchema?: JsonSchema;
  /** Runs concurrently with neighbouring concurrency-safe calls of a batch. */
  concurrencySafe: boolean;
}

/**
 * What every runner-like object offers: the local {@link ToolRunner}, the page side of a worker's
 * runner and the shared workspace runner. Adapters take a `ToolHost`. The listing methods may answer
 * synchronously (a local runner) or with a promise (a remote one); await them.
 */
export interface ToolHost {
  /** The registered tools with annotations, in registration order. */
  tools(): ToolInfo[] | Promise<ToolInfo[]>;
  /** The model-facing declarations `{ name, description, parameters }`, in registration order. */
  declarations(): FunctionDeclaration[] | Promise<FunctionDeclaration[]>;
  /** Runs one call; resolves with the output or rejects with a `ToolError` (check `code`). */
  execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
  /**
   * Runs one model turn's calls in order (concurrency-safe neighbours together); a call's failure is its
   * result, never a rejection (bad `options`, the host's mistake, may reject with a TypeError).
   */
  processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]>;
}
