import { callsById, generateCallId, isFailure, trimBase } from './common.js';
import { postJson } from './retry.js';
import { toGeminiSchema } from './schema-convert.js';
import { ModelError } from './types.js';
/**
 * Runner declarations → Gemini `functionDeclarations`, converting each parameters schema with
 * {@link toGeminiSchema}. `notes` lists everything dropped or converted, per tool and JSON Pointer path;
 * a tool whose parameters have no properties gets no `parameters` (noted), as Gemini rejects an empty
 * object schema. Wrap as `tools: [{ functionDeclarations }]` in a generateContent request.
 */
export function toGeminiFunctionDeclarations(declarations) {
    const notes = [];
    const functionDeclarations = declarations.map((declaration) => {
        const { schema, notes: own } = toGeminiSchema(declaration.parameters, declaration.name);
        notes.push(...own);
        const out = { name: declaration.name, description: declaration.description };
        if (schema.properties && Object.keys(schema.properties).length > 0)
            out.parameters = schema;
        else {
            notes.push({
                tool: declaration.name,
                path: '',
                keyword: 'properties',
                action: 'dropped',
                detail: 'the tool takes no parameters; Gemini rejects an object schema without properties, so parameters is omitted',
            });
        }
        return out;
    });
    return { functionDeclarations, notes };
}
/**
 * Gemini `functionCall` parts → {@link ModelToolCall}s, in part order. The part's `id` is kept; where there
 * is none an id is generated (`generatedId: true`, so {@link toGeminiFunctionResponses} leaves it out).
 * `args` that are not an object are a parse failure (`argumentsError`), answered with `invalid_arguments`.
 */
export function fromGeminiFunctionCalls(parts) {
    const calls = [];
    for (const part of parts) {
        const fc = part.functionCall;
        if (!fc || typeof fc.name !== 'string')
            continue;
        const call = typeof fc.id === 'string' && fc.id
            ? { id: fc.id, name: fc.name, args: {} }
            : { id: generateCallId('gemini'), generatedId: true, name: fc.name, args: {} };
        const args = fc.args;
        if (args === undefined || args === null)
            call.args = {};
        else if (typeof args === 'object' && !Array.isArray(args))
            call.args = args;
        else {
            call.argumentsError = 'args must be a JSON object';
            call.rawArguments = JSON.stringify(args) ?? String(args);
        }
        calls.push(call);
    }
    return calls;
}
/**
 * {@link ToolCallResult}s → Gemini `functionResponse` parts, in order: `{ name, response: { result } }` on
 * success, `{ name, response: { error, code } }` on failure, with the call's `id` unless it is listed in
 * `generatedIds` (ids toolhost made up; Gemini never saw them). Send them as one `user` content.
 */
export function toGeminiFunctionResponses(results, generatedIds = new Set()) {
    return results.map((result) => {
        const response = isFailure(result)
            ? { error: result.error, code: result.code }
            : { result: result.result ?? null };
        const functionResponse = { name: result.name, response };
        if (result.id !== undefined && !generatedIds.has(result.id))
            functionResponse.id = result.id;
        return { functionResponse };
    });
}
/**
 * A provider-neutral history → Gemini `contents`. Model turns replay their original parts (thought
 * signatures included) when they came from Gemini; consecutive contents of one role are merged; empty
 * model turns are left out.
 */
export function toGeminiContents(messages) {
    const calls = callsById(messages);
    const generated = new Set([...calls.values()].filter((c) => c.generatedId).map((c) => c.id));
    const contents = [];
    const push = (role, parts) => {
        if (parts.length === 0)
            return;
        const last = contents[contents.length - 1];
        if (last && last.role === role)
            last.parts.push(...parts);
        else
            contents.push({ role, parts });
    };
    for (const message of messages) {
        if (message.role === 'user')
            push('user', [{ text: message.text }]);
        else if (message.role === 'tool')
            push('user', toGeminiFunctionResponses(message.results, generated));
        else if (message.replay?.provider === 'gemini' && Array.isArray(message.replay.content)) {
            push('model', message.replay.content.map(sanitizeReplayedPart));
        }
        else {
            const parts = [];
            if (message.text)
                parts.push({ text: message.text });
            for (const call of message.toolCalls) {
                const functionCall = { name: call.name, args: (call.args ?? {}) };
                if (!call.generatedId)
                    functionCall.id = call.id;
                parts.push({ functionCall });
            }
            push('model', parts);
        }
    }
    return contents;
}
// A replayed functionCall keeps its thought signature, but args that were not an object (answered with
// invalid_arguments) go back as {}: the API refuses a non-object args.
function sanitizeReplayedPart(part) {
    const fc = part.functionCall;
    if (!fc || (typeof fc.args === 'object' && fc.args !== null && !Array.isArray(fc.args)) || fc.args === undefined)
        return { ...part };
    return { ...part, functionCall: { ...fc, args: {} } };
}
/**
 * A {@link Model} over Gemini's generateContent REST API: POST
 * `{baseUrl}/v1beta/models/{model}:generateContent` with the key in `x-goog-api-key`, tools as
 * `functionDeclarations` ({@link toGeminiFunctionDeclarations}), results as `functionResponse` parts.
 * Text is the candidate's non-thought text parts joined; usage from `usageMetadata`. Retries and errors
 * as {@link postJson} (`Gemini API error 400: API key not valid...`); a response without candidates is
 * `invalid_response`, naming the block reason when there is one.
 */
export function geminiModel(options) {
    const base = trimBase(options.baseUrl ?? 'https://generativelanguage.googleapis.com');
    const modelPath = options.model.startsWith('models/') ? options.model : `models/${options.model}`;
    const url = `${base}/v1beta/${modelPath}:generateContent`;
    return {
        provider: 'gemini',
        model: options.model,
        toolProfile: options.toolProfile ?? 'gemini',
        async generate(request) {
            const body = { contents: toGeminiContents(request.messages) };
            if (request.system)
                body.systemInstruction = { parts: [{ text: request.system }] };
            if (request.tools.length > 0)
                body.tools = [{ functionDeclarations: toGeminiFunctionDeclarations(request.tools).functionDeclarations }];
            Object.assign(body, options.extraBody);
            const post = {
                provider: 'gemini',
                label: 'Gemini',
                url,
                headers: { ...options.headers, 'x-goog-api-key': options.apiKey },
                body,
            };
            if (request.signal)
                post.signal = request.signal;
            if (options.fetch)
                post.fetch = options.fetch;
            if (options.retry)
                post.retry = options.retry;
            const raw = (await postJson(post));
            const candidate = raw?.candidates?.[0];
            if (!candidate) {
                const reason = raw?.promptFeedback?.blockReason;
                throw new ModelError('invalid_response', `Gemini API returned no candidates${reason ? ` (prompt blocked: ${reason})` : ''}`, { provider: 'gemini' });
            }
            const parts = Array.isArray(candidate.content?.parts) ? candidate.content.parts : [];
            const text = parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join('');
            const toolCalls = fromGeminiFunctionCalls(parts);
            const usage = {};
            const meta = raw.usageMetadata;
            if (meta?.promptTokenCount !== undefined)
                usage.inputTokens = meta.promptTokenCount;
            if (meta?.candidatesTokenCount !== undefined)
                usage.outputTokens = meta.candidatesTokenCount;
            if (meta?.totalTokenCount !== undefined)
                usage.totalTokens = meta.totalTokenCount;
            const response = { toolCalls, raw, usage, replay: { provider: 'gemini', content: parts } };
            if (text)
                response.text = text;
            if (candidate.finishReason)
                response.finishReason = candidate.finishReason;
            return response;
        },
    };
}
//# sourceMappingURL=gemini.js.map