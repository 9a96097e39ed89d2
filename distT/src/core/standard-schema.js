/** True for a Standard Schema v1 value (an object or, as arktype's types are, a function, with `~standard.validate`). */
export function isStandardSchema(value) {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null)
        return false;
    const props = value['~standard'];
    return typeof props === 'object' && props !== null && typeof props.validate === 'function';
}
/**
 * The JSON Schema a model is shown for a Standard Schema: the library's own Standard JSON Schema
 * conversion (`~standard.jsonSchema.input`, draft-07: what model APIs read; zod 4 has it, valibot's
 * `toStandardJsonSchema(schema)` adds it), else `explicit` (the tool's `jsonSchema`, e.g. valibot's
 * `toJsonSchema(schema)`). The `$schema` keyword is dropped (model APIs do not want it). For zod, every
 * object that says nothing about extra keys gets `additionalProperties: false` (a `z.object` strips
 * them, so the model is told they are not accepted); a `z.looseObject` keeps `additionalProperties: {}`.
 * Throws a TypeError naming the tool when neither is available or the conversion fails.
 */
export function jsonSchemaOfStandard(toolName, schema, explicit, io = 'input') {
    const props = schema['~standard'];
    let derived = explicit;
    if (derived === undefined) {
        const converter = props.jsonSchema;
        if (!converter || typeof converter[io] !== 'function') {
            throw new TypeError(`tool ${toolName}: its ${props.vendor} schema cannot describe itself as JSON Schema (no ~standard.jsonSchema); ` +
                `pass the JSON Schema as jsonSchema (valibot: toJsonSchema(schema) from @valibot/to-json-schema, or wrap the schema in its toStandardJsonSchema)`);
        }
        try {
            derived = converter[io]({ target: 'draft-07' });
        }
        catch (error) {
            throw new TypeError(`tool ${toolName}: its ${props.vendor} schema cannot be converted to JSON Schema (${error instanceof Error ? error.message : String(error)})`);
        }
    }
    if (typeof derived !== 'object' || derived === null || Array.isArray(derived)) {
        throw new TypeError(`tool ${toolName}: the JSON Schema of its ${props.vendor} schema is not an object`);
    }
    const { $schema: _dropped, ...rest } = derived;
    return props.vendor === 'zod' && explicit === undefined ? closeObjects(rest) : rest;
}
/** A copy of `schema` where every object schema without `additionalProperties` gets `false`. */
function closeObjects(schema) {
    const visit = (node) => {
        if (Array.isArray(node))
            return node.map(visit);
        if (typeof node !== 'object' || node === null)
            return node;
        const out = {};
        for (const [key, value] of Object.entries(node)) {
            // `properties` / `$defs` / `definitions` map names to schemas: visit the schemas, not the map.
            out[key] =
                (key === 'properties' || key === '$defs' || key === 'definitions' || key === 'patternProperties') && typeof value === 'object' && value !== null
                    ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, visit(sub)]))
                    : key === 'enum' || key === 'const' || key === 'default' || key === 'examples'
                        ? value
                        : visit(value);
        }
        if (out.type === 'object' && out.properties !== undefined && out.additionalProperties === undefined)
            out.additionalProperties = false;
        return out;
    };
    return visit(schema);
}
/** `/a/0/b` for an issue path (JSON Pointer, as ajv names fields), `arguments` for the root. */
function issuePointer(path) {
    if (!path || path.length === 0)
        return 'arguments';
    return path
        .map((segment) => {
        const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
        return `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
    })
        .join('');
}
/**
 * One sentence from a Standard Schema's issues, each as `<pointer>: <the library's message>`
 * (`/city: Too small: expected string to have >=2 characters`); at most 5, then `and N more`.
 */
export function formatStandardIssues(issues) {
    const parts = [...new Set(issues.map((issue) => `${issuePointer(issue.path)}: ${issue.message}`))];
    const shown = parts.slice(0, 5);
    if (parts.length > 5)
        shown.push(`and ${parts.length - 5} more`);
    return shown.length > 0 ? shown.join('; ') : 'arguments do not match the schema';
}
//# sourceMappingURL=standard-schema.js.map