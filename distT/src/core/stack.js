/** V8's `Error.stackTraceLimit` (Chromium, Node); elsewhere setting it has no effect. */
const V8Error = Error;
/**
 * Runs `fn` with V8's stack capture off, for errors made on a hot path whose stack would tell nobody
 * anything (a missing path looked up before every create, the reason a finished call's signal is
 * aborted with). Returns `fn`'s value or rethrows what it threw; the limit is restored either way.
 */
export function withoutStackTrace(fn) {
    const limit = V8Error.stackTraceLimit;
    V8Error.stackTraceLimit = 0;
    try {
        return fn();
    }
    finally {
        V8Error.stackTraceLimit = limit;
    }
}
//# sourceMappingURL=stack.js.map