// Call ids a model repeated within one turn: not the host's mistake, which is what the runner takes two
// calls of one id in a batch for (a TypeError), so the bridges and the agent loop send a repeat under
// an id of its own and give its answer the model's id back.
import type { ToolCall, ToolCallResult } from './runner.js';

/**
 * `calls` with each id once: a call whose id an earlier one of `calls` holds is sent as a copy under
 * `<id>#<n>` (the first n from 2 that is free); calls without an id, and the rest, as they are. The
 * answers are given the model's ids back with {@link withId}, by position.
 */
export function withDistinctIds(calls: readonly ToolCall[]): ToolCall[] {
  const seen = new Set<string>();
  return calls.map((call) => {
    if (call.id === undefined) return call;
    let id = call.id;
    for (let n = 2; seen.has(id); n += 1) id = `${call.id}#${n}`;
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

/** `result` under the model's own call id `id` (a copy when it differs; no id when `id` is undefined). */
export function withId(result: ToolCallResult, id: string | undefined): ToolCallResult {
  if (result.id === id) return result;
  const copy = { ...result };
  if (id === undefined) delete copy.id;
  else copy.id = id;
  return copy;
}
