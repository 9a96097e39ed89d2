/**
 * toolhost/agent: the agent loop and its builder, the model clients (Gemini, OpenAI-compatible,
 * Anthropic, scripted) and the wire-format converters for writing another client. Web-standard APIs
 * only (fetch); importing it does no work.
 */
export { Agent, AgentBuilder, type AgentOptions, type SubagentOptions, type SubagentResult } from './agent.js';
export { runAgentLoop, type AgentEvent, type AgentDoneReason, type AgentErrorInfo, type AgentRunOptions, type AgentLoopOptions, type AgentToolHost, } from './loop.js';
export { ModelError, isModelError, type Model, type ModelProvider, type ModelRequest, type ModelResponse, type ModelMessage, type ModelToolCall, type ModelUsage, type ModelErrorCode, type UserMessage, type AssistantMessage, type ToolResultsMessage, type ProviderReplay, type RetryOptions, type HttpModelOptions, } from './models/types.js';
export type { SchemaConversionNote } from './models/schema-convert.js';
export { geminiModel, toGeminiFunctionDeclarations, toGeminiContents, toGeminiFunctionResponses, fromGeminiFunctionCalls, type GeminiModelOptions, type GeminiFunctionDeclaration, type GeminiFunctionCall, type GeminiPart, type GeminiContent, } from './models/gemini.js';
export { openAICompatibleModel, toOpenAITools, toOpenAIMessages, toOpenAIToolMessages, fromOpenAIToolCalls, type OpenAICompatibleModelOptions, type OpenAITool, type OpenAIToolCall, type OpenAIMessage, } from './models/openai.js';
export { anthropicModel, toAnthropicTools, toAnthropicMessages, toAnthropicToolResults, fromAnthropicToolUses, type AnthropicModelOptions, type AnthropicTool, type AnthropicBlock, type AnthropicMessage, } from './models/anthropic.js';
export { scriptedModel, type ScriptedModel, type ScriptedTurn, type ScriptedStep, type ScriptedContext } from './models/scripted.js';
