import type { SearchSource } from '../core/types.js';
import type { MemoryFs } from '../fs/memfs.js';
/**
 * The search tools' reader over an in-memory filesystem (see `SearchSource`), for the memory platform
 * and the web platform's journalled workspace: listings and files come straight from the tree, a
 * file's bytes as stored (no copy: `MemoryFs.storedFileSync`), so a search reads no file twice and
 * decodes only what it reports. Bytes are searched with {@link ByteFinder} and validated with
 * {@link isUtf8} (plain JavaScript, as in the browser). `tree` gives the filesystem at each call (the
 * web platform loads its tree on first use). With `changeCount` (the platform's change counter:
 * every change to the tree moves it) listings and file stats are kept while it stays the same, so a
 * repeated search walks no folder and looks up no path again.
 */
export declare function createMemorySearchSource(tree: () => MemoryFs, changeCount?: () => number): SearchSource;
