/**
 * A JSON value: what tool state holds and what tool outputs must be. An object property may be
 * `undefined`: it is an omitted optional field, and JSON drops it.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue | undefined };

/** A JSON Schema object (draft-07 / 2019-09 keywords as ajv accepts them). */
export interface JsonSchema {
  type?: string | readonly string[];
  properties?: { readonly [name: string]: JsonSchema };
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | readonly JsonSchema[];
  enum?: readonly unknown[];
  description?: string;
  default?: unknown;
  [keyword: string]: unknown;
}

/** Deepest nesting accepted in tool outputs, state and messages. */
export const MAX_JSON_DEPTH = 1000;

/**
 * Finds why `value` is not plain JSON: returns null when it is, else a short path and reason
 * (`.a[2]: function`). An object property whose value is `undefined` is accepted (JSON drops it, as
 * optional fields in TypeScript are written); rejected are `undefined` array items and top-level
 * values, functions, symbols, bigints, non-finite numbers, cycles, nesting deeper than
 * {@link MAX_JSON_DEPTH}, and non-plain objects (Date, Map, class instances), all of which
 * `JSON.stringify` would drop or change silently.
 */
export function findNonJson(value: unknown, path = '', seen: Set<object> = new Set()): string | null {
  if (seen.size >= MAX_JSON_DEPTH) return `${path || 'value'}: nested deeper than ${MAX_JSON_DEPTH} levels`;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${path || 'value'}: ${String(value)} is not a JSON number`;
    case 'object': {
      if (value === null) return null;
      if (seen.has(value)) return `${path || 'value'}: circular reference`;
      const proto = Object.getPrototypeOf(value) as unknown;
      const isArray = Array.isArray(value);
      if (!isArray && proto !== Object.prototype && proto !== null) {
        const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
        return `${path || 'value'}: ${name} is not a plain JSON object`;
      }
      seen.add(value);
      if (isArray) {
        for (let i = 0; i < value.length; i += 1) {
          const problem = findNonJson(value[i], `${path}[${i}]`, seen);
          if (problem) return problem;
        }
      } else {
        for (const key of Object.keys(value)) {
          const item = (value as Record<string, unknown>)[key];
          if (item === undefined) continue;
          const problem = findNonJson(item, `${path}.${key}`, seen);
          if (problem) return problem;
        }
      }
      seen.delete(value);
      return null;
    }
    default:
      return `${path || 'value'}: ${typeof value} is not JSON`;
  }
}
