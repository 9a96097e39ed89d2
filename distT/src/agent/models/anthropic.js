import { generateCallId, isFailure, resultText, trimBase } from './common.js';
import { postJson } from './retry.js';
import { functionNameNote } from './schema-convert.js';
import { BASH_PARAMETERS, BASH_TOOL_TYPE, MAX_CHARACTERS_NOTE, TEXT_EDITOR_PARAMETERS, TEXT_EDITOR_TOOL_TYPE } from '../../tools/profiles/anthropic.js';
import { ModelError } from './types.js';
const sameSchema = (a, b) => JSON.stringify(a) === JSON.stringify(b);
/**
 * The Anthropic built-in tool type a declaration stands for: toolProfiles.anthropic()'s
 * `str_replace_based_edit_tool` (with `max_characters` when the profile was built with `maxCharacters`)
 * and `bash`, recognised by name and parameters (so a look-alike of your own stays a function), else null.
 */
export function anthropicBuiltinToolType(declaration) {
    if (declaration.name === 'str_replace_based_edit_tool' && sameSchema(declaration.parameters, TEXT_EDITOR_PARAMETERS)) {
        const tool = { type: TEXT_EDITOR_TOOL_TYPE, name: declaration.name };
        const at = declaration.description.lastIndexOf(MAX_CHARACTERS_NOTE);
        const max = at === -1 ? NaN : Number.parseInt(declaration.description.slice(at + MAX_CHARACTERS_NOTE.length), 10);
        if (Number.isInteger(max) && max > 0)
            tool.max_characters = max;
        return tool;
    }
    if (declaration.name === 'bash' && sameSchema(declaration.parameters, BASH_PARAMETERS))
        return { type: BASH_TOOL_TYPE, name: declaration.name };
    return null;
}
/**
 * Runner declarations → Anthropic `tools` (`{ name, description, input_schema }`; the Anthropic profile's
 * text editor and bash as Anthropic's built-in tool types, see {@link anthropicBuiltinToolType}). The schema is sent as
 * is (Anthropic takes JSON Schema); one without `type` gets `type: 'object'` (noted), which
 * `input_schema` requires. Names Anthropic refuses (a dot, say) are flagged `unsupported`.
 */
export function toAnthropicTools(declarations) {
    const notes = [];
    const tools = declarations.map((declaration) => {
        const builtin = anthropicBuiltinToolType(declaration);
        if (builtin)
            return builtin;
        const badName = functionNameNote(declaration.name, 'Anthropic');
        if (badName)
            notes.push(badName);
        let input_schema = declaration.parameters;
        if (input_schema.type === undefined) {
            input_schema = { type: 'object', ...input_schema };
            notes.push({ tool: declaration.name, path: '', keyword: 'type', action: 'converted', detail: 'input_schema needs type "object"; added' });
        }
        return { name: declaration.name, description: declaration.description, input_schema };
    });
    return { tools, notes };
}
/**
 * Anthropic `tool_use` blocks → {@link ModelToolCall}s, in order. An `input` that is not an object is a
 * parse failure (`argumentsError`), answered with `invalid_arguments`.
 */
export function fromAnthropicToolUses(content) {
    const calls = [];
    for (const block of content) {
        if (block.type !== 'tool_use')
            continue;
        const use = block;
        if (typeof use.name !== 'string')
            continue;
        const call = typeof use.id === 'string' && use.id
            ? { id: use.id, name: use.name, args: {} }
            : { id: generateCallId('toolu'), generatedId: true, name: use.name, args: {} };
        if (typeof use.input === 'object' && use.input !== null && !Array.isArray(use.input))
            call.args = use.input;
        else if (use.input === undefined)
            call.args = {};
        else {
            call.argumentsError = 'input must be a JSON object';
            call.rawArguments = typeof use.input === 'string' ? use.input : (JSON.stringify(use.input) ?? String(use.input));
        }
        calls.push(call);
    }
    return calls;
}
/**
 * {@link ToolCallResult}s → Anthropic `tool_result` blocks, in order: `{ type: 'tool_result', tool_use_id,
 * content }` with the output as JSON text (a string output as is); failures carry `{"error":...,"code":...}`
 * and `is_error: true`. Send them first in one `user` message.
 */
export function toAnthropicToolResults(results) {
    return results.map((result) => {
        const block = {
            type: 'tool_result',
            tool_use_id: result.id ?? '',
            content: resultText(result),
        };
        if (isFailure(result))
            block.is_error = true;
        return block;
    });
}
/**
 * A provider-neutral history → Anthropic `messages`. Model turns replay their original content blocks
 * when they came from Anthropic; consecutive messages of one role are merged (tool results first in a
 * user message, as the API requires); empty assistant turns are left out.
 */
export function toAnthropicMessages(messages) {
    const out = [];
    const push = (role, blocks) => {
        if (blocks.length === 0)
            return;
        const last = out[out.length - 1];
        if (last && last.role === role)
            last.content.push(...blocks);
        else
            out.push({ role, content: blocks });
    };
    for (const message of messages) {
        if (message.role === 'user')
            push('user', [{ type: 'text', text: message.text }]);
        else if (message.role === 'tool')
            push('user', toAnthropicToolResults(message.results));
        else if (message.replay?.provider === 'anthropic' && Array.isArray(message.replay.content)) {
            // A tool_use whose input was not an object (answered with invalid_arguments) goes back with input {}.
            push('assistant', message.replay.content.map((b) => {
                const input = b.input;
                return b.type === 'tool_use' && (typeof input !== 'object' || input === null || Array.isArray(input)) ? { ...b, input: {} } : { ...b };
            }));
        }
        else {
            const blocks = [];
            if (message.text)
                blocks.push({ type: 'text', text: message.text });
            for (const call of message.toolCalls) {
                blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.argumentsError ? {} : (call.args ?? {}) });
            }
            push('assistant', blocks);
        }
    }
    return out;
}
/**
 * A {@link Model} over Anthropic's Messages API: POST `{baseUrl}/v1/messages` with `x-api-key`,
 * `anthropic-version: 2023-06-01`, `max_tokens`, `system`, `messages` ({@link toAnthropicMessages}) and
 * `tools` ({@link toAnthropicTools}). Reads `content` (text and `tool_use` blocks), `stop_reason` and
 * `usage`. Retries and errors as {@link postJson} (`Anthropic API error 401: invalid x-api-key`); a
 * response without `content` is `invalid_response`. From a browser page, also pass
 * `headers: { 'anthropic-dangerous-direct-browser-access': 'true' }`.
 */
export function anthropicModel(options) {
    const url = `${trimBase(options.baseUrl ?? 'https://api.anthropic.com')}/v1/messages`;
    return {
        provider: 'anthropic',
        model: options.model,
        toolProfile: options.toolProfile ?? 'anthropic',
        async generate(request) {
            const body = {
                model: options.model,
                max_tokens: options.maxTokens ?? 4096,
                messages: toAnthropicMessages(request.messages),
            };
            if (request.system)
                body.system = request.system;
            if (request.tools.length > 0)
                body.tools = toAnthropicTools(request.tools).tools;
            Object.assign(body, options.extraBody);
            const headers = {
                ...options.headers,
                'x-api-key': options.apiKey,
                'anthropic-version': options.version ?? '2023-06-01',
            };
            const post = { provider: 'anthropic', label: 'Anthropic', url, headers, body };
            if (request.signal)
                post.signal = request.signal;
            if (options.fetch)
                post.fetch = options.fetch;
            if (options.retry)
                post.retry = options.retry;
            const raw = (await postJson(post));
            if (!Array.isArray(raw?.content))
                throw new ModelError('invalid_response', 'Anthropic API returned no content', { provider: 'anthropic' });
            const text = raw.content
                .filter((b) => b.type === 'text' && typeof b.text === 'string')
                .map((b) => b.text)
                .join('');
            const usage = {};
            if (raw.usage?.input_tokens !== undefined)
                usage.inputTokens = raw.usage.input_tokens;
            if (raw.usage?.output_tokens !== undefined)
                usage.outputTokens = raw.usage.output_tokens;
            if (usage.inputTokens !== undefined && usage.outputTokens !== undefined)
                usage.totalTokens = usage.inputTokens + usage.outputTokens;
            const response = {
                toolCalls: fromAnthropicToolUses(raw.content),
                raw,
                usage,
                replay: { provider: 'anthropic', content: raw.content },
            };
            if (text)
                response.text = text;
            if (raw.stop_reason)
                response.finishReason = raw.stop_reason;
            return response;
        },
    };
}
//# sourceMappingURL=anthropic.js.map