// A client's malformed `tools/call` (a tool this server does not have, arguments that are not an
// object) answered in MCP terms with a next step. The SDK's own answers stay as the spec has them
// (JSON-RPC error -32602); only their text changes: "Tool x not found" and a multi-line schema dump
// become one line naming tools/list and the tool's inputSchema.
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import type { ToolInfo } from '../../src/core/host.js';
import { clipForMessage } from '../../src/core/message-text.js';
import { closestName } from '../../src/core/options.js';

type RequestHandler = (request: { params?: unknown }, ctx: unknown) => Promise<unknown>;

/** What a JSON value is, for "not …" in a message. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The -32602 text for a tool this server does not have: `Unknown tool: view_fil: this server has no
 * tool of that name (did you mean view_file?); tools/list lists the tools it has`.
 */
export function unknownToolMessage(name: string, known: readonly string[]): string {
  const near = closestName(name, known);
  const hint = near === undefined ? '' : ` (did you mean ${near}?)`;
  return `Unknown tool: ${clipForMessage(name)}: this server has no tool of that name${hint}; tools/list lists the tools it has`;
}

/** The -32602 text for `tools/call` params the SDK would answer with a schema dump; undefined when they are well formed. */
export function callParamsProblem(params: unknown, tools: ReadonlyMap<string, ToolInfo>): string | undefined {
  if (!isObject(params)) return `tools/call params must be an object { "name": <a tool from tools/list>, "arguments": { ... } }, not ${kindOf(params)}`;
  const { name, arguments: args } = params;
  if (typeof name !== 'string') return `tools/call params.name must be the name of a tool (a string; tools/list lists them), not ${name === undefined ? 'missing' : kindOf(name)}`;
  if (args === undefined || isObject(args)) return undefined;
  const tool = tools.get(name);
  const whose = tool === undefined ? "the tool's" : `${tool.name}'s`;
  const example = Object.keys(tool?.parameters.properties ?? {})[0];
  const shown = example === undefined ? '' : ` (e.g. { "${example}": ... })`;
  return `tools/call arguments must be a JSON object of ${whose} arguments by name, as its inputSchema in tools/list describes${shown}, not ${kindOf(args)}`;
}

/** `handler` (the SDK's `tools/call`) with the client's mistakes answered as {@link callParamsProblem} and {@link unknownToolMessage} say. */
function explained(handler: RequestHandler, tools: ReadonlyMap<string, ToolInfo>): RequestHandler {
  return async (request, ctx) => {
    const problem = callParamsProblem(request.params, tools);
    if (problem !== undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, problem);
    try {
      return await handler(request, ctx);
    } catch (error) {
      const name = (request.params as { name: string }).name;
      // The SDK throws -32602 for a call it cannot route (every other failure is a tool result).
      if (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams && !tools.has(name) && / not found$/.test(error.message)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownToolMessage(name, [...tools.keys()]));
      }
      throw error;
    }
  };
}

/**
 * Words the client mistakes of `server`'s `tools/call` for a client to act on (see
 * {@link callParamsProblem} and {@link unknownToolMessage}), keeping the SDK's error codes. Call it
 * before the first `registerTool`: it hooks the SDK's handler wrapping (`Server._wrapHandler`, the
 * SDK's documented hook for wrapping registered handlers); an SDK without that hook keeps its own texts.
 */
export function explainCallMistakes(server: McpServer, tools: readonly ToolInfo[]): void {
  const inner = server.server as unknown as { _wrapHandler?: (method: string, handler: RequestHandler) => RequestHandler };
  const base = inner._wrapHandler;
  if (typeof base !== 'function') return;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  inner._wrapHandler = (method, handler) => {
    const wrapped = base.call(inner, method, handler);
    return method === 'tools/call' ? explained(wrapped, byName) : wrapped;
  };
}
