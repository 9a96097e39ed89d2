// Raw HTTP/1.1 over node:net for the hostile-input tests: requests whose headers and body are sent by
// hand (a body dribbled or never finished), read back as the status line the server answered.
import { connect, type Socket } from 'node:net';

/** One raw connection: its socket and the first status code the server answered (undefined if none). */
export interface RawExchange {
  socket: Socket;
  /** Resolves with the status code of the first response, or undefined when the connection ends without one. */
  status: Promise<number | undefined>;
  /** The response text received so far. */
  received(): string;
  /** Resolves when the socket has closed. */
  closed: Promise<void>;
}

/** Opens a connection to 127.0.0.1:`port` and sends `head` (request line and headers, without the blank line). */
export function rawRequest(port: number, head: string[]): RawExchange {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  let settle: (code: number | undefined) => void = () => undefined;
  const status = new Promise<number | undefined>((resolve) => (settle = resolve));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    text += chunk;
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
    if (match) settle(Number(match[1]));
  });
  socket.on('error', () => undefined);
  void closed.then(() => settle(undefined));
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  return { socket, status, received: () => text, closed };
}

/**
 * Writes `total` bytes of filler body in `chunkSize` pieces, each after the last was taken, and stops
 * early when `stop` resolves or the socket closes; resolves with the bytes written.
 */
export async function dribble(exchange: RawExchange, total: number, chunkSize: number, stop: Promise<unknown>): Promise<number> {
  const chunk = Buffer.alloc(chunkSize, 0x20);
  let written = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  void exchange.closed.then(() => (stopped = true));
  while (written < total && !stopped && !exchange.socket.destroyed) {
    const piece = chunk.subarray(0, Math.min(chunkSize, total - written));
    await Promise.race([
      new Promise<void>((resolve) => exchange.socket.write(piece, () => resolve())),
      stop,
      exchange.closed,
    ]);
    written += piece.length;
  }
  return written;
}

/** The resident set size (`VmRSS`) or peak (`VmHWM`) of process `pid`, in bytes, from /proc. */
export function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM', read: (path: string) => string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(read(`/proc/${pid}/status`));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}
