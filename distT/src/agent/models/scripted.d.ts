import { type Model, type ModelRequest } from './types.js';
/**
 * One scripted model turn: text and/or tool calls. A call's `args` may be a string, which is parsed as
 * the JSON a chat completions model sends (bad JSON then becomes an `invalid_arguments` result, as from a
 * real model). Ids default to `call_<turn>_<index>`.
 */
export interface ScriptedTurn {
    text?: string;
    toolCalls?: {
        id?: string;
        name: string;
        args?: unknown;
    }[];
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
export declare function scriptedModel(turns: readonly ScriptedStep[], options?: {
    model?: string;
}): ScriptedModel;
