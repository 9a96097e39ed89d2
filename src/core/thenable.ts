// Telling a promise-like value from a plain one, for hooks that may answer either way.

/** Whether `value` has a callable `then`: a promise, or anything `await` would wait for. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
