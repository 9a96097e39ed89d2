import type { ToolHost } from '../src/core/host.js';
import type { CallOptions, ToolCall, ToolCallResult } from '../src/core/runner.js';
import { withDistinctIds, withId } from '../src/core/distinct-ids.js';

interface Pending {
  call: ToolCall;
  signal: AbortSignal | undefined;
  resolve: (result: ToolCallResult) => void;
}

/** Runs `fn` after the current macrotask: every microtask queued before it (and by it) runs first. */
export function afterThisTask(fn: () => void): void {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  if (typeof immediate === 'function') {
    immediate(fn);
    return;
  }
  if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      fn();
    };
    channel.port2.postMessage(null);
    return;
  }
  setTimeout(fn, 0);
}

/** One signal that aborts when any of `signals` does (undefined when there are none). */
function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length === 0) return undefined;
  const unique = [...new Set(present)];
  return unique.length === 1 ? unique[0] : AbortSignal.any(unique);
}

/**
 * Turns a framework's concurrent per-call `execute` invocations back into model turns: the calls
 * that arrive before the current macrotask ends (a framework starts one step's calls together, in
 * the model's order, through promise chains of equal length) become one `processToolCalls` batch, in
 * arrival order. Batches run one after another, so a later step never overtakes an earlier one.
 */
export class TurnBatcher {
  readonly #host: ToolHost;
  readonly #options: () => CallOptions;
  #pending: Pending[] = [];
  #scheduled = false;
  #previous: Promise<unknown> = Promise.resolve();
  /** Sizes of the batches run so far (newest last; at most 1,000 kept), for tests and diagnostics. */
  readonly batchSizes: number[] = [];

  constructor(host: ToolHost, options: () => CallOptions) {
    this.#host = host;
    this.#options = options;
  }

  /** Queues one call; resolves with its result once its batch ran. Never rejects. */
  run(call: ToolCall, signal: AbortSignal | undefined): Promise<ToolCallResult> {
    return new Promise((resolve) => {
      this.#pending.push({ call, signal, resolve });
      if (!this.#scheduled) {
        this.#scheduled = true;
        afterThisTask(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    this.batchSizes.push(batch.length);
    if (this.batchSizes.length > 1000) this.batchSizes.shift();
    const run = async (): Promise<void> => {
      const options: CallOptions = { ...this.#options() };
      const signal = anySignal(batch.map((entry) => entry.signal));
      if (signal) options.signal = signal;
      let results: ToolCallResult[];
      try {
        // A model that repeats a call id within its turn gets each call run, its answer under its own id.
        results = await this.#host.processToolCalls(
          withDistinctIds(batch.map((entry) => entry.call)),
          options,
        );
      } catch (error) {
        const message = `the tool host failed: ${error instanceof Error ? error.message : String(error)}`;
        results = batch.map((entry) => ({ name: entry.call.name, error: message, code: 'execution_failed' as const }));
      }
      batch.forEach((entry, i) => {
        const result = results[i];
        entry.resolve(result ? withId(result, entry.call.id) : { name: entry.call.name, error: 'the tool host returned no result for this call', code: 'execution_failed' });
      });
    };
    const next = this.#previous.then(run, run);
    this.#previous = next;
  }
}

/**
 * The model-visible reason a bridge gives for a call it held back because an earlier call of the same
 * step (`unit`: the framework's word for it) waits for the user's approval.
 */
export function heldBackReason(waiting: { toolName: string; toolCallId: string }, unit: 'step' | 'turn'): string {
  return (
    `not run: it comes after ${waiting.toolName} (call ${waiting.toolCallId}) in the same ${unit}, which waits for the user's approval, ` +
    `and the calls of a ${unit} take effect in the order they were given; call it again after ${waiting.toolName}'s result, to see its effect`
  );
}
