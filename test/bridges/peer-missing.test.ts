import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../support/build.js';

// A project where toolhost is installed but a bridge's framework is not: the built package copied out
// of this repository, with a node_modules that links every installed package except `ai`,
// `@openai/agents` and `@modelcontextprotocol/client`. Node then really fails to find them, as in a user's project.
const REPO = join(import.meta.dirname, '..', '..');
let project: string;

const CHILD = `
const [entry, name] = process.argv.slice(2);
const out = {};
try {
  const bridge = await import(entry);
  out.imported = true;
  const { ToolRunner } = await import('./src/index.js');
  const runner = new ToolRunner({ tools: [] });
  try {
    await bridge[name](runner);
    out.called = 'resolved';
  } catch (error) {
    out.called = { name: error.name, code: error.code, message: error.message, cause: error.cause?.code };
  }
} catch (error) {
  out.imported = { code: error.code, message: error.message };
}
process.stdout.write(JSON.stringify(out));
`;

function run(entry: string, name: string): Record<string, unknown> {
  return JSON.parse(execFileSync(process.execPath, [join(project, 'child.mjs'), entry, name], { cwd: project, encoding: 'utf8', timeout: 60_000 })) as Record<string, unknown>;
}

beforeAll(() => {
  const built = buildPackage('toolhost-peer-missing');
  project = mkdtempSync(join(tmpdir(), 'toolhost-peer-missing-'));
  // A copy, not the shared build's links: through a link Node would find the packages beside dist/
  // (cpSync's dereference applies to its source alone, so each linked folder is copied from its target).
  // Leaving out a bundle build's working folder (dist/node/.cli-bundle-*), which cli-bundle.test.ts may
  // make and remove while this copies.
  const settled = (source: string): boolean => !/(^|\/)\.cli-bundle-[^/]*$/.test(source);
  for (const entry of readdirSync(built)) cpSync(realpathSync(join(built, entry)), join(project, entry), { recursive: true, filter: settled });
  const modules = join(project, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (entry === 'ai' || entry.startsWith('.')) continue;
    // Scopes are linked package by package, leaving out @openai/agents and @modelcontextprotocol/client.
    const leftOut: Record<string, string> = { '@openai': 'agents', '@modelcontextprotocol': 'client' };
    const left = leftOut[entry];
    if (left !== undefined) {
      mkdirSync(join(modules, entry));
      for (const scoped of readdirSync(join(REPO, 'node_modules', entry))) {
        if (scoped !== left) symlinkSync(join(REPO, 'node_modules', entry, scoped), join(modules, entry, scoped));
      }
      continue;
    }
    symlinkSync(join(REPO, 'node_modules', entry), join(modules, entry));
  }
  writeFileSync(join(project, 'child.mjs'), CHILD);
}, 180_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('a bridge whose framework is not installed', () => {
  it('toolhost/ai-sdk imports, and its first use names the package and the install command', () => {
    expect(run('./bridges/ai-sdk/index.js', 'aiSdkTools')).toEqual({
      imported: true,
      called: {
        name: 'Error',
        code: 'ERR_MODULE_NOT_FOUND',
        cause: 'ERR_MODULE_NOT_FOUND',
        message:
          'toolhost/ai-sdk needs the Vercel AI SDK (the package "ai", version 7), an optional peer dependency of toolhost that is not installed here: run npm install ai@7',
      },
    });
  });

  it('toolhost/openai-agents imports, and its first use names the package and the install command', () => {
    expect(run('./bridges/openai-agents/index.js', 'openAIAgentsTools')).toEqual({
      imported: true,
      called: {
        name: 'Error',
        code: 'ERR_MODULE_NOT_FOUND',
        cause: 'ERR_MODULE_NOT_FOUND',
        message:
          'toolhost/openai-agents needs OpenAI Agents JS (the package "@openai/agents", version 0.20), an optional peer dependency of toolhost that is not installed here: run npm install @openai/agents@0.20',
      },
    });
  });

  it('toolhost/mcp/client imports, and the first mcpTools call names the MCP client package and the install command', () => {
    expect(run('./bridges/mcp/client-index.js', 'mcpTools')).toEqual({
      imported: true,
      called: {
        name: 'Error',
        code: 'ERR_MODULE_NOT_FOUND',
        cause: 'ERR_MODULE_NOT_FOUND',
        message:
          'toolhost/mcp/client needs the MCP TypeScript SDK\'s client (the package "@modelcontextprotocol/client", version 2), an optional peer dependency of toolhost that is not installed here: run npm install @modelcontextprotocol/client@2',
      },
    });
  });

  it('toolhost/mcp (the server side) needs only the server SDK, which is installed with toolhost', () => {
    const out = run('./bridges/mcp/index.js', 'createMcpServer');
    expect(out.imported).toBe(true);
    expect(out.called).toBe('resolved');
  });
});
