// Test page: connects to test/pages/worker.ts through the core bridge and exposes `window.th`
// for Playwright's page.evaluate. Results cross back to Node as JSON-safe values.
import { connectToolRunner, type RemoteToolRunner } from '../../src/remote/remote.js';
import type { CallOptions, ToolCall, ToolCallResult } from '../../src/core/runner.js';
import { defineTool } from '../../src/core/tool.js';
import * as z from 'zod';
import { connectWorkspaceRunner, deleteWorkspace, exportWorkspace, listWorkspaces, type WorkspaceRunner } from '../../web/index.js';

type Envelope = { ok: true; value: unknown } | { ok: false; code: string; message: string };

let remote: RemoteToolRunner | undefined;
/** A rewind started by `th.rewindInBackground`, its answer once it settles. */
let background: Promise<Envelope> | undefined;
/** What a worker with `crashPoints` said on reaching its crash point (see runner-setup.ts): the write it stopped before, and every write counted up to it. */
const crashPoint = new Promise<{ at: number; what: string; log: string[] }>((resolve) => {
  const channel = new BroadcastChannel('toolhost-crash-points');
  channel.onmessage = (event: MessageEvent<{ at: number; what: string; log: string[] }>) => resolve(event.data);
});
let workspaceRunner: WorkspaceRunner | undefined;
const canEvalAtLoad = (() => {
  try {
    return new Function('return true')() as boolean;
  } catch {
    return false;
  }
})();

function runner(): Pick<RemoteToolRunner, 'processToolCalls' | 'execute'> {
  const current = workspaceRunner ?? remote;
  if (!current) throw new Error('th.start() first');
  return current;
}

function remoteRunner(): RemoteToolRunner {
  if (!remote) throw new Error('th.start() first');
  return remote;
}

async function settle(promise: Promise<unknown>): Promise<Envelope> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    const e = error as { code?: string; message?: string; name?: string };
    return { ok: false, code: String(e.code ?? (e.name === 'TypeError' ? 'TypeError' : 'none')), message: String(e.message ?? error) };
  }
}

const th = {
  /** Starts (or restarts) the worker with a JSON config passed as the worker's name. */
  async start(config: Record<string, unknown>, options: { graceMs?: number } = {}): Promise<number> {
    await th.stop();
    const name = JSON.stringify(config);
    remote = connectToolRunner(() => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name }), options);
    return (await remote.declarations()).length;
  },
  /** Connects to the SharedWorker of this config (one runtime for every page that uses the same config). */
  /** Joins the workspace through Web Locks leader election (as where SharedWorker is missing); returns the role. */
  async startLocked(config: Record<string, unknown>): Promise<string> {
    await th.stop();
    const name = JSON.stringify(config);
    workspaceRunner = connectWorkspaceRunner({
      workspace: String(config.workspace),
      worker: () => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name }),
      preferLocks: true,
    });
    await workspaceRunner.declarations();
    return workspaceRunner.role;
  },
  role(): string | undefined {
    return workspaceRunner?.role;
  },
  async startShared(config: Record<string, unknown>): Promise<number> {
    await th.stop();
    const name = JSON.stringify(config);
    const worker = new SharedWorker(new URL('./shared-worker.ts', import.meta.url), { type: 'module', name });
    remote = connectToolRunner(worker.port);
    return (await remote.declarations()).length;
  },
  call(calls: ToolCall[], options: CallOptions = {}): Promise<ToolCallResult[]> {
    return runner().processToolCalls(calls, options);
  },
  execute(name: string, args: unknown, options: CallOptions = {}): Promise<Envelope> {
    return settle(runner().execute(name, args, options));
  },
  /** Registers a page-side tool `echo` (its schema is compiled in the worker). */
  registerEcho(): Promise<Envelope> {
    return settle(
      remoteRunner().register({
        name: 'echo',
        description: 'Echoes its text (runs on the page).',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
        call: async (args: { text: string }) => ({ echoed: args.text }),
      } as never),
    );
  },
  /** The runtime's tools with annotations (through the remote runner or the workspace runner). */
  tools(): Promise<Envelope> {
    const current = workspaceRunner ?? remote;
    if (!current) throw new Error('th.start() first');
    return settle(current.tools());
  },
  /** Registers a page-side tool `page_shout` in the execute form with a zod schema (zod runs on the page). */
  registerShout(): Promise<Envelope> {
    return settle(
      remoteRunner().register(
        defineTool({
          name: 'page_shout',
          description: 'Shouts a word (runs on the page).',
          inputSchema: z.object({ word: z.string().refine((word) => !word.includes(' '), 'one word only').transform((word) => word.toUpperCase()) }),
          annotations: { readOnlyHint: true },
          execute: (input) => ({ shouted: `${input.word}!` }),
        }),
      ),
    );
  },
  /**
   * Whether the page could compile code from strings when it loaded (false under a CSP without
   * 'unsafe-eval'). Measured at load: CDP's Runtime.evaluate lifts the CSP eval block while it runs.
   */
  canEval(): boolean {
    return canEvalAtLoad;
  },
  restarts(): number {
    return remoteRunner().restarts;
  },
  async stop(): Promise<void> {
    await remote?.terminate();
    await workspaceRunner?.terminate();
    remote = undefined;
    workspaceRunner = undefined;
  },
  /** The worker runner's journal of a conversation (`RemoteToolRunner.changes`). */
  changes: (conversationId?: string) => settle(remoteRunner().changes(conversationId)),
  /** A rewind in the worker runner, its answer awaited. */
  rewind: (conversationId: string, options: { toTurn: number; dryRun?: boolean; force?: boolean }) => settle(remoteRunner().rewind(conversationId, options)),
  /** Starts a rewind in the worker runner without waiting for it (see `rewound`). */
  rewindInBackground(conversationId: string, options: { toTurn: number }): void {
    background = settle(remoteRunner().rewind(conversationId, options));
  },
  /** The answer of the rewind `rewindInBackground` started. */
  rewound: (): Promise<Envelope> | undefined => background,
  /** Resolves when a worker with `crashPoints` reaches the write it was armed to stop at. */
  crashPointReached: () => crashPoint,
  list: () => settle(listWorkspaces()),
  remove: (workspace: string) => settle(deleteWorkspace(workspace)),
  /** The workspace as stored in IndexedDB, file bytes decoded as UTF-8. */
  async stored(workspace: string): Promise<Envelope> {
    return settle(
      exportWorkspace(workspace).then((out) => ({
        files: Object.fromEntries(Object.entries(out.files).map(([path, bytes]) => [path, new TextDecoder().decode(bytes)])),
        directories: out.directories,
        symlinks: out.symlinks,
        state: out.state,
      })),
    );
  },
};

(globalThis as unknown as { th: typeof th }).th = th;
document.title = 'toolhost test page ready';
