/**
 * toolhost/mcp/node: Node-only MCP transports: Streamable HTTP on node:http ({@link serveMcpHttp}) and
 * the SDK's stdio server transport and its `serveStdio` entry (both protocol eras on one stdio
 * connection), re-exported beside everything of toolhost/mcp.
 */
export * from './index.js';
export { serveMcpHttp } from './node-http.js';
export { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
//# sourceMappingURL=node.js.map