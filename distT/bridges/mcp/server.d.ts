import { McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import type { ToolHost } from '../../src/core/host.js';
import type { PermissionAnswer, PermissionRequest } from '../../src/core/permissions.js';
import type { ToolCallResult } from '../../src/core/runner.js';
/** Options of {@link createMcpServer}; all optional. */
export interface CreateMcpServerOptions {
    /** Server name in the `initialize` answer (default `'toolhost'`). */
    name?: string;
    /** Server version in the `initialize` answer (default `'0.0.0'`). */
    version?: string;
    /** Text a client may show its model about how to use the tools. */
    instructions?: string;
    /**
     * The conversation every call of this server uses (its tool state and file cache). Default: the
     * transport's session id (Streamable HTTP with sessions), else one id of this server instance, so
     * each client connection has its own state.
     */
    conversation?: string;
    /** Deadline of each call in ms, passed to the host as `timeoutMs` (default: the host's). */
    timeoutMs?: number;
    /**
     * Routes the host's permission prompts to this server's client; create one with
     * {@link createMcpPermissionPrompt} and give its `ask` to the runner's permission rules.
     */
    permissionPrompt?: McpPermissionPrompt;
}
/**
 * Sends a runner's permission `ask` to the MCP client that made the call, as an MCP elicitation
 * (`elicitation/create`, form mode: allow once, allow for the session, or deny). A client that did not
 * declare the elicitation capability (or a call this prompt does not know) is answered with a
 * denial, so the call ends `permission_denied` with a message saying why.
 */
export interface McpPermissionPrompt {
    /** Give this to the runner: `permissions: { allow: [...], ask: prompt.ask }`. Never rejects. */
    ask(request: PermissionRequest): Promise<PermissionAnswer>;
    /** @internal Registers the MCP request behind a call while it runs; returns the unregister function. */
    track(callId: string, ctx: ServerContext, server: McpServer): () => void;
}
/** Builds a {@link McpPermissionPrompt}; one can serve any number of servers (sessions). */
export declare function createMcpPermissionPrompt(): McpPermissionPrompt;
/**
 * The MCP `tools/call` answer for one toolhost result: success = `structuredContent` (the output, or
 * `{ result }` for an output that is not an object) plus a text block with the same JSON (a string
 * output is its own text), and an image block for `view_file`'s inline image; failure = `isError:
 * true` with the text `code: message` and `structuredContent: { error, code }`.
 */
export declare function toCallToolResult(result: ToolCallResult): CallToolResult;
/**
 * Serves a {@link ToolHost}'s tools as an MCP server on the official TypeScript SDK's `McpServer`
 * (`@modelcontextprotocol/server` 2.x: protocol 2025-11-25 and the earlier revisions the SDK
 * negotiates through `initialize`; 2026-07-28 through {@link serveMcpHttp}). Connect the result to one
 * transport (`server.connect(transport)`): stdio, Streamable HTTP ({@link serveMcpHttp} on Node), or a
 * `MessagePort` ({@link MessagePortTransport}); make one server per connection.
 *
 * - `tools/list`: each tool with its `inputSchema` (the host's JSON Schema as it is), `outputSchema`
 *   when declared, annotations (`readOnlyHint` always set) and `title`, in the host's order.
 * - `tools/call`: runs through `host.processToolCalls`, so validation, permissions, plan mode,
 *   timeouts and per-path write order are the host's; see {@link toCallToolResult} for the answer.
 *   Calls sent without waiting keep their order as a model turn's do: a read-only (concurrency-safe)
 *   call runs after the mutating calls sent before it, beside other read-only ones.
 * - Progress: when the request has a `progressToken`, each `ctx.send` message of the call becomes a
 *   `notifications/progress`.
 * - `notifications/cancelled`, and a closed HTTP request stream, abort the call's signal (it ends
 *   `cancelled`).
 * - Permission `ask`: see {@link createMcpPermissionPrompt}.
 *
 * The SDK's `registerTool` takes Standard Schemas with a JSON Schema view; each tool is registered
 * with one that reports the host's JSON Schema and accepts every value, since the host validates.
 * Tools the host registers later are not listed by this server; create a new one.
 * A `host` that is not a ToolHost or a bad option (the host's mistakes) rejects with a TypeError naming
 * it: `createMcpServer: host must be a ToolHost such as new ToolRunner({ tools }), not null`.
 */
export declare function createMcpServer(host: ToolHost, options?: CreateMcpServerOptions): Promise<McpServer>;
