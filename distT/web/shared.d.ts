import { type ToolRunnerSetup } from '../src/remote/remote.js';
import type { ToolRunner } from '../src/core/runner.js';
/** The part of a SharedWorker's global scope that {@link exposeSharedToolRunner} uses. */
export interface SharedWorkerScopeLike {
    addEventListener(type: 'connect', listener: (event: MessageEvent) => void): void;
}
/** The handle {@link exposeSharedToolRunner} returns. */
export interface SharedToolRunner {
    /** The one runner every connected page uses (set up on the first connection). */
    readonly runner: Promise<ToolRunner>;
    /** Pages connected now: a page that left (its runner's `terminate()`, or a closed port) is forgotten. */
    readonly connections: number;
}
/**
 * Serves ONE {@link ToolRunner} (so one platform, one live workspace, one writer) to every page that
 * connects to this SharedWorker (two tabs on one workspace see each other's writes and never
 * lose one). Call it at the top level of the shared worker module; each page connects with
 * `connectToolRunner(new SharedWorker(url, { type: 'module' }).port)`. The setup runs once, on the first
 * connection; its `onMessage` broadcasts `ctx.send` messages to every connected page (each carries its
 * `conversationId` and `callId` to filter on). Calls from all pages go through the one runner, so its
 * per-path write locks order their edits. `scope` defaults to the worker's global scope, read only when
 * this is called.
 */
export declare function exposeSharedToolRunner(setup: ToolRunnerSetup, scope?: SharedWorkerScopeLike): SharedToolRunner;
