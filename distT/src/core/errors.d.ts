/**
 * Every way a tool call can fail, as a string code that survives a worker boundary and minification.
 * Check `error.code`, never `instanceof`.
 */
export type ToolErrorCode = 'unknown_tool' | 'invalid_arguments' | 'permission_denied' | 'cancelled' | 'timeout' | 'execution_failed' | 'not_found' | 'already_exists' | 'not_a_directory' | 'is_a_directory' | 'outside_workspace' | 'no_match' | 'ambiguous_match' | 'no_change' | 'binary_file' | 'stale_file' | 'too_large' | 'invalid_pattern' | 'quota_exceeded' | 'unavailable';
/** All codes of {@link ToolErrorCode}, in a fixed order. */
export declare const TOOL_ERROR_CODES: readonly ToolErrorCode[];
/** True when `value` is one of the {@link ToolErrorCode} strings. */
export declare function isToolErrorCode(value: unknown): value is ToolErrorCode;
/**
 * The one error type of toolhost: a message that says what to do next, plus a {@link ToolErrorCode}.
 * `details` carries structured, JSON-safe extras (e.g. `{ count: 3 }` for `ambiguous_match`).
 */
export declare class ToolError extends Error {
    readonly code: ToolErrorCode;
    readonly details?: Record<string, unknown>;
    constructor(code: ToolErrorCode, message: string, details?: Record<string, unknown>);
}
/** True for any object carrying a valid `code` (a ToolError, or one rebuilt after a worker hop). */
export declare function isToolError(value: unknown): value is {
    code: ToolErrorCode;
    message: string;
};
/**
 * Converts anything thrown into a {@link ToolError}: ToolErrors pass through, an object with a valid
 * `code` and `message` (a ToolError rebuilt after a worker hop) keeps its code and `details`, Node/ZenFS errors are
 * mapped by their `code` (`ENOENT` → `not_found`, `ENOSPC` → `quota_exceeded`, ...; ZenFS renames its
 * classes when minified, so only `code` is trusted), a DOMException `QuotaExceededError` becomes
 * `quota_exceeded`, everything else `execution_failed` with its message kept.
 */
export declare function toToolError(error: unknown): ToolError;
