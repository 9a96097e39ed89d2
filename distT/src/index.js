/**
 * toolhost: tools, the runner, tool context, errors, permissions, the built-in tools and the memory
 * platform. Web-standard APIs only; importing it does no work. The agent loop and model clients are in
 * `toolhost/agent`, the browser adapter in `toolhost/web`, the Node adapter in `toolhost/node`.
 */
export { defineTool, } from './core/tool.js';
export { ToolRunner, } from './core/runner.js';
export { ToolError, isToolError, isToolErrorCode, toToolError, TOOL_ERROR_CODES } from './core/errors.js';
export { PermissionChecker, DenialTracker, } from './core/permissions.js';
export { registerPrecompiledValidators } from './core/validation.js';
export { createMemoryPlatform, MemoryStateStore } from './platform/memory.js';
export { BuiltinTools } from './tools/index.js';
export { webSearchFallbackTool } from './tools/web-search.js';
export { toolProfiles } from './tools/profiles/index.js';
//# sourceMappingURL=index.js.map