/**
 * toolhost/mcp: a ToolHost's tools as an MCP server, on the official MCP TypeScript SDK
 * (`@modelcontextprotocol/server`, installed with toolhost). Web-standard: runs in browsers, workers
 * and Node. Streamable HTTP on node:http and stdio are in `toolhost/mcp/node`; a remote MCP server's
 * tools as toolhost tools are in `toolhost/mcp/client` (which needs `@modelcontextprotocol/client`).
 */
export { createMcpServer, createMcpPermissionPrompt, toCallToolResult, type CreateMcpServerOptions } from './server.js';
export { MessagePortTransport } from './message-port.js';
