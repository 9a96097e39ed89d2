import { Client, type Transport } from '@modelcontextprotocol/client';
import type { Tool } from '../../src/core/tool.js';
/** Where {@link mcpTools} registers tools and re-registers them when the server's list changes (a `ToolRunner`). */
export interface ToolRegistry {
    register(tool: Tool): Promise<void> | void;
    unregister(name: string): boolean;
}
/** Options of {@link mcpTools}; all optional. */
export interface McpToolsOptions {
    /** Put before each remote tool's name, e.g. `'docs.'` (default none). */
    prefix?: string;
    /**
     * Registers the tools here at once and keeps them in step with the server: on
     * `notifications/tools/list_changed` the list is fetched again, removed tools are unregistered and
     * new or changed ones registered.
     */
    registry?: ToolRegistry;
    /** Client name and version when `mcpTools` makes the client (default `toolhost` / `0.0.0`). */
    clientInfo?: {
        name: string;
        version: string;
    };
}
/** What {@link mcpTools} returns. */
export interface McpTools {
    /** The connected client (the one given, or the one made for the transport). */
    readonly client: Client;
    /** The remote tools as toolhost tools, in the server's order. */
    tools(): Tool[];
    /** Fetches the list again (and updates the registry, if any); resolves with the new tools. */
    refresh(): Promise<Tool[]>;
    /** Closes the client when `mcpTools` made it; stops following list changes either way. */
    close(): Promise<void>;
}
/**
 * Turns a remote MCP server's tools into toolhost tools, so a runner hosts them beside the built-ins
 * with its own permissions, timeouts and batching. Takes a connected SDK `Client`, or a `Transport`
 * to connect one to (stdio, Streamable HTTP — also in the browser —, or a {@link MessagePortTransport}).
 *
 * - `readOnlyHint: true` → `readOnly` and concurrency-safe; other annotations are kept.
 * - `isError: true` → a `ToolError`: the code from a toolhost server's `structuredContent` or
 *   `code: message` text, else `execution_failed` with the server's text; a failed request is `unavailable`.
 * - The call's signal (cancel, timeout) aborts the request: the SDK sends `notifications/cancelled`.
 * - Progress notifications reach `ctx.send` as `{ progress, total?, message? }`.
 * - With `registry`, list changes are followed (see {@link McpToolsOptions.registry}).
 *
 * A `source` that is neither a Client nor a Transport, or a bad option (the host's mistakes), rejects
 * with a TypeError naming it: `mcpTools: source must be an MCP Client or Transport (stdio, Streamable
 * HTTP, MessagePortTransport), not null`.
 */
export declare function mcpTools(source: Client | Transport, options?: McpToolsOptions): Promise<McpTools>;
