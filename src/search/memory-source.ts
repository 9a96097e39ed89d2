import { nativeBytes, type NativeBytes } from '#lazy';
import type { FsDirent } from '../core/types.js';
import type { SearchFileStat, SearchSource } from './source-port.js';
import type { MemoryFs } from '../fs/memfs.js';
import { ByteFinder, isUtf8 } from './bytes.js';
import { linearByteSearch } from './linear-find.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The runtime's native byte helpers (Node's `Buffer` search and `isUtf8`), where it has them. */
const native = nativeBytes();

/** `haystack.indexOf(needle, from)` on bytes in plain JavaScript (a {@link ByteFinder} kept for the last needle). */
function javascriptIndexOf(): (haystack: Uint8Array, needle: Uint8Array, from: number) => number {
  let finder: ByteFinder | undefined;
  return (haystack, needle, from) => {
    if (needle.length === 1) return haystack.indexOf(needle[0] as number, Math.max(0, from));
    if (!finder?.matches(needle)) finder = new ByteFinder(needle);
    return finder.find(haystack, from);
  };
}

/** `haystack.indexOf(needle, from)` with the runtime's native search. */
function nativeIndexOf(bytes: NativeBytes): (haystack: Uint8Array, needle: Uint8Array, from: number) => number {
  return (haystack, needle, from) => bytes.indexOf(haystack, needle.length === 1 ? (needle[0] as number) : needle, Math.max(0, from));
}

/**
 * The search tools' reader over an in-memory filesystem (see `SearchSource`), for the memory platform
 * and the web platform's journalled workspace: listings and files come straight from the tree, a
 * file's bytes as stored (no copy: `MemoryFs.storedFileSync`), so a search reads no file twice and
 * decodes only what it reports. Bytes are searched with {@link ByteFinder} and validated with
 * {@link isUtf8} (plain JavaScript) in browsers, with Node's native ones on Node (`nativeBytes`). `tree` gives the filesystem at each call (the
 * web platform loads its tree on first use). With `changeCount` (the platform's change counter:
 * every change to the tree moves it) listings and file stats are kept while it stays the same, so a
 * repeated search walks no folder and looks up no path again.
 */
export function createMemorySearchSource(tree: () => MemoryFs, changeCount?: () => number): SearchSource {
  let generation: number | undefined;
  let listings = new Map<string, FsDirent[]>();
  let stats = new Map<string, SearchFileStat | null>();
  /** Whether the kept listings and stats are current (emptied when the tree changed since). */
  const current = (): boolean => {
    if (!changeCount) return false;
    const now = changeCount();
    if (now !== generation) {
      generation = now;
      listings = new Map();
      stats = new Map();
    }
    return true;
  };
  const statOf = (path: string): SearchFileStat | undefined => {
    const stored = tree().storedFileSync(path);
    return stored ? { size: stored.data.length, mtimeMs: stored.mtimeMs, ctimeMs: stored.ctimeMs, ino: stored.ino } : undefined;
  };
  return {
    readdir(path: string): FsDirent[] {
      if (!current()) return tree().readdirSync(path, { withFileTypes: true });
      let dirents = listings.get(path);
      if (!dirents) {
        dirents = tree().readdirSync(path, { withFileTypes: true });
        listings.set(path, dirents);
      }
      return dirents;
    },
    stat(path: string): SearchFileStat | undefined {
      if (!current()) return statOf(path);
      let stat = stats.get(path);
      if (stat === undefined) {
        stat = statOf(path) ?? null;
        stats.set(path, stat);
      }
      return stat ?? undefined;
    },
    read(path: string, maxBytes: number): { bytes: Uint8Array; stat: SearchFileStat } | undefined {
      const stored = tree().storedFileSync(path);
      if (!stored) return undefined;
      const { data } = stored;
      return { bytes: data.length > maxBytes ? data.subarray(0, maxBytes) : data, stat: { size: data.length, mtimeMs: stored.mtimeMs, ctimeMs: stored.ctimeMs, ino: stored.ino } };
    },
    ...sourceByteHelpers(),
  };
}

/**
 * A search source's byte helpers (see `SearchSource`): `indexOf` with the runtime's native search
 * where it has one (else {@link ByteFinder}), linear for long needles; `isUtf8` native or plain
 * JavaScript; `decode` keeping a BOM as U+FEFF. A fresh set per source (`indexOf` keeps its last needle).
 */
export function sourceByteHelpers(): Pick<SearchSource, 'indexOf' | 'isUtf8' | 'decode'> {
  return {
    indexOf: linearByteSearch(native ? nativeIndexOf(native) : javascriptIndexOf()),
    isUtf8: native ? native.isUtf8 : isUtf8,
    decode(bytes: Uint8Array): string {
      return decoder.decode(bytes);
    },
  };
}
