// What the playground page and its tool worker say to each other besides the toolhost runner bridge.
import type { JsonValue, PermissionAnswer, ToolCall, ToolCallResult, Denial } from 'toolhost';


/** Permission modes of the playground: the runner's policies plus plan mode and ask-mode dialogs. */
export type Mode = 'allow_all' | 'plan' | 'ask';

/** One path of the workspace, absolute (`/workspace/...`). */
export interface TreeEntry {
  path: string;
  type: 'file' | 'directory' | 'symlink';
  size: number;
}

/** Where the page keeps how each workspace was opened (idb-keyval store; one store per database). */
export const CONFIG_DB = 'toolhost-playground-workspaces';
export const CONFIG_STORE = 'config';

/** How a workspace was opened: on a local folder (in place, or under a review overlay) and the zips mounted in it. */
export interface WorkspaceConfig {
  folder?: FileSystemDirectoryHandle;
  /** Writes stay in the browser until Apply (an overlay over the folder). */
  review?: boolean;
  /** Zip archives mounted read-only at `/workspace/<name>`. */
  zips?: Array<{ name: string; data: ArrayBuffer }>;
}

/** What the agent changed: for a review workspace, its overlay's changes; else each file's state before this worker's first tool call on it. */
export interface ChangeView {
  overlay: boolean;
  changes: Array<{ path: string; kind: 'created' | 'modified' | 'deleted'; diff: string; conflict?: string }>;
}

export interface FileView {
  path: string;
  size: number;
  binary: boolean;
  text: string;
}

export interface WorkerInfo {
  workspace: string;
  mode: Mode;
  root: string;
  backend: string;
  /** The local folder's name, or null. */
  folder: string | null;
  /** True for a review workspace (writes stay in an overlay until Apply). */
  review: boolean;
  /** Paths of the zip archives mounted read-only. */
  mounts: string[];
  capabilities: { runCommand: boolean; webSearch: boolean; persistent: boolean };
  /** True in a SharedWorker (tabs share one runner), false in a per-tab dedicated worker. */
  shared: boolean;
}

/** One call in a conversation's history: the call, its result and the batch's time in ms. */
export interface HistoryEntry {
  time: number;
  ms: number;
  call: ToolCall;
  result: ToolCallResult;
}

export interface StateView {
  state: Record<string, JsonValue>;
  finished: boolean;
  denials: Denial[];
}

/** The worker's admin API (comlink). */
export interface AdminApi {
  info(): Promise<WorkerInfo>;
  setMode(mode: Mode): Promise<Mode>;
  /** Turns review of a conversation's writes on or off (with `on`); answers whether it is reviewed. */
  review(conversationId: string, on?: boolean): Promise<boolean>;
  answer(askId: string, answer: PermissionAnswer): Promise<boolean>;
  tree(): Promise<TreeEntry[]>;
  view(path: string): Promise<FileView>;
  /** Writes files (paths relative to the workspace root) and commits them in one transaction; returns bytes written. */
  writeFiles(files: Array<{ path: string; data: ArrayBuffer }>): Promise<number>;
  unzip(zip: ArrayBuffer): Promise<Array<{ path: string; data: ArrayBuffer }>>;
  exportZip(): Promise<Uint8Array>;
  changes(): Promise<ChangeView>;
  /** Writes a review workspace's changes to its folder (nothing when there is a conflict: they are listed). */
  applyChanges(): Promise<{ applied: string[]; conflicts: Array<{ path: string; reason: string }> }>;
  discardChanges(): Promise<void>;
  /** Rebuilds the platform after the page changed the workspace's configuration (a zip mounted). */
  reload(): Promise<void>;
  state(conversationId: string): Promise<StateView>;
  history(conversationId: string): Promise<HistoryEntry[]>;
  conversations(): Promise<string[]>;
  destroy(): Promise<void>;
}

/** Notices the worker broadcasts to every tab's admin port. */
export type AdminNotice =
  | { kind: 'changed'; conversationId: string | null }
  | { kind: 'mode'; mode: Mode }
  | { kind: 'ask'; askId: string; request: { tool: string; args: unknown; conversationId: string } }
  | { kind: 'asked'; askId: string }
  | { kind: 'deleted' };
