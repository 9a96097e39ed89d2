// comlink 4.4.2 ships node-adapter.d.ts beside node-adapter.mjs, but NodeNext resolution looks for a
// .d.mts next to an .mjs file; this gives the module its (identical) declaration.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  /** A worker_threads Worker, MessagePort or parentPort: what comlink's node adapter wraps. */
  export interface NodeEndpoint {
    postMessage(message: unknown, transfer?: readonly unknown[]): void;
    on(type: string, listener: (value: unknown) => void): void;
    off(type: string, listener: (value: unknown) => void): void;
    start?: () => void;
  }
  /** Wraps a Node message endpoint as a comlink Endpoint (`addEventListener` over `on('message')`). */
  export default function nodeEndpoint(endpoint: NodeEndpoint): Endpoint;
}
