import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter, type LineFrame } from '../../node/lines.js';

/** Options of {@link LineStdioServerTransport}; all optional. */
export interface LineStdioServerTransportOptions {
  /**
   * Cap of one incoming message line in bytes, without its `\n` (default 16 MiB, `DEFAULT_MAX_LINE_BYTES`).
   * A longer line is answered with a JSON-RPC error `-32600` (id `null`) naming the cap, and dropped up to
   * its `\n`; the messages after it are served as usual.
   */
  maxLineBytes?: number;
}

const JSONRPC_PARSE_ERROR = -32700;
const JSONRPC_INVALID_REQUEST = -32600;
/** The MCP SDK's `ErrorCode.ConnectionClosed`. */
const CONNECTION_CLOSED = -32000;

/** A key for a JSON-RPC id that keeps `1` and `"1"` apart. */
const keyOf = (id: string | number): string => `${typeof id}:${id}`;

/** What a JSON-RPC message is, by its fields: a request (method and id), a notification, or a response. */
function kindOf(message: JSONRPCMessage): 'request' | 'notification' | 'response' {
  if ('method' in message) return 'id' in message && message.id !== undefined ? 'request' : 'notification';
  return 'response';
}

/** A message's id when it has a usable one (a string or a number), else null; also for parsed JSON that is not valid JSON-RPC. */
function idOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * An MCP server transport over newline-delimited JSON on a pair of Node streams (by default the
 * process's stdin and stdout), like the SDK's `StdioServerTransport`, with framing that holds under
 * hostile input:
 *
 * - Reading is linear in the input, and a line is held only up to `maxLineBytes` (see
 *   {@link LineStdioServerTransportOptions.maxLineBytes}): a longer one is answered
 *   `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"…"}}` and skipped to its `\n`.
 * - A line that is not JSON is answered with `-32700` (id `null`); JSON that is not a JSON-RPC message
 *   with `-32600` (its `id` when it has one). Blank lines are ignored.
 * - When stdin ends or closes (how an MCP client begins a stdio shutdown), the requests already
 *   received are still answered: the transport closes (`onclose` runs, `closed` resolves) once each
 *   has its response written (or was cancelled by `notifications/cancelled`, which gets none), as a
 *   shell pipeline into the server expects. The server's own requests
 *   to the client that are still unanswered then, or sent after, can never be answered: each gets a
 *   JSON-RPC error `-32000` (the SDK's `ConnectionClosed`) at once, so nothing waits on them. The
 *   transport also closes when stdout fails (a closed pipe) or {@link close} is called; never because
 *   of what a line holds.
 * - A request whose id is the id of a request still unanswered is not served: it is answered with a
 *   JSON-RPC error `-32600` carrying that id (the first request keeps running and gets its own answer).
 * - Nothing of the server's own (requests, notifications) is written while an `initialize` request is
 *   unanswered: what the server sends then is held and written right after the `initialize` response,
 *   in order. A client that writes `initialize`, `notifications/initialized` and more in one go thus
 *   reads the `initialize` result first, before a request such as `roots/list` that the
 *   `notifications/initialized` prompted.
 *
 * Give it to `serveStdio(factory, { transport })` or `server.connect(transport)`. A bad
 * `maxLineBytes` throws a TypeError.
 */
export class LineStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Resolves once the transport has closed, for any reason. */
  readonly closed: Promise<void>;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #maxLineBytes: number;
  readonly #splitter: LineSplitter;
  #started = false;
  #isClosed = false;
  /** stdin ended: nothing more arrives. */
  #inputEnded = false;
  /** Requests received and not yet answered (by {@link keyOf} their ids): their response not yet taken by stdout. */
  readonly #inbound = new Set<string>();
  /** Those of {@link #inbound} whose response was handed to stdout, which has not taken it all yet. */
  readonly #answering = new Set<string>();
  /** The server's requests sent and not yet answered: their ids. */
  readonly #outbound = new Map<string, string | number>();
  /** The {@link keyOf} key of the `initialize` request received and not yet answered, if any. */
  #initializing: string | undefined;
  /** The server's messages (not responses) sent while `initialize` was unanswered, as lines to write after its response. */
  #held: string[] = [];
  #resolveClosed!: () => void;

  /** `stdin` and `stdout` default to the process's. */
  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout, options: LineStdioServerTransportOptions = {}) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#splitter = new LineSplitter(this.#maxLineBytes);
    this.closed = new Promise<void>((resolve) => (this.#resolveClosed = resolve));
  }

  /**
   * How many requests received are unanswered: the server has handed no response for them to stdout,
   * and the client did not cancel them. After the transport closed, those it closed without answering.
   */
  get unanswered(): number {
    let count = 0;
    for (const key of this.#inbound) if (!this.#answering.has(key)) count += 1;
    return count;
  }

  /** Starts reading stdin; a second call throws. */
  async start(): Promise<void> {
    if (this.#started) throw new Error('LineStdioServerTransport already started; connect() starts it');
    this.#started = true;
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onStdinError);
    this.#stdin.on('end', this.#onStdinEnd);
    this.#stdin.on('close', this.#onStdinEnd);
    this.#stdout.on('error', this.#onStdoutError);
    if (this.#stdin.readableEnded || this.#stdin.destroyed) setImmediate(this.#onStdinEnd);
  }

  #onData = (chunk: Uint8Array | string): void => {
    for (const frame of this.#splitter.push(chunk)) this.#deliver(frame);
  };

  #onStdinError = (error: Error): void => {
    this.onerror?.(error);
  };

  #onStdinEnd = (): void => {
    if (this.#inputEnded) return;
    for (const frame of this.#splitter.end()) this.#deliver(frame);
    this.#inputEnded = true;
    this.#stopReading();
    for (const id of this.#outbound.values()) this.#unanswerable(id);
    this.#outbound.clear();
    this.#closeWhenAnswered();
  };

  /** Answers the server's request `id` with the error a closed connection gives (on a later turn, after `send` returned). */
  #unanswerable(id: string | number): void {
    setImmediate(() => {
      if (this.#isClosed) return;
      this.onmessage?.({ jsonrpc: '2.0', id, error: { code: CONNECTION_CLOSED, message: 'Connection closed: the client closed stdin, so it cannot answer this request' } });
    });
  }

  /** Closes once stdin has ended and every request received has its response written. */
  #closeWhenAnswered(): void {
    if (this.#inputEnded && this.#inbound.size === 0) void this.close();
  }

  #onStdoutError = (error: Error): void => {
    if (this.#isClosed) return;
    this.onerror?.(error);
    void this.close();
  };

  /** Hands one framed line to `onmessage`, or answers why it cannot be served. */
  #deliver(frame: LineFrame): void {
    if (this.#isClosed) return;
    if (frame.kind === 'overlong') {
      this.#answerError(
        null,
        JSONRPC_INVALID_REQUEST,
        `Invalid Request: message ${frame.line} is longer than the ${this.#maxLineBytes}-byte line cap; it was skipped up to its newline. ` +
          'Send smaller messages (large content belongs in files the tools read).',
      );
      return;
    }
    if (frame.text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(frame.text);
    } catch (error) {
      this.#answerError(null, JSONRPC_PARSE_ERROR, `Parse error: message ${frame.line} is not JSON (${(error as Error).message}); send one JSON-RPC message per line`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.#answerError(idOf(value), JSONRPC_INVALID_REQUEST, `Invalid Request: message ${frame.line} is not a JSON-RPC 2.0 request, notification or response`);
      return;
    }
    const kind = kindOf(message);
    const id = idOf(message);
    if (id !== null && kind === 'request') {
      const key = keyOf(id);
      // Two requests under one id could not be told apart (by the client's answers, or by a cancellation).
      if (this.#inbound.has(key)) {
        this.#answerError(id, JSONRPC_INVALID_REQUEST, `Invalid Request: message ${frame.line} reuses the id ${JSON.stringify(id)} of a request still unanswered; it was not served. Give each request an id of its own.`);
        return;
      }
      this.#inbound.add(key);
      if ((message as { method: string }).method === 'initialize') this.#initializing = key;
    } else if (id !== null && kind === 'response') this.#outbound.delete(keyOf(id));
    this.onmessage?.(message);
    // A cancelled request gets no response (MCP's cancellation: the receiver should not send one): it
    // is not waited for. After `onmessage`, so the server has seen the cancellation first.
    if (kind === 'notification' && (message as { method: string }).method === 'notifications/cancelled') {
      const cancelled = idOf({ id: (message as { params?: { requestId?: unknown } }).params?.requestId });
      if (cancelled !== null && this.#inbound.delete(keyOf(cancelled))) {
        if (this.#initializing === keyOf(cancelled)) this.#release();
        this.#closeWhenAnswered();
      }
    }
  }

  #answerError(id: string | number | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    this.#write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`).catch((error: unknown) => this.onerror?.(error as Error));
  }

  /** Writes one message line; resolves once stdout took it (waits for `drain` when it is full). */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#isClosed) return Promise.reject(new Error('LineStdioServerTransport is closed'));
    const kind = kindOf(message);
    const id = idOf(message);
    if (id !== null && kind === 'request') {
      if (this.#inputEnded) this.#unanswerable(id);
      else this.#outbound.set(keyOf(id), id);
    }
    const line = `${JSON.stringify(message)}\n`;
    if (kind !== 'response' && this.#initializing !== undefined) {
      // Taken now, written after the `initialize` response: a sender that waited for it to be written
      // (the `initialize` handler itself, say) would wait for ever.
      this.#held.push(line);
      return Promise.resolve();
    }
    const written = this.#write(line);
    if (id === null || kind !== 'response') return written;
    const key = keyOf(id);
    if (key === this.#initializing) this.#release();
    if (this.#inbound.has(key)) this.#answering.add(key);
    // The response is on its way (or stdout failed, which closes the transport): the request is answered.
    return written.finally(() => {
      this.#inbound.delete(key);
      this.#answering.delete(key);
      this.#closeWhenAnswered();
    });
  }

  /** `initialize` is answered (or cancelled): the messages held since are written, in order. */
  #release(): void {
    this.#initializing = undefined;
    const held = this.#held;
    this.#held = [];
    for (const line of held) this.#write(line).catch((error: unknown) => this.onerror?.(error as Error));
  }

  #write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => {
        this.#stdout.off('drain', onDrain);
        reject(error);
      };
      const onDrain = (): void => {
        this.#stdout.off('error', onError);
        resolve();
      };
      this.#stdout.once('error', onError);
      if (this.#stdout.write(text)) {
        this.#stdout.off('error', onError);
        resolve();
      } else {
        this.#stdout.once('drain', onDrain);
      }
    });
  }

  /** Stops reading (stdin is paused, not destroyed), runs `onclose` once and resolves {@link closed}. */
  async close(): Promise<void> {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#held = [];
    this.#stopReading();
    this.#resolveClosed();
    this.onclose?.();
  }

  #stopReading(): void {
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onStdinError);
    this.#stdin.off('end', this.#onStdinEnd);
    this.#stdin.off('close', this.#onStdinEnd);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
  }
}
