/**
 * Standard Schema v1 (https://standardschema.dev), the interface zod 4, valibot and arktype share:
 * a schema value carries `~standard` with `validate(value)` and, where the library implements
 * Standard JSON Schema, `jsonSchema.input({ target })`. Written here from the public specification, so
 * toolhost needs no schema library at runtime: everything is reached through the schema value itself.
 */
import type { JsonSchema } from './types.js';
/** One problem a Standard Schema found: a message and, when it concerns a field, its path. */
export interface StandardSchemaIssue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | {
        readonly key: PropertyKey;
    }> | undefined;
}
/** The result of a Standard Schema's `validate`: the parsed value, or issues. */
export type StandardSchemaResult<Output> = {
    readonly value: Output;
    readonly issues?: undefined;
} | {
    readonly issues: ReadonlyArray<StandardSchemaIssue>;
};
/** The Standard JSON Schema converter (`~standard.jsonSchema`), where the library offers one. */
export interface StandardJsonSchemaConverter {
    readonly input: (options: {
        readonly target: string;
        readonly libraryOptions?: Record<string, unknown>;
    }) => Record<string, unknown>;
    readonly output: (options: {
        readonly target: string;
        readonly libraryOptions?: Record<string, unknown>;
    }) => Record<string, unknown>;
}
/** The `~standard` member of a Standard Schema v1 value. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown, options?: {
        readonly libraryOptions?: Record<string, unknown>;
    } | undefined) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    readonly types?: {
        readonly input: Input;
        readonly output: Output;
    } | undefined;
    readonly jsonSchema?: StandardJsonSchemaConverter;
}
/** A Standard Schema v1 value: a zod 4 schema, a valibot schema, an arktype type, ... */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
    readonly '~standard': StandardSchemaProps<Input, Output>;
}
/** The type a Standard Schema's `validate` produces (after transforms): zod's `z.output<S>`. */
export type StandardSchemaOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : unknown;
/** True for a Standard Schema v1 value (an object or, as arktype's types are, a function, with `~standard.validate`). */
export declare function isStandardSchema(value: unknown): value is StandardSchemaV1;
/**
 * The JSON Schema a model is shown for a Standard Schema: the library's own Standard JSON Schema
 * conversion (`~standard.jsonSchema.input`, draft-07: what model APIs read; zod 4 has it, valibot's
 * `toStandardJsonSchema(schema)` adds it), else `explicit` (the tool's `jsonSchema`, e.g. valibot's
 * `toJsonSchema(schema)`). The `$schema` keyword is dropped (model APIs do not want it). For zod, every
 * object that says nothing about extra keys gets `additionalProperties: false` (a `z.object` strips
 * them, so the model is told they are not accepted); a `z.looseObject` keeps `additionalProperties: {}`.
 * Throws a TypeError naming the tool when neither is available or the conversion fails.
 */
export declare function jsonSchemaOfStandard(toolName: string, schema: StandardSchemaV1, explicit: object | undefined, io?: 'input' | 'output'): JsonSchema;
/**
 * One sentence from a Standard Schema's issues, each as `<pointer>: <the library's message>`
 * (`/city: Too small: expected string to have >=2 characters`); at most 5, then `and N more`.
 */
export declare function formatStandardIssues(issues: ReadonlyArray<StandardSchemaIssue>): string;
