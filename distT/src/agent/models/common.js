/** True when a {@link ToolCallResult} is a failure (`{ error, code }`). */
export function isFailure(result) {
    return 'code' in result && typeof result.code === 'string';
}
/** A fresh call id for providers that give none: `<prefix>_<uuid without dashes, 24 chars>`. */
export function generateCallId(prefix) {
    return `${prefix}_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;
}
/**
 * Parses a model's JSON-string arguments (OpenAI `function.arguments`). An empty string is `{}`. Bad JSON,
 * or JSON that is not an object, gives `{ args: {}, error }` with a message for the model.
 */
export function parseArguments(text) {
    if (text === undefined || text === null || (typeof text === 'string' && text.trim() === ''))
        return { args: {} };
    if (typeof text === 'object' && !Array.isArray(text))
        return { args: text };
    if (typeof text !== 'string')
        return { args: {}, error: `arguments must be a JSON object, got ${typeof text}` };
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (error) {
        return { args: {}, error: `arguments are not valid JSON (${error.message})` };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return { args: {}, error: `arguments must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}` };
    }
    return { args: value };
}
/**
 * The `invalid_arguments` result the agent sends back for a call whose arguments could not be parsed,
 * quoting (up to 200 characters of) what the model sent.
 */
export function invalidArgumentsResult(call) {
    const raw = call.rawArguments ?? '';
    const shown = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
    return {
        id: call.id,
        name: call.name,
        code: 'invalid_arguments',
        error: `${call.argumentsError ?? 'arguments could not be read'}: ${JSON.stringify(shown)}; call ${call.name} again with a JSON object that matches its parameters`,
    };
}
/** The JSON payload of a result: `{ result }` on success, `{ error, code }` on failure. */
export function resultPayload(result) {
    return isFailure(result) ? { error: result.error, code: result.code } : { result: result.result };
}
/** A result as the text OpenAI `tool` messages and Anthropic `tool_result` blocks carry: JSON of the output, or of `{ error, code }`. */
export function resultText(result) {
    if (isFailure(result))
        return JSON.stringify({ error: result.error, code: result.code });
    const value = result.result;
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}
/** Trims trailing slashes from a base URL. */
export function trimBase(url) {
    return url.replace(/\/+$/, '');
}
/** Ids of the tool calls in a history, mapped to their calls (for providers that need the call's name or id kind). */
export function callsById(messages) {
    const map = new Map();
    for (const message of messages)
        if (message.role === 'assistant')
            for (const call of message.toolCalls)
                map.set(call.id, call);
    return map;
}
//# sourceMappingURL=common.js.map