import { createServer } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, createMcpHandler, isLegacyRequest, hostHeaderValidationResponse, localhostAllowedHostnames, localhostAllowedOrigins, originValidationResponse, } from '@modelcontextprotocol/server';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
function sameToken(given, expected) {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
}
function jsonError(status, message) {
    return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
        status,
        headers: { 'content-type': 'application/json' },
    });
}
async function readBody(req, limit) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        const buffer = chunk;
        size += buffer.length;
        if (size > limit)
            return undefined;
        chunks.push(buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
}
function toWebRequest(req, url, body) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined)
            continue;
        if (Array.isArray(value))
            for (const item of value)
                headers.append(name, item);
        else
            headers.set(name, value);
    }
    return new Request(url, { method: req.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
}
/** Writes a web Response to a node:http response; resolves when it is sent or the client went away. */
async function writeResponse(response, res, onClientGone) {
    const headers = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    res.writeHead(response.status, headers);
    if (!response.body) {
        res.end();
        return;
    }
    const reader = response.body.getReader();
    let gone = false;
    const onClose = () => {
        if (res.writableFinished)
            return;
        gone = true;
        onClientGone();
        reader.cancel().catch(() => undefined);
    };
    res.on('close', onClose);
    try {
        for (;;) {
            const { done, value } = await reader.read();
            if (done || gone)
                break;
            if (!res.write(value))
                await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
        }
    }
    catch {
        // the stream failed or was cancelled: end the response below
    }
    finally {
        res.off('close', onClose);
        if (!gone)
            res.end();
    }
}
/** JSON-RPC request ids in a POST body (one message or a batch). */
function requestIds(parsed) {
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    const ids = [];
    for (const message of messages) {
        if (typeof message !== 'object' || message === null)
            continue;
        const { id, method } = message;
        if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number'))
            ids.push(id);
    }
    return ids;
}
const MAX_BODY = 4 * 1024 * 1024;
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
export async function serveMcpHttp(createServerForSession, options = {}) {
    const bindHost = options.host ?? '127.0.0.1';
    const path = options.path ?? '/mcp';
    const origins = [...(options.allowedOrigins ?? localhostAllowedOrigins())];
    const hosts = options.allowedHosts ? [...options.allowedHosts] : LOOPBACK.has(bindHost) ? localhostAllowedHostnames() : undefined;
    const useSessions = options.sessions ?? true;
    const sessions = new Map();
    const stateless = new Set();
    // Protocol 2026-07-28 is stateless: the SDK's own entry answers each such request with a fresh server.
    const modern = createMcpHandler((ctx) => createServerForSession(ctx.requestInfo ?? new Request('http://localhost/')), { legacy: 'reject' });
    const answer = async (req, res) => {
        const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
        if (url.pathname !== path) {
            await writeResponse(jsonError(404, `no MCP endpoint at ${url.pathname}; use ${path}`), res, () => undefined);
            return;
        }
        const method = req.method ?? 'GET';
        const body = method === 'POST' ? await readBody(req, MAX_BODY) : undefined;
        if (method === 'POST' && body === undefined) {
            await writeResponse(jsonError(413, `the request body is larger than ${MAX_BODY} bytes`), res, () => undefined);
            return;
        }
        const request = toWebRequest(req, url, body);
        const refused = originValidationResponse(request, origins) ??
            (hosts ? hostHeaderValidationResponse(request, hosts) : undefined) ??
            (options.bearerToken !== undefined && !sameToken(req.headers.authorization ?? '', `Bearer ${options.bearerToken}`)
                ? jsonError(401, 'this MCP server needs Authorization: Bearer <token>')
                : undefined);
        if (refused) {
            await writeResponse(refused, res, () => undefined);
            return;
        }
        let parsed;
        if (body !== undefined) {
            try {
                parsed = JSON.parse(body);
            }
            catch {
                await writeResponse(new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON' }, id: null }), { status: 400, headers: { 'content-type': 'application/json' } }), res, () => undefined);
                return;
            }
        }
        if (!(await isLegacyRequest(request, parsed))) {
            await writeResponse(await modern.fetch(request, body === undefined ? {} : { parsedBody: parsed }), res, () => undefined);
            return;
        }
        let session;
        const sessionId = req.headers['mcp-session-id'];
        if (useSessions && typeof sessionId === 'string') {
            session = sessions.get(sessionId);
            if (!session) {
                await writeResponse(jsonError(404, `unknown MCP session ${sessionId.slice(0, 80)}; initialize a new one`), res, () => undefined);
                return;
            }
        }
        else {
            const server = await createServerForSession(request);
            const transport = new WebStandardStreamableHTTPServerTransport(useSessions
                ? {
                    sessionIdGenerator: () => crypto.randomUUID(),
                    onsessioninitialized: (id) => {
                        sessions.set(id, created);
                    },
                    onsessionclosed: (id) => {
                        sessions.delete(id);
                    },
                }
                : {});
            const created = { transport, server };
            session = created;
            transport.onclose = () => {
                if (transport.sessionId !== undefined)
                    sessions.delete(transport.sessionId);
            };
            await server.connect(transport);
            if (!useSessions)
                stateless.add(created);
        }
        const current = session;
        const ids = requestIds(parsed);
        const response = await current.transport.handleRequest(request, body === undefined ? {} : { parsedBody: parsed });
        await writeResponse(response, res, () => {
            for (const requestId of ids) {
                current.transport.onmessage?.({
                    jsonrpc: '2.0',
                    method: 'notifications/cancelled',
                    params: { requestId, reason: 'the client closed the request stream' },
                });
            }
        });
        if (!useSessions) {
            stateless.delete(current);
            await current.server.close();
        }
    };
    const http = createServer((req, res) => {
        answer(req, res).catch((error) => {
            if (!res.headersSent)
                res.writeHead(500, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `internal error: ${error.message}` }, id: null }));
        });
    });
    await new Promise((resolve, reject) => {
        http.once('error', reject);
        http.listen(options.port ?? 0, bindHost, () => {
            http.off('error', reject);
            resolve();
        });
    });
    const address = http.address();
    const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
    const hostForUrl = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
    const url = new URL(`http://${hostForUrl}:${port}${path}`);
    return {
        url,
        server: http,
        sessionCount: () => sessions.size,
        async close() {
            const closing = new Promise((resolve) => http.close(() => resolve()));
            http.closeAllConnections();
            const open = [...sessions.values(), ...stateless];
            sessions.clear();
            stateless.clear();
            await Promise.all(open.map((s) => s.server.close().catch(() => undefined)));
            await modern.close();
            await closing;
        },
    };
}
//# sourceMappingURL=node-http.js.map