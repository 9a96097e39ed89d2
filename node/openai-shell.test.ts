import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from './platform.js';

let root: string;
let platform: Platform;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-shell-tool-')));
  platform = createNodePlatform({ root });
});
afterAll(async () => {
  await platform.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('shell (OpenAI profile) on Node', () => {
  it('runs each command in the workspace and reports its output and exit code', async () => {
    const runner = new ToolRunner({ platform, tools: toolProfiles.openai() });
    expect(await runner.execute('shell', { commands: ['pwd', 'echo out; echo err >&2; exit 4'] })).toEqual({
      output: [
        { stdout: `${root}\n`, stderr: '', outcome: { type: 'exit', exitCode: 0 } },
        { stdout: 'out\n', stderr: 'err\n', outcome: { type: 'exit', exitCode: 4 } },
      ],
    });
  });

  it('caps each stream at maxOutputLength and stops at a command that times out', async () => {
    const runner = new ToolRunner({ platform, tools: toolProfiles.openai() });
    expect(await runner.execute('shell', { commands: ['printf 0123456789abcdef', 'sleep 20', 'echo never'], timeoutMs: 500, maxOutputLength: 10 })).toEqual({
      output: [
        { stdout: '0123456789\n… [6 characters cut]', stderr: '', outcome: { type: 'exit', exitCode: 0 } },
        { stdout: '', stderr: '', outcome: { type: 'timeout' } },
      ],
      maxOutputLength: 10,
    });
  });
});
