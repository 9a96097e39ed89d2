import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
  type McpServer,
} from '@modelcontextprotocol/server';
import { checkOptions, is, rule, type OptionRules } from '../../src/core/options.js';

/** Options of {@link serveMcpHttp}; all optional. */
export interface ServeMcpHttpOptions {
  /**
   * Address to bind (default `'127.0.0.1'`: only this machine can connect). An address that is not
   * loopback (`0.0.0.0`, a LAN address, a name) needs `bearerToken`, or `allowUnauthenticated: true`.
   */
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
   * loopback address, else not checked. A request with no or an empty `Host` always gets 403.
   */
  allowedHosts?: readonly string[];
  /**
   * When set, every request must carry `Authorization: Bearer <token>` (the scheme in any case, as
   * RFC 7235 has it); others get 401 with `WWW-Authenticate: Bearer`.
   */
  bearerToken?: string;
  /** Serve a non-loopback `host` without `bearerToken` (something in front must authenticate). Default false. */
  allowUnauthenticated?: boolean;
  /**
   * `true` (the default): one MCP session per client (`Mcp-Session-Id`), each with its own server from
   * the factory (so its own conversation). `false`: stateless, a fresh server for every request.
   */
  sessions?: boolean;
  /**
   * Most sessions open at once (default 100). A new session at the cap closes the session idle the
   * longest (its client gets 404 on its next request and initializes again); when every session has a
   * request running, the new one gets 503 with `Retry-After`.
   */
  maxSessions?: number;
  /** A session without a request for this long, in ms, is closed (default 1,800,000: 30 minutes). */
  sessionIdleMs?: number;
  /** Most bytes of one request body (default 4 MiB); a larger one gets 413, unread past the cap. */
  maxBodyBytes?: number;
  /**
   * Most bytes of request bodies received at once, over all requests (default 64 MiB); a request that
   * would pass it gets 503 with `Retry-After` and its connection is closed.
   */
  maxBodyBytesInFlight?: number;
}

/** The checks of {@link ServeMcpHttpOptions}. */
const SERVE_RULES: OptionRules = {
  host: is.nonEmptyString,
  port: rule('an integer from 0 to 65535', (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535),
  path: is.nonEmptyString,
  allowedOrigins: is.arrayOf(is.string, 'an array of hostnames'),
  allowedHosts: is.arrayOf(is.string, 'an array of hostnames'),
  bearerToken: is.nonEmptyString,
  allowUnauthenticated: is.boolean,
  sessions: is.boolean,
  maxSessions: is.positiveInteger,
  sessionIdleMs: is.positiveMs,
  maxBodyBytes: is.positiveInteger,
  maxBodyBytesInFlight: is.positiveInteger,
};

/** Defaults of {@link ServeMcpHttpOptions}. */
export const MCP_HTTP_DEFAULTS = {
  maxSessions: 100,
  sessionIdleMs: 30 * 60 * 1000,
  maxBodyBytes: 4 * 1024 * 1024,
  maxBodyBytesInFlight: 64 * 1024 * 1024,
} as const;

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

/** One MCP session (or, stateless, one request's server). */
interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  /** POST requests of this session still being answered. */
  busy: number;
  /** `performance.now()` when its last request ended (or it opened). */
  lastUsed: number;
}

/**
 * Whether `host` (a bind address or hostname) is loopback only: `localhost`, `127.0.0.0/8`, `::1`
 * (bracketed or not) or `::ffff:127.x.y.z`. `0.0.0.0` and `::` (every interface) are not.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** The credentials of an `Authorization: Bearer <token>` header, the scheme matched in any case (RFC 7235). */
function bearerOf(header: string | undefined): string | undefined {
  const match = /^bearer +(.*?) *$/i.exec(header ?? '');
  return match ? match[1] : undefined;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function jsonError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** What the header checks need. */
interface HeaderRules {
  origins: string[];
  hosts: string[] | undefined;
  token: string | undefined;
}

/**
 * The refusal of a request by its headers alone (before any body is read): no or an empty `Host`,
 * a `Host` not allowed (DNS rebinding), a foreign `Origin` (403), a missing or wrong bearer token (401).
 */
function refusalByHeaders(req: IncomingMessage, rules: HeaderRules): Response | undefined {
  const host = req.headers.host;
  if (host === undefined || host.trim() === '') {
    return jsonError(403, 'the request has no Host header (or an empty one); send the host and port you connect to, e.g. Host: 127.0.0.1:8765');
  }
  if (rules.hosts) {
    const checked = validateHostHeader(host, rules.hosts);
    if (!checked.ok) return jsonError(403, `${checked.message}; this server answers only for ${rules.hosts.join(', ')}`);
  }
  const origin = validateOriginHeader(req.headers.origin, rules.origins);
  if (!origin.ok) return jsonError(403, `${origin.message}; this server takes browser requests only from ${rules.origins.join(', ')}`);
  if (rules.token !== undefined) {
    const given = bearerOf(req.headers.authorization);
    if (given === undefined || !sameToken(given, rules.token)) {
      return jsonError(401, 'this MCP server needs Authorization: Bearer <token>', { 'www-authenticate': 'Bearer' });
    }
  }
  return undefined;
}

/** Bytes of request bodies being received at once, against a cap. */
class BodyBudget {
  #used = 0;
  constructor(readonly limit: number) {}
  /** Takes `bytes` from the budget; false (nothing taken) when that would pass the cap. */
  take(bytes: number): boolean {
    if (this.#used + bytes > this.limit) return false;
    this.#used += bytes;
    return true;
  }
  give(bytes: number): void {
    this.#used -= bytes;
  }
}

/** A request body, or the answer that refuses it (the rest of it is then never read). */
type BodyRead = { body: string } | { refused: Response };

/**
 * Reads a request body of at most `max` bytes, holding its bytes in `budget` while they are received
 * (the declared `Content-Length` at once, else chunk by chunk); 413 past `max`, 503 past the budget.
 */
async function readBody(req: IncomingMessage, max: number, budget: BodyBudget): Promise<BodyRead> {
  const tooLarge = (): BodyRead => ({ refused: jsonError(413, `the request body is larger than ${max} bytes; send smaller messages`) });
  const busy = (): BodyRead => ({
    refused: jsonError(503, `the server is receiving ${budget.limit} bytes of request bodies at once, its cap; retry shortly`, { 'retry-after': '1' }),
  });
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > max) return tooLarge();
  let held = 0;
  if (Number.isSafeInteger(declared) && declared > 0) {
    if (!budget.take(declared)) return busy();
    held = declared;
  }
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > max) return tooLarge();
      if (size > held) {
        if (!budget.take(size - held)) return busy();
        held = size;
      }
      chunks.push(buffer);
    }
    return { body: Buffer.concat(chunks, size).toString('utf8') };
  } finally {
    budget.give(held);
  }
}

/** The request's URL on this server (`Host` names it; a Host that is no URL authority gives localhost). */
function requestUrl(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    return new URL(req.url ?? '/', 'http://localhost');
  }
}

function toWebRequest(req: IncomingMessage, url: URL, body: string | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return new Request(url, { method: req.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
}

/** Writes a web Response to a node:http response; resolves when it is sent or the client went away. */
async function writeResponse(response: Response, res: ServerResponse, onClientGone: () => void = () => undefined): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  let gone = false;
  const onClose = (): void => {
    if (res.writableFinished) return;
    gone = true;
    onClientGone();
    reader.cancel().catch(() => undefined);
  };
  res.on('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
    }
  } catch {
    // the stream failed or was cancelled: end the response below
  } finally {
    res.off('close', onClose);
    if (!gone) res.end();
  }
}

/** How long a connection may go on sending the body of a refused request, in ms, before it is closed. */
const REFUSED_BODY_LINGER_MS = 5000;
/** Bytes of a refused request's body read and dropped (so a small one leaves the connection reusable). */
const REFUSED_BODY_DISCARD_BYTES = 64 * 1024;

/**
 * Answers a request refused before (all of) its body was read. Up to `REFUSED_BODY_DISCARD_BYTES` more
 * of the body are read and dropped, so a small body ends and the connection can serve the next request;
 * past that the body is left unread (TCP holds the sender back) and the connection is closed
 * `REFUSED_BODY_LINGER_MS` after the answer unless the body ended. (Closing at once, with unread
 * bytes, resets the connection, and the client could lose the answer.)
 */
async function writeRefusal(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  if (!req.complete) dropRestOfBody(req);
  await writeResponse(response, res);
}

function dropRestOfBody(req: IncomingMessage): void {
  const socket = req.socket;
  const timer = setTimeout(() => socket.destroy(), REFUSED_BODY_LINGER_MS);
  timer.unref();
  let dropped = 0;
  const onData = (chunk: Buffer): void => {
    dropped += chunk.length;
    if (dropped <= REFUSED_BODY_DISCARD_BYTES) return;
    req.off('data', onData);
    req.pause();
  };
  req.on('data', onData);
  req.once('end', () => clearTimeout(timer));
  socket.once('close', () => clearTimeout(timer));
}

/** JSON-RPC request ids in a POST body (one message or a batch). */
function requestIds(parsed: unknown): (string | number)[] {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const ids: (string | number)[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/** Whether a POST body (one message or a batch) holds an `initialize` request. */
function hasInitialize(parsed: unknown): boolean {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages.some((message) => typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'initialize');
}

/**
 * The open sessions, with a cap and an idle expiry: a sweep closes sessions idle for `idleMs`; room for
 * a new one at the cap is made by closing the one idle the longest.
 */
class SessionTable {
  readonly byId = new Map<string, Session>();
  /** New sessions being opened (their initialize request is being answered). */
  #opening = 0;
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(
    readonly max: number,
    readonly idleMs: number,
  ) {
    this.#timer = setInterval(() => void this.sweep(), Math.min(Math.max(idleMs / 4, 10), 60_000));
    this.#timer.unref();
  }

  /** Reserves room for a new session; false when every open session is busy at the cap. */
  async reserve(): Promise<boolean> {
    while (this.byId.size + this.#opening >= this.max) {
      const oldest = this.#longestIdle();
      if (!oldest) return false;
      await this.close(oldest[0], oldest[1]);
    }
    this.#opening += 1;
    return true;
  }

  /** Ends a reservation of {@link reserve} (the session is in `byId` by now, or was never opened). */
  release(): void {
    this.#opening -= 1;
  }

  #longestIdle(): [string, Session] | undefined {
    let found: [string, Session] | undefined;
    for (const entry of this.byId) {
      if (entry[1].busy === 0 && (!found || entry[1].lastUsed < found[1].lastUsed)) found = entry;
    }
    return found;
  }

  /** Closes the sessions idle for `idleMs` or more. */
  async sweep(): Promise<void> {
    const now = performance.now();
    const expired = [...this.byId].filter(([, session]) => session.busy === 0 && now - session.lastUsed >= this.idleMs);
    await Promise.all(expired.map(([id, session]) => this.close(id, session)));
  }

  async close(id: string, session: Session): Promise<void> {
    this.byId.delete(id);
    await session.server.close().catch(() => undefined);
  }

  /** Stops the sweep and closes every session. */
  async closeAll(): Promise<void> {
    clearInterval(this.#timer);
    const open = [...this.byId];
    this.byId.clear();
    await Promise.all(open.map(([, session]) => session.server.close().catch(() => undefined)));
  }
}

/**
 * Runs `answer` for a session, marking it used at the start and the end. A POST (calls being answered)
 * also holds the session busy, so it is neither expired nor evicted meanwhile; a GET (the standalone
 * event stream a client may keep open) does not, or an idle client holding one would never expire.
 */
async function whileUsed(session: Session, method: string, answer: () => Promise<void>): Promise<void> {
  const holds = method === 'POST';
  if (holds) session.busy += 1;
  session.lastUsed = performance.now();
  try {
    await answer();
  } finally {
    if (holds) session.busy -= 1;
    session.lastUsed = performance.now();
  }
}

/** Checks the options and says what is missing for a non-loopback bind. */
function checkServeOptions(options: ServeMcpHttpOptions): void {
  checkOptions('serveMcpHttp', options, SERVE_RULES);
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && options.bearerToken === undefined && options.allowUnauthenticated !== true) {
    throw new TypeError(
      `serveMcpHttp: host ${host} is reachable from other machines and no bearerToken is set, so anyone there could run the tools; ` +
        'set bearerToken, bind 127.0.0.1, or pass allowUnauthenticated: true when something in front authenticates',
    );
  }
}

/** What one {@link serveMcpHttp} endpoint answers with. */
interface Serving {
  create: (request: Request) => McpServer | Promise<McpServer>;
  path: string;
  rules: HeaderRules;
  maxBody: number;
  budget: BodyBudget;
  useSessions: boolean;
  sessions: SessionTable;
  /** Servers of stateless requests being answered. */
  stateless: Set<Session>;
  /** The SDK's handler of 2026-07-28 requests. */
  modern: ReturnType<typeof createMcpHandler>;
}

/**
 * Opens a session (or a stateless server) for a request without a session id; undefined when refused
 * (answered). Only an `initialize` takes room among the sessions (its reservation ends with `release`).
 */
async function openSession(s: Serving, request: Request, res: ServerResponse, initializing: boolean): Promise<Session | undefined> {
  if (initializing && !(await s.sessions.reserve())) {
    await writeResponse(
      jsonError(503, `this MCP server has its ${s.sessions.max} sessions open, each answering a request; retry shortly, or end sessions you no longer use (DELETE)`, { 'retry-after': '5' }),
      res,
    );
    return undefined;
  }
  try {
    const server = await s.create(request);
    const transport = new WebStandardStreamableHTTPServerTransport(
      s.useSessions
        ? {
            sessionIdGenerator: () => crypto.randomUUID(),
            onsessioninitialized: (id) => void s.sessions.byId.set(id, created),
            onsessionclosed: (id) => void s.sessions.byId.delete(id),
          }
        : {},
    );
    const created: Session = { transport, server, busy: 0, lastUsed: performance.now() };
    transport.onclose = () => {
      if (transport.sessionId !== undefined && s.sessions.byId.get(transport.sessionId) === created) s.sessions.byId.delete(transport.sessionId);
    };
    await server.connect(transport);
    if (!s.useSessions) s.stateless.add(created);
    return created;
  } catch (error) {
    if (initializing) s.sessions.release();
    throw error;
  }
}

/** Answers a 2025-era request in its session (a new one when it names none). */
async function answerLegacy(s: Serving, req: IncomingMessage, res: ServerResponse, request: Request, parsed: unknown, body: string | undefined): Promise<void> {
  const sessionId = req.headers['mcp-session-id'];
  let session: Session | undefined;
  const opened = !(s.useSessions && typeof sessionId === 'string');
  const initializing = opened && s.useSessions && hasInitialize(parsed);
  if (!opened) {
    session = s.sessions.byId.get(sessionId);
    if (!session) {
      await writeResponse(jsonError(404, `unknown MCP session ${sessionId.slice(0, 80)} (closed, expired or never opened); initialize a new one`), res);
      return;
    }
  } else {
    session = await openSession(s, request, res, initializing);
    if (!session) return;
  }
  const current = session;
  const ids = requestIds(parsed);
  try {
    await whileUsed(current, request.method, async () => {
      let response: Response;
      try {
        response = await current.transport.handleRequest(request, body === undefined ? {} : { parsedBody: parsed });
      } finally {
        // By now an initialize has put its session in the table (or failed).
        if (initializing) s.sessions.release();
      }
      await writeResponse(response, res, () => {
        for (const requestId of ids) {
          current.transport.onmessage?.({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId, reason: 'the client closed the request stream' },
          });
        }
      });
    });
  } finally {
    // A request without a session id that did not initialize one leaves nothing open.
    if (opened && (!s.useSessions || current.transport.sessionId === undefined)) {
      s.stateless.delete(current);
      await current.server.close();
    }
  }
}

/** Answers one HTTP request: path, headers, body, then the era's handler. */
async function answer(s: Serving, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = requestUrl(req);
  if (url.pathname !== s.path) {
    await writeRefusal(req, res, jsonError(404, `no MCP endpoint at ${url.pathname}; use ${s.path}`));
    return;
  }
  const refused = refusalByHeaders(req, s.rules);
  if (refused) {
    await writeRefusal(req, res, refused);
    return;
  }
  const method = req.method ?? 'GET';
  let body: string | undefined;
  if (method === 'POST') {
    const read = await readBody(req, s.maxBody, s.budget);
    if ('refused' in read) {
      await writeRefusal(req, res, read.refused);
      return;
    }
    body = read.body;
  }
  const request = toWebRequest(req, url, body);
  let parsed: unknown;
  if (body !== undefined) {
    try {
      parsed = JSON.parse(body);
    } catch {
      await writeResponse(new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON' }, id: null }), { status: 400, headers: { 'content-type': 'application/json' } }), res);
      return;
    }
  }
  if (!(await isLegacyRequest(request, parsed))) {
    await writeResponse(await s.modern.fetch(request, body === undefined ? {} : { parsedBody: parsed }), res);
    return;
  }
  await answerLegacy(s, req, res, request, parsed, body);
}

/**
 * Serves MCP over Streamable HTTP on `node:http`, no web framework needed, with the transport's
 * security rules: binds 127.0.0.1 by default, refuses a foreign `Origin` (403) and, on loopback, a
 * foreign `Host` (DNS rebinding), a missing or empty `Host` (403), and with `bearerToken` refuses
 * requests without it (401). These checks use the headers alone, before the body: of a refused
 * request's body at most 64 KiB is read (and dropped), and a connection still sending it is closed
 * 5 s after the answer.
 * `createServer` is called once per session (or per request when `sessions: false`) with the request
 * that opens it (its headers can name a conversation); pass `() => createMcpServer(host, options)`.
 *
 * Bounds (see {@link ServeMcpHttpOptions} and {@link MCP_HTTP_DEFAULTS}): a body over `maxBodyBytes`
 * gets 413; bodies being received together are held under `maxBodyBytesInFlight` (else 503); at most
 * `maxSessions` sessions, a session idle for `sessionIdleMs` is closed, and a client of a closed
 * session gets 404 (`unknown MCP session`), on which MCP clients initialize a new one.
 *
 * When the client closes a request's response stream before the answer, the requests of that POST
 * are cancelled as if the client had sent `notifications/cancelled` (the tools see their signal abort).
 *
 * Protocol 2025-11-25 (and older) requests are served with sessions as above; 2026-07-28 requests
 * (stateless, found with `server/discover`) go to the SDK's `createMcpHandler`, a fresh server each.
 *
 * A bad option, or a non-loopback `host` without `bearerToken` or `allowUnauthenticated: true`,
 * rejects with a TypeError naming it; a port in use rejects with the listen error (`EADDRINUSE`).
 */
export async function serveMcpHttp(
  createServerForSession: (request: Request) => McpServer | Promise<McpServer>,
  options: ServeMcpHttpOptions = {},
): Promise<McpHttpEndpoint> {
  checkServeOptions(options);
  const bindHost = options.host ?? '127.0.0.1';
  const sessions = new SessionTable(options.maxSessions ?? MCP_HTTP_DEFAULTS.maxSessions, options.sessionIdleMs ?? MCP_HTTP_DEFAULTS.sessionIdleMs);
  const stateless = new Set<Session>();
  const serving: Serving = {
    create: createServerForSession,
    path: options.path ?? '/mcp',
    rules: {
      origins: [...(options.allowedOrigins ?? localhostAllowedOrigins())],
      hosts: options.allowedHosts ? [...options.allowedHosts] : isLoopbackHost(bindHost) ? localhostAllowedHostnames() : undefined,
      token: options.bearerToken,
    },
    maxBody: options.maxBodyBytes ?? MCP_HTTP_DEFAULTS.maxBodyBytes,
    budget: new BodyBudget(options.maxBodyBytesInFlight ?? MCP_HTTP_DEFAULTS.maxBodyBytesInFlight),
    useSessions: options.sessions ?? true,
    sessions,
    stateless,
    // Protocol 2026-07-28 is stateless: the SDK's own entry answers each such request with a fresh server.
    modern: createMcpHandler((ctx) => createServerForSession(ctx.requestInfo ?? new Request('http://localhost/')), { legacy: 'reject' }),
  };
  const { modern, path } = serving;

  const http = createServer((req, res) => {
    answer(serving, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `internal error: ${(error as Error).message}` }, id: null }));
    });
  });
  await new Promise<void>((resolve, reject) => {
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
    sessionCount: () => sessions.byId.size,
    async close() {
      const closing = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      const open = [...stateless];
      stateless.clear();
      await sessions.closeAll();
      await Promise.all(open.map((s) => s.server.close().catch(() => undefined)));
      await modern.close();
      await closing;
    },
  };
}
