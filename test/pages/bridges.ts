// Bridges test page: talks MCP to the worker over a MessagePort with the SDK's Client.
import { Client } from '@modelcontextprotocol/client';
import { MessagePortTransport, mcpTools } from '../../bridges/mcp/client-index.js';
import { ToolRunner } from '../../src/runner.js';

// Remote tools bring their own JSON Schemas, compiled at run time (ajv loads on the first).
const worker = new Worker(new URL('./bridges-worker.ts', import.meta.url), { type: 'module' });

/** Connects a new MCP client to the worker over a fresh MessageChannel. */
async function connect(): Promise<Client> {
  const channel = new MessageChannel();
  worker.postMessage({ port: channel.port2 }, [channel.port2]);
  const client = new Client({ name: 'page', version: '1.0.0' });
  await client.connect(new MessagePortTransport(channel.port1));
  return client;
}

async function session(): Promise<Record<string, unknown>> {
  const client = await connect();
  const { tools } = await client.listTools();
  const edit = await client.callTool({ name: 'edit_file', arguments: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } });
  const view = await client.callTool({ name: 'view_file', arguments: { file_path: 'notes.txt' } });
  const weather = await client.callTool({ name: 'weather', arguments: { city: 'oslo' } });
  const badWeather = await client.callTool({ name: 'weather', arguments: { city: '' } });
  const second = await connect();
  const count = (await second.listTools()).tools.length;
  await second.close();
  await client.close();
  return {
    names: tools.map((t) => t.name),
    weatherAnnotations: tools.find((t) => t.name === 'weather')?.annotations,
    edit: edit.structuredContent,
    view: view.structuredContent,
    weather: weather.structuredContent,
    badWeather: { isError: badWeather.isError, code: (badWeather.structuredContent as { code?: string } | undefined)?.code },
    secondClientTools: count,
  };
}

/** The worker's tools as remote tools of a page-side runner (mcpTools), in plan mode. */
async function remote(): Promise<Record<string, unknown>> {
  const channel = new MessageChannel();
  worker.postMessage({ port: channel.port2 }, [channel.port2]);
  const runner = new ToolRunner({ planMode: true });
  const tools = await mcpTools(new MessagePortTransport(channel.port1), { prefix: 'worker.', registry: runner, trustAnnotations: true });
  const results = await runner.processToolCalls([
    { id: '1', name: 'worker.view_file', args: { file_path: 'notes.txt' } },
    { id: '2', name: 'worker.create_file', args: { file_path: 'x.txt', content: 'x' } },
    { id: '3', name: 'worker.weather', args: { city: 'rome' } },
  ]);
  await tools.close();
  return { results: results.map((r) => ('code' in r ? { id: r.id, code: r.code } : { id: r.id, result: r.result })) };
}

(globalThis as unknown as { bridges: { session: typeof session; remote: typeof remote } }).bridges = { session, remote };
document.title = 'toolhost bridges page ready';
