import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../test/support/build.js';
import { toolProfiles, type ToolProfileName } from '../src/tools/profiles/index.js';
import { main, USAGE } from './cli.js';

const REPO = join(import.meta.dirname, '..');
const BIN = join(REPO, 'bin', 'toolhost.mjs');
/** The built-ins the command serves: all but start_subagent, generate_image and finish, which need a host's hook. */
const BUILTIN_NAMES = [
  'create_file',
  'edit_file',
  'find_file',
  'list_dir',
  'run_command',
  'search_dir',
  'view_file',
  'grep_search',
  'command_output',
  'stop_command',
];

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * How many launchers run at once: the cases run side by side, and a Node start is mostly CPU, so more
 * at once on 2 cores would only slow the test files running beside this one.
 */
const MAX_CHILDREN = 3;
let running = 0;
const queued: (() => void)[] = [];

/** Spawns the real launcher (`node bin/toolhost.mjs ...`) in `cwd`, feeding `input` on stdin, once fewer than {@link MAX_CHILDREN} run. */
async function cli(args: string[], options: { cwd: string; input?: string; onSpawn?: (child: ReturnType<typeof spawn>) => void }): Promise<Run> {
  // A slot freed goes to the first in the queue, so that a new call never overtakes it.
  if (running >= MAX_CHILDREN) await new Promise<void>((resolve) => queued.push(resolve));
  else running += 1;
  try {
    return await spawnCli(args, options);
  } finally {
    const next = queued.shift();
    if (next) next();
    else running -= 1;
  }
}

function spawnCli(args: string[], options: { cwd: string; input?: string; onSpawn?: (child: ReturnType<typeof spawn>) => void }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    // A command that exits before it reads its input (a usage error) closes the pipe: EPIPE is not a failure here.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    options.onSpawn?.(child);
    if (options.input !== undefined) child.stdin.end(options.input);
    else if (!options.onSpawn) child.stdin.end();
  });
}

// The cases run side by side (describe.concurrent): each spends most of its time waiting for a child
// Node to start, and each has a folder of its own (fresh()), so none sees another's files. Side by side
// on a saturated machine each case waits longer for its processes, hence the time limit of 2 minutes.
describe.concurrent('toolhost CLI (node bin/toolhost.mjs)', { timeout: 120_000 }, () => {
  let base = '';
  /** A new empty folder for one case. */
  const fresh = (): string => {
    const work = join(base, `w${Math.random().toString(36).slice(2, 10)}`);
    mkdirSync(work);
    return work;
  };

  beforeAll(() => {
    // The shared build (dist/): `npm test` builds it first; a stale one (a run of this file alone) is rebuilt once.
    ensureBuilt();
    expect(existsSync(join(REPO, 'dist', 'node', 'cli.js'))).toBe(true);
    base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-cli-')));
  }, 180_000);

  afterAll(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  describe('call', () => {
    it('creates a file then views it, printing { name, result } as JSON and exiting 0', async () => {
      const work = fresh();
      const created = await cli(['call', 'create_file', '{"file_path":"notes (1)/ünï code.txt","content":"one\\ntwo\\n"}'], { cwd: work });
      const path = join(work, 'notes (1)', 'ünï code.txt');
      expect(created).toEqual({
        code: 0,
        signal: null,
        stdout: `${JSON.stringify({ name: 'create_file', result: { file_path: path, bytes_written: 8, created: true } }, null, 2)}\n`,
        stderr: '',
      });
      expect(readFileSync(path, 'utf8')).toBe('one\ntwo\n');

      const viewed = await cli(['call', 'view_file', '{"file_path":"notes (1)/ünï code.txt"}'], { cwd: work });
      expect(viewed.code).toBe(0);
      expect(viewed.stderr).toBe('');
      expect(viewed.stdout).toBe(
        `${JSON.stringify(
          {
            name: 'view_file',
            result: { file_path: path, content: 'one\ntwo', start_line: 1, end_line: 2, total_lines: 2, truncated: false, line_ending: 'lf' },
          },
          null,
          2,
        )}\n`,
      );
    });

    it('prints { name, error, code } and exits 1 when the tool call fails', async () => {
      const work = fresh();
      const [missing, unknown, invalid] = await Promise.all([
        cli(['call', 'view_file', '{"file_path":"nope.txt"}'], { cwd: work }),
        cli(['call', 'no_such_tool'], { cwd: work }),
        cli(['call', 'view_file', '{"file_path":"a.txt","end_line":"x"}'], { cwd: work }),
      ]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe('');
      const parsed = JSON.parse(missing.stdout) as Record<string, unknown>;
      expect(Object.keys(parsed)).toEqual(['name', 'error', 'code']);
      expect(parsed).toMatchObject({ name: 'view_file', code: 'not_found' });

      expect(unknown.code).toBe(1);
      expect(JSON.parse(unknown.stdout)).toMatchObject({ name: 'no_such_tool', code: 'unknown_tool' });

      expect(invalid.code).toBe(1);
      expect(JSON.parse(invalid.stdout)).toMatchObject({ name: 'view_file', code: 'invalid_arguments' });
    });

    it('confines every tool to --root: paths outside give outside_workspace, exit 1, and nothing outside changes', async () => {
      const work = fresh();
      const root = join(work, 'ws');
      mkdirSync(root);
      writeFileSync(join(work, 'secret.txt'), 'top secret\n');
      writeFileSync(join(root, 'inside.txt'), 'inside\n');

      // The rest of the corpus in one process (spawning is slow on a busy machine), beside the two single calls.
      const corpus = [
        { name: 'view_file', args: { file_path: join(work, 'secret.txt') } },
        { name: 'view_file', args: { file_path: '/etc/passwd' } },
        { name: 'view_file', args: { file_path: 'sub/../../secret.txt' } },
        { name: 'create_file', args: { file_path: '../planted.txt', content: 'x' } },
        { name: 'edit_file', args: { file_path: '../secret.txt', old_string: 'top', new_string: 'no' } },
        { name: 'list_dir', args: { dir_path: '..' } },
        { name: 'run_command', args: { command: 'cat secret.txt', cwd: '..' } },
      ];
      const [inside, escape, run] = await Promise.all([
        cli(['call', 'view_file', '{"file_path":"inside.txt"}', '--root', 'ws'], { cwd: work }),
        cli(['call', 'view_file', '{"file_path":"../secret.txt"}', '--root', root], { cwd: work }),
        cli(['run', '--root', root], { cwd: work, input: corpus.map((call, i) => JSON.stringify({ id: String(i), ...call })).join('\n') }),
      ]);
      expect(inside.code).toBe(0);
      expect(JSON.parse(inside.stdout)).toMatchObject({ name: 'view_file', result: { file_path: join(root, 'inside.txt'), content: 'inside' } });

      expect(escape.code).toBe(1);
      expect(JSON.parse(escape.stdout)).toMatchObject({ name: 'view_file', code: 'outside_workspace' });

      expect(run.code).toBe(0);
      const results = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(results.map((r) => [r.id, r.name, r.code])).toEqual(corpus.map((call, i) => [String(i), call.name, 'outside_workspace']));
      expect(readFileSync(join(work, 'secret.txt'), 'utf8')).toBe('top secret\n');
      expect(existsSync(join(work, 'planted.txt'))).toBe(false);
    });

    it('ends a call that outlives --timeout with the code timeout', async () => {
      const work = fresh();
      const started = Date.now();
      const out = await cli(['call', 'run_command', '{"command":"sleep 60"}', '--timeout', '400'], { cwd: work });
      expect(out.code).toBe(1);
      // In the command's words: the limit is raised with --timeout (the API's name is timeoutMs).
      expect(JSON.parse(out.stdout)).toMatchObject({ name: 'run_command', code: 'timeout', error: 'run_command did not finish within 400 ms (this call\'s time limit); narrow the request, split the work into smaller steps, or raise --timeout (milliseconds)' });
      // Long before the sleep would end, start-up included (seconds for each of the cases side by side on a busy machine).
      expect(Date.now() - started).toBeLessThan(30_000);
    });
  });

  describe('run', () => {
    it('writes one result line per call in order with ids echoed; a bad line gets an error line and the rest go on; exit 0', async () => {
      const work = fresh();
      writeFileSync(join(work, 'a.txt'), 'alpha\n');
      const badJson = '{"id":"3","name":"view_file",';
      let parseMessage = '';
      try {
        JSON.parse(badJson);
      } catch (error) {
        parseMessage = (error as Error).message;
      }
      const input = [
        '{"id":"1","name":"view_file","args":{"file_path":"a.txt"}}',
        '',
        badJson,
        '   ',
        '{"id":"4","name":"create_file","args":{"file_path":"b.txt","content":"beta"}}',
        '{"id":5,"name":"view_file","args":{"file_path":"missing.txt"}}',
        '["not","an","object"]',
        '{"id":"7","args":{}}',
        '{"id":"8","name":"view_file","arguments":{"file_path":"a.txt"}}',
        '{"name":"list_dir","args":{"dir_path":"."}}',
      ].join('\n');
      const out = await cli(['run'], { cwd: work, input: `${input}\n` });
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      const lines = out.stdout.split('\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(8);
      const missing = JSON.parse(lines[3] as string) as Record<string, unknown>;
      expect(missing).toMatchObject({ id: 5, name: 'view_file', code: 'not_found' });
      expect(lines).toEqual([
        JSON.stringify({
          id: '1',
          name: 'view_file',
          result: { file_path: join(work, 'a.txt'), content: 'alpha', start_line: 1, end_line: 1, total_lines: 1, truncated: false, line_ending: 'lf' },
        }),
        JSON.stringify({
          line: 3,
          error: `line 3 is not valid JSON (${parseMessage}); send one object per line: {"id":"1","name":"view_file","args":{...}}`,
          code: 'invalid_arguments',
        }),
        JSON.stringify({ id: '4', name: 'create_file', result: { file_path: join(work, 'b.txt'), bytes_written: 4, created: true } }),
        JSON.stringify({ id: 5, name: 'view_file', error: missing.error, code: 'not_found' }),
        JSON.stringify({ line: 7, error: 'line 7 must be a JSON object {"id":"1","name":"view_file","args":{...}}', code: 'invalid_arguments' }),
        JSON.stringify({ line: 8, id: '7', error: 'line 8 has no tool "name"; see toolhost tools', code: 'invalid_arguments' }),
        // A model API's key for the arguments is said, not run as a call with none.
        JSON.stringify({ line: 9, id: '8', error: 'line 9: the tool\'s arguments go in "args" (an object), not "arguments": {"id":"1","name":"view_file","args":{...}}', code: 'invalid_arguments' }),
        JSON.stringify({
          name: 'list_dir',
          result: {
            dir_path: work,
            entries: [
              { name: 'a.txt', type: 'file', size: 6 },
              { name: 'b.txt', type: 'file', size: 4 },
            ],
            truncated: false,
          },
        }),
      ]);
      expect(readFileSync(join(work, 'b.txt'), 'utf8')).toBe('beta');
    });

    it('exits 0 with no output on empty input, and handles a last line without a newline and CRLF input', async () => {
      const work = fresh();
      const [empty, out] = await Promise.all([
        cli(['run'], { cwd: work, input: '' }),
        cli(['run'], { cwd: work, input: '{"id":"a","name":"find_file","args":{"pattern":"*.txt"}}\r\n{"id":"b","name":"find_file","args":{"pattern":"*.md"}}' }),
      ]);
      expect(empty).toEqual({ code: 0, signal: null, stdout: '', stderr: '' });
      expect(out.code).toBe(0);
      const lines = out.stdout.split('\n');
      expect(lines.at(-1)).toBe('');
      expect(lines.slice(0, -1).map((line) => JSON.parse(line) as unknown)).toEqual([
        { id: 'a', name: 'find_file', result: expect.anything() as unknown },
        { id: 'b', name: 'find_file', result: expect.anything() as unknown },
      ]);
    });

    it('on SIGINT cancels the call in flight, prints its line and exits 130', async () => {
      const work = fresh();
      let interrupted = Number.NaN;
      const marker = join(work, 'started');
      const out = await cli(['run'], {
        cwd: work,
        onSpawn: (child) => {
          // stdin stays open: only the interrupt can end the run. The signal is sent once the command
          // is known to run (startup takes seconds on a busy machine).
          child.stdin?.write('{"id":"s","name":"run_command","args":{"command":"touch started; sleep 30"}}\n');
          const poll = setInterval(() => {
            if (existsSync(marker)) {
              clearInterval(poll);
              interrupted = Date.now();
              child.kill('SIGINT');
            }
          }, 50);
          child.on('close', () => clearInterval(poll));
        },
      });
      expect(out.signal).toBeNull();
      expect(out.code).toBe(130);
      expect(JSON.parse(out.stdout)).toMatchObject({ id: 's', name: 'run_command', code: 'cancelled' });
      // Soon after the interrupt, far before the command's sleep would end.
      expect(Date.now() - interrupted).toBeLessThan(15_000);
    });
  });

  describe('tools', () => {
    it('prints the declarations of the built-ins it serves (all but the 3 that need a host hook) as JSON, nothing else', async () => {
      const work = fresh();
      const out = await cli(['tools'], { cwd: work });
      expect(out.code).toBe(0);
      expect(out.stderr).toBe('');
      const declarations = JSON.parse(out.stdout) as { name: string; description: string; parameters: { type: string } }[];
      expect(declarations.map((d) => d.name)).toEqual(BUILTIN_NAMES);
      for (const declaration of declarations) {
        expect(Object.keys(declaration)).toEqual(['name', 'description', 'parameters']);
        expect(declaration.description.length).toBeGreaterThan(0);
        expect(declaration.parameters.type).toBe('object');
      }
    });
  });

  describe('--tools', () => {
    /** An app directory as the README's users have one: an ES module package with toolhost and zod installed. */
    const app = (work: string, files: Record<string, string>): void => {
      writeFileSync(join(work, 'package.json'), '{"type":"module"}\n');
      mkdirSync(join(work, 'node_modules'));
      symlinkSync(REPO, join(work, 'node_modules', 'toolhost'), 'dir');
      symlinkSync(join(REPO, 'node_modules', 'zod'), join(work, 'node_modules', 'zod'), 'dir');
      for (const [name, text] of Object.entries(files)) writeFileSync(join(work, name), text);
    };
    const GREET =
      "import { defineTool } from 'toolhost';\n" +
      "export const greet = defineTool({ name: 'greet', description: 'Greet someone.', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, execute: async ({ name }) => ({ hello: name }) });\n";
    const ALL_FORMS =
      "import { defineTool } from 'toolhost';\nimport * as z from 'zod';\n" +
      GREET.split('\n')[1] + '\n' +
      "export default [defineTool({ name: 'shout', description: 'Shout a word.', inputSchema: z.object({ word: z.string().min(2) }), execute: async ({ word }) => ({ loud: word.toUpperCase() }) })];\n" +
      "export const more = { classic: defineTool({ name: 'classic_add', description: 'Add two numbers.', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, call: async ({ a, b }) => ({ sum: a + b }) }) };\n";

    it("runs the README's example: toolhost call greet '{\"name\":\"Ada\"}' --tools ./my-tools.js with a defineTool({ inputSchema, execute }) tool", async () => {
      const work = fresh();
      app(work, { 'my-tools.js': GREET });
      const out = await cli(['call', 'greet', '{"name":"Ada"}', '--tools', './my-tools.js'], { cwd: work });
      expect(out).toEqual({ code: 0, signal: null, stdout: `${JSON.stringify({ name: 'greet', result: { hello: 'Ada' } }, null, 2)}\n`, stderr: '' });
    });

    it('exits once its call has timed out, though the tool ignores the abort and its timer still runs (call, and mcp with stdin closed)', async () => {
      const work = fresh();
      const STUCK =
        "import { defineTool } from 'toolhost';\n" +
        "export const stuck = defineTool({ name: 'stuck', description: 'Never ends soon.', inputSchema: { type: 'object', properties: {} }, execute: () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 600_000)) });\n";
      app(work, { 'stuck.mjs': STUCK });
      // A deadline on behaviour: the tool's timer would hold the process ten minutes.
      const out = await cli(['call', 'stuck', '{}', '--tools', './stuck.mjs', '--timeout', '300'], { cwd: work });
      expect(out.code).toBe(1);
      expect(JSON.parse(out.stdout)).toMatchObject({ name: 'stuck', code: 'timeout' });
      const lines = [
        { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
        { method: 'notifications/initialized' },
        { id: 2, method: 'tools/call', params: { name: 'stuck', arguments: {} } },
      ];
      const served = await cli(['mcp', '--root', '.', '--tools', './stuck.mjs', '--timeout', '300'], { cwd: work, input: lines.map((line) => JSON.stringify({ jsonrpc: '2.0', ...line })).join('\n') + '\n' });
      expect(served.code).toBe(0);
      const answers = served.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; result?: { isError?: boolean } });
      expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
      expect(answers[1]?.result?.isError).toBe(true);
    }, 60_000);

    it('exits at once when done, yet only after what a tool wrote to stderr (2 MB, a reader that waits 300 ms) has reached the pipe', async () => {
      const work = fresh();
      // Pipes are written asynchronously: a launcher that exited the moment the command ended would
      // drop the 2 MB still queued for stderr, and a tool's leftover 10-minute timer would hold it.
      const LOUD =
        "import { defineTool } from 'toolhost';\n" +
        "export const loud = defineTool({ name: 'loud', description: 'Logs a lot.', inputSchema: { type: 'object', properties: {} }, execute: async () => { process.stderr.write('x'.repeat(2_000_000) + '\\n'); setTimeout(() => undefined, 600_000); return { logged: true }; } });\n";
      app(work, { 'loud.mjs': LOUD });
      let child: ReturnType<typeof spawn> | undefined;
      const started = Date.now();
      const ran = cli(['call', 'loud', '{}', '--tools', './loud.mjs'], { cwd: work, onSpawn: (spawned) => (child = spawned) });
      // Reads nothing from stderr for 300 ms once the answer is out (the pipe fills and the launcher waits).
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (!child) return;
          clearInterval(poll);
          child.stdin?.end();
          child.stderr?.pause();
          child.stdout?.once('data', () => setTimeout(() => { child?.stderr?.resume(); resolve(); }, 300));
        }, 5);
      });
      const out = await ran;
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual({ name: 'loud', result: { logged: true } });
      expect(out.stderr).toBe(`${'x'.repeat(2_000_000)}\n`);
      // The tool's timer does not hold the process (a deadline on behaviour: it would hold it ten minutes).
      expect(Date.now() - started).toBeLessThan(60_000);
    }, 90_000);

    it('keeps running a call whose promise can never settle until interrupted (call, run, and mcp with stdin closed), answering it cancelled, not exit 13', async () => {
      const work = fresh();
      // The promise waits on nothing Node tracks: without a hold, Node ends the process as soon as
      // the tool runs (exit 13, "unsettled top-level await"), the call unanswered.
      const HANG =
        "export const hang = { name: 'hang', description: 'Never settles.', parameters: { type: 'object', properties: {} }, call: () => { process.stderr.write('hanging\\n'); return new Promise(() => {}); } };\n";
      app(work, { 'hang.mjs': HANG });
      /** Runs the launcher with `args`, sends `signal` 300 ms after the tool said it hangs. */
      const interrupted = (args: string[], signal: NodeJS.Signals, input: string): Promise<Run> =>
        cli(args, {
          cwd: work,
          onSpawn: (child) => {
            child.stdin?.end(input);
            let said = '';
            child.stderr?.on('data', (chunk: Buffer | string) => {
              said += String(chunk);
              if (said.includes('hanging\n')) setTimeout(() => child.kill(signal), 300);
            });
          },
        });
      const called = await interrupted(['call', 'hang', '{}', '--tools', './hang.mjs'], 'SIGINT', '');
      expect(called.code).toBe(130);
      expect(JSON.parse(called.stdout)).toMatchObject({ name: 'hang', code: 'cancelled' });
      const lines = ['{"id":"1","name":"list_dir","args":{"dir_path":"."}}', '{"id":"2","name":"hang","args":{}}', '{"id":"3","name":"list_dir","args":{"dir_path":"."}}'];
      const ran = await interrupted(['run', '--tools', './hang.mjs'], 'SIGINT', `${lines.join('\n')}\n`);
      expect(ran.code).toBe(130);
      const answers = ran.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string; code?: string });
      expect(answers.slice(0, 2).map((answer) => [answer.id, answer.code])).toEqual([['1', undefined], ['2', 'cancelled']]);
      const requests = [
        { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
        { method: 'notifications/initialized' },
        { id: 2, method: 'tools/call', params: { name: 'hang', arguments: {} } },
      ];
      const served = await interrupted(['mcp', '--root', '.', '--tools', './hang.mjs'], 'SIGTERM', requests.map((line) => JSON.stringify({ jsonrpc: '2.0', ...line })).join('\n') + '\n');
      // Cut short by the signal: exit 130, the initialize answered, the hanging call not.
      expect(served.code).toBe(130);
      expect(served.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1]);
    }, 90_000);

    it('lets web_fetch reach a loopback address only with --allow-address (a bad value is a usage error)', async () => {
      const work = fresh();
      const server = createServer((_request, response) => response.end('<html><body><p>local page</p></body></html>'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
        const args = ['call', 'web_fetch', JSON.stringify({ url }), '--profile', 'toolhost'];
        const refused = await cli(args, { cwd: work });
        expect(refused.code).toBe(1);
        expect(JSON.parse(refused.stdout)).toMatchObject({ code: 'permission_denied', error: expect.stringContaining("the toolhost command's --allow-address") });
        const allowed = await cli([...args, '--allow-address', '127.0.0.1'], { cwd: work });
        expect(allowed.code).toBe(0);
        expect(JSON.stringify(JSON.parse(allowed.stdout).result)).toContain('local page');
        const bad = await cli([...args, '--allow-address', 'localhost'], { cwd: work });
        expect([bad.code, bad.stderr]).toEqual([2, 'toolhost: --allow-address takes an IP address or an IPv4 range, such as 127.0.0.1, ::1 or 10.0.0.0/8, got "localhost"\n']);
      } finally {
        server.close();
      }
    });

    it('loads every form new ToolRunner takes: execute with a JSON Schema, execute with a zod schema, classic parameters + call', async () => {
      const work = fresh();
      app(work, { 'my-tools.js': ALL_FORMS });
      const calls =
        '{"id":"1","name":"shout","args":{"word":"hey"}}\n{"id":"2","name":"shout","args":{"word":"h"}}\n{"id":"3","name":"classic_add","args":{"a":2,"b":"3"}}\n';
      const [listed, ran] = await Promise.all([cli(['tools', '--tools', './my-tools.js'], { cwd: work }), cli(['run', '--tools', './my-tools.js'], { cwd: work, input: calls })]);
      expect(listed.code).toBe(0);
      expect(listed.stderr).toBe('');
      const declarations = JSON.parse(listed.stdout) as { name: string }[];
      expect(declarations.map((d) => d.name)).toEqual([...BUILTIN_NAMES, 'shout', 'greet', 'classic_add']);
      expect(declarations.slice(-3)).toEqual([
        {
          name: 'shout',
          description: 'Shout a word.',
          parameters: {
            type: 'object',
            properties: { word: { type: 'string', minLength: 2 } },
            required: ['word'],
            additionalProperties: false,
          },
        },
        { name: 'greet', description: 'Greet someone.', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
        {
          name: 'classic_add',
          description: 'Add two numbers.',
          parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        },
      ]);
      expect(ran.code).toBe(0);
      expect(ran.stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
        { id: '1', name: 'shout', result: { loud: 'HEY' } },
        { id: '2', name: 'shout', error: 'invalid arguments for shout: word: Too small: expected string to have >=2 characters', code: 'invalid_arguments' },
        { id: '3', name: 'classic_add', result: { sum: 5 } },
      ]);
    });

    it('serves the tools of every form over MCP: the SDK client lists and calls them', async () => {
      const work = fresh();
      app(work, { 'my-tools.js': ALL_FORMS });
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', '.', '--tools', './my-tools.js'], cwd: work, stderr: 'pipe' });
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual([...BUILTIN_NAMES, 'shout', 'greet', 'classic_add']);
        expect(tools.find((tool) => tool.name === 'greet')?.inputSchema).toEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
        expect(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).toEqual({
          content: [{ type: 'text', text: '{"hello":"Ada"}' }],
          structuredContent: { hello: 'Ada' },
        });
        expect(await client.callTool({ name: 'shout', arguments: { word: 'hey' } })).toEqual({
          content: [{ type: 'text', text: '{"loud":"HEY"}' }],
          structuredContent: { loud: 'HEY' },
        });
        expect(await client.callTool({ name: 'classic_add', arguments: { a: 1, b: 2 } })).toEqual({
          content: [{ type: 'text', text: '{"sum":3}' }],
          structuredContent: { sum: 3 },
        });
      } finally {
        await client.close();
      }
    });

    it('exits 2 for a module that exports nothing usable, naming its exports and the shapes accepted', async () => {
      const work = fresh();
      app(work, { 'none.js': "export const answer = 42;\nexport default { label: 'x', count: 2 };\n" });
      const out = await cli(['tools', '--tools', './none.js'], { cwd: work });
      expect(out).toEqual({
        code: 2,
        signal: null,
        stdout: '',
        stderr:
          'toolhost: --tools ./none.js exports no tool (its exports (answer, default) hold none): export (named or default) a tool — ' +
          'defineTool({ name, description, inputSchema, execute }) with a JSON Schema or a Standard Schema (zod 4, valibot, arktype) as inputSchema, ' +
          'or the classic { name, description, parameters, call } — an array of tools, or an object whose values are tools\n',
      });
    });

    it('exits 2 with the runner’s reason for an export that means to be a tool but is refused', async () => {
      const work = fresh();
      app(work, {
        'bad.js':
          "export const tools = [{ name: 'list_things', description: 'List.', inputSchema: { type: 'array' }, execute: async () => [] }];\n",
      });
      const out = await cli(['call', 'list_things', '--tools', './bad.js'], { cwd: work });
      expect(out).toEqual({
        code: 2,
        signal: null,
        stdout: '',
        stderr:
          "toolhost: --tools ./bad.js: the export tools[0] is not a tool the runner takes: tool list_things: inputSchema must describe an object (type: 'object'), " +
          'as every model API passes arguments by name; got type "array"\n',
      });
    });

    it('exits 2 for two different tools of one name across --tools modules (or in one), and takes a tool exported twice once', async () => {
      const work = fresh();
      const dup = (answer: string): string => `{ name: 'dup', description: 'D.', inputSchema: { type: 'object' }, execute: async () => '${answer}' }`;
      app(work, {
        'a.js': `export const dup = ${dup('a')};\nexport default [dup];\n`,
        'b.js': `export const dup = ${dup('b')};\n`,
        'both.js': `export const one = ${dup('1')};\nexport const two = ${dup('2')};\n`,
      });
      expect(await cli(['tools', '--tools', './a.js', '--tools', './b.js'], { cwd: work })).toEqual({
        code: 2,
        signal: null,
        stdout: '',
        stderr: 'toolhost: --tools ./b.js and --tools ./a.js export different tools named "dup"; give each tool its own name, or leave one of them out\n',
      });
      expect((await cli(['tools', '--tools', './both.js'], { cwd: work })).stderr).toBe(
        'toolhost: --tools ./both.js exports two different tools named "dup"; give each tool its own name, or leave one of them out\n',
      );
      const once = await cli(['call', 'dup', '{}', '--tools', './a.js'], { cwd: work });
      expect(once).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(String(once.stdout))).toEqual({ name: 'dup', result: 'a' });
    });
  });

  describe('usage', () => {
    it.each([
      [['frob'], /unknown command "frob"; use call, run, tools or mcp/],
      [['call'], /call needs a tool name/],
      [['call', 'view_file', '{bad json'], /arguments of view_file are not valid JSON .*quote them as one shell word, as in toolhost call view_file '\{"file_path":"a\.txt"\}'\n$/],
      // Another tool's example would name an argument it does not take: the quoting is shown on view_file.
      [['call', 'run_command', '{bad'], /arguments of run_command are not valid JSON .*as in toolhost call view_file '\{"file_path":"a\.txt"\}' \(toolhost tools lists the arguments of run_command\)\n$/],
      [['call', 'view_file', '[1,2]'], /must be a JSON object/],
      [['call', 'view_file', '{"file_path":"a', 'b.txt"}'], /quote the JSON arguments as one shell word/],
      [['tools', 'extra'], /tools takes no arguments/],
      [['call', 'view_file', '--bogus'], /^toolhost: unknown option --bogus; see toolhost --help\n$/],
      [['call', 'list_dir', '[1]'], /^toolhost: the arguments of list_dir must be a JSON object of its arguments by name \(toolhost tools lists them\), as '\{"file_path":"a.txt"\}' is for view_file\n$/],
      [['call', 'list_dir', '{}', '--root', '.', '--root', '..'], /^toolhost: --root is given twice; give it once \(see toolhost --help\)\n$/],
      [['mcp', '--http', '127.0.0.1:0', '--max-line-bytes', '10'], /^toolhost: --max-line-bytes bounds the lines of toolhost run and of toolhost mcp on stdio; over --http it does nothing: leave it out\n$/],
      // A negative number after a number option is that option's bad value (not advice to write --X=-1, which is refused next).
      [['call', 'grep_search', '{"pattern":"x"}', '--search-index', '--search-index-max-bytes', '-1'], /^toolhost: --search-index-max-bytes takes a size above 0 as a whole number of bytes, .* got "-1"\n$/],
      [['run', '--timeout', '-5'], /^toolhost: --timeout must be a positive whole number of milliseconds, got "-5"\n$/],
      [['run', '--max-line-bytes', '-1.5'], /^toolhost: --max-line-bytes must be a positive whole number of bytes, e\.g\. 16777216, got "-1\.5"\n$/],
      [['run', '--timeout', '-x'], /^toolhost: --timeout needs a value; one that starts with a dash is written --timeout=-VALUE; see toolhost --help\n$/],
      [['call', 'view_file', '{}', '--root', '-x'], /^toolhost: --root needs a value; one that starts with a dash is written --root=-VALUE; see toolhost --help\n$/],
      [['call', 'view_file', '{}', '--root'], /^toolhost: --root needs a value, and it was the last word; see toolhost --help\n$/],
      [['run', '--timeout', 'soon'], /--timeout must be a positive whole number of milliseconds, got "soon"/],
      [['run', '--timeout', '0'], /--timeout must be a positive/],
      [['mcp', '--http', 'nope'], /--http takes HOST:PORT, e.g. 127.0.0.1:8765/],
      [['call', 'view_file', '--http', '127.0.0.1:1'], /--http is an option of toolhost mcp only/],
      [['mcp', '--token', 'x'], /--token needs --http/],
      [['mcp', '--token-file', 'token.txt'], /--token-file needs --http/],
      [['mcp', '--allow-unauthenticated'], /--allow-unauthenticated needs --http/],
      [['mcp', '--http', '127.0.0.1:0', '--token', 'a', '--token-file', 'b'], /give --token or --token-file, not both/],
      [['mcp', '--http', '127.0.0.1:0', '--token-file', 'missing.txt'], /--token-file: cannot read .*missing\.txt \(ENOENT\); give a file that holds the token/],
      [['run', '--max-line-bytes', '0'], /--max-line-bytes must be a positive whole number of bytes, e\.g\. 16777216, got "0"/],
      [['tools', '--max-line-bytes', '10'], /--max-line-bytes is an option of toolhost run and toolhost mcp only/],
      [['tools', '--tools', './missing.mjs'], /--tools .\/missing.mjs: cannot load .*missing.mjs/],
      [['call', 'list_dir', '{"dir_path":"."}', '--root', ''], /^toolhost: --root is empty; give it a value \(see toolhost --help\)\n$/],
      [['call', 'list_dir', '{"dir_path":"."}', '--state-dir', ''], /^toolhost: --state-dir is empty; give it a value/],
      [['call', 'list_dir', '{"dir_path":"."}', '--state-dir', '/dev/null/state'], /^toolhost: --state-dir: the state directory \/dev\/null\/state cannot be written \(ENOTDIR\); give --state-dir a writable directory \(or a path where one can be created\)\n$/],
      [['call', 'list_dir', '{"dir_path":"."}', '--root', 'r\uFFFD'], /^toolhost: --root: the workspace root ".*r\uFFFD" does not exist; if the folder's name has bytes that are not UTF-8 \(shown as \uFFFD\), Node\.js cannot pass them on as they are: rename it \(or the folders above it\) to UTF-8 names\n$/],
      [['call', 'list_dir', '{"dir_path":"."}', '--root', 'does-not-exist'], /^toolhost: --root: workspace root ".*does-not-exist" does not exist \(ENOENT\); create it first, or give an existing folder\n$/],
    ])('exits 2 for %j with a message on stderr saying what to do', async (args, message) => {
      const work = fresh();
      const out = await cli(args, { cwd: work, input: '' });
      expect(out.code).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr).toMatch(/^toolhost: /);
      expect(out.stderr).toMatch(message);
    });

    it('prints the usage with exit codes for --help and -h (exit 0), and on stderr with exit 2 when no command is given', async () => {
      const work = fresh();
      const [bare, ...helps] = await Promise.all([cli([], { cwd: work }), ...['--help', '-h', 'help'].map((flag) => cli([flag], { cwd: work }))]);
      for (const out of helps) expect(out).toEqual({ code: 0, signal: null, stdout: USAGE, stderr: '' });
      expect(USAGE).toMatch(/Exit codes:\n {2}0 .*\n[\s\S]* {2}1 .*call[\s\S]* {2}2 .*usage error[\s\S]* {2}130 /);
      expect(bare).toEqual({ code: 2, signal: null, stdout: '', stderr: USAGE });
    });

    it('lists under --profile the tools each profile serves, taken from the profiles themselves', () => {
      const paragraph = (/\n {2}--profile NAME([\s\S]*?)\n {2}--/.exec(USAGE)?.[1] ?? '').replace(/\s+/g, ' ');
      const hookOnly = new Set(['start_subagent', 'generate_image', 'finish']);
      const served = (name: ToolProfileName): string[] => toolProfiles.byName(name).map((tool) => tool.name).filter((tool) => !hookOnly.has(tool));
      const listed = (name: ToolProfileName): string[] | undefined => new RegExp(`\\b${name} \\(([^)]*)\\)`).exec(paragraph)?.[1]?.replace(/^Gemini CLI's /, '').split(', ');
      for (const name of ['anthropic', 'openai', 'gemini'] as const) expect(listed(name), name).toEqual(served(name));
      // toolhost is listed as a summary: check the summary against the profile.
      expect(listed('toolhost')).toEqual(['the built-ins and web_fetch']);
      expect(served('toolhost')).toEqual([...BUILTIN_NAMES, 'web_fetch']);
      expect(paragraph).toMatch(/\banthropic \(.*\bopenai \(.*\bgemini \(.*\btoolhost \(/);
    });

    it('prints the package version for --version', async () => {
      const work = fresh();
      const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
      expect(await cli(['--version'], { cwd: work })).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
    });
  });
});

describe('main (in process)', () => {
  it('runs JSON lines from the given streams and resolves with the exit code', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-cli-main-')));
    try {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      let text = '';
      stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      stdin.end('{"id":"x","name":"create_file","args":{"file_path":"m.txt","content":"m"}}\n');
      const code = await main(['run', '--root', dir], { stdin, stdout, stderr: new PassThrough(), handleSignals: false });
      expect(code).toBe(0);
      expect(text).toBe(`${JSON.stringify({ id: 'x', name: 'create_file', result: { file_path: join(dir, 'm.txt'), bytes_written: 1, created: true } })}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an interrupted command does not wait for its platform to finish disposing', () => {
  it('waits for dispose() until interrupted, then at most a moment (an index build is left, not waited for)', async () => {
    const { settledOrInterrupted } = await import('./cli.js');
    const never = new Promise<void>(() => undefined);
    const interrupted = AbortSignal.abort(new Error('interrupted'));
    // Interrupted: returns although dispose() never settles (a test timeout would fail it otherwise).
    await settledOrInterrupted(never, interrupted);
    await settledOrInterrupted(Promise.reject(new Error('dispose failed')), interrupted);
    // Not interrupted: dispose() is waited for, its error thrown.
    let done = false;
    const disposing = new Promise<void>((resolve) => setTimeout(() => ((done = true), resolve()), 50));
    await settledOrInterrupted(disposing, new AbortController().signal);
    expect(done).toBe(true);
    await expect(settledOrInterrupted(Promise.reject(new Error('dispose failed')), new AbortController().signal)).rejects.toThrow('dispose failed');
  });
});
