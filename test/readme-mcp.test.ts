// The MCP client configurations of the README and docs/mcp-server.md, tried as far as a configuration
// can be: each `claude mcp add` line and JSON file parses, has the shape its client reads (Claude Code,
// Gemini CLI, Cursor, VS Code), and the command it names starts and answers a real MCP client's
// `initialize` on stdio, serving the folder the configuration meant. `npx -y toolhost` is replaced by
// this checkout's built bin (bin/toolhost.mjs), which is what npx would run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './support/build.js';
import { REPO, codeBlocks, type CodeBlock } from './support/doc-blocks.js';

const BIN = join(REPO, 'bin', 'toolhost.mjs');

/** One stdio server as a client would start it. */
interface ServerEntry {
  source: string;
  command: string;
  args: string[];
}

/** The blocks of README.md and docs/mcp-server.md that configure an MCP client. */
function configBlocks(): CodeBlock[] {
  return ['README.md', 'docs/mcp-server.md'].flatMap((file) => codeBlocks(file).filter((b) => (b.lang === 'sh' && b.code.startsWith('claude mcp add')) || (b.lang === 'json' && /"(mcpServers|servers)"/.test(b.code))));
}

/**
 * Parses `claude mcp add [options] <name> -- <command> [args...]` as Claude Code reads it: options
 * before the name, the server's command line after `--`.
 */
function parseClaudeAdd(line: string): { name: string; options: Record<string, string>; command: string; args: string[] } {
  const words = line.trim().split(/\s+/);
  expect(words.slice(0, 3)).toEqual(['claude', 'mcp', 'add']);
  const dashes = words.indexOf('--');
  expect(dashes).toBeGreaterThan(3);
  const before = words.slice(3, dashes);
  const options: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < before.length; i += 1) {
    const word = before[i] as string;
    if (word.startsWith('--')) {
      options[word.slice(2)] = before[i + 1] as string;
      i += 1;
    } else positional.push(word);
  }
  expect(positional).toHaveLength(1);
  const [command = '', ...args] = words.slice(dashes + 1);
  return { name: positional[0] as string, options, command, args };
}

/** `npx -y toolhost …` → this checkout's bin with the same arguments after `toolhost`. */
function localCommand(entry: ServerEntry): string[] {
  expect(entry.command, entry.source).toBe('npx');
  const args = entry.args.filter((arg) => arg !== '-y');
  expect(args[0], entry.source).toBe('toolhost');
  expect(args[1], entry.source).toBe('mcp');
  return [BIN, ...args.slice(1)];
}

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'toolhost-readme-mcp-'));
  writeFileSync(join(dir, 'note.txt'), 'configured workspace\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `entry` as its client would (in the project folder, `${workspaceFolder}` filled in) and checks it answers. */
async function startAndInitialize(entry: ServerEntry): Promise<void> {
  const args = localCommand(entry).map((arg) => arg.replaceAll('${workspaceFolder}', dir));
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: dir, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'readme-config-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    expect(client.getServerVersion()?.name, `${entry.source}\n${stderr}`).toBe('toolhost');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['view_file', 'create_file', 'grep_search']));
    // The workspace is the project folder: the file written there is found by its relative path.
    const view = await client.callTool({ name: 'view_file', arguments: { file_path: 'note.txt' } });
    expect((view.structuredContent as { content: string }).content, `${entry.source}\n${stderr}`).toBe('configured workspace');
  } finally {
    await client.close();
  }
}

describe('MCP client configurations in the README and docs/mcp-server.md', () => {
  it('gives a Claude Code command, and Gemini CLI, Cursor and VS Code files, each in its client\'s format', () => {
    const blocks = configBlocks();
    const claude = blocks.filter((b) => b.lang === 'sh');
    expect(claude.map((b) => b.file)).toEqual(['README.md', 'docs/mcp-server.md']);
    for (const b of claude) {
      const added = parseClaudeAdd(b.code);
      expect(added).toMatchObject({ name: 'toolhost', options: { transport: 'stdio' }, command: 'npx' });
    }
    const json = blocks.filter((b) => b.lang === 'json').map((b) => ({ b, config: JSON.parse(b.code) as Record<string, Record<string, Record<string, unknown>>> }));
    // Gemini CLI (settings.json) and Cursor (.cursor/mcp.json) read `mcpServers`; VS Code's mcp.json
    // reads `servers`, each with a `type`.
    const gemini = json.filter(({ config }) => config.mcpServers && !JSON.stringify(config).includes('${workspaceFolder}'));
    const cursor = json.filter(({ config }) => config.mcpServers && JSON.stringify(config).includes('${workspaceFolder}'));
    const vscode = json.filter(({ config }) => config.servers);
    expect([gemini.length, cursor.length, vscode.length]).toEqual([1, 1, 1]);
    expect(vscode[0]?.config.servers?.toolhost).toMatchObject({ type: 'stdio', command: 'npx' });
    for (const { config } of json) {
      const servers = config.mcpServers ?? config.servers ?? {};
      expect(Object.keys(servers)).toEqual(['toolhost']);
      expect(servers.toolhost?.args).toEqual(expect.arrayContaining(['-y', 'toolhost', 'mcp', '--root']));
    }
    // Each sits under the text naming its file.
    const text = readFileSync(join(REPO, 'docs', 'mcp-server.md'), 'utf8');
    expect(text).toMatch(/\*\*Gemini CLI\*\*: `mcpServers` in `\.gemini\/settings\.json`[\s\S]*?"mcpServers"[\s\S]*?\*\*Cursor\*\*: `\.cursor\/mcp\.json`[\s\S]*?\$\{workspaceFolder\}[\s\S]*?\*\*VS Code\*\*: `\.vscode\/mcp\.json`[\s\S]*?"servers"/);
  });

  it('starts the command of each configuration, which answers initialize and serves the project folder', async () => {
    const entries: ServerEntry[] = configBlocks().flatMap((b): ServerEntry[] => {
      const source = `${b.file}:${b.line}`;
      if (b.lang === 'sh') {
        const { command, args } = parseClaudeAdd(b.code);
        return [{ source, command, args }];
      }
      const config = JSON.parse(b.code) as Record<string, Record<string, { command: string; args: string[] }>>;
      return Object.values(config.mcpServers ?? config.servers ?? {}).map((server) => ({ source, command: server.command, args: server.args }));
    });
    expect(entries).toHaveLength(5);
    for (const entry of entries) await startAndInitialize(entry);
  }, 120_000);
});
