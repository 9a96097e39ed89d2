// Test page: a web platform and a ToolRunner in the page itself (directory handles, mounts, overlays
// and the shell need no worker), exposed as `window.tw` for Playwright's page.evaluate. Folders come
// from the Origin Private File System, whose handles are the same FileSystemDirectoryHandle API as
// showDirectoryPicker()'s.
import { Zip } from '@zenfs/archives';
import { Fetch } from '@zenfs/core/backends/fetch.js';
import { zipSync, strToU8 } from 'fflate';
import { ToolRunner, type ToolCall, type ToolCallResult } from '../../src/runner.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { createWebPlatform, type WebMountSource, type WebPlatform } from '../../web/index.js';
import { folderMount, folderWorkspace, opfsWorkspace, workspaceMount } from '../../web/folders.js';
import { justBash } from '../../web/shell.js';
import { zenfsMount } from '../../web/zenfs.js';

/** A mount or overlay base: an OPFS folder (created if missing) or a zip of the given files. */
/** `fetch`: a tree served over HTTP with its ZenFS index (test/pages/public/<name>/index.json). */
type SourceConfig = { opfs: string; readOnly?: boolean } | { zip: Record<string, string> } | { workspace: string; readOnly?: boolean } | { fetch: string };

interface PageConfig {
  workspace: string;
  /** `permission`: what the browser answers queryPermission / requestPermission for this folder (default: its real answer). */
  backend?: 'indexeddb' | 'memory' | 'opfs' | 'directory' | { opfs: string; permission?: PermissionState };
  mounts?: Record<string, SourceConfig>;
  overlay?: SourceConfig;
  files?: Record<string, string>;
  shell?: boolean | 'by-name';
}


let platform: WebPlatform | undefined;
let runner: ToolRunner | undefined;

async function folder(path: string): Promise<FileSystemDirectoryHandle> {
  let dir = await navigator.storage.getDirectory();
  for (const part of path.split('/').filter(Boolean)) dir = await dir.getDirectoryHandle(part, { create: true });
  return dir;
}

async function source(config: SourceConfig): Promise<WebMountSource> {
  if ('fetch' in config) {
    const baseUrl = new URL(`./${config.fetch}/`, location.href).href;
    return zenfsMount({ backend: Fetch, baseUrl, index: `${baseUrl}index.json` }, { readOnly: true });
  }
  if ('workspace' in config) return workspaceMount(config.workspace, config.readOnly ? { readOnly: true } : {});
  if ('opfs' in config) return folderMount(await folder(config.opfs), config.readOnly ? { readOnly: true } : {});
  const data = zipSync(Object.fromEntries(Object.entries(config.zip).map(([name, text]) => [name, strToU8(text)])));
  return zenfsMount({ backend: Zip, data: data.buffer });
}

/**
 * The folder handle with the browser's permission answer replaced: an Origin Private File System folder
 * is always granted, while a picked folder after a reload, or one whose access the user revoked, is
 * 'prompt' or 'denied' (which a headless browser cannot be made to answer).
 */
function withPermission(handle: FileSystemDirectoryHandle, permission: PermissionState | undefined): FileSystemDirectoryHandle {
  if (!permission) return handle;
  return new Proxy(handle, {
    get(target, key) {
      if (key === 'queryPermission' || key === 'requestPermission') return async () => permission;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

type Envelope = { ok: true; value: unknown } | { ok: false; code: string; message: string };
async function settle(fn: () => Promise<unknown>): Promise<Envelope> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    const e = error as { code?: string; message?: string; name?: string };
    return { ok: false, code: String(e.code ?? (e.name === 'TypeError' ? 'TypeError' : 'none')), message: String(e.message ?? error) };
  }
}

function current(): WebPlatform {
  if (!platform) throw new Error('tw.open() first');
  return platform;
}

const tw = {
  async open(config: PageConfig): Promise<Envelope> {
    await tw.close();
    return settle(async () => {
      // Folder backends, mounts and overlays are values of their own entry (toolhost/web/folders).
      const backend =
        typeof config.backend === 'object'
          ? folderWorkspace(withPermission(await folder(config.backend.opfs), config.backend.permission))
          : config.backend === 'opfs'
            ? opfsWorkspace()
            : config.backend === 'directory'
              ? folderWorkspace()
              : config.backend;
      const mounts: Record<string, WebMountSource> = {};
      for (const [path, m] of Object.entries(config.mounts ?? {})) mounts[path] = await source(m);
      platform = createWebPlatform({
        workspace: config.workspace,
        ...(backend ? { backend } : {}),
        ...(config.mounts ? { mounts } : {}),
        ...(config.overlay ? { overlay: { base: await source(config.overlay) } } : {}),
        ...(config.files ? { files: config.files } : {}),
        ...(config.shell === 'by-name' ? { shell: 'just-bash' as const } : config.shell ? { shell: justBash() } : {}),
      });
      runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
      await platform.ready();
      return { backend: platform.backend, capabilities: platform.capabilities };
    });
  },
  async call(calls: ToolCall[]): Promise<ToolCallResult[]> {
    if (!runner) throw new Error('tw.open() first');
    return JSON.parse(JSON.stringify(await runner.processToolCalls(calls))) as ToolCallResult[];
  },
  /** One call on the platform's filesystem (bytes come back as text). */
  fsCall: (method: string, args: unknown[]) =>
    settle(async () => {
      const value = await (current().fs as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!(...args);
      return value instanceof Uint8Array ? new TextDecoder().decode(value) : JSON.parse(JSON.stringify(value ?? null));
    }),
  changes: () => settle(() => current().changes!()),
  apply: () => settle(() => current().apply!()),
  discard: () => settle(() => current().discard!()),
  /** The runner's review of a conversation (on an overlay: the overlay's staged changes). */
  pending: (conversationId: string) => settle(() => runner!.pendingChanges(conversationId)),
  accept: (conversationId: string, selection: { paths?: string[]; hunks?: string[] }) => settle(() => runner!.accept(conversationId, selection)),
  reject: (conversationId: string, selection: { paths?: string[]; hunks?: string[]; reason?: string }) => settle(() => runner!.reject(conversationId, selection)),
  async close(): Promise<void> {
    await platform?.dispose();
    platform = undefined;
    runner = undefined;
  },
  /** Writes a file into an OPFS folder as another app would (not through toolhost). */
  async writeOutside(dir: string, path: string, text: string): Promise<void> {
    const parts = path.split('/');
    let d = await folder(dir);
    for (const p of parts.slice(0, -1)) d = await d.getDirectoryHandle(p, { create: true });
    const w = await (await d.getFileHandle(parts[parts.length - 1] as string, { create: true })).createWritable();
    await w.write(text);
    await w.close();
  },
  /** Every file under an OPFS folder, path → text, read straight from the handles. */
  async readOutside(dir: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    const walk = async (d: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
      for await (const [name, h] of (d as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
        if (h.kind === 'file') out[prefix + name] = await (await (h as FileSystemFileHandle).getFile()).text();
        else await walk(h as FileSystemDirectoryHandle, `${prefix}${name}/`);
      }
    };
    await walk(await folder(dir), '');
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
  },
  /** Removes an OPFS folder (as if it were deleted outside the browser). */
  async removeOutside(dir: string): Promise<void> {
    const parts = dir.split('/').filter(Boolean);
    const parent = await folder(parts.slice(0, -1).join('/'));
    await parent.removeEntry(parts[parts.length - 1] as string, { recursive: true });
  },
};

(globalThis as unknown as { tw: typeof tw }).tw = tw;
document.title = 'toolhost workspace page ready';
