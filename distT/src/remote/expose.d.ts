/**
 * The worker side of the bridge: serves a {@link ToolRunner} over a comlink endpoint (see
 * protocol.ts for the wire format).
 */
import { type Endpoint } from 'comlink';
import type { ToolMessage, ToolRunner } from '../core/runner.js';
/** What a {@link ToolRunnerSetup} is given: the sink for `ctx.send` messages bound to this connection. */
export interface WorkerBridge {
    /** Pass it as the runner's `onMessage` so `ctx.send` messages reach the host's `onMessage`. */
    onMessage(message: ToolMessage): void;
}
/**
 * Builds the worker's runner (sync or async), typically from a persistent platform so that a restarted
 * worker finds every acknowledged file and state value: `({ onMessage }) => new ToolRunner({ platform,
 * tools: BuiltinTools.all(), onMessage })`. It runs once per exposure, i.e. once per worker start.
 */
export type ToolRunnerSetup = (bridge: WorkerBridge) => ToolRunner | Promise<ToolRunner>;
/** The handle {@link exposeToolRunner} returns. */
export interface ExposedToolRunner {
    /** The served runner, once set up (rejects when the setup threw). */
    readonly runner: Promise<ToolRunner>;
    /** Forwards a {@link ToolMessage} to the host; give it as `onMessage` to a runner built before exposing. */
    relay(message: ToolMessage): void;
    /**
     * Resolves when the page has left: it sent `bye` (its `terminate()`), or the endpoint reported
     * `close` (a MessagePort whose other end closed, where the browser reports it). A SharedWorker uses it
     * to forget a closed tab.
     */
    readonly closed: Promise<void>;
}
/**
 * Serves a {@link ToolRunner} over a comlink endpoint: tools, declarations, execute,
 * processToolCalls, register (page-side tools: the worker registers a Tool whose calls are forwarded to
 * the page), unregister, setPermissions, setPlanMode, cancellation, and `ctx.send` messages to the host's `onMessage`.
 *
 * `target` is a ready runner or a {@link ToolRunnerSetup}. With a setup, `ctx.send` messages reach the
 * host automatically; with a ready runner, build it with `onMessage: (m) => exposed.relay(m)`.
 * `endpoint` defaults to the worker's global scope (`globalThis` inside a dedicated worker), looked up
 * only when this function is called; pass a MessagePort for a SharedWorker connection, or comlink's
 * `nodeEndpoint(parentPort)` on Node (see `exposeToolRunnerInWorker` in `toolhost/node`).
 * The listener is attached synchronously, so call this at the top level of the worker module, before
 * any `await`; requests that arrive while an async setup runs wait for it. A failed setup answers every
 * request with `unavailable` and the setup's message.
 */
export declare function exposeToolRunner(target: ToolRunner | ToolRunnerSetup, endpoint?: Endpoint): ExposedToolRunner;
