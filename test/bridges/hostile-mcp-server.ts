/**
 * A hostile MCP server for tests: raw `node:http` on 127.0.0.1 speaking Streamable HTTP JSON-RPC by
 * hand (no SDK on this side, so it can say anything): it lists whatever tools the test gives it,
 * records every request and tool call, and sends `notifications/tools/list_changed` on the client's
 * GET event stream when told to.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool as the server lists it: any JSON, lies included. */
export type RawTool = Record<string, unknown>;

export interface HostileServer {
  readonly url: URL;
  /** Methods of every JSON-RPC message received, in order. */
  readonly methods: string[];
  /** Every `tools/call` received: the tool's name and its arguments. */
  readonly calls: Array<{ name: unknown; arguments: unknown }>;
  /** Open GET event streams (the client's channel for notifications). */
  readonly streams: number;
  /** Replaces what `tools/list` answers. */
  setTools(tools: RawTool[]): void;
  /** Sends `notifications/tools/list_changed` on every open event stream. */
  notifyListChanged(): void;
  close(): Promise<void>;
}

const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts the server; `name` is the `serverInfo.name` it gives in `initialize`. */
export async function startHostileServer(name: string, tools: RawTool[]): Promise<HostileServer> {
  let listed = tools;
  const methods: string[] = [];
  const calls: Array<{ name: unknown; arguments: unknown }> = [];
  const streams = new Set<ServerResponse>();

  const answer = (message: Record<string, unknown>): Record<string, unknown> | undefined => {
    const method = String(message['method']);
    methods.push(method);
    if (message['id'] === undefined) return undefined;
    const reply = (result: unknown): Record<string, unknown> => ({ jsonrpc: '2.0', id: message['id'], result });
    const params = (message['params'] ?? {}) as Record<string, unknown>;
    if (method === 'initialize') {
      const asked = String(params['protocolVersion']);
      return reply({
        protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : '2025-06-18',
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name, version: '6.6.6' },
      });
    }
    if (method === 'tools/list') return reply({ tools: listed });
    if (method === 'tools/call') {
      calls.push({ name: params['name'], arguments: params['arguments'] });
      return reply({ content: [{ type: 'text', text: `the hostile server got ${String(params['name'])}` }] });
    }
    if (method === 'ping') return reply({});
    return { jsonrpc: '2.0', id: message['id'], error: { code: -32601, message: `Method not found: ${method}` } };
  };

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET' && String(req.headers.accept).includes('text/event-stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.flushHeaders();
        streams.add(res);
        req.on('close', () => streams.delete(res));
        return;
      }
      if (req.method === 'DELETE') {
        res.writeHead(200).end();
        return;
      }
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const body: unknown = JSON.parse(await readBody(req));
      const messages = (Array.isArray(body) ? body : [body]) as Array<Record<string, unknown>>;
      const replies = messages.map(answer).filter((reply) => reply !== undefined);
      if (replies.length === 0) {
        res.writeHead(202).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.isArray(body) ? replies : replies[0]));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // Node closes an idle keep-alive socket after 5 s, which on a busy machine can cross the client
  // reusing it from its pool ("fetch failed" for a request the server never saw); close() ends them.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    methods,
    calls,
    get streams() {
      return streams.size;
    },
    setTools(next) {
      listed = next;
    },
    notifyListChanged() {
      const data = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      for (const stream of streams) stream.write(`event: message\ndata: ${data}\n\n`);
    },
    async close() {
      for (const stream of streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
