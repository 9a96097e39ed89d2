// The toolhost playground: workspaces in IndexedDB, a tool worker per workspace, and panels to watch
// and drive tool calls. Everything toolhost-specific goes through the public API (`toolhost`,
// `toolhost/web`); the rest is plain DOM.
import { transfer } from 'comlink';
import { createStore, get, set } from 'idb-keyval';
import type { FunctionDeclaration, PermissionAnswer, ToolCall, ToolCallResult } from 'toolhost';
import { deleteWorkspace, listWorkspaces } from 'toolhost/web';
import { connect, type Connection } from './connection.js';
import { setupChat } from './chat.js';
import { setupJournal, type JournalPanel } from './journal.js';
import { byId, formatBytes, h, pretty } from './dom.js';
import { buildForm, validateArgs, type SchemaForm } from './forms.js';
import { fromDirectoryPicker, fromDrop, fromFileList, hasDirectoryPicker, fileFolderClash, importItems, isSkipped, stripCommonRoot, zipEntryPath, type ImportItem } from './importer.js';
import { CONFIG_DB, CONFIG_STORE, type AdminNotice, type ChangeView, type HistoryEntry, type Mode, type TreeEntry, type WorkerInfo, type WorkspaceConfig } from './protocol.js';
import { SESSION, type PlayedStep, type SessionResults } from './session.js';

interface ImportReport {
  workspace: string;
  files: number;
  bytes: number;
  ms: number;
  cancelled: boolean;
  /** Why the import failed (the new workspace was then removed). */
  error?: string;
  /** Zip entries left out because their path has a `..` segment. */
  refused?: string[];
}

/** What tests and curious people can read from the console: `playground.session`, `playground.lastImport`; `importGate` for tests. */
const playground = {
  ready: false,
  workspace: '',
  conversation: '',
  session: [] as PlayedStep[],
  lastImport: undefined as ImportReport | undefined,
  /**
   * Set (by a test) to a promise: an import waits for it after each chunk it wrote, so Cancel can be
   * pressed while one is surely under way. Unset, imports never wait.
   */
  importGate: undefined as Promise<void> | undefined,
  /** Completed tree refreshes (a test waits for the next one). */
  treeVersion: 0,
};
(globalThis as unknown as { playground: typeof playground }).playground = playground;
let chat: ReturnType<typeof setupChat> | undefined;
let journal: JournalPanel | undefined;

let conn: Connection | undefined;
let info: WorkerInfo | undefined;
let declarations: FunctionDeclaration[] = [];
let selected: FunctionDeclaration | undefined;
let form: SchemaForm | undefined;
let jsonMode = false;
let conversation = 'chat-1';
let running: AbortController | undefined;
let openFile: string | undefined;
let tree: TreeEntry[] = [];
const expanded = new Set<string>();
let sizes: Map<string, number> | undefined;
let changedPaths = new Set<string>();
const sessionResults: SessionResults = {};
/** Set by the first Run of the selected tool: until then a missing required argument is not an error yet. */
let attempted = false;
const configStore = createStore(CONFIG_DB, CONFIG_STORE);

// ------------------------------------------------------------------------------------------------
// Busy state
// ------------------------------------------------------------------------------------------------

let busyTimer: ReturnType<typeof setInterval> | undefined;
function setBusy(label: string | undefined): void {
  clearInterval(busyTimer);
  const busy = byId('busy');
  document.body.toggleAttribute('aria-busy', label !== undefined);
  document.body.classList.toggle('is-busy', label !== undefined);
  if (label === undefined) {
    busy.textContent = '';
    return;
  }
  const started = performance.now();
  const tick = (): void => {
    busy.textContent = `${label} ${((performance.now() - started) / 1000).toFixed(1)} s`;
  };
  tick();
  busyTimer = setInterval(tick, 200);
}

function say(text: string): void {
  byId('busy').textContent = text;
}

// ------------------------------------------------------------------------------------------------
// Workspaces
// ------------------------------------------------------------------------------------------------

const EXAMPLE: Record<string, string> = {
  'README.md': '# Example\n\nA small project to try the tools on. Import a real folder with "Import folder".\n',
  'src/greet.ts': "export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n",
  'src/main.ts': "import { greet } from './greet.js';\n\nconsole.log(greet('world'));\n",
};

async function refreshWorkspaceList(select?: string): Promise<string[]> {
  const names = await listWorkspaces();
  const el = byId<HTMLSelectElement>('workspace');
  el.replaceChildren(...names.map((name) => h('option', { value: name }, name)));
  if (select) el.value = select;
  return names;
}

type PermissionHandle = FileSystemDirectoryHandle & {
  queryPermission(descriptor: { mode: 'readwrite' }): Promise<PermissionState>;
  requestPermission(descriptor: { mode: 'readwrite' }): Promise<PermissionState>;
};

/** A folder workspace needs the browser's permission again after a reload: asked here, during the user's choice. */
async function folderAccess(name: string): Promise<void> {
  const folder = (await get<WorkspaceConfig>(name, configStore))?.folder as PermissionHandle | undefined;
  if (!folder) return;
  if ((await folder.queryPermission({ mode: 'readwrite' })) === 'granted') return;
  const state = await folder.requestPermission({ mode: 'readwrite' }).catch(() => 'prompt' as PermissionState);
  if (state !== 'granted') say(`The folder “${folder.name}” needs your permission again: choose the workspace again and allow access.`);
}

async function openWorkspace(name: string): Promise<void> {
  await folderAccess(name).catch(() => undefined);
  await conn?.close();
  conn = connect(name, onNotice);
  localStorage.setItem('playground:workspace', name);
  info = await conn.admin.info();
  declarations = await conn.runner.declarations();
  byId<HTMLSelectElement>('mode').value = info.mode;
  await refreshWorkspaceList(name);
  conversation = localStorage.getItem(`playground:${name}:conversation`) ?? 'chat-1';
  await refreshConversations();
  renderTools();
  renderCaps();
  openFile = undefined;
  sizes = undefined;
  changedPaths = new Set();
  byId('viewer').firstElementChild?.replaceChildren();
  byId('viewer-info').textContent = 'Choose a file in the tree.';
  resetSession();
  chat?.show();
  await refreshAll();
  // Last: a script (or a test) that waits for the workspace sees its tools and forms in place.
  playground.workspace = name;
}

async function createWorkspace(name: string, files?: Record<string, string>): Promise<void> {
  await openWorkspace(name);
  if (files && conn) {
    const encoded = Object.entries(files).map(([path, text]) => ({ path, data: new TextEncoder().encode(text).buffer as ArrayBuffer }));
    await conn.admin.writeFiles(transfer(encoded, encoded.map((f) => f.data)));
  }
}

async function uniqueName(base: string): Promise<string> {
  const names = new Set(await listWorkspaces());
  const clean = base.trim().slice(0, 60) || 'workspace';
  if (!names.has(clean)) return clean;
  for (let i = 2; ; i += 1) if (!names.has(`${clean}-${i}`)) return `${clean}-${i}`;
}

function confirmDialog(title: string, body: Node[]): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>('confirm-dialog');
  byId('confirm-title').textContent = title;
  byId('confirm-body').replaceChildren(...body);
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true }));
}

async function newWorkspaceDialog(): Promise<void> {
  const input = h('input', { id: 'new-ws-name', type: 'text', required: true, maxlength: 200, autocomplete: 'off' });
  const ok = await confirmDialog('New workspace', [h('label', { for: 'new-ws-name' }, 'Name'), input]);
  const name = input.value.trim();
  if (ok && name) await createWorkspace(await uniqueName(name));
}

async function deleteWorkspaceDialog(): Promise<void> {
  if (!conn) return;
  const name = conn.workspace;
  const ok = await confirmDialog(`Delete workspace “${name}”?`, [h('p', {}, 'Its files, tool state and call history are deleted from this browser.')]);
  if (!ok) return;
  setBusy(`Deleting ${name}…`);
  try {
    await removeWorkspace(name);
  } finally {
    setBusy(undefined);
  }
}

/** Deletes workspace `name` (the open one or not), then opens `prefer` if it is left, else another one, else a new example. */
async function removeWorkspace(name: string, prefer?: string): Promise<void> {
  if (conn?.workspace === name) {
    await conn.admin.destroy();
    await conn.close();
    conn = undefined;
  } else {
    await deleteWorkspace(name);
  }
  const names = (await listWorkspaces()).filter((n) => n !== name);
  const next = prefer && names.includes(prefer) ? prefer : names[0];
  if (next) await openWorkspace(next);
  else await createWorkspace('example', EXAMPLE);
}

async function exportZip(): Promise<void> {
  if (!conn) return;
  setBusy('Exporting…');
  try {
    const zip = await conn.admin.exportZip();
    const url = URL.createObjectURL(new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }));
    const link = h('a', { href: url, download: `${conn.workspace}.zip` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } finally {
    setBusy(undefined);
  }
}

// ------------------------------------------------------------------------------------------------
// Local folders and mounted zips
// ------------------------------------------------------------------------------------------------

/** Opens a local folder as a workspace, edited in place, or with review: writes wait in the browser until Apply. */
async function openFolder(): Promise<void> {
  const picker = (globalThis as { showDirectoryPicker?: (options: { mode: 'readwrite' }) => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker;
  if (!picker) {
    say('This browser cannot open a local folder (no File System Access API); use Import folder.');
    return;
  }
  let folder: FileSystemDirectoryHandle;
  try {
    folder = await picker({ mode: 'readwrite' });
  } catch {
    return; // the picker was closed
  }
  const review = byId<HTMLInputElement>('open-folder-review').checked;
  const name = await uniqueName(`${review ? 'review' : 'folder'}-${folder.name}`);
  await set(name, { folder, review } satisfies WorkspaceConfig, configStore);
  await openWorkspace(name);
  say(review ? `Reviewing “${folder.name}”: the agent's changes stay here until you apply them (Changes tab).` : `Working in the folder “${folder.name}” itself.`);
}

/** Mounts a .zip read-only at /workspace/<its name> in the open workspace. */
async function mountZip(file: File): Promise<void> {
  if (!conn) return;
  const name = file.name.replace(/\.zip$/i, '').replace(/[^\w.-]+/g, '-').slice(0, 60) || 'archive';
  const data = await file.arrayBuffer();
  const workspace = conn.workspace;
  const config = (await get<WorkspaceConfig>(workspace, configStore)) ?? {};
  await set(workspace, { ...config, zips: [...(config.zips ?? []).filter((z) => z.name !== name), { name, data }] } satisfies WorkspaceConfig, configStore);
  await conn.admin.reload();
  info = await conn.admin.info();
  renderCaps();
  say(`Mounted ${file.name} read-only at /workspace/${name}.`);
  await refreshAll(false);
}

// ------------------------------------------------------------------------------------------------
// Changes: per-file diffs of what the agent did
// ------------------------------------------------------------------------------------------------

function renderDiff(diff: string): HTMLElement {
  const lines = diff.replace(/\n$/, '').split('\n');
  return h(
    'pre',
    { class: 'diff', tabindex: '0' },
    ...lines.map((line) =>
      h('span', { class: line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : 'ctx' }, line),
    ),
  );
}

let changesAsked = 0;
async function refreshChanges(): Promise<void> {
  if (!conn || byId('changes-panel').hidden) return;
  void journal?.refresh().catch((error: unknown) => say(`Error: ${(error as Error).message}`));
  // Only the latest answer is shown: an older one (asked before a call finished) may arrive after it.
  const asked = (changesAsked += 1);
  const view: ChangeView = await conn.admin.changes();
  if (asked !== changesAsked) return;
  const count = view.changes.length;
  byId('changes-info').textContent = view.overlay
    ? count === 0
      ? 'No changes: the folder is as it was.'
      : `${count} file${count === 1 ? '' : 's'} changed in the review layer; the folder is untouched until you apply them.`
    : count === 0
      ? 'No file changed by a tool call since this workspace opened.'
      : `${count} file${count === 1 ? '' : 's'} changed by tool calls since this workspace opened.`;
  byId('changes-actions').hidden = !view.overlay || count === 0;
  byId('changes').replaceChildren(
    ...view.changes.map((change) =>
      h(
        'section',
        { class: 'change', 'data-path': change.path },
        h('h3', {}, change.path, ' ', h('span', { class: 'kind' }, `(${change.kind})`), ...(change.conflict ? [' ', h('span', { class: 'conflict' }, `conflict: ${change.conflict}`)] : [])),
        renderDiff(change.diff),
      ),
    ),
  );
}

async function applyChanges(): Promise<void> {
  if (!conn) return;
  const result = await conn.admin.applyChanges();
  say(result.conflicts.length > 0 ? `Nothing applied: ${result.conflicts.map((c) => `${c.path} (${c.reason})`).join('; ')}.` : `Applied ${result.applied.length} file${result.applied.length === 1 ? '' : 's'} to the folder.`);
  await refreshAll(false);
  await refreshChanges();
}

async function discardChanges(): Promise<void> {
  if (!conn) return;
  await conn.admin.discardChanges();
  say('Changes discarded.');
  await refreshAll(false);
  await refreshChanges();
}

// ------------------------------------------------------------------------------------------------
// Import
// ------------------------------------------------------------------------------------------------

let importing: AbortController | undefined;

/**
 * Imports `items` into a new workspace named after `root`, all or nothing: when a file cannot be
 * written or saved, the new workspace is removed and the message names the file and why. Cancel keeps
 * the chunks already written. `refused` names zip entries left out (their path has a `..` segment).
 */
async function runImport(root: string, items: ImportItem[], refused: string[] = []): Promise<void> {
  if (importing) return;
  const clash = fileFolderClash(items);
  if (clash) {
    playground.lastImport = { workspace: '', files: 0, bytes: 0, ms: 0, cancelled: false, error: clash, refused };
    say(`Import failed: ${clash}. Nothing was imported.`);
    return;
  }
  const controller = new AbortController();
  importing = controller;
  const started = performance.now();
  const previous = conn?.workspace;
  const name = await uniqueName(root);
  const panel = byId('import-progress');
  const bar = byId<HTMLProgressElement>('import-bar');
  const text = byId('import-text');
  bar.value = 0;
  text.textContent = `Preparing the import of ${items.length.toLocaleString('en')} files…`;
  panel.hidden = false;
  byId<HTMLButtonElement>('import-cancel').focus();
  let failure: string | undefined;
  try {
    await openWorkspace(name);
    const admin = conn?.admin;
    if (!admin) return;
    const report = await importItems({
      items,
      signal: controller.signal,
      afterChunk: () => playground.importGate,
      write: (files) => admin.writeFiles(transfer(files, files.map((f) => f.data))),
      onProgress: (p) => {
        bar.value = p.totalBytes > 0 ? p.bytes / p.totalBytes : p.files / Math.max(1, p.totalFiles);
        text.textContent = `Importing into “${name}”: ${p.files.toLocaleString('en')} of ${p.totalFiles.toLocaleString('en')} files (${formatBytes(p.bytes)} of ${formatBytes(p.totalBytes)})`;
      },
    });
    const ms = Math.round(performance.now() - started);
    playground.lastImport = { workspace: name, files: report.files, bytes: report.bytes, ms, cancelled: report.cancelled, refused };
    // An import is not a tool change: start the "changed" marks from here.
    sizes = undefined;
    changedPaths = new Set();
    expanded.clear();
    const skipped = refused.length > 0 ? ` Left out ${refused.length} zip ${refused.length === 1 ? 'entry' : 'entries'} whose path has a “..” segment: ${refused.join(', ')}.` : '';
    say(
      (report.cancelled
        ? `Import cancelled: ${report.files} of ${report.totalFiles} files are in “${name}”.`
        : `Imported ${report.files} files (${formatBytes(report.bytes)}) into “${name}” in ${(ms / 1000).toFixed(1)} s.`) + skipped,
    );
    await refreshAll();
  } catch (error) {
    failure = (error as Error).message;
  } finally {
    // The panel ends with the import, however it ends.
    panel.hidden = true;
    text.textContent = '';
    bar.value = 0;
    if (failure === undefined) importing = undefined;
  }
  if (failure !== undefined) await undoImport(name, previous, failure, refused, Math.round(performance.now() - started));
}

/** After a failed import: removes the new workspace, goes back to `previous` and says what failed and that nothing was kept. */
async function undoImport(name: string, previous: string | undefined, failure: string, refused: string[], ms: number): Promise<void> {
  let removed = true;
  try {
    await removeWorkspace(name, previous);
  } catch {
    removed = false;
  } finally {
    importing = undefined;
  }
  playground.lastImport = { workspace: name, files: 0, bytes: 0, ms, cancelled: false, error: failure, refused };
  say(`Import failed: ${failure}. ${removed ? `The new workspace “${name}” was removed: nothing was imported.` : `The new workspace “${name}” could not be removed: delete it from the workspace list.`}`);
}

/** Unpacks a .zip (in the open workspace's worker) and imports its files into a new workspace named after it. */
async function importZipFile(file: File): Promise<void> {
  if (importing || !conn) return;
  setBusy(`Unpacking ${file.name}…`);
  let entries: Array<{ path: string; data: ArrayBuffer }>;
  try {
    const buffer = await file.arrayBuffer();
    entries = await conn.admin.unzip(transfer(buffer, [buffer]));
  } catch (error) {
    setBusy(undefined);
    say(`Could not read ${file.name}: ${(error as Error).message}`);
    return;
  }
  setBusy(undefined);
  const refused: string[] = [];
  const kept: ImportItem[] = [];
  for (const entry of entries) {
    const path = zipEntryPath(entry.path);
    if (path === undefined) refused.push(entry.path);
    else kept.push({ path, size: entry.data.byteLength, bytes: async () => entry.data });
  }
  const items = stripCommonRoot(kept).filter((i) => !isSkipped(i.path));
  await runImport(file.name.replace(/\.zip$/i, ''), items, refused);
}

// ------------------------------------------------------------------------------------------------
// File tree and viewer
// ------------------------------------------------------------------------------------------------

/** Reloads the tree; with `mark`, files whose size changed since the last load are marked (tool changes, not imports). */
async function refreshTree(mark = true): Promise<void> {
  if (!conn || !info) return;
  tree = await conn.admin.tree();
  const next = new Map(tree.map((entry) => [entry.path, entry.size]));
  if (sizes && mark) {
    // Marks add up until the workspace is opened again or imported.
    for (const e of tree) if (e.type !== 'directory' && sizes.get(e.path) !== e.size) changedPaths.add(e.path);
    // Show where a change happened: open the folders above a changed file.
    for (const path of changedPaths) for (let dir = parent(path); dir.length > info.root.length; dir = parent(dir)) expanded.add(dir);
  }
  sizes = next;
  renderTree();
  playground.treeVersion += 1;
}

function parent(path: string): string {
  return path.slice(0, path.lastIndexOf('/'));
}

function renderTree(): void {
  if (!info) return;
  const children = new Map<string, TreeEntry[]>();
  for (const entry of tree) {
    const dir = parent(entry.path);
    let list = children.get(dir);
    if (!list) children.set(dir, (list = []));
    list.push(entry);
  }
  const files = tree.filter((e) => e.type !== 'directory');
  byId('tree-summary').textContent = `${files.length.toLocaleString('en')} files, ${formatBytes(files.reduce((s, e) => s + e.size, 0))}`;
  const renderDir = (dir: string): HTMLUListElement => {
    const list = (children.get(dir) ?? []).slice().sort((a, b) => (a.type === 'directory' ? 0 : 1) - (b.type === 'directory' ? 0 : 1) || a.path.localeCompare(b.path));
    return h(
      'ul',
      {},
      ...list.map((entry) => {
        const name = entry.path.slice(dir.length + 1);
        if (entry.type === 'directory') {
          const open = expanded.has(entry.path);
          return h(
            'li',
            {},
            h(
              'button',
              {
                type: 'button',
                class: 'dir',
                'aria-expanded': String(open),
                'data-path': entry.path,
                onclick: () => {
                  if (open) expanded.delete(entry.path);
                  else expanded.add(entry.path);
                  renderTree();
                  document.querySelector<HTMLButtonElement>(`#tree button[data-path="${CSS.escape(entry.path)}"]`)?.focus();
                },
              },
              `${name}/`,
            ),
            open ? renderDir(entry.path) : null,
          );
        }
        return h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              class: `file${changedPaths.has(entry.path) ? ' changed' : ''}`,
              'data-path': entry.path,
              'aria-current': entry.path === openFile ? 'true' : null,
              onclick: () => void viewFile(entry.path),
            },
            name,
            h('span', { class: 'size' }, ` ${formatBytes(entry.size)}`),
            changedPaths.has(entry.path) ? h('span', { class: 'badge' }, ' changed') : null,
          ),
        );
      }),
    );
  };
  byId('tree').replaceChildren(renderDir(info.root));
}

const MAX_VIEW_LINES = 20_000;

async function viewFile(path: string): Promise<void> {
  if (!conn) return;
  openFile = path;
  const view = await conn.admin.view(path).catch(() => undefined);
  const code = byId('viewer').firstElementChild as HTMLElement;
  if (!view) {
    byId('viewer-info').textContent = `${path} is gone.`;
    code.replaceChildren();
    return;
  }
  byId('viewer-title').textContent = path;
  if (view.binary) {
    byId('viewer-info').textContent = `${formatBytes(view.size)}, binary: not shown.`;
    code.replaceChildren();
  } else {
    const lines = view.text.split(/\r\n|\r|\n/);
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    byId('viewer-info').textContent = `${lines.length.toLocaleString('en')} lines, ${formatBytes(view.size)}${lines.length > MAX_VIEW_LINES ? ` (first ${MAX_VIEW_LINES.toLocaleString('en')} shown)` : ''}`;
    code.replaceChildren(...lines.slice(0, MAX_VIEW_LINES).map((line) => h('span', { class: 'line' }, line, '\n')));
  }
  renderTree();
}

// ------------------------------------------------------------------------------------------------
// Tool console
// ------------------------------------------------------------------------------------------------

function renderTools(): void {
  const list = byId('tool-list');
  list.replaceChildren(
    ...declarations.map((tool) =>
      h(
        'li',
        {},
        h(
          'button',
          { type: 'button', 'aria-pressed': String(tool.name === selected?.name), 'data-tool': tool.name, onclick: () => selectTool(tool.name) },
          h('code', {}, tool.name),
          h('span', { class: 'summary' }, tool.description.split(/(?<=\.)\s/)[0] ?? ''),
        ),
      ),
    ),
  );
  selectTool(selected && declarations.some((d) => d.name === selected?.name) ? selected.name : (declarations[0]?.name ?? ''));
}

function selectTool(name: string, args: Record<string, unknown> = {}): void {
  if (name !== selected?.name) attempted = false;
  selected = declarations.find((d) => d.name === name);
  for (const button of document.querySelectorAll<HTMLButtonElement>('#tool-list button')) button.setAttribute('aria-pressed', String(button.dataset.tool === name));
  if (!selected) return;
  byId('tool-name').textContent = selected.name;
  byId('tool-description').textContent = selected.description;
  form = buildForm(selected, () => {
    byId<HTMLTextAreaElement>('args-json').value = pretty(form?.read() ?? {});
    validateLive();
  });
  form.write(args);
  byId('form-fields').replaceChildren(form.element);
  byId<HTMLTextAreaElement>('args-json').value = pretty(args);
  validateLive();
}

function currentArgs(): { args?: unknown; error?: string } {
  if (!jsonMode) return { args: form?.read() ?? {} };
  const text = byId<HTMLTextAreaElement>('args-json').value.trim();
  if (text === '') return { args: {} };
  try {
    return { args: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: `not JSON: ${(error as Error).message}` };
  }
}

function validateLive(): void {
  const out = byId('validation');
  if (!selected) return;
  const { args, error } = currentArgs();
  let message = error ?? validateArgs(selected, args);
  // Before the first Run an empty form is not a mistake yet: missing arguments are reported after it.
  if (message !== null && !attempted && message.includes('missing required argument')) {
    out.textContent = 'Fill in the required arguments, then Run.';
    out.classList.remove('invalid');
    return;
  }
  out.textContent = message ?? 'Arguments are valid.';
  out.classList.toggle('invalid', message !== null);
}

function setJsonMode(on: boolean): void {
  if (on === jsonMode) return;
  if (!on) {
    const { args } = currentArgs();
    if (args && typeof args === 'object' && !Array.isArray(args)) form?.write(args as Record<string, unknown>);
  } else {
    byId<HTMLTextAreaElement>('args-json').value = pretty(form?.read() ?? {});
  }
  jsonMode = on;
  byId('as-form').setAttribute('aria-pressed', String(!on));
  byId('as-json').setAttribute('aria-pressed', String(on));
  byId('form-fields').hidden = on;
  byId('json-fields').hidden = !on;
  validateLive();
}

/** Shows one call's result; `ms`, its own time, only when it is known. */
function renderOutcome(target: HTMLElement, result: ToolCallResult, ms?: number): void {
  const time = ms === undefined ? '' : h('span', { class: 'time' }, `${ms.toFixed(0)} ms`);
  if ('error' in result) {
    target.replaceChildren(
      h('p', { class: 'outcome error' }, h('strong', { class: 'code-badge', 'data-code': result.code }, result.code), ' ', time),
      h('p', { class: 'error-message' }, result.error),
    );
  } else {
    target.replaceChildren(h('p', { class: 'outcome ok' }, h('strong', { class: 'ok-badge' }, 'ok'), ' ', time), h('pre', { class: 'json', tabindex: 0 }, pretty(result.result)));
  }
}

function timeoutOption(): number | undefined {
  const text = byId<HTMLInputElement>('timeout').value.trim();
  const n = Number(text);
  return text !== '' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Runs calls in the worker for the current conversation, with the busy state and the Cancel button. */
async function runCalls(calls: ToolCall[], label: string): Promise<{ results: ToolCallResult[]; ms: number }> {
  if (!conn) throw new Error('no workspace is open');
  running?.abort();
  const controller = new AbortController();
  running = controller;
  byId<HTMLButtonElement>('cancel').disabled = false;
  setBusy(`Running ${label}…`);
  const started = performance.now();
  try {
    const timeoutMs = timeoutOption();
    const results = await conn.runner.processToolCalls(calls, { conversationId: conversation, signal: controller.signal, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
    return { results, ms: performance.now() - started };
  } finally {
    if (running === controller) {
      running = undefined;
      byId<HTMLButtonElement>('cancel').disabled = true;
      setBusy(undefined);
    }
  }
}

async function runSelected(): Promise<void> {
  if (!selected) return;
  attempted = true;
  validateLive();
  const { args, error } = currentArgs();
  if (error) {
    validateLive();
    return;
  }
  // Sent even when live validation objects: the runner gives the same message, as a coded result.
  const { results, ms } = await runCalls([{ id: 'console', name: selected.name, args }], selected.name);
  if (results[0]) renderOutcome(byId('result'), results[0], ms);
}

async function runBatch(): Promise<void> {
  const out = byId('batch-result');
  let calls: unknown;
  try {
    calls = JSON.parse(byId<HTMLTextAreaElement>('batch-json').value);
  } catch (error) {
    out.replaceChildren(h('p', { class: 'error-message' }, `not JSON: ${(error as Error).message}`));
    return;
  }
  // The previous batch's results go as soon as this one starts.
  out.replaceChildren();
  let outcome: { results: ToolCallResult[]; ms: number };
  try {
    outcome = await runCalls(calls as ToolCall[], 'a batch');
  } catch (error) {
    // The host refused the batch as a whole (not an array, duplicate ids, ...): no call ran.
    out.replaceChildren(h('p', { class: 'outcome error' }, h('strong', { class: 'code-badge', 'data-code': 'host_error' }, 'batch refused')), h('p', { class: 'error-message', role: 'alert' }, (error as Error).message));
    return;
  }
  const { results, ms } = outcome;
  // processToolCalls times the batch, not each call: the time is shown once, for the whole batch.
  out.replaceChildren(
    h('p', { class: 'time' }, `${results.length} results in ${ms.toFixed(0)} ms`),
    ...results.map((result) => {
      const item = h('div', { class: 'batch-item' });
      renderOutcome(item, result);
      item.prepend(h('h4', {}, `${result.id ? `#${result.id} ` : ''}${result.name}`));
      return item;
    }),
  );
}

// ------------------------------------------------------------------------------------------------
// Scripted session
// ------------------------------------------------------------------------------------------------

function resetSession(): void {
  playground.session = [];
  for (const key of Object.keys(sessionResults)) delete sessionResults[key];
  renderSession();
}

function renderSession(): void {
  byId('session-steps').replaceChildren(
    ...SESSION.map((step, i) => {
      const played = playground.session[i];
      const status = played ? ('error' in played.outcome ? 'error' : 'ok') : i === playground.session.length ? 'next' : 'waiting';
      return h(
        'li',
        { 'data-step': step.id, 'data-status': status, class: `step ${status}` },
        h('p', {}, h('strong', {}, step.thought), ' '),
        played
          ? h(
              'details',
              {},
              h('summary', {}, h('code', {}, played.call.name), ' ', 'error' in played.outcome ? h('strong', { class: 'code-badge' }, played.outcome.code) : h('span', { class: 'ok-badge' }, 'ok'), ` ${played.ms.toFixed(0)} ms`),
              h('pre', { class: 'json' }, `${pretty(played.call.args)}\n→ ${pretty('error' in played.outcome ? { code: played.outcome.code, error: played.outcome.error } : played.outcome.result)}`),
            )
          : h('p', { class: 'hint' }, status === 'next' ? 'next' : 'waiting'),
      );
    }),
  );
  byId<HTMLButtonElement>('session-step').disabled = playground.session.length >= SESSION.length;
  byId<HTMLButtonElement>('session-all').disabled = playground.session.length >= SESSION.length;
}

async function sessionStep(): Promise<boolean> {
  const step = SESSION[playground.session.length];
  if (!step) return false;
  const call = step.call(sessionResults);
  const { results, ms } = await runCalls([call], call.name);
  const outcome = results[0] ?? { name: call.name, error: 'no result', code: 'execution_failed' as const };
  if ('error' in outcome && outcome.code === 'cancelled') return false;
  if (!('error' in outcome)) sessionResults[step.id] = outcome.result;
  playground.session = [...playground.session, { id: step.id, call, outcome, ms }];
  renderSession();
  return true;
}

async function sessionAll(): Promise<void> {
  while (playground.session.length < SESSION.length) {
    if (!(await sessionStep())) break;
  }
}

// ------------------------------------------------------------------------------------------------
// History, state, conversations, capabilities
// ------------------------------------------------------------------------------------------------

async function refreshConversations(): Promise<void> {
  if (!conn) return;
  const names = new Set(await conn.admin.conversations());
  names.add(conversation);
  // Conversations that only chatted (no tool call yet) are known to the chat panel, not the worker.
  for (const name of chat?.conversations() ?? []) names.add(name);
  const select = byId<HTMLSelectElement>('conversation');
  select.replaceChildren(...[...names].sort().map((name) => h('option', { value: name }, name)));
  select.value = conversation;
  playground.conversation = conversation;
}

async function refreshHistory(): Promise<void> {
  if (!conn) return;
  const entries: HistoryEntry[] = await conn.admin.history(conversation);
  byId('history-summary').textContent = `${entries.length} calls in ${conversation} (newest first; kept in this browser's IndexedDB).`;
  byId('history').replaceChildren(
    ...entries
      .slice()
      .reverse()
      .map((entry) => {
        const failed = 'error' in entry.result;
        return h(
          'li',
          { 'data-tool': entry.call.name, 'data-code': failed && 'code' in entry.result ? entry.result.code : 'ok' },
          h(
            'details',
            {},
            h(
              'summary',
              {},
              h('time', { dateTime: new Date(entry.time).toISOString() }, new Date(entry.time).toLocaleTimeString('en-GB')),
              ' ',
              h('code', {}, entry.call.name),
              ' ',
              failed && 'code' in entry.result ? h('strong', { class: 'code-badge' }, entry.result.code) : h('span', { class: 'ok-badge' }, 'ok'),
              ` ${entry.ms} ms`,
            ),
            h('pre', { class: 'json' }, pretty({ args: entry.call.args, ...('error' in entry.result ? { code: entry.result.code, error: entry.result.error } : { result: entry.result.result }) })),
          ),
        );
      }),
  );
}

async function refreshState(): Promise<void> {
  if (!conn) return;
  const view = await conn.admin.state(conversation);
  byId('state').textContent = pretty({ conversation, finished: view.finished, state: view.state, denials: view.denials });
}

function renderCaps(): void {
  if (!info) return;
  const yes = (on: boolean): string => (on ? 'yes' : 'no');
  const rows: Array<[string, string, string]> = [
    [
      'Files',
      `${info.folder ? `folder “${info.folder}”${info.review ? ' (review)' : ''}` : info.backend}, ${info.root}${info.mounts.length ? `; read-only: ${info.mounts.join(', ')}` : ''}`,
      info.folder
        ? info.review
          ? `The agent reads the folder “${info.folder}”; its writes stay in this browser's IndexedDB until you apply them (Changes tab).`
          : `The agent works in the folder “${info.folder}” itself; each write is on disk before its call's result returns, and changes made by other apps are seen by the next call.`
        : `Workspace “${info.workspace}” lives in this browser's IndexedDB; each call's writes are committed in one transaction before its result returns.`,
    ],
    ['Persistent', yes(info.capabilities.persistent), 'Files and tool state survive a reload and a browser restart.'],
    ['run_command', yes(info.capabilities.runCommand), 'A web page cannot start processes: run_command returns an empty result with a note, as the original WASM build does.'],
    ['web_search', yes(info.capabilities.webSearch), 'Search result pages cannot be fetched from a page (cross-origin, and there is no server): web_search returns { results: [], note }.'],
    ['Tabs share the workspace', yes(info.shared), info.shared ? 'One SharedWorker per workspace holds the only writer; every tab talks to it.' : 'No SharedWorker here: each tab has its own worker; use one tab per workspace.'],
    ['Stop a long grep', 'yes', 'grep_search matches in time linear in the text for every pattern ((a+)+$ included) and checks its deadline and Cancel between bounded steps, so no pattern can block the worker.'],
    ['start_subagent, generate_image', 'no', 'The tool worker has no model (the Chat tab’s model client runs on the page): these return an empty result with a note.'],
  ];
  byId('caps').querySelector('tbody')?.replaceChildren(...rows.map(([what, here, why]) => h('tr', {}, h('th', { scope: 'row' }, what), h('td', {}, here), h('td', {}, why))));
}

async function refreshAll(mark = true): Promise<void> {
  await Promise.all([refreshTree(mark), refreshHistory(), refreshState(), refreshConversations(), refreshChanges()]);
  if (openFile) await viewFile(openFile);
}

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshMarks = false;
/** Coalesces change notices; during an import (ours or another tab's) changes are not marked. */
function scheduleRefresh(byTool: boolean): void {
  // This tab's import refreshes once at its end.
  if (importing) return;
  refreshMarks ||= byTool;
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    const mark = refreshMarks;
    refreshMarks = false;
    void refreshAll(mark).catch(() => undefined);
  }, 60);
}

// ------------------------------------------------------------------------------------------------
// Worker notices: changes, mode, ask-mode dialogs
// ------------------------------------------------------------------------------------------------

let askOpen: string | undefined;
function onNotice(notice: AdminNotice): void {
  if (notice.kind === 'changed') scheduleRefresh(notice.conversationId !== null);
  else if (notice.kind === 'mode') byId<HTMLSelectElement>('mode').value = notice.mode;
  else if (notice.kind === 'ask') showAsk(notice.askId, notice.request);
  else if (notice.kind === 'asked' && notice.askId === askOpen) {
    askOpen = undefined;
    byId<HTMLDialogElement>('ask-dialog').close();
  } else if (notice.kind === 'deleted') say('This workspace was deleted (in this or another tab).');
}

function showAsk(askId: string, request: { tool: string; args: unknown; conversationId: string }): void {
  askOpen = askId;
  chat?.noteAsk(request);
  byId('ask-text').textContent = `${request.tool} wants to change the workspace (conversation ${request.conversationId}). Allow it?`;
  byId('ask-args').textContent = pretty(request.args);
  const dialog = byId<HTMLDialogElement>('ask-dialog');
  if (!dialog.open) dialog.showModal();
  byId<HTMLButtonElement>('ask-deny').focus();
}

function answerAsk(answer: PermissionAnswer): void {
  const askId = askOpen;
  askOpen = undefined;
  byId<HTMLDialogElement>('ask-dialog').close();
  if (askId) void conn?.admin.answer(askId, answer);
}

// ------------------------------------------------------------------------------------------------
// Tabs (WAI-ARIA tabs: arrows, Home, End)
// ------------------------------------------------------------------------------------------------

function setupTabs(): void {
  const tabs = [...document.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const activate = (tab: HTMLButtonElement, focus: boolean): void => {
    for (const other of tabs) {
      const on = other === tab;
      other.setAttribute('aria-selected', String(on));
      other.tabIndex = on ? 0 : -1;
      byId(other.getAttribute('aria-controls') ?? '').hidden = !on;
    }
    if (focus) tab.focus();
    if (tab.id === 'state-tab') void refreshState();
    if (tab.id === 'history-tab') void refreshHistory();
    if (tab.id === 'changes-tab') void refreshChanges();
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => activate(tab, false));
    tab.addEventListener('keydown', (event) => {
      const target = event.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length] : event.key === 'ArrowLeft' ? tabs[(i - 1 + tabs.length) % tabs.length] : event.key === 'Home' ? tabs[0] : event.key === 'End' ? tabs[tabs.length - 1] : undefined;
      if (target) {
        event.preventDefault();
        activate(target, true);
      }
    });
  });
}

// ------------------------------------------------------------------------------------------------
// Wiring
// ------------------------------------------------------------------------------------------------

function on(id: string, event: string, handler: (event: Event) => unknown): void {
  byId(id).addEventListener(event, (e) => {
    void Promise.resolve(handler(e)).catch((error: unknown) => say(`Error: ${(error as Error).message}`));
  });
}

async function main(): Promise<void> {
  setupTabs();
  journal = setupJournal({ connection: () => conn, conversation: () => conversation, say, renderDiff });
  chat = setupChat({ connection: () => conn, conversation: () => conversation });
  (playground as typeof playground & { chat?: unknown }).chat = chat.state;
  on('workspace', 'change', (e) => openWorkspace((e.target as HTMLSelectElement).value));
  on('ws-new', 'click', newWorkspaceDialog);
  on('ws-delete', 'click', deleteWorkspaceDialog);
  on('export', 'click', exportZip);
  on('import-folder', 'click', async () => {
    if (!hasDirectoryPicker()) {
      byId('import-dir-input').click();
      return;
    }
    const picked = await fromDirectoryPicker();
    if (picked) await runImport(picked.root, picked.items);
  });
  on('import-dir-input', 'change', async (e) => {
    const input = e.target as HTMLInputElement;
    if (!input.files || input.files.length === 0) return;
    const { root, items } = fromFileList(input.files);
    input.value = '';
    await runImport(root, items);
  });
  on('import-zip-input', 'change', async (e) => {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) await importZipFile(file);
  });
  on('import-cancel', 'click', () => importing?.abort());
  on('open-folder', 'click', openFolder);
  on('mount-zip-input', 'change', async (e) => {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) await mountZip(file);
  });
  on('changes-apply', 'click', applyChanges);
  on('changes-discard', 'click', discardChanges);
  on('mode', 'change', async (e) => {
    await conn?.admin.setMode((e.target as HTMLSelectElement).value as Mode);
  });
  on('conversation', 'change', async (e) => {
    conversation = (e.target as HTMLSelectElement).value;
    localStorage.setItem(`playground:${playground.workspace}:conversation`, conversation);
    resetSession();
    chat?.show();
    await refreshAll();
  });
  on('conv-new', 'click', async () => {
    const names = [...byId<HTMLSelectElement>('conversation').options].map((o) => o.value);
    let n = names.length + 1;
    while (names.includes(`chat-${n}`)) n += 1;
    conversation = `chat-${n}`;
    localStorage.setItem(`playground:${playground.workspace}:conversation`, conversation);
    resetSession();
    chat?.show();
    await refreshAll();
  });
  on('as-form', 'click', () => setJsonMode(false));
  on('as-json', 'click', () => setJsonMode(true));
  on('args-json', 'input', validateLive);
  on('tool-form', 'submit', (e) => {
    e.preventDefault();
    return runSelected();
  });
  on('cancel', 'click', () => running?.abort());
  on('run-batch', 'click', runBatch);
  on('session-step', 'click', sessionStep);
  on('session-all', 'click', sessionAll);
  on('session-reset', 'click', resetSession);
  on('ask-once', 'click', () => answerAsk('allow_once'));
  on('ask-session', 'click', () => answerAsk('allow_session'));
  on('ask-deny', 'click', () => answerAsk('deny'));
  byId('ask-dialog').addEventListener('cancel', (e) => {
    e.preventDefault();
    answerAsk('deny');
  });
  document.addEventListener('keydown', (event) => {
    // Escape cancels the running call, except inside a dialog (there it answers the dialog).
    if (event.key === 'Escape' && running && !(event.target as Element | null)?.closest('dialog')) running.abort();
  });

  // Drag and drop a folder or a .zip anywhere on the page.
  const hint = byId('drop-hint');
  document.addEventListener('dragover', (event) => {
    event.preventDefault();
    hint.hidden = false;
  });
  document.addEventListener('dragleave', (event) => {
    if (event.relatedTarget === null) hint.hidden = true;
  });
  document.addEventListener('drop', (event) => {
    event.preventDefault();
    hint.hidden = true;
    if (!event.dataTransfer) return;
    void fromDrop(event.dataTransfer).then((dropped) => (dropped.zip ? importZipFile(dropped.zip) : runImport(dropped.root, dropped.items)));
  });

  byId('batch-json').textContent = pretty([
    { id: '1', name: 'list_dir', args: { dir_path: '.' } },
    { id: '2', name: 'find_file', args: { pattern: '*.md' } },
    { id: '3', name: 'view_file', args: { file_path: 'README.md', end_line: '5' } },
  ]);

  const names = await listWorkspaces();
  const saved = localStorage.getItem('playground:workspace');
  if (names.length === 0) await createWorkspace('example', EXAMPLE);
  else await openWorkspace(saved && names.includes(saved) ? saved : (names[0] ?? 'example'));
  playground.ready = true;
  document.body.dataset.ready = 'true';
}

void main().catch((error: unknown) => {
  say(`The playground could not start: ${(error as Error).message}`);
  console.error(error);
});
