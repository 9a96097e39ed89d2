/**
 * toolhost/node: the Node adapter (SPEC §1, §7 "node"). Uses `node:*`; importing it does no work.
 */
export { createNodePlatform, createConfinedNodeFs, type NodePlatformOptions } from './platform.js';
export { FileStateStore, stateFileName } from './state-store.js';
export { runShellCommand, OutputCapture, OUTPUT_KEEP_CHARS, isProcessGroupAlive, type RunShellCommandOptions } from './run-command.js';
export { spawnToolWorker, exposeToolRunnerInWorker, type SpawnToolWorkerOptions } from './worker.js';
export {
  createDuckDuckGoSearch,
  parseDuckDuckGoResults,
  unwrapDuckDuckGoUrl,
  DUCKDUCKGO_HTML_URL,
  WEB_SEARCH_TIMEOUT_MS,
  WEB_SEARCH_MAX_RESULTS,
  type DuckDuckGoSearchOptions,
  type WebSearchFunction,
} from './web-search.js';
export { main as runCli, USAGE as CLI_USAGE, CLI_EXIT, type CliIo } from './cli.js';
export { createVmRegexSandbox } from './regex-sandbox.js';
