/**
 * The page side's worker sessions and their watchdog: starts a worker (through the factory, or the
 * one endpoint given), waits for its runner, sends requests with their deadlines, probes a worker that
 * is late, and terminates and replaces one that is hung or has exited. Every request resolves with an
 * envelope; nothing here rejects.
 */
import { type Endpoint, type Remote } from 'comlink';
import type { ToolMessage } from '../core/runner.js';
import { type RemoteEnvelope, type ToolRunnerWorkerApi, type WorkerNotice } from './protocol.js';
/** Lifecycle of a remote runner. */
export type RemoteToolRunnerStatus = 'starting' | 'ready' | 'unavailable' | 'terminated';
interface PendingRequest {
    started: boolean;
    startedAt: number;
    deadlineMs: number | undefined;
    settle(envelope: RemoteEnvelope<never>): void;
}
/** The worker's methods as comlink proxies, each read once per worker (see `start`). */
export type WorkerMethods = Pick<Remote<ToolRunnerWorkerApi>, keyof ToolRunnerWorkerApi>;
/** One worker: its endpoint, methods, readiness and the requests in flight on it. */
export interface Session {
    endpoint: Endpoint;
    api: WorkerMethods;
    ready: Promise<void>;
    isReady: boolean;
    dead: boolean;
    died: Promise<void>;
    markDead(): void;
    requests: Set<PendingRequest>;
    pageRuns: Map<string, AbortController>;
    probe: Promise<boolean> | undefined;
    dispose(): void;
}
/** How the sessions are run: the timing options of connectToolRunner and its hooks. */
export interface SessionSettings {
    graceMs: number;
    startupTimeoutMs: number;
    controlTimeoutMs: number;
    terminate(endpoint: Endpoint): void | Promise<void>;
    watch?: ((endpoint: Endpoint, onExit: (reason: string) => void) => (() => void) | void) | undefined;
    onRestart?: ((event: {
        reason: string;
        restarts: number;
    }) => void) | undefined;
}
/** What the page side does with a worker's notices, and what it restores on a new worker. */
export interface SessionHooks {
    deliver(message: ToolMessage): void;
    runPageTool(session: Session, notice: Extract<WorkerNotice, {
        toolhost: 'page_call';
    }>): void;
    /** Sends the page's state (page-side tools, permissions, plan mode) to a worker that just started. */
    restore(api: WorkerMethods): Promise<void>;
}
/** A request as the runner methods describe it to {@link WorkerSessions.request}. */
export interface RequestSpec<T> {
    label: string;
    deadlineMs: number | undefined;
    signal: AbortSignal | undefined;
    /** Sends the request; `requestId` is set only when `signal` is (the call can be cancelled). */
    invoke: (api: WorkerMethods, requestId: string | undefined) => Promise<RemoteEnvelope<T>>;
}
/** The sessions of one remote runner. */
export interface WorkerSessions {
    request<T>(spec: RequestSpec<T>): Promise<RemoteEnvelope<T>>;
    /** A control request (tools, declarations, register, ...) with the control deadline. */
    control<T>(label: string, invoke: (api: WorkerMethods) => Promise<RemoteEnvelope<T>>): Promise<RemoteEnvelope<T>>;
    readonly status: RemoteToolRunnerStatus;
    readonly restarts: number;
    terminate(): Promise<void>;
}
/**
 * Starts the sessions of a remote runner on `workerOrFactory` (a factory's first worker at once, so it
 * sets up while the host does other work). See connectToolRunner for the timeout and restart rules.
 */
export declare function startWorkerSessions(workerOrFactory: Endpoint | (() => Endpoint), settings: SessionSettings, hooks: SessionHooks): WorkerSessions;
export {};
