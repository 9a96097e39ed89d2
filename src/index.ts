/**
 * toolhost: tools, the runner, tool context, errors, permissions, the built-in tools and the memory
 * platform. Web-standard APIs only; importing it does no work. The agent loop and model clients are in
 * `toolhost/agent`, the browser adapter in `toolhost/web`, the Node adapter in `toolhost/node`.
 */
export {
  defineTool,
  type ExecuteTool,
  type ExecuteToolDefinition,
  type AnyTool,
  type ToolSchema,
  type InferInput,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type HostHooks,
  type InferArgs,
} from './core/tool.js';
export type { StandardSchemaV1, StandardSchemaProps, StandardSchemaResult, StandardSchemaIssue, StandardJsonSchemaConverter } from './core/standard-schema.js';
export { ToolRunner } from './runner.js';
export type {
  ToolRunnerOptions,
  ToolCall,
  ToolCallResult,
  ToolCallSuccess,
  ToolCallFailure,
  CallOptions,
  RegisterOptions,
  FunctionDeclaration,
  ToolMessage,
} from './core/runner.js';
export type { ToolHost, ToolInfo, ToolAnnotations } from './core/host.js';
export { ToolError, isToolError, isToolErrorCode, toToolError, TOOL_ERROR_CODES, type ToolErrorCode } from './core/errors.js';
export {
  PermissionChecker,
  DenialTracker,
  type PermissionPolicy,
  type PermissionRequest,
  type PermissionAnswer,
  type PermissionDecision,
  type Denial,
} from './core/permissions.js';
export type { FileCache } from './core/file-cache.js';
export { registerPrecompiledValidators, type ArgumentValidator } from './core/validation.js';
export type {
  JsonValue,
  JsonSchema,
  Platform,
  PlatformCapabilities,
  FsPromises,
  FsStats,
  FsDirent,
  StateStore,
  RunCommandRequest,
  RunCommandResult,
  BackgroundCommandOutput,
  BackgroundCommandSummary,
  WebSearchHit,
  WebSearchResult,
  SearchFileStat,
  SearchSource,
} from './core/types.js';
export { createMemoryPlatform, MemoryStateStore, type MemoryPlatformOptions } from './platform/memory.js';
export { BuiltinTools, type BuiltinToolSet } from './tools/index.js';
export { webSearchFallbackTool } from './tools/web-search.js';
export type { ViewFileResult, ViewFileTextResult, ViewFileBinaryResult } from './tools/view-file.js';
export type { CreateFileResult } from './tools/create-file.js';
export type { EditFileResult } from './tools/edit-file.js';
export type { FindFileResult } from './tools/find-file.js';
export type { ListDirResult, ListDirEntry } from './tools/list-dir.js';
export type { SearchDirResult } from './tools/search-dir.js';
export type { GrepSearchResult, SearchContentResult, SearchFilesResult, SearchCountResult, SearchMatch, SearchCounters } from './tools/grep-search.js';
export type { StartSubagentResult } from './tools/start-subagent.js';
export type { GenerateImageResult } from './tools/generate-image.js';
export type { FinishResult } from './tools/finish.js';
export type { RunCommandBackgroundResult, CommandListResult } from './tools/run-command.js';
export { toolProfiles, type ToolProfiles, type ToolProfileName } from './tools/profiles/index.js';
