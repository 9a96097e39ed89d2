/**
 * toolhost/web: the browser adapter. `createWebPlatform` (inside a worker), `exposeToolRunner` (the
 * worker side) and `connectToolRunner` (the page side), the shared workspaces and their administration.
 * Importing it does no work and touches no global.
 */
export {
  createWebPlatform,
  type WebPlatform,
  type WebPlatformOptions,
  type WebBackend,
  type WebMountSource,
  type WebFolderBackend,
  type WebShell,
  type OverlayChange,
  type OverlayApplyResult,
} from './platform.js';
export { rememberedDirectory } from './directory.js';
export { listWorkspaces, exportWorkspace, deleteWorkspace, type WorkspaceAdminOptions, type WorkspaceExport } from './workspaces.js';
export {
  exposeToolRunner,
  connectToolRunner,
  type RemoteToolRunner,
  type RemoteToolRunnerStatus,
  type ConnectToolRunnerOptions,
  type ToolRunnerSetup,
  type WorkerBridge,
  type ExposedToolRunner,
  type Endpoint,
  type WirePermissionPolicy,
} from '../src/remote/remote.js';
export { exposeSharedToolRunner, type SharedToolRunner, type SharedWorkerScopeLike } from './shared.js';
export { WebToolRunner, type WebToolRunnerOptions } from './runner.js';
export { connectWorkspaceRunner, type WorkspaceRunner, type WorkspaceRunnerOptions, type WorkspaceRole } from './workspace-runner.js';
