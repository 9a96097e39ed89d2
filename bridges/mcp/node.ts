/**
 * toolhost/mcp/node: Node-only MCP transports: Streamable HTTP on node:http ({@link serveMcpHttp}) and
 * the SDK's stdio server transport, re-exported beside everything of toolhost/mcp.
 */
export * from './index.js';
export { serveMcpHttp, type ServeMcpHttpOptions, type McpHttpEndpoint } from './node-http.js';
export { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
