/**
 * toolhost/web: the browser adapter. `createWebPlatform` (inside a worker), `exposeToolRunner` (the
 * worker side) and `connectToolRunner` (the page side), the shared workspaces and their administration.
 * Importing it does no work and touches no global.
 */
export { createWebPlatform, type WebPlatform, type WebPlatformOptions, type WebMountSource } from './platform.js';
export { rememberedDirectory } from './directory.js';
export { listWorkspaces, exportWorkspace, deleteWorkspace } from './workspaces.js';
export { exposeToolRunner, connectToolRunner, type RemoteToolRunner, type ConnectToolRunnerOptions } from '../src/remote/remote.js';
export { exposeSharedToolRunner } from './shared.js';
export { connectWorkspaceRunner, type WorkspaceRunner, type WorkspaceRunnerOptions } from './workspace-runner.js';
