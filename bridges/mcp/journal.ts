// The change journal on an MCP server, for the client's host (an IDE), not its model: resources to
// read (application-controlled: the host decides what to show) and one custom request to rewind. No
// tool is added, so the model's tools/list is unchanged.
import { ProtocolError, ProtocolErrorCode, ResourceTemplate, type McpServer, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { ConversationChanges, RewindOptions, RewindResult } from '../../src/core/journal-port.js';
import { isToolError } from '../../src/core/errors.js';
import { closestName } from '../../src/core/options.js';

/** What the journal resources need of a host: the package's `ToolRunner` and a worker's runner have both. */
export interface JournalHost {
  changes(conversationId: string): Promise<ConversationChanges>;
  rewind(conversationId: string, options: RewindOptions): Promise<RewindResult>;
}

/** The URI scheme and prefix of the journal resources. */
export const JOURNAL_URI = 'toolhost://journal/';
/** The custom request method a client's host sends to rewind its conversation. */
export const JOURNAL_REWIND_METHOD = 'toolhost/journal/rewind';
/** The key of the `experimental` server capability that announces the journal. */
export const JOURNAL_CAPABILITY = 'toolhost/journal';

/** Whether `host` has the journal methods. */
export function isJournalHost(host: unknown): host is JournalHost {
  const record = host as Record<string, unknown> | null;
  return typeof record?.['changes'] === 'function' && typeof record['rewind'] === 'function';
}

/** The `experimental` capability value: where the resources are and the method to rewind. */
export function journalCapability(): Record<string, string | number> {
  return { version: 1, resources: `${JOURNAL_URI}{conversation}`, turn: `${JOURNAL_URI}{conversation}/{turn}`, rewind: JOURNAL_REWIND_METHOD };
}

/** The journal resource of one conversation (its id percent-encoded, as the template expands it). */
export function journalUri(conversationId: string, turn?: number): string {
  return `${JOURNAL_URI}${encodeURIComponent(conversationId)}${turn === undefined ? '' : `/${turn}`}`;
}

function invalid(message: string, data?: Record<string, unknown>): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, data);
}

/** The conversation a URI variable names, checked to be the session's own. */
function ownConversation(raw: string | string[] | undefined, own: string, uri: string): string {
  const text = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  let named: string;
  try {
    named = decodeURIComponent(text);
  } catch {
    throw invalid(`${uri} names no conversation (its id is not percent-encoded UTF-8); read ${journalUri(own)}`, { uri });
  }
  if (named !== own) {
    throw invalid(
      `unknown conversation "${named.slice(0, 200)}": this MCP session's calls write into conversation "${own}", the only one it serves; read ${journalUri(own)} (resources/list names it)`,
      { uri },
    );
  }
  return named;
}

/** A host failure as an MCP error: a TypeError (a bad turn, no journal) is the request's mistake, -32602. */
function asProtocolError(error: unknown, what: string): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof TypeError) return invalid(`${what}: ${message}`);
  const code = isToolError(error) ? error.code : 'execution_failed';
  return new ProtocolError(ProtocolErrorCode.InternalError, `${what} failed (${code}): ${message}`, { code });
}

/**
 * A host's rewind mistake with its next step in MCP terms: where the runner's message says its
 * `changes(...)` lists the turns, the client reads this session's journal resource instead.
 */
function inMcpTerms(error: unknown, own: string): unknown {
  if (!(error instanceof TypeError)) return error;
  const message = error.message.replace(/changes\("(?:[^"\\]|\\.)*"\) lists the turns/, `the resource ${journalUri(own)} lists the turns`);
  return message === error.message ? error : new TypeError(message);
}

/** The unified diff of one turn: each file's diff in the order of its calls, one after another. */
function turnDiff(changes: ConversationChanges, turn: number): string | undefined {
  const found = changes.turns.find((entry) => entry.turn === turn);
  if (!found) return undefined;
  const parts: string[] = [];
  for (const call of found.calls) {
    for (const file of call.files) parts.push(file.diff.endsWith('\n') || file.diff === '' ? file.diff : `${file.diff}\n`);
  }
  return parts.join('');
}

/** Accepts any params object; the handler checks it and answers -32602 with what to send. */
const ANY_PARAMS: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'toolhost',
    validate: (value: unknown) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { value: {} },
  },
};

/** The rewind options of a request's params, or the -32602 error saying what to send. */
/** The parameters `toolhost/journal/rewind` takes (`_meta` as every MCP request may carry). */
const REWIND_PARAMS = ['toTurn', 'dryRun', 'force', 'conversationId', '_meta'];

function rewindOptions(params: Record<string, unknown>): RewindOptions {
  const { toTurn, dryRun, force } = params;
  const usage = `send { toTurn: <turn number, 0 for before the first change>, dryRun?: boolean, force?: boolean }`;
  // A key it does not take is refused, not ignored: a misspelt `dryrun` would otherwise rewind for real.
  for (const key of Object.keys(params)) {
    if (REWIND_PARAMS.includes(key)) continue;
    const near = closestName(key, REWIND_PARAMS);
    throw invalid(`${JOURNAL_REWIND_METHOD}: ${JSON.stringify(key.slice(0, 100))} is not a parameter${near === undefined ? '' : ` (did you mean ${near}?)`}; nothing was rewound; ${usage}`);
  }
  if (typeof toTurn !== 'number') throw invalid(`${JOURNAL_REWIND_METHOD}: toTurn must be a number; ${usage}`);
  if (dryRun !== undefined && typeof dryRun !== 'boolean') throw invalid(`${JOURNAL_REWIND_METHOD}: dryRun must be a boolean; ${usage}`);
  if (force !== undefined && typeof force !== 'boolean') throw invalid(`${JOURNAL_REWIND_METHOD}: force must be a boolean; ${usage}`);
  return { toTurn, ...(dryRun === undefined ? {} : { dryRun }), ...(force === undefined ? {} : { force }) };
}

/**
 * Serves `host`'s change journal on `server` for the conversation `conversationOf(ctx)` of each
 * request (the one the session's tool calls write into):
 *
 * - resource template `toolhost://journal/{conversation}` (`application/json`): what
 *   `changes(conversation)` answers (turns, calls, files with images and unified diffs);
 * - resource template `toolhost://journal/{conversation}/{turn}` (`text/x-diff`): the unified diff
 *   of one listed turn, every file of it;
 * - `resources/list`: the session's conversation and each of its listed turns;
 * - request `toolhost/journal/rewind` `{ toTurn, dryRun?, force?, conversationId? }`: the rewind's
 *   answer (`{ conversationId, restored, conflicts, turn?, unreachable? }`);
 * - `resources/subscribe` to the conversation's resource: `notifications/resources/updated` when a
 *   turn of this session lands (its tool calls, its rewinds);
 * - the `experimental` capability `toolhost/journal` says where these are.
 *
 * Another conversation's id, a turn that is not listed, or bad rewind options (a key it does not take among them) answer -32602 with what
 * to send instead. Returns `turnLanded`, to call after a mutating tool call: it sends
 * `notifications/resources/list_changed`, and `notifications/resources/updated` for a subscribed
 * conversation resource.
 */
export function serveJournal(server: McpServer, host: JournalHost, conversationOf: (ctx: ServerContext) => string): { turnLanded(): void } {
  const changesOf = async (conversationId: string): Promise<ConversationChanges> => {
    try {
      return await host.changes(conversationId);
    } catch (error) {
      throw asProtocolError(error, `the journal of conversation "${conversationId}"`);
    }
  };
  const listed = new ResourceTemplate(`${JOURNAL_URI}{conversation}`, {
    list: async (ctx) => {
      const own = conversationOf(ctx);
      const changes = await changesOf(own);
      return {
        resources: [
          { uri: journalUri(own), name: `journal ${own}`, title: `Changes of conversation ${own}`, mimeType: 'application/json' },
          ...changes.turns.map((turn) => ({ uri: journalUri(own, turn.turn), name: `turn ${turn.turn}`, title: `Diff of turn ${turn.turn}`, mimeType: 'text/x-diff' })),
        ],
      };
    },
  });
  server.registerResource('journal-turn', new ResourceTemplate(`${JOURNAL_URI}{conversation}/{turn}`, { list: undefined }), {
    title: 'Diff of one turn of a conversation',
    description: 'The unified diff of every file one turn of the conversation changed (turns as in the conversation\'s journal resource).',
    mimeType: 'text/x-diff',
  }, async (uri, variables, ctx) => {
    const own = conversationOf(ctx);
    const conversation = ownConversation(variables['conversation'], own, uri.href);
    const text = String(variables['turn'] ?? '');
    const changes = await changesOf(conversation);
    const diff = /^\d{1,15}$/.test(text) ? turnDiff(changes, Number(text)) : undefined;
    if (diff === undefined) {
      const turns = changes.turns.map((turn) => turn.turn);
      throw invalid(
        `turn "${text.slice(0, 40)}" of conversation "${conversation}" is not in its journal (listed turns: ${turns.length === 0 ? 'none' : turns.join(', ')}); read ${journalUri(conversation)}`,
        { uri: uri.href },
      );
    }
    return { contents: [{ uri: uri.href, mimeType: 'text/x-diff', text: diff }] };
  });
  server.registerResource('journal', listed, {
    title: 'Change journal of a conversation',
    description: 'Every turn of the conversation that changed files: its calls, each file with its content hashes before and after and a unified diff.',
    mimeType: 'application/json',
  }, async (uri, variables, ctx) => {
    const conversation = ownConversation(variables['conversation'], conversationOf(ctx), uri.href);
    const changes = await changesOf(conversation);
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(changes) }] };
  });
  // Subscriptions of this session (one server per session): the conversation resource changes with each turn.
  const subscribed = new Set<string>();
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  server.server.setRequestHandler('resources/subscribe', (request, ctx) => {
    const uri = request.params.uri;
    const own = journalUri(conversationOf(ctx));
    if (uri !== own) throw invalid(`resources/subscribe: ${uri.slice(0, 200)} cannot be subscribed to; subscribe to ${own}, the journal of this session's conversation (its turns do not change)`, { uri });
    subscribed.add(uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  const turnLanded = (): void => {
    if (!server.isConnected()) return;
    server.server.sendResourceListChanged().catch(() => undefined);
    for (const uri of subscribed) server.server.sendResourceUpdated({ uri }).catch(() => undefined);
  };
  server.server.setRequestHandler(JOURNAL_REWIND_METHOD, { params: ANY_PARAMS }, async (params, ctx) => {
    const own = conversationOf(ctx);
    const named = params['conversationId'];
    if (named !== undefined && named !== own) {
      throw invalid(`${JOURNAL_REWIND_METHOD}: unknown conversation "${String(named).slice(0, 200)}": this MCP session's calls write into conversation "${own}", the only one it rewinds; leave conversationId out or send "${own}"`);
    }
    const options = rewindOptions(params);
    let result: RewindResult;
    try {
      result = await host.rewind(own, options);
    } catch (error) {
      throw asProtocolError(inMcpTerms(error, own), `${JOURNAL_REWIND_METHOD} of conversation "${own}"`);
    }
    if (result.turn !== undefined) turnLanded();
    return { conversationId: own, ...result } as unknown as Record<string, unknown>;
  });
  return { turnLanded };
}
