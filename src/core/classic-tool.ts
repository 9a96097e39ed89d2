/**
 * The one place the classic tool form is understood. A classic {@link Tool} (`parameters`, `call`,
 * `callWithContext` with `needsContext`, `readOnly`) is turned into the `execute` shape
 * ({@link ExecuteTool}) when it is registered; everything after that (the entry, the runner,
 * permissions, plan mode, the bridges, the worker's declarations) reads that one shape.
 */
import type { JsonSchema } from './json.js';
import type { ExecuteTool, Tool, ToolContext } from './tool.js';
import { parseSchema } from './validation.js';

/** A classic tool in the `execute` shape, and whether its `execute` reads the context it is given. */
export interface AdaptedTool {
  readonly tool: ExecuteTool<unknown, unknown> & { readonly inputSchema: JsonSchema };
  /** False for a classic tool without `needsContext` (its `call` takes no context, so none is built for it). */
  readonly usesContext: boolean;
}

/**
 * Turns a classic tool into the `execute` shape, keeping its behaviour: `readOnly` (or a trusted
 * `annotations.readOnlyHint`) becomes `annotations.readOnlyHint`; `concurrencySafe` defaults to it;
 * `callWithContext` runs when `needsContext` is set, else `call`; methods are called on the tool, so a
 * class-based tool keeps its `this`. A JSON-string `parameters` is parsed. Throws a TypeError naming
 * the tool for one with neither `call` nor `callWithContext`, or `parameters` that are not a JSON
 * Schema object.
 */
export function fromClassicTool(name: string, classic: Tool): AdaptedTool {
  if (typeof classic.call !== 'function' && typeof classic.callWithContext !== 'function') {
    throw new TypeError(`tool ${name} has neither execute, call nor callWithContext`);
  }
  const inputSchema = parseSchema(name, classic.parameters);
  const readOnly = classic.readOnly === true || (classic.annotations?.readOnlyHint === true && classic.annotationsTrusted !== false);
  const usesContext = classic.needsContext === true && typeof classic.callWithContext === 'function';
  const decide = classic.isReadOnlyCall;
  const tool: AdaptedTool['tool'] = {
    name: classic.name,
    description: classic.description,
    inputSchema,
    annotations: { ...classic.annotations, readOnlyHint: readOnly },
    concurrencySafe: classic.concurrencySafe ?? readOnly,
    ...(classic.outputSchema === undefined ? {} : { outputSchema: classic.outputSchema }),
    ...(typeof decide === 'function' ? { isReadOnlyCall: (input: unknown) => decide.call(classic, input as never) } : {}),
    execute: usesContext
      ? (input: unknown, ctx: ToolContext) => (classic.callWithContext as NonNullable<Tool['callWithContext']>).call(classic, input, ctx)
      : (input: unknown) => classic.call(input),
  };
  return { tool, usesContext };
}
