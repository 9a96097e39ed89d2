import { expect } from 'vitest';

// A host's mistake (a bad option, a malformed policy) is a TypeError with no ToolError code: these
// take it from a call, failing the test on anything else.

/** The TypeError `fn` throws (fails the test when it throws something else or nothing). */
export function typeErrorOf(fn: () => unknown): TypeError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    expect((error as { code?: unknown }).code).toBeUndefined();
    return error as TypeError;
  }
  throw new Error('expected a TypeError, nothing was thrown');
}

/** The TypeError `promise` rejects with (fails the test when it resolves or rejects with something else). */
export async function rejectionOf(promise: Promise<unknown>): Promise<TypeError> {
  const error = await promise.then(
    () => new Error('expected a rejection, the call resolved'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TypeError);
  expect((error as { code?: unknown }).code).toBeUndefined();
  return error as TypeError;
}
