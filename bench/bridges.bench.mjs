// The bridges' cost: an MCP tools/call round trip through `toolhost mcp` (stdio) and serveMcpHttp
// (Streamable HTTP) next to the MCP SDK's own minimal server with one trivial tool, and an AI SDK
// step of 10 parallel read-only calls through aiSdkTools next to the same 10 raw execute functions.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { generateText, isStepCount, jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { ToolRunner, createMemoryPlatform, BuiltinTools } from '../dist/src/index.js';
import { createMcpServer, serveMcpHttp } from '../dist/bridges/mcp/node.js';
import { aiSdkTools } from '../dist/bridges/ai-sdk/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'bin', 'toolhost.mjs');
const PAIRS = 600;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Median µs of one call of each side, timed in pairs (the order flips every pair) so that a burst of
 * load on a shared machine hits both sides alike.
 */
async function paired(sides, pairs) {
  const per = sides.map(() => []);
  for (let i = 0; i < pairs; i += 1) {
    const order = i % 2 === 0 ? sides.map((_, s) => s) : sides.map((_, s) => sides.length - 1 - s);
    for (const s of order) {
      const started = performance.now();
      await sides[s]();
      per[s].push((performance.now() - started) * 1000);
    }
  }
  return per.map(median);
}

const trivialToolSource = `
export const echo = {
  name: 'echo',
  description: 'Returns its text.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  readOnly: true,
  async call({ text }) { return { text }; },
};
`;

const sdkStdioServerSource = (serverUrl) => `
import { McpServer } from ${JSON.stringify(serverUrl)};
import { StdioServerTransport } from ${JSON.stringify(serverUrl.replace(/index\.mjs$/, 'stdio.mjs'))};
import { z } from ${JSON.stringify(import.meta.resolve('zod'))};
const server = new McpServer({ name: 'minimal', version: '1.0.0' });
server.registerTool('echo', { description: 'Returns its text.', inputSchema: z.object({ text: z.string() }) },
  async ({ text }) => ({ content: [{ type: 'text', text: JSON.stringify({ text }) }], structuredContent: { text } }));
await server.connect(new StdioServerTransport());
`;

function sdkMinimalServer() {
  const server = new McpServer({ name: 'minimal', version: '1.0.0' });
  server.registerTool('echo', { description: 'Returns its text.', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text: JSON.stringify({ text }) }],
    structuredContent: { text },
  }));
  return server;
}

/** The SDK's minimal Streamable HTTP server: its web-standard transport on node:http, one session. */
async function sdkHttpServer() {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body });
    let transport = sessions.get(req.headers['mcp-session-id']);
    if (!transport) {
      transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID(), onsessioninitialized: (id) => sessions.set(id, transport) });
      await sdkMinimalServer().connect(transport);
    }
    const response = await transport.handleRequest(request, body ? { parsedBody: JSON.parse(body) } : {});
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: new URL(`http://127.0.0.1:${http.address().port}/mcp`), close: () => new Promise((resolve) => { http.closeAllConnections(); http.close(resolve); }) };
}

async function connect(transport) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export default async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'toolhost-bench-bridges-'));
  const rows = [];
  try {
    writeFileSync(join(dir, 'echo-tool.mjs'), trivialToolSource);
    writeFileSync(join(dir, 'sdk-server.mjs'), sdkStdioServerSource(import.meta.resolve('@modelcontextprotocol/server')));

    // stdio: both servers are child processes spoken to by the SDK Client.
    const ours = await connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir, '--tools', join(dir, 'echo-tool.mjs')] }));
    const sdk = await connect(new StdioClientTransport({ command: process.execPath, args: [join(dir, 'sdk-server.mjs')] }));
    const call = (client) => () => client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    for (let i = 0; i < 50; i += 1) await Promise.all([call(ours)(), call(sdk)()]);
    const [oursStdio, sdkStdio] = await paired([call(ours), call(sdk)], PAIRS);
    await ours.close();
    await sdk.close();
    rows.push({ figure: 'MCP tools/call round trip, stdio (toolhost mcp)', value: oursStdio, unit: 'µs', anchor: 'MCP SDK minimal server, one trivial tool', anchorValue: sdkStdio, target: '≤ 1.2x' });

    // Streamable HTTP: both servers in this process on 127.0.0.1, sessions on.
    const echo = (await import(join(dir, 'echo-tool.mjs'))).echo;
    const host = new ToolRunner({ tools: [echo] });
    const endpoint = await serveMcpHttp(() => createMcpServer(host));
    const sdkHttp = await sdkHttpServer();
    const oursClient = await connect(new StreamableHTTPClientTransport(endpoint.url));
    const sdkClient = await connect(new StreamableHTTPClientTransport(sdkHttp.url));
    for (let i = 0; i < 50; i += 1) await Promise.all([call(oursClient)(), call(sdkClient)()]);
    const [oursHttp, sdkHttpValue] = await paired([call(oursClient), call(sdkClient)], PAIRS);
    await oursClient.close();
    await sdkClient.close();
    await endpoint.close();
    await sdkHttp.close();
    rows.push({ figure: 'MCP tools/call round trip, Streamable HTTP (serveMcpHttp)', value: oursHttp, unit: 'µs', anchor: 'MCP SDK minimal server over its web-standard transport', anchorValue: sdkHttpValue, target: '≤ 1.2x' });

    // AI SDK: one step with 10 parallel view_file calls, then a text step.
    const files = {};
    for (let i = 0; i < 10; i += 1) files[`f${i}.txt`] = `file ${i}\n`;
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files }), tools: BuiltinTools.all() });
    const batched = await aiSdkTools(runner, { include: ['view_file'] });
    const viewInfo = runner.tools().find((t) => t.name === 'view_file');
    const raw = {
      view_file: tool({ description: viewInfo.description, inputSchema: jsonSchema(viewInfo.parameters), execute: (input) => runner.execute('view_file', input) }),
    };
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    const step = {
      content: Array.from({ length: 10 }, (_, i) => ({ type: 'tool-call', toolCallId: `c${i}`, toolName: 'view_file', input: JSON.stringify({ file_path: `f${i}.txt` }) })),
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage,
      warnings: [],
    };
    const done = { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    const runStep = (tools) => async () => {
      const model = new MockLanguageModelV4({ doGenerate: [step, done] });
      const result = await generateText({ model, tools, prompt: 'read', stopWhen: isStepCount(2) });
      if (result.steps[0].toolResults.length !== 10) throw new Error('expected 10 tool results');
    };
    for (let i = 0; i < 50; i += 1) {
      await runStep(batched)();
      await runStep(raw)();
    }
    const [aiBatched, aiRaw] = await paired([runStep(batched), runStep(raw)], PAIRS);
    rows.push({
      figure: 'AI SDK step of 10 parallel read-only calls (aiSdkTools)',
      value: aiBatched,
      unit: 'µs',
      anchor: 'the same 10 raw execute functions',
      anchorValue: aiRaw,
      target: '≤ 1.10x',
      note: 'generateText with MockLanguageModelV4, two steps per run; medians of paired runs',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
