/**
 * The one internal form of a registered tool, built from the one tool shape, {@link ExecuteTool}
 * (JSON Schema or Standard Schema input, `annotations.readOnlyHint`, `execute(input, ctx)`). A tool in
 * the classic form is turned into that shape first, by the adapter in `classic-tool.ts`; the runner and
 * the worker bridge read only the entry.
 */
import { ToolError } from './errors.js';
import { describeValue } from './options.js';
import type { ToolAnnotations } from './host.js';
import { formatStandardIssues, isStandardSchema, jsonSchemaOfStandard, type StandardSchemaResult, type StandardSchemaV1 } from './standard-schema.js';
import { fromClassicTool } from './classic-tool.js';
import { isExecuteTool, type AnyTool, type ExecuteTool, type Tool, type ToolContext, type ToolSchema } from './tool.js';
import type { JsonSchema } from './json.js';
import { coerceArguments, compileValidator, formatValidationErrors, parseSchema, precompiledValidator, type ArgumentValidator, type GeneratedValidators } from './validation.js';
import { isThenable } from './thenable.js';

/** A registered tool as the runner uses it. */
export interface ToolEntry {
  readonly name: string;
  readonly description: string;
  /** The model-facing JSON Schema of the arguments (derived, for a Standard Schema). */
  readonly parameters: JsonSchema;
  /** MCP annotations, `readOnlyHint` always set. */
  readonly annotations: ToolAnnotations;
  readonly readOnly: boolean;
  /** The tool's per-call answer to "does this call change nothing?" (arguments parsed), when it has one. */
  readonly readOnlyCall: ((input: unknown) => boolean) | undefined;
  readonly concurrencySafe: boolean;
  /** The model-facing JSON Schema of the result, when the tool declares one. */
  readonly outputSchema: JsonSchema | undefined;
  /** Whether `run` reads its context (false only for an adapted classic tool without one). */
  readonly usesContext: boolean;
  /** The tool as it was given. */
  readonly tool: AnyTool;
  /**
   * Coerces (numbers and booleans sent as strings) and validates the model's arguments; returns what
   * the tool receives (a Standard Schema's parsed output) or throws `invalid_arguments`. A promise
   * only while a JSON Schema is still compiling, or for a Standard Schema that validates asynchronously.
   */
  parse(args: unknown, calledName: string): unknown;
  /** Runs the tool on parsed arguments (`ctx` is undefined when `usesContext` is false). */
  run(input: unknown, ctx: ToolContext | undefined): unknown;
  /** Checks a result against the output schema (throws or rejects with `execution_failed`); absent without one. */
  readonly checkOutput: ((value: unknown) => void | Promise<void>) | undefined;
  /** Compiles what still needs compiling (ajv validators not precompiled); rejects with a TypeError naming the tool. */
  compile(): Promise<void>;
  /** True once nothing is left to compile. */
  readonly compiled: boolean;
}

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** Names that match the pattern but mean something to every JavaScript object a bridge keys by tool name. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);


/** A JSON Schema validator that may still be compiling: `get()` once ready, `compile()` to get it ready. */
class LazyValidator {
  #validate: ArgumentValidator | undefined;
  #compiling: Promise<ArgumentValidator> | undefined;
  #failure: Error | undefined;
  readonly #tool: string;
  readonly #schema: JsonSchema;
  readonly #what: string;

  readonly #generated: GeneratedValidators | undefined;

  constructor(tool: string, schema: JsonSchema, what: string, generated: GeneratedValidators | undefined) {
    this.#tool = tool;
    this.#schema = schema;
    this.#what = what;
    this.#generated = generated;
    this.#validate = precompiledValidator(schema, generated);
  }

  get ready(): ArgumentValidator | undefined {
    return this.#validate;
  }

  compile(): Promise<ArgumentValidator> {
    if (this.#validate) return Promise.resolve(this.#validate);
    this.#compiling ??= compileValidator(this.#tool, this.#schema, this.#what, this.#generated).then(
      (validate) => (this.#validate = validate),
      (error: unknown) => {
        this.#failure = error instanceof Error ? error : new Error(String(error));
        throw this.#failure;
      },
    );
    return this.#compiling;
  }

  /** The validator for a call: compiled by now, else compiled here; a schema that does not compile is the host's error (`unavailable`). */
  async forCall(): Promise<ArgumentValidator> {
    try {
      return await this.compile();
    } catch {
      throw new ToolError('unavailable', `${this.#tool} cannot run: ${this.#failure?.message ?? 'its schema does not compile'}. The host must fix the tool`);
    }
  }
}

/**
 * Refuses, with a TypeError saying what to pass instead, an array of tools, another iterable of them (a
 * Set, a Map) or a set of them (an object with no name whose `all()` lists tools, as `BuiltinTools` and
 * the profiles' sets) given where one tool goes.
 */
function refuseToolCollection(candidate: object): void {
  if (Array.isArray(candidate)) {
    throw new TypeError('register takes one tool, and this is an array of them: pass it to registerAll(tools), or to new ToolRunner({ tools })');
  }
  if (typeof (candidate as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function') {
    const list = candidate instanceof Map ? '[...map.values()]' : candidate instanceof Set ? '[...set]' : '[...tools]';
    throw new TypeError(`register takes one tool, and this is ${describeValue(candidate)}: register its tools with registerAll(${list}), or pass tools: ${list} to new ToolRunner`);
  }
  const all = (candidate as { name?: unknown; all?: unknown }).all;
  if ((candidate as { name?: unknown }).name === undefined && typeof all === 'function') {
    throw new TypeError('register takes one tool, and this is a set of tools (BuiltinTools, say): register its tools with registerAll(set.all()), or pass tools: set.all() to new ToolRunner');
  }
}

function checkName(tool: { name?: unknown }): string {
  const name = tool.name;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw new TypeError(
      `tool name ${JSON.stringify(String(name)).slice(0, 80)} must match /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/ (letters, digits, _ . -; at most 64)`,
    );
  }
  if (RESERVED_NAMES.has(name)) {
    throw new TypeError(`tool name ${JSON.stringify(name)} is reserved (__proto__, constructor and prototype are object keys in JavaScript); give the tool another name`);
  }
  return name;
}

function checkObjectSchema(name: string, schema: JsonSchema, what: string): void {
  if (schema.type !== undefined && schema.type !== 'object') {
    throw new TypeError(
      `tool ${name}: ${what} must describe an object (type: 'object'), as every model API passes arguments by name; got type ${JSON.stringify(schema.type)}`,
    );
  }
}

/** The JSON Schema side of a schema slot: validation by ajv (coercing the model's string slips first). */
function jsonParser(name: string, schema: JsonSchema, what: string, generated: GeneratedValidators | undefined): { validator: LazyValidator; parse: ToolEntry['parse'] } {
  const validator = new LazyValidator(name, schema, what, generated);
  const check = (validate: ArgumentValidator, args: unknown, calledName: string): unknown => {
    const coerced = coerceArguments(args ?? {}, schema);
    if (!validate(coerced)) {
      throw new ToolError('invalid_arguments', `invalid arguments for ${calledName}: ${formatValidationErrors(validate.errors ?? [], schema, { data: coerced })}`);
    }
    return coerced;
  };
  return {
    validator,
    parse(args, calledName) {
      const ready = validator.ready;
      if (ready) return check(ready, args, calledName);
      return validator.forCall().then((validate) => check(validate, args, calledName));
    },
  };
}

/** The Standard Schema side: the library validates (refinements and transforms apply) after the same coercion. */
function standardParser(schema: StandardSchemaV1, modelSchema: JsonSchema): ToolEntry['parse'] {
  const props = schema['~standard'];
  const settle = (result: StandardSchemaResult<unknown>, calledName: string): unknown => {
    if (result.issues) throw new ToolError('invalid_arguments', `invalid arguments for ${calledName}: ${formatStandardIssues(result.issues)}`);
    return result.value;
  };
  return (args, calledName) => {
    const result = props.validate(coerceArguments(args ?? {}, modelSchema));
    return isThenable(result) ? Promise.resolve(result).then((r) => settle(r, calledName)) : settle(result, calledName);
  };
}

/** The output check of a tool with an output schema, and the schema's model-facing JSON form. */
function outputCheck(name: string, schema: ToolSchema | undefined, generated: GeneratedValidators | undefined): { jsonSchema: JsonSchema | undefined; check: ToolEntry['checkOutput']; validator: LazyValidator | undefined } {
  if (schema === undefined) return { jsonSchema: undefined, check: undefined, validator: undefined };
  const broke = (detail: string): ToolError =>
    new ToolError('execution_failed', `${name}'s output broke its outputSchema: ${detail}; the tool must return what its outputSchema describes`);
  if (isStandardSchema(schema)) {
    const props = schema['~standard'];
    let jsonSchema: JsonSchema | undefined;
    try {
      jsonSchema = jsonSchemaOfStandard(name, schema, undefined, 'output');
    } catch {
      jsonSchema = undefined; // the result is still validated; clients just do not see its schema
    }
    const settle = (result: StandardSchemaResult<unknown>): void => {
      if (result.issues) throw broke(formatStandardIssues(result.issues).replace(/^arguments\b/, 'result'));
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
  const jsonSchema = parseSchema(name, schema as JsonSchema, 'outputSchema');
  const validator = new LazyValidator(name, jsonSchema, 'outputSchema', generated);
  const run = (validate: ArgumentValidator, value: unknown): void => {
    if (!validate(value)) throw broke(formatValidationErrors(validate.errors ?? [], jsonSchema, { data: value, advice: false }).replace(/^arguments\b/, 'result'));
  };
  return {
    jsonSchema,
    validator,
    check(value) {
      const ready = validator.ready;
      if (ready) return run(ready, value);
      return validator.forCall().then((validate) => run(validate, value));
    },
  };
}

/**
 * Builds the entry of a tool. A classic tool is first turned into the `execute` shape by
 * {@link fromClassicTool} (the one place that form is read); every tool then goes through the same
 * builder. Throws a TypeError naming the tool (a host's mistake, never reported as the model's) for a
 * bad name, a missing `execute` / `call`, or a schema that is not a JSON Schema object describing an
 * object, or a Standard Schema that cannot be shown as JSON Schema. A JSON Schema that ajv must compile
 * (no precompiled validator, none among `generated`) is compiled by `compile()`.
 */
export function createToolEntry(candidate: AnyTool, generated?: GeneratedValidators): ToolEntry {
  if (typeof candidate !== 'object' || candidate === null) {
    throw new TypeError('register takes a tool: defineTool({ name, description, inputSchema, execute }) or an object with name, description, parameters and call');
  }
  refuseToolCollection(candidate);
  const name = checkName(candidate);
  if (typeof candidate.description !== 'string') throw new TypeError(`tool ${name}: description must be a string`);
  if (isExecuteTool(candidate)) return buildEntry(name, candidate, candidate, generated, true, 'inputSchema');
  const adapted = fromClassicTool(name, candidate as Tool);
  return buildEntry(name, adapted.tool, candidate, generated, adapted.usesContext, 'parameters');
}

/**
 * The one entry builder. `given` is the tool as registered (kept for identity); `usesContext` is false
 * only for a tool that takes no context (a classic `call`), and `schemaLabel` names its schema in errors.
 */
function buildEntry(
  name: string,
  tool: ExecuteTool,
  given: AnyTool,
  generated: GeneratedValidators | undefined,
  usesContext: boolean,
  schemaLabel: 'inputSchema' | 'parameters',
): ToolEntry {
  const input = tool.inputSchema;
  let parameters: JsonSchema;
  let parse: ToolEntry['parse'];
  let validator: LazyValidator | undefined;
  if (isStandardSchema(input)) {
    parameters = jsonSchemaOfStandard(name, input, tool.jsonSchema);
    parse = standardParser(input, parameters);
  } else {
    parameters = parseSchema(name, input as JsonSchema, schemaLabel);
    ({ validator, parse } = jsonParser(name, parameters, schemaLabel, generated));
  }
  checkObjectSchema(name, parameters, schemaLabel);
  const readOnly = tool.annotations?.readOnlyHint === true && tool.annotationsTrusted !== false;
  const output = outputCheck(name, tool.outputSchema, generated);
  const decide = tool.isReadOnlyCall;
  return finish({
    name,
    description: tool.description,
    parameters,
    annotations: { ...tool.annotations, readOnlyHint: readOnly },
    readOnly,
    // Called as a method: a class-based tool keeps its `this`.
    readOnlyCall: typeof decide === 'function' ? (value) => decide.call(tool, value) === true : undefined,
    concurrencySafe: tool.concurrencySafe ?? readOnly,
    outputSchema: output.jsonSchema,
    usesContext,
    tool: given,
    parse,
    run: (value, ctx) => tool.execute(value, ctx as ToolContext),
    checkOutput: output.check,
    validators: [validator, output.validator],
  });
}

/**
 * `entry` for one call with these parsed arguments: itself, or a view of it whose `readOnly` is the
 * tool's per-call answer where that differs from its hint.
 */
export function entryForCall(entry: ToolEntry, input: unknown): ToolEntry {
  if (!entry.readOnlyCall) return entry;
  const readOnly = entry.readOnlyCall(input);
  return readOnly === entry.readOnly ? entry : (Object.create(entry, { readOnly: { value: readOnly } }) as ToolEntry);
}

function finish(parts: Omit<ToolEntry, 'compile' | 'compiled'> & { validators: Array<LazyValidator | undefined> }): ToolEntry {
  const { validators, ...entry } = parts;
  const pending = validators.filter((v): v is LazyValidator => v !== undefined);
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
