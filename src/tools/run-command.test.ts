import { describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner } from '../runner.js';
import type { Platform, RunCommandRequest, RunCommandResult } from '../core/types.js';
import { RUN_COMMAND_DEFAULT_TIMEOUT_MS, runCommandTool } from './run-command.js';

const OUTPUT: RunCommandResult = {
  stdout: 'hello\n',
  stderr: '',
  exit_code: 0,
  signal: null,
  timed_out: false,
  truncated: false,
};

function fakePlatform(files: Record<string, string> = {}): {
  platform: Platform;
  requests: Array<{ request: RunCommandRequest; signal: AbortSignal }>;
} {
  const requests: Array<{ request: RunCommandRequest; signal: AbortSignal }> = [];
  const base = createMemoryPlatform({ files });
  const platform: Platform = {
    ...base,
    capabilities: { ...base.capabilities, runCommand: true },
    async runCommand(request, signal) {
      requests.push({ request, signal });
      return { ...OUTPUT };
    },
  };
  return { platform, requests };
}

describe('runCommandTool', () => {
  it('is named run_command, is not read-only and has a closed schema', () => {
    expect(runCommandTool.name).toBe('run_command');
    expect(runCommandTool.annotations?.readOnlyHint).toBe(false);
    expect(runCommandTool.concurrencySafe ?? runCommandTool.annotations?.readOnlyHint).toBe(false);
    expect((runCommandTool.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false);
  });

  it('hands command, the workspace cwd and the default timeout to platform.runCommand and returns its result', async () => {
    const { platform, requests } = fakePlatform();
    const runner = new ToolRunner({ platform, tools: [runCommandTool] });
    const result = await runner.execute('run_command', { command: 'echo hello' });
    expect(result).toEqual(OUTPUT);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.request).toEqual({ command: 'echo hello', cwd: '/workspace', timeoutMs: RUN_COMMAND_DEFAULT_TIMEOUT_MS });
    expect(requests[0]?.request.timeoutMs).toBe(120_000);
    expect(requests[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it('resolves a relative cwd inside the workspace and passes timeout_ms (coerced from a string)', async () => {
    const { platform, requests } = fakePlatform({ 'pkg (1)/src/a.ts': 'x' });
    const runner = new ToolRunner({ platform, tools: [runCommandTool] });
    await runner.execute('run_command', { command: 'ls', cwd: 'pkg (1)/src', timeout_ms: '5000' });
    expect(requests[0]?.request).toEqual({ command: 'ls', cwd: '/workspace/pkg (1)/src', timeoutMs: 5000 });
  });

  it('aborts the signal it handed to the platform when the call is cancelled', async () => {
    const base = createMemoryPlatform();
    let seen: AbortSignal | undefined;
    const platform: Platform = {
      ...base,
      capabilities: { ...base.capabilities, runCommand: true },
      runCommand: (_request, signal) => {
        seen = signal;
        return new Promise<RunCommandResult>(() => undefined);
      },
    };
    const runner = new ToolRunner({ platform, tools: [runCommandTool] });
    const controller = new AbortController();
    const running = runner.processToolCalls([{ name: 'run_command', args: { command: 'sleep 100' } }], { signal: controller.signal });
    // Cancel once the platform holds the signal (a fixed sleep raced the call's start on a busy machine).
    await vi.waitFor(() => expect(seen).toBeDefined(), { timeout: 5000, interval: 5 });
    controller.abort();
    const [result] = await running;
    expect(result).toMatchObject({ code: 'cancelled' });
    expect(seen?.aborted).toBe(true);
  });

  it('refuses a cwd that is missing, a file or outside the workspace', async () => {
    const { platform, requests } = fakePlatform({ 'file.txt': 'x' });
    const runner = new ToolRunner({ platform, tools: [runCommandTool] });
    const results = await runner.processToolCalls([
      { name: 'run_command', args: { command: 'ls', cwd: 'nope' } },
      { name: 'run_command', args: { command: 'ls', cwd: 'file.txt' } },
      { name: 'run_command', args: { command: 'ls', cwd: '../etc' } },
      { name: 'run_command', args: { command: 'ls', cwd: '/etc' } },
    ]);
    expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual([
      'not_found',
      'not_a_directory',
      'outside_workspace',
      'outside_workspace',
    ]);
    expect(results[0]).toMatchObject({ error: expect.stringContaining('cwd') });
    expect(requests).toHaveLength(0);
  });

  it('cuts a long cwd to 200 characters in its messages', async () => {
    const { platform } = fakePlatform({ 'file.txt': 'x' });
    const runner = new ToolRunner({ platform, tools: [runCommandTool] });
    const deep = Array.from({ length: 5 }, (_, i) => String(i).repeat(99)).join('/');
    const [missing] = await runner.processToolCalls([{ name: 'run_command', args: { command: 'ls', cwd: deep } }]);
    expect(missing).toMatchObject({
      code: 'not_found',
      error: `cwd "${deep.slice(0, 200)}…" (299 more characters) does not exist; give an existing directory (e.g. /workspace)`,
    });
  });

  it('rejects a timeout_ms above 600000 with invalid_arguments naming it', async () => {
    const { platform } = fakePlatform();
    const runner = new ToolRunner({ platform, tools: [runCommandTool] });
    const [result] = await runner.processToolCalls([{ name: 'run_command', args: { command: 'ls', timeout_ms: 600_001 } }]);
    expect(result).toMatchObject({ code: 'invalid_arguments', error: 'invalid arguments for run_command: timeout_ms must be at most 600000, not 600001' });
  });

  it('returns empty output and a note on the memory platform', async () => {
    const runner = new ToolRunner({ tools: [runCommandTool] });
    const result = await runner.execute('run_command', { command: 'echo hi' });
    expect(result).toEqual({
      stdout: '',
      stderr: '',
      exit_code: null,
      signal: null,
      timed_out: false,
      truncated: false,
      note: 'run_command is not available on the memory platform',
    });
  });

  it('returns empty output and the browser note on the web platform, as a success', async () => {
    const base = createMemoryPlatform();
    let called = false;
    const platform: Platform = {
      ...base,
      name: 'web',
      // Advertises no capability: the method must not be called even when present.
      runCommand: async () => {
        called = true;
        return { ...OUTPUT };
      },
    };
    const runner = new ToolRunner({ platform, tools: [runCommandTool] });
    const [result] = await runner.processToolCalls([{ id: 'c1', name: 'run_command', args: { command: 'echo hi' } }]);
    expect(result).toEqual({
      id: 'c1',
      name: 'run_command',
      result: {
        stdout: '',
        stderr: '',
        exit_code: null,
        signal: null,
        timed_out: false,
        truncated: false,
        note: 'run_command is not available in the browser',
      },
    });
    expect(called).toBe(false);
  });

  it('returns the note when the capability is set but runCommand is missing', async () => {
    const base = createMemoryPlatform();
    const platform: Platform = { ...base, capabilities: { ...base.capabilities, runCommand: true } };
    const runner = new ToolRunner({ platform, tools: [runCommandTool] });
    const result = (await runner.execute('run_command', { command: 'ls' })) as { note?: string };
    expect(result.note).toBe('run_command is not available on the memory platform');
  });
});
