/**
 * toolhost/mcp: a ToolHost's tools as an MCP server, and a remote MCP server's tools as toolhost tools,
 * on the official MCP TypeScript SDK (`@modelcontextprotocol/server` and `/client`, optional peer
 * dependencies). Web-standard: runs in browsers, workers and Node. Streamable HTTP on node:http is in
 * `toolhost/mcp/node`.
 */
export { createMcpServer, createMcpPermissionPrompt, toCallToolResult, type CreateMcpServerOptions, type McpPermissionPrompt } from './server.js';
export { mcpTools, type McpTools, type McpToolsOptions, type ToolRegistry } from './client.js';
export { MessagePortTransport } from './message-port.js';
