import { type ConnectToolRunnerOptions, type Endpoint } from '../src/remote/remote.js';
import type { CallOptions, FunctionDeclaration, ToolCall, ToolCallResult } from '../src/core/runner.js';
import type { ToolHost, ToolInfo } from '../src/core/host.js';
/** Options of {@link connectWorkspaceRunner}. */
export interface WorkspaceRunnerOptions extends ConnectToolRunnerOptions {
    /** The workspace all tabs share; names the lock and the channel (`toolhost:<workspace>`). */
    workspace: string;
    /**
     * Creates the shared worker that serves this workspace (its module calls `exposeSharedToolRunner`).
     * Used when the browser has SharedWorker; all tabs then talk to one runtime directly.
     */
    sharedWorker?: () => {
        port: MessagePort;
    };
    /** Creates a dedicated worker (its module calls `exposeToolRunner`): run by the elected leader tab only. */
    worker: () => Endpoint;
    /** Use Web Locks leader election even where SharedWorker exists (tests, or a worker module that is dedicated-only). */
    preferLocks?: boolean;
    /** Web Locks (default `navigator.locks`, read when called). */
    locks?: LockManager;
    /** Channel factory (default `new BroadcastChannel(name)`). */
    channel?: (name: string) => BroadcastChannel;
}
/** How this tab reaches the workspace's one runtime. */
export type WorkspaceRole = 'shared' | 'leader' | 'follower';
/**
 * One workspace's runtime as a tab sees it: the runner methods of {@link RemoteToolRunner} that work
 * from any tab (page-side tools and `onMessage` only through a SharedWorker or in the leader tab).
 */
export interface WorkspaceRunner extends ToolHost {
    /** The workspace runtime's tools with annotations (as {@link RemoteToolRunner.tools}). */
    tools(): Promise<ToolInfo[]>;
    declarations(): Promise<FunctionDeclaration[]>;
    execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
    processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]>;
    /** Current role: `shared` (SharedWorker), `leader` (this tab runs the worker) or `follower`. */
    readonly role: WorkspaceRole;
    /** Leaves: a leader ends its worker and releases the lock, so another tab takes over. */
    terminate(): Promise<void>;
}
/**
 * Connects a tab to the one runtime of a workspace (one writer per workspace; two tabs see
 * each other's writes and never lose one). With SharedWorker (and no `preferLocks`), every tab connects
 * to the same shared worker. Without it, tabs elect a leader with Web Locks (`toolhost:<workspace>`,
 * exclusive): the leader runs the dedicated worker through {@link connectToolRunner} (hung-worker
 * replacement included) and serves the other tabs' calls, which travel over a BroadcastChannel of the
 * same name. When the leader tab closes, its lock is released and the next tab becomes leader, mounting
 * the workspace from IndexedDB (every acknowledged write is there); calls that were in flight to the old
 * leader answer `unavailable` (their effects are unknown: retry them). An AbortSignal only works in the
 * shared and leader roles. Errors: as {@link RemoteToolRunner}; `unavailable` when neither SharedWorker
 * nor Web Locks + BroadcastChannel exist.
 */
export declare function connectWorkspaceRunner(options: WorkspaceRunnerOptions): WorkspaceRunner;
