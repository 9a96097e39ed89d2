/**
 * Tools that run on the page while the worker's runner validates their calls and applies
 * permissions: their descriptors (what the worker is told), the page-side run of a forwarded call and
 * the context such a tool gets.
 */
import { ToolError, toToolError } from '../core/errors.js';
import { createToolEntry } from '../core/entry.js';
import { isStandardSchema } from '../core/standard-schema.js';
import { isExecuteTool } from '../core/tool.js';
import { fail, failure } from './protocol.js';
/** Builds a {@link PageTool}; throws a TypeError naming the tool, as ToolRunner.register rejects. */
export function pageTool(tool) {
    const entry = createToolEntry(tool);
    const descriptor = {
        name: entry.name,
        description: entry.description,
        parameters: entry.parameters,
        readOnly: entry.readOnly,
        concurrencySafe: entry.concurrencySafe,
        annotations: entry.annotations,
    };
    if (entry.outputSchema)
        descriptor.outputSchema = entry.outputSchema;
    return { entry, descriptor, parseOnPage: isExecuteTool(tool) && isStandardSchema(tool.inputSchema) };
}
/**
 * Runs a page-side tool for the worker's `page_call` notice and posts its `page_result`. The worker
 * validated the arguments against the tool's JSON Schema; a Standard Schema tool's library validates
 * again here, so its refinements and transforms apply before `execute`.
 */
export function runPageTool(session, notice, pageTools, deliver) {
    const reply = (envelope) => {
        session.pageRuns.delete(notice.pageCallId);
        if (session.dead)
            return;
        const message = { toolhost: 'page_result', pageCallId: notice.pageCallId, envelope };
        try {
            session.endpoint.postMessage(message);
        }
        catch (error) {
            session.endpoint.postMessage({
                toolhost: 'page_result',
                pageCallId: notice.pageCallId,
                envelope: fail('execution_failed', `${notice.name} returned a value that cannot cross to the worker: ${toToolError(error).message}`),
            });
        }
    };
    const entry = pageTools.get(notice.name);
    if (!entry) {
        reply(fail('unknown_tool', `page-side tool "${notice.name}" is no longer registered on the page`));
        return;
    }
    const controller = new AbortController();
    session.pageRuns.set(notice.pageCallId, controller);
    const { entry: tool, parseOnPage } = entry;
    Promise.resolve()
        .then(() => (parseOnPage ? tool.parse(notice.args, notice.name) : notice.args))
        .then((input) => tool.run(input, tool.usesContext ? pageContext(notice.info, controller.signal, notice.name, deliver) : undefined))
        .then((value) => ({ ok: true, value: value === undefined ? null : value }), (error) => failure(error))
        .then(reply);
}
/** The context a page-side `needsContext` tool receives: the call's plain fields, plus `send`. */
export function pageContext(info, signal, tool, deliver) {
    const inWorker = (member) => {
        throw new ToolError('unavailable', `ctx.${member} lives in the tool worker; page-side tool ${tool} cannot use it (register the tool in the worker instead)`);
    };
    return {
        conversationId: info.conversationId,
        callId: info.callId,
        signal,
        deadline: info.deadline,
        cwd: info.cwd,
        planMode: info.planMode,
        verbose: info.verbose,
        isIdle: () => info.idle,
        async send(message) {
            deliver({ conversationId: info.conversationId, callId: info.callId, tool, message });
        },
        get fs() {
            return inWorker('fs');
        },
        get platform() {
            return inWorker('platform');
        },
        get permissions() {
            return inWorker('permissions');
        },
        get fileCache() {
            return inWorker('fileCache');
        },
        get denialTracker() {
            return inWorker('denialTracker');
        },
        get hooks() {
            return inWorker('hooks');
        },
        getState: () => inWorker('getState'),
        setState: () => inWorker('setState'),
        withPathLock: () => inWorker('withPathLock'),
    };
}
//# sourceMappingURL=page-tools.js.map