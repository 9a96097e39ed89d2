/** Cooperative cancellation for long loops: event-loop turns and the signal's reason as a ToolError. */
import { ToolError, toToolError } from '../core/errors.js';

/** Time between forced event-loop turns during long walks and scans, so a deadline timer can fire (ms). */
export const YIELD_INTERVAL_MS = 50;

/** Node's `setImmediate` where there is one (not part of the web platform). */
const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;

/**
 * Waits one macrotask: lets timers (the runner's deadline) and other calls run. On Node with
 * `setImmediate` (the event loop passes its timers phase before the next check phase, so due timers
 * fire), not `setTimeout(0)`, which Node holds for at least 1 ms; elsewhere `setTimeout(0)`.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}

/** Throws the signal's reason as a ToolError (`timeout` or `cancelled`) when it has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason: unknown = signal.reason;
  const error = toToolError(reason);
  if (error.code === 'execution_failed') throw new ToolError('cancelled', error.message);
  throw error;
}
