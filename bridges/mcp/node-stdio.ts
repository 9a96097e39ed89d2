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

/**
 * How many bytes of lines may wait for stdout (in the transport and in stdout's own buffer) before the
 * transport stops reading stdin until stdout drains: 16 MiB.
 */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * How many requests received may run at once (their responses not yet sent): the next wait, in order,
 * until one is answered. Responses of the client to the server's own requests are delivered past them
 * (a running call may wait for one).
 */
export const MAX_RUNNING_REQUESTS = 64;

/** A line read from stdin, taken apart: a message to deliver, or the error that answers it. */
type Incoming =
  | { message: JSONRPCMessage; kind: 'request' | 'notification' | 'response'; line: number; bytes: number }
  | { error: { id: string | number | null; code: number; message: string }; bytes: number };

/** Whether a line read is a response (of the client to one of the server's requests). */
const isResponse = (incoming: Incoming): boolean => 'kind' in incoming && incoming.kind === 'response';

/** A line waiting for stdout, with the promise of its `send` to settle and, for a response, the key of the request it answers. */
interface Outgoing {
  text: string;
  bytes: number;
  key: string | undefined;
  resolve: () => void;
  reject: (error: Error) => void;
}

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
 * - Nothing of the server's own (requests, notifications, and the transport's own error answers to
 *   lines it cannot serve) is written while an `initialize` request is unanswered: what comes then is
 *   held and written right after the `initialize` response (a result or an error), in order. A client
 *   that writes `initialize`, `notifications/initialized` and more in one go thus reads the
 *   `initialize` answer first, before a request such as `roots/list` that the
 *   `notifications/initialized` prompted, or the error answering a later line that reuses its id. (A
 *   line that cannot be read before any `initialize` arrived is answered at once: it may have been
 *   the `initialize`.)
 * - Back-pressure: lines go to stdout one batch at a time (the next once stdout drained), the rest
 *   wait in the transport; while more than {@link MAX_BUFFERED_BYTES} wait (a client that does not
 *   read stdout), no further request is delivered and stdin is not read, until stdout drains. At most
 *   {@link MAX_RUNNING_REQUESTS} requests run at once (the next are delivered, in order, as they are
 *   answered; the client's responses pass them). Memory stays bounded however much the client
 *   writes without reading. Each line's write settles its `send` by the write's callback: no
 *   listener is added per line.
 * - {@link close} drops the lines not yet handed to stdout; a line already handed is left to finish.
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
  /** The server's messages (not responses) and the transport's error answers made while `initialize` was unanswered, as lines to write after its response. */
  #held: string[] = [];
  /** Bytes of {@link #held}. */
  #heldBytes = 0;
  /** Lines not yet handed to stdout, in order. */
  #queue: Outgoing[] = [];
  /** Bytes of {@link #queue}. */
  #queueBytes = 0;
  /** stdout's last `write` returned false: the next line waits for its `drain`. */
  #awaitingDrain = false;
  /** Lines read from stdin and not yet delivered (while too much waits for stdout, or too many requests run). */
  #pending: Incoming[] = [];
  /** Bytes of {@link #pending}. */
  #pendingBytes = 0;
  /** How many of {@link #pending} are responses (passed past a shut gate). */
  #pendingResponses = 0;
  /** Those of {@link #inbound} whose response the server has sent (written, or waiting for stdout). */
  readonly #replied = new Set<string>();
  /** stdin ended or closed (its last frames may still be {@link #pending}). */
  #endSeen = false;
  /** stdin was paused for back-pressure. */
  #paused = false;
  /** {@link #pump} is running (a message it delivers may send, which pumps again). */
  #pumping = false;
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
    this.#stdout.on('drain', this.#onDrain);
    if (this.#stdin.readableEnded || this.#stdin.destroyed) setImmediate(this.#onStdinEnd);
  }

  #onData = (chunk: Uint8Array | string): void => {
    for (const frame of this.#splitter.push(chunk)) this.#queueIncoming(frame);
    this.#pump();
  };

  #queueIncoming(frame: LineFrame): void {
    const incoming = this.#parse(frame);
    if (incoming === undefined) return;
    this.#pending.push(incoming);
    this.#pendingBytes += incoming.bytes;
    if (isResponse(incoming)) this.#pendingResponses += 1;
  }

  /** Whether too many bytes wait for stdout to read (and deliver) more. */
  #congested(): boolean {
    return this.#queueBytes + this.#heldBytes + this.#stdout.writableLength > MAX_BUFFERED_BYTES;
  }

  /** Whether the next request waits: too much waits for stdout, or too many requests run. */
  #gated(): boolean {
    return this.#congested() || this.#inbound.size - this.#replied.size >= MAX_RUNNING_REQUESTS;
  }

  /**
   * Delivers the lines read, in order, while no gate is shut (past a shut one only the client's
   * responses, which running calls may wait for); pauses stdin while too much waits, resumes it after.
   */
  #pump(): void {
    if (this.#pumping || this.#isClosed) return;
    this.#pumping = true;
    try {
      while (this.#pending.length > 0 && !this.#isClosed) {
        if (this.#gated()) {
          if (this.#pendingResponses > 0) {
            const responses = this.#pending.filter(isResponse);
            this.#pending = this.#pending.filter((incoming) => !isResponse(incoming));
            for (const incoming of responses) this.#take(incoming);
          }
          break;
        }
        this.#take(this.#pending.shift() as Incoming);
      }
    } finally {
      this.#pumping = false;
    }
    if (this.#isClosed) return;
    const hold = this.#congested() || this.#pendingBytes > MAX_BUFFERED_BYTES;
    if (hold && !this.#paused && !this.#endSeen) {
      this.#paused = true;
      this.#stdin.pause();
    } else if (!hold && this.#paused) {
      this.#paused = false;
      this.#stdin.resume();
    }
    if (this.#endSeen && this.#pending.length === 0) this.#inputDone();
  }

  #onStdinError = (error: Error): void => {
    this.onerror?.(error);
  };

  #onStdinEnd = (): void => {
    if (this.#endSeen) return;
    this.#endSeen = true;
    for (const frame of this.#splitter.end()) this.#queueIncoming(frame);
    this.#stopReading();
    this.#pump();
  };

  /** stdin ended and every line of it was delivered: nothing more arrives. */
  #inputDone(): void {
    if (this.#inputEnded) return;
    this.#inputEnded = true;
    for (const id of this.#outbound.values()) this.#unanswerable(id);
    this.#outbound.clear();
    this.#closeWhenAnswered();
  }

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

  /** Takes one framed line apart: a message, the error that answers it, or nothing (a blank line). */
  #parse(frame: LineFrame): Incoming | undefined {
    const bytes = frame.kind === 'overlong' ? 0 : frame.text.length;
    if (frame.kind === 'overlong') {
      const message =
        `Invalid Request: message ${frame.line} is longer than the ${this.#maxLineBytes}-byte line cap; it was skipped up to its newline. ` +
        'Send smaller messages (large content belongs in files the tools read).';
      return { error: { id: null, code: JSONRPC_INVALID_REQUEST, message }, bytes };
    }
    if (frame.text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(frame.text);
    } catch (error) {
      const message = `Parse error: message ${frame.line} is not JSON (${(error as Error).message}); send one JSON-RPC message per line`;
      return { error: { id: null, code: JSONRPC_PARSE_ERROR, message }, bytes };
    }
    try {
      const message = parseJSONRPCMessage(value);
      return { message, kind: kindOf(message), line: frame.line, bytes };
    } catch {
      const message = `Invalid Request: message ${frame.line} is not a JSON-RPC 2.0 request, notification or response`;
      return { error: { id: idOf(value), code: JSONRPC_INVALID_REQUEST, message }, bytes };
    }
  }

  /** Hands one line read to `onmessage`, or answers why it cannot be served. */
  #take(incoming: Incoming): void {
    this.#pendingBytes -= incoming.bytes;
    if (isResponse(incoming)) this.#pendingResponses -= 1;
    if (this.#isClosed) return;
    if ('error' in incoming) {
      this.#answerError(incoming.error.id, incoming.error.code, incoming.error.message);
      return;
    }
    const { message, kind } = incoming;
    const id = idOf(message);
    if (id !== null && kind === 'request') {
      const key = keyOf(id);
      // Two requests under one id could not be told apart (by the client's answers, or by a cancellation).
      if (this.#inbound.has(key)) {
        this.#answerError(id, JSONRPC_INVALID_REQUEST, `Invalid Request: message ${incoming.line} reuses the id ${JSON.stringify(id)} of a request still unanswered; it was not served. Give each request an id of its own.`);
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
        this.#replied.delete(keyOf(cancelled));
        if (this.#initializing === keyOf(cancelled)) this.#release();
        this.#closeWhenAnswered();
      }
    }
  }

  #answerError(id: string | number | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    const line = `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;
    // While an `initialize` is unanswered its answer goes first: a client matching answers by id would
    // take an error for the same id, or an early `null` one, for it.
    if (this.#initializing !== undefined) this.#hold(line);
    else this.#write(line).catch((error: unknown) => this.onerror?.(error as Error));
  }

  #hold(line: string): void {
    this.#held.push(line);
    this.#heldBytes += Buffer.byteLength(line);
  }

  /** Writes one message line; resolves once stdout has written it, rejects if stdout fails or the transport closes before the line was handed to stdout. */
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
      this.#hold(line);
      return Promise.resolve();
    }
    if (id === null || kind !== 'response') return this.#write(line);
    const key = keyOf(id);
    const answers = this.#inbound.has(key);
    const written = this.#write(line, answers ? key : undefined);
    if (key === this.#initializing) this.#release();
    if (answers) {
      this.#replied.add(key);
      // One request fewer runs: the next waiting may be delivered.
      queueMicrotask(() => this.#pump());
    }
    // The response is written (or stdout failed, which closes the transport): the request is answered.
    // One dropped by close() before it was handed to stdout stays unanswered.
    return written.finally(() => {
      if (this.#isClosed && !this.#answering.has(key)) return;
      this.#inbound.delete(key);
      this.#answering.delete(key);
      this.#replied.delete(key);
      this.#closeWhenAnswered();
    });
  }

  /** `initialize` is answered (or cancelled): the messages held since are written, in order. */
  #release(): void {
    this.#initializing = undefined;
    const held = this.#held;
    this.#held = [];
    this.#heldBytes = 0;
    for (const line of held) this.#write(line).catch((error: unknown) => this.onerror?.(error as Error));
  }

  /** Queues one line for stdout (`key`: the request a response answers, marked answering once handed). */
  #write(text: string, key?: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const bytes = Buffer.byteLength(text);
      this.#queue.push({ text, bytes, key, resolve, reject });
      this.#queueBytes += bytes;
      this.#flush();
    });
  }

  /**
   * Hands queued lines to stdout until its `write` asks to wait for `drain`. No listener per line: each
   * write's callback settles its promise, and one `drain` listener goes on.
   */
  #flush(): void {
    while (this.#queue.length > 0 && !this.#awaitingDrain && !this.#isClosed) {
      const line = this.#queue.shift() as Outgoing;
      this.#queueBytes -= line.bytes;
      if (line.key !== undefined) this.#answering.add(line.key);
      const more = this.#stdout.write(line.text, (error) => (error ? line.reject(error) : line.resolve()));
      if (!more) this.#awaitingDrain = true;
    }
    if (this.#paused) this.#pump();
  }

  #onDrain = (): void => {
    this.#awaitingDrain = false;
    this.#flush();
    this.#pump();
  };

  /** Stops reading (stdin is paused, not destroyed), runs `onclose` once and resolves {@link closed}. */
  async close(): Promise<void> {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#held = [];
    this.#heldBytes = 0;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#pendingResponses = 0;
    // Lines not yet handed to stdout are dropped (the one being written is left to finish).
    const dropped = this.#queue;
    this.#queue = [];
    this.#queueBytes = 0;
    const error = new Error('LineStdioServerTransport closed before this message was written');
    for (const line of dropped) line.reject(error);
    this.#stdout.off('drain', this.#onDrain);
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
