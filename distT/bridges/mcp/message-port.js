/** What one side posts when it closes, so the other side's `onclose` runs. */
const CLOSE = { 'toolhost/mcp': 'close' };
function isJsonRpcMessage(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return false;
    const record = value;
    if (record.jsonrpc !== '2.0')
        return false;
    return typeof record.method === 'string' || record.result !== undefined || record.error !== undefined;
}
function isClose(value) {
    return typeof value === 'object' && value !== null && value['toolhost/mcp'] === 'close';
}
/**
 * An MCP transport over a `MessagePort` (one client per port): JSON-RPC messages are posted as
 * structured-clone objects. Use it on both ends — a worker serves its tools with
 * `server.connect(new MessagePortTransport(port))`, the page connects the SDK's `Client` to the other
 * port of the same `MessageChannel`. Works wherever `MessagePort` exists (browsers, workers, Node).
 * A message that is not JSON-RPC 2.0 is reported to `onerror` and dropped; `close()` on either side
 * closes both.
 */
export class MessagePortTransport {
    #port;
    #closed = false;
    onclose;
    onerror;
    onmessage;
    sessionId;
    constructor(port) {
        this.#port = port;
    }
    async start() {
        this.#port.onmessage = (event) => {
            const data = event.data;
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
    async send(message) {
        if (this.#closed)
            throw new Error('MessagePortTransport is closed; connect a new port');
        this.#port.postMessage(message);
    }
    async close() {
        if (this.#closed)
            return;
        this.#port.postMessage(CLOSE);
        this.#finish();
    }
    #finish() {
        if (this.#closed)
            return;
        this.#closed = true;
        this.#port.onmessage = null;
        this.#port.close();
        this.onclose?.();
    }
}
//# sourceMappingURL=message-port.js.map