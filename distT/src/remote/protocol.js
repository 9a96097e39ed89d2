/**
 * The worker protocol shared by the worker side ({@link exposeToolRunner}) and the page side
 * ({@link connectToolRunner}). Requests go through comlink (`wrap` on the host, `expose` in the worker)
 * and always resolve to an envelope `{ ok: true, value } | { ok: false, code, message, details? }`:
 * comlink carries only name, message and stack of a thrown error, so the bridge never throws across
 * the boundary and rebuilds a {@link ToolError} with its `code` on the other side. One-way notices
 * (worker ready, `ctx.send` messages, calls of page-side tools, cancellation, a page leaving) travel as
 * plain `postMessage`s tagged `toolhost` on the same endpoint; comlink ignores them (they carry no
 * comlink `id`/`type`), and they keep their order relative to results, so a `ctx.send` message
 * reaches `onMessage` before the result of the call that sent it. Page-side tools are called through
 * such notices rather than through a `comlink.proxy` callback: no extra MessagePort is opened per
 * tool, so nothing is left to keep a Node host alive or leak after a worker restart.
 */
import { ToolError, isToolErrorCode, toToolError } from '../core/errors.js';
const NOTICE_KINDS = new Set(['ready', 'message', 'page_call', 'page_cancel', 'cancel', 'page_result', 'bye']);
/** True for a toolhost notice (anything else on the endpoint is comlink's). */
export function isNotice(data) {
    return (typeof data === 'object' &&
        data !== null &&
        typeof data.toolhost === 'string' &&
        NOTICE_KINDS.has(data.toolhost));
}
/** Turns anything thrown into a failure envelope (code kept for ToolErrors and rebuilt ones). */
export function failure(error) {
    const toolError = toToolError(error);
    const envelope = {
        ok: false,
        code: toolError.code,
        message: toolError.message,
    };
    if (toolError.details !== undefined)
        envelope.details = toolError.details;
    return envelope;
}
/** A failure envelope. */
export function fail(code, message) {
    return { ok: false, code, message };
}
/** Rebuilds the {@link ToolError} a failure envelope describes (an unknown code becomes `execution_failed`). */
export function toError(envelope) {
    const code = isToolErrorCode(envelope.code) ? envelope.code : 'execution_failed';
    const message = typeof envelope.message === 'string' ? envelope.message : 'the tool worker failed without a message';
    return new ToolError(code, message, envelope.details);
}
/** Ids unique to this side of one connection: a random prefix and a counter. */
export function newIdSource() {
    const prefix = Math.random().toString(36).slice(2, 10);
    let n = 0;
    return () => `${prefix}-${(n += 1)}`;
}
/** True for a toolhost envelope. */
export function isEnvelope(value) {
    return typeof value === 'object' && value !== null && typeof value.ok === 'boolean';
}
/** A request that could not be sent: arguments that cannot be cloned are the caller's mistake. */
export function sendFailure(error, label) {
    if (error?.name === 'DataCloneError') {
        return fail('invalid_arguments', `${label}: the arguments cannot be sent to the tool worker (${toToolError(error).message}); pass JSON values`);
    }
    return failure(error);
}
/** The runner's call options for a request's wire options. */
export function wireToCall(options) {
    const out = {};
    if (typeof options?.conversationId === 'string')
        out.conversationId = options.conversationId;
    if (typeof options?.timeoutMs === 'number')
        out.timeoutMs = options.timeoutMs;
    return out;
}
//# sourceMappingURL=protocol.js.map