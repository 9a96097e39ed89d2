/**
 * toolhost core: tools, the runner, tool context, errors, permissions, the agent builder, built-in
 * tools and the memory platform. Web-standard APIs only (SPEC §1); importing it does no work.
 */
export * from './core/errors.js';
export * from './core/types.js';
export * from './core/tool.js';
export * from './core/runner.js';
export * from './core/host.js';
export * from './core/permissions.js';
export * from './core/file-cache.js';
export { KeyedMutex } from './core/locks.js';
export { createMemoryPlatform, MemoryStateStore, lazyFs, fsFromSync, type SyncFsLike, type MemoryPlatformOptions } from './platform/memory.js';
export { MemoryFs, type MemoryFsError } from './fs/memfs.js';
export { registerPrecompiledValidators, coerceArguments, formatValidationErrors, type ArgumentValidator } from './core/validation.js';
export { resolveWorkspacePath, writeFileAtomic, type WorkspaceScope, type ResolveOptions } from './fs/paths.js';
export { decodeText, encodeText, splitLines, detectLineEnding, type LineEnding, type DecodedText } from './fs/text.js';
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
export { Agent, AgentBuilder } from './agent/agent.js';
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
} from './remote/remote.js';
export { DEFAULT_MAX_TURNS, type AgentOptions, type SubagentOptions, type SubagentResult } from './agent/agent.js';
export { runAgentLoop, EventChannel, type AgentEvent, type AgentDoneReason, type AgentErrorInfo, type AgentRunOptions, type AgentLoopOptions, type AgentToolHost } from './agent/loop.js';
export * from './agent/models/index.js';
export { scanRegexTexts, createInThreadRegexSandbox } from './search/regex.js';
