/** toolhost/web: the browser adapter (SPEC §1, §7 "web"). Importing it does no work and touches no global. */
export { createWebPlatform, type WebPlatform, type WebPlatformOptions, type WebBackend } from './platform.js';
export { listWorkspaces, exportWorkspace, deleteWorkspace, type WorkspaceAdminOptions, type WorkspaceExport } from './workspaces.js';
export { exposeToolRunner, connectToolRunner, type RemoteToolRunner, type ConnectToolRunnerOptions, type ToolRunnerSetup } from '../src/remote/remote.js';
export { exposeSharedToolRunner, type SharedToolRunner, type SharedWorkerScopeLike } from './shared.js';
export { WebToolRunner, type WebToolRunnerOptions } from './runner.js';
export { connectWorkspaceRunner, type WorkspaceRunner, type WorkspaceRunnerOptions, type WorkspaceRole } from './workspace-runner.js';
