/**
 * Model clients and wire-format converters for the agent loop: Gemini generateContent, OpenAI-compatible
 * chat completions, Anthropic Messages, and a scripted model. fetch-based, web-standard APIs only.
 */
export * from './types.js';
export { postJson, retryAfterMs, statusCode } from './retry.js';
export { toGeminiSchema, openAIStrictCompatibility, functionNameNote } from './schema-convert.js';
export { parseArguments, invalidArgumentsResult, resultPayload, resultText } from './common.js';
export * from './gemini.js';
export * from './openai.js';
export * from './anthropic.js';
export * from './scripted.js';
//# sourceMappingURL=index.js.map