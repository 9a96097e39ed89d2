/**
 * toolhost/mcp/node: Node-only MCP transports: Streamable HTTP on node:http ({@link serveMcpHttp}), a
 * stdio server transport with bounded, linear line framing ({@link LineStdioServerTransport}, what
 * `toolhost mcp` uses), and the SDK's own stdio server transport and its `serveStdio` entry (both
 * protocol eras on one stdio connection), re-exported beside everything of toolhost/mcp.
 */
export * from './index.js';
export { serveMcpHttp, isLoopbackHost, MCP_HTTP_DEFAULTS, type ServeMcpHttpOptions, type McpHttpEndpoint } from './node-http.js';
export { LineStdioServerTransport, type LineStdioServerTransportOptions } from './node-stdio.js';
export { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
