import { ByteFinder, isUtf8 } from './bytes.js';
import { linearByteSearch } from './linear-find.js';
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
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
export function createMemorySearchSource(tree, changeCount) {
    let finder;
    let generation;
    let listings = new Map();
    let stats = new Map();
    /** Whether the kept listings and stats are current (emptied when the tree changed since). */
    const current = () => {
        if (!changeCount)
            return false;
        const now = changeCount();
        if (now !== generation) {
            generation = now;
            listings = new Map();
            stats = new Map();
        }
        return true;
    };
    const statOf = (path) => {
        const stored = tree().storedFileSync(path);
        return stored ? { size: stored.data.length, mtimeMs: stored.mtimeMs, ino: stored.ino } : undefined;
    };
    return {
        readdir(path) {
            if (!current())
                return tree().readdirSync(path, { withFileTypes: true });
            let dirents = listings.get(path);
            if (!dirents) {
                dirents = tree().readdirSync(path, { withFileTypes: true });
                listings.set(path, dirents);
            }
            return dirents;
        },
        stat(path) {
            if (!current())
                return statOf(path);
            let stat = stats.get(path);
            if (stat === undefined) {
                stat = statOf(path) ?? null;
                stats.set(path, stat);
            }
            return stat ?? undefined;
        },
        read(path, maxBytes) {
            const stored = tree().storedFileSync(path);
            if (!stored)
                return undefined;
            const { data } = stored;
            return { bytes: data.length > maxBytes ? data.subarray(0, maxBytes) : data, stat: { size: data.length, mtimeMs: stored.mtimeMs, ino: stored.ino } };
        },
        indexOf: linearByteSearch((haystack, needle, from) => {
            if (needle.length === 1)
                return haystack.indexOf(needle[0], Math.max(0, from));
            if (!finder?.matches(needle))
                finder = new ByteFinder(needle);
            return finder.find(haystack, from);
        }),
        isUtf8,
        decode(bytes) {
            return decoder.decode(bytes);
        },
    };
}
//# sourceMappingURL=memory-source.js.map