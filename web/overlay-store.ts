// Where an overlay workspace keeps its staged layer: in the workspace's own storage (IndexedDB, or
// memory), as a record `.toolhost-overlay.json` at the root and each staged file's bytes (the base's
// when first changed, and the overlay's) in the folder `.toolhost-overlay`. Written after every change
// of the layer and committed with the workspace's flush, so a reloaded page finds the layer again.
import type { FsPromises } from '../src/core/types.js';
import { StagedLayer, type StagedFile } from '../src/journal/review-fs.js';

const META = '.toolhost-overlay.json';
const BLOBS = '.toolhost-overlay';

/** The record: each staged file with its slot (its bytes' file names), the folders made and removed. */
interface Record2 {
  version: 2;
  files: Array<{ path: string; slot: number; base: boolean; content: boolean }>;
  dirs: string[];
  removed: string[];
}

/** The record an earlier release kept: relative paths removed, and the SHA-256 of each changed file's base (null: none); the overlay's files lay at their own paths. */
interface Record1 {
  deleted: string[];
  originals: Record<string, string | null>;
}

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

async function readOrNothing(fs: FsPromises, path: string): Promise<Uint8Array | null> {
  try {
    return await fs.readFile(path);
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR' || codeOf(error) === 'EISDIR') return null;
    throw error;
  }
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The staged layer kept in `store` under `root` (empty when none is kept), and the keeper that saves
 * it there. `lower` (the base shown at the root) is read only to take up a record of an earlier
 * release, whose bases were hashes.
 */
export async function openLayer(store: FsPromises, root: string, lower: FsPromises): Promise<{ layer: StagedLayer; keeper: LayerStore }> {
  const layer = new StagedLayer();
  const raw = await readOrNothing(store, `${root}/${META}`);
  // No record, but files at their own paths (seeded with the workspace's `files`): each is staged as the base's file then was.
  const seeded = raw === null && (await store.readdir(root).catch(() => [] as string[])).some((name) => name !== BLOBS);
  if (raw === null && !seeded) return { layer, keeper: new LayerStore(store, root) };
  const text = raw === null ? JSON.stringify({ deleted: [], originals: {} }) : new TextDecoder().decode(raw);
  const record = JSON.parse(text) as Record2 | Record1;
  if (!('version' in record)) {
    const keeper = new LayerStore(store, root);
    return { layer: await migrate(record, store, root, lower, keeper), keeper };
  }
  const saved: Array<[string, Saved]> = [];
  for (const entry of record.files) {
    const base = entry.base ? await store.readFile(blob(root, entry.slot, 'base')) : null;
    const content = entry.content ? await store.readFile(blob(root, entry.slot, 'staged')) : null;
    layer.put(entry.path, base, content);
    const file = layer.files.get(entry.path);
    saved.push([entry.path, { file, version: file?.version ?? -1, slot: entry.slot, base, content: entry.content }]);
  }
  for (const dir of record.dirs) layer.dirs.add(dir);
  for (const dir of record.removed) layer.removed.add(dir);
  return { layer, keeper: new LayerStore(store, root, saved, text) };
}

/**
 * Takes up an earlier release's record: each file the overlay held (at its own path) is staged, and each
 * base file under a removed path staged as removed. A file's base is the base's bytes now when they
 * still have the recorded hash; when they do not, the earlier bytes are gone, so the base is taken as
 * empty and the file shows as a conflict until it is discarded or rejected.
 */
async function migrate(record: Record1, store: FsPromises, root: string, lower: FsPromises, keeper: LayerStore): Promise<StagedLayer> {
  const layer = new StagedLayer();
  const baseOf = async (path: string): Promise<Uint8Array | null> => {
    const now = await readOrNothing(lower, path);
    const was = record.originals[path.slice(root.length + 1)];
    if (was === undefined || was === (now === null ? null : await sha256(now))) return now;
    return was === null ? null : new Uint8Array(0);
  };
  const walk = async (fs: FsPromises, dir: string, each: (path: string) => Promise<void>, dirs?: (path: string) => void): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (dir === root && (entry.name === META || entry.name === BLOBS)) continue;
      if (entry.isDirectory()) (dirs?.(path), await walk(fs, path, each, dirs));
      else if (entry.isFile()) await each(path);
    }
  };
  await walk(store, root, async (path) => layer.put(path, await baseOf(path), await store.readFile(path)), (path) => layer.dirs.add(path));
  for (const rel of record.deleted) {
    const path = `${root}/${rel}`;
    const stats = await lower.lstat(path).catch(() => undefined);
    if (stats?.isDirectory()) {
      layer.removed.add(path);
      await walk(lower, path, async (file) => void (layer.files.has(file) || layer.put(file, await baseOf(file), null)), (sub) => layer.removed.add(sub));
    } else if (!layer.files.has(path)) layer.put(path, await baseOf(path), null);
  }
  for (const name of await store.readdir(root)) await store.rm(`${root}/${name}`, { recursive: true, force: true });
  await keeper.save(layer);
  return layer;
}

function blob(root: string, slot: number, which: 'base' | 'staged'): string {
  return `${root}/${BLOBS}/${slot}.${which}`;
}

/** What the store holds of one staged file. */
interface Saved {
  /** The staged file saved (undefined: a slot whose file is no longer staged). */
  file: StagedFile | undefined;
  version: number;
  slot: number;
  base: Uint8Array | null;
  /** Whether the slot holds staged bytes (false: the file is staged as removed). */
  content: boolean;
}

/** Writes a staged layer to `store`: only the files whose staged change moved since the last save, then the record. */
export class LayerStore {
  readonly #store: FsPromises;
  readonly #root: string;
  readonly #saved = new Map<string, Saved>();
  #slots = 0;
  #record: string;
  #chain: Promise<void> = Promise.resolve();

  /** `saved`: what the store holds already (a layer loaded from it, with its record's text). */
  constructor(store: FsPromises, root: string, saved: ReadonlyArray<[string, Saved]> = [], record = '') {
    this.#store = store;
    this.#root = root;
    for (const [path, entry] of saved) (this.#saved.set(path, entry), (this.#slots = Math.max(this.#slots, entry.slot)));
    this.#record = record;
  }

  /** Saves `layer` after every save asked for before (one at a time). */
  save(layer: StagedLayer): Promise<void> {
    const next = this.#chain.then(() => this.#write(layer));
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #write(layer: StagedLayer): Promise<void> {
    const store = this.#store;
    const root = this.#root;
    for (const [path, saved] of [...this.#saved]) {
      if (layer.files.get(path) === saved.file) continue;
      this.#saved.delete(path);
      await store.rm(blob(root, saved.slot, 'base'), { force: true });
      await store.rm(blob(root, saved.slot, 'staged'), { force: true });
    }
    if (layer.empty) {
      this.#record = '';
      await store.rm(`${root}/${META}`, { force: true });
      await store.rm(`${root}/${BLOBS}`, { recursive: true, force: true });
      return;
    }
    await store.mkdir(`${root}/${BLOBS}`, { recursive: true });
    for (const [path, file] of [...layer.files]) {
      const saved = this.#saved.get(path);
      if (saved?.file === file && saved.version === file.version) continue;
      // Taken before any await: a change meanwhile moves the version, and the next save writes it.
      const { version, base, content } = file;
      const slot = saved?.slot ?? (this.#slots += 1);
      if (saved?.base !== base || saved.file !== file) await this.#put(blob(root, slot, 'base'), base);
      await this.#put(blob(root, slot, 'staged'), content);
      this.#saved.set(path, { file, version, slot, base, content: content !== null });
    }
    const record: Record2 = {
      version: 2,
      files: [...this.#saved].map(([path, saved]) => ({ path, slot: saved.slot, base: saved.base !== null, content: saved.content })),
      dirs: [...layer.dirs],
      removed: [...layer.removed],
    };
    const text = JSON.stringify(record);
    if (text !== this.#record) await store.writeFile(`${root}/${META}`, text);
    this.#record = text;
  }

  async #put(path: string, bytes: Uint8Array | null): Promise<void> {
    if (bytes === null) await this.#store.rm(path, { force: true });
    else await this.#store.writeFile(path, bytes);
  }
}
