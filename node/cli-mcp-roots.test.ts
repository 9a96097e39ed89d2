// `toolhost mcp` on stdio without --root takes the MCP client's root as its workspace, as the reference
// filesystem server does; --root, a client without roots, or roots that name no directory keep the
// workspace where it was. Real CLI processes and the real MCP SDK client.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { firstDirectoryRoot, rootsAnswerSchema, type RootsAnswer } from './client-roots.js';
import { searchIndexFile } from './search-index-store.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'toolhost.mjs');

interface Session {
  client: Client;
  /**
   * What the process wrote to stderr once it holds `text`, or after 30 s without (then the assertion
   * shows what there was): stderr is a pipe of its own, so a line written before an answer on stdout
   * may arrive after it.
   */
  stderrWith(text: string): Promise<string>;
  /** view_file's text for `path`, or the error text. */
  view(path: string): Promise<string>;
}

/** Starts `toolhost mcp ...args` in `cwd` and connects a client that offers `roots` (or no roots capability at all). */
async function connect(cwd: string, args: string[], roots: { uri: string; name?: string }[] | undefined, env: Record<string, string> = {}): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd, stderr: 'pipe', env: { ...(process.env as Record<string, string>), ...env } });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'roots-test', version: '1.0.0' }, { capabilities: roots === undefined ? {} : { roots: { listChanged: true } } });
  if (roots !== undefined) client.setRequestHandler('roots/list', async () => ({ roots }));
  await client.connect(transport);
  return {
    client,
    async stderrWith(text) {
      const end = Date.now() + 30_000;
      while (!stderr.includes(text) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
      return stderr;
    },
    async view(path) {
      const result = await client.callTool({ name: 'view_file', arguments: { file_path: path } });
      return (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');
    },
  };
}

// The cases side by side: each waits on a CLI process of its own; they share only files they read
// (the journal case writes a file of its own).
describe.concurrent('toolhost mcp on stdio: the workspace is the client root when --root is not given', () => {
  let base = '';
  let cwd = '';
  let project = '';
  const open: Client[] = [];

  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-roots-')));
    cwd = join(base, 'launched-here');
    project = join(base, 'the project');
    mkdirSync(cwd);
    mkdirSync(project);
    writeFileSync(join(cwd, 'where.txt'), 'the current directory\n');
    writeFileSync(join(project, 'where.txt'), 'the client root\n');
  });
  afterAll(async () => {
    await Promise.all(open.map((client) => client.close()));
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it("works in the client's first directory root (a file:// URL, spaces escaped) and says so on stderr", async () => {
    const session = await connect(cwd, [], [{ uri: pathToFileURL(project).href, name: 'project' }]);
    open.push(session.client);
    expect(await session.view('where.txt')).toContain('the client root');
    const note = `the workspace is the client's root ${project}`;
    expect(await session.stderrWith(note)).toContain(note);
  }, 120_000);

  it('a call sent after the initialize result but before notifications/initialized waits for it, then runs in the client root', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: Record<string, unknown>[] = [];
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
        lines.push(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>);
        buffered = buffered.slice(end + 1);
      }
    });
    const send = (message: object): void => void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const next = async (match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
      const end = Date.now() + 60_000;
      for (;;) {
        const found = lines.find(match);
        if (found || Date.now() > end) return found ?? {};
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    try {
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: false } }, clientInfo: { name: 'late', version: '1' } } });
      expect(await next((line) => line.id === 1)).toHaveProperty('result');
      // The lifecycle lets a client send requests once it has the result: the call comes first.
      send({ id: 2, method: 'tools/call', params: { name: 'create_file', arguments: { file_path: 'made-here.txt', content: 'late\n' } } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lines.some((line) => line.id === 2)).toBe(false);
      send({ method: 'notifications/initialized' });
      const ask = await next((line) => line.method === 'roots/list');
      send({ id: ask.id, result: { roots: [{ uri: pathToFileURL(project).href }] } });
      const answer = await next((line) => line.id === 2);
      expect(answer).toMatchObject({ result: { structuredContent: { created: true, file_path: join(project, 'made-here.txt') } } });
      expect(readFileSync(join(project, 'made-here.txt'), 'utf8')).toBe('late\n');
      expect(existsSync(join(cwd, 'made-here.txt'))).toBe(false);
    } finally {
      child.kill();
      rmSync(join(project, 'made-here.txt'), { force: true });
    }
  }, 120_000);

  it('passes over roots that are not directories here (a file, a missing path) to the first that is', async () => {
    const roots = [{ uri: pathToFileURL(join(cwd, 'where.txt')).href }, { uri: pathToFileURL(join(base, 'missing')).href }, { uri: pathToFileURL(project).href }];
    const session = await connect(cwd, [], roots);
    open.push(session.client);
    expect(await session.view('where.txt')).toContain('the client root');
  }, 120_000);

  it('stays in the current directory for a client without the roots capability, and says so on stderr', async () => {
    const session = await connect(cwd, [], undefined);
    open.push(session.client);
    expect(await session.view('where.txt')).toContain('the current directory');
    const note = `the client offers no roots; the workspace is the current directory ${cwd}`;
    expect(await session.stderrWith(note)).toContain(note);
  }, 120_000);

  it('with --search-index, indexes the workspace chosen only: the directory it was started in is not walked for an index', async () => {
    const cache = join(base, 'index-cache');
    const dir = join(cache, 'toolhost', 'search-index');
    const session = await connect(cwd, ['--search-index'], [{ uri: pathToFileURL(project).href }], { XDG_CACHE_HOME: cache });
    const found = await session.client.callTool({ name: 'grep_search', arguments: { pattern: 'client root', output_mode: 'count' } });
    expect(JSON.stringify(found.structuredContent ?? found.content)).toContain('where.txt');
    // Closing ends the server, which saves the indexes it has.
    await session.client.close();
    const end = Date.now() + 30_000;
    while (!existsSync(searchIndexFile(project, dir)) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(searchIndexFile(project, dir))).toBe(true);
    expect(existsSync(searchIndexFile(cwd, dir))).toBe(false);
    // The project's index and the folder listings kept beside it; nothing of the start directory's.
    const projectFile = basename(searchIndexFile(project, dir)).replace(/\.thsi$/, '');
    expect(readdirSync(dir).filter((name) => !name.startsWith('.')).sort()).toEqual([`${projectFile}.listings`, `${projectFile}.thsi`]);
  }, 120_000);

  it('stays in the current directory, with a note, when no root names a directory', async () => {
    const session = await connect(cwd, [], [{ uri: pathToFileURL(join(base, 'missing')).href }]);
    open.push(session.client);
    expect(await session.view('where.txt')).toContain('the current directory');
    const note = 'name no directory here; the workspace stays the current directory';
    expect(await session.stderrWith(note)).toContain(note);
  }, 120_000);

  it('passes over roots that are not file:// URIs with a note, and works in the file:// root beside them', async () => {
    const session = await connect(cwd, [], [{ uri: 'https://example.com/x', name: 'web' }, { uri: pathToFileURL(project).href, name: 'project' }, { uri: 'git://host/repo' }]);
    open.push(session.client);
    expect(await session.view('where.txt')).toContain('the client root');
    const note = "passed over the client's roots that are not file:// URIs (https://example.com/x, git://host/repo)";
    expect(await session.stderrWith(note)).toContain(note);
  }, 120_000);

  it('still refuses the whole answer for a file:// root the schema refuses (a name that is not a string): the workspace stays here', async () => {
    const session = await connect(cwd, [], [{ uri: 'https://example.com/x' }, { uri: pathToFileURL(project).href, name: 5 as unknown as string }]);
    open.push(session.client);
    expect(await session.view('where.txt')).toContain('the current directory');
    const note = 'the client did not list its roots';
    expect(await session.stderrWith(note)).toMatch(/the client did not list its roots \(.*roots.*1.*name/);
  }, 120_000);

  it('keeps --root over the client root', async () => {
    const session = await connect(base, ['--root', cwd], [{ uri: pathToFileURL(project).href }]);
    open.push(session.client);
    expect(await session.view('where.txt')).toContain('the current directory');
  }, 120_000);

  it('confines the client-root workspace as any other: a path out of it is outside_workspace', async () => {
    const session = await connect(cwd, [], [{ uri: pathToFileURL(project).href }]);
    open.push(session.client);
    expect(await session.view('../launched-here/where.txt')).toMatch(/outside_workspace/);
  }, 120_000);

  it('serves the journal of the client-root workspace with --journal: a write there is listed and rewound there', async () => {
    writeFileSync(join(project, 'journaled.txt'), 'first\n');
    const session = await connect(cwd, ['--journal'], [{ uri: pathToFileURL(project).href }]);
    open.push(session.client);
    const { client } = session;
    const edit = await client.callTool({ name: 'edit_file', arguments: { file_path: 'journaled.txt', old_string: 'first', new_string: 'second' } });
    expect(edit.isError).toBeUndefined();
    const { resources } = await client.listResources();
    const journal = resources.find((resource) => resource.mimeType === 'application/json');
    const read = await client.readResource({ uri: journal?.uri ?? '' });
    const changes = JSON.parse((read.contents[0] as { text: string }).text) as { turns: { turn: number; calls: { files: { path: string }[] }[] }[] };
    expect(changes.turns.map((turn) => [turn.turn, turn.calls[0]?.files[0]?.path])).toEqual([[1, join(project, 'journaled.txt')]]);
    const result = (await client.request({ method: 'toolhost/journal/rewind', params: { toTurn: 0 } }, {
      '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value: value as { restored: string[] } }) },
    })) as { restored: string[] };
    expect(result.restored).toEqual([join(project, 'journaled.txt')]);
    expect(readFileSync(join(project, 'journaled.txt'), 'utf8')).toBe('first\n');
  }, 120_000);
});

describe('firstDirectoryRoot', () => {
  it('answers undefined for an empty list and for roots of other schemes only, and the first directory otherwise', () => {
    expect(firstDirectoryRoot([])).toBeUndefined();
    expect(firstDirectoryRoot([{ uri: 'https://example.invalid/' }, { uri: 'git://host/repo' }])).toBeUndefined();
    expect(firstDirectoryRoot([{ uri: 'https://example.invalid/' }, { uri: pathToFileURL(tmpdir()).href }])).toBe(tmpdir());
  });
});

describe('rootsAnswerSchema', () => {
  const schema = rootsAnswerSchema(specTypeSchemas.ListRootsResult);
  const read = (value: unknown) => schema['~standard'].validate(value) as { value?: RootsAnswer; issues?: readonly { message: string; path?: readonly unknown[] }[] };

  it('sets the roots of other schemes apart and keeps the file:// roots, checked', () => {
    const { value, issues } = read({ roots: [{ uri: 'https://example.com/x' }, { uri: 'file:///srv/a', name: 'a' }, { uri: 'GIT://host/repo' }, { uri: 'file:///srv/b' }] });
    expect(issues).toBeUndefined();
    expect(value?.roots).toEqual([{ uri: 'file:///srv/a', name: 'a' }, { uri: 'file:///srv/b' }]);
    expect(value?.ignored).toEqual(['https://example.com/x', 'GIT://host/repo']);
  });

  it('takes a file root whose scheme is written in capitals (schemes are case-insensitive), as file://', () => {
    const { value, issues } = read({ roots: [{ uri: 'FILE:///srv/a', name: 'a' }, { uri: 'File:///srv/b' }] });
    expect(issues).toBeUndefined();
    expect(value?.roots).toEqual([{ uri: 'file:///srv/a', name: 'a' }, { uri: 'file:///srv/b' }]);
    expect(value?.ignored).toEqual([]);
  });

  it('refuses what the SDK schema refuses that is not a root of another scheme, naming its place in the answer as sent', () => {
    expect(read({ roots: [{ uri: 'https://example.com/x' }, { uri: 'file:///srv/a', name: 5 }] }).issues?.[0]?.path).toEqual(['roots', 1, 'name']);
    // Not file:// (one slash), no scheme at all, no uri, not an object: each is checked as a file root would be.
    for (const root of [{ uri: 'file:/srv/a' }, { uri: '/srv/a' }, { name: 'x' }, 'file:///srv/a']) expect(read({ roots: [{ uri: 'https://example.com/' }, root] }).issues).toBeDefined();
    expect(read({ roots: 'file:///srv/a' }).issues).toBeDefined();
    expect(read(null).issues).toBeDefined();
  });

  it('answers an empty list, and a list of other schemes only, with no roots', () => {
    expect(read({ roots: [] }).value).toEqual({ roots: [], ignored: [] });
    expect(read({ roots: [{ uri: 'https://example.com/' }] }).value).toEqual({ roots: [], ignored: ['https://example.com/'] });
  });
});
