// The playground's tool worker: one per workspace, a SharedWorker where the browser has one so that
// every tab on a workspace talks to the same runner and filesystem (one writer per workspace), else a
// dedicated worker. Each connection says first what it is: `runner` (served with exposeToolRunner) or
// `admin` (the playground's own calls: tree, file view, import, export, state, history, mode).
import { expose, transfer, type Endpoint } from 'comlink';
import { createStore, get, set, keys, delMany } from 'idb-keyval';
import { unzipSync, zipSync } from 'fflate';
import {
  ToolError,
  ToolRunner,
  defineTool,
  type AnyTool,
  type CallOptions,
  type Denial,
  type ExecuteTool,
  type FunctionDeclaration,
  type PermissionAnswer,
  type PermissionPolicy,
  type PermissionRequest,
  type RegisterOptions,
  type Tool,
  type ToolCall,
  type ToolCallResult,
  toolProfiles,
} from 'toolhost';
import { createWebPlatform, deleteWorkspace, exposeToolRunner, type WebMountSource, type WebPlatform } from 'toolhost/web';
import { folderMount, folderWorkspace } from 'toolhost/web/folders';
import { zenfsMount } from 'toolhost/web/zenfs';
import { Zip } from '@zenfs/archives';
import { formatBytes } from './dom.js';
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff/lib/patch/create.js';
import { CONFIG_DB, CONFIG_STORE, type AdminApi, type AdminNotice, type ChangeView, type FileView, type HistoryEntry, type Mode, type TreeEntry, type WorkerInfo, type WorkspaceConfig } from './protocol.js';

// save_memory below has a schema of its own, compiled at run time (ajv loads on that first compile).

const workspace = self.name.replace(/^toolhost-playground:/, '') || 'default';
const shared = 'onconnect' in self;
const ROOT = '/workspace';
// How the page opened this workspace: a local folder (edited in place, or under a review overlay) and
// the zip archives mounted read-only in it. Read when the worker starts and on `reload()`.
const configStore = createStore(CONFIG_DB, CONFIG_STORE);
let config: WorkspaceConfig = {};
let platform: WebPlatform;

function buildPlatform(next: WorkspaceConfig): WebPlatform {
  const mounts: Record<string, WebMountSource> = {};
  for (const zip of next.zips ?? []) mounts[`${ROOT}/${zip.name}`] = zenfsMount({ backend: Zip, data: zip.data }, { readOnly: true });
  const folder = next.folder;
  return createWebPlatform({
    workspace,
    // Local folders (in place, or under a review overlay) and zip mounts: values of their own entries.
    ...(folder ? (next.review ? { overlay: { base: folderMount(folder) } } : { backend: folderWorkspace(folder) }) : {}),
    ...(next.zips?.length ? { mounts } : {}),
  });
}

// Call history lives in its own IndexedDB store (not in tool state), keyed [workspace, conversation].
const historyStore = createStore('toolhost-playground', 'history');
const HISTORY_LIMIT = 200;

/** A tool of the playground's own: it keeps facts in tool state, so the state inspector has something to show. */
const saveMemory = defineTool({
  name: 'save_memory',
  description: 'Remember a fact for the rest of this conversation (kept in tool state, survives a reload).',
  inputSchema: {
    type: 'object',
    properties: { fact: { type: 'string', description: 'The fact to remember, one sentence.' } },
    required: ['fact'],
    additionalProperties: false,
  } as const,
  execute: async ({ fact }, ctx) => {
    const memories = [...(ctx.getState<string[]>('memories') ?? []), fact];
    ctx.setState('memories', memories);
    return { saved: fact, count: memories.length };
  },
});

// toolhost's own tools plus the Anthropic and OpenAI profiles (their names do not collide); the chat panel
// declares the set of the model it talks to. Gemini CLI's set shares names with toolhost's (grep_search,
// web_fetch), so it would need a runner of its own.
const tools: ExecuteTool[] = toolProfiles.combine(toolProfiles.toolhost(), toolProfiles.anthropic(), toolProfiles.openai(), [saveMemory as ExecuteTool]);
const adminPorts = new Set<MessagePort>();
const broadcast = (notice: AdminNotice): void => {
  for (const port of adminPorts) port.postMessage(notice);
};

// Ask mode: the question goes to every tab on this workspace; the first answer wins, the others close their dialog.
const asks = new Map<string, (answer: PermissionAnswer) => void>();
let askCounter = 0;
function askTabs(request: PermissionRequest): Promise<PermissionAnswer> {
  if (adminPorts.size === 0) return Promise.resolve('deny');
  const askId = `ask-${(askCounter += 1)}`;
  return new Promise((resolve) => {
    asks.set(askId, resolve);
    broadcast({ kind: 'ask', askId, request: { tool: request.tool, args: request.args, conversationId: request.conversationId } });
  });
}

let mode: Mode = 'allow_all';
const finished = new Set<string>();

/** The runner's permission policy for a mode (plan mode is the runner's own switch). */
function policyOf(next: Mode): PermissionPolicy {
  return next === 'ask' ? { ask: askTabs } : 'allow_all';
}

/** Conversations whose writes are staged for review (the Changes tab's "Review changes" switch), in memory. */
const reviewed = new Set<string>();

/**
 * One runner per platform: its change journal and the staged changes of reviewed conversations live in
 * it, so a mode change switches its permissions and plan mode instead of building a new one.
 */
function buildRunner(next: Mode): ToolRunner {
  return new ToolRunner({
    platform,
    tools,
    permissions: policyOf(next),
    planMode: next === 'plan',
    review: (conversationId) => reviewed.has(conversationId),
    onFinish: ({ conversationId }) => {
      finished.add(conversationId);
    },
  });
}
let current: ToolRunner;
/** Refusals recorded by the runners of earlier platforms (a reload builds a new runner, with its own denialTracker). */
const earlierDenials: Denial[] = [];

async function record(conversationId: string, calls: readonly ToolCall[], results: ToolCallResult[], ms: number): Promise<void> {
  const key = [workspace, conversationId];
  const entries = ((await get<HistoryEntry[]>(key, historyStore)) ?? []).concat(
    results.map((result, i) => ({ time: Date.now(), ms: Math.round(ms), call: calls[i] ?? { name: result.name, args: null }, result })),
  );
  await set(key, entries.slice(-HISTORY_LIMIT), historyStore);
}

/**
 * The runner the tabs talk to: a ToolRunner that forwards to the runner of the current mode, records
 * every call in the history and tells every tab that the workspace may have changed.
 */
/** Each changed file's content before this worker's first tool call on it (null: it did not exist). */
const before = new Map<string, Uint8Array | null>();
async function readOrNull(path: string): Promise<Uint8Array | null> {
  try {
    return await platform.fs.readFile(path);
  } catch {
    return null;
  }
}
const CHANGING = new Set(['create_file', 'edit_file', 'generate_image']);
async function rememberBefore(calls: readonly ToolCall[]): Promise<void> {
  if (!Array.isArray(calls)) return;
  for (const call of calls) {
    const file = (call?.args as { file_path?: unknown } | null)?.file_path;
    if (!CHANGING.has(call?.name) || typeof file !== 'string') continue;
    let path: string;
    try {
      path = file.startsWith('/') ? file : inside(file);
    } catch {
      continue; // a path the runner refuses itself
    }
    if (!before.has(path)) before.set(path, await readOrNull(path));
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });
function textOf(bytes: Uint8Array | null): string | undefined {
  if (!bytes) return '';
  try {
    return bytes.includes(0) ? undefined : decoder.decode(bytes);
  } catch {
    return undefined;
  }
}
function diffOf(path: string, a: Uint8Array | null, b: Uint8Array | null): string {
  const x = textOf(a);
  const y = textOf(b);
  if (x === undefined || y === undefined) return `Binary file ${path} changed\n`;
  return formatPatch(structuredPatch(path, path, x, y, '', '', { context: 3 }), FILE_HEADERS_ONLY);
}

class PlaygroundRunner extends ToolRunner {
  override declarations(): FunctionDeclaration[] {
    return current.declarations();
  }
  override async register(tool: AnyTool, options?: RegisterOptions): Promise<void> {
    await current.register(tool, options);
  }
  override async registerAll(tools: readonly AnyTool[], options?: RegisterOptions): Promise<void> {
    await current.registerAll(tools, options);
  }
  override unregister(name: string): boolean {
    return current.unregister(name);
  }
  override execute<Output>(tool: ExecuteTool<never, Output> | Tool<never, Output>, args: unknown, options?: CallOptions): Promise<Output>;
  override execute(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
  override async execute(target: string | AnyTool, args: unknown, options: CallOptions = {}): Promise<unknown> {
    const name = typeof target === 'string' ? target : target.name;
    const [result] = await this.processToolCalls([{ name, args }], options);
    if (result && 'error' in result) throw new ToolError(result.code, result.error);
    return result?.result;
  }
  override async processToolCalls(calls: readonly ToolCall[], options: CallOptions = {}): Promise<ToolCallResult[]> {
    const started = performance.now();
    if (!platform.changes) await rememberBefore(calls).catch(() => undefined);
    const results = await current.processToolCalls(calls, options);
    const conversationId = options.conversationId ?? current.conversationId;
    if (Array.isArray(calls)) await record(conversationId, calls, results, performance.now() - started).catch(() => undefined);
    broadcast({ kind: 'changed', conversationId });
    return results;
  }
  // The journal, review and replay of the current runner (the page reaches them through the bridge).
  override changes(...args: Parameters<ToolRunner['changes']>): ReturnType<ToolRunner['changes']> {
    return current.changes(...args);
  }
  override async rewind(...args: Parameters<ToolRunner['rewind']>): ReturnType<ToolRunner['rewind']> {
    const result = await current.rewind(...args);
    if (args[1]?.dryRun !== true) broadcast({ kind: 'changed', conversationId: args[0] });
    return result;
  }
  override cassette(...args: Parameters<ToolRunner['cassette']>): ReturnType<ToolRunner['cassette']> {
    return current.cassette(...args);
  }
  override replay(...args: Parameters<ToolRunner['replay']>): ReturnType<ToolRunner['replay']> {
    return current.replay(...args);
  }
  override pendingChanges(...args: Parameters<ToolRunner['pendingChanges']>): ReturnType<ToolRunner['pendingChanges']> {
    return current.pendingChanges(...args);
  }
  override async accept(...args: Parameters<ToolRunner['accept']>): ReturnType<ToolRunner['accept']> {
    const result = await current.accept(...args);
    broadcast({ kind: 'changed', conversationId: args[0] });
    return result;
  }
  override async reject(...args: Parameters<ToolRunner['reject']>): ReturnType<ToolRunner['reject']> {
    const result = await current.reject(...args);
    broadcast({ kind: 'changed', conversationId: args[0] });
    return result;
  }
}
let served: PlaygroundRunner;

/** (Re)builds the platform from the stored configuration; the runners follow. */
async function build(): Promise<void> {
  const previous = platform as WebPlatform | undefined;
  config = (await get<WorkspaceConfig>(workspace, configStore).catch(() => undefined)) ?? {};
  platform = buildPlatform(config);
  if ((current as ToolRunner | undefined) !== undefined) earlierDenials.push(...current.denialTracker.list());
  current = buildRunner(mode);
  served ??= new PlaygroundRunner({ platform, journal: false });
  knownDirs.clear();
  knownDirs.add(ROOT);
  before.clear();
  if (previous) await previous.dispose();
}
const setup = build();

async function walk(dir: string, out: TreeEntry[]): Promise<void> {
  const names = (await platform.fs.readdir(dir)).sort();
  for (const name of names) {
    const path = `${dir}/${name}`;
    const stat = await platform.fs.lstat(path);
    if (stat.isDirectory()) {
      out.push({ path, type: 'directory', size: 0 });
      await walk(path, out);
    } else {
      out.push({ path, type: stat.isSymbolicLink() ? 'symlink' : 'file', size: Number(stat.size) });
    }
  }
}

/**
 * The workspace path of an imported file. `\\` counts as `/`, a leading `/` and `.` segments are dropped;
 * a `..` segment is refused (the page leaves such zip entries out and names them), never resolved.
 */
function inside(path: string): string {
  const parts = path.replace(/\\/g, '/').split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) throw new Error(`“${path}” was not imported: its path has a “..” segment`);
  if (parts.length === 0) throw new Error(`“${path}” is not a file path inside the workspace`);
  return `${ROOT}/${parts.join('/')}`;
}

/** The first folder above `path` (inside the workspace) that is a file, if one is. */
async function fileInTheWay(path: string): Promise<string | undefined> {
  const parts = path.slice(ROOT.length + 1).split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i += 1) {
    const dir = `${ROOT}/${parts.slice(0, i).join('/')}`;
    const stat = await platform.fs.lstat(dir).catch(() => undefined);
    if (!stat) return undefined;
    if (!stat.isDirectory()) return dir.slice(ROOT.length + 1);
  }
  return undefined;
}

/** Writes one imported file; a failure is said in plain words naming it (and the file or folder in its way). */
async function writeImported(file: { path: string; data: ArrayBuffer }): Promise<void> {
  const path = inside(file.path);
  const relative = path.slice(ROOT.length + 1);
  try {
    await ensureDir(path.slice(0, path.lastIndexOf('/')));
    await platform.fs.writeFile(path, new Uint8Array(file.data));
  } catch (error) {
    const blocker = await fileInTheWay(path);
    if (blocker) throw new Error(`“${relative}” could not be written: “${blocker}” is a file, so it cannot also be the folder “${blocker}/” that “${relative}” is in`);
    const stat = await platform.fs.lstat(path).catch(() => undefined);
    if (stat?.isDirectory()) throw new Error(`“${relative}” could not be written: a folder “${relative}/” is already there, so it cannot also be a file`);
    throw new Error(`“${relative}” could not be written: ${(error as Error).message}`);
  }
}

/** Saves a chunk of imported files; a failure names the file (for “too large”, the chunk's largest, with its size). */
async function flushImported(files: Array<{ path: string; data: ArrayBuffer }>): Promise<void> {
  try {
    await platform.flush();
  } catch (error) {
    const message = (error as Error).message;
    const largest = files.reduce((a, b) => (b.data.byteLength > a.data.byteLength ? b : a));
    const max = /max=(\d+)/.exec(message)?.[1];
    if (/too large/i.test(message)) {
      throw new Error(`“${largest.path}” (${formatBytes(largest.data.byteLength)}) is too large for this browser's storage${max ? ` (IndexedDB takes at most ${formatBytes(Number(max))} at once)` : ''}`);
    }
    if (/quota/i.test(message)) {
      const what = files.length === 1 ? `“${largest.path}” (${formatBytes(largest.data.byteLength)})` : `${files.length} files, the largest “${largest.path}” (${formatBytes(largest.data.byteLength)}),`;
      throw new Error(`${what} did not fit: this browser's storage for the playground is full (its quota is used up)`);
    }
    const which = files.length === 1 ? `“${largest.path}”` : `${files.length} files (“${files[0]?.path}” … “${files.at(-1)?.path}”)`;
    throw new Error(`${which} could not be saved in this browser's storage: ${message}`);
  }
}

const knownDirs = new Set<string>([ROOT]);
async function ensureDir(dir: string): Promise<void> {
  if (knownDirs.has(dir)) return;
  await platform.fs.mkdir(dir, { recursive: true });
  knownDirs.add(dir);
}

const admin: AdminApi = {
  async info(): Promise<WorkerInfo> {
    await platform.ready();
    return {
      workspace,
      mode,
      root: ROOT,
      backend: platform.backend,
      folder: config.folder?.name ?? null,
      review: platform.changes !== undefined,
      mounts: (config.zips ?? []).map((z) => `${ROOT}/${z.name}`),
      capabilities: { ...platform.capabilities },
      shared,
    };
  },
  async setMode(next) {
    if (next !== mode) {
      mode = next;
      current.setPermissions(policyOf(next));
      current.setPlanMode(next === 'plan');
      broadcast({ kind: 'mode', mode });
    }
    return mode;
  },
  async review(conversationId, on) {
    if (typeof on === 'boolean' && on !== reviewed.has(conversationId)) {
      if (on) reviewed.add(conversationId);
      else reviewed.delete(conversationId);
      broadcast({ kind: 'changed', conversationId });
    }
    return reviewed.has(conversationId);
  },
  async answer(askId, answer) {
    const resolve = asks.get(askId);
    if (!resolve) return false;
    asks.delete(askId);
    resolve(answer);
    broadcast({ kind: 'asked', askId });
    return true;
  },
  async tree() {
    const out: TreeEntry[] = [];
    await walk(ROOT, out);
    return out;
  },
  async view(path): Promise<FileView> {
    const bytes = await platform.fs.readFile(path);
    const head = bytes.subarray(0, 8192);
    if (head.includes(0)) return { path, size: bytes.byteLength, binary: true, text: '' };
    try {
      return { path, size: bytes.byteLength, binary: false, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
    } catch {
      return { path, size: bytes.byteLength, binary: true, text: '' };
    }
  },
  async writeFiles(files) {
    let bytes = 0;
    for (const file of files) {
      await writeImported(file);
      bytes += file.data.byteLength;
    }
    // One IndexedDB transaction per chunk: durable before the page counts the chunk as imported.
    if (files.length > 0) await flushImported(files);
    if (files.length > 0) broadcast({ kind: 'changed', conversationId: null });
    return bytes;
  },
  async unzip(zip) {
    const entries = unzipSync(new Uint8Array(zip));
    const files = Object.entries(entries)
      .filter(([name]) => !name.endsWith('/'))
      .map(([path, data]) => ({ path, data: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer }));
    return transfer(files, files.map((f) => f.data));
  },
  async changes(): Promise<ChangeView> {
    if (platform.changes) {
      return { overlay: true, changes: (await platform.changes()).map((c) => ({ path: `${ROOT}/${c.path}`, kind: c.kind, diff: c.diff, ...(c.conflict ? { conflict: c.conflict } : {}) })) };
    }
    const out: ChangeView['changes'] = [];
    for (const [path, was] of [...before].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const now = await readOrNull(path);
      if (was && now && was.length === now.length && was.every((b, i) => b === now[i])) continue;
      if (!was && !now) continue;
      out.push({ path, kind: !was ? 'created' : !now ? 'deleted' : 'modified', diff: diffOf(path.slice(ROOT.length + 1), was, now) });
    }
    return { overlay: false, changes: out };
  },
  async applyChanges() {
    if (!platform.apply) throw new Error('only a review workspace (a folder opened with review) has changes to apply');
    const result = await platform.apply();
    broadcast({ kind: 'changed', conversationId: null });
    return result;
  },
  async discardChanges() {
    if (!platform.discard) throw new Error('only a review workspace (a folder opened with review) has changes to discard');
    await platform.discard();
    broadcast({ kind: 'changed', conversationId: null });
  },
  async reload() {
    await build();
    broadcast({ kind: 'changed', conversationId: null });
  },
  async exportZip() {
    const out: TreeEntry[] = [];
    await walk(ROOT, out);
    const files: Record<string, Uint8Array> = {};
    for (const entry of out) {
      if (entry.type === 'file') files[entry.path.slice(ROOT.length + 1)] = new Uint8Array(await platform.fs.readFile(entry.path));
    }
    const zip = zipSync(files, { level: 6 });
    return transfer(zip, [zip.buffer]);
  },
  async state(conversationId) {
    return { state: await current.getState(conversationId), finished: finished.has(conversationId), denials: [...earlierDenials, ...current.denialTracker.list()].filter((d) => d.conversationId === conversationId).slice(-50) };
  },
  async history(conversationId) {
    return (await get<HistoryEntry[]>([workspace, conversationId], historyStore)) ?? [];
  },
  async conversations() {
    const all = (await keys(historyStore)) as unknown as Array<[string, string]>;
    return all.filter((key) => Array.isArray(key) && key[0] === workspace).map((key) => key[1]);
  },
  async destroy() {
    const all = (await keys(historyStore)) as unknown as Array<[string, string]>;
    await delMany(all.filter((key) => Array.isArray(key) && key[0] === workspace), historyStore);
    await platform.dispose();
    await deleteWorkspace(workspace);
    broadcast({ kind: 'deleted' });
    setTimeout(() => self.close(), 50);
  },
};

/** Serves one connection; its first message names its role. */
function serve(port: MessagePort): void {
  port.addEventListener(
    'message',
    (event) => {
      const role = (event.data as { playground?: string } | null)?.playground;
      if (role === 'admin') {
        adminPorts.add(port);
        expose(admin, port as unknown as Endpoint);
      } else if (role === 'runner') {
        exposeToolRunner(served, port as unknown as Endpoint);
      }
    },
    { once: true },
  );
  // Messages wait in the port until the platform is built (the configuration is read asynchronously).
  void setup.then(() => port.start());
}

const scope = self as unknown as { onconnect?: ((event: MessageEvent) => void) | null; postMessage?: unknown };
if ('onconnect' in scope) {
  scope.onconnect = (event) => {
    const port = event.ports[0];
    if (port) serve(port);
  };
} else {
  // A dedicated worker (no SharedWorker in this browser): the page hands over two MessagePorts.
  self.addEventListener('message', (event) => {
    for (const port of (event as MessageEvent).ports) serve(port);
  });
}
