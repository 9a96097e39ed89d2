import type { ErrorObject } from 'ajv';
import { loadAjv } from '#lazy';
import { onDemand } from './on-demand.js';
import { argumentNameOf, quoteForMessage } from './message-text.js';
import type { JsonSchema } from './json.js';

/** A compiled argument validator (ajv's shape: returns true, or false with `errors`). */
export type ArgumentValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

const precompiled = new Map<string, ArgumentValidator>();

/**
 * Validators generated ahead of time for known schemas (the built-in tools', in
 * src/tools/generated/validators.js), keyed by {@link validatorKey}, with the {@link validatorCheck}
 * of each under the same key. The package's runner is given the built-ins' table.
 */
export interface GeneratedValidators {
  readonly validators: Readonly<Record<string, ArgumentValidator>>;
  readonly checks: Readonly<Record<string, string>>;
}

/**
 * Registers validators generated ahead of time by ajv's standalone mode, keyed by the schema's
 * `JSON.stringify` text. The runner uses them instead of compiling, so built-in tools validate where
 * `eval` is forbidden (a Content-Security-Policy without `unsafe-eval`).
 */
export function registerPrecompiledValidators(validators: Record<string, ArgumentValidator>): void {
  for (const [schemaText, validate] of Object.entries(validators)) precompiled.set(schemaText, validate);
}

/** What compiles a JSON Schema at run time: ajv's `compile` shape. */
export interface SchemaCompiler {
  compile(schema: JsonSchema): ArgumentValidator;
}

/**
 * The ajv options of every validator toolhost compiles, at runtime or ahead of time (the built-ins'
 * generated validators and `precompileValidators` in `toolhost/node` use the same, so a precompiled
 * validator reports the same errors). No coercion here: toolhost coerces only strings to
 * numbers/booleans itself, where ajv's coerceTypes would also turn numbers into strings.
 */
export const AJV_OPTIONS = Object.freeze({
  allErrors: true,
  strict: false,
  validateFormats: false,
  coerceTypes: false,
  useDefaults: false,
});

/** The JSON Schema dialect a schema is compiled as, which picks ajv's class (`Ajv`, `Ajv2019`, `Ajv2020`). */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

/** Keywords that exist only from draft 2019-09 on; draft-07's ajv would silently ignore them. */
const LATER_KEYWORDS = new Set([
  'prefixItems',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'minContains',
  'maxContains',
  '$dynamicRef',
  '$dynamicAnchor',
]);

function usesLaterKeywords(node: unknown, depth = 0): boolean {
  if (depth > 200 || typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some((item) => usesLaterKeywords(item, depth + 1));
  for (const [key, value] of Object.entries(node)) {
    if (LATER_KEYWORDS.has(key)) return true;
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    if (usesLaterKeywords(value, depth + 1)) return true;
  }
  return false;
}

/**
 * The dialect of `schema`: its `$schema` when that names draft 2020-12 or 2019-09 (as
 * `z.toJSONSchema()` output does), else 2020-12 when it uses a keyword draft-07 does not have
 * (`prefixItems`, `dependentRequired`, `unevaluatedProperties`, ...), else draft-07.
 */
export function schemaDialect(schema: JsonSchema): SchemaDialect {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (declared === '' && usesLaterKeywords(schema)) return '2020-12';
  return 'draft-07';
}

/** ajv's class for each dialect, by its export name in the loaded module. */
const AJV_CLASSES: Record<SchemaDialect, 'Ajv' | 'Ajv2019' | 'Ajv2020'> = { 'draft-07': 'Ajv', '2019-09': 'Ajv2019', '2020-12': 'Ajv2020' };

/**
 * ajv, loaded on the first runtime compile (never at import: a worker whose tools all have precompiled
 * validators, as the built-ins do, or Standard Schemas never loads it). In a browser that is one fetch
 * of toolhost's `lazy/ajv.min.js` beside the worker, with no set-up by the app; on Node, ajv from
 * node_modules.
 */
const ajvModule = onDemand('the JSON Schema compiler (ajv)', 'ajv.min.js', loadAjv);
const compilers = new Map<SchemaDialect, SchemaCompiler>();

async function getAjv(dialect: SchemaDialect): Promise<SchemaCompiler> {
  const ready = compilers.get(dialect);
  if (ready) return ready;
  const AjvClass = (await ajvModule.load())[AJV_CLASSES[dialect]] as unknown as new (options: object) => SchemaCompiler;
  const compiler = compilers.get(dialect) ?? new AjvClass({ ...AJV_OPTIONS, logger: false });
  compilers.set(dialect, compiler);
  return compiler;
}

/** Parses a tool's `parameters` (object or JSON string); throws a TypeError naming the tool when it is not a JSON object. */
export function parseSchema(toolName: string, parameters: JsonSchema | string, what = 'parameters'): JsonSchema {
  let schema: unknown = parameters;
  if (typeof parameters === 'string') {
    try {
      schema = JSON.parse(parameters);
    } catch (error) {
      throw new TypeError(`tool ${toolName}: ${what} is not valid JSON (${(error as Error).message}); give a JSON Schema object`);
    }
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new TypeError(`tool ${toolName}: ${what} must be a JSON Schema object`);
  }
  return schema as JsonSchema;
}

/** Annotation keywords: ajv (with toolhost's options) reads none of them when validating, and no error names them. */
const ANNOTATIONS = new Set(['title', 'description', 'examples', '$comment', 'default', 'deprecated', 'readOnly', 'writeOnly']);
/** Keywords whose value is one subschema. */
const SUBSCHEMA = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'else',
  'if',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
/** Keywords whose value is an array of subschemas. */
const SUBSCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to subschemas (the names are data, never keywords). */
const SUBSCHEMA_MAP = new Set(['$defs', 'definitions', 'dependentSchemas', 'patternProperties', 'properties']);

function stripNode(node: unknown, depth: number): unknown {
  if (depth > 200 || typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  // No prototype: a key `__proto__` (a property a schema may declare) stays an own property.
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key)) continue;
    if (SUBSCHEMA.has(key)) out[key] = stripNode(value, depth + 1);
    else if (key === 'items') out[key] = Array.isArray(value) ? value.map((item) => stripNode(item, depth + 1)) : stripNode(value, depth + 1);
    else if (SUBSCHEMA_LIST.has(key) && Array.isArray(value)) out[key] = value.map((item) => stripNode(item, depth + 1));
    else if ((SUBSCHEMA_MAP.has(key) || key === 'dependencies') && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      // `dependencies` maps a name to a subschema or to a list of names (kept as it is).
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, stripNode(sub, depth + 1)]));
    } else out[key] = value; // enum, const, required, type, ... and unknown keywords: data, kept verbatim
  }
  return out;
}

/**
 * `schema` without its annotations (`title`, `description`, `examples`, `$comment`, `default`,
 * `deprecated`, `readOnly`, `writeOnly`) at any depth of subschemas: what ajv validates, with the same
 * results and errors (the schema paths do not change). Property names, `enum` and `const` values and
 * unknown keywords are kept verbatim. Returns a copy.
 */
export function stripAnnotations(schema: JsonSchema): JsonSchema {
  return stripNode(schema, 0) as JsonSchema;
}

/**
 * One 32-bit lane of the schema hashes: FNV-1a's xor-multiply over the UTF-16 code units of `text`
 * from `seed` by the odd `multiplier`, finished with MurmurHash3's fmix32 so every input bit reaches
 * every output bit. Not cryptographic: the keys only pick among toolhost's own generated validators,
 * and {@link precompiledValidator} confirms a hit with {@link validatorCheck}.
 */
function lane(text: string, seed: number, multiplier: number): number {
  let h = seed;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), multiplier);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const hex8 = (n: number): string => n.toString(16).padStart(8, '0');

/** What the validator key and check are computed over: `JSON.stringify(stripAnnotations(schema))`. */
function keyText(schema: JsonSchema): string {
  return JSON.stringify(stripAnnotations(schema));
}

/**
 * The key of the built-in tools' generated validators: 16 hex digits, two independent 32-bit lanes
 * (FNV-1a's prime from its offset basis, and the golden-ratio multiplier) over
 * `JSON.stringify(stripAnnotations(schema))`, so rewording a description needs no new validator and
 * the lookup needs no hashing library. scripts/build-validators.mjs computes it with this function and
 * refuses two schemas with one key; a schema of the app's own that lands on a built-in's key is told
 * apart by {@link validatorCheck}.
 */
export function validatorKey(schema: JsonSchema): string {
  const text = keyText(schema);
  return hex8(lane(text, 0x811c9dc5, 0x01000193)) + hex8(lane(text, 0x2545f491, 0x9e3779b1));
}

/**
 * The check stored beside each generated validator: `<length of the key text>:<8 hex digits>`, a
 * third 32-bit lane (its own seed and multiplier) over the same text as {@link validatorKey}. A
 * validator is used for a schema only when both its key and its check match.
 */
export function validatorCheck(schema: JsonSchema): string {
  const text = keyText(schema);
  return `${text.length}:${hex8(lane(text, 0x27d4eb2f, 0x85ebca77))}`;
}

/**
 * The validator for `schema` that needs no compiling: one registered with
 * {@link registerPrecompiledValidators}, else the one of `generated` (the built-in tools' validators
 * generated at build time: keyed by {@link validatorKey} and confirmed by {@link validatorCheck}, so a
 * schema whose key collides with a built-in's is compiled, never given the built-in's validator;
 * regenerate with `npm run gen:validators`); `undefined` when neither has it.
 */
export function precompiledValidator(schema: JsonSchema, generated?: GeneratedValidators): ArgumentValidator | undefined {
  const ready = precompiled.get(JSON.stringify(schema));
  if (ready) return ready;
  if (generated === undefined) return undefined;
  const key = validatorKey(schema);
  const { validators, checks } = generated;
  if (!Object.hasOwn(validators, key) || !Object.hasOwn(checks, key)) return undefined;
  return checks[key] === validatorCheck(schema) ? validators[key] : undefined;
}

/**
 * Returns the validator for `schema`: the {@link precompiledValidator} (a registered one, or one of
 * `generated`) when there is one, else one compiled with ajv (loaded on the first such compile, in a
 * browser from toolhost's `lazy/ajv.min.js`, with nothing for the app to set up) in the schema's
 * {@link schemaDialect}.
 * Rejects with a TypeError naming the tool (a host's mistake, never the model's) when ajv rejects the
 * schema itself, when ajv cannot be loaded (the app does not serve that file), or when compiling is forbidden because the
 * environment blocks code generation from strings (a CSP without `'unsafe-eval'`); the message then
 * says how to precompile the schema.
 */
export async function compileValidator(toolName: string, schema: JsonSchema, what = 'parameters', generated?: GeneratedValidators): Promise<ArgumentValidator> {
  const ready = precompiledValidator(schema, generated);
  if (ready) return ready;
  let compiler: SchemaCompiler;
  try {
    compiler = await getAjv(schemaDialect(schema));
  } catch (error) {
    throw new TypeError(
      `tool ${toolName}: its ${what} schema cannot be compiled here: ${(error as Error).message}; or precompile it (precompileValidators in toolhost/node, then registerPrecompiledValidators), or give the tool a Standard Schema (zod, valibot), which needs no compile`,
    );
  }
  try {
    return compiler.compile(schema) as ArgumentValidator;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isCodeGenerationBlocked(error)) {
      throw new TypeError(
        `tool ${toolName}: its ${what} schema cannot be compiled here because this environment forbids code ` +
          `generation from strings (eval; e.g. a Content-Security-Policy without 'unsafe-eval'): ${message}. ` +
          'Precompile it with precompileValidators (toolhost/node) and pass the module to registerPrecompiledValidators, or give the tool a Standard Schema (zod, valibot), which needs no compile',
      );
    }
    throw new TypeError(`tool ${toolName}: its ${what} schema cannot be compiled (${message})`);
  }
}

/** True for the error `new Function` throws where eval is blocked (V8: EvalError "Code generation from strings disallowed"; browsers: CSP `unsafe-eval`). */
function isCodeGenerationBlocked(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  const message = (error as { message?: unknown } | null)?.message;
  return (
    name === 'EvalError' ||
    (typeof message === 'string' && /code generation from strings|unsafe-eval|content security policy/i.test(message))
  );
}

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function schemaTypes(schema: JsonSchema | undefined): readonly string[] {
  if (!schema || schema.type === undefined) return [];
  return typeof schema.type === 'string' ? [schema.type] : schema.type;
}

function coerceValue(value: unknown, schema: JsonSchema | undefined): unknown {
  if (!schema) return value;
  const types = schemaTypes(schema);
  if (typeof value === 'string') {
    if (types.includes('string')) return value;
    const trimmed = value.trim();
    if ((types.includes('number') || types.includes('integer')) && NUMERIC.test(trimmed)) {
      const n = Number(trimmed);
      if (Number.isFinite(n) && (types.includes('number') || Number.isInteger(n))) return n;
    }
    if (types.includes('boolean') && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
    return value;
  }
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items || Array.isArray(items)) return value;
    const itemSchema = items as JsonSchema;
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = coerceValue(item, itemSchema);
      if (next !== item) (copy ??= value.slice())[i] = next;
    });
    return copy ?? value;
  }
  if (typeof value === 'object' && value !== null && schema.properties) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const next = coerceValue(item, schema.properties[key]);
      if (next !== item) (copy ??= { ...value })[key] = next;
    }
    return copy ?? value;
  }
  return value;
}

/**
 * The model's common slip, numbers and booleans sent as strings (`"50"`, `"true"`), converted where the
 * schema asks for a number, integer or boolean, at any depth of declared properties and items. Nothing
 * else is coerced. Returns `args` itself when nothing changed, never mutates it.
 */
export function coerceArguments(args: unknown, schema: JsonSchema): unknown {
  return coerceValue(args, schema);
}

/**
 * The argument an error is about, as the model named it: `command`, `edits[0].old_string`, or
 * `arguments` for the whole object. Names come from the model (an object's keys): cut to a readable length.
 */
function argumentName(instancePath: string): string {
  if (instancePath === '') return 'arguments';
  return argumentNameOf(instancePath.slice(1).split('/').map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~')));
}

/** The value at `instancePath` (a JSON Pointer) in `data`, or undefined. */
function valueAt(data: unknown, instancePath: string): unknown {
  if (instancePath === '') return data;
  let node = data;
  for (const raw of instancePath.slice(1).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

const KIND_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** What a JSON value is, for "not …": `a string`, `a number`, `an array`, `null`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'boolean') return 'a boolean';
  return KIND_WORDS[typeof value] ?? 'that';
}

/**
 * What an argument is for, from the first clause of its schema's `description` when that clause is a
 * short noun phrase (`The file to read: ...` → `the file to read`): the next step of a message about it.
 */
function purposeOf(schema: JsonSchema, error: ErrorObject, missing?: string): string | undefined {
  const parent = schemaAt(schema, error.schemaPath);
  const own = missing === undefined ? parent : parent?.properties?.[missing];
  const description = own?.description;
  if (typeof description !== 'string') return undefined;
  const clause = (description.split(/[.;:(\n]/)[0] ?? '').trim();
  if (clause.length < 4 || clause.length > 80 || !/^(?:the|a|an) /i.test(clause)) return undefined;
  return clause.charAt(0).toLowerCase() + clause.slice(1);
}

/** `must not be empty` / `must have at least 3 characters` for a `minLength` or `minItems` error. */
function tooShort(error: ErrorObject, unit: string): string {
  const limit = Number((error.params as Record<string, unknown>).limit);
  return limit === 1 ? 'must not be empty' : `must have at least ${limit} ${unit}`;
}

function describe(error: ErrorObject, schema: JsonSchema, data: unknown, advice: boolean): string {
  const params = error.params as Record<string, unknown>;
  const name = argumentName(error.instancePath);
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const where = error.instancePath === '' ? '' : ` in ${name}`;
      const purpose = advice ? purposeOf(schema, error, missing) : undefined;
      return `missing required argument "${missing}"${where}${purpose === undefined ? '' : ` (${purpose})`}`;
    }
    case 'additionalProperties':
      return unknownArguments([error], schema);
    case 'enum':
      return `${name} must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type': {
      const wanted = String(params.type).split(',').map((type) => KIND_WORDS[type] ?? type).join(' or ');
      const purpose = advice ? purposeOf(schema, error) : undefined;
      const value = valueAt(data, error.instancePath);
      // A number where an integer is wanted: the number itself says what is wrong (`not 1.5`).
      const given = typeof value === 'number' && params.type === 'integer' ? String(value) : kindOf(value);
      return `${name} must be ${wanted}${purpose === undefined ? '' : ` (${purpose})`}${value === undefined ? '' : `, not ${given}`}`;
    }
    case 'minLength':
    case 'minItems': {
      const purpose = advice ? purposeOf(schema, error) : undefined;
      return `${name} ${tooShort(error, error.keyword === 'minLength' ? 'characters' : 'items')}${purpose === undefined ? '' : `; give ${purpose}`}`;
    }
    case 'maxLength':
    case 'maxItems': {
      const limit = Number(params.limit);
      const unit = error.keyword === 'maxLength' ? 'character' : 'item';
      return `${name} must have at most ${limit} ${unit}${limit === 1 ? '' : 's'}`;
    }
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum': {
      // ajv's `must be <= 600000`, said in words, with the value given.
      const words = { maximum: 'at most', minimum: 'at least', exclusiveMaximum: 'below', exclusiveMinimum: 'above' }[error.keyword];
      const value = valueAt(data, error.instancePath);
      return `${name} must be ${words} ${String(params.limit)}${typeof value === 'number' ? `, not ${String(value)}` : ''}`;
    }
    default:
      return `${name} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * `unknown argument "a"; allowed: x, y`, or for several unknown arguments of one object (`errors`, all
 * `additionalProperties` of the same place) `unknown arguments "a", "b"; allowed: x, y`: the allowed
 * list said once.
 */
function unknownArguments(errors: readonly ErrorObject[], schema: JsonSchema): string {
  const first = errors[0] as ErrorObject;
  const parent = schemaAt(schema, first.schemaPath);
  const allowed = Object.keys(parent?.properties ?? {});
  const where = first.instancePath === '' ? '' : ` in ${argumentName(first.instancePath)}`;
  const names = errors.slice(0, 5).map((error) => quoteForMessage(String((error.params as Record<string, unknown>).additionalProperty)));
  const more = errors.length > 5 ? ` and ${errors.length - 5} more` : '';
  const what = names.length === 1 ? `unknown argument ${names[0] as string}` : `unknown arguments ${names.join(', ')}${more}`;
  return `${what}${where}; allowed: ${allowed.length > 0 ? allowed.join(', ') : '(none)'}`;
}

/** The sub-schema holding the keyword at `schemaPath` (`#/properties/a/additionalProperties` → the schema of `a`). */
function schemaAt(schema: JsonSchema, schemaPath: string): JsonSchema | undefined {
  const parts = schemaPath.replace(/^#\/?/, '').split('/').slice(0, -1);
  let node: unknown = schema;
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'object' && node !== null ? (node as JsonSchema) : undefined;
}

/**
 * How {@link formatValidationErrors} words its problems: `data` is the value validated (so a type
 * problem says what was sent: `, not a number`); `advice` (default true) adds what an argument is for,
 * from its schema's description (`file_path must be a string (the file to read), not a number`,
 * `command must not be empty; give the shell command line to run`): off for a tool's output.
 */
export interface ValidationWording {
  /** The value that was validated (the arguments after coercion, or a tool's output). */
  data?: unknown;
  /** Add what each argument is for, from its schema's description (default true). */
  advice?: boolean;
}

/**
 * One readable sentence from ajv's errors, naming each offending argument as the model named it:
 * `end_line must be an integer, not a string`, `missing required argument "city"`, `unknown argument
 * "foo"; allowed: city, units` (several unknown arguments of one object in one problem: `unknown
 * arguments "foo", "bar"; allowed: city, units`), nested ones as `edits[0].old_string`. At most 5
 * problems; names the model sent are cut at 200 characters (`clipForMessage`). See
 * {@link ValidationWording} for `wording`.
 */
export function formatValidationErrors(errors: readonly ErrorObject[], schema: JsonSchema, wording: ValidationWording = {}): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  // The unknown arguments of one object, said together where the first of them was.
  const unknown = new Map<string, { at: number; errors: ErrorObject[] }>();
  for (const error of errors) {
    // `anyOf`/`oneOf` wrappers repeat what their branches said.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    if (error.keyword === 'additionalProperties') {
      const place = `${error.instancePath}\0${error.schemaPath}`;
      const group = unknown.get(place);
      const name = String((error.params as Record<string, unknown>).additionalProperty);
      if (group === undefined) {
        unknown.set(place, { at: parts.length, errors: [error] });
        parts.push('');
      } else if (!group.errors.some((e) => String((e.params as Record<string, unknown>).additionalProperty) === name)) group.errors.push(error);
      continue;
    }
    const text = describe(error, schema, wording.data, wording.advice !== false);
    if (seen.has(text)) continue;
    seen.add(text);
    parts.push(text);
  }
  for (const group of unknown.values()) parts[group.at] = unknownArguments(group.errors, schema);
  const shown = parts.slice(0, 5);
  if (parts.length > 5) shown.push(`and ${parts.length - 5} more`);
  return shown.length > 0 ? shown.join('; ') : 'arguments do not match the schema';
}
