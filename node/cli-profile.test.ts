// The tool set of the `toolhost` command, through the real launcher (node bin/toolhost.mjs): the
// built-ins without the three that need a host's hook (start_subagent, generate_image, finish), and
// `--profile NAME`, which serves a tool profile instead of them (less the same three), with `--tools`
// added after it. Run on the shared build (dist/), rebuilt once when stale.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../test/support/build.js';

const REPO = join(import.meta.dirname, '..');
const BIN = join(REPO, 'bin', 'toolhost.mjs');

/** The built-ins the command serves by default. */
const DEFAULT_NAMES = ['create_file', 'edit_file', 'find_file', 'list_dir', 'run_command', 'search_dir', 'view_file', 'grep_search', 'command_output', 'stop_command'];

/** What `tools` lists with each `--profile`, in the profile's order. */
const PROFILE_NAMES: Record<string, string[]> = {
  anthropic: ['str_replace_based_edit_tool', 'bash'],
  openai: ['apply_patch', 'shell'],
  gemini: ['read_file', 'read_many_files', 'write_file', 'replace', 'glob', 'list_directory', 'grep_search', 'run_shell_command', 'google_web_search', 'web_fetch', 'search_file_content'],
  toolhost: [...DEFAULT_NAMES, 'web_fetch'],
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/toolhost.mjs ...args` in `cwd` with stdin closed. */
function cli(args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The names `toolhost tools ...args` lists (and checks it exited 0 with nothing on stderr). */
async function listed(args: string[], cwd: string): Promise<string[]> {
  const out = await cli(['tools', ...args], cwd);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return (JSON.parse(out.stdout) as { name: string }[]).map((declaration) => declaration.name);
}

// Side by side: each case waits on child processes of its own, and none writes to another's files.
describe.concurrent('toolhost --profile and the default tool set (node bin/toolhost.mjs)', { timeout: 120_000 }, () => {
  let dir = '';
  beforeAll(() => {
    ensureBuilt();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-cli-profile-')));
    writeFileSync(join(dir, 'notes.txt'), 'first\nsecond\n');
    // A classic tool (no import needed) named as the anthropic profile's shell, and one of a new name.
    writeFileSync(
      join(dir, 'extra.mjs'),
      "export const bash = { name: 'bash', description: 'Not a shell.', parameters: { type: 'object', properties: {} }, call: async () => ({ replaced: true }) };\n" +
        "export const greet = { name: 'greet', description: 'Greet.', parameters: { type: 'object', properties: {} }, call: async () => ({ hello: 'there' }) };\n",
    );
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('tools lists the built-ins without start_subagent, generate_image and finish by default', async () => {
    expect(await listed([], dir)).toEqual(DEFAULT_NAMES);
  });

  it.each(Object.entries(PROFILE_NAMES))('tools --profile %s lists exactly that profile\'s tools', async (profile, names) => {
    expect(await listed(['--profile', profile], dir)).toEqual(names);
  });

  it('--tools adds to a profile after its tools, and a --tools tool of a profile tool\'s name replaces it', async () => {
    expect(await listed(['--profile', 'anthropic', '--tools', './extra.mjs'], dir)).toEqual(['str_replace_based_edit_tool', 'bash', 'greet']);
    const called = await cli(['call', 'bash', '{}', '--profile', 'anthropic', '--tools', './extra.mjs'], dir);
    expect(called).toEqual({ code: 0, stdout: `${JSON.stringify({ name: 'bash', result: { replaced: true } }, null, 2)}\n`, stderr: '' });
  });

  it("call runs a profile's tool: the anthropic editor views a file, gemini's read_file reads it", async () => {
    const [viewed, read] = await Promise.all([
      cli(['call', 'str_replace_based_edit_tool', '{"command":"view","path":"notes.txt"}', '--profile', 'anthropic', '--root', dir], dir),
      cli(['call', 'read_file', '{"file_path":"notes.txt"}', '--profile', 'gemini'], dir),
    ]);
    expect(viewed).toEqual({ code: 0, stdout: `${JSON.stringify({ name: 'str_replace_based_edit_tool', result: '1: first\n2: second' }, null, 2)}\n`, stderr: '' });
    expect(read.code).toBe(0);
    expect(read.stderr).toBe('');
    expect(JSON.stringify(JSON.parse(read.stdout))).toContain('first\\nsecond');
  });

  it('run --profile openai applies a patch with apply_patch', async () => {
    const work = realpathSync(mkdtempSync(join(dir, 'run-')));
    const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch';
    const child = spawn(process.execPath, [BIN, 'run', '--profile', 'openai'], { cwd: work, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end(`${JSON.stringify({ id: 1, name: 'apply_patch', args: { input: patch } })}\n`);
    expect(await code).toBe(0);
    const line = JSON.parse(stdout) as Record<string, unknown>;
    expect(line).toMatchObject({ id: 1, name: 'apply_patch' });
    expect(line).not.toHaveProperty('code');
    expect(readFileSync(join(work, 'hello.txt'), 'utf8')).toBe('hello\n');
  });

  it('an MCP client (the SDK Client over stdio) is offered the profile\'s tools alone, and calls them', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir, '--profile', 'anthropic'], stderr: 'pipe' });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['str_replace_based_edit_tool', 'bash']);
      const result = await client.callTool({ name: 'str_replace_based_edit_tool', arguments: { command: 'view', path: 'notes.txt' } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain('1: first');
      // A built-in is not there: the server cannot route it (-32602).
      const gone = await client.callTool({ name: 'view_file', arguments: { file_path: 'notes.txt' } }).then(
        (answer) => JSON.stringify(answer),
        (error: Error) => error.message,
      );
      expect(gone).toMatch(/Unknown tool: view_file/);
    } finally {
      await client.close();
    }
  });

  it('an MCP client is offered the default built-ins, without the three hook-only tools', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir], stderr: 'pipe' });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(DEFAULT_NAMES);
    } finally {
      await client.close();
    }
  });

  it('an unknown --profile is a usage error (exit 2) naming the profiles there are', async () => {
    const [unknown, twice] = await Promise.all([cli(['tools', '--profile', 'claude'], dir), cli(['mcp', '--profile', 'openai', '--profile', 'gemini'], dir)]);
    expect(unknown).toEqual({
      code: 2,
      stdout: '',
      stderr: 'toolhost: unknown --profile "claude"; the tool profiles are anthropic, openai, gemini and toolhost (leave --profile out for the built-ins; see toolhost --help)\n',
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe('toolhost: --profile is given twice; give it once (see toolhost --help)\n');
  });

  it('call generate_image (and start_subagent, finish) by default answers unknown_tool, exit 1, naming the tools there are', async () => {
    const runs = await Promise.all(['generate_image', 'start_subagent', 'finish'].map((name) => cli(['call', name, '{}'], dir)));
    for (const [i, name] of ['generate_image', 'start_subagent', 'finish'].entries()) {
      const out = runs[i] as Run;
      expect(out.code).toBe(1);
      expect(out.stderr).toBe('');
      expect(JSON.parse(out.stdout)).toEqual({
        name,
        error: `unknown tool "${name}"; available tools: ${DEFAULT_NAMES.join(', ')}`,
        code: 'unknown_tool',
      });
    }
  });

  it('the toolhost profile leaves the same three out, so call finish --profile toolhost is unknown too', async () => {
    const out = await cli(['call', 'finish', '{}', '--profile', 'toolhost'], dir);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toMatchObject({ name: 'finish', code: 'unknown_tool', error: expect.stringContaining(PROFILE_NAMES['toolhost']?.join(', ') ?? '') as unknown });
  });
});
