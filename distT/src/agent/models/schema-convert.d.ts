import type { JsonSchema } from '../../core/types.js';
/**
 * One change a converter made to a tool's schema: `path` is a JSON Pointer into the original parameters
 * schema (`''` is the root), `keyword` the JSON Schema keyword, `action` what happened to it
 * (`unsupported`: sent unchanged, but the API will refuse it, e.g. a tool name with a dot for OpenAI).
 */
export interface SchemaConversionNote {
    tool: string;
    path: string;
    keyword: string;
    action: 'dropped' | 'converted' | 'unsupported';
    detail: string;
}
/**
 * The OpenAPI 3.0 subset Gemini's `FunctionDeclaration.parameters` (`Schema`) accepts, as documented for
 * generateContent: type (lowercase names; the API also takes `STRING`...), format, title, description,
 * nullable, enum (strings), items, properties, required, propertyOrdering, min/maxItems,
 * min/maxProperties, min/maxLength, pattern, minimum, maximum and anyOf.
 */
export interface GeminiSchema {
    type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';
    format?: string;
    title?: string;
    description?: string;
    nullable?: boolean;
    enum?: string[];
    items?: GeminiSchema;
    properties?: Record<string, GeminiSchema>;
    required?: string[];
    propertyOrdering?: string[];
    minItems?: number;
    maxItems?: number;
    minProperties?: number;
    maxProperties?: number;
    minLength?: number;
    maxLength?: number;
    pattern?: string;
    minimum?: number;
    maximum?: number;
    anyOf?: GeminiSchema[];
}
/**
 * Converts a JSON Schema to the subset Gemini accepts ({@link GeminiSchema}) and lists every change:
 * `additionalProperties`, `$schema`, `default`, `examples` and any other keyword outside the subset are
 * dropped; `const` becomes a one-value `enum` (strings only; other consts are dropped); non-string enum
 * values are dropped; a `type` array becomes `nullable: true` plus its one other type, or its first type
 * when there are several (the rest dropped); `oneOf` becomes `anyOf`; unsupported `format`s are dropped;
 * `required` names that are not properties are dropped. Never throws; the input is not changed.
 */
export declare function toGeminiSchema(schema: JsonSchema, tool?: string): {
    schema: GeminiSchema;
    notes: SchemaConversionNote[];
};
/**
 * A note when `name` is not a valid OpenAI / Anthropic function name (`^[a-zA-Z0-9_-]{1,64}$`: no dots,
 * which toolhost tool names may have); undefined when it is.
 */
export declare function functionNameNote(name: string, api: string): SchemaConversionNote | undefined;
/**
 * Whether OpenAI may run a parameters schema in strict mode (Structured Outputs for function calling):
 * the root is an object, every object lists all its properties in `required` and sets
 * `additionalProperties: false`, at every level, and only keywords strict mode supports are used
 * (`minLength`, `default`, ... are not). `reasons` says why not, one line per problem, with JSON Pointers.
 */
export declare function openAIStrictCompatibility(schema: JsonSchema): {
    strict: boolean;
    reasons: string[];
};
