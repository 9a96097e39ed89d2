/**
 * Every way a tool call can fail, as a string code that survives a worker boundary and minification.
 * Check `error.code`, never `instanceof`.
 */
export type ToolErrorCode =
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'permission_denied'
  | 'cancelled'
  | 'timeout'
  | 'execution_failed'
  | 'not_found'
  | 'already_exists'
  | 'not_a_directory'
  | 'is_a_directory'
  | 'outside_workspace'
  | 'no_match'
  | 'ambiguous_match'
  | 'no_change'
  | 'binary_file'
  | 'stale_file'
  | 'too_large'
  | 'invalid_pattern'
  | 'quota_exceeded'
  | 'unavailable';

/** All codes of {@link ToolErrorCode}, in a fixed order. */
export const TOOL_ERROR_CODES: readonly ToolErrorCode[] = [
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

const CODE_SET: ReadonlySet<string> = new Set(TOOL_ERROR_CODES);

/** True when `value` is one of the {@link ToolErrorCode} strings. */
export function isToolErrorCode(value: unknown): value is ToolErrorCode {
  return typeof value === 'string' && CODE_SET.has(value);
}

/**
 * The one error type of toolhost: a message that says what to do next, plus a {@link ToolErrorCode}.
 * `details` carries structured, JSON-safe extras (e.g. `{ count: 3 }` for `ambiguous_match`).
 */
export class ToolError extends Error {
  readonly code: ToolErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: ToolErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    if (details !== undefined) this.details = details;
  }
}

/** True for any object carrying a valid `code` (a ToolError, or one rebuilt after a worker hop). */
export function isToolError(value: unknown): value is { code: ToolErrorCode; message: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    isToolErrorCode((value as { code?: unknown }).code) &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

const FS_CODES: Record<string, ToolErrorCode> = {
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

/** The string `code` of an error (a Node errno code or a ToolError code), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Converts anything thrown into a {@link ToolError}: ToolErrors pass through, an object with a valid
 * `code` and `message` (a ToolError rebuilt after a worker hop) keeps its code and `details`, Node/ZenFS errors are
 * mapped by their `code` (`ENOENT` → `not_found`, `ENOSPC` → `quota_exceeded`, ...; ZenFS renames its
 * classes when minified, so only `code` is trusted), a DOMException `QuotaExceededError` becomes
 * `quota_exceeded`, everything else `execution_failed` with its message kept.
 */
export function toToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (isToolError(error)) return new ToolError(error.code, error.message, plainDetails((error as { details?: unknown }).details));
  const message =
    error instanceof Error ? error.message : typeof error === 'string' ? error : safeString(error);
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'QuotaExceededError') return new ToolError('quota_exceeded', message);
  // Own keys only: `code in FS_CODES` would find `constructor` or `toString` on the prototype and
  // yield a function as the code, which cannot cross a worker (DataCloneError).
  if (typeof code === 'string' && Object.hasOwn(FS_CODES, code)) {
    return new ToolError(FS_CODES[code] as ToolErrorCode, message);
  }
  return new ToolError('execution_failed', message || 'the tool failed without a message');
}

/** `details` when it is a plain object (as a ToolError's, possibly after a structured clone), else undefined. */
function plainDetails(details: unknown): Record<string, unknown> | undefined {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return undefined;
  return details as Record<string, unknown>;
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
