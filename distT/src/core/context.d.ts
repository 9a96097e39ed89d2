/**
 * The {@link ToolContext} a tool receives for one call, built lazily: creating one is a single small
 * object, and what costs something (the call's id, its AbortSignal) is made only when read. The runner
 * owns the call; this object carries its per-call state changes and ends with it.
 */
import { ToolError } from './errors.js';
import type { FileCache } from './file-cache.js';
import type { DenialTracker, PermissionChecker } from './permissions.js';
import type { HostHooks, ToolContext } from './tool.js';
import type { FsPromises, JsonValue, Platform } from './types.js';
/** A message a tool sent with `ctx.send`, as the host's `onMessage` receives it. */
export interface ToolMessage {
    conversationId: string;
    callId: string;
    tool: string;
    message: JsonValue;
}
/** A handler of {@link ToolMessage}s. */
export type MessageHandler = (message: ToolMessage) => void | Promise<void>;
/** One conversation's tool state as the runner caches it. */
export interface ConversationState {
    /** JSON text per key: reads parse a fresh copy, so tools cannot change the cache by mutation. */
    values: Map<string, string>;
    fileCache: FileCache;
    /** On a shared store (one with `lock` and `snapshot`): the store's version these values are. */
    version?: string | undefined;
}
/** What every context of one runner shares (the runner's live settings are read at each access). */
export interface ContextHost {
    readonly platform: Platform;
    readonly cwd: string;
    readonly verbose: boolean;
    readonly hooks: HostHooks;
    readonly denialTracker: DenialTracker;
    permissions(): PermissionChecker;
    planMode(): boolean;
    isIdle(): boolean;
    readonly onMessage: MessageHandler | undefined;
    /** Runs `fn` holding `path`'s write lock; `signal` gives up waiting for it (`cancelled` / `timeout`). */
    withPathLock<T>(path: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}
/** One call's identity and wiring, as the runner hands it to {@link CallContext}. */
export interface CallInfo {
    tool: string;
    conversationId: string;
    callId: string | undefined;
    /** The caller's signal (lazily linked to the context's own), when the runner does not own a controller. */
    callerSignal: AbortSignal | undefined;
    /** The runner's controller for this call (deadline and cancel), when it made one. */
    controller: AbortController | undefined;
    /** When the call's deadline fires (`Date.now()` ms); undefined without one. */
    deadline?: number | undefined;
    onMessage: MessageHandler | undefined;
}
/** The call's state changes, to persist before its result is returned. */
export interface StateChanges {
    dirty: Map<string, string | undefined>;
    previous: Map<string, string | undefined>;
}
/**
 * The `cancelled` (or, for a deadline, `timeout`) error of a call whose signal fired.
 * A signal aborted with a ToolError `timeout` keeps that code and message.
 */
export declare function cancelled(name: string, signal: AbortSignal): ToolError;
/**
 * The reason a call's own signal is aborted with once the call is over (so work the tool left behind
 * stops). Built without a stack: it is made for many calls and a stack would only point here.
 */
export declare function endedReason(name: string): ToolError;
/** The lazily built {@link ToolContext} of one call. */
export declare class CallContext implements ToolContext {
    #private;
    readonly conversationId: string;
    constructor(host: ContextHost, info: CallInfo, state: ConversationState);
    get callId(): string;
    get signal(): AbortSignal;
    get deadline(): number | undefined;
    get cwd(): string;
    get fs(): FsPromises;
    /** The paths the call changed (or began changing) through `ctx.fs`, in order, at most 1,000. */
    get changedPaths(): readonly string[];
    /** True while a change the call started through `ctx.fs` is still running. */
    get changing(): boolean;
    /** Resolves once no change the call started through `ctx.fs` is still running (at once when none is). */
    changesSettled(): Promise<void>;
    /**
     * True once the call started changing a file through `ctx.fs` (a write, rename, removal, mkdir...):
     * the runner then waits for the tool's own answer instead of answering `timeout` or `cancelled`.
     */
    get changedFiles(): boolean;
    get platform(): Platform;
    get planMode(): boolean;
    get permissions(): PermissionChecker;
    get fileCache(): FileCache;
    get denialTracker(): DenialTracker;
    get verbose(): boolean;
    get hooks(): HostHooks;
    isIdle(): boolean;
    send(message: JsonValue): Promise<void>;
    getState<T extends JsonValue = JsonValue>(key: string): T | undefined;
    setState<T extends JsonValue = JsonValue>(key: string, value: T | undefined): void;
    withPathLock<T>(path: string, fn: () => Promise<T>): Promise<T>;
    /**
     * Ends the call: later `setState` calls throw, and a signal the tool read (or the runner's) is
     * aborted with "has ended" so work left behind stops. Returns the state changes to persist.
     */
    end(): StateChanges | undefined;
}
