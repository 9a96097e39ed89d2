import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/**
 * Every runtime name each entry exports, sorted. A change here is a change of the public surface:
 * review it as one (internals are imported by path inside the repository, never through an entry).
 */
const PINNED: Record<string, { source: string; names: string[] }> = {
  toolhost: {
    source: 'src/index',
    names: [
      'BuiltinTools',
      'DenialTracker',
      'MemoryStateStore',
      'PermissionChecker',
      'TOOL_ERROR_CODES',
      'ToolError',
      'ToolRunner',
      'createMemoryPlatform',
      'defineTool',
      'isToolError',
      'isToolErrorCode',
      'registerPrecompiledValidators',
      'toToolError',
      'toolProfiles',
      'webSearchFallbackTool',
    ],
  },
  'toolhost/agent': {
    source: 'src/agent/index',
    names: [
      'Agent',
      'AgentBuilder',
      'ModelError',
      'anthropicModel',
      'fromAnthropicToolUses',
      'fromGeminiFunctionCalls',
      'fromOpenAIToolCalls',
      'geminiModel',
      'isModelError',
      'openAICompatibleModel',
      'runAgentLoop',
      'scriptedModel',
      'toAnthropicMessages',
      'toAnthropicToolResults',
      'toAnthropicTools',
      'toGeminiContents',
      'toGeminiFunctionDeclarations',
      'toGeminiFunctionResponses',
      'toOpenAIMessages',
      'toOpenAIToolMessages',
      'toOpenAITools',
    ],
  },
  'toolhost/web': {
    source: 'web/index',
    names: [
      'WebToolRunner',
      'connectToolRunner',
      'connectWorkspaceRunner',
      'createWebPlatform',
      'deleteWorkspace',
      'exportWorkspace',
      'exposeSharedToolRunner',
      'exposeToolRunner',
      'listWorkspaces',
      'rememberedDirectory',
    ],
  },
  'toolhost/web/folders': { source: 'web/folders', names: ['folderMount', 'folderWorkspace', 'fsMount', 'opfsWorkspace', 'workspaceMount'] },
  'toolhost/web/zenfs': { source: 'web/zenfs', names: ['zenfsMount'] },
  'toolhost/web/shell': { source: 'web/shell', names: ['justBash'] },
  'toolhost/node': {
    source: 'node/index',
    names: ['FileStateStore', 'createFileLocks', 'createNodePlatform', 'createRedisStateStore', 'createToolWorkerPool', 'exposeToolRunnerInWorker', 'precompileValidators', 'spawnToolWorker', 'stopSearchWorker'],
  },
  'toolhost/mcp': {
    source: 'bridges/mcp/index',
    names: ['MessagePortTransport', 'createMcpPermissionPrompt', 'createMcpServer', 'toCallToolResult'],
  },
  'toolhost/mcp/node': {
    source: 'bridges/mcp/node',
    names: ['LineStdioServerTransport', 'MCP_HTTP_DEFAULTS', 'MessagePortTransport', 'StdioServerTransport', 'createMcpPermissionPrompt', 'createMcpServer', 'isLoopbackHost', 'serveMcpHttp', 'serveStdio', 'toCallToolResult'],
  },
  'toolhost/mcp/client': { source: 'bridges/mcp/client-index', names: ['MessagePortTransport', 'mcpTools'] },
  'toolhost/ai-sdk': {
    source: 'bridges/ai-sdk/index',
    names: ['aiSdkBatchSizes', 'aiSdkToolApproval', 'aiSdkTools', 'fromAiSdkTool'],
  },
  'toolhost/openai-agents': {
    source: 'bridges/openai-agents/index',
    names: ['openAIAgentsBatchSizes', 'openAIAgentsTools'],
  },
};

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; import: string }>;
};

describe('package entry points', () => {
  it.each(Object.entries(PINNED))('%s exports exactly its pinned runtime names', async (_entry, { source, names }) => {
    const module = (await import(join(ROOT, `${source}.ts`))) as Record<string, unknown>;
    expect(Object.keys(module).sort()).toEqual([...names].sort());
  });

  it('keeps the core entry at 25 runtime names or fewer', () => {
    expect(PINNED.toolhost?.names.length).toBeLessThanOrEqual(25);
  });

  it('maps each entry in package.json to its built module and declarations, and nothing else', () => {
    const expected: Record<string, unknown> = { './package.json': './package.json' };
    for (const [entry, { source }] of Object.entries(PINNED)) {
      expected[entry === 'toolhost' ? '.' : `./${entry.slice('toolhost/'.length)}`] = {
        types: `./dist/${source}.d.ts`,
        import: `./dist/${source}.js`,
      };
    }
    expect(manifest.exports).toEqual(expected);
  });
});
