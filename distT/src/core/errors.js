/** All codes of {@link ToolErrorCode}, in a fixed order. */
export const TOOL_ERROR_CODES = [
    'unknown_tool',
    'invalid_arguments',
    'permission_denied',
    'cancelled',
    'timeout',
    'execution_failed',
    'not_found',
    'already_exists',
    'not_a_directory',
    'is_a_directory',
    'outside_workspace',
    'no_match',
    'ambiguous_match',
    'no_change',
    'binary_file',
    'stale_file',
    'too_large',
    'invalid_pattern',
    'quota_exceeded',
    'unavailable',
];
const CODE_SET = new Set(TOOL_ERROR_CODES);
/** True when `value` is one of the {@link ToolErrorCode} strings. */
export function isToolErrorCode(value) {
    return typeof value === 'string' && CODE_SET.has(value);
}
/**
 * The one error type of toolhost: a message that says what to do next, plus a {@link ToolErrorCode}.
 * `details` carries structured, JSON-safe extras (e.g. `{ count: 3 }` for `ambiguous_match`).
 */
export class ToolError extends Error {
    code;
    details;
    constructor(code, message, details) {
        super(message);
        this.name = 'ToolError';
        this.code = code;
        if (details !== undefined)
            this.details = details;
    }
}
/** True for any object carrying a valid `code` (a ToolError, or one rebuilt after a worker hop). */
export function isToolError(value) {
    return (typeof value === 'object' &&
        value !== null &&
        isToolErrorCode(value.code) &&
        typeof value.message === 'string');
}
const FS_CODES = {
    ENOENT: 'not_found',
    EEXIST: 'already_exists',
    ENOTDIR: 'not_a_directory',
    EISDIR: 'is_a_directory',
    ELOOP: 'execution_failed',
    EACCES: 'permission_denied',
    EPERM: 'permission_denied',
    ENOSPC: 'quota_exceeded',
    EDQUOT: 'quota_exceeded',
    EFBIG: 'too_large',
    ENAMETOOLONG: 'invalid_arguments',
};
/**
 * Converts anything thrown into a {@link ToolError}: ToolErrors pass through, an object with a valid
 * `code` and `message` (a ToolError rebuilt after a worker hop) keeps its code and `details`, Node/ZenFS errors are
 * mapped by their `code` (`ENOENT` → `not_found`, `ENOSPC` → `quota_exceeded`, ...; ZenFS renames its
 * classes when minified, so only `code` is trusted), a DOMException `QuotaExceededError` becomes
 * `quota_exceeded`, everything else `execution_failed` with its message kept.
 */
export function toToolError(error) {
    if (error instanceof ToolError)
        return error;
    if (isToolError(error))
        return new ToolError(error.code, error.message, plainDetails(error.details));
    const message = error instanceof Error ? error.message : typeof error === 'string' ? error : safeString(error);
    const code = error?.code;
    const name = error?.name;
    if (name === 'QuotaExceededError')
        return new ToolError('quota_exceeded', message);
    // Own keys only: `code in FS_CODES` would find `constructor` or `toString` on the prototype and
    // yield a function as the code, which cannot cross a worker (DataCloneError).
    if (typeof code === 'string' && Object.hasOwn(FS_CODES, code)) {
        return new ToolError(FS_CODES[code], message);
    }
    return new ToolError('execution_failed', message || 'the tool failed without a message');
}
/** `details` when it is a plain object (as a ToolError's, possibly after a structured clone), else undefined. */
function plainDetails(details) {
    if (typeof details !== 'object' || details === null || Array.isArray(details))
        return undefined;
    return details;
}
function safeString(value) {
    try {
        return JSON.stringify(value) ?? String(value);
    }
    catch {
        return String(value);
    }
}
//# sourceMappingURL=errors.js.map