import { parseArguments } from './common.js';
import { ModelError, type Model, type ModelRequest, type ModelToolCall } from './types.js';

/**
 * One scripted model turn: text and/or tool calls. A call's `args` may be a string, which is parsed as
 * the JSON a chat completions model sends (bad JSON then becomes an `invalid_arguments` result, as from a
 * real model). Ids default to `call_<turn>_<index>`.
 */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: { id?: string; name: string; args?: unknown }[];
}

/** What a scripted turn function sees: the request and the 0-based turn number. */
export interface ScriptedContext extends ModelRequest {
  turn: number;
}

/** A turn, or a function of the conversation so far that returns one (async allowed). */
export type ScriptedStep = ScriptedTurn | ((context: ScriptedContext) => ScriptedTurn | Promise<ScriptedTurn>);

/** A {@link Model} that plays back a script, keeping every request it received in `requests`. */
export interface ScriptedModel extends Model {
  /** Every request, in order (copies of `messages` and `tools` as they were then). */
  readonly requests: ModelRequest[];
}

/**
 * A {@link Model} for tests and demos: each `generate` plays the next step of `turns`. Rejects with
 * `cancelled` when the request's signal has fired, and with `script_exhausted` when the script has no
 * step left (so a test that expects a run to end sooner fails loudly).
 */
export function scriptedModel(turns: readonly ScriptedStep[], options: { model?: string } = {}): ScriptedModel {
  const requests: ModelRequest[] = [];
  let next = 0;
  return {
    provider: 'scripted',
    model: options.model ?? 'scripted',
    requests,
    async generate(request) {
      if (request.signal?.aborted) throw new ModelError('cancelled', 'scripted model request was cancelled', { provider: 'scripted' });
      const snapshot: ModelRequest = { messages: structuredClone([...request.messages]), tools: [...request.tools] };
      if (request.system !== undefined) snapshot.system = request.system;
      requests.push(snapshot);
      const turn = next;
      const step = turns[turn];
      if (step === undefined) {
        throw new ModelError('script_exhausted', `scripted model has ${turns.length} turns and was asked for turn ${turn + 1}`, { provider: 'scripted' });
      }
      next += 1;
      const played = typeof step === 'function' ? await step({ ...request, turn }) : step;
      if (request.signal?.aborted) throw new ModelError('cancelled', 'scripted model request was cancelled', { provider: 'scripted' });
      const toolCalls: ModelToolCall[] = (played.toolCalls ?? []).map((call, index) => {
        const out: ModelToolCall = { id: call.id ?? `call_${turn + 1}_${index + 1}`, name: call.name, args: {} };
        if (typeof call.args === 'string') {
          const parsed = parseArguments(call.args);
          out.args = parsed.args;
          if (parsed.error !== undefined) {
            out.argumentsError = parsed.error;
            out.rawArguments = call.args;
          }
        } else out.args = call.args ?? {};
        return out;
      });
      return played.text !== undefined ? { text: played.text, toolCalls } : { toolCalls };
    },
  };
}
