/**
 * toolhost/ai-sdk: a ToolHost's tools as a Vercel AI SDK `ToolSet` (one `processToolCalls` per model
 * step), and an AI SDK tool as a toolhost tool. The `ai` package is an optional peer dependency.
 */
import type { JSONSchema7, ModelMessage, Tool as AiTool, ToolApprovalStatus, ToolSet } from 'ai';
import { peerLoader } from '../peer.js';
import { ToolError } from '../../src/core/errors.js';
import type { ToolHost } from '../../src/core/host.js';
import { matchesToolPattern } from '../../src/core/permissions.js';
import type { CallOptions, ToolCallResult } from '../../src/core/runner.js';
import type { ExecuteTool, Tool, ToolContext } from '../../src/core/tool.js';
import type { JsonSchema, JsonValue } from '../../src/core/types.js';
import { heldBackReason } from '../batch.js';
import { checkOptions, describeValue, is, toolPatternsRule, type OptionRules } from '../../src/core/options.js';
import { isThenable } from '../../src/core/thenable.js';
import { openBridge, rememberBatcher, type BridgeOptions } from '../shared.js';
import type { AiSdkApprovalEvent, ToolhostToolMetadata } from './types.js';

/**
 * The AI SDK, loaded on the first call that needs it, so importing this entry never fails: without the
 * package, that call rejects with an Error saying to run `npm install ai@7`.
 */
const loadAi = peerLoader({ entry: 'toolhost/ai-sdk', name: 'ai', what: 'the Vercel AI SDK', version: '7' }, () => import('ai'));

/** The checks of {@link FromAiSdkToolOptions}. */
const FROM_AI_SDK_RULES: OptionRules = { name: is.required(is.nonEmptyString), readOnly: is.boolean, description: is.string };

/** Options of {@link aiSdkTools}; all optional. */
export type AiSdkToolsOptions = BridgeOptions;

/**
 * Thrown into the AI SDK for a failed call: the model sees `code: message` as the tool's error. The
 * SDK turns a thrown error into the model's text with `error.toString()`, which for an `Error` is
 * `name: message` (`ToolError: not_found: ...`), so the error's own `toString` gives the message alone.
 */
function failure(result: Extract<ToolCallResult, { code: string }>): ToolError {
  const error = new ToolError(result.code, `${result.code}: ${result.error}`);
  Object.defineProperty(error, 'toString', { value: () => error.message, enumerable: false, writable: true, configurable: true });
  return error;
}

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp)$/;

type ModelOutput = Awaited<ReturnType<NonNullable<AiTool['toModelOutput']>>>;

/** `view_file`'s inline image as an image part for the model; every other output as JSON. */
function toModelOutput(output: unknown): ModelOutput {
  if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
    const record = output as Record<string, unknown>;
    const data = record['data_base64'];
    const mime = record['mime_type'];
    if (typeof data === 'string' && typeof mime === 'string' && IMAGE_MIME.test(mime)) {
      const { data_base64: _data, ...rest } = record;
      return {
        type: 'content',
        value: [
          { type: 'text', text: JSON.stringify(rest) },
          { type: 'file', data: { type: 'data', data }, mediaType: mime },
        ],
      };
    }
  }
  return { type: 'json', value: (output ?? null) as JsonValue };
}

/**
 * A host's tools as an AI SDK `ToolSet` for `generateText`, `streamText` and the AI SDK's agents.
 *
 * The AI SDK starts one step's tool calls together (concurrently, in the model's order, all before
 * its next macrotask), so each `execute` only queues its call: the calls that arrive together run as
 * ONE `host.processToolCalls` batch in arrival order — the model's order — with toolhost's rules
 * (mutating calls alone and in order, neighbouring read-only calls together), and batches run one
 * after another. `toolCallId` becomes the call's `id`; the calls' `abortSignal`s abort the batch.
 * `toolCallConcurrency: 1` in the AI SDK gives one call per batch, still in order.
 *
 * A failed call throws a `ToolError` whose message is `code: message`, which the AI SDK hands the
 * model as the tool's error. `view_file`'s inline images reach the model as image parts
 * (`toModelOutput`). Input schemas are the host's JSON Schemas (`jsonSchema`), validated by the host.
 * For the permission `ask` rule, pass {@link aiSdkToolApproval} as `toolApproval`.
 * A `host` that is not a ToolHost or a bad option (the host's mistakes) rejects with a TypeError naming
 * it: `aiSdkTools: host must be a ToolHost such as new ToolRunner({ tools }), not null`.
 */
export async function aiSdkTools(host: ToolHost, options: AiSdkToolsOptions = {}): Promise<ToolSet> {
  const { infos, batcher } = await openBridge('aiSdkTools', host, options);
  const { tool: aiTool, jsonSchema } = await loadAi();
  const tools: ToolSet = {};
  for (const info of infos) {
    const metadata: ToolhostToolMetadata = { readOnly: info.annotations.readOnlyHint === true, concurrencySafe: info.concurrencySafe };
    tools[info.name] = aiTool({
      description: info.description,
      inputSchema: jsonSchema<Record<string, unknown>>(info.parameters as JSONSchema7),
      metadata: { toolhost: { ...metadata } },
      execute: async (input, { toolCallId, abortSignal }) => {
        const result = await batcher.run({ id: toolCallId, name: info.name, args: input }, abortSignal);
        if ('code' in result) throw failure(result);
        return (result.result ?? null) as JsonValue;
      },
      toModelOutput: ({ output }) => toModelOutput(output),
    });
  }
  rememberBatcher(tools, batcher);
  return tools;
}

/** Which calls need the user's approval in {@link aiSdkToolApproval}. */
export interface AiSdkApprovalOptions {
  /**
   * `'mutating'` (the default, as toolhost's permission rules ask for a tool that is not read-only):
   * every tool of the set whose `readOnly` is false; or tool names / `prefix*` patterns.
   */
  ask?: 'mutating' | readonly string[];
  /** Tools (names or patterns) never run: answered `denied` without asking. */
  deny?: readonly string[];
}

/** The checks of {@link AiSdkApprovalOptions}. */
const APPROVAL_RULES: OptionRules = {
  ask: is.anyOf("'mutating' or an array of tool-name patterns (strings such as \"view_*\")", is.oneOf('mutating'), toolPatternsRule),
  deny: toolPatternsRule,
};

/** What `tools` of {@link aiSdkToolApproval} must be, as its TypeErrors say it. */
const TOOL_SET = 'a ToolSet (an object of AI SDK tools by name, as aiSdkTools(host) resolves to)';

/**
 * A TypeError (the host's mistake) unless `tools` is a ToolSet: a plain object whose every value is an
 * AI SDK tool. A promise (aiSdkTools not awaited), a ToolHost, a Map, an array or anything else would
 * otherwise count every tool as mutating and ask about each call, or fail later inside the SDK.
 */
function checkToolSet(tools: unknown): void {
  const where = 'aiSdkToolApproval';
  if (isThenable(tools)) {
    throw new TypeError(`${where}: tools is a promise (or another thenable), not a ToolSet: await it first (aiSdkToolApproval(await aiSdkTools(host)))`);
  }
  const proto = typeof tools === 'object' && tools !== null ? (Object.getPrototypeOf(tools) as unknown) : undefined;
  if (proto !== Object.prototype && proto !== null) {
    if (typeof (tools as { processToolCalls?: unknown } | null)?.processToolCalls === 'function') {
      throw new TypeError(`${where}: tools must be ${TOOL_SET}, not the ToolHost itself; pass its tools: aiSdkToolApproval(await aiSdkTools(host))`);
    }
    throw new TypeError(`${where}: tools must be ${TOOL_SET}, not ${describeValue(tools)}${tools instanceof Map ? '; pass Object.fromEntries(map)' : ''}`);
  }
  for (const [name, tool] of Object.entries(tools as object)) {
    if (typeof tool !== 'object' || tool === null) {
      throw new TypeError(`${where}: tools.${name} must be an AI SDK tool (tool({ description, inputSchema, execute })), not ${describeValue(tool)}`);
    }
  }
}

function toolhostMetadata(tool: ToolSet[string] | undefined): ToolhostToolMetadata | undefined {
  const entry = (tool?.metadata as { toolhost?: ToolhostToolMetadata } | undefined)?.toolhost;
  return entry;
}

/** The call of a step that waits for the user's approval, and the calls of that step seen so far. */
interface StepApprovals {
  seen: Set<string>;
  waiting?: { toolName: string; toolCallId: string };
}

/** True when `messages` already hold the call: the SDK is re-checking an approved call from history, not asking about a new one. */
function inHistory(messages: readonly ModelMessage[], toolCallId: string): boolean {
  return messages.some(
    (message) => message.role === 'assistant' && typeof message.content !== 'string' && message.content.some((part) => part.type === 'tool-call' && part.toolCallId === toolCallId),
  );
}

/**
 * The permission `ask` rule as the AI SDK's tool approval: pass the result as `toolApproval` of
 * `generateText` / `streamText`. A call that needs approval ends the step with a
 * `tool-approval-request`; answer it with a `tool-approval-response` message and call again, and the
 * approved call runs (denied ones reach the model as denied). Works on any ToolSet; `'mutating'`
 * reads the `readOnly` that {@link aiSdkTools} records in each tool's metadata (a tool without it
 * counts as mutating).
 *
 * A step's calls take effect in the model's order. The AI SDK runs the calls of a step that need no
 * approval at once and the approved ones only on the next `generateText`, so a call that comes after
 * one waiting for approval would run first and, say, view a file before the edit the model made just
 * before it. So every later call of that step is held back: it is not run, and reaches the model as
 * `execution-denied` with the reason "not run: it comes after edit_file (call e1) in the same step,
 * which waits for the user's approval, and the calls of a step take effect in the order they were
 * given; call it again after edit_file's result, to see its effect" (the SDK's automatic denial, a
 * `tool-approval-request` with `isAutomatic: true`, so the user is not asked). Later calls that need
 * approval themselves are asked as usual; the approved calls of a step run together in the model's
 * order. Calls before the first waiting one run at once, and calls denied by `deny` hold nothing back.
 *
 * A `tools` that is not a ToolSet (a promise of one: `aiSdkTools` not awaited; a ToolHost; a Map; an
 * entry that is not a tool) or a bad option is the host's mistake: a TypeError naming it
 * (`aiSdkToolApproval: tools must be a ToolSet (...), not a Set (3 items)`).
 */
export function aiSdkToolApproval(tools: ToolSet, options: AiSdkApprovalOptions = {}): (event: AiSdkApprovalEvent) => ToolApprovalStatus {
  checkToolSet(tools);
  checkOptions('aiSdkToolApproval', options, APPROVAL_RULES);
  const ask = options.ask ?? 'mutating';
  // One entry per step, keyed by the step's messages array (the SDK asks about a step's calls in the
  // model's order, each with that step's array).
  const steps = new WeakMap<readonly ModelMessage[], StepApprovals>();
  return ({ toolCall, messages }) => {
    const name = toolCall.toolName;
    if (options.deny?.some((pattern) => matchesToolPattern(pattern, name))) {
      return { type: 'denied', reason: `${name} is denied by the permission rules` };
    }
    const needs = ask === 'mutating' ? toolhostMetadata(tools[name])?.readOnly !== true : ask.some((pattern) => matchesToolPattern(pattern, name));
    if (inHistory(messages, toolCall.toolCallId)) return needs ? 'user-approval' : 'not-applicable';
    let step = steps.get(messages);
    if (step === undefined || step.seen.has(toolCall.toolCallId)) {
      // A new step, or a streamed step the SDK retries from its start.
      step = { seen: new Set() };
      steps.set(messages, step);
    }
    step.seen.add(toolCall.toolCallId);
    if (needs) {
      step.waiting ??= { toolName: name, toolCallId: toolCall.toolCallId };
      return 'user-approval';
    }
    if (step.waiting) return { type: 'denied', reason: heldBackReason(step.waiting, 'step') };
    return 'not-applicable';
  };
}

/** Options of {@link fromAiSdkTool}. */
export interface FromAiSdkToolOptions {
  /** The toolhost name (the AI SDK keeps names as ToolSet keys). */
  name: string;
  /** The tool changes nothing (default false): permissions and plan mode read it. */
  readOnly?: boolean;
  /** Description when the AI SDK tool has none, or a function one. */
  description?: string;
}

/**
 * An AI SDK tool (`tool({ description, inputSchema, execute })`, zod or `jsonSchema` input) as a
 * toolhost {@link ExecuteTool}, so it runs inside a `ToolRunner` — in a browser worker too — with toolhost's
 * permissions, timeouts and batching. Its input schema's JSON Schema becomes `inputSchema`; the
 * schema's own validation (zod) runs before `execute` and its failure is `invalid_arguments`.
 * `execute` receives `{ toolCallId, messages: [], abortSignal, context: {} }`; a throw is
 * `execution_failed` with its message. Rejects with a TypeError (the host's mistake) for a tool without
 * `execute` or a bad option.
 */
export async function fromAiSdkTool(tool: AiTool, options: FromAiSdkToolOptions): Promise<ExecuteTool> {
  checkOptions('fromAiSdkTool', options, FROM_AI_SDK_RULES);
  if (options === undefined) throw new TypeError('fromAiSdkTool: options must be an object with name (the toolhost name of the tool), not undefined');
  if (typeof tool !== 'object' || tool === null) {
    throw new TypeError(`fromAiSdkTool: tool must be an AI SDK tool (tool({ description, inputSchema, execute })), not ${describeValue(tool)}`);
  }
  const execute = tool.execute;
  if (typeof execute !== 'function') {
    throw new TypeError(`fromAiSdkTool: the AI SDK tool ${options.name} has no execute function (it runs on the client), so toolhost cannot run it; give a tool with execute`);
  }
  const { asSchema } = await loadAi();
  const schema = asSchema(tool.inputSchema);
  const inputSchema = (await schema.jsonSchema) as JsonSchema;
  const description = typeof tool.description === 'string' ? tool.description : (options.description ?? options.name);
  return {
    name: options.name,
    description,
    inputSchema,
    annotations: { readOnlyHint: options.readOnly ?? false },
    async execute(args: unknown, ctx: ToolContext): Promise<unknown> {
      let input: unknown = args;
      if (schema.validate) {
        const checked = await schema.validate(args);
        if (!checked.success) {
          throw new ToolError('invalid_arguments', `invalid arguments for ${options.name}: ${checked.error.message}`);
        }
        input = checked.value;
      }
      const output: unknown = execute(input as never, { toolCallId: ctx.callId, messages: [], abortSignal: ctx.signal, context: {} as never });
      if (typeof output === 'object' && output !== null && Symbol.asyncIterator in output) {
        let last: unknown;
        for await (const part of output as AsyncIterable<unknown>) last = part;
        return last;
      }
      return await output;
    },
  };
}
