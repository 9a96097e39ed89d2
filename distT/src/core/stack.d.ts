/**
 * Runs `fn` with V8's stack capture off, for errors made on a hot path whose stack would tell nobody
 * anything (a missing path looked up before every create, the reason a finished call's signal is
 * aborted with). Returns `fn`'s value or rethrows what it threw; the limit is restored either way.
 */
export declare function withoutStackTrace<T>(fn: () => T): T;
