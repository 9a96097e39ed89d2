/**
 * toolhost/openai-agents: a ToolHost's tools as OpenAI Agents JS function tools, one
 * `processToolCalls` per model turn. `@openai/agents` is an optional peer dependency.
 */
import type { FunctionTool, RunContext } from '@openai/agents';
import { peerLoader } from '../peer.js';
import type { ToolHost } from '../../src/core/host.js';
import { matchesToolPattern } from '../../src/core/permissions.js';
import type { JsonSchema } from '../../src/core/types.js';
import { afterThisTask, heldBackReason } from '../batch.js';
import { is, toolPatternsRule, type OptionRules } from '../../src/core/options.js';
import { BRIDGE_OPTION_RULES, openBridge, rememberBatcher, type BridgeOptions } from '../shared.js';
import type { AgentsObjectSchema } from './types.js';

/**
 * OpenAI Agents JS, loaded on the first call that needs it, so importing this entry never fails:
 * without the package, that call rejects with an Error saying to run `npm install @openai/agents@0.20`.
 */
const loadAgents = peerLoader({ entry: 'toolhost/openai-agents', name: '@openai/agents', what: 'OpenAI Agents JS', version: '0.20' }, () => import('@openai/agents'));

/** The checks of {@link OpenAIAgentsToolsOptions}. */
const AGENTS_OPTION_RULES: OptionRules = {
  ...BRIDGE_OPTION_RULES,
  ask: is.anyOf("'mutating' or an array of tool-name patterns", is.oneOf('mutating'), toolPatternsRule),
};

/** Options of {@link openAIAgentsTools}; all optional. */
export interface OpenAIAgentsToolsOptions extends BridgeOptions {
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
function agentsSchema(schema: JsonSchema): AgentsObjectSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [name, value] of Object.entries(schema.properties ?? {})) properties[name] = { ...value };
  return { ...schema, type: 'object', properties, required: [...(schema.required ?? [])], additionalProperties: true };
}

/** A function tool from {@link openAIAgentsTools}: parameters are the host's JSON Schema. */
type ToolhostFunctionTool = FunctionTool<unknown, AgentsObjectSchema, unknown>;

/** The calls of one turn the Agents runner asked `needsApproval` about (in the model's order), and the first that waits for the user. */
interface TurnApprovals {
  order: string[];
  waiting?: { toolName: string; toolCallId: string };
}

/**
 * The approval questions of the current turn. The Agents runner starts a turn's calls together, in
 * the model's order, and asks each its `needsApproval` before running it, all before its next
 * macrotask; so what was asked in this macrotask is this turn's.
 */
class TurnApprovalLog {
  #turn: TurnApprovals | undefined;

  current(): TurnApprovals {
    if (this.#turn === undefined) {
      const turn: TurnApprovals = { order: [] };
      this.#turn = turn;
      afterThisTask(() => {
        if (this.#turn === turn) this.#turn = undefined;
      });
    }
    return this.#turn;
  }

  /** The call `callId` has to wait for: an earlier call of its turn that waits for approval. */
  heldBehind(callId: string): { toolName: string; toolCallId: string } | undefined {
    const turn = this.#turn;
    const waiting = turn?.waiting;
    if (turn === undefined || waiting === undefined || waiting.toolCallId === callId) return undefined;
    const at = turn.order.indexOf(callId);
    return at > turn.order.indexOf(waiting.toolCallId) ? waiting : undefined;
  }
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
 * failed call reaches the model as the tool's output text `code: message`; arguments that are not
 * JSON are answered by the Agents SDK itself, before toolhost sees the call, with its fixed text
 * "An error occurred while parsing tool arguments. Please try again with valid JSON.".
 * `ask` maps the permission `ask` rule to `needsApproval`: the run stops with an interruption, and
 * `state.approve(item)` / `state.reject(item)` then `run(agent, state)` resumes it.
 *
 * A turn's calls take effect in the model's order. The Agents runner runs the calls of a turn that
 * need no approval at once and the approved ones only when the run resumes, so with `ask` the calls
 * that come after the first one waiting for approval in a turn are held back: they are not run, and
 * their output is "not run: it comes after edit_file (call e1) in the same turn, which waits for the
 * user's approval, and the calls of a turn take effect in the order they were given; call it again
 * after edit_file's result, to see its effect". Later calls that need approval are interrupted as
 * usual, and the approved calls of a turn run as one batch in the model's order. To know the turn's
 * order every tool's `needsApproval` is then a function, so the SDK, which cannot run such a policy on
 * arguments that are not a JSON object, asks the user about those calls too before answering them
 * with its parse-error text.
 *
 * A `host` that is not a ToolHost or a bad option (the host's mistakes) rejects with a TypeError naming
 * it: `openAIAgentsTools: host must be a ToolHost such as new ToolRunner({ tools }), not null`.
 */
export async function openAIAgentsTools(host: ToolHost, options: OpenAIAgentsToolsOptions = {}): Promise<ToolhostFunctionTool[]> {
  const { infos, batcher } = await openBridge('openAIAgentsTools', host, options, AGENTS_OPTION_RULES);
  const { tool } = await loadAgents();
  const approvals = new TurnApprovalLog();
  const ask = options.ask;
  const tools: ToolhostFunctionTool[] = [];
  for (const info of infos) {
    const readOnly = info.annotations.readOnlyHint === true;
    const needsApproval = ask === undefined ? false : ask === 'mutating' ? !readOnly : ask.some((pattern) => matchesToolPattern(pattern, info.name));
    tools.push(
      tool({
        name: info.name,
        description: info.description,
        parameters: agentsSchema(info.parameters),
        strict: false,
        // With `ask`, every tool asks, so that the log has the turn's order.
        needsApproval:
          ask === undefined
            ? false
            : async (runContext: RunContext<unknown>, _input: unknown, callId?: string): Promise<boolean> => {
                if (callId === undefined) return needsApproval;
                const turn = approvals.current();
                turn.order.push(callId);
                // A call already approved or rejected (a resumed run) waits for nothing.
                if (needsApproval && runContext.isToolApproved({ toolName: info.name, callId }) === undefined) {
                  turn.waiting ??= { toolName: info.name, toolCallId: callId };
                }
                return needsApproval;
              },
        execute: async (input: unknown, _context?: RunContext<unknown>, details?) => {
          const id = details?.toolCall?.callId;
          const behind = id === undefined ? undefined : approvals.heldBehind(id);
          if (behind) return heldBackReason(behind, 'turn');
          const result = await batcher.run(id === undefined ? { name: info.name, args: input } : { id, name: info.name, args: input }, details?.signal);
          if ('code' in result) return `${result.code}: ${result.error}`;
          return typeof result.result === 'string' ? result.result : JSON.stringify(result.result ?? null);
        },
      }),
    );
  }
  rememberBatcher(tools, batcher);
  return tools;
}
