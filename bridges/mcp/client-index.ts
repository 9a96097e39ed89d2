/**
 * toolhost/mcp/client: a remote MCP server's tools as toolhost tools ({@link mcpTools}), on the
 * official MCP TypeScript SDK's client (`@modelcontextprotocol/client`, an optional peer dependency:
 * `npm install @modelcontextprotocol/client`). Web-standard: runs in browsers, workers and Node.
 * {@link MessagePortTransport} connects to a server in another worker or frame.
 */
export { mcpTools, type McpToolsOptions } from './client.js';
export { MessagePortTransport } from './message-port.js';
