// Opening a workspace from the page: its tool worker (shared between tabs where SharedWorker exists),
// a RemoteToolRunner over the toolhost bridge, and the playground's admin channel.
import { wrap, type Remote } from 'comlink';
import { connectToolRunner, type RemoteToolRunner } from 'toolhost/web';
import type { AdminApi, AdminNotice } from './protocol.js';

export interface Connection {
  workspace: string;
  runner: RemoteToolRunner;
  admin: Remote<AdminApi>;
  /** True when the tabs on this workspace share one worker. */
  shared: boolean;
  close(): Promise<void>;
}

/** Opens (creating when new) a workspace; `onNotice` gets the worker's broadcasts. */
export function connect(workspace: string, onNotice: (notice: AdminNotice) => void): Connection {
  const name = `toolhost-playground:${workspace}`;
  const shared = typeof SharedWorker === 'function';
  let dedicated: Worker | undefined;

  /** A new connection to the workspace's worker, introduced as `role`. */
  const open = (role: 'runner' | 'admin'): MessagePort => {
    if (shared) {
      // vite bundles the worker because of this literal `new SharedWorker(new URL(...), { type: 'module' })`.
      const port = new SharedWorker(new URL('./worker.ts', import.meta.url), { type: 'module', name }).port;
      port.postMessage({ playground: role });
      return port;
    }
    dedicated ??= new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name });
    const channel = new MessageChannel();
    dedicated.postMessage(null, [channel.port2]);
    channel.port1.postMessage({ playground: role });
    return channel.port1;
  };

  const adminPort = open('admin');
  adminPort.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { kind?: unknown } | null;
    if (data && typeof data.kind === 'string') onNotice(data as AdminNotice);
  });
  adminPort.start();
  const admin = wrap<AdminApi>(adminPort);

  const runner = connectToolRunner(
    // A factory: after a hang the bridge opens a new connection. A SharedWorker cannot be ended from a
    // page, so the tools' own deadlines (grep checks its signal and time budget) are what stop runaway work.
    () => open('runner'),
    { startupTimeoutMs: 30_000 },
  );

  return {
    workspace,
    runner,
    admin,
    shared,
    async close() {
      await runner.terminate();
      adminPort.close();
      dedicated?.terminate();
    },
  };
}
