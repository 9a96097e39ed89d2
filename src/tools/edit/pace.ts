import { ToolError } from '../../core/errors.js';

/** Longest stretch (ms) edit_file's work over a large text holds the thread before it lets others run. */
export const PACE_SLICE_MS = 10;

/**
 * Paces a long loop: `due()` (cheap; call it every few thousand steps) says whether the current slice
 * has run {@link PACE_SLICE_MS}, and `pause()` then yields to the event loop (a macrotask, so timers
 * and I/O run) and starts the next slice, throwing once `signal` has aborted (its reason, else
 * `cancelled`), since the call has been answered then. A text of 30 MiB is walked in slices of a few
 * milliseconds instead of one stretch of hundreds.
 */
export interface Pace {
  due(): boolean;
  pause(): Promise<void>;
}

/** A {@link Pace} checking `signal` (none: never aborts). */
export function createPace(signal?: AbortSignal): Pace {
  let sliceStart = performance.now();
  return {
    due: () => performance.now() - sliceStart >= PACE_SLICE_MS,
    async pause() {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (signal?.aborted) throw signal.reason ?? new ToolError('cancelled', 'the edit was cancelled; nothing was written');
      sliceStart = performance.now();
    },
  };
}

/** A {@link Pace} that never pauses, for small texts and the synchronous callers. */
export const NO_PACE: Pace = { due: () => false, pause: async () => undefined };
