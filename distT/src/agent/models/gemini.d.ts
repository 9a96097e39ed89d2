import type { FunctionDeclaration, ToolCallResult } from '../../core/runner.js';
import { type GeminiSchema, type SchemaConversionNote } from './schema-convert.js';
import { type HttpModelOptions, type Model, type ModelMessage, type ModelToolCall } from './types.js';
/** A Gemini `FunctionDeclaration` (generateContent `tools[].functionDeclarations[]`). */
export interface GeminiFunctionDeclaration {
    name: string;
    description: string;
    /** Absent for a tool without parameters (Gemini refuses an object schema with no properties). */
    parameters?: GeminiSchema;
}
/** A Gemini `functionCall` part's payload. `id` is set by some Gemini deployments, absent on most. */
export interface GeminiFunctionCall {
    id?: string;
    name: string;
    args?: Record<string, unknown>;
}
/** A Gemini content part (the members toolhost reads or writes). */
export interface GeminiPart {
    text?: string;
    thought?: boolean;
    thoughtSignature?: string;
    functionCall?: GeminiFunctionCall;
    functionResponse?: {
        id?: string;
        name: string;
        response: Record<string, unknown>;
    };
    [key: string]: unknown;
}
/** A Gemini `Content`: a role and its parts. */
export interface GeminiContent {
    role: 'user' | 'model';
    parts: GeminiPart[];
}
/**
 * Runner declarations → Gemini `functionDeclarations`, converting each parameters schema with
 * {@link toGeminiSchema}. `notes` lists everything dropped or converted, per tool and JSON Pointer path;
 * a tool whose parameters have no properties gets no `parameters` (noted), as Gemini rejects an empty
 * object schema. Wrap as `tools: [{ functionDeclarations }]` in a generateContent request.
 */
export declare function toGeminiFunctionDeclarations(declarations: readonly FunctionDeclaration[]): {
    functionDeclarations: GeminiFunctionDeclaration[];
    notes: SchemaConversionNote[];
};
/**
 * Gemini `functionCall` parts → {@link ModelToolCall}s, in part order. The part's `id` is kept; where there
 * is none an id is generated (`generatedId: true`, so {@link toGeminiFunctionResponses} leaves it out).
 * `args` that are not an object are a parse failure (`argumentsError`), answered with `invalid_arguments`.
 */
export declare function fromGeminiFunctionCalls(parts: readonly GeminiPart[]): ModelToolCall[];
/**
 * {@link ToolCallResult}s → Gemini `functionResponse` parts, in order: `{ name, response: { result } }` on
 * success, `{ name, response: { error, code } }` on failure, with the call's `id` unless it is listed in
 * `generatedIds` (ids toolhost made up; Gemini never saw them). Send them as one `user` content.
 */
export declare function toGeminiFunctionResponses(results: readonly ToolCallResult[], generatedIds?: ReadonlySet<string>): GeminiPart[];
/**
 * A provider-neutral history → Gemini `contents`. Model turns replay their original parts (thought
 * signatures included) when they came from Gemini; consecutive contents of one role are merged; empty
 * model turns are left out.
 */
export declare function toGeminiContents(messages: readonly ModelMessage[]): GeminiContent[];
/** Options of {@link geminiModel}. */
export interface GeminiModelOptions extends HttpModelOptions {
    /** Sent as `x-goog-api-key`. */
    apiKey: string;
    /** Default `https://generativelanguage.googleapis.com`. */
    baseUrl?: string;
}
/**
 * A {@link Model} over Gemini's generateContent REST API: POST
 * `{baseUrl}/v1beta/models/{model}:generateContent` with the key in `x-goog-api-key`, tools as
 * `functionDeclarations` ({@link toGeminiFunctionDeclarations}), results as `functionResponse` parts.
 * Text is the candidate's non-thought text parts joined; usage from `usageMetadata`. Retries and errors
 * as {@link postJson} (`Gemini API error 400: API key not valid...`); a response without candidates is
 * `invalid_response`, naming the block reason when there is one.
 */
export declare function geminiModel(options: GeminiModelOptions): Model;
