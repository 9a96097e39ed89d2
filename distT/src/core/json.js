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
export function findNonJson(value, path = '', seen = new Set()) {
    if (seen.size >= MAX_JSON_DEPTH)
        return `${path || 'value'}: nested deeper than ${MAX_JSON_DEPTH} levels`;
    switch (typeof value) {
        case 'string':
        case 'boolean':
            return null;
        case 'number':
            return Number.isFinite(value) ? null : `${path || 'value'}: ${String(value)} is not a JSON number`;
        case 'object': {
            if (value === null)
                return null;
            if (seen.has(value))
                return `${path || 'value'}: circular reference`;
            const proto = Object.getPrototypeOf(value);
            const isArray = Array.isArray(value);
            if (!isArray && proto !== Object.prototype && proto !== null) {
                const name = value.constructor?.name ?? 'object';
                return `${path || 'value'}: ${name} is not a plain JSON object`;
            }
            seen.add(value);
            if (isArray) {
                for (let i = 0; i < value.length; i += 1) {
                    const problem = findNonJson(value[i], `${path}[${i}]`, seen);
                    if (problem)
                        return problem;
                }
            }
            else {
                for (const key of Object.keys(value)) {
                    const item = value[key];
                    if (item === undefined)
                        continue;
                    const problem = findNonJson(item, `${path}.${key}`, seen);
                    if (problem)
                        return problem;
                }
            }
            seen.delete(value);
            return null;
        }
        default:
            return `${path || 'value'}: ${typeof value} is not JSON`;
    }
}
//# sourceMappingURL=json.js.map