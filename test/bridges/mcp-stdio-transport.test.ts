// LineStdioServerTransport at the end of its input: an MCP client begins a stdio shutdown by closing the
// server's stdin. The requests received by then are still answered before the transport closes; the
// server's own requests to the client can no longer be answered and fail at once with -32000.
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { LineStdioServerTransport } from '../../bridges/mcp/node-stdio.js';

/** A started transport over two PassThrough streams, with what it delivered and whether it closed. */
async function open() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new LineStdioServerTransport(stdin, stdout);
  const delivered: JSONRPCMessage[] = [];
  let closed = false;
  transport.onmessage = (message) => delivered.push(message);
  void transport.closed.then(() => (closed = true));
  await transport.start();
  const written: unknown[] = [];
  stdout.setEncoding('utf8').on('data', (chunk: string) => written.push(...chunk.trim().split('\n').map((line) => JSON.parse(line) as unknown)));
  return { stdin, transport, delivered, written, isClosed: () => closed };
}

/** Lets the streams' events and the transport's deferred answers run. */
const turns = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('LineStdioServerTransport when stdin ends', () => {
  it('stays open until each request received before the end is answered, then closes', async () => {
    const t = await open();
    t.stdin.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}\n{"jsonrpc":"2.0","id":"1","method":"ping"}\n');
    await turns();
    expect(t.delivered.map((message) => (message as { id?: unknown }).id)).toEqual([1, '1']);
    expect(t.isClosed()).toBe(false);
    // Answering id "1" (a string) leaves the request with the number 1 open.
    await t.transport.send({ jsonrpc: '2.0', id: '1', result: {} });
    await turns();
    expect(t.isClosed()).toBe(false);
    await t.transport.send({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    await turns();
    expect(t.isClosed()).toBe(true);
    expect(t.written).toEqual([
      { jsonrpc: '2.0', id: '1', result: {} },
      { jsonrpc: '2.0', id: 1, result: { content: [] } },
    ]);
  });

  it('does not wait for a request the client cancelled (it gets no response)', async () => {
    const t = await open();
    t.stdin.end(
      '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{}}\n{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{}}\n' +
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"reason":"user"}}\n',
    );
    await turns();
    expect(t.delivered).toHaveLength(3);
    // 10 is still waited for; 9 is not.
    expect(t.isClosed()).toBe(false);
    await t.transport.send({ jsonrpc: '2.0', id: 10, result: {} });
    await turns();
    expect(t.isClosed()).toBe(true);
  });

  it('closes at the end of input when no request is waiting for its answer', async () => {
    const t = await open();
    t.stdin.end('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await turns();
    expect(t.delivered).toHaveLength(1);
    expect(t.isClosed()).toBe(true);
  });

  it("answers the server's own requests the client can no longer answer with -32000, sent before the end or after", async () => {
    const t = await open();
    t.stdin.write('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}\n');
    await t.transport.send({ jsonrpc: '2.0', id: 100, method: 'roots/list' });
    await t.transport.send({ jsonrpc: '2.0', id: 101, method: 'sampling/createMessage', params: {} });
    // The client answers 101 before it closes; 100 stays unanswered.
    t.stdin.end('{"jsonrpc":"2.0","id":101,"result":{}}\n');
    await turns();
    await t.transport.send({ jsonrpc: '2.0', id: 102, method: 'roots/list' });
    await turns();
    const errors = t.delivered.filter((message) => 'error' in message) as Array<{ id: number; error: { code: number; message: string } }>;
    expect(errors.map((message) => [message.id, message.error.code])).toEqual([
      [100, -32000],
      [102, -32000],
    ]);
    expect(errors[0]?.error.message).toMatch(/closed stdin/);
    expect(t.isClosed()).toBe(false);
    await t.transport.send({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'failed' } });
    await turns();
    expect(t.isClosed()).toBe(true);
  });
});
