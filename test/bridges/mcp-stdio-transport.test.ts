// LineStdioServerTransport at the end of its input: an MCP client begins a stdio shutdown by closing the
// server's stdin. The requests received by then are still answered before the transport closes; the
// server's own requests to the client can no longer be answered and fail at once with -32000. Also:
// nothing of the server's own goes out before the initialize response, and an id still in use is refused.
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

describe('LineStdioServerTransport while initialize is unanswered', () => {
  it("holds the server's own requests and notifications until the initialize response, then writes them after it, in order", async () => {
    const t = await open();
    t.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await turns();
    // A held message resolves its send at once (a sender waiting on it inside initialize would wait for ever).
    await t.transport.send({ jsonrpc: '2.0', id: 0, method: 'roots/list' });
    await t.transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    // Answers to other requests are not held.
    await t.transport.send({ jsonrpc: '2.0', id: 2, result: {} });
    await turns();
    expect(t.written).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    await t.transport.send({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25' } });
    await t.transport.send({ jsonrpc: '2.0', id: 3, method: 'roots/list' });
    await turns();
    expect(t.written.map((message) => (message as { method?: string; id?: unknown }).method ?? (message as { id?: unknown }).id)).toEqual([2, 1, 'roots/list', 'notifications/message', 'roots/list']);
  });

  it('writes what it held once the client cancelled its initialize', async () => {
    const t = await open();
    t.stdin.write('{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}\n');
    await turns();
    await t.transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    await turns();
    expect(t.written).toEqual([]);
    t.stdin.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"init"}}\n');
    await turns();
    expect(t.written).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }]);
  });
});

describe('LineStdioServerTransport and request ids', () => {
  it('answers a request reusing the id of one still unanswered with -32600 and does not deliver it; the id is free again once answered', async () => {
    const t = await open();
    t.stdin.write('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{}}\n{"jsonrpc":"2.0","id":5,"method":"ping"}\n{"jsonrpc":"2.0","id":"5","method":"ping"}\n');
    await turns();
    expect(t.delivered.map((message) => [(message as { id: unknown }).id, (message as { method: string }).method])).toEqual([
      [5, 'tools/call'],
      ['5', 'ping'],
    ]);
    expect(t.written).toHaveLength(1);
    expect(t.written[0]).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32600 } });
    expect((t.written[0] as { error: { message: string } }).error.message).toMatch(/message 2 reuses the id 5 of a request still unanswered/);
    expect(t.transport.unanswered).toBe(2);
    await t.transport.send({ jsonrpc: '2.0', id: 5, result: {} });
    await turns();
    expect(t.transport.unanswered).toBe(1);
    t.stdin.write('{"jsonrpc":"2.0","id":5,"method":"ping"}\n');
    await turns();
    expect(t.delivered).toHaveLength(3);
  });
});

describe('LineStdioServerTransport.unanswered', () => {
  it('does not count a request whose response stdout has not taken yet (a client slow to read)', async () => {
    const stdin = new PassThrough();
    // Nobody reads this stdout: a response fills it and waits for a drain that does not come.
    const stdout = new PassThrough({ highWaterMark: 16 });
    const transport = new LineStdioServerTransport(stdin, stdout);
    await transport.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await turns();
    expect(transport.unanswered).toBe(2);
    void transport.send({ jsonrpc: '2.0', id: 1, result: { padding: 'x'.repeat(100) } });
    await turns();
    expect(transport.unanswered).toBe(1);
    await transport.close();
  });
});
