import { Client } from '@modelcontextprotocol/client';
import { ToolError, isToolErrorCode } from '../../src/core/errors.js';
import { checkOptions, is } from '../../src/core/options.js';
/** An MCP Transport: what `Client.connect` takes. */
const TRANSPORT_RULE = is.withMethods(['start', 'send', 'close'], 'an MCP Client or Transport (stdio, Streamable HTTP, MessagePortTransport)');
/** The checks of {@link McpToolsOptions}. */
const MCP_TOOLS_RULES = {
    prefix: is.string,
    registry: is.withMethods(['register', 'unregister'], 'a ToolRegistry such as a ToolRunner'),
    clientInfo: is.options({ name: is.required(is.string), version: is.required(is.string) }, '{ name, version }'),
};
function isClient(value) {
    return value instanceof Client;
}
/** Reads `code: message` back from a toolhost-style error text; other servers' errors are `execution_failed`. */
function toolErrorOf(name, result) {
    const structured = result.structuredContent;
    const record = typeof structured === 'object' && structured !== null ? structured : {};
    const code = record['code'];
    const message = record['error'];
    if (isToolErrorCode(code) && typeof message === 'string')
        return new ToolError(code, message);
    const text = result.content
        .map((block) => (block.type === 'text' ? block.text : ''))
        .filter((part) => part !== '')
        .join('\n');
    const match = /^([a-z_]+): ([\s\S]*)$/.exec(text);
    if (match && isToolErrorCode(match[1]))
        return new ToolError(match[1], match[2] ?? '');
    return new ToolError('execution_failed', text === '' ? `the MCP tool ${name} failed without a message` : text);
}
/** The output toolhost returns for an MCP result: `structuredContent`, else a single text, else the blocks. */
function outputOf(result) {
    if (result.structuredContent !== undefined)
        return JSON.parse(JSON.stringify(result.structuredContent));
    const blocks = result.content;
    if (blocks.length === 1 && blocks[0]?.type === 'text')
        return blocks[0].text;
    return blocks.map((block) => {
        if (block.type === 'text')
            return { type: 'text', text: block.text };
        if (block.type === 'image' || block.type === 'audio')
            return { type: block.type, mime_type: block.mimeType, data_base64: block.data };
        return JSON.parse(JSON.stringify(block));
    });
}
/** The remote schema without `$schema` (servers on zod declare draft 2020-12; toolhost's validator takes the keywords as they are). */
function withoutDialect(schema) {
    const { $schema: _dialect, ...rest } = schema;
    return rest;
}
function toToolhostTool(client, remote, prefix) {
    const readOnly = remote.annotations?.readOnlyHint === true;
    const tool = {
        name: `${prefix}${remote.name}`,
        description: remote.description ?? remote.title ?? remote.name,
        parameters: withoutDialect(remote.inputSchema),
        readOnly,
        concurrencySafe: readOnly,
        needsContext: true,
        annotations: { ...remote.annotations },
        async call() {
            throw new ToolError('execution_failed', `${remote.name} runs through callWithContext`);
        },
        async callWithContext(args, ctx) {
            const params = { name: remote.name, arguments: (args ?? {}) };
            let result;
            try {
                result = await client.callTool(params, {
                    signal: ctx.signal,
                    timeout: 2_147_483_647,
                    onprogress: (progress) => {
                        void ctx.send({ progress: progress.progress, ...(progress.total === undefined ? {} : { total: progress.total }), ...(progress.message === undefined ? {} : { message: progress.message }) });
                    },
                });
            }
            catch (error) {
                if (ctx.signal.aborted)
                    throw ctx.signal.reason;
                throw new ToolError('unavailable', `the MCP server did not answer ${remote.name}: ${error.message}`);
            }
            if (result.isError)
                throw toolErrorOf(remote.name, result);
            return outputOf(result);
        },
    };
    if (remote.outputSchema)
        Object.assign(tool, { outputSchema: withoutDialect(remote.outputSchema) });
    return tool;
}
/**
 * Turns a remote MCP server's tools into toolhost tools, so a runner hosts them beside the built-ins
 * with its own permissions, timeouts and batching. Takes a connected SDK `Client`, or a `Transport`
 * to connect one to (stdio, Streamable HTTP — also in the browser —, or a {@link MessagePortTransport}).
 *
 * - `readOnlyHint: true` → `readOnly` and concurrency-safe; other annotations are kept.
 * - `isError: true` → a `ToolError`: the code from a toolhost server's `structuredContent` or
 *   `code: message` text, else `execution_failed` with the server's text; a failed request is `unavailable`.
 * - The call's signal (cancel, timeout) aborts the request: the SDK sends `notifications/cancelled`.
 * - Progress notifications reach `ctx.send` as `{ progress, total?, message? }`.
 * - With `registry`, list changes are followed (see {@link McpToolsOptions.registry}).
 *
 * A `source` that is neither a Client nor a Transport, or a bad option (the host's mistakes), rejects
 * with a TypeError naming it: `mcpTools: source must be an MCP Client or Transport (stdio, Streamable
 * HTTP, MessagePortTransport), not null`.
 */
export async function mcpTools(source, options = {}) {
    if (!isClient(source)) {
        const problem = TRANSPORT_RULE(source, 'source');
        if (problem)
            throw new TypeError(`mcpTools: ${problem}`);
    }
    checkOptions('mcpTools', options, MCP_TOOLS_RULES);
    const prefix = options.prefix ?? '';
    const owned = !isClient(source);
    const client = isClient(source) ? source : new Client(options.clientInfo ?? { name: 'toolhost', version: '0.0.0' }, { capabilities: {} });
    if (!isClient(source))
        await client.connect(source);
    let current = [];
    let following = true;
    const refresh = async () => {
        const listed = await client.listTools();
        const next = listed.tools.map((remote) => toToolhostTool(client, remote, prefix));
        if (options.registry) {
            const names = new Set(next.map((tool) => tool.name));
            for (const old of current)
                if (!names.has(old.name))
                    options.registry.unregister(old.name);
            for (const tool of next)
                await options.registry.register(tool);
        }
        current = next;
        return next;
    };
    await refresh();
    if (options.registry) {
        client.setNotificationHandler('notifications/tools/list_changed', async () => {
            if (following)
                await refresh();
        });
    }
    return {
        client,
        tools: () => current.slice(),
        refresh,
        async close() {
            following = false;
            if (owned)
                await client.close();
        },
    };
}
//# sourceMappingURL=client.js.map