import { McpServer } from '@modelcontextprotocol/server';
import { checkOptions, checkToolHost, is } from '../../src/core/options.js';
/** The checks of {@link CreateMcpServerOptions}. */
const MCP_SERVER_RULES = {
    name: is.nonEmptyString,
    version: is.nonEmptyString,
    instructions: is.string,
    conversation: is.nonEmptyString,
    timeoutMs: is.deadlineMs,
    permissionPrompt: is.withMethods(['ask', 'track'], 'a prompt from createMcpPermissionPrompt()'),
};
/** Builds a {@link McpPermissionPrompt}; one can serve any number of servers (sessions). */
export function createMcpPermissionPrompt() {
    const running = new Map();
    return {
        track(callId, ctx, server) {
            running.set(callId, { ctx, server });
            return () => running.delete(callId);
        },
        async ask(request) {
            const entry = running.get(request.callId);
            if (!entry)
                throw new Error(`${request.tool} was not called through an MCP client that can be asked`);
            const capabilities = entry.server.server.getClientCapabilities();
            if (!capabilities?.elicitation) {
                throw new Error(`the MCP client cannot show a permission prompt (it did not declare the elicitation capability); allow ${request.tool} in the server's permission rules`);
            }
            const result = await entry.ctx.mcpReq.elicitInput({
                mode: 'form',
                message: `Allow ${request.tool} with ${JSON.stringify(request.args)}?`,
                requestedSchema: {
                    type: 'object',
                    properties: {
                        answer: {
                            type: 'string',
                            title: 'Permission',
                            enum: ['allow_once', 'allow_session', 'deny'],
                            description: 'allow_once: this call; allow_session: this tool for the rest of the session; deny: refuse',
                        },
                    },
                    required: ['answer'],
                },
            }, { signal: request.signal });
            if (result.action !== 'accept')
                return 'deny';
            const answer = result.content?.['answer'];
            return answer === 'allow_once' || answer === 'allow_session' ? answer : 'deny';
        },
    };
}
/**
 * A Standard Schema that accepts every value and reports `schema` as its JSON Schema: the host
 * validates arguments itself (with coded `invalid_arguments` messages), so the SDK only lists it.
 */
function listedSchema(schema) {
    const json = () => ({ ...schema });
    return {
        '~standard': {
            version: 1,
            vendor: 'toolhost',
            validate: (value) => ({ value }),
            jsonSchema: { input: json, output: json },
        },
    };
}
const IMAGE_MIME = /^image\/(png|jpeg|gif|webp)$/;
/** A result without its inline image bytes, and the image content block for them. */
function splitImage(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return { rest: value };
    const record = value;
    const data = record['data_base64'];
    const mime = record['mime_type'];
    if (typeof data !== 'string' || typeof mime !== 'string' || !IMAGE_MIME.test(mime))
        return { rest: value };
    const { data_base64: _data, ...rest } = record;
    return { rest, image: { type: 'image', data, mimeType: mime } };
}
/**
 * The MCP `tools/call` answer for one toolhost result: success = `structuredContent` (the output, or
 * `{ result }` for an output that is not an object) plus a text block with the same JSON (a string
 * output is its own text), and an image block for `view_file`'s inline image; failure = `isError:
 * true` with the text `code: message` and `structuredContent: { error, code }`.
 */
export function toCallToolResult(result) {
    if ('code' in result) {
        return {
            isError: true,
            content: [{ type: 'text', text: `${result.code}: ${result.error}` }],
            structuredContent: { error: result.error, code: result.code },
        };
    }
    const { rest, image } = splitImage(result.result);
    const isObject = typeof rest === 'object' && rest !== null && !Array.isArray(rest);
    const structured = isObject ? rest : { result: rest ?? null };
    const text = typeof rest === 'string' ? rest : JSON.stringify(rest ?? null);
    const content = [];
    if (image)
        content.push(image);
    content.push({ type: 'text', text });
    return { content, structuredContent: structured };
}
/** Numbers a tool's `ctx.send` messages as MCP progress: `{ progress, total?, message? }` objects keep theirs. */
function progressParams(message, count) {
    if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
        const { progress, total, message: text } = message;
        if (typeof progress === 'number') {
            return {
                progress,
                ...(typeof total === 'number' ? { total } : {}),
                ...(typeof text === 'string' ? { message: text } : {}),
            };
        }
    }
    return { progress: count, message: typeof message === 'string' ? message : JSON.stringify(message) };
}
let instances = 0;
/**
 * Serves a {@link ToolHost}'s tools as an MCP server on the official TypeScript SDK's `McpServer`
 * (`@modelcontextprotocol/server` 2.x: protocol 2025-11-25 and the earlier revisions the SDK
 * negotiates through `initialize`; 2026-07-28 through {@link serveMcpHttp}). Connect the result to one
 * transport (`server.connect(transport)`): stdio, Streamable HTTP ({@link serveMcpHttp} on Node), or a
 * `MessagePort` ({@link MessagePortTransport}); make one server per connection.
 *
 * - `tools/list`: each tool with its `inputSchema` (the host's JSON Schema as it is), `outputSchema`
 *   when declared, annotations (`readOnlyHint` always set) and `title`, in the host's order.
 * - `tools/call`: runs through `host.processToolCalls`, so validation, permissions, plan mode,
 *   timeouts and per-path write order are the host's; see {@link toCallToolResult} for the answer.
 *   Calls sent without waiting keep their order as a model turn's do: a read-only (concurrency-safe)
 *   call runs after the mutating calls sent before it, beside other read-only ones.
 * - Progress: when the request has a `progressToken`, each `ctx.send` message of the call becomes a
 *   `notifications/progress`.
 * - `notifications/cancelled`, and a closed HTTP request stream, abort the call's signal (it ends
 *   `cancelled`).
 * - Permission `ask`: see {@link createMcpPermissionPrompt}.
 *
 * The SDK's `registerTool` takes Standard Schemas with a JSON Schema view; each tool is registered
 * with one that reports the host's JSON Schema and accepts every value, since the host validates.
 * Tools the host registers later are not listed by this server; create a new one.
 * A `host` that is not a ToolHost or a bad option (the host's mistakes) rejects with a TypeError naming
 * it: `createMcpServer: host must be a ToolHost such as new ToolRunner({ tools }), not null`.
 */
export async function createMcpServer(host, options = {}) {
    checkToolHost('createMcpServer', host);
    checkOptions('createMcpServer', options, MCP_SERVER_RULES);
    const tools = await host.tools();
    instances += 1;
    const ownConversation = `mcp-${instances}-${crypto.randomUUID()}`;
    const server = new McpServer({ name: options.name ?? 'toolhost', version: options.version ?? '0.0.0' }, { capabilities: { tools: { listChanged: false } }, ...(options.instructions === undefined ? {} : { instructions: options.instructions }) });
    let calls = 0;
    // Calls of one connection keep their arrival order as a model turn's calls do: a concurrency-safe
    // call waits for the mutating call before it; a mutating call waits for every call before it.
    const inFlight = new Set();
    let lastExclusive = Promise.resolve();
    const ordered = (concurrencySafe, run) => {
        const before = concurrencySafe ? lastExclusive : Promise.all([...inFlight]);
        const running = before.then(run, run);
        const settled = running.then(() => undefined, () => undefined);
        inFlight.add(settled);
        void settled.then(() => inFlight.delete(settled));
        if (!concurrencySafe)
            lastExclusive = settled;
        return running;
    };
    for (const info of tools) {
        server.registerTool(info.name, {
            ...(info.annotations.title === undefined ? {} : { title: info.annotations.title }),
            description: info.description,
            inputSchema: listedSchema(info.parameters),
            ...(info.outputSchema === undefined ? {} : { outputSchema: listedSchema(info.outputSchema) }),
            annotations: { ...info.annotations },
        }, async (args, ctx) => {
            calls += 1;
            const id = `mcp-${String(ctx.mcpReq.id)}-${calls}`;
            const token = ctx.mcpReq._meta?.progressToken;
            let sent = 0;
            const callOptions = {
                conversationId: options.conversation ?? ctx.sessionId ?? ownConversation,
                signal: ctx.mcpReq.signal,
            };
            if (options.timeoutMs !== undefined)
                callOptions.timeoutMs = options.timeoutMs;
            if (token !== undefined) {
                callOptions.onMessage = async (message) => {
                    sent += 1;
                    await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...progressParams(message.message, sent) } });
                };
            }
            return ordered(info.concurrencySafe, async () => {
                const untrack = options.permissionPrompt?.track(id, ctx, server);
                try {
                    const [result] = await host.processToolCalls([{ id, name: info.name, args }], callOptions);
                    return toCallToolResult(result ?? { name: info.name, error: 'the host returned no result', code: 'execution_failed' });
                }
                finally {
                    untrack?.();
                }
            });
        });
    }
    return server;
}
//# sourceMappingURL=server.js.map