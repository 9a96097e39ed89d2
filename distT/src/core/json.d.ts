/** Deepest nesting accepted in tool outputs, state and messages. */
export declare const MAX_JSON_DEPTH = 1000;
/**
 * Finds why `value` is not plain JSON: returns null when it is, else a short path and reason
 * (`.a[2]: function`). An object property whose value is `undefined` is accepted (JSON drops it, as
 * optional fields in TypeScript are written); rejected are `undefined` array items and top-level
 * values, functions, symbols, bigints, non-finite numbers, cycles, nesting deeper than
 * {@link MAX_JSON_DEPTH}, and non-plain objects (Date, Map, class instances), all of which
 * `JSON.stringify` would drop or change silently.
 */
export declare function findNonJson(value: unknown, path?: string, seen?: Set<object>): string | null;
