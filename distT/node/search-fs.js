import { Buffer, isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { posix } from 'node:path';
import { isToolError, ToolError } from '../src/core/errors.js';
import { BINARY_SNIFF_BYTES } from '../src/fs/text.js';
import { DEFAULT_CACHE_BYTES, releaseCache } from '../src/search/source-cache.js';
import { startSearchHelper } from './search-helper.js';
import { linearByteSearch } from '../src/search/linear-find.js';
import { escapeBytes, unescapePath } from './fs/names.js';
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY, O_DIRECTORY } = fs.constants;
/** A regular file opened for reading: never through a final symlink, never waiting on a FIFO or terminal. */
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
/** A directory held for the walk: never through a symlink. */
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Files larger than this are read 8 KiB first, and no further when that shows them binary. */
const SNIFF_FIRST_BYTES = 1024 * 1024;
const sniffBuffer = new Uint8Array(BINARY_SNIFF_BYTES);
/** Directory entries the listing cache keeps at most (the walk's own cap). */
const MAX_LISTED_ENTRIES = 200_000;
/** A directory modified this close to the moment it was listed is listed again (git's "racily clean" rule). */
const RACY_MS = 1000;
/** Directory descriptors kept open at once (the walk's ancestors and recent directories). */
const HELD_DIRS = 64;
function inside(root, path) {
    return root === '/' ? path.startsWith('/') : path === root || path.startsWith(root + '/');
}
const bufferIndexOf = Buffer.prototype.indexOf;
/** Buffer's indexOf (it takes any Uint8Array as `this`: no Buffer view made per call), linear for long needles. */
const nativeThenLinear = linearByteSearch((haystack, needle, from) => bufferIndexOf.call(haystack, needle, from));
/** `/proc/<pid>/fd/`: one symbolic link fewer to resolve per open than `/proc/self/fd/`. */
const FD_DIR = `/proc/${process.pid}/fd/`;
function childOf(dirfd, name) {
    const raw = unescapePath(name);
    return typeof raw === 'string' ? `${FD_DIR}${dirfd}/${raw}` : Buffer.concat([Buffer.from(`${FD_DIR}${dirfd}/`), raw]);
}
/**
 * The search tools' reader for a real directory `root` (see `SearchSource`): synchronous `node:fs`
 * calls, which cost a few microseconds each instead of a thread-pool round trip, and no `realpath`.
 * The walk stays inside the root by construction, race-free: every directory is held open as a
 * descriptor, each one opened inside its (held) parent with `O_NOFOLLOW | O_DIRECTORY` through
 * `/proc/self/fd/<parent>/<name>`, and files are opened the same way with `O_NOFOLLOW`, so a folder
 * swapped for a link out by another process is refused, never followed. Symbolic links are listed as
 * such and never entered. At most 64 directory descriptors are held (least recently used closed).
 * Names that are not UTF-8 come and go in the lossless `\xNN` form (`node/fs/names.ts`). Each path
 * must lie lexically inside `root` (else ToolError `outside_workspace`). Bytes are searched with
 * `Buffer.indexOf` (memchr-fast) and validated with `isUtf8` (SIMD). Linux only (`/proc/self/fd`);
 * elsewhere the platform keeps using its `fs`.
 */
export function createNodeSearchSource(root, options = {}) {
    const rootSlash = root === '/' ? '/' : root + '/';
    const check = (path) => {
        // The walker's paths are already normal: no `.` or `..` component, no doubled slash, no NUL.
        if (path.startsWith(rootSlash) && !path.includes('/.') && !path.includes('//') && !path.endsWith('/') && !path.includes('\0'))
            return path;
        const normal = posix.normalize(path);
        if (!normal.startsWith('/') || !inside(root, normal) || normal.includes('\0')) {
            throw new ToolError('outside_workspace', `search path is outside the workspace ${root}`);
        }
        return normal;
    };
    const statOf = (stats) => ({ size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino });
    const buffer = (bytes) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const rootFd = fs.openSync(root, DIR_FLAGS);
    /** Held directories by workspace path (insertion order = recency). */
    const held = new Map();
    const hold = (path, fd) => {
        held.set(path, fd);
        if (held.size > HELD_DIRS) {
            for (const [old, oldFd] of held) {
                held.delete(old);
                fs.closeSync(oldFd);
                break;
            }
        }
        return fd;
    };
    /**
     * Listings read before, by directory, with the directory's (inode, mtime) when read: a repeated walk
     * costs one `lstat` per directory instead of an open, a listing and a close.
     */
    const listings = new Map();
    let listedEntries = 0;
    /** Set by `dirFd` when it opened the directory just now (so there is nothing to re-check). */
    let opened = false;
    /** A descriptor of the directory `path` (normalised, inside the root), opened component by component. */
    const dirFd = (path) => {
        opened = false;
        if (path === root)
            return rootFd;
        const known = held.get(path);
        if (known !== undefined) {
            held.delete(path);
            held.set(path, known);
            return known;
        }
        const slash = path.lastIndexOf('/');
        const parent = dirFd(slash === 0 ? '/' : path.slice(0, slash));
        const fd = hold(path, fs.openSync(childOf(parent, path.slice(slash + 1)), DIR_FLAGS));
        opened = true;
        return fd;
    };
    const parentAndName = (path) => {
        const slash = path.lastIndexOf('/');
        return [dirFd(slash === 0 ? '/' : path.slice(0, slash)), path.slice(slash + 1)];
    };
    let closed = false;
    /** Throws once the source is closed: its descriptors are gone (or reused), so nothing it answered now would be true. */
    const live = () => {
        if (closed)
            throw new ToolError('unavailable', 'the platform was disposed while this call ran: create a new platform and search again');
    };
    const source = {
        readdir(path) {
            live();
            const normal = check(path);
            const known = listings.get(normal);
            if (known) {
                // As for a cached file: the whole-path stat only decides whether the listing read before
                // (through held descriptors) is still current.
                let now;
                try {
                    now = fs.lstatSync(unescapePath(normal), { throwIfNoEntry: false });
                }
                catch {
                    now = undefined;
                }
                if (now?.isDirectory() && now.ino === known.ino && now.mtimeMs === known.mtimeMs && now.mtimeMs < known.readAt - RACY_MS)
                    return known.entries;
                listings.delete(normal);
                listedEntries -= known.entries.length;
            }
            const readAt = Date.now();
            let fd = dirFd(normal);
            if (normal !== root && !opened) {
                // A held descriptor may name a directory renamed since: check it is still the one at this path.
                const [parent, name] = parentAndName(normal);
                const now = fs.lstatSync(childOf(parent, name), { throwIfNoEntry: false });
                if (!now?.isDirectory() || now.ino !== fs.fstatSync(fd).ino) {
                    held.delete(normal);
                    fs.closeSync(fd);
                    fd = dirFd(normal);
                }
            }
            // Stat before listing: a change after it leaves a newer mtime, so the listing is read again next time.
            const stats = fs.fstatSync(fd);
            let entries = fs.readdirSync(`${FD_DIR}${fd}`, { withFileTypes: true });
            // Names that are not UTF-8 decode with U+FFFD (and a backslash needs escaping): list those again as bytes, in the \xNN form.
            if (entries.some((entry) => entry.name.includes('\uFFFD') || entry.name.includes('\\'))) {
                entries = fs.readdirSync(`${FD_DIR}${fd}`, { withFileTypes: true, encoding: 'buffer' }).map((entry) => {
                    const name = escapeBytes(entry.name);
                    return { name, isFile: () => entry.isFile(), isDirectory: () => entry.isDirectory(), isSymbolicLink: () => entry.isSymbolicLink() };
                });
            }
            if (listedEntries + entries.length <= MAX_LISTED_ENTRIES) {
                listings.set(normal, { ino: stats.ino, mtimeMs: stats.mtimeMs, readAt, entries });
                listedEntries += entries.length;
            }
            return entries;
        },
        stat(path) {
            live();
            let stats;
            try {
                // By its whole path (half the cost of going through a held directory): the cache only compares
                // this stat with the one taken when the file was read through held directories, so a folder
                // swapped for a link out can make it read the file again, never return bytes from outside.
                stats = fs.lstatSync(unescapePath(check(path)), { throwIfNoEntry: false });
            }
            catch (error) {
                if (isToolError(error))
                    throw error;
                return undefined;
            }
            return stats?.isFile() ? statOf(stats) : undefined;
        },
        read(path, maxBytes, into) {
            live();
            let fd;
            try {
                const [dir, name] = parentAndName(check(path));
                fd = fs.openSync(childOf(dir, name), READ_FLAGS);
            }
            catch (error) {
                if (isToolError(error))
                    throw error;
                // Gone, or no longer a regular file; unreadable or replaced by a link (ELOOP) is thrown, for the
                // search to count as skipped.
                const code = error.code;
                if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENXIO' || code === 'EISDIR')
                    return undefined;
                throw error;
            }
            try {
                const stats = fs.fstatSync(fd);
                if (!stats.isFile())
                    return undefined;
                const size = Math.min(stats.size, maxBytes);
                let got = 0;
                if (size > SNIFF_FIRST_BYTES && stats.size < maxBytes) {
                    // A large file whose first 8 KiB hold a NUL is binary whatever follows: read no further.
                    while (got < BINARY_SNIFF_BYTES) {
                        const n = fs.readSync(fd, sniffBuffer, got, BINARY_SNIFF_BYTES - got, got);
                        if (n === 0)
                            break;
                        got += n;
                    }
                    if (bufferIndexOf.call(sniffBuffer.subarray(0, got), 0, 0) !== -1)
                        return { bytes: sniffBuffer.subarray(0, got), stat: statOf(stats) };
                }
                const bytes = into ? into(size) : Buffer.allocUnsafe(size);
                if (got > 0)
                    bytes.set(sniffBuffer.subarray(0, got));
                while (got < size) {
                    const n = fs.readSync(fd, bytes, got, size - got, got);
                    if (n === 0)
                        break;
                    got += n;
                }
                return { bytes: got === size ? bytes : bytes.subarray(0, got), stat: statOf(stats) };
            }
            finally {
                fs.closeSync(fd);
            }
        },
        indexOf: nativeThenLinear,
        isUtf8(bytes) {
            return isUtf8(bytes);
        },
        decode(bytes) {
            // Buffer's own decoder: faster than TextDecoder for ASCII-heavy text.
            return buffer(bytes).toString('utf8');
        },
        close() {
            if (closed)
                return;
            closed = true;
            listings.clear();
            helper?.close();
            releaseCache(source);
            for (const fd of held.values())
                fs.closeSync(fd);
            held.clear();
            fs.closeSync(rootFd);
        },
    };
    const budget = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
    const helper = options.helper === false ? undefined : startSearchHelper(root, Math.floor(budget / 2));
    return Object.assign(source, helper ? { helper, cacheBytes: budget - Math.floor(budget / 2) } : options.cacheBytes !== undefined ? { cacheBytes: budget } : {});
}
//# sourceMappingURL=search-fs.js.map