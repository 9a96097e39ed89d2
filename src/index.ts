/**
 * toolhost: tools, the runner, tool context, errors, permissions, the built-in tools and the memory
 * platform. Web-standard APIs only; importing it does no work. The agent loop and model clients are in
 * `toolhost/agent`, the browser adapter in `toolhost/web`, the Node adapter in `toolhost/node`.
 */
export { defineTool, type AnyTool, type ExecuteTool, type Tool, type ToolContext, type ToolSchema } from './core/tool.js';
export { ToolRunner } from './runner.js';
export type { ToolRunnerOptions, ToolCall, ToolCallResult, CallOptions, RegisterOptions, FunctionDeclaration } from './core/runner.js';
export type { ToolHost, ToolInfo } from './core/host.js';
export type { Cassette } from './core/journal-port.js';
export { ToolError, isToolError, isToolErrorCode, TOOL_ERROR_CODES, type ToolErrorCode } from './core/errors.js';
export type { PermissionPolicy, PermissionRequest, PermissionAnswer, Denial } from './core/permissions.js';
export { registerPrecompiledValidators } from './core/validation.js';
export type { JsonValue, JsonSchema, Platform, FsPromises, StateStore, SearchEngine, SearchContext, SearchRequest, SearchResponse } from './core/types.js';
export { createMemoryPlatform, MemoryStateStore, type MemoryPlatformOptions } from './platform/memory.js';
export { BuiltinTools } from './tools/index.js';
export type { ToolResults } from './tools/results.js';
export { webSearchFallbackTool } from './tools/web-search.js';
export { toolProfiles, type ToolProfileName } from './tools/profiles/index.js';
