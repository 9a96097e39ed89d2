import type { FunctionDeclaration, ToolCallResult } from '../../core/runner.js';
import type { JsonSchema } from '../../core/types.js';
import { generateCallId, parseArguments, resultText, trimBase } from './common.js';
import { postJson } from './retry.js';
import { functionNameNote, openAIStrictCompatibility, type SchemaConversionNote } from './schema-convert.js';
import { APPLY_PATCH_FUNCTION_PARAMETERS, applyPatchTool } from '../../tools/profiles/openai.js';
import { ModelError, type HttpModelOptions, type Model, type ModelMessage, type ModelToolCall, type ModelUsage } from './types.js';

/** An OpenAI chat completions tool: `{ type: 'function', function: { name, description, parameters, strict } }`. */
export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict: boolean };
}

/** An OpenAI `tool_calls[]` entry: `arguments` is a JSON string as the model wrote it. */
export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** An OpenAI chat completions message (the roles and members toolhost writes). */
export type OpenAIMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * Runner declarations → OpenAI chat completions `tools`. `strict` is true only when the parameters
 * schema qualifies for strict mode ({@link openAIStrictCompatibility}: every property required and
 * `additionalProperties: false` at every level, supported keywords only); the schema is sent unchanged.
 * `notes` says, per tool, why strict is off, and flags names OpenAI refuses (`unsupported`).
 */
export function toOpenAITools(declarations: readonly FunctionDeclaration[]): { tools: OpenAITool[]; notes: SchemaConversionNote[] } {
  const notes: SchemaConversionNote[] = [];
  const tools = declarations.map((declaration): OpenAITool => {
    if (declaration.name === 'apply_patch' && JSON.stringify(declaration.parameters) === JSON.stringify(applyPatchTool.inputSchema)) {
      // Chat completions has no apply_patch tool type: declared as Codex declares its function tool, one `input` string.
      return { type: 'function', function: { name: 'apply_patch', description: declaration.description, parameters: { ...APPLY_PATCH_FUNCTION_PARAMETERS }, strict: true } };
    }
    const badName = functionNameNote(declaration.name, 'OpenAI');
    if (badName) notes.push(badName);
    const { strict, reasons } = openAIStrictCompatibility(declaration.parameters);
    for (const reason of reasons) {
      const split = reason.indexOf(': ');
      notes.push({
        tool: declaration.name,
        path: reason.slice(0, split) === '/' ? '' : reason.slice(0, split),
        keyword: 'strict',
        action: 'converted',
        detail: `strict: false because ${reason.slice(split + 2)}`,
      });
    }
    return { type: 'function', function: { name: declaration.name, description: declaration.description, parameters: declaration.parameters, strict } };
  });
  return { tools, notes };
}

/**
 * OpenAI `tool_calls` → {@link ModelToolCall}s, in order. `arguments` is parsed as JSON; bad JSON (or JSON
 * that is not an object) is kept as a parse failure (`argumentsError`, `rawArguments`) for the agent to
 * answer with `invalid_arguments`. A missing id is generated.
 */
export function fromOpenAIToolCalls(toolCalls: readonly OpenAIToolCall[] | undefined | null): ModelToolCall[] {
  if (!Array.isArray(toolCalls)) return [];
  return toolCalls
    .filter((tc) => tc && typeof tc.function?.name === 'string')
    .map((tc) => {
      const parsed = parseArguments(tc.function.arguments);
      const call: ModelToolCall = typeof tc.id === 'string' && tc.id
        ? { id: tc.id, name: tc.function.name, args: parsed.args }
        : { id: generateCallId('call'), generatedId: true, name: tc.function.name, args: parsed.args };
      if (parsed.error !== undefined) {
        call.argumentsError = parsed.error;
        call.rawArguments = typeof tc.function.arguments === 'string' ? tc.function.arguments : String(tc.function.arguments);
      }
      return call;
    });
}

/**
 * {@link ToolCallResult}s → OpenAI `tool` messages, one per result in order:
 * `{ role: 'tool', tool_call_id, content }` with the output as JSON text (a string output as is), or
 * `{"error":...,"code":...}` for a failure.
 */
export function toOpenAIToolMessages(results: readonly ToolCallResult[]): Extract<OpenAIMessage, { role: 'tool' }>[] {
  return results.map((result) => ({ role: 'tool', tool_call_id: result.id ?? '', content: resultText(result) }));
}

/** A provider-neutral history (and system text) → OpenAI chat completions `messages`. */
export function toOpenAIMessages(messages: readonly ModelMessage[], system?: string): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const message of messages) {
    if (message.role === 'user') out.push({ role: 'user', content: message.text });
    else if (message.role === 'tool') out.push(...toOpenAIToolMessages(message.results));
    else {
      const assistant: Extract<OpenAIMessage, { role: 'assistant' }> = { role: 'assistant', content: message.text ?? null };
      if (message.toolCalls.length > 0) {
        assistant.tool_calls = message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.args ?? {}) },
        }));
      } else if (assistant.content === null) assistant.content = '';
      out.push(assistant);
    }
  }
  return out;
}

/** Options of {@link openAICompatibleModel}. */
export interface OpenAICompatibleModelOptions extends HttpModelOptions {
  /** Sent as `Authorization: Bearer <apiKey>` when given (local servers often need none). */
  apiKey?: string;
  /** Up to and including the version path: default `https://api.openai.com/v1`; Ollama `http://127.0.0.1:11434/v1`. */
  baseUrl?: string;
}

/**
 * A {@link Model} over the chat completions API (OpenAI, and the servers that speak it: Ollama,
 * llama.cpp, vLLM...): POST `{baseUrl}/chat/completions` with `model`, `messages` ({@link toOpenAIMessages})
 * and `tools` ({@link toOpenAITools}). Reads `choices[0].message` (`content`, `tool_calls`) and `usage`.
 * Retries and errors as {@link postJson} (`OpenAI API error 401: Incorrect API key provided...`); a
 * response without choices is `invalid_response`.
 */
export function openAICompatibleModel(options: OpenAICompatibleModelOptions): Model {
  const url = `${trimBase(options.baseUrl ?? 'https://api.openai.com/v1')}/chat/completions`;
  return {
    provider: 'openai',
    model: options.model,
    // OpenAI's own endpoint serves the models trained on apply_patch and shell; other servers that speak
    // chat completions (Ollama, llama.cpp, vLLM) serve models that know none of them.
    toolProfile: options.toolProfile ?? (/^https:\/\/api\.openai\.com(\/|$)/.test(options.baseUrl ?? 'https://api.openai.com/v1') ? 'openai' : 'toolhost'),
    async generate(request) {
      const body: Record<string, unknown> = { model: options.model, messages: toOpenAIMessages(request.messages, request.system) };
      if (request.tools.length > 0) body.tools = toOpenAITools(request.tools).tools;
      Object.assign(body, options.extraBody);
      const headers: Record<string, string> = { ...options.headers };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const post: Parameters<typeof postJson>[0] = { provider: 'openai', label: 'OpenAI', url, headers, body };
      if (request.signal) post.signal = request.signal;
      if (options.fetch) post.fetch = options.fetch;
      if (options.retry) post.retry = options.retry;
      const raw = (await postJson(post)) as {
        choices?: { message?: { content?: string | null; tool_calls?: OpenAIToolCall[] }; finish_reason?: string }[];
        usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
      };
      const choice = raw?.choices?.[0];
      if (!choice?.message) throw new ModelError('invalid_response', 'OpenAI API returned no choices', { provider: 'openai' });
      const usage: ModelUsage = {};
      if (raw.usage?.prompt_tokens !== undefined) usage.inputTokens = raw.usage.prompt_tokens;
      if (raw.usage?.completion_tokens !== undefined) usage.outputTokens = raw.usage.completion_tokens;
      if (raw.usage?.total_tokens !== undefined) usage.totalTokens = raw.usage.total_tokens;
      const response: Awaited<ReturnType<Model['generate']>> = { toolCalls: fromOpenAIToolCalls(choice.message.tool_calls), raw, usage };
      if (typeof choice.message.content === 'string' && choice.message.content) response.text = choice.message.content;
      if (choice.finish_reason) response.finishReason = choice.finish_reason;
      return response;
    },
  };
}
