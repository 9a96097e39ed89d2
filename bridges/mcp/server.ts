import { McpServer, inputRequired, isCallToolResult, type CallToolResult, type InputRequiredResult, type ContentBlock, type ServerContext, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { ToolHost, ToolInfo } from '../../src/core/host.js';
import type { PermissionAnswer, PermissionRequest } from '../../src/core/permissions.js';
import type { CallOptions, ToolCallResult, ToolMessage } from '../../src/core/runner.js';
import type { JsonSchema } from '../../src/core/types.js';
import { checkOptions, checkToolHost, is, type OptionRules } from '../../src/core/options.js';
import { JOURNAL_CAPABILITY, isJournalHost, journalCapability, serveJournal } from './journal.js';
import { explainCallMistakes } from './call-mistakes.js';

/** The checks of {@link CreateMcpServerOptions}. */
const MCP_SERVER_RULES: OptionRules = {
  name: is.nonEmptyString,
  version: is.nonEmptyString,
  instructions: is.string,
  conversation: is.nonEmptyString,
  timeoutMs: is.deadlineMs,
  permissionPrompt: is.withMethods(['ask', 'track'], 'a prompt from createMcpPermissionPrompt()'),
  requestState: is.withMethods(['verify'], 'an object with verify(state, ctx), such as createRequestStateCodec({ key }) from @modelcontextprotocol/server'),
  journal: is.boolean,
};

/** Options of {@link createMcpServer}; all optional. */
export interface CreateMcpServerOptions {
  /** Server name in the `initialize` answer (default `'toolhost'`). */
  name?: string;
  /** Server version in the `initialize` answer (default `'0.0.0'`). */
  version?: string;
  /** Text a client may show its model about how to use the tools. */
  instructions?: string;
  /**
   * The conversation every call of this server uses (its tool state and file cache). Default: the
   * transport's session id (Streamable HTTP with sessions), else one id of this server instance, so
   * each client connection has its own state.
   */
  conversation?: string;
  /** Deadline of each call in ms, passed to the host as `timeoutMs` (default: the host's). */
  timeoutMs?: number;
  /**
   * Routes the host's permission prompts to this server's client; create one with
   * {@link createMcpPermissionPrompt} and give its `ask` to the runner's permission rules.
   */
  permissionPrompt?: McpPermissionPrompt;
  /**
   * Integrity check of the `requestState` a 2026-07-28 client echoes back in a multi-round-trip
   * retry, for tools the host registers itself on the returned server that answer with the SDK's
   * `inputRequired(...)`: passed to the SDK as `requestState.verify` (throw to refuse; the client gets
   * `-32602 Invalid or expired requestState`). `createRequestStateCodec({ key })` makes one.
   */
  requestState?: { verify(state: string, ctx: ServerContext): unknown };
  /**
   * Serve the host's change journal to the client's host (not its model: no tool is added): the
   * resources `toolhost://journal/{conversation}` (JSON, as `changes()` answers) and
   * `toolhost://journal/{conversation}/{turn}` (the turn's unified diff), the request
   * `toolhost/journal/rewind` `{ toTurn, dryRun?, force? }`, and the `experimental` capability
   * `toolhost/journal`; each for the conversation this session's calls write into, and no other. The
   * host must have `changes()` and `rewind()` (a `ToolRunner` with its journal on). Default false.
   */
  journal?: boolean;
}

/**
 * Sends a runner's permission `ask` to the MCP client that made the call, as an MCP elicitation
 * (form mode: allow once, allow for the session, or deny). On protocol 2025-11-25 and earlier the
 * server sends `elicitation/create` while the call waits. On 2026-07-28 (stateless: no request from
 * the server) the call ends before the tool runs and answers `resultType: "input_required"` with that
 * elicitation under the key `permission_<digest of tool and arguments>`; the client retries the same
 * call with the answer in `inputResponses`, and the call runs or ends `permission_denied`. An answer
 * counts only for the call it was asked for (same tool, same arguments); `allow_session` covers one
 * call there, as each 2026-07-28 request has its own server. A client that did not declare the
 * elicitation capability (or a call this prompt does not know) is answered with a denial, so the call
 * ends `permission_denied` with a message saying why.
 */
export interface McpPermissionPrompt {
  /** Give this to the runner: `permissions: { allow: [...], ask: prompt.ask }`. Never rejects. */
  ask(request: PermissionRequest): Promise<PermissionAnswer>;
  /** @internal Registers the MCP request behind a call while it runs; see {@link TrackedCall}. */
  track(callId: string, ctx: ServerContext, server: McpServer): TrackedCall;
}

/** @internal A call registered with {@link McpPermissionPrompt.track}. */
export interface TrackedCall {
  /** Unregisters the call. */
  untrack(): void;
  /** On 2026-07-28: the `input_required` answer that asks the client, when the call's ask needs one. */
  inputRequired(): InputRequiredResult | undefined;
}

const PERMISSION_SCHEMA = {
  type: 'object' as const,
  properties: {
    answer: {
      type: 'string' as const,
      title: 'Permission',
      enum: ['allow_once', 'allow_session', 'deny'],
      description: 'allow_once: this call; allow_session: this tool for the rest of the session; deny: refuse',
    },
  },
  required: ['answer'],
};

/** The runner's answer in an elicitation result: accepted allow_once / allow_session, else deny. */
function permissionAnswer(result: { action?: unknown; content?: unknown } | undefined): PermissionAnswer {
  if (result?.action !== 'accept' || typeof result.content !== 'object' || result.content === null) return 'deny';
  const answer = (result.content as Record<string, unknown>)['answer'];
  return answer === 'allow_once' || answer === 'allow_session' ? answer : 'deny';
}

/** A short digest (FNV-1a, 2 × 32 bits) naming one call's tool and arguments in an input request key. */
function callDigest(tool: string, args: unknown): string {
  const text = `${tool}\u0000${JSON.stringify(args) ?? ''}`;
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x811c9dc5) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** Why a call cannot ask this client, or undefined when it can. */
function cannotAsk(server: McpServer, tool: string): string | undefined {
  if (server.server.getClientCapabilities()?.elicitation) return undefined;
  return `the MCP client cannot show a permission prompt (it did not declare the elicitation capability); allow ${tool} in the server's permission rules`;
}

/** Builds a {@link McpPermissionPrompt}; one can serve any number of servers (sessions). */
export function createMcpPermissionPrompt(): McpPermissionPrompt {
  const running = new Map<string, { ctx: ServerContext; server: McpServer; asking?: PermissionRequest }>();
  return {
    track(callId, ctx, server) {
      const entry: { ctx: ServerContext; server: McpServer; asking?: PermissionRequest } = { ctx, server };
      running.set(callId, entry);
      return {
        untrack: () => void running.delete(callId),
        inputRequired: () => {
          const request = entry.asking;
          if (!request) return undefined;
          const message = `Allow ${request.tool} with ${JSON.stringify(request.args)}?`;
          const key = `permission_${callDigest(request.tool, request.args)}`;
          return inputRequired({ inputRequests: { [key]: inputRequired.elicit({ message, requestedSchema: PERMISSION_SCHEMA }) } });
        },
      };
    },
    async ask(request) {
      const entry = running.get(request.callId);
      if (!entry) throw new Error(`${request.tool} was not called through an MCP client that can be asked`);
      const refusal = cannotAsk(entry.server, request.tool);
      if (refusal) throw new Error(refusal);
      if (entry.ctx.mcpReq.envelope !== undefined) {
        // 2026-07-28: the answer comes with the retried call, or the call ends asking for it.
        const responses = entry.ctx.mcpReq.inputResponses;
        const key = `permission_${callDigest(request.tool, request.args)}`;
        if (responses && key in responses) return permissionAnswer(responses[key] as { action?: unknown; content?: unknown });
        entry.asking = request;
        return 'deny';
      }
      const result = await entry.ctx.mcpReq.elicitInput(
        { mode: 'form', message: `Allow ${request.tool} with ${JSON.stringify(request.args)}?`, requestedSchema: PERMISSION_SCHEMA },
        { signal: request.signal },
      );
      return permissionAnswer(result);
    },
  };
}

/**
 * A Standard Schema that accepts every value and reports `schema` as its JSON Schema: the host
 * validates arguments itself (with coded `invalid_arguments` messages), so the SDK only lists it.
 */
function listedSchema(schema: JsonSchema): StandardSchemaWithJSON<unknown, unknown> {
  const json = (): Record<string, unknown> => ({ ...schema });
  return {
    '~standard': {
      version: 1,
      vendor: 'toolhost',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: json, output: json },
    },
  };
}

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp)$/;
const AUDIO_MIME = /^audio\/[a-z0-9.+-]+$/;

/** A result without its inline media bytes, and the image or audio content block for them. */
function splitMedia(value: unknown): { rest: unknown; media?: ContentBlock } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { rest: value };
  const record = value as Record<string, unknown>;
  const data = record['data_base64'];
  const mime = record['mime_type'];
  if (typeof data !== 'string' || typeof mime !== 'string') return { rest: value };
  const type = IMAGE_MIME.test(mime) ? 'image' : AUDIO_MIME.test(mime) ? 'audio' : undefined;
  if (type === undefined) return { rest: value };
  const { data_base64: _data, ...rest } = record;
  return { rest, media: { type, data, mimeType: mime } };
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/**
 * Whether a tool's output is already an MCP tool answer: an object with only `content` (a non-empty
 * array of content blocks: text, image, audio, resource, resource_link) and optionally
 * `structuredContent` (an object), as the SDK's schema accepts it.
 */
function isMcpContent(value: unknown): value is Pick<CallToolResult, 'content' | 'structuredContent'> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (!Object.keys(record).every((key) => key === 'content' || key === 'structuredContent')) return false;
  const content = record['content'];
  if (!Array.isArray(content) || content.length === 0) return false;
  const blocks = content.every((block) => typeof block === 'object' && block !== null && CONTENT_TYPES.has((block as { type?: unknown }).type as string));
  const structured = record['structuredContent'];
  const structuredOk = structured === undefined || (typeof structured === 'object' && structured !== null && !Array.isArray(structured));
  return blocks && structuredOk && isCallToolResult(value);
}

/**
 * The MCP `tools/call` answer for one toolhost result: success = `structuredContent` (the output, or
 * `{ result }` for an output that is not an object) plus a text block with the same JSON (a string
 * output is its own text); an output with `data_base64` and an image or audio `mime_type` (as
 * `view_file`'s inline image) gives an image or audio block for those bytes, and the rest as above;
 * an output that is itself an MCP answer (`{ content: [blocks], structuredContent? }`) is sent as it
 * is. Failure = `isError: true` with the text `code: message` and `structuredContent: { error, code }`.
 */
export function toCallToolResult(result: ToolCallResult): CallToolResult {
  if ('code' in result) {
    return {
      isError: true,
      content: [{ type: 'text', text: `${result.code}: ${result.error}` }],
      structuredContent: { error: result.error, code: result.code },
    };
  }
  if (isMcpContent(result.result)) {
    const { content, structuredContent } = result.result;
    return { content, ...(structuredContent === undefined ? {} : { structuredContent }) };
  }
  const { rest, media } = splitMedia(result.result);
  const isObject = typeof rest === 'object' && rest !== null && !Array.isArray(rest);
  const structured = isObject ? (rest as Record<string, unknown>) : { result: rest ?? null };
  const text = typeof rest === 'string' ? rest : JSON.stringify(rest ?? null);
  const content: ContentBlock[] = [];
  if (media) content.push(media);
  content.push({ type: 'text', text });
  return { content, structuredContent: structured };
}

/** Numbers a tool's `ctx.send` messages as MCP progress: `{ progress, total?, message? }` objects keep theirs. */
function progressParams(message: ToolMessage['message'], count: number): { progress: number; total?: number; message?: string } {
  if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
    const { progress, total, message: text } = message as Record<string, unknown>;
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
 *   A call to a tool this server does not have, or with `arguments` that are not an object, is the
 *   SDK's `-32602` error in one line saying what to send (tools/list, the tool's inputSchema).
 * - Progress: when the request has a `progressToken`, each `ctx.send` message of the call becomes a
 *   `notifications/progress`.
 * - `notifications/cancelled`, and a closed HTTP request stream, abort the call's signal (it ends
 *   `cancelled`).
 * - Permission `ask`: see {@link createMcpPermissionPrompt}.
 * - With `journal: true`: the host's change journal as resources and the `toolhost/journal/rewind`
 *   request, for the client's host (see {@link CreateMcpServerOptions.journal}); the tools are the same.
 *
 * The SDK's `registerTool` takes Standard Schemas with a JSON Schema view; each tool is registered
 * with one that reports the host's JSON Schema and accepts every value, since the host validates.
 * Tools the host registers later are not listed by this server; create a new one.
 * A `host` that is not a ToolHost or a bad option (the host's mistakes) rejects with a TypeError naming
 * it: `createMcpServer: host must be a ToolHost such as new ToolRunner({ tools }), not null`.
 */
export async function createMcpServer(host: ToolHost, options: CreateMcpServerOptions = {}): Promise<McpServer> {
  checkToolHost('createMcpServer', host);
  checkOptions('createMcpServer', options, MCP_SERVER_RULES);
  if (options.journal === true && !isJournalHost(host)) {
    throw new TypeError('createMcpServer: journal: true needs a host with changes() and rewind(), such as a ToolRunner with its journal on; leave journal out for a host without one');
  }
  const tools: ToolInfo[] = await host.tools();
  instances += 1;
  const instance = instances;
  // This server's own conversation, named when a call first needs it: a server whose every call has
  // a conversation (the option, a Streamable HTTP session) draws no random UUID, and a stdio server
  // answers `initialize` without loading WebCrypto for it.
  let ownConversation: string | undefined;
  const server = new McpServer(
    { name: options.name ?? 'toolhost', version: options.version ?? '0.0.0' },
    {
      // Tools get their capability below, once their mistakes are worded (the SDK installs its tools/call
      // handler with it); a server of no tools has it from the start.
      capabilities: { ...(tools.length === 0 ? { tools: { listChanged: false } } : {}), ...(options.journal === true ? { experimental: { [JOURNAL_CAPABILITY]: journalCapability() } } : {}) },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ...(options.requestState === undefined ? {} : { requestState: { verify: (state: string, ctx: ServerContext) => options.requestState?.verify(state, ctx) } }),
    },
  );
  explainCallMistakes(server, tools);
  server.server.registerCapabilities({ tools: { listChanged: false } });
  const conversationOf = (ctx: ServerContext): string => options.conversation ?? ctx.sessionId ?? (ownConversation ??= `mcp-${instance}-${crypto.randomUUID()}`);
  const journal = options.journal === true && isJournalHost(host) ? serveJournal(server, host, conversationOf) : undefined;
  let calls = 0;
  // Calls of one connection keep their arrival order as a model turn's calls do: a concurrency-safe
  // call waits for the mutating call before it; a mutating call waits for every call before it.
  const inFlight = new Set<Promise<unknown>>();
  let lastExclusive: Promise<unknown> = Promise.resolve();
  const ordered = <T>(concurrencySafe: boolean, run: () => Promise<T>): Promise<T> => {
    const before = concurrencySafe ? lastExclusive : Promise.all([...inFlight]);
    const running = before.then(run, run);
    const settled = running.then(() => undefined, () => undefined);
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    if (!concurrencySafe) lastExclusive = settled;
    return running;
  };
  for (const info of tools) {
    server.registerTool(
      info.name,
      {
        ...(info.annotations.title === undefined ? {} : { title: info.annotations.title }),
        description: info.description,
        inputSchema: listedSchema(info.parameters),
        ...(info.outputSchema === undefined ? {} : { outputSchema: listedSchema(info.outputSchema) }),
        annotations: { ...info.annotations },
      },
      async (args: unknown, ctx: ServerContext): Promise<CallToolResult> => {
        calls += 1;
        const id = `mcp-${String(ctx.mcpReq.id)}-${calls}`;
        const token = ctx.mcpReq._meta?.progressToken;
        let sent = 0;
        const callOptions: CallOptions = {
          conversationId: conversationOf(ctx),
          signal: ctx.mcpReq.signal,
        };
        if (options.timeoutMs !== undefined) callOptions.timeoutMs = options.timeoutMs;
        if (token !== undefined) {
          callOptions.onMessage = async (message) => {
            sent += 1;
            await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...progressParams(message.message, sent) } });
          };
        }
        return ordered(info.concurrencySafe, async () => {
          const tracked = options.permissionPrompt?.track(id, ctx, server);
          try {
            const [result] = await host.processToolCalls([{ id, name: info.name, args }], callOptions);
            if (info.annotations.readOnlyHint !== true) journal?.turnLanded();
            // 2026-07-28: a call stopped at its permission prompt answers input_required (it never ran).
            const asking = tracked?.inputRequired();
            if (asking) return asking as unknown as CallToolResult;
            return toCallToolResult(result ?? { name: info.name, error: 'the host returned no result', code: 'execution_failed' });
          } finally {
            tracked?.untrack();
          }
        });
      },
    );
  }
  return server;
}
