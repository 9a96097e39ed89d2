import type { ErrorObject } from 'ajv';
import type { JsonSchema } from './types.js';
/** A compiled argument validator (ajv's shape: returns true, or false with `errors`). */
export type ArgumentValidator = ((data: unknown) => boolean) & {
    errors?: ErrorObject[] | null;
};
/**
 * Registers validators generated ahead of time by ajv's standalone mode, keyed by the schema's
 * `JSON.stringify` text. The runner uses them instead of compiling, so built-in tools validate where
 * `eval` is forbidden (a Content-Security-Policy without `unsafe-eval`).
 */
export declare function registerPrecompiledValidators(validators: Record<string, ArgumentValidator>): void;
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
export declare const AJV_OPTIONS: Readonly<{
    allErrors: true;
    strict: false;
    validateFormats: false;
    coerceTypes: false;
    useDefaults: false;
}>;
/** The JSON Schema dialect a schema is compiled as, which picks ajv's class (`Ajv`, `Ajv2019`, `Ajv2020`). */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';
/**
 * The dialect of `schema`: its `$schema` when that names draft 2020-12 or 2019-09 (as
 * `z.toJSONSchema()` output does), else 2020-12 when it uses a keyword draft-07 does not have
 * (`prefixItems`, `dependentRequired`, `unevaluatedProperties`, ...), else draft-07.
 */
export declare function schemaDialect(schema: JsonSchema): SchemaDialect;
/**
 * Sets where runtime schema compiles come from (default: ajv, resolved by name at run time, which works
 * on Node; a browser bundle has ajv only when it imports `toolhost/ajv`, whose `useAjv()` calls this).
 * `load` is asked once per dialect (ajv has one class per dialect: `Ajv`, `Ajv2019`, `Ajv2020`).
 */
export declare function provideSchemaCompiler(load: (dialect: SchemaDialect) => Promise<SchemaCompiler>): void;
/** Parses a tool's `parameters` (object or JSON string); throws a TypeError naming the tool when it is not a JSON object. */
export declare function parseSchema(toolName: string, parameters: JsonSchema | string, what?: string): JsonSchema;
/**
 * `schema` without its annotations (`title`, `description`, `examples`, `$comment`, `default`,
 * `deprecated`, `readOnly`, `writeOnly`) at any depth of subschemas: what ajv validates, with the same
 * results and errors (the schema paths do not change). Property names, `enum` and `const` values and
 * unknown keywords are kept verbatim. Returns a copy.
 */
export declare function stripAnnotations(schema: JsonSchema): JsonSchema;
/**
 * The key of the built-in tools' generated validators: 16 hex digits, two independent 32-bit lanes
 * (FNV-1a's prime from its offset basis, and the golden-ratio multiplier) over
 * `JSON.stringify(stripAnnotations(schema))`, so rewording a description needs no new validator and
 * the lookup needs no hashing library. scripts/build-validators.mjs computes it with this function and
 * refuses two schemas with one key; a schema of the app's own that lands on a built-in's key is told
 * apart by {@link validatorCheck}.
 */
export declare function validatorKey(schema: JsonSchema): string;
/**
 * The check stored beside each generated validator: `<length of the key text>:<8 hex digits>`, a
 * third 32-bit lane (its own seed and multiplier) over the same text as {@link validatorKey}. A
 * validator is used for a schema only when both its key and its check match.
 */
export declare function validatorCheck(schema: JsonSchema): string;
/**
 * The validator for `schema` that needs no compiling: one registered with
 * {@link registerPrecompiledValidators}, else the built-in tools' validator generated at build time
 * (src/tools/generated/validators.js, keyed by {@link validatorKey} and confirmed by
 * {@link validatorCheck}, so a schema whose key collides with a built-in's is compiled, never given
 * the built-in's validator; regenerate with `npm run gen:validators`); `undefined` when neither has it.
 */
export declare function precompiledValidator(schema: JsonSchema): ArgumentValidator | undefined;
/**
 * Returns the validator for `schema`: the {@link precompiledValidator} when there is one, else one
 * compiled with ajv (loaded on the first such compile) in the schema's {@link schemaDialect}.
 * Rejects with a TypeError naming the tool (a host's mistake, never the model's) when ajv rejects the
 * schema itself, when no compiler can be loaded, or when compiling is forbidden because the
 * environment blocks code generation from strings (a CSP without `'unsafe-eval'`); the message then
 * says how to precompile the schema.
 */
export declare function compileValidator(toolName: string, schema: JsonSchema, what?: string): Promise<ArgumentValidator>;
/**
 * The model's common slip, numbers and booleans sent as strings (`"50"`, `"true"`), converted where the
 * schema asks for a number, integer or boolean, at any depth of declared properties and items. Nothing
 * else is coerced. Returns `args` itself when nothing changed, never mutates it.
 */
export declare function coerceArguments(args: unknown, schema: JsonSchema): unknown;
/**
 * One readable sentence from ajv's errors, naming each offending argument: `/end_line must be integer`,
 * `missing required argument "city"`, `unknown argument "foo"; allowed: city, units`. At most 5 problems;
 * names and pointers the model sent are cut at 200 characters (`clipForMessage`).
 */
export declare function formatValidationErrors(errors: readonly ErrorObject[], schema: JsonSchema): string;
