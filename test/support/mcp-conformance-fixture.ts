import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, inputRequired, type McpServer, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { createMcpPermissionPrompt, createMcpServer } from '../../bridges/mcp/index.js';
import { serveMcpHttp, type McpHttpEndpoint } from '../../bridges/mcp/node-http.js';
import { defineTool } from '../../src/core/tool.js';
import { ToolRunner } from '../../src/runner.js';
import { createMemoryPlatform } from '../../src/platform/memory.js';

/**
 * The server the MCP conformance suite's tool scenarios call: toolhost's MCP bridge
 * (`createMcpServer` + `serveMcpHttp`) over a runner whose tools are the suite's fixture tools.
 *
 * Two kinds of tool live here:
 * - toolhost tools (`defineTool`, run by a `ToolRunner`): the content, error, progress, logging and
 *   permission-prompt probes. Their MCP answers come from the bridge (`toCallToolResult`, progress
 *   from `ctx.send`, the permission prompt), which is what the suite checks.
 * - multi-round-trip probes (`test_input_required_result_*`, `test_missing_capability`), registered on
 *   the bridge's `McpServer` with the SDK's own `inputRequired` builder: a toolhost tool has no way to
 *   ask the client for input other than a permission prompt, so these check that the bridge's HTTP
 *   endpoint carries 2026-07-28's input-required round trips, request state and capability errors.
 */

/** A 1×1 PNG (a red pixel). */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A WAV header with no samples (44 bytes): valid audio, no sound. */
const WAV_BASE64 = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

const NO_ARGS = { type: 'object', properties: {}, additionalProperties: false } as const;

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** The suite's content, error and progress tools, as toolhost tools. */
function fixtureTools() {
  return [
    defineTool({
      name: 'test_simple_text',
      description: 'Answers with one line of text.',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true },
      execute: async () => 'This is a simple text response for testing.',
    }),
    defineTool({
      name: 'test_image_content',
      description: 'Answers with a 1x1 PNG image.',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true },
      execute: async () => ({ data_base64: PNG_BASE64, mime_type: 'image/png' }),
    }),
    defineTool({
      name: 'test_audio_content',
      description: 'Answers with a short WAV clip.',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true },
      execute: async () => ({ data_base64: WAV_BASE64, mime_type: 'audio/wav' }),
    }),
    defineTool({
      name: 'test_embedded_resource',
      description: 'Answers with an embedded text resource.',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true },
      execute: async () => ({
        content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
      }),
    }),
    defineTool({
      name: 'test_multiple_content_types',
      description: 'Answers with text, an image and an embedded resource.',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true },
      execute: async () => ({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
        ],
      }),
    }),
    defineTool({
      name: 'test_error_handling',
      description: 'Always fails.',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true },
      execute: async () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    }),
    defineTool({
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100, 50 ms apart.',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true },
      execute: async (_args, ctx) => {
        for (const progress of [0, 50, 100]) {
          if (progress > 0) await sleep(50, ctx.signal);
          await ctx.send({ progress, total: 100 });
        }
        return 'Progress test completed';
      },
    }),
    defineTool({
      name: 'test_logging_tool',
      description: 'Sends messages while it runs (no log level asked: none reach the client).',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true },
      execute: async (_args, ctx) => {
        await ctx.send('Tool execution started');
        await ctx.send('Tool execution completed');
        return 'Logging test completed';
      },
    }),
    defineTool({
      name: 'json_schema_2020_12_tool',
      description: 'Takes a 2020-12 schema with definitions, composition and conditions; echoes its input.',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { address: { $anchor: 'postal', type: 'object', properties: { line: { type: 'string' }, town: { type: 'string' } } } },
        properties: { recipient: { type: 'string' }, address: { $ref: '#/$defs/address' }, via: { type: 'string', enum: ['post', 'courier'] }, tracking: { type: 'string' }, pickup: { type: 'string' } },
        allOf: [{ anyOf: [{ required: ['tracking'] }, { required: ['pickup'] }] }],
        if: { properties: { via: { const: 'courier' } }, required: ['via'] },
        then: { required: ['tracking'] },
        else: { required: ['pickup'] },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
      execute: async (args) => ({ received: args }),
    }),
    defineTool({
      name: 'test_streaming_elicitation',
      description: 'A mutating tool the runner asks permission for: the permission prompt is its elicitation.',
      inputSchema: NO_ARGS,
      execute: async () => 'permitted',
    }),
  ];
}

const nameSchema = { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] };

/** The accepted elicitation content under `key` of a retry's input responses. */
function accepted(ctx: ServerContext, key: string): Record<string, unknown> | undefined {
  const response = ctx.mcpReq.inputResponses?.[key] as { action?: unknown; content?: unknown } | undefined;
  if (response?.action !== 'accept' || typeof response.content !== 'object' || response.content === null) return undefined;
  return response.content as Record<string, unknown>;
}

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

/** The verified payload of a retry's request state (the server's `requestState.verify` refused any other). */
function stateOf(ctx: ServerContext): Record<string, unknown> | undefined {
  return ctx.mcpReq.requestState<Record<string, unknown>>();
}

/** Registers the multi-round-trip probes on `server`. */
function registerInputProbes(server: McpServer, seal: RequestStateCodec<Record<string, unknown>>): void {
  const probe = (name: string, handler: (ctx: ServerContext) => unknown | Promise<unknown>): void => {
    server.registerTool(name, { description: `Conformance probe ${name}.` }, (async (ctx: ServerContext) => handler(ctx)) as never);
  };
  probe('test_input_required_result_elicitation', (ctx) => {
    const answer = accepted(ctx, 'user_name');
    if (typeof answer?.['name'] === 'string') return text(`Hello, ${answer['name']}!`);
    return inputRequired({ inputRequests: { user_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: nameSchema }) } });
  });
  probe('test_input_required_result_sampling', (ctx) => {
    const answer = ctx.mcpReq.inputResponses?.['capital_question'] as { content?: { text?: unknown } } | undefined;
    if (typeof answer?.content?.text === 'string') return text(`The model answered: ${answer.content.text}`);
    return inputRequired({
      inputRequests: {
        capital_question: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 }),
      },
    });
  });
  probe('test_input_required_result_list_roots', (ctx) => {
    const answer = ctx.mcpReq.inputResponses?.['client_roots'] as { roots?: { uri?: unknown }[] } | undefined;
    if (Array.isArray(answer?.roots)) return text(`Roots: ${answer.roots.map((root) => String(root.uri)).join(', ')}`);
    return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
  });
  probe('test_input_required_result_request_state', async (ctx) => {
    const state = stateOf(ctx);
    if (state?.['step'] === 'confirm' && accepted(ctx, 'confirm')) return text('state-ok: the request state came back intact');
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({ message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }),
      },
      requestState: await seal.mint({ step: 'confirm' }),
    });
  });
  probe('test_input_required_result_tampered_state', async (ctx) => {
    const state = stateOf(ctx);
    if (state?.['step'] === 'tamper-test' && accepted(ctx, 'confirm')) return text('integrity-ok: state verified');
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({ message: 'Confirm?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }),
      },
      requestState: await seal.mint({ step: 'tamper-test' }),
    });
  });
  probe('test_input_required_result_multiple_inputs', async (ctx) => {
    const state = stateOf(ctx);
    const responses = ctx.mcpReq.inputResponses ?? {};
    if (state?.['step'] === 'all' && ['user_name', 'greeting', 'client_roots'].every((key) => key in responses)) return text('All three inputs received');
    return inputRequired({
      inputRequests: {
        user_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: nameSchema }),
        greeting: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }),
        client_roots: inputRequired.listRoots(),
      },
      requestState: await seal.mint({ step: 'all' }),
    });
  });
  probe('test_input_required_result_multi_round', async (ctx) => {
    const state = stateOf(ctx);
    const name = accepted(ctx, 'step1')?.['name'];
    if (state?.['round'] === 1 && typeof name === 'string') {
      return inputRequired({
        inputRequests: {
          step2: inputRequired.elicit({
            message: 'Step 2: What is your favorite color?',
            requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
          }),
        },
        requestState: await seal.mint({ round: 2, name }),
      });
    }
    const color = accepted(ctx, 'step2')?.['color'];
    if (state?.['round'] === 2 && typeof color === 'string') return text(`${String(state['name'])} likes ${color}`);
    return inputRequired({
      inputRequests: { step1: inputRequired.elicit({ message: 'Step 1: What is your name?', requestedSchema: nameSchema }) },
      requestState: await seal.mint({ round: 1 }),
    });
  });
  probe('test_input_required_result_capabilities', () => {
    const capabilities = server.server.getClientCapabilities() ?? {};
    const requests: Record<string, ReturnType<typeof inputRequired.listRoots>> = {};
    if (capabilities.elicitation) requests['elicit_input'] = inputRequired.elicit({ message: 'Elicitation input', requestedSchema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } });
    if (capabilities.sampling) requests['sample_input'] = inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Sampling input' } }], maxTokens: 50 });
    if (capabilities.roots) requests['roots_input'] = inputRequired.listRoots();
    if (Object.keys(requests).length === 0) return text('The client declared no capability this tool could ask through');
    return inputRequired({ inputRequests: requests });
  });
  // Needs sampling: the SDK answers -32021 (HTTP 400) when the client did not declare it.
  probe('test_missing_capability', (ctx) => {
    if (ctx.mcpReq.inputResponses?.['sample'] !== undefined) return text('Success');
    return inputRequired({ inputRequests: { sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 }) } });
  });
}

/** Starts the fixture on 127.0.0.1 (a free port); close the endpoint when done. */
export async function startConformanceFixture(): Promise<McpHttpEndpoint> {
  const tools = fixtureTools();
  const prompt = createMcpPermissionPrompt();
  const runner = new ToolRunner({
    platform: createMemoryPlatform(),
    tools,
    // Every fixture tool runs freely but test_streaming_elicitation, whose call asks the client.
    permissions: { allow: tools.map((tool) => tool.name).filter((name) => name !== 'test_streaming_elicitation'), ask: prompt.ask },
  });
  const seal = createRequestStateCodec<Record<string, unknown>>({ key: randomBytes(32) });
  return serveMcpHttp(async () => {
    const server = await createMcpServer(runner, { name: 'toolhost-conformance-fixture', version: '1.0.0', permissionPrompt: prompt, requestState: seal });
    registerInputProbes(server, seal);
    return server;
  });
}
