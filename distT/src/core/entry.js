/**
 * The one internal form of a registered tool. Both public shapes — the `execute` form
 * ({@link ExecuteTool}, JSON Schema or Standard Schema input) and the classic form ({@link Tool}:
 * `parameters`, `call` / `callWithContext`, `needsContext`, `readOnly`) — are turned into a
 * {@link ToolEntry} once, at registration, so the runner and the worker bridge have no branches on the
 * shape a tool was written in.
 */
import { ToolError } from './errors.js';
import { formatStandardIssues, isStandardSchema, jsonSchemaOfStandard } from './standard-schema.js';
import { isExecuteTool } from './tool.js';
import { coerceArguments, compileValidator, formatValidationErrors, parseSchema, precompiledValidator } from './validation.js';
const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
function isThenable(value) {
    return typeof value?.then === 'function';
}
/** A JSON Schema validator that may still be compiling: `get()` once ready, `compile()` to get it ready. */
class LazyValidator {
    #validate;
    #compiling;
    #failure;
    #tool;
    #schema;
    #what;
    constructor(tool, schema, what) {
        this.#tool = tool;
        this.#schema = schema;
        this.#what = what;
        this.#validate = precompiledValidator(schema);
    }
    get ready() {
        return this.#validate;
    }
    compile() {
        if (this.#validate)
            return Promise.resolve(this.#validate);
        this.#compiling ??= compileValidator(this.#tool, this.#schema, this.#what).then((validate) => (this.#validate = validate), (error) => {
            this.#failure = error instanceof Error ? error : new Error(String(error));
            throw this.#failure;
        });
        return this.#compiling;
    }
    /** The validator for a call: compiled by now, else compiled here; a schema that does not compile is the host's error (`unavailable`). */
    async forCall() {
        try {
            return await this.compile();
        }
        catch {
            throw new ToolError('unavailable', `${this.#tool} cannot run: ${this.#failure?.message ?? 'its schema does not compile'}. The host must fix the tool`);
        }
    }
}
function checkName(tool) {
    const name = tool.name;
    if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
        throw new TypeError(`tool name ${JSON.stringify(String(name)).slice(0, 80)} must match /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/ (letters, digits, _ . -; at most 64)`);
    }
    return name;
}
function checkObjectSchema(name, schema, what) {
    if (schema.type !== undefined && schema.type !== 'object') {
        throw new TypeError(`tool ${name}: ${what} must describe an object (type: 'object'), as every model API passes arguments by name; got type ${JSON.stringify(schema.type)}`);
    }
}
/** The JSON Schema side of a schema slot: validation by ajv (coercing the model's string slips first). */
function jsonParser(name, schema, what) {
    const validator = new LazyValidator(name, schema, what);
    const check = (validate, args, calledName) => {
        const coerced = coerceArguments(args ?? {}, schema);
        if (!validate(coerced)) {
            throw new ToolError('invalid_arguments', `invalid arguments for ${calledName}: ${formatValidationErrors(validate.errors ?? [], schema)}`);
        }
        return coerced;
    };
    return {
        validator,
        parse(args, calledName) {
            const ready = validator.ready;
            if (ready)
                return check(ready, args, calledName);
            return validator.forCall().then((validate) => check(validate, args, calledName));
        },
    };
}
/** The Standard Schema side: the library validates (refinements and transforms apply) after the same coercion. */
function standardParser(schema, modelSchema) {
    const props = schema['~standard'];
    const settle = (result, calledName) => {
        if (result.issues)
            throw new ToolError('invalid_arguments', `invalid arguments for ${calledName}: ${formatStandardIssues(result.issues)}`);
        return result.value;
    };
    return (args, calledName) => {
        const result = props.validate(coerceArguments(args ?? {}, modelSchema));
        return isThenable(result) ? Promise.resolve(result).then((r) => settle(r, calledName)) : settle(result, calledName);
    };
}
/** The output check of a tool with an output schema, and the schema's model-facing JSON form. */
function outputCheck(name, schema) {
    if (schema === undefined)
        return { jsonSchema: undefined, check: undefined, validator: undefined };
    const broke = (detail) => new ToolError('execution_failed', `${name}'s output broke its outputSchema: ${detail}; the tool must return what its outputSchema describes`);
    if (isStandardSchema(schema)) {
        const props = schema['~standard'];
        let jsonSchema;
        try {
            jsonSchema = jsonSchemaOfStandard(name, schema, undefined, 'output');
        }
        catch {
            jsonSchema = undefined; // the result is still validated; clients just do not see its schema
        }
        const settle = (result) => {
            if (result.issues)
                throw broke(formatStandardIssues(result.issues).replace(/^arguments/, 'result'));
        };
        return {
            jsonSchema,
            validator: undefined,
            check(value) {
                const result = props.validate(value);
                return isThenable(result) ? Promise.resolve(result).then(settle) : settle(result);
            },
        };
    }
    const jsonSchema = parseSchema(name, schema, 'outputSchema');
    const validator = new LazyValidator(name, jsonSchema, 'outputSchema');
    const run = (validate, value) => {
        if (!validate(value))
            throw broke(formatValidationErrors(validate.errors ?? [], jsonSchema).replace(/^arguments\b/, 'result'));
    };
    return {
        jsonSchema,
        validator,
        check(value) {
            const ready = validator.ready;
            if (ready)
                return run(ready, value);
            return validator.forCall().then((validate) => run(validate, value));
        },
    };
}
/**
 * Builds the entry of a tool in either shape. Throws a TypeError naming the tool (a host's mistake,
 * never reported as the model's) for a bad name, a missing `execute` / `call`, or a schema that is not
 * a JSON Schema object describing an object, or a Standard Schema that cannot be shown as JSON Schema.
 * A JSON Schema that ajv must compile (no precompiled validator) is compiled by `compile()`.
 */
export function createToolEntry(candidate) {
    if (typeof candidate !== 'object' || candidate === null) {
        throw new TypeError('register takes a tool: defineTool({ name, description, inputSchema, execute }) or an object with name, description, parameters and call');
    }
    const name = checkName(candidate);
    if (typeof candidate.description !== 'string')
        throw new TypeError(`tool ${name}: description must be a string`);
    return isExecuteTool(candidate) ? executeEntry(name, candidate) : classicEntry(name, candidate);
}
function executeEntry(name, tool) {
    const input = tool.inputSchema;
    let parameters;
    let parse;
    let validator;
    if (isStandardSchema(input)) {
        parameters = jsonSchemaOfStandard(name, input, tool.jsonSchema);
        parse = standardParser(input, parameters);
    }
    else {
        parameters = parseSchema(name, input, 'inputSchema');
        ({ validator, parse } = jsonParser(name, parameters, 'inputSchema'));
    }
    checkObjectSchema(name, parameters, 'inputSchema');
    const readOnly = tool.annotations?.readOnlyHint === true;
    const output = outputCheck(name, tool.outputSchema);
    return finish({
        name,
        description: tool.description,
        parameters,
        annotations: { ...tool.annotations, readOnlyHint: readOnly },
        readOnly,
        readOnlyCall: readOnlyCall(tool),
        concurrencySafe: tool.concurrencySafe ?? readOnly,
        outputSchema: output.jsonSchema,
        usesContext: true,
        tool,
        parse,
        run: (value, ctx) => tool.execute(value, ctx),
        checkOutput: output.check,
        validators: [validator, output.validator],
    });
}
function classicEntry(name, tool) {
    if (typeof tool.call !== 'function' && typeof tool.callWithContext !== 'function') {
        throw new TypeError(`tool ${name} has neither execute, call nor callWithContext`);
    }
    const parameters = parseSchema(name, tool.parameters);
    checkObjectSchema(name, parameters, 'parameters');
    const { validator, parse } = jsonParser(name, parameters, 'parameters');
    const readOnly = tool.readOnly === true || tool.annotations?.readOnlyHint === true;
    const usesContext = tool.needsContext === true && typeof tool.callWithContext === 'function';
    const output = outputCheck(name, tool.outputSchema);
    return finish({
        name,
        description: tool.description,
        parameters,
        annotations: { ...tool.annotations, readOnlyHint: readOnly },
        readOnly,
        readOnlyCall: readOnlyCall(tool),
        concurrencySafe: tool.concurrencySafe ?? readOnly,
        outputSchema: output.jsonSchema,
        usesContext,
        tool,
        parse,
        // Called as methods: a class-based tool keeps its `this`.
        run: usesContext ? (value, ctx) => tool.callWithContext?.(value, ctx) : (value) => tool.call(value),
        checkOutput: output.check,
        validators: [validator, output.validator],
    });
}
/** A tool's `isReadOnlyCall`, called as a method (a class-based tool keeps its `this`). */
function readOnlyCall(tool) {
    const decide = tool.isReadOnlyCall;
    if (typeof decide !== 'function')
        return undefined;
    return (input) => decide.call(tool, input) === true;
}
/**
 * `entry` for one call with these parsed arguments: itself, or a view of it whose `readOnly` is the
 * tool's per-call answer where that differs from its hint.
 */
export function entryForCall(entry, input) {
    if (!entry.readOnlyCall)
        return entry;
    const readOnly = entry.readOnlyCall(input);
    return readOnly === entry.readOnly ? entry : Object.create(entry, { readOnly: { value: readOnly } });
}
function finish(parts) {
    const { validators, ...entry } = parts;
    const pending = validators.filter((v) => v !== undefined);
    return {
        ...entry,
        get compiled() {
            return pending.every((v) => v.ready !== undefined);
        },
        async compile() {
            await Promise.all(pending.map((v) => v.compile()));
        },
    };
}
//# sourceMappingURL=entry.js.map