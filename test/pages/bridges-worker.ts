// Bridges test worker: built-in tools plus an AI SDK tool (fromAiSdkTool) in a ToolRunner, served as
// an MCP server to every MessagePort the page posts (one client per port).
import { tool } from 'ai';
import { z } from 'zod';
import { fromAiSdkTool } from '../../bridges/ai-sdk/index.js';
import { MessagePortTransport, createMcpServer } from '../../bridges/mcp/index.js';
import { ToolRunner } from '../../src/runner.js';
import { createMemoryPlatform } from '../../src/platform/memory.js';
import { BuiltinTools } from '../../src/tools/index.js';

// The AI SDK tool's schema is not one of the built-ins' precompiled ones: ajv loads on its first compile.
const weather = tool({
  description: 'Weather in a city (an AI SDK tool with a zod schema)',
  inputSchema: z.object({ city: z.string().min(1).transform((city) => city.toUpperCase()) }),
  execute: async ({ city }, { toolCallId }) => ({ city, degrees: 21, toolCallId, inWorker: typeof (globalThis as { importScripts?: unknown }).importScripts === 'function' }),
});

const ready = (async () => {
  const runner = new ToolRunner({ platform: createMemoryPlatform({ files: { 'notes.txt': 'alpha beta\n' } }), tools: BuiltinTools.all() });
  await runner.register(await fromAiSdkTool(weather, { name: 'weather', readOnly: true }));
  return runner;
})();

self.onmessage = async (event: MessageEvent<{ port: MessagePort }>) => {
  const runner = await ready;
  const server = await createMcpServer(runner);
  await server.connect(new MessagePortTransport(event.data.port));
};
