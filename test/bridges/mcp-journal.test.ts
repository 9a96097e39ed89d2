import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, ProtocolError, StreamableHTTPClientTransport, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../../src/runner.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { createNodePlatform } from '../../node/platform.js';
import { createMcpServer } from '../../bridges/mcp/index.js';
import { serveMcpHttp, type McpHttpEndpoint } from '../../bridges/mcp/node-http.js';
import { ensureBuilt } from '../support/build.js';

// The change journal served to an MCP client's host (resources and a custom request), with the real
// SDK client and server, over Streamable HTTP on 127.0.0.1 and over stdio (`toolhost mcp --journal`).

const REPO = join(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'toolhost.mjs');

/** The rewind answer as the client receives it (a passthrough schema: the test checks the values). */
interface RewindAnswer {
  conversationId: string;
  restored: string[];
  conflicts: { path: string; diff: string }[];
  turn?: number;
}
const ANY_RESULT: StandardSchemaV1<unknown, RewindAnswer> = {
  '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value: value as RewindAnswer }) },
};

interface JournalJson {
  conversationId: string;
  turns: { turn: number; calls: { tool: string; files: { path: string; before: string; after: string; diff: string }[] }[] }[];
}

function rewind(client: Client, params: Record<string, unknown>): Promise<RewindAnswer> {
  return client.request({ method: 'toolhost/journal/rewind', params }, ANY_RESULT);
}

async function readText(client: Client, uri: string): Promise<string> {
  const { contents } = await client.readResource({ uri });
  const [first] = contents;
  if (!first || !('text' in first)) throw new Error(`no text content at ${uri}`);
  return first.text;
}

/** The error a promise rejects with (it must reject). */
async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as ProtocolError).code, message: (error as Error).message };
  }
  throw new Error('expected a rejection');
}

/** Three writes, one turn each: a.txt edited, c.txt created, b.txt edited. */
async function makeThreeTurns(client: Client): Promise<void> {
  const results = [
    await client.callTool({ name: 'edit_file', arguments: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } }),
    await client.callTool({ name: 'create_file', arguments: { file_path: 'c.txt', content: 'new file\n' } }),
    await client.callTool({ name: 'edit_file', arguments: { file_path: 'b.txt', old_string: 'alpha', new_string: 'beta' } }),
  ];
  expect(results.map((result) => result.isError)).toEqual([undefined, undefined, undefined]);
}

/** The session's conversation id, from the journal resource resources/list names. */
async function ownConversation(client: Client): Promise<string> {
  const { resources } = await client.listResources();
  const journal = resources.find((resource) => resource.mimeType === 'application/json' && resource.uri.startsWith('toolhost://journal/'));
  if (!journal) throw new Error(`no journal resource in ${JSON.stringify(resources)}`);
  return decodeURIComponent(journal.uri.slice('toolhost://journal/'.length));
}

describe('the journal over Streamable HTTP (createMcpServer({ journal: true }) + serveMcpHttp)', () => {
  let dir = '';
  let runner: ToolRunner;
  let endpoint: McpHttpEndpoint;
  let plain: McpHttpEndpoint;
  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-mcp-journal-')));
    runner = new ToolRunner({ platform: createNodePlatform({ root: dir }), tools: BuiltinTools.all() });
    endpoint = await serveMcpHttp(() => createMcpServer(runner, { journal: true }));
    plain = await serveMcpHttp(() => createMcpServer(runner));
  });
  afterAll(async () => {
    await endpoint.close();
    await plain.close();
    await runner.platform.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const connect = async (url: URL): Promise<Client> => {
    const client = new Client({ name: 'ide', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    return client;
  };

  it('lists the turns, files and unified diffs of the session, rewinds to turn 1 through toolhost/journal/rewind, and the files are back', async () => {
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    writeFileSync(join(dir, 'b.txt'), 'alpha\n');
    const client = await connect(endpoint.url);
    try {
      let listChanged = 0;
      client.setNotificationHandler('notifications/resources/list_changed', () => void (listChanged += 1));
      await makeThreeTurns(client);
      const conversation = await ownConversation(client);
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual([
        `toolhost://journal/${encodeURIComponent(conversation)}`,
        ...[1, 2, 3].map((turn) => `toolhost://journal/${encodeURIComponent(conversation)}/${turn}`),
      ]);
      const journal = JSON.parse(await readText(client, resources[0]!.uri)) as JournalJson;
      expect(journal.conversationId).toBe(conversation);
      expect(journal.turns.map((turn) => [turn.turn, turn.calls.map((call) => call.tool), turn.calls.flatMap((call) => call.files.map((file) => file.path))])).toEqual([
        [1, ['edit_file'], [join(dir, 'a.txt')]],
        [2, ['create_file'], [join(dir, 'c.txt')]],
        [3, ['edit_file'], [join(dir, 'b.txt')]],
      ]);
      expect(journal.turns[1]!.calls[0]!.files[0]!.before).toBe('absent');
      expect(journal.turns[0]!.calls[0]!.files[0]!.diff).toMatch(/^-one$/m);
      const turn3 = await readText(client, `toolhost://journal/${encodeURIComponent(conversation)}/3`);
      expect(turn3).toMatch(/^-alpha$/m);
      expect(turn3).toMatch(/^\+beta$/m);
      expect(turn3).toContain('b.txt');
      expect(turn3).toBe(journal.turns[2]!.calls[0]!.files[0]!.diff.replace(/\n?$/, '\n'));
      await until(() => listChanged >= 3);

      const preview = await rewind(client, { toTurn: 1, dryRun: true });
      expect(preview.restored.sort()).toEqual([join(dir, 'b.txt'), join(dir, 'c.txt')]);
      expect(existsSync(join(dir, 'c.txt'))).toBe(true);
      const done = await rewind(client, { toTurn: 1 });
      expect(done).toMatchObject({ conversationId: conversation, conflicts: [], turn: 4 });
      expect(done.restored.sort()).toEqual([join(dir, 'b.txt'), join(dir, 'c.txt')]);
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('two\n');
      expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('alpha\n');
      expect(existsSync(join(dir, 'c.txt'))).toBe(false);
      await until(() => listChanged >= 4);

      const after = JSON.parse(await readText(client, resources[0]!.uri)) as JournalJson;
      expect(after.turns.map((turn) => [turn.turn, turn.calls[0]!.tool])).toEqual([[1, 'edit_file'], [2, 'create_file'], [3, 'edit_file'], [4, 'rewind']]);
      // Undo the rewind: back to turn 3's files.
      await rewind(client, { toTurn: 3 });
      expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('beta\n');
      expect(readFileSync(join(dir, 'c.txt'), 'utf8')).toBe('new file\n');
    } finally {
      await client.close();
    }
  });

  it('resources/subscribe to the conversation: notifications/resources/updated when a turn lands (a tool call, a rewind); a turn cannot be subscribed to', async () => {
    writeFileSync(join(dir, 'sub.txt'), 'watched\n');
    const client = await connect(endpoint.url);
    try {
      const updated: string[] = [];
      client.setNotificationHandler('notifications/resources/updated', (notification) => void updated.push(notification.params.uri));
      expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
      await client.callTool({ name: 'edit_file', arguments: { file_path: 'sub.txt', old_string: 'watched', new_string: 'seen' } });
      const conversation = await ownConversation(client);
      const uri = `toolhost://journal/${encodeURIComponent(conversation)}`;
      await client.subscribeResource({ uri });
      await client.callTool({ name: 'edit_file', arguments: { file_path: 'sub.txt', old_string: 'seen', new_string: 'seen again' } });
      await until(() => updated.length === 1);
      await rewind(client, { toTurn: 0 });
      await until(() => updated.length === 2);
      expect(updated).toEqual([uri, uri]);
      expect(readFileSync(join(dir, 'sub.txt'), 'utf8')).toBe('watched\n');
      const refused = await failure(client.subscribeResource({ uri: `${uri}/1` }));
      expect(refused.code).toBe(-32602);
      expect(refused.message).toContain(`subscribe to ${uri}, the journal of this session's conversation`);
      await client.unsubscribeResource({ uri });
      await client.callTool({ name: 'create_file', arguments: { file_path: 'sub2.txt', content: 'x' } });
      await client.listResources(); // a round trip after the call: an update would have arrived by now
      expect(updated).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('adds no tool for the model: tools/list is the same as a server without the journal, and names no journal or rewind tool', async () => {
    const client = await connect(endpoint.url);
    const other = await connect(plain.url);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual((await other.listTools()).tools.map((tool) => tool.name));
      expect(names).toEqual(runner.tools().map((tool) => tool.name));
      expect(names.filter((name) => /journal|rewind|change/i.test(name))).toEqual([]);
      expect(client.getServerCapabilities()?.experimental?.['toolhost/journal']).toEqual({
        version: 1,
        resources: 'toolhost://journal/{conversation}',
        turn: 'toolhost://journal/{conversation}/{turn}',
        rewind: 'toolhost/journal/rewind',
      });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual(['toolhost://journal/{conversation}', 'toolhost://journal/{conversation}/{turn}']);
    } finally {
      await client.close();
      await other.close();
    }
  });

  it('a server without journal: true serves no resources and no rewind (Method not found)', async () => {
    const client = await connect(plain.url);
    try {
      expect(client.getServerCapabilities()?.experimental).toBeUndefined();
      expect(client.getServerCapabilities()?.resources).toBeUndefined();
      expect((await failure(rewind(client, { toTurn: 0 }))).code).toBe(-32601);
    } finally {
      await client.close();
    }
  });

  it('another conversation, a turn not in the journal and bad rewind options are -32602 errors saying what to send', async () => {
    const client = await connect(endpoint.url);
    try {
      await client.callTool({ name: 'create_file', arguments: { file_path: 'own.txt', content: 'mine\n' } });
      const conversation = await ownConversation(client);
      const own = `toolhost://journal/${encodeURIComponent(conversation)}`;

      const foreign = await failure(client.readResource({ uri: 'toolhost://journal/someone-else' }));
      expect(foreign.code).toBe(-32602);
      expect(foreign.message).toContain(`unknown conversation "someone-else": this MCP session's calls write into conversation "${conversation}"`);
      expect(foreign.message).toContain(`read ${own}`);

      const noTurn = await failure(client.readResource({ uri: `${own}/9` }));
      expect(noTurn.code).toBe(-32602);
      expect(noTurn.message).toContain(`turn "9" of conversation "${conversation}" is not in its journal (listed turns: 1)`);
      expect((await failure(client.readResource({ uri: `${own}/x` }))).message).toContain('turn "x"');

      const beyond = await failure(rewind(client, { toTurn: 7 }));
      expect(beyond.code).toBe(-32602);
      expect(beyond.message).toBe(
        `toolhost/journal/rewind of conversation "${conversation}": rewind: conversation "${conversation}" has had 1 turn, the last turn 1; toTurn 7 is beyond it: give toTurn from 0 (before its first change) to 1; the resource ${own} lists the turns that changed files`,
      );
      const notNumber = await failure(rewind(client, { toTurn: 'last' }));
      expect(notNumber).toEqual({ code: -32602, message: expect.stringContaining('toTurn must be a number; send { toTurn: <turn number') });
      const badFlag = await failure(rewind(client, { toTurn: 0, force: 'yes' }));
      expect(badFlag.message).toContain('force must be a boolean');
      // A misspelt flag is refused, not ignored: `dryrun` taken for nothing would rewind for real.
      const misspelt = await failure(rewind(client, { toTurn: 0, dryrun: true }));
      expect(misspelt).toEqual({ code: -32602, message: expect.stringContaining('toolhost/journal/rewind: "dryrun" is not a parameter (did you mean dryRun?); nothing was rewound; send { toTurn:') });
      expect((await failure(rewind(client, { toTurn: 0, extra: 1 }))).message).toContain('"extra" is not a parameter; nothing was rewound');
      expect(readFileSync(join(dir, 'own.txt'), 'utf8')).toBe('mine\n');
      const otherRewind = await failure(rewind(client, { toTurn: 0, conversationId: 'someone-else' }));
      expect(otherRewind.code).toBe(-32602);
      expect(otherRewind.message).toContain(`the only one it rewinds; leave conversationId out or send "${conversation}"`);
      expect(readFileSync(join(dir, 'own.txt'), 'utf8')).toBe('mine\n');
    } finally {
      await client.close();
    }
  });

  it('two sessions have two conversations: each lists and rewinds only its own turns', async () => {
    writeFileSync(join(dir, 'one.txt'), 'first\n');
    writeFileSync(join(dir, 'two.txt'), 'second\n');
    const a = await connect(endpoint.url);
    const b = await connect(endpoint.url);
    try {
      await a.callTool({ name: 'edit_file', arguments: { file_path: 'one.txt', old_string: 'first', new_string: 'FIRST' } });
      await b.callTool({ name: 'edit_file', arguments: { file_path: 'two.txt', old_string: 'second', new_string: 'SECOND' } });
      const [ca, cb] = [await ownConversation(a), await ownConversation(b)];
      expect(ca).not.toBe(cb);
      expect((await failure(a.readResource({ uri: `toolhost://journal/${encodeURIComponent(cb)}` }))).code).toBe(-32602);
      const undone = await rewind(a, { toTurn: 0 });
      expect(undone.restored).toEqual([join(dir, 'one.txt')]);
      expect(readFileSync(join(dir, 'one.txt'), 'utf8')).toBe('first\n');
      expect(readFileSync(join(dir, 'two.txt'), 'utf8')).toBe('SECOND\n');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('protocol 2026-07-28 (a fresh server per request): with a named conversation the host reads and rewinds it like a session', async () => {
    writeFileSync(join(dir, 'm.txt'), 'modern\n');
    const named = await serveMcpHttp(() => createMcpServer(runner, { journal: true, conversation: 'ide-1' }));
    const modern = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await modern.connect(new StreamableHTTPClientTransport(named.url));
      expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      await modern.callTool({ name: 'edit_file', arguments: { file_path: 'm.txt', old_string: 'modern', new_string: 'changed' } });
      expect(await ownConversation(modern)).toBe('ide-1');
      expect(await readText(modern, 'toolhost://journal/ide-1/1')).toMatch(/^-modern\n\+changed$/m);
      const result = await rewind(modern, { toTurn: 0 });
      expect(result).toMatchObject({ conversationId: 'ide-1', restored: [join(dir, 'm.txt')], turn: 2 });
      expect(readFileSync(join(dir, 'm.txt'), 'utf8')).toBe('modern\n');
    } finally {
      await modern.close();
      await named.close();
    }
  });

  it('journal: true on a host without changes() and rewind() is a TypeError at creation', async () => {
    const host = { tools: () => runner.tools(), declarations: () => runner.declarations(), execute: runner.execute.bind(runner), processToolCalls: runner.processToolCalls.bind(runner) };
    await expect(createMcpServer(host, { journal: true })).rejects.toThrow(new TypeError('createMcpServer: journal: true needs a host with changes() and rewind(), such as a ToolRunner with its journal on; leave journal out for a host without one'));
    await expect(createMcpServer(runner, { journal: 'yes' as unknown as boolean })).rejects.toThrow(TypeError);
  });
});

describe('the journal over stdio (toolhost mcp --journal, the SDK client spawning the CLI)', () => {
  let dir = '';
  beforeAll(() => {
    ensureBuilt();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-mcp-journal-stdio-')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes through tools, reads the journal resources, rewinds to turn 0 and the files are as before the session', async () => {
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    writeFileSync(join(dir, 'b.txt'), 'alpha\n');
    const client = new Client({ name: 'ide', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir, '--journal'], stderr: 'pipe' }));
    try {
      await makeThreeTurns(client);
      expect((await client.listTools()).tools.some((tool) => /journal|rewind/.test(tool.name))).toBe(false);
      const conversation = await ownConversation(client);
      const journal = JSON.parse(await readText(client, `toolhost://journal/${encodeURIComponent(conversation)}`)) as JournalJson;
      expect(journal.turns.map((turn) => turn.turn)).toEqual([1, 2, 3]);
      expect(await readText(client, `toolhost://journal/${encodeURIComponent(conversation)}/1`)).toMatch(/^-one\n\+two$/m);
      const result = await rewind(client, { toTurn: 0 });
      expect(result.restored.sort()).toEqual([join(dir, 'a.txt'), join(dir, 'b.txt'), join(dir, 'c.txt')]);
      expect(result.turn).toBe(4);
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('one\n');
      expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('alpha\n');
      expect(existsSync(join(dir, 'c.txt'))).toBe(false);
      const bad = await failure(rewind(client, { toTurn: 12 }));
      expect(bad.code).toBe(-32602);
    } finally {
      await client.close();
    }
  });

  it('without --journal the server has no resources capability and answers the rewind request Method not found', async () => {
    const client = new Client({ name: 'ide', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir], stderr: 'pipe' }));
    try {
      expect(client.getServerCapabilities()?.resources).toBeUndefined();
      expect((await failure(rewind(client, { toTurn: 0 }))).code).toBe(-32601);
    } finally {
      await client.close();
    }
  });
});

function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (predicate()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new Error('condition not met in time'));
      else setTimeout(tick, 10);
    };
    tick();
  });
}
