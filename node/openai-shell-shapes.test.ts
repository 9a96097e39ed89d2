import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner, type ToolCallFailure, type ToolCallResult } from '../src/core/runner.js';
import type { Platform } from '../src/core/types.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from './platform.js';

let root: string;
let platform: Platform;
let runner: ToolRunner;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-shell-shapes-')));
  await mkdir(join(root, 'sub'));
  platform = createNodePlatform({ root });
  runner = new ToolRunner({ platform, tools: toolProfiles.openai() });
});
afterAll(async () => {
  await platform.dispose();
  await rm(root, { recursive: true, force: true });
});

async function refused(args: Record<string, unknown>): Promise<ToolCallFailure> {
  const [result] = (await runner.processToolCalls([{ id: 's', name: 'shell', args }])) as [ToolCallResult];
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

describe('shell (OpenAI profile) takes each shape OpenAI models send, on real processes', () => {
  it('Responses API shell action with snake_case timeout_ms / max_output_length, flat', async () => {
    expect(await runner.execute('shell', { commands: ['printf 0123456789abcdef', 'sleep 20', 'echo never'], timeout_ms: 500, max_output_length: 10 })).toEqual({
      output: [
        { stdout: '0123456789\n… [6 characters cut]', stderr: '', outcome: { type: 'exit', exitCode: 0 } },
        { stdout: '', stderr: '', outcome: { type: 'timeout' } },
      ],
      maxOutputLength: 10,
    });
  });

  it('max_output_length counts what the command wrote and the answer leaves out, past what run_command already dropped (1,000,000 written, 100 kept)', async () => {
    const [shown] = ((await runner.execute('shell', { commands: ['yes | head -c 1000000'], max_output_length: 100 })) as { output: Array<{ stdout: string }> }).output;
    expect(shown?.stdout).toBe(`${'y\n'.repeat(50)}\n… [999900 characters cut]`);
    // Kept past the middle marker: its count stays in the text, the cut counts the tail's end alone.
    const [long] = ((await runner.execute('shell', { commands: ['yes | head -c 1000000'], max_output_length: 20_000 })) as { output: Array<{ stdout: string }> }).output;
    expect(long?.stdout).toContain('\n… [970000 characters dropped] …\n');
    expect(long?.stdout.endsWith(`\n… [${30_000 + '\n… [970000 characters dropped] …\n'.length - 20_000} characters cut]`)).toBe(true);
  });

  it('Responses API shell action wrapped as { action: { commands, timeout_ms, max_output_length } }', async () => {
    expect(await runner.execute('shell', { action: { commands: ['echo one', 'echo two >&2; exit 3'], timeout_ms: 5000, max_output_length: 100 } })).toEqual({
      output: [
        { stdout: 'one\n', stderr: '', outcome: { type: 'exit', exitCode: 0 } },
        { stdout: '', stderr: 'two\n', outcome: { type: 'exit', exitCode: 3 } },
      ],
      maxOutputLength: 100,
    });
  });

  it('Responses API local shell action: argv command, working_directory, env, timeout_ms', async () => {
    expect(
      await runner.execute('shell', {
        action: { type: 'exec', command: ['sh', '-c', 'pwd; echo "$GREETING"; printf "%s|" "$@"', 'x', "it's", 'two words'], working_directory: 'sub', env: { GREETING: 'hello there' }, timeout_ms: 5000 },
      }),
    ).toEqual({ output: [{ stdout: `${root}/sub\nhello there\nit's|two words|`, stderr: '', outcome: { type: 'exit', exitCode: 0 } }] });
  });

  it('Codex CLI shape { command: [...argv], workdir, timeout_ms }, including bash -lc with a script', async () => {
    expect(await runner.execute('shell', { command: ['bash', '-lc', 'cd .. && basename "$PWD"; echo $((6 * 7))'], workdir: 'sub', timeout_ms: 10000 })).toEqual({
      output: [{ stdout: `${root.split('/').pop()}\n42\n`, stderr: '', outcome: { type: 'exit', exitCode: 0 } }],
    });
    expect(await runner.execute('shell', { command: ['ls'], workdir: `${root}/sub` })).toEqual({ output: [{ stdout: '', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] });
  });

  it('Codex CLI heredoc apply_patch given to shell is applied as a patch in workdir (Codex intercepts it), not run as a program', async () => {
    const { writeFile, readFile } = await import('node:fs/promises');
    await writeFile(join(root, 'sub', 'p.txt'), 'before\n');
    expect(await runner.execute('shell', { command: ['bash', '-lc', "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: p.txt\n@@\n-before\n+after\n*** End Patch\nEOF"], workdir: 'sub' })).toEqual({
      output: [{ stdout: `Success. Updated the following files:\nM ${root}/sub/p.txt\n`, stderr: '', outcome: { type: 'exit', exitCode: 0 } }],
    });
    expect(await readFile(join(root, 'sub', 'p.txt'), 'utf8')).toBe('after\n');
  });

  it('Codex CLI argv that times out reports a timeout outcome', async () => {
    expect(await runner.execute('shell', { command: ['sleep', '20'], timeout_ms: 300 })).toEqual({ output: [{ stdout: '', stderr: '', outcome: { type: 'timeout' } }] });
  });

  it('refuses mixed or missing shapes, a user switch, a bad env name and a working directory outside the workspace, saying what to send', async () => {
    expect(await refused({ commands: ['ls'], command: ['ls'] })).toMatchObject({
      code: 'invalid_arguments',
      error: 'give exactly one of commands (command lines, e.g. { "commands": ["ls -la"] }), command (an argv, e.g. { "command": ["ls", "-la"], "workdir": "src" }) or action (a Responses API shell or local shell action)',
    });
    expect(await refused({ commands: ['ls'], timeoutMs: 5, timeout_ms: 5 })).toMatchObject({ code: 'invalid_arguments', error: 'give timeoutMs or timeout_ms, not both' });
    expect(await refused({ action: { type: 'exec', command: ['id'], user: 'root' } })).toMatchObject({
      code: 'invalid_arguments',
      error: 'action.user "root" cannot be honoured: commands run as the host\'s user. Leave user out',
    });
    expect(await refused({ action: { command: ['env'], env: { 'BAD-NAME': '1' } } })).toMatchObject({ code: 'invalid_arguments' });
    expect(await refused({ command: ['ls'], workdir: '/etc' })).toMatchObject({ code: 'outside_workspace' });
    expect(await refused({ command: ['ls'], workdir: 'missing' })).toMatchObject({ code: 'not_found' });
  });
});
