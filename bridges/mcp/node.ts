/**
 * toolhost/mcp/node: the Node-only MCP transports for a server from `createMcpServer`
 * (`toolhost/mcp`): Streamable HTTP on node:http ({@link serveMcpHttp}) and a stdio server transport
 * with bounded, linear line framing ({@link LineStdioServerTransport}, what `toolhost mcp` uses).
 */
export { serveMcpHttp, type ServeMcpHttpOptions } from './node-http.js';
export { LineStdioServerTransport } from './node-stdio.js';
