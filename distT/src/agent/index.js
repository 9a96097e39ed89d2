/**
 * toolhost/agent: the agent loop and its builder, the model clients (Gemini, OpenAI-compatible,
 * Anthropic, scripted) and the wire-format converters for writing another client. Web-standard APIs
 * only (fetch); importing it does no work.
 */
export { Agent, AgentBuilder } from './agent.js';
export { runAgentLoop, } from './loop.js';
export { ModelError, isModelError, } from './models/types.js';
export { geminiModel, toGeminiFunctionDeclarations, toGeminiContents, toGeminiFunctionResponses, fromGeminiFunctionCalls, } from './models/gemini.js';
export { openAICompatibleModel, toOpenAITools, toOpenAIMessages, toOpenAIToolMessages, fromOpenAIToolCalls, } from './models/openai.js';
export { anthropicModel, toAnthropicTools, toAnthropicMessages, toAnthropicToolResults, fromAnthropicToolUses, } from './models/anthropic.js';
export { scriptedModel } from './models/scripted.js';
//# sourceMappingURL=index.js.map