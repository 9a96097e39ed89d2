// Bringing a folder into a workspace: from a directory picker, an <input webkitdirectory>, a drop or a
// .zip. Files are read and sent to the worker in chunks (one IndexedDB transaction each), with the page
// yielding between chunks so it keeps painting, and a signal to stop.
import { nextFrame } from './dom.js';

/** A file to import: its path relative to the workspace root and a way to get its bytes. */
export interface ImportItem {
  path: string;
  size: number;
  bytes(): Promise<ArrayBuffer>;
}

/** Folders never worth importing into an agent's workspace. */
const SKIPPED = /(^|\/)(\.git|node_modules)(\/|$)/;

export function isSkipped(path: string): boolean {
  return SKIPPED.test(path);
}

/** Drops the folder name every path starts with (`src/a.ts` → `a.ts`) when all share it. */
export function stripCommonRoot(items: ImportItem[]): ImportItem[] {
  const first = items[0]?.path.split('/')[0];
  if (!first || !items.every((item) => item.path.startsWith(`${first}/`))) return items;
  return items.map((item) => ({ ...item, path: item.path.slice(first.length + 1) }));
}

/**
 * A zip entry's path in the workspace: `\\` counts as `/`, a leading `/` and `.` segments are dropped.
 * An entry with a `..` segment is refused (undefined), even one that would stay inside, so that no
 * entry ever lands somewhere other than the path it names.
 */
export function zipEntryPath(raw: string): string | undefined {
  const parts = raw.replace(/\\/g, '/').split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.includes('..')) return undefined;
  return parts.join('/');
}

/**
 * The first path of `items` that is both a file and a folder (`e` and `e/inner.txt`), said in plain
 * words naming both; undefined when there is none.
 */
export function fileFolderClash(items: ImportItem[]): string | undefined {
  const files = new Set(items.map((item) => item.path));
  for (const item of items) {
    const parts = item.path.split('/');
    for (let i = 1; i < parts.length; i += 1) {
      const dir = parts.slice(0, i).join('/');
      if (files.has(dir)) return `it holds a file “${dir}” and also “${item.path}”, which needs a folder of that name: a path cannot be both`;
    }
  }
  return undefined;
}

/** Items of an `<input webkitdirectory>` (or multiple) FileList; paths from `webkitRelativePath`. */
export function fromFileList(files: FileList | File[]): { root: string; items: ImportItem[] } {
  const all = Array.from(files).map((file) => ({ path: file.webkitRelativePath || file.name, size: file.size, bytes: () => file.arrayBuffer() }));
  const root = all[0]?.path.includes('/') ? (all[0]?.path.split('/')[0] ?? 'folder') : 'files';
  return { root, items: stripCommonRoot(all).filter((item) => !isSkipped(item.path)) };
}

interface DirectoryHandle {
  name: string;
  kind: 'directory';
  values(): AsyncIterable<DirectoryHandle | FileHandle>;
}
interface FileHandle {
  name: string;
  kind: 'file';
  getFile(): Promise<File>;
}

/** Whether this browser has the File System Access directory picker. */
export function hasDirectoryPicker(): boolean {
  return typeof (window as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
}

/** Asks for a folder with `showDirectoryPicker`; undefined when the person cancels. */
export async function fromDirectoryPicker(): Promise<{ root: string; items: ImportItem[] } | undefined> {
  let handle: DirectoryHandle;
  try {
    handle = await (window as unknown as { showDirectoryPicker(options: { mode: 'read' }): Promise<DirectoryHandle> }).showDirectoryPicker({ mode: 'read' });
  } catch {
    return undefined;
  }
  const items: ImportItem[] = [];
  const visit = async (dir: DirectoryHandle, prefix: string): Promise<void> => {
    for await (const entry of dir.values()) {
      const path = prefix + entry.name;
      if (isSkipped(path)) continue;
      if (entry.kind === 'directory') await visit(entry, `${path}/`);
      else {
        const file = await entry.getFile();
        items.push({ path, size: file.size, bytes: () => file.arrayBuffer() });
      }
    }
  };
  await visit(handle, '');
  return { root: handle.name, items };
}

/** Items of a drop: folders through `webkitGetAsEntry`, plain files as they are. */
export async function fromDrop(transfer: DataTransfer): Promise<{ root: string; items: ImportItem[]; zip?: File }> {
  const entries = Array.from(transfer.items)
    .map((item) => item.webkitGetAsEntry?.())
    .filter((entry): entry is FileSystemEntry => !!entry);
  const zip = Array.from(transfer.files).find((file) => file.name.toLowerCase().endsWith('.zip'));
  if (zip && entries.length === 1 && entries[0]?.isFile) return { root: zip.name.replace(/\.zip$/i, ''), items: [], zip };
  const items: ImportItem[] = [];
  const readAll = (reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> =>
    new Promise((resolve, reject) => {
      const out: FileSystemEntry[] = [];
      // readEntries answers in batches (100 in Chromium) until it returns none.
      const next = (): void => reader.readEntries((batch) => (batch.length === 0 ? resolve(out) : (out.push(...batch), next())), reject);
      next();
    });
  const visit = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    const path = prefix + entry.name;
    if (isSkipped(path)) return;
    if (entry.isDirectory) {
      for (const child of await readAll((entry as FileSystemDirectoryEntry).createReader())) await visit(child, `${path}/`);
    } else {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      items.push({ path, size: file.size, bytes: () => file.arrayBuffer() });
    }
  };
  for (const entry of entries) await visit(entry, '');
  const root = entries.length === 1 && entries[0]?.isDirectory ? entries[0].name : 'dropped';
  return { root, items: entries.length === 1 && entries[0]?.isDirectory ? stripCommonRoot(items) : items };
}

/** Progress of an import. */
export interface ImportProgress {
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
}

const CHUNK_FILES = 100;
const CHUNK_BYTES = 2 * 1024 * 1024;

/**
 * Sends `items` to `write` in chunks of at most 100 files / 2 MB (measured: bigger chunks made main-thread tasks near 200 ms with 5,000 files), reading the next chunk while the
 * worker stores the current one. Stops between chunks when `signal` fires (the chunks already written
 * stay); `afterChunk`, where given, is awaited after each chunk is written and reported. Resolves with
 * what was written.
 */
export async function importItems(options: {
  items: ImportItem[];
  write(files: Array<{ path: string; data: ArrayBuffer }>): Promise<number>;
  onProgress(progress: ImportProgress): void;
  signal: AbortSignal;
  afterChunk?(): Promise<void> | undefined;
}): Promise<ImportProgress & { cancelled: boolean }> {
  const { items, write, onProgress, signal, afterChunk } = options;
  const progress: ImportProgress = { files: 0, totalFiles: items.length, bytes: 0, totalBytes: items.reduce((sum, item) => sum + item.size, 0) };
  onProgress(progress);
  const chunks: ImportItem[][] = [];
  let chunk: ImportItem[] = [];
  let chunkBytes = 0;
  for (const item of items) {
    if (chunk.length >= CHUNK_FILES || (chunk.length > 0 && chunkBytes + item.size > CHUNK_BYTES)) {
      chunks.push(chunk);
      chunk = [];
      chunkBytes = 0;
    }
    chunk.push(item);
    chunkBytes += item.size;
  }
  if (chunk.length > 0) chunks.push(chunk);

  const read = (part: ImportItem[]): Promise<Array<{ path: string; data: ArrayBuffer }>> =>
    Promise.all(part.map(async (item) => ({ path: item.path, data: await item.bytes() })));
  let pending = chunks.length > 0 ? read(chunks[0] ?? []) : undefined;
  for (let i = 0; i < chunks.length && pending; i += 1) {
    if (signal.aborted) break;
    const files = await pending;
    pending = i + 1 < chunks.length ? read(chunks[i + 1] ?? []) : undefined;
    pending?.catch(() => undefined);
    if (signal.aborted) break;
    progress.bytes += await write(files);
    progress.files += files.length;
    onProgress(progress);
    await afterChunk?.();
    await nextFrame();
  }
  return { ...progress, cancelled: progress.files < progress.totalFiles };
}
