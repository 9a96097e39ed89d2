/**
 * toolhost/agent: the agent and its builder, the agent loop, and the model clients (Gemini,
 * OpenAI-compatible, Anthropic, scripted). Web-standard APIs only (fetch); importing it does no work.
 */
export { Agent, type AgentOptions } from './agent.js';
export { runAgentLoop, type AgentEvent, type AgentLoopOptions, type AgentToolHost } from './loop.js';
export { ModelError, isModelError, type Model, type ModelRequest, type ModelResponse, type ModelMessage } from './models/types.js';
export { geminiModel, type GeminiModelOptions } from './models/gemini.js';
export { openAICompatibleModel, type OpenAICompatibleModelOptions } from './models/openai.js';
export { anthropicModel, type AnthropicModelOptions } from './models/anthropic.js';
export { scriptedModel, type ScriptedTurn } from './models/scripted.js';
