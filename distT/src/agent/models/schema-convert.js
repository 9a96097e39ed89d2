const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
const GEMINI_FORMATS = {
    string: ['enum', 'date-time'],
    integer: ['int32', 'int64'],
    number: ['float', 'double'],
};
const COPIED = ['title', 'description', 'pattern'];
const NUMERIC = ['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'minimum', 'maximum'];
const HANDLED = new Set([
    'type', 'format', 'enum', 'const', 'items', 'properties', 'required', 'anyOf', 'oneOf', 'nullable', 'propertyOrdering',
    ...COPIED, ...NUMERIC,
]);
/**
 * Converts a JSON Schema to the subset Gemini accepts ({@link GeminiSchema}) and lists every change:
 * `additionalProperties`, `$schema`, `default`, `examples` and any other keyword outside the subset are
 * dropped; `const` becomes a one-value `enum` (strings only; other consts are dropped); non-string enum
 * values are dropped; a `type` array becomes `nullable: true` plus its one other type, or its first type
 * when there are several (the rest dropped); `oneOf` becomes `anyOf`; unsupported `format`s are dropped;
 * `required` names that are not properties are dropped. Never throws; the input is not changed.
 */
export function toGeminiSchema(schema, tool = '') {
    const notes = [];
    const out = convert(schema, '', tool, notes);
    return { schema: out, notes };
}
function convert(input, path, tool, notes) {
    const note = (keyword, action, detail) => {
        notes.push({ tool, path, keyword, action, detail });
    };
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        note('(schema)', 'dropped', `a ${input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input} schema is not an object; left unconstrained`);
        return {};
    }
    const s = input;
    const out = {};
    // type: a single name, or an array (JSON Schema union) folded into nullable + one type.
    let type;
    if (typeof s.type === 'string') {
        if (GEMINI_TYPES.has(s.type))
            type = s.type;
        else
            note('type', 'dropped', `unknown type "${s.type}"`);
    }
    else if (Array.isArray(s.type)) {
        const names = s.type.filter((t) => typeof t === 'string' && GEMINI_TYPES.has(t));
        const others = names.filter((t) => t !== 'null');
        if (names.includes('null') && others.length > 0)
            out.nullable = true;
        type = others[0] ?? (names.includes('null') ? 'null' : undefined);
        if (others.length > 1) {
            note('type', 'converted', `union [${names.join(', ')}] became "${type}"${out.nullable ? ' (nullable)' : ''}; ${others.slice(1).join(', ')} dropped`);
        }
        else if (out.nullable) {
            note('type', 'converted', `union [${names.join(', ')}] became "${type}" with nullable: true`);
        }
    }
    else if (s.type !== undefined) {
        note('type', 'dropped', 'type is neither a string nor an array');
    }
    if (type)
        out.type = type;
    if (s.nullable === true)
        out.nullable = true;
    for (const key of COPIED)
        if (typeof s[key] === 'string')
            out[key] = s[key];
    for (const key of NUMERIC)
        if (typeof s[key] === 'number' && Number.isFinite(s[key]))
            out[key] = s[key];
    if (typeof s.format === 'string') {
        if (type && GEMINI_FORMATS[type]?.includes(s.format))
            out.format = s.format;
        else
            note('format', 'dropped', `format "${s.format}" is not one Gemini accepts for ${type ?? 'an untyped value'}`);
    }
    const enumValues = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : undefined;
    const enumKeyword = Array.isArray(s.enum) ? 'enum' : 'const';
    if (enumValues) {
        const strings = enumValues.filter((v) => typeof v === 'string');
        if (strings.length === enumValues.length && strings.length > 0) {
            out.enum = strings;
            if (enumKeyword === 'const')
                note('const', 'converted', `const ${JSON.stringify(s.const)} became enum [${JSON.stringify(s.const)}]`);
        }
        else {
            note(enumKeyword, 'dropped', `Gemini enums hold strings only; ${JSON.stringify(enumKeyword === 'const' ? s.const : s.enum)} dropped`);
        }
    }
    if (s.items !== undefined) {
        if (Array.isArray(s.items)) {
            note('items', 'converted', 'tuple items became the first item schema');
            if (s.items.length > 0)
                out.items = convert(s.items[0], `${path}/items/0`, tool, notes);
        }
        else {
            out.items = convert(s.items, `${path}/items`, tool, notes);
        }
    }
    if (typeof s.properties === 'object' && s.properties !== null && !Array.isArray(s.properties)) {
        const props = {};
        for (const [name, child] of Object.entries(s.properties)) {
            props[name] = convert(child, `${path}/properties/${escapePointer(name)}`, tool, notes);
        }
        out.properties = props;
    }
    if (Array.isArray(s.required)) {
        const known = out.properties ?? {};
        const kept = s.required.filter((r) => typeof r === 'string' && Object.hasOwn(known, r));
        const lost = s.required.filter((r) => !kept.includes(r));
        if (lost.length > 0)
            note('required', 'dropped', `${lost.map((r) => JSON.stringify(r)).join(', ')} not among the properties`);
        if (kept.length > 0)
            out.required = kept;
    }
    if (Array.isArray(s.propertyOrdering) && s.propertyOrdering.every((p) => typeof p === 'string')) {
        out.propertyOrdering = s.propertyOrdering;
    }
    for (const keyword of ['anyOf', 'oneOf']) {
        const list = s[keyword];
        if (!Array.isArray(list))
            continue;
        if (keyword === 'oneOf')
            note('oneOf', 'converted', 'oneOf became anyOf');
        out.anyOf = [...(out.anyOf ?? []), ...list.map((child, i) => convert(child, `${path}/${keyword}/${i}`, tool, notes))];
    }
    for (const key of Object.keys(s)) {
        if (HANDLED.has(key))
            continue;
        notes.push({ tool, path, keyword: key, action: 'dropped', detail: `${key} is not in Gemini's schema subset` });
    }
    return out;
}
const OPENAI_ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/**
 * A note when `name` is not a valid OpenAI / Anthropic function name (`^[a-zA-Z0-9_-]{1,64}$`: no dots,
 * which toolhost tool names may have); undefined when it is.
 */
export function functionNameNote(name, api) {
    if (OPENAI_ANTHROPIC_NAME.test(name))
        return undefined;
    return { tool: name, path: '', keyword: 'name', action: 'unsupported', detail: `${api} function names must match ^[a-zA-Z0-9_-]{1,64}$; rename the tool` };
}
function escapePointer(name) {
    return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
// Keywords OpenAI's strict mode (Structured Outputs) documents as supported.
const STRICT_KEYWORDS = new Set([
    'type', 'properties', 'required', 'additionalProperties', 'description', 'title', 'enum', 'const', 'items', 'anyOf',
    '$ref', '$defs', 'definitions', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
    'multipleOf', 'minItems', 'maxItems',
]);
/**
 * Whether OpenAI may run a parameters schema in strict mode (Structured Outputs for function calling):
 * the root is an object, every object lists all its properties in `required` and sets
 * `additionalProperties: false`, at every level, and only keywords strict mode supports are used
 * (`minLength`, `default`, ... are not). `reasons` says why not, one line per problem, with JSON Pointers.
 */
export function openAIStrictCompatibility(schema) {
    const reasons = [];
    if (schema.type !== 'object')
        reasons.push('/: the root is not type "object"');
    checkStrict(schema, '', reasons);
    return { strict: reasons.length === 0, reasons };
}
function checkStrict(input, path, reasons) {
    if (typeof input !== 'object' || input === null || Array.isArray(input))
        return;
    const s = input;
    const at = path || '/';
    for (const key of Object.keys(s)) {
        if (!STRICT_KEYWORDS.has(key))
            reasons.push(`${at}: ${key} is not supported in strict mode`);
    }
    const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || s.properties !== undefined;
    if (isObject) {
        if (s.additionalProperties !== false)
            reasons.push(`${at}: additionalProperties is not false`);
        const props = typeof s.properties === 'object' && s.properties !== null ? Object.keys(s.properties) : [];
        const required = Array.isArray(s.required) ? s.required : [];
        const optional = props.filter((p) => !required.includes(p));
        if (optional.length > 0)
            reasons.push(`${at}: optional properties ${optional.join(', ')} (strict mode needs every property required)`);
        for (const [name, child] of Object.entries((s.properties ?? {}))) {
            checkStrict(child, `${path}/properties/${escapePointer(name)}`, reasons);
        }
    }
    if (s.items !== undefined) {
        if (Array.isArray(s.items))
            s.items.forEach((child, i) => checkStrict(child, `${path}/items/${i}`, reasons));
        else
            checkStrict(s.items, `${path}/items`, reasons);
    }
    for (const keyword of ['anyOf', '$defs', 'definitions']) {
        const value = s[keyword];
        if (Array.isArray(value))
            value.forEach((child, i) => checkStrict(child, `${path}/${keyword}/${i}`, reasons));
        else if (typeof value === 'object' && value !== null) {
            for (const [name, child] of Object.entries(value))
                checkStrict(child, `${path}/${keyword}/${escapePointer(name)}`, reasons);
        }
    }
}
//# sourceMappingURL=schema-convert.js.map