/**
 * Standard Schema v1 (https://standardschema.dev), the interface zod 4, valibot and arktype share:
 * a schema value carries `~standard` with `validate(value)` and, where the library implements
 * Standard JSON Schema, `jsonSchema.input({ target })`. Written here from the public specification, so
 * toolhost needs no schema library at runtime: everything is reached through the schema value itself.
 */
import type { JsonSchema } from './json.js';
import { argumentNameOf } from './message-text.js';

/** One problem a Standard Schema found: a message and, when it concerns a field, its path. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** The result of a Standard Schema's `validate`: the parsed value, or issues. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** The Standard JSON Schema converter (`~standard.jsonSchema`), where the library offers one. */
export interface StandardJsonSchemaConverter {
  readonly input: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> }) => Record<string, unknown>;
  readonly output: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> }) => Record<string, unknown>;
}

/** The `~standard` member of a Standard Schema v1 value. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown, options?: { readonly libraryOptions?: Record<string, unknown> } | undefined) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  readonly jsonSchema?: StandardJsonSchemaConverter;
}

/** A Standard Schema v1 value: a zod 4 schema, a valibot schema, an arktype type, ... */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

/** The type a Standard Schema's `validate` produces (after transforms): zod's `z.output<S>`. */
export type StandardSchemaOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : unknown;

/** True for a Standard Schema v1 value (an object or, as arktype's types are, a function, with `~standard.validate`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return typeof props === 'object' && props !== null && typeof (props as { validate?: unknown }).validate === 'function';
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
export function jsonSchemaOfStandard(toolName: string, schema: StandardSchemaV1, explicit: object | undefined, io: 'input' | 'output' = 'input'): JsonSchema {
  const props = schema['~standard'];
  let derived: unknown = explicit;
  if (derived === undefined) {
    const converter = props.jsonSchema;
    if ((!converter || typeof converter[io] !== 'function') && props.vendor === 'zod') {
      throw new TypeError(`tool ${toolName}: its ${io === 'input' ? 'input' : 'output'} schema ${zodWithoutJsonSchema(schema)}`);
    }
    if (!converter || typeof converter[io] !== 'function') {
      throw new TypeError(
        `tool ${toolName}: its ${props.vendor} schema cannot describe itself as JSON Schema (no ~standard.jsonSchema); ` +
          `pass the JSON Schema as jsonSchema (valibot: toJsonSchema(schema) from @valibot/to-json-schema, or wrap the schema in its toStandardJsonSchema)`,
      );
    }
    try {
      derived = converter[io]({ target: 'draft-07' });
    } catch (error) {
      throw new TypeError(`tool ${toolName}: its ${props.vendor} schema cannot be converted to JSON Schema (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (typeof derived !== 'object' || derived === null || Array.isArray(derived)) {
    throw new TypeError(`tool ${toolName}: the JSON Schema of its ${props.vendor} schema is not an object`);
  }
  const { $schema: _dropped, ...rest } = derived as JsonSchema;
  return props.vendor === 'zod' && explicit === undefined ? closeObjects(rest) : rest;
}

/** The remedy for a zod schema without a Standard JSON Schema converter (zod 3, or zod 4 before 4.2). */
const ZOD_REMEDY = "use zod 4.2 or later (npm install zod@^4.2; import from 'zod', not 'zod/v3'), or pass its JSON Schema as jsonSchema";

/**
 * Why a zod schema with a `~standard` but no `~standard.jsonSchema` cannot be taken, as the end of a
 * sentence: a zod 3 schema (3.24 and later are Standard Schemas for validation only) or a zod 4 one
 * from before 4.2 (which added Standard JSON Schema; `z.toJSONSchema(schema)` gives its JSON Schema).
 */
function zodWithoutJsonSchema(schema: StandardSchemaV1): string {
  const zod4 = typeof schema === 'object' && schema !== null && '_zod' in schema;
  return `is a ${zod4 ? 'zod 4 schema from before 4.2' : 'zod 3 schema'}, which has no JSON Schema output (~standard.jsonSchema) to show the model; ${ZOD_REMEDY}`;
}

/**
 * Why `value` cannot be a tool's schema when it is a zod 3 schema from before 3.24 (no `~standard` at
 * all, so it would pass for a JSON Schema object with `_def`): the end of a sentence; else undefined.
 */
export function legacyZodProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || isStandardSchema(value)) return undefined;
  const candidate = value as { _def?: unknown; safeParse?: unknown };
  if (typeof candidate._def !== 'object' || candidate._def === null || typeof candidate.safeParse !== 'function') return undefined;
  return `is a zod 3 schema from before 3.24, which is not a Standard Schema; ${ZOD_REMEDY}`;
}

/** A copy of `schema` where every object schema without `additionalProperties` gets `false`. */
function closeObjects(schema: JsonSchema): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      // `properties` / `$defs` / `definitions` map names to schemas: visit the schemas, not the map.
      out[key] =
        (key === 'properties' || key === '$defs' || key === 'definitions' || key === 'patternProperties') && typeof value === 'object' && value !== null
          ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, visit(sub)]))
          : key === 'enum' || key === 'const' || key === 'default' || key === 'examples'
            ? value
            : visit(value);
    }
    if (out.type === 'object' && out.properties !== undefined && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  };
  return visit(schema) as JsonSchema;
}

/** The keys of an issue's path: each segment a key, or a `{ key }` object (as Standard Schema allows). */
function issueKeys(path: StandardSchemaIssue['path']): string[] {
  if (!Array.isArray(path)) return [];
  return path.map((segment: unknown) => {
    const key = typeof segment === 'object' && segment !== null ? (segment as { key?: unknown }).key : segment;
    return typeof key === 'symbol' ? key.toString() : String(key);
  });
}

/**
 * One issue as the JSON Schema messages word theirs: the argument named as they name it (`city`,
 * `edits[0].old_string`, `arguments` for the whole object), then the library's own message
 * (`city: Too small: expected string to have >=2 characters`). A message that already begins with
 * the argument's name (`city needs at least 2 letters`, as arktype's and custom messages often do) is
 * given as it is; an empty one says `is invalid`.
 */
function describeIssue(issue: StandardSchemaIssue): string {
  const name = argumentNameOf(issueKeys(issue.path));
  const message = typeof issue.message === 'string' ? issue.message.trim() : String(issue.message ?? '').trim();
  if (message === '') return `${name} is invalid`;
  return message.startsWith(`${name} `) ? message : `${name}: ${message}`;
}

/**
 * One sentence from a Standard Schema's issues (any library's: zod, valibot, arktype, ...), each
 * worded as the JSON Schema problems are (see {@link describeIssue}): `city: Too small: expected
 * string to have >=2 characters`, `edits[0].old_string: Invalid input: expected string, received
 * number`; the same problem said once, at most 5, then `and N more`.
 */
export function formatStandardIssues(issues: ReadonlyArray<StandardSchemaIssue>): string {
  const parts = [...new Set(issues.map(describeIssue))];
  const shown = parts.slice(0, 5);
  if (parts.length > 5) shown.push(`and ${parts.length - 5} more`);
  return shown.length > 0 ? shown.join('; ') : 'arguments do not match the schema';
}
