// LineStdioServerTransport at the end of its input: an MCP client begins a stdio shutdown by closing the
// server's stdin. The requests received by then are still answered before the transport closes; the
// server's own requests to the client can no longer be answered and fail at once with -32000. Also:
// nothing of the server's own goes out before the initialize response, and an id still in use is refused.
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { LineStdioServerTransport, MAX_RUNNING_REQUESTS } from '../../bridges/mcp/node-stdio.js';

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

describe("LineStdioServerTransport's own error answers while initialize is unanswered", () => {
  it('holds them until the initialize response, in order, after what the server sent', async () => {
    const t = await open();
    t.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\nnot json\n');
    await turns();
    expect(t.written).toEqual([]);
    await t.transport.send({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25' } });
    await turns();
    expect(t.written.map((message) => [(message as { id: unknown }).id, (message as { error?: { code: number } }).error?.code])).toEqual([
      [1, undefined],
      [1, -32600],
      [null, -32700],
    ]);
  });

  it('releases them when initialize is answered with an error', async () => {
    const t = await open();
    t.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\nnot json\n');
    await turns();
    expect(t.written).toEqual([]);
    await t.transport.send({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad params' } });
    await turns();
    expect(t.written.map((message) => (message as { error: { code: number } }).error.code)).toEqual([-32602, -32700]);
  });

  it('answers at once a line that cannot be read before any initialize (it may have been the initialize)', async () => {
    const t = await open();
    t.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize"\n');
    await turns();
    expect(t.written).toMatchObject([{ id: null, error: { code: -32700 } }]);
  });
});

describe('LineStdioServerTransport and a client that does not read stdout', () => {
  it('stops reading stdin while more than MAX_BUFFERED_BYTES wait, adds no listener per line, and serves the rest once stdout drains', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new LineStdioServerTransport(stdin, stdout);
    const delivered: JSONRPCMessage[] = [];
    transport.onmessage = (message) => delivered.push(message);
    await transport.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await turns();
    // 20 answers of 1 MiB that nobody reads: more than the 16 MiB bound.
    const big = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 20; i++) void transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: big } });
    stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await turns();
    expect(delivered).toHaveLength(1);
    expect(stdin.isPaused()).toBe(true);
    expect(stdout.listenerCount('drain')).toBeLessThanOrEqual(1);
    expect(stdout.listenerCount('error')).toBeLessThanOrEqual(1);
    let lines = 0;
    stdout.setEncoding('utf8').on('data', (chunk: string) => (lines += chunk.split('\n').length - 1));
    for (let i = 0; i < 100 && delivered.length < 2; i++) await turns();
    expect(delivered.map((message) => (message as { id: unknown }).id)).toEqual([1, 2]);
    expect(lines).toBe(20);
    await transport.close();
  });

  it('runs at most MAX_RUNNING_REQUESTS requests at once; a response of the client passes those waiting', async () => {
    const t = await open();
    const requests = Array.from({ length: MAX_RUNNING_REQUESTS + 2 }, (_, index) => `{"jsonrpc":"2.0","id":${index + 1},"method":"tools/call","params":{}}\n`).join('');
    // The server asked the client something; its answer comes after the requests.
    await t.transport.send({ jsonrpc: '2.0', id: 'r1', method: 'roots/list' });
    t.stdin.write(`${requests}{"jsonrpc":"2.0","id":"r1","result":{"roots":[]}}\n`);
    await turns();
    expect(t.delivered).toHaveLength(MAX_RUNNING_REQUESTS + 1);
    expect(t.delivered.at(-1)).toMatchObject({ id: 'r1', result: { roots: [] } });
    await t.transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    await turns();
    expect(t.delivered.map((message) => (message as { id: unknown }).id).slice(-2)).toEqual(['r1', MAX_RUNNING_REQUESTS + 1]);
  });
});

describe('LineStdioServerTransport.close', () => {
  it('drops the lines not yet handed to stdout, which stay unanswered; the one handed is left whole', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 16 });
    const transport = new LineStdioServerTransport(stdin, stdout);
    await transport.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await turns();
    const first = transport.send({ jsonrpc: '2.0', id: 1, result: { padding: 'x'.repeat(100) } });
    const second = transport.send({ jsonrpc: '2.0', id: 2, result: {} });
    await turns();
    await transport.close();
    await expect(second).rejects.toThrow(/closed before this message was written/);
    expect(transport.unanswered).toBe(1);
    const text = (stdout.read() as Buffer).toString('utf8');
    expect(text).toBe(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { padding: 'x'.repeat(100) } })}\n`);
    await first;
  });
});
