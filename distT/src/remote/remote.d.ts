/**
 * The platform-free bridge between a {@link ToolRunner} living in a worker and the page (or Node host)
 * that uses it. Web-standard APIs only: an endpoint is anything comlink accepts (a Worker, a
 * MessagePort, a worker's global scope, or comlink's node adapter around a worker_threads Worker /
 * parentPort). By responsibility: protocol.ts (the wire format), expose.ts (the worker side),
 * connect.ts (the page side), session.ts (worker sessions and the hung-worker watchdog),
 * page-tools.ts (tools that run on the page).
 */
export type { Endpoint, RemoteEnvelope, WireCallOptions, WirePermissionPolicy, PageToolDescriptor, PageCallInfo, ToolRunnerWorkerApi, } from './protocol.js';
export { exposeToolRunner, type ExposedToolRunner, type ToolRunnerSetup, type WorkerBridge } from './expose.js';
export { connectToolRunner, REMOTE_GRACE_MS, type ConnectToolRunnerOptions, type RemoteToolRunner, type RemoteToolRunnerStatus } from './connect.js';
