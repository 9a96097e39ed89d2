import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { BuiltinTools } from '../src/tools/index.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from './platform.js';

let root: string;
let platform: Platform;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-profile-timeouts-')));
  platform = createNodePlatform({ root });
});
afterAll(async () => {
  await platform.dispose();
  await rm(root, { recursive: true, force: true });
});

// The host's deadline is no option of the model's: the answer says the limit as a fact and advises only
// what the model can do with its own tools.
describe('a shell call past the host deadline', () => {
  const cases = [
    ['anthropic', () => toolProfiles.anthropic(), 'bash', { command: 'sleep 5' }],
    ['openai', () => toolProfiles.openai(), 'shell', { commands: ['sleep 5'] }],
    ['gemini', () => toolProfiles.gemini(), 'run_shell_command', { command: 'sleep 5' }],
    ['toolhost', () => BuiltinTools.all(), 'run_command', { command: 'sleep 5' }],
  ] as const;
  for (const [profile, tools, name, args] of cases) {
    it(`${profile}: ${name} names no host option`, async () => {
      const runner = new ToolRunner({ platform, tools: tools(), defaultTimeoutMs: 300 });
      const [result] = await runner.processToolCalls([{ id: '1', name, args }]);
      expect(result).toEqual({
        id: '1',
        name,
        code: 'timeout',
        error: `${name} did not finish within 300 ms (this call's time limit); narrow the request or split the work into smaller steps`,
      });
      expect(JSON.stringify(result)).not.toMatch(/timeoutMs|raise/);
    });
  }
});
