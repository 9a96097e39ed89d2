// What the playground page and its tool worker say to each other besides the toolhost runner bridge.
import type { RegexScanRequest, JsonValue, PermissionAnswer, ToolCall, ToolCallResult, Denial } from 'toolhost';

import type { RegexAnswer } from './regex-sandbox.js';

/** Permission modes of the playground: the runner's policies plus plan mode and ask-mode dialogs. */
export type Mode = 'allow_all' | 'read_only' | 'plan' | 'ask';

/** One path of the workspace, absolute (`/workspace/...`). */
export interface TreeEntry {
  path: string;
  type: 'file' | 'directory' | 'symlink';
  size: number;
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
  capabilities: { runCommand: boolean; webSearch: boolean; persistent: boolean };
  /** True in a SharedWorker (tabs share one runner), false in a per-tab dedicated worker. */
  shared: boolean;
  /** True when grep's regular expressions run in a worker that can be stopped (see regex-sandbox.ts). */
  regexSandbox: boolean;
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
  answer(askId: string, answer: PermissionAnswer): Promise<boolean>;
  /** A tab's answer to a `regex` notice. */
  scanned(scanId: string, answer: RegexAnswer): Promise<boolean>;
  tree(): Promise<TreeEntry[]>;
  view(path: string): Promise<FileView>;
  /** Writes files (paths relative to the workspace root) and commits them in one transaction; returns bytes written. */
  writeFiles(files: Array<{ path: string; data: ArrayBuffer }>): Promise<number>;
  unzip(zip: ArrayBuffer): Promise<Array<{ path: string; data: ArrayBuffer }>>;
  exportZip(): Promise<Uint8Array>;
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
  | { kind: 'deleted' }
  | { kind: 'regex'; scanId: string; request: RegexScanRequest };
