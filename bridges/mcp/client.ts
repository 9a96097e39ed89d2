import type { CallToolResult, Client, Tool as McpTool, Transport } from '@modelcontextprotocol/client';
import { peerLoader } from '../peer.js';
import { ToolError, isToolErrorCode } from '../../src/core/errors.js';
import type { ExecuteTool, ToolContext } from '../../src/core/tool.js';
import type { JsonSchema, JsonValue } from '../../src/core/types.js';
import { quoteForMessage } from '../../src/fs/text.js';
import { checkOptions, is, rule, type OptionRules } from '../../src/core/options.js';

/**
 * Where {@link mcpTools} registers tools and swaps them when the server's list changes (a
 * `ToolRunner`). `registerAll` adds all the tools or none; `replace` lists the tools the bridge
 * registered before (by identity): only their names may be taken again, and those not in the new list
 * are removed in the same step. A name held by any other tool must be refused with a TypeError.
 */
export interface ToolRegistry {
  registerAll(tools: readonly ExecuteTool[], options: { replace: readonly ExecuteTool[] }): Promise<void> | void;
}

/** An MCP Transport: what `Client.connect` takes. */
const TRANSPORT_RULE = is.withMethods(['start', 'send', 'close'], 'an MCP Client or Transport (stdio, Streamable HTTP, MessagePortTransport)');

/** What a host's `prefix` may be: empty, or the start of a tool name (letters, digits, _ . -). */
const PREFIX_PATTERN = /^(?:[A-Za-z_][A-Za-z0-9_.-]{0,62})?$/;

/** The checks of {@link McpToolsOptions}. */
const MCP_TOOLS_RULES: OptionRules = {
  prefix: rule("'' or the start of a tool name: a letter or _, then letters, digits, _ . - (at most 63)", (v) => typeof v === 'string' && PREFIX_PATTERN.test(v)),
  registry: is.withMethods(['registerAll'], 'a ToolRegistry such as a ToolRunner'),
  clientInfo: is.options({ name: is.required(is.string), version: is.required(is.string) }, '{ name, version }'),
  trustAnnotations: is.boolean,
  maxTools: is.positiveInteger,
  maxSchemaBytes: is.positiveInteger,
};

/** The limits {@link mcpTools} applies to a server's list unless the host gives its own. */
const MCP_TOOLS_DEFAULTS = {
  /** Tools one server may list. */
  maxTools: 1_000,
  /** Bytes of one tool's `inputSchema`, and of its `outputSchema`, as UTF-8 JSON (64 KiB). */
  maxSchemaBytes: 65_536,
} as const;

/** Options of {@link mcpTools}; all optional. */
export interface McpToolsOptions {
  /**
   * Put before each remote tool's name. Default: the server's name (`serverInfo.name` of its
   * `initialize` answer) and `__`, so the server `docs` offers `docs__search` — as Claude Code's
   * `mcp__docs__search` and Gemini CLI's `docs__search`. The name is made provider-safe: characters
   * other than letters, digits, `_` and `-` become `_`, a name that does not start with a letter or `_`
   * gets `mcp_` before it, at most 32 characters are kept, and a server without a name is `mcp`. `__` is
   * the separator because OpenAI, Anthropic and Gemini all take it in function names (`.` and `:` are
   * not legal everywhere). `''` is the host's opt-out: the remote names as they are.
   */
  prefix?: string;
  /**
   * Registers the tools here at once, all or none, and keeps them in step with the server: on
   * `notifications/tools/list_changed` the list is fetched again and swapped in one step (removed tools
   * go, new or changed ones come). A name that is already registered, by anyone but this bridge, is
   * refused (a TypeError): a remote tool never takes a built-in's place.
   */
  registry?: ToolRegistry;
  /** Client name and version when `mcpTools` makes the client (default `toolhost` / `0.0.0`). */
  clientInfo?: { name: string; version: string };
  /**
   * Believe the server's `readOnlyHint` (default false). Remote annotations are claims (the MCP spec
   * says clients must treat them as untrusted unless the server is), so by default a remote tool counts
   * as mutating for permission rules and plan mode whatever it claims; its annotations
   * stay visible on the tools `tools()` returns. Set it only for a server you run or vouch for.
   */
  trustAnnotations?: boolean;
  /** Most tools the server may list (default 1,000); a longer list registers nothing. */
  maxTools?: number;
  /** Largest `inputSchema` / `outputSchema` of one tool, in bytes of JSON (default 65,536); a list with a bigger one registers nothing. */
  maxSchemaBytes?: number;
}

/** What {@link mcpTools} returns. */
export interface McpTools {
  /** The connected client (the one given, or the one made for the transport). */
  readonly client: Client;
  /** The remote tools as toolhost tools, in the server's order. */
  tools(): ExecuteTool[];
  /** Fetches the list again (and updates the registry, if any); resolves with the new tools. */
  refresh(): Promise<ExecuteTool[]>;
  /** Closes the client when `mcpTools` made it; stops following list changes either way. */
  close(): Promise<void>;
}

/**
 * The MCP SDK's client package, loaded on the first `mcpTools` call, so importing `toolhost/mcp/client`
 * never fails; without the package the call rejects naming it and the install command.
 */
const loadClientSdk = peerLoader(
  { entry: 'toolhost/mcp/client', name: '@modelcontextprotocol/client', what: "the MCP TypeScript SDK's client", version: '2' },
  () => import('@modelcontextprotocol/client'),
);

type ClientClass = typeof import('@modelcontextprotocol/client').Client;

function isClient(value: Client | Transport, ClientSdk: ClientClass): value is Client {
  return value instanceof ClientSdk;
}

/** Reads `code: message` back from a toolhost-style error text; other servers' errors are `execution_failed`. */
function toolErrorOf(name: string, result: CallToolResult): ToolError {
  const structured: unknown = result.structuredContent;
  const record = typeof structured === 'object' && structured !== null ? (structured as Record<string, unknown>) : {};
  const code = record['code'];
  const message = record['error'];
  if (isToolErrorCode(code) && typeof message === 'string') return new ToolError(code, message);
  const text = result.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .filter((part) => part !== '')
    .join('\n');
  const match = /^([a-z_]+): ([\s\S]*)$/.exec(text);
  if (match && isToolErrorCode(match[1])) return new ToolError(match[1], match[2] ?? '');
  return new ToolError('execution_failed', text === '' ? `the MCP tool ${name} failed without a message` : text);
}

/** The output toolhost returns for an MCP result: `structuredContent`, else a single text, else the blocks. */
function outputOf(result: CallToolResult): JsonValue {
  if (result.structuredContent !== undefined) return JSON.parse(JSON.stringify(result.structuredContent)) as JsonValue;
  const blocks = result.content;
  if (blocks.length === 1 && blocks[0]?.type === 'text') return blocks[0].text;
  return blocks.map((block): JsonValue => {
    if (block.type === 'text') return { type: 'text', text: block.text };
    if (block.type === 'image' || block.type === 'audio') return { type: block.type, mime_type: block.mimeType, data_base64: block.data };
    return JSON.parse(JSON.stringify(block)) as JsonValue;
  });
}

/** The remote schema without `$schema` (servers on zod declare draft 2020-12; toolhost's validator takes the keywords as they are). */
function withoutDialect(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest as JsonSchema;
}

function toToolhostTool(client: Client, remote: McpTool, name: string, trusted: boolean): ExecuteTool {
  const tool: ExecuteTool = {
    name,
    description: remote.description ?? remote.title ?? remote.name,
    inputSchema: withoutDialect(remote.inputSchema),
    // Kept as the server gave them; untrusted, `readOnlyHint` grants nothing (the tool is treated as mutating).
    annotations: { ...remote.annotations },
    annotationsTrusted: trusted,
    async execute(args: unknown, ctx: ToolContext): Promise<unknown> {
      const params = { name: remote.name, arguments: (args ?? {}) as Record<string, unknown> };
      let result: CallToolResult;
      try {
        result = await client.callTool(params, {
          signal: ctx.signal,
          timeout: 2_147_483_647,
          onprogress: (progress) => {
            void ctx.send({ progress: progress.progress, ...(progress.total === undefined ? {} : { total: progress.total }), ...(progress.message === undefined ? {} : { message: progress.message }) });
          },
        });
      } catch (error) {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        throw new ToolError('unavailable', `the MCP server did not answer ${remote.name}: ${(error as Error).message}`);
      }
      if (result.isError) throw toolErrorOf(remote.name, result);
      return outputOf(result);
    },
  };
  if (remote.outputSchema) Object.assign(tool, { outputSchema: withoutDialect(remote.outputSchema) });
  return tool;
}

/** What the server's own part of a tool name may be: provider-safe (OpenAI, Anthropic, Gemini). */
const REMOTE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** What the whole name, prefix and all, must be: a toolhost tool name of at most 64 characters. */
const FULL_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** Object keys every bridge that keys tools by name would trip on. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** The default prefix for a server of this name (see {@link McpToolsOptions.prefix}). */
function defaultPrefix(serverName: unknown): string {
  let name = typeof serverName === 'string' ? serverName.replace(/[^A-Za-z0-9_-]/gu, '_') : '';
  if (name === '') name = 'mcp';
  else if (!/^[A-Za-z_]/.test(name)) name = `mcp_${name}`;
  return `${name.slice(0, 32)}__`;
}

/** `the MCP server "docs"`, for messages (a hostile name is clipped and quoted). */
function serverLabel(client: Client): string {
  const name = client.getServerVersion()?.name;
  return typeof name === 'string' && name !== '' ? `the MCP server ${quoteForMessage(name)}` : 'the MCP server';
}

/** The size of `schema` as UTF-8 JSON, in bytes. */
function jsonBytes(schema: unknown): number {
  return new TextEncoder().encode(JSON.stringify(schema) ?? '').byteLength;
}

/** The limits a list is checked against, with the server's label for messages. */
interface ListRules {
  prefix: string;
  maxTools: number;
  maxSchemaBytes: number;
  server: string;
}

/** The registered name of one remote tool; throws naming it when the server's name cannot be one. */
function nameOf(remote: McpTool, rules: ListRules): string {
  const raw: unknown = remote.name;
  const name = `${rules.prefix}${String(raw)}`;
  if (typeof raw === 'string' && REMOTE_NAME.test(raw) && !RESERVED.has(raw) && FULL_NAME.test(name) && !RESERVED.has(name)) return name;
  throw new Error(
    `mcpTools: ${rules.server} lists a tool named ${quoteForMessage(String(raw))}, which cannot be a tool name here ` +
      `(letters, digits, _ and -; at most 64 characters with the prefix ${quoteForMessage(rules.prefix)}; not __proto__, constructor or prototype); nothing was registered. The server must rename it`,
  );
}

/** Throws when a schema of `remote` is over the size limit. */
function checkSchemaSizes(remote: McpTool, name: string, rules: ListRules): void {
  for (const [what, schema] of [['inputSchema', remote.inputSchema], ['outputSchema', remote.outputSchema]] as const) {
    if (schema === undefined) continue;
    const bytes = jsonBytes(schema);
    if (bytes > rules.maxSchemaBytes) {
      throw new Error(
        `mcpTools: ${rules.server} gives ${name} an ${what} of ${bytes} bytes, more than maxSchemaBytes (${rules.maxSchemaBytes}); nothing was registered. Raise maxSchemaBytes if you trust the server`,
      );
    }
  }
}

/** The server's list checked as a whole (count, names, duplicates, schema sizes), with each tool's registered name. */
function checkedList(remotes: readonly McpTool[], rules: ListRules): Array<{ remote: McpTool; name: string }> {
  if (remotes.length > rules.maxTools) {
    throw new Error(
      `mcpTools: ${rules.server} lists ${remotes.length} tools, more than maxTools (${rules.maxTools}); nothing was registered. Raise maxTools if the server is meant to offer that many`,
    );
  }
  const seen = new Set<string>();
  return remotes.map((remote) => {
    const name = nameOf(remote, rules);
    if (seen.has(name)) throw new Error(`mcpTools: ${rules.server} lists two tools named ${quoteForMessage(name)}; nothing was registered`);
    seen.add(name);
    checkSchemaSizes(remote, name, rules);
    return { remote, name };
  });
}

/**
 * Swaps `previous` for `next` in the registry, all or nothing. A TypeError (a name taken by a tool
 * this bridge did not register) is given again naming the server and the way out.
 */
async function registerList(registry: ToolRegistry, next: readonly ExecuteTool[], previous: readonly ExecuteTool[], rules: ListRules): Promise<void> {
  try {
    await registry.registerAll(next, { replace: previous });
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const taken = /a tool named (".*?") is already registered/.exec(error.message)?.[1];
    if (taken === undefined) throw new TypeError(`mcpTools: ${rules.server}'s tools were not registered, none of them: ${error.message}`, { cause: error });
    const fix = rules.prefix === '' ? "Leave out prefix: '' (the server's name is then put before each tool), give a prefix," : 'Give another prefix';
    throw new TypeError(
      `mcpTools: ${rules.server} offers ${taken}, a name already registered by another tool; none of its tools were registered. ${fix} or unregister ${taken} first`,
      { cause: error },
    );
  }
}

/** The SDK client for `source`: the one given, or a new one connected to the transport (closed again when connecting fails). */
async function clientFor(source: Client | Transport, options: McpToolsOptions, ClientSdk: ClientClass): Promise<Client> {
  if (isClient(source, ClientSdk)) return source;
  const client = new ClientSdk(options.clientInfo ?? { name: 'toolhost', version: '0.0.0' }, { capabilities: {} });
  try {
    await client.connect(source);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return client;
}

/**
 * Turns a remote MCP server's tools into toolhost tools, so a runner hosts them beside the built-ins
 * with its own permissions, timeouts and batching. Takes a connected SDK `Client`, or a `Transport`
 * to connect one to (stdio, Streamable HTTP — also in the browser —, or a {@link MessagePortTransport}).
 *
 * - Names: `<server>__<tool>` by default (see {@link McpToolsOptions.prefix}). A server's name that is
 *   not letters, digits, `_` and `-` (with the prefix: a toolhost name of at most 64), or is
 *   `__proto__` / `constructor` / `prototype`, makes the whole list refused.
 * - Remote annotations are untrusted: `readOnlyHint` is shown but grants nothing, unless
 *   `trustAnnotations` (then `readOnlyHint: true` → `readOnly` and concurrency-safe).
 * - A list registers all or nothing, within `maxTools` (default 1,000) and `maxSchemaBytes` (default
 *   64 KiB).
 * - `isError: true` → a `ToolError`: the code from a toolhost server's `structuredContent` or
 *   `code: message` text, else `execution_failed` with the server's text; a failed request is `unavailable`.
 * - The call's signal (cancel, timeout) aborts the request: the SDK sends `notifications/cancelled`.
 * - Progress notifications reach `ctx.send` as `{ progress, total?, message? }`.
 * - With `registry`, list changes are followed (see {@link McpToolsOptions.registry}); a changed list
 *   that is refused leaves the previous tools registered, and its error reaches the client's `onerror`.
 *
 * Rejects, with nothing registered and the client it made closed (a client given is left open):
 * - a TypeError for the host's mistakes: a `source` that is neither a Client nor a Transport, a bad
 *   option (`mcpTools: source must be an MCP Client or Transport (stdio, Streamable HTTP,
 *   MessagePortTransport), not null`), or a tool whose name is already registered in `registry`
 *   (`mcpTools: the MCP server "docs" offers "view_file", a name already registered by another tool; …`:
 *   keep the default prefix, give another, or unregister the tool first);
 * - an Error naming the server and the tool for a list it cannot take (too many tools, a schema too
 *   big, a bad or repeated name), or the SDK's error when the server cannot be reached.
 */
export async function mcpTools(source: Client | Transport, options: McpToolsOptions = {}): Promise<McpTools> {
  checkOptions('mcpTools', options, MCP_TOOLS_RULES);
  const { Client: ClientSdk } = await loadClientSdk();
  if (!isClient(source, ClientSdk)) {
    const problem = TRANSPORT_RULE(source, 'source');
    if (problem) throw new TypeError(`mcpTools: ${problem}`);
  }
  const owned = !isClient(source, ClientSdk);
  const client = await clientFor(source, options, ClientSdk);
  const rules: ListRules = {
    prefix: options.prefix ?? defaultPrefix(client.getServerVersion()?.name),
    maxTools: options.maxTools ?? MCP_TOOLS_DEFAULTS.maxTools,
    maxSchemaBytes: options.maxSchemaBytes ?? MCP_TOOLS_DEFAULTS.maxSchemaBytes,
    server: serverLabel(client),
  };
  const trusted = options.trustAnnotations ?? false;
  let current: ExecuteTool[] = [];
  let following = true;
  let queue: Promise<unknown> = Promise.resolve();
  let waiting: Promise<ExecuteTool[]> | undefined;

  const load = async (): Promise<ExecuteTool[]> => {
    const listed = await client.listTools(undefined, { cacheMode: 'refresh' });
    const next = checkedList(listed.tools, rules).map(({ remote, name }) => toToolhostTool(client, remote, name, trusted));
    // All or nothing, and only the names this bridge registered before may be taken again.
    if (options.registry) await registerList(options.registry, next, current, rules);
    current = next;
    return next;
  };
  // One list at a time, in order, so an older answer never replaces a newer one; callers that come
  // while a fetch waits to start share it (a flood of list_changed costs one fetch, not one each).
  const refresh = (): Promise<ExecuteTool[]> => {
    if (waiting) return waiting;
    const start = (): Promise<ExecuteTool[]> => {
      waiting = undefined;
      return load();
    };
    const run = queue.then(start, start);
    waiting = run;
    queue = run.catch(() => undefined);
    return run;
  };
  try {
    await refresh();
  } catch (error) {
    if (owned) await client.close().catch(() => undefined);
    throw error;
  }
  if (options.registry) {
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      if (following) await refresh();
    });
  }
  return {
    client,
    tools: () => current.slice(),
    refresh,
    async close() {
      following = false;
      if (owned) await client.close();
    },
  };
}
