/**
 * toolhost/openai-agents: a ToolHost's tools as OpenAI Agents JS function tools, one
 * `processToolCalls` per model turn. `@openai/agents` is an optional peer dependency.
 */
import { tool, type FunctionTool, type RunContext } from '@openai/agents';
import type { ToolHost, ToolInfo } from '../../src/core/host.js';
import { matchesToolPattern } from '../../src/core/permissions.js';
import type { CallOptions } from '../../src/core/runner.js';
import type { JsonSchema } from '../../src/core/types.js';
import { TurnBatcher } from '../batch.js';

/** Options of {@link openAIAgentsTools}; all optional. */
export interface OpenAIAgentsToolsOptions {
  /** The conversation (tool state, file cache) of every call (default: the host's). */
  conversationId?: string;
  /** Deadline of each call in ms, as the host's `timeoutMs` (default: the host's). */
  timeoutMs?: number;
  /** Only these tools (names or `prefix*` patterns; default all). */
  include?: readonly string[];
  /**
   * Which calls need human approval (`needsApproval`, an interruption of the run): `'mutating'`
   * (every tool that is not read-only, as toolhost's permission rules ask), tool names / `prefix*`
   * patterns, or none (the default).
   */
  ask?: 'mutating' | readonly string[];
}

/**
 * The host's JSON Schema as the Agents SDK's non-strict object schema (the host validates, so the
 * schema stays as written; `additionalProperties` is as declared, else allowed, as in JSON Schema).
 */
/** The shape of the Agents SDK's non-strict JSON object schema (its `JsonObjectSchemaNonStrict`, not exported by name). */
export interface AgentsObjectSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: true;
  description?: string;
}

function agentsSchema(schema: JsonSchema): AgentsObjectSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [name, value] of Object.entries(schema.properties ?? {})) properties[name] = { ...value };
  return { ...schema, type: 'object', properties, required: [...(schema.required ?? [])], additionalProperties: true };
}

/** A function tool from {@link openAIAgentsTools}: parameters are the host's JSON Schema. */
export type ToolhostFunctionTool = FunctionTool<unknown, AgentsObjectSchema, unknown>;

/** Batch sizes of a tool list from {@link openAIAgentsTools} (newest last), for diagnostics. */
const batchers = new WeakMap<readonly ToolhostFunctionTool[], TurnBatcher>();

/** Sizes of the `processToolCalls` batches the tools from {@link openAIAgentsTools} ran, or undefined for another list. */
export function openAIAgentsBatchSizes(tools: readonly ToolhostFunctionTool[]): readonly number[] | undefined {
  return batchers.get(tools)?.batchSizes.slice();
}

/**
 * A host's tools as OpenAI Agents JS function tools (`new Agent({ tools })`).
 *
 * The Agents runner executes one turn's function calls concurrently, all started before its next
 * macrotask and in the model's order, so each `execute` only queues its call: the calls that arrive
 * together run as ONE `host.processToolCalls` batch in that order, with toolhost's rules (mutating
 * calls alone and in order, read-only neighbours together); batches run one after another. The
 * call's `callId` becomes the call `id`; the run's signal aborts the batch.
 *
 * Parameters are the host's JSON Schemas (non-strict, `strict: false`), validated by the host. A
 * failed call reaches the model as the tool's output text `code: message` (`errorFunction`).
 * `ask` maps the permission `ask` rule to `needsApproval`: the run stops with an interruption, and
 * `state.approve(item)` / `state.reject(item)` then `run(agent, state)` resumes it.
 */
export async function openAIAgentsTools(host: ToolHost, options: OpenAIAgentsToolsOptions = {}): Promise<ToolhostFunctionTool[]> {
  const infos: ToolInfo[] = await host.tools();
  const callOptions = (): CallOptions => {
    const out: CallOptions = {};
    if (options.conversationId !== undefined) out.conversationId = options.conversationId;
    if (options.timeoutMs !== undefined) out.timeoutMs = options.timeoutMs;
    return out;
  };
  const batcher = new TurnBatcher(host, callOptions);
  const ask = options.ask;
  const tools: ToolhostFunctionTool[] = [];
  for (const info of infos) {
    if (options.include && !options.include.some((pattern) => matchesToolPattern(pattern, info.name))) continue;
    const readOnly = info.annotations.readOnlyHint === true;
    const needsApproval = ask === undefined ? false : ask === 'mutating' ? !readOnly : ask.some((pattern) => matchesToolPattern(pattern, info.name));
    tools.push(
      tool({
        name: info.name,
        description: info.description,
        parameters: agentsSchema(info.parameters),
        strict: false,
        needsApproval,
        execute: async (input: unknown, _context?: RunContext<unknown>, details?) => {
          const id = details?.toolCall?.callId;
          const result = await batcher.run(id === undefined ? { name: info.name, args: input } : { id, name: info.name, args: input }, details?.signal);
          if ('code' in result) return `${result.code}: ${result.error}`;
          return typeof result.result === 'string' ? result.result : JSON.stringify(result.result ?? null);
        },
      }),
    );
  }
  batchers.set(tools, batcher);
  return tools;
}
