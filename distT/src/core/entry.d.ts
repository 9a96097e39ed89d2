import type { ToolAnnotations } from './host.js';
import { type AnyTool, type ToolContext } from './tool.js';
import type { JsonSchema } from './types.js';
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
    /** Whether `run` reads its context (an `execute` tool, a classic `needsContext` tool). */
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
/**
 * Builds the entry of a tool in either shape. Throws a TypeError naming the tool (a host's mistake,
 * never reported as the model's) for a bad name, a missing `execute` / `call`, or a schema that is not
 * a JSON Schema object describing an object, or a Standard Schema that cannot be shown as JSON Schema.
 * A JSON Schema that ajv must compile (no precompiled validator) is compiled by `compile()`.
 */
export declare function createToolEntry(candidate: AnyTool): ToolEntry;
/**
 * `entry` for one call with these parsed arguments: itself, or a view of it whose `readOnly` is the
 * tool's per-call answer where that differs from its hint.
 */
export declare function entryForCall(entry: ToolEntry, input: unknown): ToolEntry;
