import { type OptionRule } from './options.js';
/** A request to run a tool that the policy does not settle by itself. */
export interface PermissionRequest {
    tool: string;
    args: unknown;
    conversationId: string;
    callId: string;
    readOnly: boolean;
    /**
     * Aborts when the call is cancelled while the prompt is open (close the dialog then); the call ends
     * `cancelled`. Non-enumerable, so the request can be posted to another thread or page as it is.
     */
    signal: AbortSignal;
}
/** An answer to a {@link PermissionRequest}: this call only, this tool for the rest of the conversation, or no. */
export type PermissionAnswer = 'allow_once' | 'allow_session' | 'deny';
/**
 * Who may run what: `'allow_all'`, `'read_only'` (only tools marked `readOnly`), or rules.
 * In rules, patterns are tool names and a trailing `*` is a prefix match; `deny` wins over `allow`;
 * a read-only tool not matched by either is allowed; anything else goes to `ask`, and is denied
 * when there is no `ask`.
 */
export type PermissionPolicy = 'allow_all' | 'read_only' | {
    allow?: string[];
    deny?: string[];
    ask?: (request: PermissionRequest) => Promise<PermissionAnswer>;
};
/**
 * The check of a {@link PermissionPolicy} option: `'allow_all'`, `'read_only'`, or an object whose
 * `allow` / `deny` are arrays of strings and whose `ask` is a function.
 */
export declare const permissionPolicyRule: OptionRule;
/** One refusal, as the denial tracker keeps it. `time` is ms since the epoch. */
export interface Denial {
    tool: string;
    args: unknown;
    reason: string;
    conversationId: string;
    time: number;
}
/** Log of every refused call. Keeps the newest 1,000. */
export declare class DenialTracker {
    #private;
    /** Records a refusal. */
    record(denial: Denial): void;
    /** Refusals so far, oldest first (a copy). */
    list(): Denial[];
    /** How many refusals there were, optionally for one tool. */
    count(tool?: string): number;
    /** Forgets every refusal. */
    clear(): void;
}
/** The outcome of a permission check: allowed, or denied with a reason for the model. */
export type PermissionDecision = {
    allowed: true;
} | {
    allowed: false;
    reason: string;
};
/** True when `name` matches `pattern` (exact, or prefix when the pattern ends in `*`). */
export declare function matchesToolPattern(pattern: string, name: string): boolean;
/**
 * Applies a {@link PermissionPolicy} and plan mode to tool calls, remembering `allow_session` answers
 * per conversation and tool.
 */
export declare class PermissionChecker {
    #private;
    readonly policy: PermissionPolicy;
    /** Throws a TypeError naming what is wrong with a policy that is not a {@link PermissionPolicy}. */
    constructor(policy?: PermissionPolicy);
    /** Decides a call. `planMode` refuses every tool that is not read-only. Never rejects: a throwing `ask` is a denial. */
    check(request: PermissionRequest, planMode: boolean): Promise<PermissionDecision>;
}
