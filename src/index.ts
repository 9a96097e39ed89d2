/**
 * toolhost core: tools, the runner, tool context, errors, permissions, the agent builder, built-in
 * tools and the memory platform. Web-standard APIs only (SPEC §1); importing it does no work.
 */
export * from './errors.js';
export * from './types.js';
export * from './tool.js';
export * from './runner.js';
export * from './permissions.js';
export * from './file-cache.js';
export { KeyedMutex } from './locks.js';
export { createMemoryPlatform, MemoryStateStore, lazyFs, fsFromSync, type SyncFsLike, type MemoryPlatformOptions } from './platform/memory.js';
export { MemoryFs, type MemoryFsError } from './platform/memfs.js';
export { registerPrecompiledValidators, coerceArguments, formatValidationErrors, type ArgumentValidator } from './validation.js';
export { resolveWorkspacePath, writeFileAtomic, type WorkspaceScope, type ResolveOptions } from './workspace.js';
export { decodeText, encodeText, splitLines, detectLineEnding, type LineEnding, type DecodedText } from './text.js';
export { webSearchFallbackTool } from './tools/web-search.js';
export {
  BuiltinTools,
  type BuiltinToolSet,
  createFileTool,
  editFileTool,
  findFileTool,
  listDirTool,
  searchDirTool,
  viewFileTool,
  grepSearchTool,
  runCommandTool,
  startSubagentTool,
  generateImageTool,
  finishTool,
} from './tools/index.js';
export { RUN_COMMAND_DEFAULT_TIMEOUT_MS, RUN_COMMAND_MAX_TIMEOUT_MS } from './tools/run-command.js';
export type { StartSubagentResult } from './tools/start-subagent.js';
export type { GenerateImageResult } from './tools/generate-image.js';
export { Agent, AgentBuilder } from './agent.js';
export {
  exposeToolRunner,
  connectToolRunner,
  REMOTE_GRACE_MS,
  type RemoteToolRunner,
  type RemoteToolRunnerStatus,
  type ConnectToolRunnerOptions,
  type ExposedToolRunner,
  type ToolRunnerSetup,
  type WorkerBridge,
  type RemoteEnvelope,
  type WireCallOptions,
  type PageToolDescriptor,
  type PageCallInfo,
  type ToolRunnerWorkerApi,
  type Endpoint,
} from './remote.js';
export { DEFAULT_MAX_TURNS, type AgentOptions, type SubagentOptions, type SubagentResult } from './agent.js';
export { runAgentLoop, EventChannel, type AgentEvent, type AgentDoneReason, type AgentErrorInfo, type AgentRunOptions, type AgentLoopOptions, type AgentToolHost } from './agent-loop.js';
export * from './models/index.js';
export { scanRegexTexts, createInThreadRegexSandbox } from './regex.js';
