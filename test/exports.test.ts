import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportedNames } from './support/surface.js';

const ROOT = join(import.meta.dirname, '..');

/**
 * Most names (runtime values and types together) all entries may export, and the core entry alone
 * (raised from 120 and 40 for the four types of `Platform.search`, the search seam a platform of the
 * host's own may supply).
 */
const MAX_NAMES = 124;
const MAX_ROOT_NAMES = 44;

/**
 * Every name each entry exports (runtime values and types), sorted, values and types apart. A change
 * here is a change of the public surface: review it as one. Internals (test hooks included) are
 * imported by path inside the repository, never through an entry.
 */
const PINNED: Record<string, { source: string; values: string[]; types: string[] }> = {
  toolhost: {
    source: 'src/index',
    values: [
      'BuiltinTools',
      'MemoryStateStore',
      'TOOL_ERROR_CODES',
      'ToolError',
      'ToolRunner',
      'createMemoryPlatform',
      'defineTool',
      'isToolError',
      'isToolErrorCode',
      'registerPrecompiledValidators',
      'toolProfiles',
      'webSearchFallbackTool',
    ],
    types: [
      'AnyTool',
      'CallOptions',
      'Cassette',
      'Denial',
      'ExecuteTool',
      'FsPromises',
      'FunctionDeclaration',
      'JsonSchema',
      'JsonValue',
      'MemoryPlatformOptions',
      'PermissionAnswer',
      'PermissionPolicy',
      'PermissionRequest',
      'Platform',
      'RegisterOptions',
      'SearchContext',
      'SearchEngine',
      'SearchRequest',
      'SearchResponse',
      'StateStore',
      'Tool',
      'ToolCall',
      'ToolCallResult',
      'ToolContext',
      'ToolErrorCode',
      'ToolHost',
      'ToolInfo',
      'ToolProfileName',
      'ToolResults',
      'ToolRunnerOptions',
      'ToolSchema',
    ],
  },
  'toolhost/agent': {
    source: 'src/agent/index',
    values: ['Agent', 'ModelError', 'anthropicModel', 'geminiModel', 'isModelError', 'openAICompatibleModel', 'runAgentLoop', 'scriptedModel'],
    types: [
      'AgentEvent',
      'AgentLoopOptions',
      'AgentOptions',
      'AgentToolHost',
      'AnthropicModelOptions',
      'GeminiModelOptions',
      'Model',
      'ModelMessage',
      'ModelRequest',
      'ModelResponse',
      'OpenAICompatibleModelOptions',
      'ScriptedTurn',
    ],
  },
  'toolhost/web': {
    source: 'web/index',
    values: [
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
    types: ['ConnectToolRunnerOptions', 'RemoteToolRunner', 'WebMountSource', 'WebPlatform', 'WebPlatformOptions', 'WorkspaceRunner', 'WorkspaceRunnerOptions'],
  },
  'toolhost/web/folders': { source: 'web/folders', values: ['folderMount', 'folderWorkspace', 'fsMount', 'opfsWorkspace', 'workspaceMount'], types: ['MountOptions'] },
  'toolhost/web/zenfs': { source: 'web/zenfs', values: ['zenfsMount'], types: ['ZenfsMountConfig', 'ZenfsMountOptions'] },
  'toolhost/web/shell': { source: 'web/shell', values: ['justBash'], types: ['JustBashOptions'] },
  'toolhost/web/search-index': { source: 'web/search-index', values: ['webSearchIndex'], types: ['WebSearchIndexOptions'] },
  'toolhost/node': {
    source: 'node/index',
    values: ['FileStateStore', 'createFileLocks', 'createNodePlatform', 'createRedisStateStore', 'createToolWorkerPool', 'exposeToolRunnerInWorker', 'precompileValidators', 'spawnToolWorker'],
    types: ['NodePlatformOptions', 'RedisStateStoreOptions', 'SpawnToolWorkerOptions', 'ToolWorkerPool', 'ToolWorkerPoolOptions'],
  },
  'toolhost/mcp': {
    source: 'bridges/mcp/index',
    values: ['MessagePortTransport', 'createMcpPermissionPrompt', 'createMcpServer', 'toCallToolResult'],
    types: ['CreateMcpServerOptions'],
  },
  'toolhost/mcp/node': { source: 'bridges/mcp/node', values: ['LineStdioServerTransport', 'serveMcpHttp'], types: ['ServeMcpHttpOptions'] },
  'toolhost/mcp/client': { source: 'bridges/mcp/client-index', values: ['MessagePortTransport', 'mcpTools'], types: ['McpToolsOptions'] },
  'toolhost/ai-sdk': {
    source: 'bridges/ai-sdk/index',
    values: ['aiSdkToolApproval', 'aiSdkTools', 'fromAiSdkTool'],
    types: ['AiSdkApprovalOptions', 'AiSdkToolsOptions', 'FromAiSdkToolOptions'],
  },
  'toolhost/openai-agents': { source: 'bridges/openai-agents/index', values: ['openAIAgentsTools'], types: ['OpenAIAgentsToolsOptions'] },
};

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; import: string }>;
};

describe('package entry points', () => {
  let compiled: ReturnType<typeof exportedNames>;
  beforeAll(() => {
    compiled = exportedNames(
      ROOT,
      Object.values(PINNED).map(({ source }) => source),
    );
  }, 120_000);

  it.each(Object.entries(PINNED))('%s exports exactly its pinned names, values and types', (_entry, { source, values, types }) => {
    expect(compiled[source]).toEqual({ names: [...values, ...types].sort(), values: [...values].sort(), foreign: [] });
  });

  it.each(Object.entries(PINNED))('%s has exactly its pinned values at run time', async (_entry, { source, values }) => {
    const module = (await import(join(ROOT, `${source}.ts`))) as Record<string, unknown>;
    expect(Object.keys(module).sort()).toEqual([...values].sort());
  });

  it(`exports at most ${MAX_NAMES} names over all entries and ${MAX_ROOT_NAMES} from the core entry`, () => {
    const counts = Object.fromEntries(Object.entries(compiled).map(([source, { names }]) => [source, names.length]));
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    expect({ total, root: counts['src/index'] }).toEqual({ total: 124, root: 43 });
    expect(total).toBeLessThanOrEqual(MAX_NAMES);
    expect(counts['src/index']).toBeLessThanOrEqual(MAX_ROOT_NAMES);
  });

  it('re-exports no name of another package (each name is declared in this repository)', () => {
    expect(Object.entries(compiled).flatMap(([source, { foreign }]) => foreign.map((name) => `${source}: ${name}`))).toEqual([]);
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
