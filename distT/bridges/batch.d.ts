import type { ToolHost } from '../src/core/host.js';
import type { CallOptions, ToolCall, ToolCallResult } from '../src/core/runner.js';
/** Runs `fn` after the current macrotask: every microtask queued before it (and by it) runs first. */
export declare function afterThisTask(fn: () => void): void;
/**
 * Turns a framework's concurrent per-call `execute` invocations back into model turns: the calls
 * that arrive before the current macrotask ends (a framework starts one step's calls together, in
 * the model's order, through promise chains of equal length) become one `processToolCalls` batch, in
 * arrival order. Batches run one after another, so a later step never overtakes an earlier one.
 */
export declare class TurnBatcher {
    #private;
    /** Sizes of the batches run so far (newest last; at most 1,000 kept), for tests and diagnostics. */
    readonly batchSizes: number[];
    constructor(host: ToolHost, options: () => CallOptions);
    /** Queues one call; resolves with its result once its batch ran. Never rejects. */
    run(call: ToolCall, signal: AbortSignal | undefined): Promise<ToolCallResult>;
}
/**
 * The model-visible reason a bridge gives for a call it held back because an earlier call of the same
 * step (`unit`: the framework's word for it) waits for the user's approval.
 */
export declare function heldBackReason(waiting: {
    toolName: string;
    toolCallId: string;
}, unit: 'step' | 'turn'): string;
