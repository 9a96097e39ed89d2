/**
 * A failed model request, shaped like {@link ToolError}: check `code`, never `instanceof`. `status` is the
 * HTTP status (absent for network errors and aborts), `provider` the API, `apiMessage` the API's own error
 * message. The message reads like `Gemini API error 400: API key not valid` and says how many retries
 * were made when there were any.
 */
export class ModelError extends Error {
    code;
    provider;
    retries;
    constructor(code, message, details) {
        super(message);
        this.name = 'ModelError';
        this.code = code;
        this.provider = details.provider;
        if (details.status !== undefined)
            this.status = details.status;
        if (details.apiMessage !== undefined)
            this.apiMessage = details.apiMessage;
        this.retries = details.retries ?? 0;
    }
}
/** True for a {@link ModelError} or anything that looks like one after a worker hop (a `provider` and a string `code`). */
export function isModelError(value) {
    return (typeof value === 'object' &&
        value !== null &&
        typeof value.code === 'string' &&
        typeof value.provider === 'string' &&
        typeof value.message === 'string');
}
//# sourceMappingURL=types.js.map