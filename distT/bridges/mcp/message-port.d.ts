import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
/**
 * An MCP transport over a `MessagePort` (one client per port): JSON-RPC messages are posted as
 * structured-clone objects. Use it on both ends — a worker serves its tools with
 * `server.connect(new MessagePortTransport(port))`, the page connects the SDK's `Client` to the other
 * port of the same `MessageChannel`. Works wherever `MessagePort` exists (browsers, workers, Node).
 * A message that is not JSON-RPC 2.0 is reported to `onerror` and dropped; `close()` on either side
 * closes both.
 */
export declare class MessagePortTransport implements Transport {
    #private;
    onclose?: (() => void) | undefined;
    onerror?: ((error: Error) => void) | undefined;
    onmessage?: ((message: JSONRPCMessage) => void) | undefined;
    sessionId?: string | undefined;
    constructor(port: MessagePort);
    start(): Promise<void>;
    send(message: JSONRPCMessage): Promise<void>;
    close(): Promise<void>;
}
