import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

/** What one side posts when it closes, so the other side's `onclose` runs. */
const CLOSE = { 'toolhost/mcp': 'close' } as const;

function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as { jsonrpc?: unknown; method?: unknown; id?: unknown; result?: unknown; error?: unknown };
  if (record.jsonrpc !== '2.0') return false;
  return typeof record.method === 'string' || record.result !== undefined || record.error !== undefined;
}

function isClose(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>)['toolhost/mcp'] === 'close';
}

/**
 * An MCP transport over a `MessagePort` (one client per port): JSON-RPC messages are posted as
 * structured-clone objects. Use it on both ends — a worker serves its tools with
 * `server.connect(new MessagePortTransport(port))`, the page connects the SDK's `Client` to the other
 * port of the same `MessageChannel`. Works wherever `MessagePort` exists (browsers, workers, Node).
 * A message that is not JSON-RPC 2.0 is reported to `onerror` and dropped; `close()` on either side
 * closes both.
 */
export class MessagePortTransport implements Transport {
  readonly #port: MessagePort;
  #closed = false;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  sessionId?: string | undefined;

  constructor(port: MessagePort) {
    this.#port = port;
  }

  async start(): Promise<void> {
    this.#port.onmessage = (event: MessageEvent) => {
      const data: unknown = event.data;
      if (isClose(data)) {
        this.#finish();
        return;
      }
      if (!isJsonRpcMessage(data)) {
        this.onerror?.(new Error('MessagePortTransport received a message that is not JSON-RPC 2.0; it was dropped'));
        return;
      }
      this.onmessage?.(data);
    };
    this.#port.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('MessagePortTransport is closed; connect a new port');
    this.#port.postMessage(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#port.postMessage(CLOSE);
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#port.onmessage = null;
    this.#port.close();
    this.onclose?.();
  }
}
