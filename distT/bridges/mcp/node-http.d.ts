import { type Server as HttpServer } from 'node:http';
import { type McpServer } from '@modelcontextprotocol/server';
/** Options of {@link serveMcpHttp}; all optional. */
export interface ServeMcpHttpOptions {
    /** Address to bind (default `'127.0.0.1'`: only this machine can connect). */
    host?: string;
    /** TCP port; 0 (the default) picks a free one — read it from the returned `url`. */
    port?: number;
    /** URL path of the MCP endpoint (default `'/mcp'`); other paths answer 404. */
    path?: string;
    /**
     * Hostnames (no scheme, no port; `[::1]` for IPv6) whose `Origin` may call the server, against DNS
     * rebinding. Default: localhost, 127.0.0.1 and [::1]. A request without `Origin` (not a browser) passes;
     * any other origin gets 403.
     */
    allowedOrigins?: readonly string[];
    /**
     * Hostnames the `Host` header may name (DNS rebinding). Default: the localhost names when bound to a
     * loopback address, else not checked.
     */
    allowedHosts?: readonly string[];
    /** When set, every request must carry `Authorization: Bearer <token>`; others get 401. */
    bearerToken?: string;
    /**
     * `true` (the default): one MCP session per client (`Mcp-Session-Id`), each with its own server from
     * the factory (so its own conversation). `false`: stateless, a fresh server for every request.
     */
    sessions?: boolean;
}
/** A running {@link serveMcpHttp} endpoint. */
export interface McpHttpEndpoint {
    /** The endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
    readonly url: URL;
    /** The underlying node:http server. */
    readonly server: HttpServer;
    /** Open sessions (sessions mode). */
    sessionCount(): number;
    /** Stops accepting connections, closes every session and resolves when the port is free. */
    close(): Promise<void>;
}
/**
 * Serves MCP over Streamable HTTP on `node:http`, no web framework needed, with the transport's
 * security rules: binds 127.0.0.1 by default, refuses a foreign `Origin` (403) and, on loopback, a
 * foreign `Host` (DNS rebinding), and with `bearerToken` refuses requests without it (401).
 * `createServer` is called once per session (or per request when `sessions: false`) with the request
 * that opens it (its headers can name a conversation); pass `() => createMcpServer(host, options)`.
 *
 * When the client closes a request's response stream before the answer, the requests of that POST
 * are cancelled as if the client had sent `notifications/cancelled` (the tools see their signal abort).
 *
 * Protocol 2025-11-25 (and older) requests are served with sessions as above; 2026-07-28 requests
 * (stateless, found with `server/discover`) go to the SDK's `createMcpHandler`, a fresh server each.
 */
export declare function serveMcpHttp(createServerForSession: (request: Request) => McpServer | Promise<McpServer>, options?: ServeMcpHttpOptions): Promise<McpHttpEndpoint>;
