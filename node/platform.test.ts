import { createHash, webcrypto } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BuiltinTools, defineTool } from '../src/index.js';
import { ToolRunner, type ToolCallFailure, type ToolCallResult } from '../src/runner.js';
import type { Platform, RunCommandResult } from '../src/core/types.js';
import { describePlatformContract } from '../test/contract/platform-contract.js';
import { isProcessGroupAlive } from './run-command.js';
import { createNodePlatform } from './platform.js';
import { hashBytes } from '../src/core/file-cache.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { MemoryStateStore } from '../src/platform/memory.js';
import { stopwatch } from '../test/support/starvation.js';
import { searchSourceOf } from '../src/search/engine-source.js';

const SENTINEL = 'SENTINEL-CONTENT-do-not-change';

let base: string; // realpath of the temp dir holding everything
let root: string; // the workspace
let outside: string; // a directory next to the root
let evil: string; // a sibling sharing the root's prefix: `${root}-evil`

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-node-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  evil = `${root}-evil`;
  await mkdir(root);
  await mkdir(outside);
  await mkdir(evil);
  await writeFile(join(outside, 'sentinel.txt'), SENTINEL);
  await writeFile(join(evil, 'sentinel.txt'), SENTINEL);
  await writeFile(join(root, 'a.txt'), 'alpha\nbeta\n');
  await mkdir(join(root, 'a'));
  await symlink(outside, join(root, 'link-out')); // a symlinked parent dir pointing outside
  await symlink('/etc', join(root, 'etc'));
  await symlink('loop2', join(root, 'loop1'));
  await symlink('loop1', join(root, 'loop2'));
  await symlink(join(outside, 'created-through-link.txt'), join(root, 'dangling'));
  await symlink('a.txt', join(root, 'inner-link'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function call(runner: ToolRunner, name: string, args: Record<string, unknown>, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ToolCallResult> {
  const [result] = await runner.processToolCalls([{ id: 'c1', name, args }], opts);
  return result as ToolCallResult;
}

function ok<T>(result: ToolCallResult): T {
  expect(result).not.toHaveProperty('code');
  return (result as { result: T }).result;
}

function failed(result: ToolCallResult): ToolCallFailure {
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

/** Hash of every file outside the root that the corpus aims at (and whether the link target was created). */
function outsideSnapshot(): string {
  const hash = createHash('sha256');
  for (const path of [join(outside, 'sentinel.txt'), join(evil, 'sentinel.txt'), '/etc/hostname', '/etc/passwd']) {
    hash.update(path).update(existsSync(path) ? readFileSync(path) : 'missing');
  }
  hash.update(String(existsSync(join(outside, 'created-through-link.txt'))));
  hash.update(String(existsSync(join(base, 'x'))));
  return hash.digest('hex');
}

describe('createNodePlatform', () => {
  it('fingerprints files through node:crypto once imported, with the digests of WebCrypto and @noble/hashes, on both sides of 1 KiB', async () => {
    const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
    const samples = [0, 1, 1023, 1024, 1025, 4096, 65_537].map((size) => new Uint8Array(size).map((_, i) => (i * 131 + size) & 0xff));
    const web = await Promise.all(samples.map(async (bytes) => hex(new Uint8Array(await webcrypto.subtle.digest('SHA-256', bytes)))));
    const digest = vi.spyOn(crypto.subtle, 'digest');
    for (const [i, bytes] of samples.entries()) {
      const hash = await hashBytes(bytes);
      expect(hash, `size ${bytes.length}`).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(hash, `size ${bytes.length}`).toBe(hex(sha256(bytes)));
      expect(hash, `size ${bytes.length}`).toBe(web[i]);
    }
    expect(digest).toHaveBeenCalledTimes(0);
    digest.mockRestore();
  });

  it('mounts a real directory: workspace paths equal host paths', async () => {
    const platform = createNodePlatform({ root: join(base, 'root', '.', '') });
    expect(platform.root).toBe(root);
    expect(platform.name).toBe('node');
    expect(new TextDecoder().decode(await platform.fs.readFile(`${root}/a.txt`))).toBe('alpha\nbeta\n');
    await platform.fs.writeFile(`${root}/from-platform.txt`, 'x');
    expect(await readFile(join(root, 'from-platform.txt'), 'utf8')).toBe('x');
    await rm(join(root, 'from-platform.txt'));
  });

  it('uses the realpath of a symlinked root', async () => {
    await symlink(root, join(base, 'root-alias'));
    expect(createNodePlatform({ root: join(base, 'root-alias') }).root).toBe(root);
  });

  it('throws a TypeError (a mistake of the host) for a missing root and for a file as root', () => {
    expect(() => createNodePlatform({ root: join(base, 'missing') })).toThrow(new TypeError(`workspace root "${join(base, 'missing')}" does not exist (ENOENT); create it first, or give inMemory: true for a workspace in memory`));
    expect(() => createNodePlatform({ root: join(root, 'a.txt') })).toThrow(new TypeError(`workspace root "${join(root, 'a.txt')}" is a file, not a directory; give its folder as root`));
  });

  it('refuses an empty or non-string root with a TypeError naming it, never the current directory', () => {
    expect(() => createNodePlatform({ root: '' })).toThrow(new TypeError('createNodePlatform: root must be a non-empty path without NUL bytes, not ""'));
    expect(() => createNodePlatform({ root: 5 as never })).toThrow(new TypeError('createNodePlatform: root must be a non-empty path without NUL bytes, not 5'));
    expect(() => createNodePlatform({ root: null as never })).toThrow(new TypeError('createNodePlatform: root must be a non-empty path without NUL bytes, not null'));
    expect(() => createNodePlatform({ root: `${root}\0x` })).toThrow(TypeError);
    // Omitted, the workspace is the current directory, as the toolhost command's.
    expect(createNodePlatform({}).root).toBe(realpathSync(process.cwd()));
  });

  it('refuses every other bad option with a TypeError naming the option, the value and what is accepted', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ confinement: 'bogus' }, "confinement must be 'descriptors' or 'paths', not \"bogus\""],
      [{ stateDir: '' }, 'stateDir must be a non-empty path without NUL bytes, not ""'],
      [{ state: {} }, 'state must be a StateStore such as new MemoryStateStore(); it has no getAll, setMany methods'],
      [{ command: { killGraceMs: -1 } }, 'command.killGraceMs must be a finite number of milliseconds, 0 or more, not -1'],
      [{ command: { lingerMs: Number.NaN } }, 'command.lingerMs must be a finite number of milliseconds, 0 or more, not NaN'],
      [{ command: { keepChars: 1.5 } }, 'command.keepChars must be a positive integer, not 1.5'],
      [{ command: { shell: '' } }, 'command.shell must be a non-empty string, not ""'],
      [{ command: { inheritEnv: 'yes' } }, 'command.inheritEnv must be true or false, not "yes"'],
      [{ command: { env: 'A=1' } }, 'command.env must be an object of variables (name to string value), not "A=1"'],
      [{ command: { env: { A: 5 } } }, 'command.env.A must be a string, not 5'],
      [{ command: { killGraceMS: 5 } }, 'command.killGraceMS is not an option (did you mean command.killGraceMs?)'],
      [{ rooot: '/tmp' }, 'rooot is not an option (did you mean root?)'],
      [{ statedir: '/tmp' }, 'statedir is not an option (did you mean stateDir?)'],
      [{ command: 'sh' }, 'command must be an object, not "sh"'],
      [{ webSearch: { timeoutMs: Infinity } }, 'webSearch.timeoutMs must be a finite positive number of milliseconds, not Infinity'],
      [{ webSearch: { baseUrl: 'duckduckgo' } }, 'webSearch.baseUrl must be an absolute URL such as https://example.com/, not "duckduckgo"'],
      [{ webSearch: { fetch: {} } }, 'webSearch.fetch must be a function, not {}'],
      [{ fetch: 'fetch' }, 'fetch must be a function, not "fetch"'],
      [{ network: { allow: 'https://x/' } }, 'network.allow must be an array of URL prefixes or { prefix, methods? } rules, not "https://x/"'],
      [{ network: { allow: [{ methods: ['GET'] }] } }, 'network.allow[0].prefix must be an http:// or https:// URL prefix such as "https://api.example.com/", not undefined'],
      [{ network: { allow: ['not a url'] } }, 'network.allow[0] must be a URL prefix or { prefix, methods? }, not "not a url"'],
      [{ network: { allow: ['https://ok/', { prefix: 'ftp://x/' }] } }, 'network.allow[1].prefix must be an http:// or https:// URL prefix such as "https://api.example.com/", not "ftp://x/"'],
      [{ network: { allowAddresses: ['not-an-ip'] } }, 'network.allowAddresses[0] must be an IP address (127.0.0.1, ::1) or an IPv4 CIDR range (10.0.0.0/8), not "not-an-ip"'],
      [{ network: { allowAddresses: ['127.0.0.0/33'] } }, 'network.allowAddresses[0] must be an IP address (127.0.0.1, ::1) or an IPv4 CIDR range (10.0.0.0/8), not "127.0.0.0/33"'],
      [{ network: { alow: [] } }, 'network.alow is not an option (did you mean network.allow?)'],
      [{ network: { allow: [7] } }, 'network.allow[0] must be a URL prefix or { prefix, methods? }, not 7'],
      [{ network: { allowAddresses: '127.0.0.1' } }, 'network.allowAddresses must be an array of IP addresses or IPv4 CIDR ranges (strings), not "127.0.0.1"'],
      [{ fileLocks: 'yes' }, 'fileLocks must be true, false or { dir?, staleMs? }, not "yes"'],
      [{ fileLocks: { staleMs: 0 } }, 'fileLocks.staleMs must be a finite positive number of milliseconds, not 0'],
    ];
    for (const [options, message] of cases) {
      expect(() => createNodePlatform({ root, ...options }), JSON.stringify(options)).toThrow(new TypeError(`createNodePlatform: ${message}`));
    }
    expect(() => createNodePlatform('root' as never)).toThrow(new TypeError('createNodePlatform: options must be an object, not "root"'));
    expect(() =>
      createNodePlatform({ root, confinement: 'paths', command: { killGraceMs: 0, keepChars: 10, env: { A: '1', B: undefined } }, webSearch: { timeoutMs: 1 }, fileLocks: { staleMs: 5 }, network: { allow: ['https://a/', { prefix: 'https://b/', methods: ['POST'] }], allowAddresses: ['127.0.0.1', '::1', '[::1]', '10.0.0.0/8'] } }),
    ).not.toThrow();
  });

  it('reports capabilities: commands with a root, persistence with a stateDir', () => {
    expect(createNodePlatform({ root }).capabilities).toEqual({ runCommand: true, webSearch: true, persistent: false });
    expect(createNodePlatform({ root, stateDir: join(base, 'state-caps') }).capabilities.persistent).toBe(true);
    expect(createNodePlatform({ inMemory: true }).capabilities).toEqual({ runCommand: false, webSearch: true, persistent: false });
  });

  it('keeps state in stateDir across platform instances', async () => {
    const stateDir = join(base, 'state-across');
    await createNodePlatform({ root, stateDir }).state.set('conv', 'k', [1, 2]);
    expect(await createNodePlatform({ inMemory: true, stateDir }).state.get('conv', 'k')).toEqual([1, 2]);
  });

  it('with stateDir, a read-only call with context checks the state file\'s revision, not its content', async () => {
    const stateDir = join(base, 'state-read-only');
    const platform = createNodePlatform({ inMemory: true, stateDir });
    const remember = defineTool({
      name: 'remember',
      description: 'Stores a note.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      callWithContext: async (_args: unknown, ctx) => {
        ctx.setState('note', 'kept');
        return 'ok';
      },
    });
    const recall = defineTool({
      name: 'recall',
      description: 'Reads the note.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      readOnly: true,
      callWithContext: async (_args: unknown, ctx) => ctx.getState('note') ?? null,
    });
    const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), remember, recall] });
    await platform.fs.writeFile('/workspace/a.txt', 'a\n');
    expect(await runner.execute('remember', {})).toBe('ok');
    expect(await runner.execute('recall', {})).toBe('kept');
    // Keep the file's head (its revision), break the rest: read-only calls never parse it again.
    const file = join(stateDir, 'default.json');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.slice(0, text.indexOf('"state"')));
    ok(await call(runner, 'view_file', { file_path: 'a.txt' }));
    expect(await runner.execute('recall', {})).toBe('kept');
    // A state-changing call reads the whole file under the lock, and says what is wrong with it.
    await expect(runner.execute('remember', {})).rejects.toMatchObject({ code: 'execution_failed', message: expect.stringContaining(file) });
  });

  it('uses a given state store, with or without a root, and refuses state together with stateDir', async () => {
    const state = new MemoryStateStore();
    await state.set('conv', 'k', 'given');
    const withRoot = createNodePlatform({ root, state });
    const inMemory = createNodePlatform({ inMemory: true, state });
    expect(withRoot.state).toBe(state);
    expect(inMemory.state).toBe(state);
    expect([withRoot.capabilities.persistent, inMemory.capabilities.persistent]).toEqual([true, true]);
    expect(await inMemory.state.get('conv', 'k')).toBe('given');
    expect(() => createNodePlatform({ state, stateDir: join(base, 'state-both') })).toThrow(
      new TypeError('createNodePlatform: give either state (a StateStore) or stateDir (a directory for state files), not both'),
    );
  });

  it('without root: the workspace is the current directory, so create_file reaches the disk there', async () => {
    const dir = join(base, 'cwd-default');
    await mkdir(dir, { recursive: true });
    const spy = vi.spyOn(process, 'cwd').mockReturnValue(dir);
    let platform: Platform;
    try {
      platform = createNodePlatform();
    } finally {
      spy.mockRestore();
    }
    expect(platform.root).toBe(dir);
    expect(platform.capabilities).toEqual({ runCommand: true, webSearch: true, persistent: false });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    ok(await call(runner, 'create_file', { file_path: 'made.txt', content: 'on disk' }));
    expect(readFileSync(join(dir, 'made.txt'), 'utf8')).toBe('on disk');
    await platform.dispose?.();
  });

  it('inMemory: true: an in-memory workspace at /workspace; with root it is a TypeError', async () => {
    const platform = createNodePlatform({ inMemory: true });
    expect(platform.root).toBe('/workspace');
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    ok(await call(runner, 'create_file', { file_path: '/workspace/m.txt', content: 'mem' }));
    expect(new TextDecoder().decode(await platform.fs.readFile('/workspace/m.txt'))).toBe('mem');
    expect(existsSync('/workspace/m.txt')).toBe(false);
    const result = ok<RunCommandResult>(await call(runner, 'run_command', { command: 'echo hi' }));
    expect(result).toMatchObject({ stdout: '', exit_code: null, note: expect.stringContaining('not available') });
    expect(() => createNodePlatform({ root, inMemory: true })).toThrow(
      new TypeError('createNodePlatform: give either root (a directory on disk) or inMemory: true (a workspace in memory), not both'),
    );
    expect(() => createNodePlatform({ inMemory: 'yes' as never })).toThrow(new TypeError('createNodePlatform: inMemory must be true or false, not "yes"'));
    expect(() => createNodePlatform({ inMemroy: true } as never)).toThrow(new TypeError('createNodePlatform: inMemroy is not an option (did you mean inMemory?)'));
  });

  it('inMemory: keeps the memory workspace\'s atomic writes, change counter and search source', async () => {
    const platform = createNodePlatform({ inMemory: true });
    expect(platform.atomicWrites).toBe(true);
    expect(typeof platform.changeCount).toBe('function');
    const before = platform.changeCount?.() ?? -1;
    await platform.fs.writeFile('/workspace/counted.txt', 'x');
    expect(platform.changeCount?.()).toBe(before + 1);
    // The search tools read the memory tree's bytes through it.
    expect(new TextDecoder().decode(searchSourceOf(platform)?.read('/workspace/counted.txt', 10)?.bytes)).toBe('x');
    expect(createNodePlatform({ root }).changeCount).toBeUndefined();
  });
});

describe('node platform web_search', () => {
  it('routes the web_search fallback to the DuckDuckGo scraper at the configured base URL', async () => {
    const { createServer } = await import('node:http');
    const queries: string[] = [];
    const server = createServer((req, res) => {
      queries.push(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('q') ?? '');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><body><div class="result results_links web-result"><h2 class="result__title">' +
          '<a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fpage&amp;rut=abc">Example <b>page</b></a></h2>' +
          '<a class="result__snippet" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fpage">A snippet</a></div></body></html>',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const platform = createNodePlatform({ webSearch: { baseUrl: `http://127.0.0.1:${port}/html/`, timeoutMs: 5000 } });
      const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
      const found = ok<{ results: unknown[] }>(await call(runner, 'web_search', { query: 'toolhost node' }));
      expect(found.results).toEqual([{ title: 'Example page', url: 'https://example.com/page', snippet: 'A snippet' }]);
      expect(queries).toEqual(['toolhost node']);
      expect(ok(await call(runner, 'google_search', { query: '  ' }))).toEqual({ results: [], note: 'Empty query' });
    } finally {
      server.close();
    }
  });
});

describe('node platform: built-in tools on a real directory', () => {
  let platform: Platform;
  let runner: ToolRunner;
  beforeAll(() => {
    platform = createNodePlatform({ root });
    runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
  });

  it('creates, views and edits files on disk', async () => {
    const created = ok<{ file_path: string; created: boolean }>(
      await call(runner, 'create_file', { file_path: 'docs/ünï (1)/note.md', content: 'one\r\ntwo\r\n' }),
    );
    expect(created).toMatchObject({ file_path: `${root}/docs/ünï (1)/note.md`, created: true });
    expect(await readFile(join(root, 'docs/ünï (1)/note.md'), 'utf8')).toBe('one\r\ntwo\r\n');
    const viewed = ok<{ content: string; total_lines: number }>(await call(runner, 'view_file', { file_path: `${root}/docs/ünï (1)/note.md` }));
    expect(viewed).toMatchObject({ content: 'one\ntwo', total_lines: 2 });
    const edited = ok<{ replacements: number }>(await call(runner, 'edit_file', { file_path: 'docs/ünï (1)/note.md', old_string: 'two', new_string: 'deux' }));
    expect(edited.replacements).toBe(1);
    expect(await readFile(join(root, 'docs/ünï (1)/note.md'), 'utf8')).toBe('one\r\ndeux\r\n');
    const temps = (await import('node:fs')).readdirSync(join(root, 'docs/ünï (1)'));
    expect(temps).toEqual(['note.md']);
  });

  it('follows a symlink that stays inside the root', async () => {
    expect(ok<{ content: string }>(await call(runner, 'view_file', { file_path: 'inner-link' })).content).toBe('alpha\nbeta');
  });

  it('lists symlinks as symlinks', async () => {
    const listed = ok<{ entries: Array<{ name: string; type: string }> }>(await call(runner, 'list_dir', { dir_path: root }));
    expect(listed.entries.find((e) => e.name === 'link-out')?.type).toBe('symlink');
    expect(listed.entries.find((e) => e.name === 'a.txt')?.type).toBe('file');
  });

  describe('refuses the traversal corpus and touches nothing outside the root', () => {
    const corpus: Array<[string, () => string, string | null]> = [
      ['../ from the root', () => '../outside/sentinel.txt', 'outside_workspace'],
      ['a/../../x', () => 'a/../../outside/sentinel.txt', 'outside_workspace'],
      ['an absolute host path outside', () => join(outside, 'sentinel.txt'), 'outside_workspace'],
      ['a symlinked parent dir pointing outside', () => `${root}/link-out/sentinel.txt`, 'outside_workspace'],
      ['a symlink to /etc', () => `${root}/etc/hostname`, 'outside_workspace'],
      ['a dangling symlink to a file outside', () => `${root}/dangling`, 'outside_workspace'],
      ['a symlink loop', () => `${root}/loop1`, null],
      ['NUL in a name', () => `${root}/a\0.txt`, 'invalid_arguments'],
      ['a file:// URL', () => `file://${outside}/sentinel.txt`, 'invalid_arguments'],
      ['a sibling sharing the root prefix', () => join(evil, 'sentinel.txt'), 'outside_workspace'],
      ['a sibling via ..', () => '../root-evil/sentinel.txt', 'outside_workspace'],
      ['../x at the root', () => join(root, '..', 'x'), 'outside_workspace'],
    ];
    const tools: Array<[string, (path: string) => Record<string, unknown>]> = [
      ['view_file', (file_path) => ({ file_path })],
      ['create_file', (file_path) => ({ file_path, content: 'pwned', overwrite: true })],
      ['edit_file', (file_path) => ({ file_path, old_string: 'SENTINEL', new_string: 'pwned' })],
    ];
    for (const [tool, args] of tools) {
      for (const [label, path, code] of corpus) {
        it(`${tool}: ${label}`, async () => {
          const before = outsideSnapshot();
          const failure = failed(await call(runner, tool, args(path())));
          if (code !== null) expect(failure.code).toBe(code);
          expect(failure.error).not.toContain(SENTINEL);
          expect(outsideSnapshot()).toBe(before);
        });
      }
    }
  });

  it('runs run_command in the workspace and a cwd inside it', async () => {
    const result = ok<RunCommandResult>(await call(runner, 'run_command', { command: 'pwd; cat ../a.txt; echo oops >&2; exit 3', cwd: 'a' }));
    expect(result).toEqual({ stdout: `${root}/a\nalpha\nbeta\n`, stderr: 'oops\n', exit_code: 3, signal: null, timed_out: false, truncated: false });
    expect(ok<RunCommandResult>(await call(runner, 'run_command', { command: 'pwd' })).stdout).toBe(`${root}\n`);
  });

  it('refuses a run_command cwd outside the root', async () => {
    for (const cwd of ['..', outside, `${root}/link-out`, `${root}/etc`, evil]) {
      const failure = failed(await call(runner, 'run_command', { command: `echo pwned > ${outside}/pwned`, cwd }));
      expect(failure.code).toBe('outside_workspace');
    }
    expect(existsSync(join(outside, 'pwned'))).toBe(false);
  });

  it('quotes at most 200 characters of a bad cwd in its message', async () => {
    const cwd = `${root}/${'x'.repeat(3000)}`;
    const failure = await platform.runCommand!({ command: 'true', cwd, timeoutMs: 1000 }, new AbortController().signal).then(
      () => undefined,
      (error: { code: string; message: string }) => error,
    );
    expect(failure?.code).toBe('not_found');
    expect(failure?.message.length).toBeLessThan(400);
    expect(failure?.message).toContain(`more characters) does not exist`);
  });

  it('times out run_command within 1.5 s and leaves no process of its group', async () => {
    const started = stopwatch();
    const result = ok<RunCommandResult>(
      await call(runner, 'run_command', { command: 'echo $$ > tool-shell.pid; sleep 30 & echo $! > tool-child.pid; wait', timeout_ms: 500 }),
    );
    expect(started.net()).toBeLessThan(1500);
    expect(result).toMatchObject({ timed_out: true, exit_code: null, signal: 'SIGTERM' });
    const pgid = Number(await readFile(join(root, 'tool-shell.pid'), 'utf8'));
    expect(isProcessGroupAlive(pgid)).toBe(false);
    await rm(join(root, 'tool-shell.pid'));
    await rm(join(root, 'tool-child.pid'));
  });

  it('kills the group when the runner times the call out', async () => {
    const failure = failed(await call(runner, 'run_command', { command: 'echo $$ > runner-shell.pid; sleep 30' }, { timeoutMs: 500 }));
    expect(failure.code).toBe('timeout');
    const pgid = Number(await readFile(join(root, 'runner-shell.pid'), 'utf8'));
    const deadline = Date.now() + 2000;
    while (isProcessGroupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(isProcessGroupAlive(pgid)).toBe(false);
    await rm(join(root, 'runner-shell.pid'));
  });
});

describe('node platform dispose', () => {
  it('kills the process groups of running commands', async () => {
    const platform = createNodePlatform({ root });
    const controller = new AbortController();
    const run = platform.runCommand!({ command: 'echo $$ > dispose-shell.pid; sleep 30', cwd: root, timeoutMs: 60_000 }, controller.signal);
    let pgid = 0;
    for (let i = 0; i < 100 && !pgid; i += 1) {
      pgid = Number(await readFile(join(root, 'dispose-shell.pid'), 'utf8').catch(() => '0')) || 0;
      if (!pgid) await new Promise((r) => setTimeout(r, 20));
    }
    const started = stopwatch();
    await platform.dispose();
    expect(started.net()).toBeLessThan(1500);
    expect((await run).signal).toBe('SIGKILL');
    expect(isProcessGroupAlive(pgid)).toBe(false);
    await expect(platform.runCommand!({ command: 'true', cwd: root, timeoutMs: 1000 }, controller.signal)).rejects.toMatchObject({ code: 'unavailable' });
    await rm(join(root, 'dispose-shell.pid'));
  });

  it('answers every file call and command after dispose with unavailable, never a descriptor error', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-disposed-')));
    await writeFile(join(dir, 'a.txt'), 'alpha\n');
    const platform = createNodePlatform({ root: dir });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    expect(await runner.execute('view_file', { file_path: 'a.txt' })).toMatchObject({ content: 'alpha' });
    await platform.dispose();
    const results = await runner.processToolCalls([
      { id: 'v', name: 'view_file', args: { file_path: 'a.txt' } },
      { id: 'l', name: 'list_dir', args: { dir_path: '.' } },
      { id: 'e', name: 'edit_file', args: { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' } },
      { id: 'c', name: 'create_file', args: { file_path: 'b.txt', content: 'b\n' } },
      { id: 'r', name: 'run_command', args: { command: 'echo hi' } },
    ]);
    const error = 'the platform was disposed; create a new one';
    expect(results).toEqual([
      { id: 'v', name: 'view_file', code: 'unavailable', error },
      { id: 'l', name: 'list_dir', code: 'unavailable', error },
      { id: 'e', name: 'edit_file', code: 'unavailable', error },
      { id: 'c', name: 'create_file', code: 'unavailable', error },
      { id: 'r', name: 'run_command', code: 'unavailable', error },
    ]);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(existsSync(join(dir, 'b.txt'))).toBe(false);
    await rm(dir, { recursive: true });
  });
});

describe('node platform fs: confined on its own', () => {
  let platform: Platform;
  beforeAll(() => {
    platform = createNodePlatform({ root });
  });
  const code = async (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => 'resolved',
      (error: { code?: unknown }) => error.code,
    );

  it('refuses link-following operations whose real path leaves the root', async () => {
    const { fs } = platform;
    expect(await code(fs.readFile(`${root}/link-out/sentinel.txt`))).toBe('outside_workspace');
    expect(await code(fs.readFile(`${root}/etc/hostname`))).toBe('outside_workspace');
    expect(await code(fs.stat(`${root}/etc`))).toBe('outside_workspace');
    expect(await code(fs.readdir(`${root}/link-out`))).toBe('outside_workspace');
    expect(await code(fs.writeFile(`${root}/link-out/new.txt`, 'x'))).toBe('outside_workspace');
    expect(await code(fs.writeFile(`${root}/dangling`, 'x'))).toBe('outside_workspace');
    expect(await code(fs.mkdir(`${root}/link-out/d/e`, { recursive: true }))).toBe('outside_workspace');
    expect(await code(fs.rename(`${root}/a.txt`, `${root}/link-out/a.txt`))).toBe('outside_workspace');
    expect(await code(fs.rm(`${root}/link-out/sentinel.txt`))).toBe('outside_workspace');
    expect(await code(fs.readFile(`${root}/../outside/sentinel.txt`))).toBe('outside_workspace');
    expect(await code(fs.readFile(join(evil, 'sentinel.txt')))).toBe('outside_workspace');
    expect(await code(fs.readFile('a.txt'))).toBe('invalid_arguments');
    expect(await code(fs.readFile(`${root}/a\0`))).toBe('invalid_arguments');
    expect(await code(fs.readFile(`${root}/loop1`))).toBe('ELOOP');
    expect(await code(fs.rm(root, { recursive: true }))).toBe('permission_denied');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(outside, 'created-through-link.txt'))).toBe(false);
    expect(readFileSync(join(outside, 'sentinel.txt'), 'utf8')).toBe(SENTINEL);
    expect(existsSync(join(root, 'a.txt'))).toBe(true);
  });

  it('acts on links themselves with lstat, readlink, symlink and unlink', async () => {
    const { fs } = platform;
    expect((await fs.lstat(`${root}/etc`)).isSymbolicLink()).toBe(true);
    expect(await fs.readlink(`${root}/etc`)).toBe('/etc');
    await fs.symlink(outside, `${root}/made-link`);
    expect(await code(fs.readFile(`${root}/made-link/sentinel.txt`))).toBe('outside_workspace');
    await fs.unlink(`${root}/made-link`);
    expect(existsSync(join(outside, 'sentinel.txt'))).toBe(true);
  });
});

describePlatformContract('node (real directory)', async () => {
  const dir = await mkdtemp(join(base, 'contract-'));
  return createNodePlatform({ root: dir, stateDir: `${dir}-state` });
}, { name: 'node', capabilities: { runCommand: true, webSearch: true, persistent: true } });

describePlatformContract('node (in memory)', () => createNodePlatform({ inMemory: true }), {
  name: 'node',
  capabilities: { runCommand: false, webSearch: true, persistent: false },
});
